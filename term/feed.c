/*
 * feed.c - the bytes a program writes, on their way to libvterm and the
 * cells (see screen.h, screen_feed).
 *
 * Invariants: every byte fed reaches libvterm, but plain lines written
 * where libvterm's state is proven to leave them as they are (below), and
 * the first bytes of a character held until its last one comes; a
 * character cut short by another byte reaches libvterm as U+FFFD;
 * DECCOLM, REP and DECSTBM are spotted on the way (term/colmode.c).
 */
#include "term/screen-int.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

/*
 * Plain lines.  Most of what a build or a test prints is lines of printable
 * ASCII, each ended by CR LF, arriving with the cursor on the bottom row
 * of a screen that scrolls whole; libvterm spends about 85 instructions
 * on each such character.  Once libvterm's state is proven to be one in
 * which such bytes do exactly this: a character written at the cursor
 * with the current pen and the cursor moved on, CR back to the first
 * column, LF there scrolling the whole screen up by one row, the screen
 * writes them itself, never telling libvterm, whose state after them
 * would be what it was before but for the cursor's column and the last
 * character printed.  The proof (watch_line):
 *
 * - a line of printable ASCII and CR LF is fed to libvterm and watched:
 *   each byte came back as the same character, narrow, unprotected, at
 *   the next column of the bottom row (so the parser was in its ground
 *   state, no single shift or translating character set applied, no
 *   insert mode), then exactly one scroll of the whole screen by one row,
 *   nothing else, and the cursor at the start of the bottom row;
 * - a probe, "`#" and CR, not written to the cells, comes back untouched:
 *   libvterm 0.1.4's only translating sets, DEC drawing (` to ~) and UK
 *   (#), are not in use;
 * - no row is double-width or double-height (libvterm keeps that per
 *   row and would scroll it).
 *
 * The cursor never reaches the last column that way (no wrap pending),
 * and the way ends at the first byte that is not plain (plain_bytes), in
 * this piece or a later one.  Before libvterm gets bytes again it is told,
 * quietly (no cell changes), the last character printed at the column it
 * was printed in (REP repeats it; a combining mark joins it when the
 * cursor stands right after that place, which no scroll moves), then the
 * cursor's column (feed_plain_end); a watched line's last character is told
 * again after the probe in the same way, whatever the probe showed.
 */

static bool
is_plain(char c)
{
	return c >= 0x20 && c < 0x7f;
}

/* Feed libvterm bytes whose glyphs change no cell (see putglyph_watched). */
static void
feed_quiet(struct screen *s, const char *p, size_t n)
{
	s->watch = WATCH_QUIET;
	vterm_input_write(s->vt, p, n);
	s->watch = WATCH_OFF;
}

/*
 * Tell libvterm, quietly, that c was the last character printed, at
 * column col of the bottom row where the cursor is (libvterm keeps where
 * it stood, not moved by scrolls, and joins a combining mark to it only
 * when the cursor is right after it; REP repeats it); the cursor then
 * at column to.
 */
static void
reprint_last(struct screen *s, char c, int col, int to)
{
	char	seq[48];
	int	n = 0;

	seq[n++] = '\r';
	if (col > 0)
		n += snprintf(seq + n, sizeof seq - (size_t)n, "\033[%dC", col);
	seq[n++] = c;
	seq[n++] = '\r';
	if (to > 0)
		n += snprintf(seq + n, sizeof seq - (size_t)n, "\033[%dC", to);
	feed_quiet(s, seq, (size_t)n);
}

/*
 * Feed libvterm line[0..n) and CR LF, watched; true when the state it
 * leaves lets the screen write plain lines itself (see above).
 */
static bool
watch_line(struct screen *s, const char *line, int n)
{
	int	r, start = s->ccol;
	bool	probe_ok;

	s->watch = WATCH_LINE;
	s->w_bad = false;
	s->w_glyphs = s->w_scrolls = 0;
	s->w_text = line;
	s->w_len = n;
	s->w_col = start;
	vterm_input_write(s->vt, line, (size_t)n + 2);
	s->watch = WATCH_OFF;
	if (s->w_bad || s->w_glyphs != n || s->w_scrolls != 1 ||
	    s->crow != s->rows - 1 || s->ccol != 0)
		return false;
	/*
	 * The probe; then, whatever it showed, the line's last character
	 * again where it stood, so that libvterm remembers it as the line
	 * left it (for REP and a combining mark).
	 */
	s->watch = WATCH_PROBE;
	s->w_glyphs = 0;
	s->w_text = "`#";
	s->w_len = 2;
	s->w_col = 0;
	vterm_input_write(s->vt, "`#\r", 3);
	s->watch = WATCH_OFF;
	probe_ok = !s->w_bad && s->w_glyphs == 2;
	reprint_last(s, line[n - 1], start + n - 1, 0);
	if (!probe_ok || s->crow != s->rows - 1 || s->ccol != 0)
		return false;
	for (r = 0; r < s->rows; r++) {
		const VTermLineInfo	*li = vterm_state_get_lineinfo(s->st, r);

		if (li->doublewidth || li->doubleheight)
			return false;
	}
	s->plain_last = 0;
	s->plain_col = 0;
	return true;
}

/*
 * Write the plain bytes at p[0..len) (see above): how many they are.  A
 * character only where the cursor then stays short of the last column (no
 * wrap pending), CR anywhere, LF only after CR (so that libvterm's newline
 * mode does not matter), on the bottom row.
 */
static size_t
plain_bytes(struct screen *s, const char *p, size_t len)
{
	size_t	i = 0, j;
	int	col = s->plain_col, room;

	while (i < len) {
		if (is_plain(p[i])) {
			room = s->cols - 2 - col;
			for (j = i; j < len && (int)(j - i) < room &&
			    is_plain(p[j]); j++)
				;
			if (j == i)
				break;
			grid_put_ascii(s->cur, s->rows - 1, col, p + i,
			    (int)(j - i), &s->pen);
			col += (int)(j - i);
			s->plain_last = p[j - 1];
			s->plain_last_col = col - 1;
			i = j;
		} else if (p[i] == '\r') {
			col = 0;
			i++;
		} else if (p[i] == '\n' && col == 0) {
			s->pushed += (uint64_t)grid_scroll(s->cur, 0, s->rows,
			    0, s->cols, 1, 0, s->pen.bg,
			    s->cur == s->pri ? s->sb : NULL);
			i++;
		} else
			break;
	}
	s->plain_col = s->ccol = col;
	return i;
}

/*
 * libvterm gets bytes again: it learns the last character printed, where,
 * and the cursor's column (its cursor is at the start of the bottom row
 * still).
 */
void
feed_plain_end(struct screen *s)
{
	if (!s->plain)
		return;
	s->plain = false;
	/* The cursor leaves the first column only by a character written. */
	assert(s->plain_col == 0 || s->plain_last != 0);
	if (s->plain_last != 0)
		reprint_last(s, s->plain_last, s->plain_last_col,
		    s->plain_col);
	s->plain_last = 0;
	s->plain_col = 0;
}

/* Feed p[0..len), a piece without DECCOLM but maybe at its end. */
static void
feed_piece(struct screen *s, const char *p, size_t len)
{
	const char	*end = p + len, *q, *nl = NULL;
	bool		 failed = false;
	size_t		 n;

	if (s->bare || s->no_plain || s->cols < 3) {
		vterm_input_write(s->vt, p, len);
		return;
	}
	while (p < end) {
		if (s->plain) {
			n = plain_bytes(s, p, (size_t)(end - p));
			p += n;
			if (p == end)
				return;
			feed_plain_end(s);
		}
		/*
		 * Up to the next line that may be plain, to libvterm as it
		 * is; that line watched.  One failed watch per piece: a state
		 * that does not allow plain lines (a scroll region, the screen
		 * filling) is not watched at every line.
		 */
		for (q = p; !failed && q < end; q = nl + 1) {
			nl = memchr(q, '\n', (size_t)(end - q));
			if (nl == NULL)
				break;
			n = (size_t)(nl - q);
			if (n >= 2 && nl[-1] == '\r' && n - 1 < (size_t)s->cols) {
				for (n = 0; q + n < nl - 1 && is_plain(q[n]); n++)
					;
				if (q + n == nl - 1)
					break;
			}
		}
		if (failed || q >= end || nl == NULL) {
			vterm_input_write(s->vt, p, (size_t)(end - p));
			return;
		}
		if (q > p)
			vterm_input_write(s->vt, p, (size_t)(q - p));
		s->plain = watch_line(s, q, (int)(nl - 1 - q));
		failed = !s->plain;
		p = nl + 1;
	}
}

void
screen_set_plain_lines(struct screen *s, bool on)
{
	feed_plain_end(s);
	s->no_plain = !on;
}

/* Feed bytes that end on a character's boundary (see screen_feed). */
static void
feed_whole(struct screen *s, const char *data, size_t len)
{
	enum colmode_seq	found;
	size_t			n;

	while (len > 0) {
		n = colmode_scan(&s->colmode, data, len, &found);
		if (found == COLMODE_REP) {
			/* All but its final byte: whether it repeats a glyph
			 * that takes a column is known only now. */
			feed_piece(s, data, n - 1);
			/* Else libvterm would loop for ever: CAN drops it, as
			 * tmux ignores a REP with nothing to repeat. */
			vterm_input_write(s->vt, s->last_width > 0 ?
			    data + n - 1 : "\030", 1);
		} else if (found == COLMODE_DECSTBM &&
		    colmode_stbm_ignored(&s->colmode, s->rows)) {
			/* A region of under two lines: xterm and tmux leave
			 * margins and cursor alone, libvterm would reset
			 * them and home the cursor.  CAN drops it. */
			feed_piece(s, data, n - 1);
			vterm_input_write(s->vt, "\030", 1);
		} else
			feed_piece(s, data, n);
		/* DECCOLM: the screen cleared and the cursor home, as tmux. */
		if (found == COLMODE_DECCOLM) {
			feed_plain_end(s);
			vterm_input_write(s->vt, "\033[H\033[2J", 7);
		}
		data += n;
		len -= n;
	}
}

/* The length of the sequence lead byte c starts as libvterm's decoder
 * reads it (2 to 6), or 0 for a byte that starts none. */
static size_t
lead_len(unsigned char c)
{
	return c >= 0xfe ? 0 : c >= 0xfc ? 6 : c >= 0xf8 ? 5 : c >= 0xf0 ? 4 :
	    c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
}

/*
 * How many bytes at the end of p[0..len) begin a UTF-8 sequence that is
 * not complete: a lead byte (libvterm's decoder takes up to six) and
 * fewer continuation bytes than it announces.
 */
static size_t
utf8_tail(const char *p, size_t len)
{
	unsigned char	c;
	size_t		i;

	for (i = 1; i <= 5 && i <= len; i++) {
		c = (unsigned char)p[len - i];
		if ((c & 0xc0) == 0x80)
			continue;
		return lead_len(c) > i ? i : 0;
	}
	return 0;
}

/*
 * A character cut short: a lead byte, then fewer continuation bytes than
 * it announces before another byte.  libvterm 0.1.4 prints U+FFFD for it
 * when text follows at once in the same write, but a control or an escape
 * sequence after it leaves its decoder half-way, and what it prints later
 * then depends on where the writes happen to be cut (the terminal's reads,
 * and the plain lines' own writes).  So libvterm gets U+FFFD in its place,
 * always: into out, true; false when p[0..len) has none (the usual case:
 * ASCII is stepped over eight bytes at a time).
 */
static bool
fix_cut_chars(const char *p, size_t len, struct buf *out)
{
	size_t		i = 0, from = 0, k, need;
	uint64_t	w;
	bool		changed = false;

	while (i < len) {
		if (i + 8 <= len) {
			memcpy(&w, p + i, 8);
			if ((w & 0x8080808080808080ULL) == 0) {
				i += 8;
				continue;
			}
		}
		if ((need = lead_len((unsigned char)p[i])) == 0) {
			i++;
			continue;
		}
		for (k = 1; k < need && i + k < len &&
		    ((unsigned char)p[i + k] & 0xc0) == 0x80; k++)
			;
		if (k == need || i + k == len) {
			i += k;
			continue;
		}
		if (!changed)
			out->len = 0;
		changed = true;
		buf_add(out, p + from, i - from);
		buf_add(out, "\xef\xbf\xbd", 3);
		i += k;
		from = i;
	}
	if (changed)
		buf_add(out, p + from, len - from);
	return changed;
}

/*
 * libvterm 0.1.4 loses a character whose bytes are split between two
 * writes when text comes before its first bytes in the same write (both
 * parts then print U+FFFD): a piece that ends inside a character keeps
 * that character's first bytes until the next piece, and libvterm gets
 * them together with their continuation.  A character cut short by
 * another byte reaches libvterm as U+FFFD (fix_cut_chars).
 */
void
screen_feed(struct screen *s, const char *data, size_t len)
{
	size_t	tail;

	if (s->held_len > 0) {
		s->join.len = 0;
		buf_add(&s->join, s->held, s->held_len);
		buf_add(&s->join, data, len);
		s->held_len = 0;
		data = s->join.data;
		len = s->join.len;
	}
	tail = utf8_tail(data, len);
	if (!s->bare && fix_cut_chars(data, len - tail, &s->fixed))
		feed_whole(s, s->fixed.data, s->fixed.len);
	else
		feed_whole(s, data, len - tail);
	memcpy(s->held, data + len - tail, tail);
	s->held_len = tail;
}

