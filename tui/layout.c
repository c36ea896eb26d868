/*
 * layout.c - tiling panes over the terminal (see layout.h).
 *
 * Invariant: the rectangles returned cover area exactly, minus the
 * one-column borders between horizontal neighbours; widths and heights
 * differ by at most one cell within a row (the remainder goes last).
 */
#include "tui/layout.h"

bool
layout_too_small(int cols, int rows)
{
	return cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS;
}

/* Smallest c with c * c >= n. */
static int
layout_columns(int n)
{
	int	c = 1;

	while (c * c < n)
		c++;
	return c;
}

int
layout_tile(struct layout_rect area, int n, struct layout_rect *out)
{
	int	cols, rows, row, col, k, i = 0, y, h, x, w, inrow;

	if (n < 1 || n > LAYOUT_MAX_PANES)
		return -1;
	cols = layout_columns(n);
	rows = (n + cols - 1) / cols;
	if (area.h / rows < LAYOUT_PANE_MIN_ROWS)
		return -1;
	y = area.y;
	for (row = 0; row < rows; row++) {
		h = area.h / rows;
		if (row == rows - 1)
			h = area.y + area.h - y;
		inrow = n - i < cols ? n - i : cols;
		if ((area.w - (inrow - 1)) / inrow < LAYOUT_PANE_MIN_COLS)
			return -1;
		x = area.x;
		for (col = 0; col < inrow; col++) {
			w = (area.w - (inrow - 1)) / inrow;
			if (col == inrow - 1)
				w = area.x + area.w - x;
			k = i++;
			out[k].x = x;
			out[k].y = y;
			out[k].w = w;
			out[k].h = h;
			x += w + 1;
		}
		y += h;
	}
	return 0;
}

struct layout_rect
layout_content(struct layout_rect r)
{
	struct layout_rect	c = r;

	c.y++;
	c.h = r.h > 1 ? r.h - 1 : 0;
	return c;
}

int
layout_window(int n, int focus)
{
	int	first;

	if (n <= LAYOUT_MAX_PANES)
		return 0;
	first = focus - LAYOUT_MAX_PANES + 1;
	if (first < 0)
		first = 0;
	if (first > n - LAYOUT_MAX_PANES)
		first = n - LAYOUT_MAX_PANES;
	return first;
}
