/*
 * reflow.h - rewrap a primary screen and its scrollback for a new width:
 * rows the program's text soft-wrapped across are joined into lines again
 * and cut at the new width.  Used by screen.c only.
 */
#ifndef PTYVISOR_REFLOW_H
#define PTYVISOR_REFLOW_H

struct grid;
struct scrollback;

/*
 * Give g (and *sbp, replaced by a new ring of the same bound) cols columns.
 * The screen stays anchored at its bottom row: rows that no longer fit go
 * to the scrollback, rows freed are filled from it; the cursor's row stays
 * on the screen.
 * *crow, *ccol: the cursor, moved with the character under it.  Returns
 * how many rows of the screen went into the scrollback.
 */
int	reflow(struct grid *g, struct scrollback **sbp, int cols, int *crow,
	    int *ccol);

#endif
