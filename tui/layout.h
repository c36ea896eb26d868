/*
 * layout.h - where panes go: a pure tiling of N panes over a rectangle.
 *
 * Each pane rectangle includes its one-row title at the top; panes in a
 * row of the grid are separated by a one-column border, which belongs to
 * neither.  Nothing here touches the terminal.
 */
#ifndef PTYVISOR_LAYOUT_H
#define PTYVISOR_LAYOUT_H

#include <stdbool.h>

/* Most panes tiled at once; more are reached by focusing them. */
#define LAYOUT_MAX_PANES	6

/* Below this the whole terminal shows a "too small" notice. */
#define LAYOUT_MIN_COLS		20
#define LAYOUT_MIN_ROWS		5

/* Smallest useful pane: title plus two rows, ten columns. */
#define LAYOUT_PANE_MIN_COLS	10
#define LAYOUT_PANE_MIN_ROWS	3

/* A rectangle in terminal cells (a plain value). */
struct layout_rect {
	int	x;
	int	y;
	int	w;
	int	h;
};

/* True when a cols x rows terminal is too small to show anything. */
bool	layout_too_small(int cols, int rows);

/*
 * Tile n (1..LAYOUT_MAX_PANES) panes over area into out[0..n): a grid of
 * ceil(sqrt(n)) columns, rows filled in order, the last row's panes
 * sharing its whole width.  Returns 0, or -1 when the panes would be
 * smaller than the minimum (the caller then shows one pane).
 */
int	layout_tile(struct layout_rect area, int n, struct layout_rect *out);

/* The content (below the title) of pane rectangle r. */
struct layout_rect	layout_content(struct layout_rect r);

/*
 * The first of the visible panes when only LAYOUT_MAX_PANES of n fit:
 * a window of consecutive panes that contains focus.
 */
int	layout_window(int n, int focus);

#endif
