/*
 * render.c - cells to curses (see render.h).
 *
 * Colours go through ncurses' extended colour pairs: alloc_pair() keeps a
 * table of the (fg, bg) combinations in use and hands out the same pair
 * for the same combination, so hundreds of colours do not exhaust the
 * terminal's pairs; when the table is full it recycles the least recently
 * used one.  Colours the terminal lacks are mapped to the nearest it has.
 */
#include "tui/render.h"

#include <limits.h>
#include <stdlib.h>

#include <curses.h>

/* The six levels of each channel of the 6x6x6 colour cube. */
static const int render_cube[6] = { 0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff };

/* The sixteen ANSI colours as xterm shows them. */
static const uint32_t render_ansi[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00,
	0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
	0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
	0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

static int	render_ncolors;

uint32_t
render_palette(int idx)
{
	int	r, g, b, v;

	if (idx < 0 || idx > 255)
		return 0;
	if (idx < 16)
		return render_ansi[idx];
	if (idx >= 232) {
		v = 8 + 10 * (idx - 232);
		return (uint32_t)(v << 16 | v << 8 | v);
	}
	idx -= 16;
	r = render_cube[idx / 36];
	g = render_cube[(idx / 6) % 6];
	b = render_cube[idx % 6];
	return (uint32_t)(r << 16 | g << 8 | b);
}

/* Squared distance between two colours. */
static int
render_distance(uint32_t a, uint32_t b)
{
	int	dr = (int)(a >> 16 & 0xff) - (int)(b >> 16 & 0xff);
	int	dg = (int)(a >> 8 & 0xff) - (int)(b >> 8 & 0xff);
	int	db = (int)(a & 0xff) - (int)(b & 0xff);

	return dr * dr + dg * dg + db * db;
}

/* The index of the cube level nearest to v. */
static int
render_cube_level(int v)
{
	if (v < 48)
		return 0;
	if (v < 115)
		return 1;
	return (v - 35) / 40;
}

int
render_rgb_to_256(uint32_t rgb)
{
	int		r = rgb >> 16 & 0xff, g = rgb >> 8 & 0xff, b = rgb & 0xff;
	int		cr, cg, cb, cube, grey, avg;
	uint32_t	cube_rgb, grey_rgb;

	cr = render_cube_level(r);
	cg = render_cube_level(g);
	cb = render_cube_level(b);
	cube = 16 + 36 * cr + 6 * cg + cb;
	cube_rgb = render_palette(cube);
	if (cube_rgb == rgb)
		return cube;
	avg = (r + g + b) / 3;
	grey = avg > 238 ? 23 : (avg < 3 ? 0 : (avg - 3) / 10);
	grey_rgb = render_palette(232 + grey);
	if (render_distance(grey_rgb, rgb) < render_distance(cube_rgb, rgb))
		return 232 + grey;
	return cube;
}

int
render_rgb_to_ansi(uint32_t rgb, int n)
{
	int	i, best = 0, d, bestd = -1;

	for (i = 0; i < n && i < 16; i++) {
		d = render_distance(render_ansi[i], rgb);
		if (bestd < 0 || d < bestd) {
			bestd = d;
			best = i;
		}
	}
	return best;
}

/* A direct-colour value: those below 8 mean ANSI colours there. */
static int
render_direct(uint32_t rgb)
{
	return rgb < 8 ? 8 : (int)rgb;
}

int
render_color(uint32_t color, int ncolors, bool *bright)
{
	uint32_t	v = color & 0xffffff;
	int		c;

	*bright = false;
	if (ncolors == 0 || CELL_COLOR_TYPE(color) == CELL_COLOR_DEFAULT)
		return -1;
	if (CELL_COLOR_TYPE(color) == CELL_COLOR_INDEXED) {
		if ((int)v < ncolors && ncolors <= 256)
			return (int)v;
		if (ncolors >= RENDER_DIRECT)
			return v < 8 ? (int)v : render_direct(render_palette(
			    (int)v));
		if (ncolors == 8 && v < 16) {
			*bright = true;
			return (int)v - 8;
		}
		v = render_palette((int)v);
	}
	if (ncolors >= RENDER_DIRECT)
		return render_direct(v);
	if (ncolors >= 256)
		return render_rgb_to_256(v);
	c = render_rgb_to_ansi(v, ncolors >= 16 ? 16 : 8);
	return c;
}

void
render_style(const struct cell_attr *a, int ncolors, struct render_style *out)
{
	bool	bright;

	out->attrs = A_NORMAL;
	if (a->flags & CELL_BOLD)
		out->attrs |= A_BOLD;
	if (a->flags & (CELL_UNDERLINE | CELL_UNDERLINE2))
		out->attrs |= A_UNDERLINE;
	if (a->flags & CELL_ITALIC)
		out->attrs |= A_ITALIC;
	if (a->flags & CELL_BLINK)
		out->attrs |= A_BLINK;
	if (a->flags & CELL_REVERSE)
		out->attrs |= A_REVERSE;
	if (a->flags & CELL_CONCEAL)
		out->attrs |= A_INVIS;
	out->fg = render_color(a->fg, ncolors, &bright);
	if (bright)
		out->attrs |= A_BOLD;
	out->bg = render_color(a->bg, ncolors, &bright);
}

void
render_chars(const struct cell *c, wchar_t *out, int max)
{
	wchar_t	repl = wcwidth(0xfffd) == 1 ? 0xfffd : L'?';
	int	i, n = 0;

	if (max < 2) {
		if (max == 1)
			out[0] = 0;
		return;
	}
	if (c->chars[0] == 0 || c->chars[0] == ' ')
		out[n++] = L' ';
	else if (wcwidth((wchar_t)c->chars[0]) != (c->width == 2 ? 2 : 1))
		out[n++] = repl;
	else {
		out[n++] = (wchar_t)c->chars[0];
		for (i = 1; i < CELL_MAX_CHARS && c->chars[i] != 0 &&
		    n < max - 1; i++) {
			if (wcwidth((wchar_t)c->chars[i]) == 0)
				out[n++] = (wchar_t)c->chars[i];
		}
	}
	if ((c->attr.flags & CELL_STRIKE) && n < max - 1 && out[0] != repl &&
	    wcwidth(0x336) == 0)
		out[n++] = 0x336;	/* combining long stroke overlay */
	out[n] = 0;
}

int
render_init(void)
{
	render_ncolors = 0;
	if (!has_colors() || start_color() != OK)
		return 0;
	use_default_colors();
	if (COLORS >= RENDER_DIRECT)
		render_ncolors = RENDER_DIRECT;
	else if (COLORS >= 256)
		render_ncolors = 256;
	else if (COLORS >= 16)
		render_ncolors = 16;
	else if (COLORS >= 8)
		render_ncolors = 8;
	return render_ncolors;
}

void
render_select(int depth)
{
	render_ncolors = depth;
}

int
render_depth(void)
{
	return render_ncolors;
}

/* The colour pair for fg/bg (0 for the defaults or when out of pairs). */
static int
render_pair(int fg, int bg)
{
	int	pair;

	if (render_ncolors == 0 || (fg == -1 && bg == -1))
		return 0;
	pair = alloc_pair(fg, bg);
	return pair < 0 ? 0 : pair;
}

/*
 * The style of the cell drawn last in a row: neighbours mostly share one,
 * and working it out (colours to the terminal's depth, a pair) costs more
 * than drawing the character.
 */
struct render_last {
	bool		 valid;
	struct cell_attr attr;
	attr_t		 attrs;
	int		 pair;
};

/* Draw one cell's characters with its style at (y, x); the width drawn. */
static int
render_one(int y, int x, const struct cell *c, bool reverse,
    struct render_last *last)
{
	struct render_style	st;
	cchar_t			cc;
	wchar_t			wc[CCHARW_MAX + 1];
	uint32_t		ch = c->chars[0];

	if (!last->valid || !cell_attr_eq(&last->attr, &c->attr)) {
		render_style(&c->attr, render_ncolors, &st);
		if (reverse)
			st.attrs ^= A_REVERSE;
		last->valid = true;
		last->attr = c->attr;
		last->attrs = (attr_t)st.attrs;
		last->pair = render_pair(st.fg, st.bg);
	}
	/* The usual cell: one printable ASCII character, or none. */
	if (ch < 0x7f && (ch == 0 || ch >= 0x20) && c->chars[1] == 0 &&
	    c->width == 1 && !(c->attr.flags & CELL_STRIKE)) {
		wc[0] = ch == 0 ? L' ' : (wchar_t)ch;
		wc[1] = 0;
		setcchar(&cc, wc, last->attrs, 0, &last->pair);
		mvadd_wch(y, x, &cc);
		return 1;
	}
	render_chars(c, wc, CCHARW_MAX + 1);
	if (setcchar(&cc, wc, last->attrs, 0, &last->pair) != OK) {
		wc[0] = L'?';
		wc[1] = 0;
		setcchar(&cc, wc, last->attrs, 0, &last->pair);
	}
	mvadd_wch(y, x, &cc);
	return wcwidth(wc[0]) == 2 ? 2 : 1;
}

/*
 * Draw the glyphs of cells[lo..n) that start before column hi, at most w
 * columns from x; blanks after the cells when the range reaches their end.
 */
static void
render_range(int y, int x, int w, const struct cell *cells, int n, int lo,
    int hi, bool reverse)
{
	struct render_last	last = { .valid = false };
	struct cell		blank;
	int			i, col, cw;

	/* A right half is drawn with its left half. */
	if (lo > 0 && lo < n && cells[lo].width == 0)
		lo--;
	for (i = col = lo; i < n && col < w && col < hi; i++) {
		if (cells[i].width == 0) {
			if (i == 0)
				col++;	/* half a glyph cut off on the left */
			continue;
		}
		cw = cells[i].width == 2 ? 2 : 1;
		if (col + cw > w) {
			blank = cells[i];
			blank.chars[0] = 0;
			blank.width = 1;
			render_one(y, x + col, &blank, reverse, &last);
			col++;
			continue;
		}
		if (render_one(y, x + col, &cells[i], reverse, &last) < cw) {
			blank = cells[i];
			blank.chars[0] = 0;
			blank.width = 1;
			render_one(y, x + col + 1, &blank, reverse, &last);
		}
		col += cw;
	}
	if (i >= n && col < w)
		render_blank(y, x + col, w - col);
}

void
render_cells(int y, int x, int w, const struct cell *cells, int n,
    bool reverse)
{
	render_range(y, x, w, cells, n, 0, INT_MAX, reverse);
}

void
render_span(int y, int x, int w, const struct cell *cells, int n, int lo,
    int hi)
{
	render_range(y, x, w, cells, n, lo, hi, false);
}

void
render_blank(int y, int x, int w)
{
	attrset(A_NORMAL);
	mvhline(y, x, ' ', w);
}

void
render_frame(int ay, int ax, int h_area, int w_area, const char *title,
    int *y, int *x, int *h, int *w)
{
	int	i;

	if (*w > w_area)
		*w = w_area;
	if (*h > h_area)
		*h = h_area;
	*x = ax + (w_area - *w) / 2;
	*y = ay + (h_area - *h) / 2;
	attrset(A_NORMAL);
	for (i = 0; i < *h; i++)
		mvhline(*y + i, *x, ' ', *w);
	if (*w < 2 || *h < 2)
		return;
	mvhline(*y, *x + 1, ACS_HLINE, *w - 2);
	mvhline(*y + *h - 1, *x + 1, ACS_HLINE, *w - 2);
	mvvline(*y + 1, *x, ACS_VLINE, *h - 2);
	mvvline(*y + 1, *x + *w - 1, ACS_VLINE, *h - 2);
	mvaddch(*y, *x, ACS_ULCORNER);
	mvaddch(*y, *x + *w - 1, ACS_URCORNER);
	mvaddch(*y + *h - 1, *x, ACS_LLCORNER);
	mvaddch(*y + *h - 1, *x + *w - 1, ACS_LRCORNER);
	if (title != NULL && *w > 4) {
		attrset(A_BOLD);
		mvaddnstr(*y, *x + 2, title, *w - 4);
		attrset(A_NORMAL);
	}
}
