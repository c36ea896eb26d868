/*
 * grid.c - one screen buffer's cells (see grid.h).
 *
 * Invariants: lines[] holds rows physical rows; logical row r lives in
 * lines[(top + r) % rows].  Every cell of a row at or past its used count
 * is a blank with default attributes, so scrolling a short line off costs
 * its length, not the screen's width.  A cell of width 2 is always
 * followed by a cell of width 0 (its right half) and a cell of width 0
 * always follows one of width 2; every operation restores this at the
 * edges it touches.  dmin/dmax hold each logical row's changed columns
 * (dmin >= dmax: none); all_dirty stands for every row.  A row's cells
 * are allocated when it is first written or read (row_at, grid_line):
 * until then it is NULL, used 0, all blank.  A session that prints a
 * line touches a row's memory, not the screen's (400 KB at 200x50, whose
 * every page a server that has just forked would fault on).
 */
#include "term/grid.h"

#include <stdlib.h>
#include <string.h>

#include "term/scrollback.h"
#include "base/util.h"

/* Physical slot of logical row r. */
static inline int
slot(const struct grid *g, int r)
{
	return grid_slot(g, r);
}

/* The row struct of logical row r, its cells perhaps not made yet. */
static inline struct row *
row_raw(const struct grid *g, int r)
{
	return &g->lines[slot(g, r)];
}

/* The row struct of logical row r, with its cells. */
static inline struct row *
row_at(const struct grid *g, int r)
{
	struct row	*l = row_raw(g, r);

	if (l->cells == NULL)
		grid_row_make(g, l);
	return l;
}

struct cell *
grid_line(const struct grid *g, int row)
{
	return row_at(g, row)->cells;
}

/* Row r may hold non-default cells up to column to. */
static inline void
use(struct grid *g, int r, int to)
{
	struct row	*l = row_raw(g, r);

	if (to > l->used)
		l->used = to > g->cols ? g->cols : to;
}

/* A blank cell with background bg. */
static inline void
blank(struct cell *c, uint32_t bg)
{
	memset(c, 0, sizeof *c);
	c->width = 1;
	c->attr.bg = bg;
}

/* A blank cell with the default colours. */
static const struct cell blank_default = { .width = 1 };

/*
 * Blank cells[from..to).  Each cell is copied from a blank that was not
 * just written: copying from the first cell, or from a blank built on the
 * stack, loads what a memset and narrower stores have only now written, a
 * load the CPU cannot forward from its store buffer (a stall a line, for
 * every line that scrolls off).
 */
static void
blank_cells(struct cell *cells, int from, int to, uint32_t bg)
{
	struct cell	b;
	int		i;

	if (bg == CELL_COLOR_DEFAULT) {
		for (i = from; i < to; i++)
			cells[i] = blank_default;
		return;
	}
	memset(&b, 0, sizeof b);
	b.width = 1;
	b.attr.bg = bg;
	for (i = from; i < to; i++)
		cells[i] = b;
}

/*
 * Keep wide characters whole at the boundary before col: a right half
 * without its left, or a left half without its right, becomes a blank.
 */
static void
fix_wide(struct cell *cells, int col, int cols)
{
	if (col < cols && cells[col].width == 0 &&
	    (col == 0 || cells[col - 1].width != 2))
		blank(&cells[col], CELL_COLOR_DEFAULT);
	if (col > 0 && col <= cols && cells[col - 1].width == 2 &&
	    (col == cols || cells[col].width != 0))
		blank(&cells[col - 1], CELL_COLOR_DEFAULT);
}

/* Clip [*srow,*erow) x [*scol,*ecol) to the grid; false when empty. */
static bool
clip(const struct grid *g, int *srow, int *erow, int *scol, int *ecol)
{
	if (*srow < 0)
		*srow = 0;
	if (*erow > g->rows)
		*erow = g->rows;
	if (*scol < 0)
		*scol = 0;
	if (*ecol > g->cols)
		*ecol = g->cols;
	return *srow < *erow && *scol < *ecol;
}

void
grid_damage(struct grid *g, int srow, int erow, int scol, int ecol)
{
	int	r;

	if (g->all_dirty || !clip(g, &srow, &erow, &scol, &ecol))
		return;
	if (srow == 0 && erow == g->rows && scol == 0 && ecol == g->cols) {
		g->all_dirty = g->dirty = true;
		return;
	}
	for (r = srow; r < erow; r++) {
		if (scol < g->dmin[r])
			g->dmin[r] = scol;
		if (ecol > g->dmax[r])
			g->dmax[r] = ecol;
	}
	g->dirty = true;
}

void
grid_flush_damage(struct grid *g, void (*cb)(void *, int, int, int, int),
    void *user)
{
	int	r, start = -1, minc = 0, maxc = 0;

	if (!g->dirty)
		return;
	if (g->all_dirty) {
		for (r = 0; r < g->rows; r++) {
			g->dmin[r] = g->cols;
			g->dmax[r] = 0;
		}
		g->all_dirty = g->dirty = false;
		if (cb != NULL)
			cb(user, 0, g->rows, 0, g->cols);
		return;
	}
	for (r = 0; r <= g->rows; r++) {
		if (r < g->rows && g->dmin[r] < g->dmax[r]) {
			if (start < 0) {
				start = r;
				minc = g->dmin[r];
				maxc = g->dmax[r];
			}
			if (g->dmin[r] < minc)
				minc = g->dmin[r];
			if (g->dmax[r] > maxc)
				maxc = g->dmax[r];
			g->dmin[r] = g->cols;
			g->dmax[r] = 0;
			continue;
		}
		if (start >= 0 && cb != NULL)
			cb(user, start, r, minc, maxc);
		start = -1;
	}
	g->dirty = false;
}

/* (Re)allocate the per-row arrays for g->rows rows, all damaged. */
static void
alloc_rows(struct grid *g)
{
	int	r;

	g->tmp = xreallocarray(g->tmp, (size_t)g->rows, sizeof *g->tmp);
	g->dmin = xreallocarray(g->dmin, (size_t)g->rows, sizeof *g->dmin);
	g->dmax = xreallocarray(g->dmax, (size_t)g->rows, sizeof *g->dmax);
	for (r = 0; r < g->rows; r++) {
		g->dmin[r] = g->cols;
		g->dmax[r] = 0;
	}
	g->dirty = g->all_dirty = true;
}

/* A new row of cols blank cells. */
static struct cell *
new_row(int cols)
{
	struct cell	*cells = xreallocarray(NULL, (size_t)cols, sizeof *cells);

	blank_cells(cells, 0, cols, CELL_COLOR_DEFAULT);
	return cells;
}

void
grid_row_make(const struct grid *g, struct row *l)
{
	l->cells = new_row(g->cols);
}

struct grid *
grid_new(int rows, int cols)
{
	struct grid	*g = xcalloc(1, sizeof *g);

	g->rows = rows;
	g->cols = cols;
	g->lines = xcalloc((size_t)rows, sizeof *g->lines);
	alloc_rows(g);
	return g;
}

void
grid_free(struct grid *g)
{
	int	r;

	if (g == NULL)
		return;
	for (r = 0; r < g->rows; r++)
		free(g->lines[r].cells);
	free(g->lines);
	free(g->tmp);
	free(g->dmin);
	free(g->dmax);
	free(g);
}

int
grid_rows(const struct grid *g)
{
	return g->rows;
}

int
grid_cols(const struct grid *g)
{
	return g->cols;
}

void
grid_put(struct grid *g, int row, int col, const uint32_t *chars, int width,
    const struct cell_attr *attr)
{
	struct row	*l;
	struct cell	*cells, *c;
	int		 i, last;

	if (row < 0 || row >= g->rows || col < 0 || col >= g->cols)
		return;
	l = row_at(g, row);
	cells = l->cells;
	c = &cells[col];
	/* The usual glyph: one character, narrow, over a narrow cell. */
	if (width != 2 && chars[0] != 0 && chars[1] == 0 &&
	    grid_put_narrow(g, row, col, chars[0], attr))
		return;
	if (width != 2 || col + 1 >= g->cols)
		width = 1;
	last = col + width - 1;
	/* Overwriting half of a wide character blanks its other half. */
	if (cells[col].width == 0 && col > 0 && cells[col - 1].width == 2)
		blank(&cells[col - 1], CELL_COLOR_DEFAULT);
	if (cells[last].width == 2 && last + 1 < g->cols)
		blank(&cells[last + 1], CELL_COLOR_DEFAULT);
	/* Cleared whole (a few stores), then the usual one character. */
	memset(c->chars, 0, sizeof c->chars);
	for (i = 0; i < CELL_MAX_CHARS && chars[i] != 0; i++)
		c->chars[i] = chars[i];
	c->width = (uint8_t)width;
	c->attr = *attr;
	if (width == 2) {
		memset(&cells[col + 1], 0, sizeof cells[col + 1]);
		cells[col + 1].attr = *attr;
	}
	use(g, row, col + width);
	if (col + width >= g->cols)
		l->wrapped = false;	/* until it wraps again */
	grid_damage(g, row, row + 1, col - 1, col + width + 1);
}

void
grid_put_ascii(struct grid *g, int row, int col, const char *text, int n,
    const struct cell_attr *attr)
{
	struct row	*l;
	struct cell	*c;
	uint32_t	 ch[2] = { 0, 0 };
	int		 i;

	if (row < 0 || row >= g->rows || col < 0 || col >= g->cols || n <= 0)
		return;
	if (n > g->cols - col)
		n = g->cols - col;
	l = row_at(g, row);
	for (i = 0; i < n; i++) {
		c = &l->cells[col + i];
		if (c->width != 1) {
			/* A wide character's half: blanked as grid_put does. */
			ch[0] = (unsigned char)text[i];
			grid_put(g, row, col + i, ch, 1, attr);
			continue;
		}
		c->chars[0] = (unsigned char)text[i];
		memset(&c->chars[1], 0, sizeof c->chars - sizeof c->chars[0]);
		c->attr = *attr;
	}
	use(g, row, col + n);
	if (col + n >= g->cols)
		l->wrapped = false;	/* until it wraps again */
	grid_damage(g, row, row + 1, col - 1, col + n + 1);
}

void
grid_erase(struct grid *g, int srow, int erow, int scol, int ecol,
    uint32_t bg, bool selective)
{
	struct row	*l;
	struct cell	*cells;
	int		 r, c;

	if (!clip(g, &srow, &erow, &scol, &ecol))
		return;
	for (r = srow; r < erow; r++) {
		l = row_raw(g, r);
		if (ecol == g->cols && !selective)
			l->wrapped = false;
		if (bg == CELL_COLOR_DEFAULT && scol >= l->used)
			continue;	/* blank already */
		if (l->cells == NULL)
			grid_row_make(g, l);
		cells = l->cells;
		if (bg != CELL_COLOR_DEFAULT)
			use(g, r, ecol);
		else if (ecol >= l->used && !selective)
			l->used = scol;
		if (!selective)
			blank_cells(cells, scol, ecol, bg);
		else
			for (c = scol; c < ecol; c++)
				if (!(cells[c].attr.flags & GRID_PROTECTED))
					blank(&cells[c], bg);
		fix_wide(cells, scol, g->cols);
		fix_wide(cells, ecol, g->cols);
	}
	grid_damage(g, srow, erow, scol - 1, ecol + 1);
}

void
grid_push_top(struct grid *g, int n, struct scrollback *sb)
{
	struct row	*l;
	int		 i;

	for (i = 0; i < n; i++) {
		l = sb != NULL ? row_at(g, 0) : row_raw(g, 0);
		if (sb != NULL)
			scrollback_push_line(sb, l->cells, l->used, l->wrapped);
		if (l->cells != NULL)
			blank_cells(l->cells, 0, l->used, CELL_COLOR_DEFAULT);
		l->used = 0;
		l->wrapped = false;
		g->top = g->top + 1 == g->rows ? 0 : g->top + 1;
	}
	grid_damage(g, 0, g->rows, 0, g->cols);
}

bool
grid_pop_top(struct grid *g, struct scrollback *sb)
{
	if (sb == NULL || scrollback_count(sb) == 0)
		return false;
	g->top = g->top == 0 ? g->rows - 1 : g->top - 1;
	row_at(g, 0)->wrapped = scrollback_is_wrapped(sb,
	    scrollback_count(sb) - 1);
	scrollback_pop(sb, grid_line(g, 0), g->cols);
	fix_wide(grid_line(g, 0), g->cols, g->cols);
	row_at(g, 0)->used = g->cols;
	grid_damage(g, 0, g->rows, 0, g->cols);
	return true;
}

/* Blank whole rows [srow,erow) with background bg. */
static void
blank_rows(struct grid *g, int srow, int erow, uint32_t bg)
{
	struct row	*l;
	int		 r;

	for (r = srow; r < erow; r++) {
		l = bg == CELL_COLOR_DEFAULT ? row_raw(g, r) : row_at(g, r);
		l->wrapped = false;
		if (bg == CELL_COLOR_DEFAULT) {
			if (l->cells != NULL)
				blank_cells(l->cells, 0, l->used, bg);
			l->used = 0;
		} else {
			blank_cells(l->cells, 0, g->cols, bg);
			l->used = g->cols;
		}
	}
}

/*
 * Rotate the rows [srow,erow) up by n (down when negative), moving
 * pointers only; the rows that come in are blanked with bg.
 */
static void
rotate_rows(struct grid *g, int srow, int erow, int n, uint32_t bg)
{
	int	h = erow - srow, i, k;

	for (i = 0; i < h; i++)
		g->tmp[i] = *row_raw(g, srow + i);
	for (i = 0; i < h; i++) {
		k = (i + n) % h;
		if (k < 0)
			k += h;
		*row_raw(g, srow + i) = g->tmp[k];
	}
	if (n > 0)
		blank_rows(g, erow - n, erow, bg);
	else
		blank_rows(g, srow, srow - n, bg);
}

/* Move the cells of a region narrower than the grid, or sideways. */
static void
move_cells(struct grid *g, int srow, int erow, int scol, int ecol,
    int downward, int rightward, uint32_t bg)
{
	int	h = erow - srow, w = ecol - scol, n, i, dr, sr, dc, sc;

	n = h - (downward < 0 ? -downward : downward);
	dc = rightward > 0 ? scol : scol - rightward;
	sc = rightward > 0 ? scol + rightward : scol;
	w -= rightward < 0 ? -rightward : rightward;
	for (i = 0; i < n; i++) {
		/* Up: top to bottom; down: bottom to top. */
		dr = downward >= 0 ? srow + i : erow - 1 - i;
		sr = dr + downward;
		memmove(grid_line(g, dr) + dc, grid_line(g, sr) + sc,
		    (size_t)w * sizeof(struct cell));
		use(g, dr, ecol);
	}
	if (downward > 0)
		grid_erase(g, erow - downward, erow, scol, ecol, bg, false);
	else if (downward < 0)
		grid_erase(g, srow, srow - downward, scol, ecol, bg, false);
	if (rightward > 0)
		grid_erase(g, srow, erow, ecol - rightward, ecol, bg, false);
	else if (rightward < 0)
		grid_erase(g, srow, erow, scol, scol - rightward, bg, false);
	for (i = srow; i < erow; i++) {
		fix_wide(grid_line(g, i), scol, g->cols);
		fix_wide(grid_line(g, i), ecol, g->cols);
	}
}

int
grid_scroll(struct grid *g, int srow, int erow, int scol, int ecol,
    int downward, int rightward, uint32_t bg, struct scrollback *sb)
{
	int	pushed = 0, i;

	if (!clip(g, &srow, &erow, &scol, &ecol))
		return 0;
	grid_damage(g, srow, erow, scol - 1, ecol + 1);
	if (abs(downward) >= erow - srow || abs(rightward) >= ecol - scol) {
		grid_erase(g, srow, erow, scol, ecol, bg, false);
		return 0;
	}
	if (scol != 0 || ecol != g->cols || rightward != 0) {
		move_cells(g, srow, erow, scol, ecol, downward, rightward, bg);
		return 0;
	}
	if (downward > 0 && srow == 0 && sb != NULL) {
		for (i = 0; i < downward; i++)
			scrollback_push_line(sb, grid_line(g, i),
			    row_raw(g, i)->used, row_raw(g, i)->wrapped);
		pushed = downward;
	}
	if (srow == 0 && erow == g->rows && downward > 0) {
		grid_push_top(g, downward, NULL);
		if (bg != CELL_COLOR_DEFAULT)
			blank_rows(g, erow - downward, erow, bg);
	} else if (downward != 0)
		rotate_rows(g, srow, erow, downward, bg);
	return pushed;
}

bool
grid_row_is_empty(const struct grid *g, int row)
{
	const struct row	*l = row_raw(g, row);
	const struct cell	*cells = l->cells;
	int			 c;

	for (c = 0; cells != NULL && c < l->used; c++)
		if (cells[c].chars[0] != 0)
			return false;
	return true;
}

void
grid_resize(struct grid *g, int rows, int cols)
{
	struct row	*lines;
	struct cell	*cells;
	int		 r, used;
	bool		 wrapped;

	if (rows == g->rows && cols == g->cols)
		return;
	lines = xreallocarray(NULL, (size_t)rows, sizeof *lines);
	for (r = 0; r < rows || r < g->rows; r++) {
		cells = r < g->rows ? row_raw(g, r)->cells : NULL;
		used = r < g->rows ? row_raw(g, r)->used : 0;
		wrapped = r < g->rows && row_raw(g, r)->wrapped;
		if (r >= rows) {
			free(cells);
			continue;
		}
		if (cells == NULL) {	/* blank: made when written */
			lines[r].cells = NULL;
			lines[r].used = 0;
			lines[r].wrapped = wrapped;
			continue;
		}
		if (cols != g->cols) {
			cells = xreallocarray(cells, (size_t)cols,
			    sizeof *cells);
			if (cols > g->cols)
				blank_cells(cells, g->cols, cols,
				    CELL_COLOR_DEFAULT);
			else
				fix_wide(cells, cols, cols);
		}
		lines[r].cells = cells;
		lines[r].used = used < cols ? used : cols;
		lines[r].wrapped = wrapped;
	}
	free(g->lines);
	g->lines = lines;
	g->top = 0;
	g->rows = rows;
	g->cols = cols;
	alloc_rows(g);
}

bool
grid_wrapped(const struct grid *g, int row)
{
	return row_raw(g, row)->wrapped;
}

void
grid_set_wrapped(struct grid *g, int row, bool wrapped)
{
	row_raw(g, row)->wrapped = wrapped;
}

int
grid_row_used(const struct grid *g, int row)
{
	return row_raw(g, row)->used;
}

void
grid_set_row(struct grid *g, int row, const struct cell *cells, int n,
    bool wrapped)
{
	struct row	*l = row_at(g, row);

	if (n > g->cols)
		n = g->cols;
	if (n > 0)
		memcpy(l->cells, cells, (size_t)n * sizeof *cells);
	else
		n = 0;
	blank_cells(l->cells, n, g->cols, CELL_COLOR_DEFAULT);
	fix_wide(l->cells, n, g->cols);
	l->used = n;
	l->wrapped = wrapped;
	grid_damage(g, row, row + 1, 0, g->cols);
}
