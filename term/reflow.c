/*
 * reflow.c - rewrap soft-wrapped text for a new width (see reflow.h).
 *
 * Lines are joined one at a time (a run of rows each marked wrapped, then
 * the row that ends it), so memory is one line, not the scrollback: the
 * scrollback's lines go straight into the new ring, only the screen's are
 * kept until it is known which of them stay on the screen.  A row that
 * wrapped early because a wide character did not fit ends in a blank that
 * is not text; joining drops it.
 */
#include "term/reflow.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "term/grid.h"
#include "term/scrollback.h"
#include "base/util.h"

/* A growable run of cells: the line being joined, or scratch. */
struct cells {
	struct cell	*c;
	int		 n;
	int		 cap;
	bool		 edge_blank;	/* ends in a wide character's blank */
};

/* One row made for the screen. */
struct made {
	struct cell	*c;
	int		 n;
	bool		 wrapped;
};

/* Where made rows go: into a scrollback, or kept. */
struct sink {
	struct scrollback	*sb;
	struct made		*rows;
	int			 nrows;
	int			 cap;
};

/* Room for n cells. */
static void
cells_reserve(struct cells *l, int n)
{
	if (n <= l->cap)
		return;
	l->cap = n > 2 * l->cap ? n : 2 * l->cap;
	l->c = xreallocarray(l->c, (size_t)l->cap, sizeof *l->c);
}

/* True for a cell that shows nothing at the end of a line. */
static bool
is_blank(const struct cell *c)
{
	return (c->chars[0] == 0 || c->chars[0] == ' ') && c->width == 1 &&
	    c->attr.flags == 0 && c->attr.fg == CELL_COLOR_DEFAULT &&
	    c->attr.bg == CELL_COLOR_DEFAULT;
}

/* Cells of c[0..n) up to the last one that shows something. */
static int
content(const struct cell *c, int n)
{
	while (n > 0 && is_blank(&c[n - 1]))
		n--;
	return n;
}

/*
 * Append a row of n cells to the line; wrapped: the line goes on.
 * Returns the index in the line where the row starts.
 */
static int
line_add(struct cells *l, const struct cell *c, int n, bool wrapped)
{
	int	start;

	if (l->edge_blank && n > 0 && c[0].width == 2)
		l->n--;
	start = l->n;
	cells_reserve(l, l->n + n + 1);
	if (n > 0)
		memcpy(l->c + l->n, c, (size_t)n * sizeof *c);
	l->n += n;
	l->edge_blank = wrapped && n > 0 && c[n - 1].chars[0] == 0 &&
	    c[n - 1].width == 1;
	return start;
}

/* Send a row to the sink. */
static void
emit(struct sink *k, const struct cell *c, int n, bool wrapped)
{
	struct made	*m;

	if (k->sb != NULL) {
		scrollback_push_line(k->sb, c, n, wrapped);
		return;
	}
	if (k->nrows == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 16;
		k->rows = xreallocarray(k->rows, (size_t)k->cap,
		    sizeof *k->rows);
	}
	m = &k->rows[k->nrows++];
	m->c = xreallocarray(NULL, n > 0 ? (size_t)n : 1, sizeof *m->c);
	if (n > 0)
		memcpy(m->c, c, (size_t)n * sizeof *c);
	m->n = n;
	m->wrapped = wrapped;
}

/*
 * Cut the line into rows of cols cells (a wide character never split) into
 * the sink, and empty it.  The cell at offset off (if >= 0) is found:
 * *row (counted in the sink's kept rows) and *col.
 */
static void
rewrap(struct cells *l, int cols, struct sink *k, int off, int *row,
    int *col)
{
	int	i = 0, take;

	do {
		/* A right half whose left half ended the row above (a wide
		 * character cannot fit one column) is dropped. */
		if (i < l->n && l->c[i].width == 0 && ++i == l->n)
			break;
		take = l->n - i < cols ? l->n - i : cols;
		if (i + take < l->n && take > 1 &&
		    l->c[i + take - 1].width == 2)
			take--;		/* the wide character goes down */
		if (off >= i && off < i + take) {
			*row = k->nrows;
			*col = off - i;
		}
		emit(k, l->c + i, take, i + take < l->n);
		i += take;
	} while (i < l->n);
	l->n = 0;
	l->edge_blank = false;
}

int
reflow(struct grid *g, struct scrollback **sbp, int cols, int *crow,
    int *ccol)
{
	struct scrollback	*sb = *sbp;
	struct cells		 line = { 0 }, tmp = { 0 };
	struct sink		 hist = { 0 }, scr = { 0 };
	const struct cell	*c;
	int			 old = grid_cols(g), rows = grid_rows(g);
	int			 r, w, top, start, off = -1;
	int			 cur_row = 0, cur_col = 0;
	size_t			 i, n = scrollback_count(sb);
	bool			 wr;

	hist.sb = scrollback_new(scrollback_max(sb));
	for (i = 0; i < n; i++) {
		w = scrollback_width(sb, i);
		wr = scrollback_is_wrapped(sb, i);
		if (!wr && line.n == 0 && w <= cols) {
			/* A whole line that fits: moved as stored. */
			scrollback_copy_line(hist.sb, sb, i);
			continue;
		}
		if (wr && w < old)
			w = old;
		cells_reserve(&tmp, w > 0 ? w : 1);
		scrollback_get(sb, i, tmp.c, w);
		line_add(&line, tmp.c, wr ? w : content(tmp.c, w), wr);
		if (!wr)
			rewrap(&line, cols, &hist, -1, NULL, NULL);
	}
	for (r = 0; r < rows; r++) {
		c = grid_line(g, r);
		wr = grid_wrapped(g, r) && r < rows - 1;
		w = wr ? old : content(c, grid_row_used(g, r));
		start = line_add(&line, c, w, wr);
		if (r == *crow) {
			off = start + *ccol;
			cells_reserve(&line, off + 1);
			for (; line.n <= off; line.n++) {
				memset(&line.c[line.n], 0, sizeof line.c[0]);
				line.c[line.n].width = 1;
			}
		}
		if (!wr) {
			rewrap(&line, cols, &scr, off, &cur_row, &cur_col);
			off = -1;
		}
	}
	/*
	 * The screen stays anchored at its bottom row, as in tmux: rows above
	 * go to the scrollback, or come back from it; the cursor's row always
	 * on the screen.
	 */
	top = scr.nrows - rows < cur_row ? scr.nrows - rows : cur_row;
	if (top < 0)
		top = 0;
	for (r = 0; r < top; r++)
		scrollback_push_line(hist.sb, scr.rows[r].c, scr.rows[r].n,
		    scr.rows[r].wrapped);
	grid_resize(g, rows, cols);
	for (r = 0; r < rows; r++) {
		if (top + r < scr.nrows)
			grid_set_row(g, r, scr.rows[top + r].c,
			    scr.rows[top + r].n, scr.rows[top + r].wrapped);
		else
			grid_set_row(g, r, NULL, 0, false);
	}
	*crow = cur_row - top;
	*ccol = cur_col;
	for (r = scr.nrows - top; r < rows && grid_pop_top(g, hist.sb); r++)
		(*crow)++;
	for (r = 0; r < scr.nrows; r++)
		free(scr.rows[r].c);
	free(scr.rows);
	free(line.c);
	free(tmp.c);
	scrollback_free(sb);
	*sbp = hist.sb;
	return top;
}
