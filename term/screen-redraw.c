/*
 * screen-redraw.c - a screen drawn anew (screen_redraw, see screen.h): the
 * bytes that make a terminal of the screen's size, just reset, show what
 * the screen shows, for a viewer that joins a session late; the program's
 * next bytes then continue it.
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

/* Append colour c as an SGR parameter (fg: 30.., else 40..); ';' first. */
static void
dump_color(struct buf *out, uint32_t c, bool fg)
{
	uint32_t	i = c & 0xffffffu;

	switch (CELL_COLOR_TYPE(c)) {
	case CELL_COLOR_INDEXED:
		if (i < 8)
			buf_printf(out, ";%u", (fg ? 30 : 40) + i);
		else if (i < 16)
			buf_printf(out, ";%u", (fg ? 90 : 100) + i - 8);
		else
			buf_printf(out, ";%u;5;%u", fg ? 38 : 48, i & 0xff);
		break;
	case CELL_COLOR_RGB:
		buf_printf(out, ";%u;2;%u;%u;%u", fg ? 38 : 48, i >> 16,
		    (i >> 8) & 0xff, i & 0xff);
		break;
	default:
		break;
	}
}

/* Append the SGR sequence that sets attribute a from nothing. */
static void
dump_sgr(struct buf *out, const struct cell_attr *a)
{
	static const struct {
		uint16_t	flag;
		const char	*param;
	} flags[] = {
		{ CELL_BOLD, ";1" }, { CELL_ITALIC, ";3" },
		{ CELL_UNDERLINE, ";4" }, { CELL_UNDERLINE2, ";21" },
		{ CELL_BLINK, ";5" }, { CELL_REVERSE, ";7" },
		{ CELL_CONCEAL, ";8" }, { CELL_STRIKE, ";9" },
	};
	size_t	i;

	buf_adds(out, "\033[0");
	for (i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (a->flags & flags[i].flag)
			buf_adds(out, flags[i].param);
	dump_color(out, a->fg, true);
	dump_color(out, a->bg, false);
	buf_addc(out, 'm');
}

/* Whether a cell shows nothing a cleared screen does not show already. */
static bool
dump_is_blank(const struct cell *c)
{
	return (c->chars[0] == 0 || (c->chars[0] == ' ' && c->chars[1] == 0))
	    && c->width == 1 && c->attr.flags == 0 &&
	    c->attr.fg == CELL_COLOR_DEFAULT &&
	    c->attr.bg == CELL_COLOR_DEFAULT;
}

/*
 * Append row's cells up to its last that is not blank, *pen the
 * attributes in force (updated).
 */
static void
dump_row(const struct screen *s, int row, const struct cell *cells,
    struct cell_attr *pen, struct buf *out)
{
	const struct cell	*c;
	char			 u[4];
	int			 col, end = s->cols, k;

	while (end > 0 && dump_is_blank(&cells[end - 1]))
		end--;
	if (end == 0)
		return;
	buf_printf(out, "\033[%d;1H", row + 1);
	for (col = 0; col < end; col++) {
		c = &cells[col];
		if (c->width == 0)
			continue;	/* a wide character's right half */
		if (!cell_attr_eq(&c->attr, pen)) {
			dump_sgr(out, &c->attr);
			*pen = c->attr;
		}
		if (c->chars[0] == 0) {
			buf_addc(out, ' ');
			continue;
		}
		for (k = 0; k < CELL_MAX_CHARS && c->chars[k] != 0; k++)
			buf_add(out, u, utf8_encode(c->chars[k], u));
	}
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
		dump_row(s, row, cells, &pen, out);
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
		dump_sgr(out, &s->pen);
	return whole;
}
