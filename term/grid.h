/*
 * grid.h - the cells of one screen buffer: rows kept as pointers in a ring,
 * so that scrolling the whole width of a region moves pointers, not cells;
 * damage tracked per row.
 *
 * Rows are addressed 0..rows-1 from the top.  Every operation keeps wide
 * characters whole: a write, erase or move that splits one blanks the
 * half left behind, as terminals do.  Used by the screen's files
 * (screen.c, screen-read.c, feed.c) and reflow.c only.
 */
#ifndef PTYVISOR_GRID_H
#define PTYVISOR_GRID_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "term/cell.h"

struct scrollback;

/* Cell flag kept inside the grid only: DECSCA protection (never exported). */
#define GRID_PROTECTED	0x4000u

/*
 * The grid's layout is here only so that the write of the usual glyph
 * (grid_put_narrow) is inlined into the screen's glyph callback: it runs
 * for every character a program prints.  Nothing but grid.c and that
 * write touches these fields.
 */
struct row {
	struct cell	*cells;		/* NULL until first written: all blank */
	int		 used;		/* cells past it are default blanks */
	bool		 wrapped;	/* the text goes on in the next row */
};

struct grid {
	struct row	*lines;		/* physical rows, a ring */
	struct row	*tmp;		/* scratch for rotations */
	int		*dmin;		/* per logical row: changed columns */
	int		*dmax;
	int		 top;		/* physical index of logical row 0 */
	int		 rows;
	int		 cols;
	bool		 dirty;		/* some row has damage */
	bool		 all_dirty;	/* every cell has */
};

/* Physical slot of logical row r. */
static inline int
grid_slot(const struct grid *g, int r)
{
	int	i = g->top + r;

	return i >= g->rows ? i - g->rows : i;
}

/* A rows x cols grid of blank cells. */
struct grid	*grid_new(int rows, int cols);
/* Give l (a row of g, cells NULL) its cols blank cells. */
void		 grid_row_make(const struct grid *g, struct row *l);
void		 grid_free(struct grid *g);

int	grid_rows(const struct grid *g);
int	grid_cols(const struct grid *g);

/* The cells of row (0 <= row < rows), cols of them. */
struct cell	*grid_line(const struct grid *g, int row);

/*
 * Write a glyph of width 1 or 2 at (row, col): chars 0-terminated unless
 * CELL_MAX_CHARS long.  The halves of wide characters it splits are blanked.
 */
void	grid_put(struct grid *g, int row, int col, const uint32_t *chars,
	    int width, const struct cell_attr *attr);

/*
 * grid_put of the usual glyph, one character ch (not 0) of width 1, where
 * it splits no wide character: returns false, having changed nothing, when
 * the cell there is a wide character's half or (row, col) is outside.
 */
static inline bool
grid_put_narrow(struct grid *g, int row, int col, uint32_t ch,
    const struct cell_attr *attr)
{
	struct row	*l;
	struct cell	*c;
	int		 lo, hi;

	if (row < 0 || row >= g->rows || col < 0 || col >= g->cols)
		return false;
	l = &g->lines[grid_slot(g, row)];
	if (l->cells == NULL)
		grid_row_make(g, l);
	c = &l->cells[col];
	if (c->width != 1)
		return false;
	c->chars[0] = ch;
	memset(&c->chars[1], 0, sizeof c->chars - sizeof c->chars[0]);
	c->attr = *attr;
	if (col >= l->used)
		l->used = col + 1;
	if (col + 1 >= g->cols)
		l->wrapped = false;	/* until it wraps again */
	/* grid_damage(g, row, row + 1, col - 1, col + 2), in short. */
	if (!g->all_dirty) {
		lo = col > 0 ? col - 1 : 0;
		hi = col + 2 < g->cols ? col + 2 : g->cols;
		if (lo < g->dmin[row])
			g->dmin[row] = lo;
		if (hi > g->dmax[row])
			g->dmax[row] = hi;
		g->dirty = true;
	}
	return true;
}

/*
 * Write text[0..n), printable ASCII, at (row, col) onwards: each character
 * as grid_put would write it, with attr (cut at the right edge).
 */
void	grid_put_ascii(struct grid *g, int row, int col, const char *text,
	    int n, const struct cell_attr *attr);

/*
 * Blank [srow,erow) x [scol,ecol) with background bg; selective skips
 * protected cells.
 */
void	grid_erase(struct grid *g, int srow, int erow, int scol, int ecol,
	    uint32_t bg, bool selective);

/*
 * Scroll [srow,erow) x [scol,ecol): content moves up by downward rows (down
 * when negative) and left by rightward columns; vacated cells are blanked
 * with bg.  When the region spans the full width, starts at row 0 and
 * moves up, the rows leaving the top are appended to sb (if not NULL);
 * returns how many were.
 */
int	grid_scroll(struct grid *g, int srow, int erow, int scol, int ecol,
	    int downward, int rightward, uint32_t bg, struct scrollback *sb);

/*
 * Remove the top n rows into sb (if not NULL) and add n blank rows at the
 * bottom.
 */
void	grid_push_top(struct grid *g, int n, struct scrollback *sb);

/*
 * Take the newest line of sb into a new top row, dropping the bottom row.
 * Returns false (and changes nothing) when sb is empty.
 */
bool	grid_pop_top(struct grid *g, struct scrollback *sb);

/* True when row holds no character (only erased cells). */
bool	grid_row_is_empty(const struct grid *g, int row);

/*
 * Whether row's text goes on in the next row: set by the screen when the
 * cursor wraps; cleared when the row's last column is written or erased and
 * when the row is blanked.  Carried into the scrollback.
 */
bool	grid_wrapped(const struct grid *g, int row);
void	grid_set_wrapped(struct grid *g, int row, bool wrapped);

/* Cells of row that may differ from a default blank (the rest are). */
int	grid_row_used(const struct grid *g, int row);

/* Replace row with cells[0..n) and default blanks after them. */
void	grid_set_row(struct grid *g, int row, const struct cell *cells, int n,
	    bool wrapped);

/* Change the size: rows kept from the top, cells cut or padded. */
void	grid_resize(struct grid *g, int rows, int cols);

/* Mark [srow,erow) x [scol,ecol) changed. */
void	grid_damage(struct grid *g, int srow, int erow, int scol, int ecol);

/*
 * Report the changed cells, consecutive changed rows merged into one
 * rectangle, and forget them.
 */
void	grid_flush_damage(struct grid *g,
	    void (*cb)(void *, int, int, int, int), void *user);

#endif
