/*
 * screen.c - a session's terminal: libvterm's state layer drives our own
 * cells (see screen.h).
 *
 * libvterm parses the bytes and keeps the terminal's state (cursor, modes,
 * pen, margins); its callbacks write into two grids (term/grid.c), the
 * primary and, once a program asks for it, the alternate one.  Invariants:
 * every byte fed reaches libvterm, but plain lines written where libvterm's
 * state is proven to leave them as they are (term/feed.c), and
 * the first bytes of a character held until its last one comes; lines
 * leave the top of the primary grid only into our scrollback ring (never
 * from the alternate grid), as they are, and come back from it when the
 * screen grows taller; the pushed counter counts every line that left.
 * libvterm 0.1.4 does not say when the cursor wraps, so a glyph written at
 * the start of the row below the one the previous glyph filled, with no
 * cursor move between, marks that row wrapped; a width change rewraps such
 * lines (term/reflow.c).  Nor does it act on DECCOLM: term/colmode.c spots
 * it, and the screen is cleared and the cursor homed as tmux does; and it
 * loops for ever on a REP whose last character took no column, which is
 * dropped.  A bare screen (screen_new_bare) has libvterm's state answer
 * the program and keeps no cells: its callbacks keep the cursor and the
 * size only.  The cells and their text are read back in
 * term/screen-read.c.
 */
#include "term/screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term/reflow.h"
#include "term/screen-int.h"


/* libvterm's colour to ours. */
static uint32_t
color_from_vterm(const VTermColor *c, bool is_fg)
{
	if (is_fg ? VTERM_COLOR_IS_DEFAULT_FG(c) : VTERM_COLOR_IS_DEFAULT_BG(c))
		return CELL_COLOR_DEFAULT;
	if (VTERM_COLOR_IS_INDEXED(c))
		return CELL_COLOR_INDEXED | c->indexed.idx;
	return CELL_COLOR_RGB | ((uint32_t)c->rgb.red << 16) |
	    ((uint32_t)c->rgb.green << 8) | c->rgb.blue;
}

/* Set or clear one attribute flag of the pen. */
static void
pen_flag(struct screen *s, uint16_t flag, bool on)
{
	if (on)
		s->pen.flags |= flag;
	else
		s->pen.flags &= (uint16_t)~flag;
}

/* A glyph as cb_putglyph takes it when it is not the usual one. */
static int __attribute__((noinline))
putglyph_any(struct screen *s, VTermGlyphInfo *info, VTermPos pos)
{
	const struct cell_attr	*pen = &s->pen;
	struct cell_attr	 attr;

	if (info->protected_cell) {
		attr = s->pen;
		attr.flags |= GRID_PROTECTED;
		pen = &attr;
		s->any_protected = true;
	}
	/* The previous glyph filled its row (or left too little room for a
	 * wide one) and this one starts the next row: the cursor wrapped. */
	if (s->wrap_row >= 0 && pos.col == 0 && pos.row == s->wrap_row + 1 &&
	    (s->wrap_end >= s->cols ||
	    (s->wrap_end == s->cols - 1 && info->width == 2)))
		grid_set_wrapped(s->cur, s->wrap_row, true);
	grid_put(s->cur, pos.row, pos.col, info->chars, info->width, pen);
	s->wrap_row = pos.row;
	s->wrap_end = pos.col + info->width;
	return 1;
}

static int	cb_putglyph(VTermGlyphInfo *, VTermPos, void *);

/*
 * A glyph while a line or a probe is watched (see watch_line): it must be
 * the next expected character, narrow, unprotected, at the next column of
 * the bottom row.  A probe's glyphs are not written, nor a quiet one's.
 */
static int __attribute__((noinline))
putglyph_watched(struct screen *s, VTermGlyphInfo *info, VTermPos pos)
{
	int	mode = s->watch, r;

	if (mode == WATCH_QUIET)
		return 1;
	if (info->width != 1 || info->chars[1] != 0 || info->protected_cell ||
	    pos.row != s->rows - 1 || pos.col != s->w_col ||
	    s->w_glyphs >= s->w_len ||
	    info->chars[0] != (unsigned char)s->w_text[s->w_glyphs])
		s->w_bad = true;
	s->w_glyphs++;
	s->w_col++;
	if (mode == WATCH_PROBE)
		return 1;
	s->watch = WATCH_OFF;
	r = cb_putglyph(info, pos, s);
	s->watch = mode;
	return r;
}

/*
 * Every character a program prints comes here: the usual one (narrow, one
 * code point, unprotected, not where a wrap may have to be marked, over a
 * narrow cell) is written without a call; any other by putglyph_any.
 */
static int
cb_putglyph(VTermGlyphInfo *info, VTermPos pos, void *user)
{
	struct screen	*s = user;
	int		 width;

	/*
	 * The width is read alone.  libvterm has just stored info's fields
	 * one by one; the compiler would test the width and the protection
	 * bit with one 8-byte load across two of those stores, which the
	 * CPU cannot forward from its store buffer: the load waits for both
	 * stores to reach the cache, at every glyph (perf put more than half
	 * of this function's samples on that one comparison).
	 */
	width = __atomic_load_n(&info->width, __ATOMIC_RELAXED);
	s->last_width = width;
	if (__builtin_expect(s->watch != WATCH_OFF, 0))
		return putglyph_watched(s, info, pos);
	if (width == 1 && info->chars[0] != 0 && info->chars[1] == 0 &&
	    !info->protected_cell &&
	    (pos.col != 0 || s->wrap_row < 0) &&
	    grid_put_narrow(s->cur, pos.row, pos.col, info->chars[0],
	    &s->pen)) {
		s->wrap_row = pos.row;
		s->wrap_end = pos.col + 1;
		return 1;
	}
	return putglyph_any(s, info, pos);
}

static int
cb_movecursor(VTermPos pos, VTermPos old, int visible, void *user)
{
	struct screen	*s = user;

	(void)old;
	(void)visible;
	s->crow = pos.row;
	s->ccol = pos.col;
	/* Only the cursor resting after a row's last glyph can still wrap. */
	if (pos.row != s->wrap_row || pos.col != s->cols - 1)
		s->wrap_row = -1;
	return 1;
}

static int
cb_scrollrect(VTermRect r, int downward, int rightward, void *user)
{
	struct screen	*s = user;

	if (s->watch != WATCH_OFF) {
		if (s->watch != WATCH_LINE || r.start_row != 0 ||
		    r.end_row != s->rows || r.start_col != 0 ||
		    r.end_col != s->cols || downward != 1 || rightward != 0) {
			s->w_bad = true;
			if (s->watch != WATCH_LINE)
				return 1;	/* a probe changes no cell */
		} else
			s->w_scrolls++;
	}
	/* A full-width scroll carries the row a wrap may continue. */
	if (s->wrap_row >= r.start_row && s->wrap_row < r.end_row &&
	    r.start_col == 0 && r.end_col == s->cols && rightward == 0)
		s->wrap_row -= downward;
	if (s->wrap_row < r.start_row || s->wrap_row >= r.end_row)
		s->wrap_row = -1;
	s->pushed += (uint64_t)grid_scroll(s->cur, r.start_row, r.end_row,
	    r.start_col, r.end_col, downward, rightward, s->pen.bg,
	    s->cur == s->pri ? s->sb : NULL);
	return 1;
}

static int
cb_erase(VTermRect r, int selective, void *user)
{
	struct screen	*s = user;

	if (s->watch != WATCH_OFF) {
		s->w_bad = true;
		if (s->watch != WATCH_LINE)
			return 1;	/* a probe changes no cell */
	}
	grid_erase(s->cur, r.start_row, r.end_row, r.start_col, r.end_col,
	    s->pen.bg, selective != 0);
	return 1;
}

static int
cb_initpen(void *user)
{
	struct screen	*s = user;

	memset(&s->pen, 0, sizeof s->pen);
	return 1;
}

static int
cb_setpenattr(VTermAttr attr, VTermValue *val, void *user)
{
	struct screen	*s = user;

	switch (attr) {
	case VTERM_ATTR_BOLD:
		pen_flag(s, CELL_BOLD, val->boolean);
		break;
	case VTERM_ATTR_UNDERLINE:
		pen_flag(s, CELL_UNDERLINE,
		    val->number == VTERM_UNDERLINE_SINGLE);
		pen_flag(s, CELL_UNDERLINE2,
		    val->number != VTERM_UNDERLINE_OFF &&
		    val->number != VTERM_UNDERLINE_SINGLE);
		break;
	case VTERM_ATTR_ITALIC:
		pen_flag(s, CELL_ITALIC, val->boolean);
		break;
	case VTERM_ATTR_BLINK:
		pen_flag(s, CELL_BLINK, val->boolean);
		break;
	case VTERM_ATTR_REVERSE:
		pen_flag(s, CELL_REVERSE, val->boolean);
		break;
	case VTERM_ATTR_STRIKE:
		pen_flag(s, CELL_STRIKE, val->boolean);
		break;
	case VTERM_ATTR_FOREGROUND:
		s->pen.fg = color_from_vterm(&val->color, true);
		break;
	case VTERM_ATTR_BACKGROUND:
		s->pen.bg = color_from_vterm(&val->color, false);
		break;
	default:
		break;
	}
	return 1;
}

static int
cb_settermprop(VTermProp prop, VTermValue *val, void *user)
{
	struct screen	*s = user;

	switch (prop) {
	case VTERM_PROP_CURSORVISIBLE:
		s->cursor_visible = val->boolean;
		break;
	case VTERM_PROP_ALTSCREEN:
		s->altscreen = val->boolean;
		if (s->altscreen && s->alt == NULL)
			s->alt = grid_new(s->rows, s->cols);
		s->cur = s->altscreen ? s->alt : s->pri;
		s->wrap_row = -1;
		grid_damage(s->cur, 0, s->rows, 0, s->cols);
		break;
	case VTERM_PROP_TITLE:
		free(s->title);
		s->title = xstrdup(val->string != NULL ? val->string : "");
		break;
	default:
		break;
	}
	if (s->ev != NULL && s->ev->props != NULL)
		s->ev->props(s->user);
	return 1;
}

static int
cb_bell(void *user)
{
	struct screen	*s = user;

	if (s->ev != NULL && s->ev->bell != NULL)
		s->ev->bell(s->user);
	return 1;
}

/*
 * The terminal changes size; libvterm moves its cursor by *delta.  As
 * libvterm's own screen did: when fewer rows remain, empty rows below the
 * cursor go first, then lines leave the top into the scrollback; when more
 * rows come, lines come back from the scrollback (primary screen only).
 * The primary grid behind the alternate screen is never cut either: its
 * lines leave the top instead.  A new width first rewraps the primary
 * screen's soft-wrapped lines and its scrollback (not behind the alternate
 * screen, whose program redraws).
 */
static int
cb_resize(int rows, int cols, VTermPos *delta, void *user)
{
	struct screen	*s = user;
	bool		 on_alt = s->cur == s->alt;
	VTermPos	 cursor;
	int		 r, c, n, old = s->rows;

	vterm_state_get_cursorpos(s->st, &cursor);
	s->wrap_row = -1;
	if (cols != s->cols && !on_alt) {
		r = cursor.row;
		c = cursor.col;
		s->pushed += (uint64_t)reflow(s->pri, &s->sb, cols, &r, &c);
		scrollback_set_sink(s->sb, s->sink, s->sink_arg);
		delta->row += r - cursor.row;
		delta->col += c - cursor.col;
		cursor.row = r;
		cursor.col = c;
		s->cols = cols;
	}
	if (rows < old) {
		for (r = old - 1; r >= rows; r--)
			if (!grid_row_is_empty(s->pri, r) ||
			    (!on_alt && r == cursor.row))
				break;
		/* Never past the cursor's row: rows below it are cut then
		 * (libvterm's state would take a cursor above the top). */
		n = r + 1 - rows;
		if (!on_alt && n > cursor.row)
			n = cursor.row;
		if (n > 0) {
			grid_push_top(s->pri, n, s->sb);
			s->pushed += (uint64_t)n;
			if (!on_alt)
				delta->row -= n;
		}
	}
	grid_resize(s->pri, rows, cols);
	if (s->alt != NULL)
		grid_resize(s->alt, rows, cols);
	s->rows = rows;
	s->cols = cols;
	for (r = old; r < rows && !on_alt; r++) {
		if (!grid_pop_top(s->pri, s->sb))
			break;
		delta->row++;
	}
	return 1;
}

static int
cb_setlineinfo(int row, const VTermLineInfo *newinfo,
    const VTermLineInfo *oldinfo, void *user)
{
	struct screen	*s = user;

	(void)row;
	(void)newinfo;
	(void)oldinfo;
	if (s->watch != WATCH_OFF)
		s->w_bad = true;
	return 1;		/* double-width lines are drawn single */
}

/*
 * No moverect: libvterm's state uses it only when scrollrect declines,
 * and ours never does.
 */
static const VTermStateCallbacks state_callbacks = {
	.putglyph = cb_putglyph,
	.movecursor = cb_movecursor,
	.scrollrect = cb_scrollrect,
	.erase = cb_erase,
	.initpen = cb_initpen,
	.setpenattr = cb_setpenattr,
	.settermprop = cb_settermprop,
	.bell = cb_bell,
	.resize = cb_resize,
	.setlineinfo = cb_setlineinfo,
};

/* Bytes libvterm generates for the program (key encodings, replies). */
static void
cb_output(const char *data, size_t len, void *user)
{
	struct screen	*s = user;

	if (s->capture != NULL)
		buf_add(s->capture, data, len);
	else if (s->ev != NULL && s->ev->output != NULL)
		s->ev->output(s->user, data, len);
}

/*
 * Ask libvterm for one of its settings (DECRQSS): the parameters of the
 * reply "DCS 1 $ r <params><final> ST" for final, into *a and *b.
 */
static bool
query_pair(struct screen *s, const char *final, int *a, int *b)
{
	struct buf	 reply = { 0 };
	char		 q[16], fmt[32];
	bool		 ok;

	snprintf(q, sizeof q, "\033P$q%s\033\\", final);
	snprintf(fmt, sizeof fmt, "\033P1$r%%d;%%d%s", final);
	s->capture = &reply;
	vterm_input_write(s->vt, q, strlen(q));
	s->capture = NULL;
	ok = sscanf(buf_cstr(&reply), fmt, a, b) == 2;
	buf_free(&reply);
	return ok;
}

/*
 * libvterm 0.1.4 clamps the bottom (right) margin to a smaller screen but
 * not the top (left) one, and then scrolls by negative sizes: a margin
 * that would not fit is reset first (tmux resets them on every resize),
 * the cursor kept where it is.
 */
static void
fit_margins(struct screen *s, int rows, int cols)
{
	char	seq[64];
	int	top, bottom, left, right, n;

	n = 0;
	if (query_pair(s, "r", &top, &bottom) && bottom > rows)
		n += snprintf(seq + n, sizeof seq - (size_t)n, "\033[r");
	if (query_pair(s, "s", &left, &right) && right > cols)
		n += snprintf(seq + n, sizeof seq - (size_t)n, "\033[s");
	if (n == 0)
		return;
	n += snprintf(seq + n, sizeof seq - (size_t)n, "\033[%d;%dH",
	    s->crow + 1, s->ccol + 1);
	vterm_input_write(s->vt, seq, (size_t)n);
}

/*
 * A bare screen's state callbacks: libvterm 0.1.4 calls some of them
 * without checking for NULL, so each is there and does nothing, and
 * saying it handled a scroll spares libvterm the fallback of moving and
 * erasing rectangles.
 */
static int
bare_glyph(VTermGlyphInfo *info, VTermPos pos, void *user)
{
	struct screen	*s = user;

	(void)pos;
	s->last_width = info->width;
	return 1;
}

static int
bare_scrollrect(VTermRect r, int downward, int rightward, void *user)
{
	(void)r;
	(void)downward;
	(void)rightward;
	(void)user;
	return 1;
}

static int
bare_erase(VTermRect r, int selective, void *user)
{
	(void)r;
	(void)selective;
	(void)user;
	return 1;
}

static int
bare_pen(void *user)
{
	(void)user;
	return 1;
}

static int
bare_value(VTermAttr attr, VTermValue *val, void *user)
{
	(void)attr;
	(void)val;
	(void)user;
	return 1;
}

static int
bare_prop(VTermProp prop, VTermValue *val, void *user)
{
	(void)prop;
	(void)val;
	(void)user;
	return 1;
}

static int
bare_lineinfo(int row, const VTermLineInfo *newinfo,
    const VTermLineInfo *oldinfo, void *user)
{
	(void)row;
	(void)newinfo;
	(void)oldinfo;
	(void)user;
	return 1;
}

/*
 * What a bare screen keeps of libvterm's state: the cursor (fit_margins
 * puts it back) and the size; the rest libvterm keeps itself.
 */
static const VTermStateCallbacks bare_callbacks = {
	.putglyph = bare_glyph,
	.movecursor = cb_movecursor,
	.scrollrect = bare_scrollrect,
	.erase = bare_erase,
	.initpen = bare_pen,
	.setpenattr = bare_value,
	.settermprop = bare_prop,
	.bell = bare_pen,
	.resize = cb_resize,
	.setlineinfo = bare_lineinfo,
};

/*
 * OSC 7, the directory a shell reports (as tmux keeps it for a pane's
 * path): "7;file://HOST/PATH", the path percent-encoded, or a bare path
 * taken as it is.
 * Any other OSC libvterm does not know is left alone.
 */
static int
cb_osc(const char *command, size_t len, void *user)
{
	struct screen	*s = user;
	struct buf	 b = { 0 };
	const char	*p = command, *end = command + len, *slash;
	int		 hi, lo;
	bool		 url = false;

	if (len < 2 || p[0] != '7' || p[1] != ';')
		return 0;
	p += 2;
	if ((size_t)(end - p) >= 7 && strncmp(p, "file://", 7) == 0) {
		slash = memchr(p + 7, '/', (size_t)(end - p - 7));
		p = slash != NULL ? slash : end;
		url = true;
	}
	if (p == end || *p != '/')
		return 1;
	for (; p < end; p++) {
		if (url && *p == '%' && end - p >= 3 &&
		    (hi = util_hex_value(p[1])) >= 0 &&
		    (lo = util_hex_value(p[2])) >= 0) {
			buf_addc(&b, (char)(hi << 4 | lo));
			p += 2;
		} else
			buf_addc(&b, *p);
	}
	if (memchr(b.data, '\0', b.len) == NULL) {
		free(s->cwd);
		s->cwd = xstrdup(buf_cstr(&b));
	}
	buf_free(&b);
	return 1;
}

static const VTermParserCallbacks fallbacks = {
	.osc = cb_osc,
};

/* A screen whose state reports to callbacks. */
static struct screen *
screen_make(int rows, int cols, size_t sb_lines, const struct screen_events *ev,
    void *user, const VTermStateCallbacks *callbacks)
{
	struct screen	*s = xcalloc(1, sizeof *s);

	if (rows < 1)
		rows = 1;
	if (cols < 1)
		cols = 1;
	s->rows = rows;
	s->cols = cols;
	s->ev = ev;
	s->user = user;
	s->cursor_visible = true;
	s->sb = scrollback_new(sb_lines);
	s->pri = s->cur = grid_new(rows, cols);
	s->wrap_row = -1;
	s->vt = vterm_new(rows, cols);
	if (s->vt == NULL)
		fatal("cannot create a terminal of %dx%d", cols, rows);
	vterm_set_utf8(s->vt, 1);
	vterm_output_set_callback(s->vt, cb_output, s);
	s->st = vterm_obtain_state(s->vt);
	vterm_state_set_callbacks(s->st, callbacks, s);
	vterm_state_set_unrecognised_fallbacks(s->st, &fallbacks, s);
	vterm_state_reset(s->st, 1);
	return s;
}

struct screen *
screen_new(int rows, int cols, size_t sb_lines, const struct screen_events *ev,
    void *user)
{
	return screen_make(rows, cols, sb_lines, ev, user, &state_callbacks);
}

struct screen *
screen_new_bare(int rows, int cols, const struct screen_events *ev,
    void *user)
{
	struct screen	*s;

	s = screen_make(rows, cols, 0, ev, user, &bare_callbacks);
	s->bare = true;
	return s;
}

void
screen_free(struct screen *s)
{
	if (s == NULL)
		return;
	vterm_free(s->vt);
	grid_free(s->pri);
	grid_free(s->alt);
	scrollback_free(s->sb);
	free(s->title);
	free(s->cwd);
	buf_free(&s->join);
	buf_free(&s->fixed);
	free(s);
}

void
screen_set_line_sink(struct screen *s, scrollback_sink_fn fn, void *arg)
{
	s->sink = fn;
	s->sink_arg = arg;
	scrollback_set_sink(s->sb, fn, arg);
}

void
screen_flush_damage(struct screen *s)
{
	grid_flush_damage(s->cur, s->ev != NULL ? s->ev->damage : NULL,
	    s->user);
}

void
screen_resize(struct screen *s, int rows, int cols)
{
	if (rows < 1)
		rows = 1;
	if (cols < 1)
		cols = 1;
	feed_plain_end(s);
	fit_margins(s, rows, cols);
	vterm_set_size(s->vt, rows, cols);
	screen_flush_damage(s);
}

int
screen_rows(const struct screen *s)
{
	return s->rows;
}

int
screen_cols(const struct screen *s)
{
	return s->cols;
}

size_t
screen_scrollback_count(const struct screen *s)
{
	return scrollback_count(s->sb);
}

void
screen_cursor(const struct screen *s, int *row, int *col, bool *visible)
{
	*row = s->crow;
	*col = s->ccol;
	*visible = s->cursor_visible;
}

bool
screen_altscreen(const struct screen *s)
{
	return s->altscreen;
}

const char *
screen_title(const struct screen *s)
{
	return s->title != NULL ? s->title : "";
}

const char *
screen_cwd(const struct screen *s)
{
	return s->cwd;
}

/* Our modifier bits to libvterm's. */
static VTermModifier
mods_to_vterm(int mods)
{
	VTermModifier	m = VTERM_MOD_NONE;

	if (mods & SCREEN_MOD_SHIFT)
		m |= VTERM_MOD_SHIFT;
	if (mods & SCREEN_MOD_ALT)
		m |= VTERM_MOD_ALT;
	if (mods & SCREEN_MOD_CTRL)
		m |= VTERM_MOD_CTRL;
	return m;
}

void
screen_key(struct screen *s, enum screen_key key, int mods)
{
	static const struct { enum screen_key k; VTermKey v; } map[] = {
		{ SCREEN_KEY_ENTER, VTERM_KEY_ENTER },
		{ SCREEN_KEY_TAB, VTERM_KEY_TAB },
		{ SCREEN_KEY_BACKSPACE, VTERM_KEY_BACKSPACE },
		{ SCREEN_KEY_ESCAPE, VTERM_KEY_ESCAPE },
		{ SCREEN_KEY_UP, VTERM_KEY_UP },
		{ SCREEN_KEY_DOWN, VTERM_KEY_DOWN },
		{ SCREEN_KEY_LEFT, VTERM_KEY_LEFT },
		{ SCREEN_KEY_RIGHT, VTERM_KEY_RIGHT },
		{ SCREEN_KEY_INS, VTERM_KEY_INS },
		{ SCREEN_KEY_DEL, VTERM_KEY_DEL },
		{ SCREEN_KEY_HOME, VTERM_KEY_HOME },
		{ SCREEN_KEY_END, VTERM_KEY_END },
		{ SCREEN_KEY_PAGEUP, VTERM_KEY_PAGEUP },
		{ SCREEN_KEY_PAGEDOWN, VTERM_KEY_PAGEDOWN },
	};
	size_t	i;

	if (key > SCREEN_KEY_F0 && key <= SCREEN_KEY_F0 + 12) {
		vterm_keyboard_key(s->vt,
		    VTERM_KEY_FUNCTION(key - SCREEN_KEY_F0),
		    mods_to_vterm(mods));
		return;
	}
	for (i = 0; i < sizeof map / sizeof map[0]; i++) {
		if (map[i].k == key) {
			vterm_keyboard_key(s->vt, map[i].v,
			    mods_to_vterm(mods));
			return;
		}
	}
}

void
screen_unichar(struct screen *s, uint32_t c, int mods)
{
	vterm_keyboard_unichar(s->vt, c, mods_to_vterm(mods));
}

void
screen_paste(struct screen *s, bool start)
{
	if (start)
		vterm_keyboard_start_paste(s->vt);
	else
		vterm_keyboard_end_paste(s->vt);
}

uint64_t
screen_pushed(const struct screen *s)
{
	return s->pushed;
}
