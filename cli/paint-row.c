/*
 * paint-row.c - one row of a screen as the bytes that draw it (see
 * paint-row.h).
 *
 * Invariant: every row starts and ends with attributes reset, so rows can
 * be painted in any order and nothing bleeds past the row's last cell.
 */
#include "cli/paint-row.h"

#include <string.h>

#include "base/utf8.h"
#include "base/util.h"
#include "term/cell.h"
#include "term/screen.h"

/* Append an SGR colour (base 30 for foreground, 40 for background). */
static void
paint_row_color(struct buf *b, uint32_t c, int base)
{
	uint32_t	v = c & 0xffffffu;

	switch (CELL_COLOR_TYPE(c)) {
	case CELL_COLOR_INDEXED:
		if (v < 8)
			buf_printf(b, ";%u", base + v);
		else if (v < 16)
			buf_printf(b, ";%u", base + 60 + v - 8);
		else
			buf_printf(b, ";%d;5;%u", base + 8, v);
		break;
	case CELL_COLOR_RGB:
		buf_printf(b, ";%d;2;%u;%u;%u", base + 8, v >> 16,
		    (v >> 8) & 0xff, v & 0xff);
		break;
	}
}

/* Append the SGR sequence that sets exactly attribute a. */
static void
paint_row_sgr(struct buf *b, const struct cell_attr *a)
{
	buf_adds(b, "\033[0");
	if (a->flags & CELL_BOLD)
		buf_adds(b, ";1");
	if (a->flags & CELL_ITALIC)
		buf_adds(b, ";3");
	if (a->flags & (CELL_UNDERLINE | CELL_UNDERLINE2))
		buf_adds(b, ";4");
	if (a->flags & CELL_BLINK)
		buf_adds(b, ";5");
	if (a->flags & CELL_REVERSE)
		buf_adds(b, ";7");
	if (a->flags & CELL_CONCEAL)
		buf_adds(b, ";8");
	if (a->flags & CELL_STRIKE)
		buf_adds(b, ";9");
	paint_row_color(b, a->fg, 30);
	paint_row_color(b, a->bg, 40);
	buf_addc(b, 'm');
}

void
paint_row(struct buf *b, const struct screen *s, int row, int y, int width)
{
	struct cell		 c;
	struct cell_attr	 cur;
	int			 col, ncols = screen_cols(s), i;
	char			 u[8];
	size_t			 n;

	if (ncols > width)
		ncols = width;
	buf_printf(b, "\033[%d;1H\033[0m", y + 1);
	memset(&cur, 0, sizeof cur);
	for (col = 0; col < ncols; col++) {
		screen_cell(s, row, col, &c);
		if (c.width == 0)
			continue;
		if (!cell_attr_eq(&c.attr, &cur)) {
			paint_row_sgr(b, &c.attr);
			cur = c.attr;
		}
		/* A wide character cut by the right edge: a blank instead. */
		if (c.chars[0] == 0 || (c.width == 2 && col + 1 >= ncols)) {
			buf_addc(b, ' ');
			continue;
		}
		for (i = 0; i < CELL_MAX_CHARS && c.chars[i] != 0; i++) {
			n = utf8_encode(c.chars[i], u);
			buf_add(b, u, n);
		}
	}
	buf_adds(b, "\033[0m");
	if (ncols < width)
		buf_adds(b, "\033[K");
}
