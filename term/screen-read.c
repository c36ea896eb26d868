/*
 * screen-read.c - a screen read back (see screen.h): the cells of a row,
 * on the screen or in the scrollback, and their text.
 *
 * Invariants: reading changes nothing (no damage, no call into libvterm);
 * the grid's private GRID_PROTECTED flag never leaves a screen row read
 * here; a row outside the screen and the scrollback reads as blank cells;
 * a scrollback line's text comes from its stored text when it can
 * (scrollback_text), else from its decoded cells.  libvterm's callbacks,
 * which write the cells, are in term/screen.c.
 */
#include "term/screen.h"

#include <stdlib.h>
#include <string.h>

#include "term/screen-int.h"
#include "base/utf8.h"

/* A blank cell, as outside the screen. */
static void
cell_blank(struct cell *c)
{
	memset(c, 0, sizeof *c);
	c->width = 1;
}

/* Copy n cells of the screen, without the grid's private flags. */
static void
copy_cells(const struct screen *s, struct cell *dst, const struct cell *src,
    int n)
{
	int	i;

	memcpy(dst, src, (size_t)n * sizeof *dst);
	if (s->any_protected)
		for (i = 0; i < n; i++)
			dst[i].attr.flags &= (uint16_t)~GRID_PROTECTED;
}

void
screen_cell(const struct screen *s, int row, int col, struct cell *c)
{
	struct cell	*line;
	size_t		 n = scrollback_count(s->sb);

	if (col < 0 || col >= s->cols || row >= s->rows) {
		cell_blank(c);
		return;
	}
	if (row >= 0) {
		copy_cells(s, c, grid_line(s->cur, row) + col, 1);
		return;
	}
	line = xcalloc((size_t)s->cols, sizeof *line);
	if ((size_t)-row <= n &&
	    scrollback_get(s->sb, n - (size_t)-row, line, s->cols) >= 0)
		*c = line[col];
	else
		cell_blank(c);
	free(line);
}

void
screen_row_cells(const struct screen *s, int row, struct cell *cells, int n)
{
	size_t	nsb = scrollback_count(s->sb);
	int	col, have = n < s->cols ? n : s->cols;

	if (row >= 0 && row < s->rows) {
		copy_cells(s, cells, grid_line(s->cur, row), have);
		for (col = have; col < n; col++)
			cell_blank(&cells[col]);
		return;
	}
	for (col = 0; col < n; col++)
		cell_blank(&cells[col]);
	if (row < 0 && (size_t)-row <= nsb)
		scrollback_get(s->sb, nsb - (size_t)-row, cells, have);
}

/*
 * The cells of row (negative: scrollback): the grid's own for a screen
 * row, else decoded into scratch (cols cells).
 */
static const struct cell *
row_cells(const struct screen *s, int row, struct cell *scratch)
{
	size_t	n = scrollback_count(s->sb);
	int	col;

	if (row >= 0 && row < s->rows)
		return grid_line(s->cur, row);
	if (row >= 0 || (size_t)-row > n ||
	    scrollback_get(s->sb, n - (size_t)-row, scratch, s->cols) < 0)
		for (col = 0; col < s->cols; col++)
			cell_blank(&scratch[col]);
	return scratch;
}

void
screen_cells_text(const struct cell *cells, int n, bool trim, struct buf *out)
{
	const struct cell	*c;
	int			 i, k, end = n;

	while (trim && end > 0 && (cells[end - 1].chars[0] == 0 ||
	    cells[end - 1].chars[0] == ' ') && cells[end - 1].width != 0)
		end--;
	/* Room for the usual cell (one ASCII character) at once. */
	buf_reserve(out, (size_t)(end > 0 ? end : 0));
	for (i = 0; i < end; i++) {
		c = &cells[i];
		if (c->width == 0)
			continue;
		if (c->chars[0] < 0x80 && (c->chars[0] == 0 || c->chars[1] == 0)) {
			out->data[out->len++] = c->chars[0] != 0 ?
			    (char)c->chars[0] : ' ';
			continue;
		}
		for (k = 0; k < CELL_MAX_CHARS && c->chars[k]; k++) {
			buf_reserve(out, 4 + (size_t)(end - i));
			out->len += (size_t)utf8_put(c->chars[k],
			    out->data + out->len);
		}
	}
}

/*
 * Append the text of row (negative: scrollback), trailing blanks dropped
 * when trim; a scrollback line is read from its stored text when it can be.
 */
static void
row_text(const struct screen *s, int row, bool trim, struct buf *out)
{
	size_t		 n = scrollback_count(s->sb);
	struct cell	*line;

	if (row >= 0 && row < s->rows) {
		screen_cells_text(grid_line(s->cur, row), s->cols, trim, out);
		return;
	}
	if (row < 0 && (size_t)-row <= n &&
	    scrollback_text(s->sb, n - (size_t)-row, s->cols, trim, out))
		return;
	line = xcalloc((size_t)s->cols, sizeof *line);
	screen_cells_text(row_cells(s, row, line), s->cols, trim, out);
	free(line);
}

void
screen_row_text(const struct screen *s, int row, struct buf *out)
{
	row_text(s, row, true, out);
}

bool
screen_row_text_wrapped(const struct screen *s, int row, struct buf *out)
{
	size_t		 n = scrollback_count(s->sb);
	bool		 wrapped = false;

	if (row >= 0 && row < s->rows - 1)
		wrapped = grid_wrapped(s->cur, row);
	else if (row < 0 && (size_t)-row <= n)
		wrapped = scrollback_is_wrapped(s->sb, n - (size_t)-row);
	row_text(s, row, !wrapped, out);
	return wrapped;
}

void
screen_text(const struct screen *s, bool with_scrollback, struct buf *out)
{
	int		 row = with_scrollback ?
			    -(int)scrollback_count(s->sb) : 0;
	size_t		 start = out->len, keep = out->len;

	for (; row < s->rows; row++) {
		row_text(s, row, true, out);
		if (out->len > start)
			keep = out->len + 1;	/* this line has text */
		buf_addc(out, '\n');
		start = out->len;
	}
	out->len = keep;	/* drop trailing empty lines */
}
