/*
 * paint-row.c - one row of a screen as the bytes that draw it (see
 * paint-row.h).
 *
 * Invariant: every row starts and ends with attributes reset, so rows can
 * be painted in any order and nothing bleeds past the row's last cell.
 */
#include "cli/paint-row.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "term/cell.h"
#include "term/screen.h"

void
paint_row(struct buf *b, const struct screen *s, int row, int y, int width)
{
	struct cell		*cells;
	struct cell_attr	 cur;
	int			 ncols = screen_cols(s);

	if (ncols > width)
		ncols = width;
	buf_printf(b, "\033[%d;1H\033[0m", y + 1);
	memset(&cur, 0, sizeof cur);
	cells = xcalloc((size_t)ncols + 1, sizeof *cells);
	screen_row_cells(s, row, cells, ncols);
	screen_draw_cells(cells, ncols, &cur, b);
	free(cells);
	buf_adds(b, "\033[0m");
	if (ncols < width)
		buf_adds(b, "\033[K");
}
