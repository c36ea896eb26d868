/*
 * screen.c - libvterm screen + compact scrollback (see screen.h).
 *
 * Invariants: every byte fed reaches libvterm; lines leave the top of the
 * primary screen only through sb_pushline into our ring (libvterm does not
 * push from the alternate screen), and come back through sb_popline when
 * the screen grows taller.
 */
#include "term/screen.h"

#include <stdlib.h>
#include <string.h>

#include <vterm.h>

#include "term/scrollback.h"
#include "base/utf8.h"

struct screen {
	VTerm			*vt;
	VTermScreen		*vs;
	struct scrollback	*sb;
	uint64_t		 pushed;	/* lines ever scrolled off */
	const struct screen_events *ev;
	void			*user;
	struct cell		*row;		/* scratch, cols cells */
	int			 rows;
	int			 cols;
	int			 crow;
	int			 ccol;
	bool			 cursor_visible;
	bool			 altscreen;
	char			*title;
};

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

/* Ours back to libvterm's (for sb_popline). */
static void
color_to_vterm(uint32_t c, bool is_fg, VTermColor *out)
{
	switch (CELL_COLOR_TYPE(c)) {
	case CELL_COLOR_INDEXED:
		vterm_color_indexed(out, (uint8_t)(c & 0xff));
		break;
	case CELL_COLOR_RGB:
		vterm_color_rgb(out, (uint8_t)(c >> 16), (uint8_t)(c >> 8),
		    (uint8_t)c);
		break;
	default:
		vterm_color_rgb(out, is_fg ? 0xe5 : 0, is_fg ? 0xe5 : 0,
		    is_fg ? 0xe5 : 0);
		out->type |= is_fg ? VTERM_COLOR_DEFAULT_FG :
		    VTERM_COLOR_DEFAULT_BG;
		break;
	}
}

/* Convert one libvterm cell. */
static void
cell_from_vterm(const VTermScreenCell *v, struct cell *c)
{
	int	i;

	memset(c, 0, sizeof *c);
	if (v->chars[0] == (uint32_t)-1) {	/* right half of a wide char */
		c->width = 0;
	} else {
		for (i = 0; i < CELL_MAX_CHARS && v->chars[i] != 0; i++)
			c->chars[i] = v->chars[i];
		c->width = v->width == 2 ? 2 : 1;
	}
	if (v->attrs.bold)
		c->attr.flags |= CELL_BOLD;
	if (v->attrs.underline == VTERM_UNDERLINE_SINGLE)
		c->attr.flags |= CELL_UNDERLINE;
	else if (v->attrs.underline != 0)
		c->attr.flags |= CELL_UNDERLINE2;
	if (v->attrs.italic)
		c->attr.flags |= CELL_ITALIC;
	if (v->attrs.blink)
		c->attr.flags |= CELL_BLINK;
	if (v->attrs.reverse)
		c->attr.flags |= CELL_REVERSE;
	if (v->attrs.strike)
		c->attr.flags |= CELL_STRIKE;
	c->attr.fg = color_from_vterm(&v->fg, true);
	c->attr.bg = color_from_vterm(&v->bg, false);
}

/* Convert one of our cells back for libvterm. */
static void
cell_to_vterm(const struct cell *c, VTermScreenCell *v)
{
	int	i;

	memset(v, 0, sizeof *v);
	if (c->width == 0)
		v->chars[0] = (uint32_t)-1;
	else
		for (i = 0; i < CELL_MAX_CHARS && c->chars[i] != 0; i++)
			v->chars[i] = c->chars[i];
	v->width = c->width == 2 ? 2 : 1;
	v->attrs.bold = !!(c->attr.flags & CELL_BOLD);
	v->attrs.underline = c->attr.flags & CELL_UNDERLINE ?
	    VTERM_UNDERLINE_SINGLE :
	    c->attr.flags & CELL_UNDERLINE2 ? VTERM_UNDERLINE_DOUBLE : 0;
	v->attrs.italic = !!(c->attr.flags & CELL_ITALIC);
	v->attrs.blink = !!(c->attr.flags & CELL_BLINK);
	v->attrs.reverse = !!(c->attr.flags & CELL_REVERSE);
	v->attrs.strike = !!(c->attr.flags & CELL_STRIKE);
	color_to_vterm(c->attr.fg, true, &v->fg);
	color_to_vterm(c->attr.bg, false, &v->bg);
}

static int
cb_damage(VTermRect r, void *user)
{
	struct screen	*s = user;

	if (s->ev != NULL && s->ev->damage != NULL)
		s->ev->damage(s->user, r.start_row, r.end_row, r.start_col,
		    r.end_col);
	return 1;
}

static int
cb_movecursor(VTermPos pos, VTermPos old, int visible, void *user)
{
	struct screen	*s = user;

	(void)old;
	(void)visible;
	s->crow = pos.row;
	s->ccol = pos.col;
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

static int
cb_sb_pushline(int cols, const VTermScreenCell *cells, void *user)
{
	struct screen	*s = user;
	int		 i, n = cols < s->cols ? cols : s->cols;

	if (cols > s->cols) {	/* during a resize libvterm may be wider */
		free(s->row);
		s->row = xcalloc((size_t)cols, sizeof *s->row);
		s->cols = cols;
		n = cols;
	}
	for (i = 0; i < n; i++)
		cell_from_vterm(&cells[i], &s->row[i]);
	scrollback_push(s->sb, s->row, n);
	s->pushed++;
	return 1;
}

static int
cb_sb_popline(int cols, VTermScreenCell *cells, void *user)
{
	struct screen	*s = user;
	struct cell	*tmp;
	int		 i;

	tmp = xcalloc((size_t)cols, sizeof *tmp);
	if (!scrollback_pop(s->sb, tmp, cols)) {
		free(tmp);
		return 0;
	}
	for (i = 0; i < cols; i++)
		cell_to_vterm(&tmp[i], &cells[i]);
	free(tmp);
	return 1;
}

static const VTermScreenCallbacks screen_callbacks = {
	.damage = cb_damage,
	.movecursor = cb_movecursor,
	.settermprop = cb_settermprop,
	.bell = cb_bell,
	.sb_pushline = cb_sb_pushline,
	.sb_popline = cb_sb_popline,
};

/* Bytes libvterm generates for the program (key encodings, replies). */
static void
cb_output(const char *data, size_t len, void *user)
{
	struct screen	*s = user;

	if (s->ev != NULL && s->ev->output != NULL)
		s->ev->output(s->user, data, len);
}

struct screen *
screen_new(int rows, int cols, size_t sb_lines, const struct screen_events *ev,
    void *user)
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
	s->row = xcalloc((size_t)cols, sizeof *s->row);
	s->sb = scrollback_new(sb_lines);
	s->vt = vterm_new(rows, cols);
	if (s->vt == NULL)
		fatal("cannot create a terminal of %dx%d", cols, rows);
	vterm_set_utf8(s->vt, 1);
	vterm_output_set_callback(s->vt, cb_output, s);
	s->vs = vterm_obtain_screen(s->vt);
	vterm_screen_set_callbacks(s->vs, &screen_callbacks, s);
	vterm_screen_enable_altscreen(s->vs, 1);
	vterm_screen_set_damage_merge(s->vs, VTERM_DAMAGE_ROW);
	vterm_screen_reset(s->vs, 1);
	return s;
}

void
screen_free(struct screen *s)
{
	if (s == NULL)
		return;
	vterm_free(s->vt);
	scrollback_free(s->sb);
	free(s->row);
	free(s->title);
	free(s);
}

void
screen_feed(struct screen *s, const char *data, size_t len)
{
	vterm_input_write(s->vt, data, len);
}

void
screen_flush_damage(struct screen *s)
{
	vterm_screen_flush_damage(s->vs);
}

void
screen_resize(struct screen *s, int rows, int cols)
{
	if (rows < 1)
		rows = 1;
	if (cols < 1)
		cols = 1;
	if (cols > s->cols) {
		free(s->row);
		s->row = xcalloc((size_t)cols, sizeof *s->row);
	}
	s->cols = cols > s->cols ? cols : s->cols;
	vterm_set_size(s->vt, rows, cols);
	s->rows = rows;
	s->cols = cols;
	vterm_screen_flush_damage(s->vs);
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
screen_cell(const struct screen *s, int row, int col, struct cell *c)
{
	VTermScreenCell	 v;
	VTermPos	 pos;
	struct cell	*line;
	size_t		 n = scrollback_count(s->sb);

	if (row >= 0) {
		pos.row = row;
		pos.col = col;
		if (!vterm_screen_get_cell(s->vs, pos, &v)) {
			memset(c, 0, sizeof *c);
			c->width = 1;
			return;
		}
		cell_from_vterm(&v, c);
		return;
	}
	line = xcalloc((size_t)s->cols, sizeof *line);
	if ((size_t)-row <= n && col >= 0 && col < s->cols &&
	    scrollback_get(s->sb, n - (size_t)-row, line, s->cols) >= 0)
		*c = line[col];
	else {
		memset(c, 0, sizeof *c);
		c->width = 1;
	}
	free(line);
}

void
screen_row_cells(const struct screen *s, int row, struct cell *cells, int n)
{
	size_t	nsb = scrollback_count(s->sb);
	int	col, have = n < s->cols ? n : s->cols;

	for (col = 0; col < n; col++) {
		memset(&cells[col], 0, sizeof cells[col]);
		cells[col].width = 1;
	}
	if (row >= s->rows)
		return;
	if (row < 0) {
		if ((size_t)-row <= nsb)
			scrollback_get(s->sb, nsb - (size_t)-row, cells, have);
		return;
	}
	for (col = 0; col < have; col++)
		screen_cell(s, row, col, &cells[col]);
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

/* Fill cells[0..cols) with row (negative: scrollback). */
static void
row_cells(const struct screen *s, int row, struct cell *cells)
{
	size_t	n = scrollback_count(s->sb);
	int	col;

	if (row < 0) {
		if ((size_t)-row > n ||
		    scrollback_get(s->sb, n - (size_t)-row, cells, s->cols) < 0)
			memset(cells, 0, (size_t)s->cols * sizeof *cells);
		return;
	}
	for (col = 0; col < s->cols; col++)
		screen_cell(s, row, col, &cells[col]);
}

/* Append the text of cells[0..n), trailing blanks dropped. */
static void
cells_text(const struct cell *cells, int n, struct buf *out)
{
	char	u[4];
	int	i, k, end = n;

	while (end > 0 && (cells[end - 1].chars[0] == 0 ||
	    cells[end - 1].chars[0] == ' ') && cells[end - 1].width != 0)
		end--;
	for (i = 0; i < end; i++) {
		if (cells[i].width == 0)
			continue;
		if (cells[i].chars[0] == 0) {
			buf_addc(out, ' ');
			continue;
		}
		for (k = 0; k < CELL_MAX_CHARS && cells[i].chars[k]; k++)
			buf_add(out, u, utf8_encode(cells[i].chars[k], u));
	}
}

void
screen_row_text(const struct screen *s, int row, struct buf *out)
{
	struct cell	*line = xcalloc((size_t)s->cols, sizeof *line);

	row_cells(s, row, line);
	cells_text(line, s->cols, out);
	free(line);
}

void
screen_text(const struct screen *s, bool with_scrollback, struct buf *out)
{
	struct cell	*line = xcalloc((size_t)s->cols, sizeof *line);
	int		 row = with_scrollback ?
			    -(int)scrollback_count(s->sb) : 0;
	size_t		 start = out->len, keep = out->len;

	for (; row < s->rows; row++) {
		row_cells(s, row, line);
		cells_text(line, s->cols, out);
		if (out->len > start)
			keep = out->len + 1;	/* this line has text */
		buf_addc(out, '\n');
		start = out->len;
	}
	out->len = keep;	/* drop trailing empty lines */
	free(line);
}

uint64_t
screen_pushed(const struct screen *s)
{
	return s->pushed;
}
