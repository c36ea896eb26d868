/*
 * screen-redraw.c - a screen drawn anew (screen_redraw, see screen.h): the
 * bytes that make a terminal of the screen's size, just reset, show what
 * the screen shows, for a viewer that joins a session late; the program's
 * next bytes then continue it.  Cells drawn as bytes (screen_draw_cells)
 * for it and for whoever paints a row (replay).
 *
 * Invariants: reading changes nothing (as term/screen-read.c); the result
 * is valid UTF-8 and holds no byte but the cells' characters and the
 * sequences below; it starts from the default attributes on a cleared
 * screen (the alternate one when the program is on it), sets attributes
 * only where they change, and ends with the cursor where the screen has
 * it, its visibility and the program's pen.  What libvterm keeps to itself
 * (a scroll region, modes such as the cursor keys', a pending wrap) is not
 * said: a program sets it again when it redraws.
 */
#include "term/screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term/screen-int.h"
#include "base/utf8.h"

/* Append colour c as an SGR parameter (base 30: foreground, 40: back). */
static void
draw_color(struct buf *out, uint32_t c, unsigned int base)
{
	uint32_t	v = c & 0xffffffu;

	switch (CELL_COLOR_TYPE(c)) {
	case CELL_COLOR_INDEXED:
		if (v < 8)
			buf_printf(out, ";%u", base + v);
		else if (v < 16)
			buf_printf(out, ";%u", base + 60 + v - 8);
		else
			buf_printf(out, ";%u;5;%u", base + 8, v & 0xff);
		break;
	case CELL_COLOR_RGB:
		buf_printf(out, ";%u;2;%u;%u;%u", base + 8, v >> 16,
		    (v >> 8) & 0xff, v & 0xff);
		break;
	default:
		break;
	}
}

/*
 * Append the SGR sequence that sets exactly attribute a: every underline
 * as a single one (21, double underline to some terminals, is bold off to
 * others).
 */
static void
draw_sgr(struct buf *out, const struct cell_attr *a)
{
	static const struct {
		uint16_t	flag;
		const char	*param;
	} flags[] = {
		{ CELL_BOLD, ";1" }, { CELL_ITALIC, ";3" },
		{ CELL_UNDERLINE | CELL_UNDERLINE2, ";4" },
		{ CELL_BLINK, ";5" }, { CELL_REVERSE, ";7" },
		{ CELL_CONCEAL, ";8" }, { CELL_STRIKE, ";9" },
	};
	size_t	i;

	buf_adds(out, "\033[0");
	for (i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (a->flags & flags[i].flag)
			buf_adds(out, flags[i].param);
	draw_color(out, a->fg, 30);
	draw_color(out, a->bg, 40);
	buf_addc(out, 'm');
}

void
screen_draw_cells(const struct cell *cells, int n, struct cell_attr *pen,
    struct buf *out)
{
	const struct cell	*c;
	char			 u[4];
	int			 col, k;

	for (col = 0; col < n; col++) {
		c = &cells[col];
		if (c->width == 0)
			continue;	/* a wide character's right half */
		if (!cell_attr_eq(&c->attr, pen)) {
			draw_sgr(out, &c->attr);
			*pen = c->attr;
		}
		/* A wide character cut by the end: a blank instead. */
		if (c->chars[0] == 0 || (c->width == 2 && col + 1 >= n)) {
			buf_addc(out, ' ');
			continue;
		}
		for (k = 0; k < CELL_MAX_CHARS && c->chars[k] != 0; k++)
			buf_add(out, u, utf8_put(c->chars[k], u));
	}
}

/* Whether a cell shows nothing a cleared screen does not show already. */
static bool
redraw_is_blank(const struct cell *c)
{
	return (c->chars[0] == 0 || (c->chars[0] == ' ' && c->chars[1] == 0))
	    && c->width == 1 && c->attr.flags == 0 &&
	    c->attr.fg == CELL_COLOR_DEFAULT &&
	    c->attr.bg == CELL_COLOR_DEFAULT;
}

/* Append row's cells up to its last that is not blank, from *pen. */
static void
redraw_row(int row, const struct cell *cells, int n, struct cell_attr *pen,
    struct buf *out)
{
	while (n > 0 && redraw_is_blank(&cells[n - 1]))
		n--;
	if (n == 0)
		return;
	buf_printf(out, "\033[%d;1H", row + 1);
	screen_draw_cells(cells, n, pen, out);
}

bool
screen_redraw(const struct screen *s, size_t max, struct buf *out)
{
	struct cell_attr	 pen;
	struct cell		*cells;
	size_t			 start = out->len, before;
	bool			 whole = true;
	int			 row;

	memset(&pen, 0, sizeof pen);
	if (s->altscreen)
		buf_adds(out, "\033[?1049h");
	buf_adds(out, "\033[0m\033[H\033[2J");
	cells = xcalloc((size_t)s->cols, sizeof *cells);
	for (row = 0; row < s->rows; row++) {
		before = out->len;
		screen_row_cells(s, row, cells, s->cols);
		redraw_row(row, cells, s->cols, &pen, out);
		/* A row past the bound is left out, and those after it. */
		if (out->len - start > max) {
			out->len = before;
			whole = false;
			break;
		}
	}
	free(cells);
	buf_printf(out, "\033[%d;%dH\033[?25%c", s->crow + 1, s->ccol + 1,
	    s->cursor_visible ? 'h' : 'l');
	if (!cell_attr_eq(&s->pen, &pen))
		draw_sgr(out, &s->pen);
	return whole;
}
