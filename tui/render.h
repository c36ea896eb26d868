/*
 * render.h - drawing a session's cells with curses.
 *
 * The mapping from cells to what curses draws is split into pure parts
 * that tests use without a terminal (colour mapping to what the terminal
 * offers, attribute translation, the characters of a cell) and the part
 * that writes into a curses window.
 */
#ifndef PTYVISOR_RENDER_H
#define PTYVISOR_RENDER_H

#include <stdbool.h>
#include <stdint.h>
#include <wchar.h>

#include "term/cell.h"

/* The terminal's colour depth: 0 (none), 8, 16, 256, or direct colour. */
#define RENDER_DIRECT	0x1000000

/* The xterm palette value (0xRRGGBB) of indexed colour idx (0..255). */
uint32_t	render_palette(int idx);

/*
 * The terminal colour for a cell colour on a terminal with ncolors
 * colours (0, 8, 16, 256, RENDER_DIRECT): -1 for the default, an index,
 * or for direct colour a 0xRRGGBB value.  *bright is set when a bright
 * colour had to be shown as bold on an 8-colour terminal.
 */
int		render_color(uint32_t color, int ncolors, bool *bright);

/* Nearest colour of the 256-colour palette to rgb (16..255 only). */
int		render_rgb_to_256(uint32_t rgb);

/* Nearest of the first n (8 or 16) palette colours to rgb. */
int		render_rgb_to_ansi(uint32_t rgb, int n);

/* What curses draws for an attribute: attribute bits and colours. */
struct render_style {
	unsigned long	attrs;	/* A_* bits */
	int		fg;	/* -1 default */
	int		bg;
};

void	render_style(const struct cell_attr *a, int ncolors,
	    struct render_style *out);

/*
 * The wide characters curses draws for c, 0-terminated, at most max - 1
 * of them: a blank for an empty cell, U+FFFD when the system's idea of
 * the width differs from the screen's (so columns stay aligned), a
 * combining long stroke for strikethrough when there is room.
 */
void	render_chars(const struct cell *c, wchar_t *out, int max);

/* Set up colours after initscr(); returns the depth in use. */
int	render_init(void);

/* The colour depth chosen by render_init(). */
int	render_depth(void);

/*
 * Draw at depth from now on: the depth render_init() chose for the curses
 * screen just entered (one process may draw on several).
 */
void	render_select(int depth);

/*
 * Draw cells[0..n) at (y, x) of the standard screen, at most w columns.
 * Cells of width 0 (right halves) are skipped; a wide character that
 * would not fit becomes a blank.
 */
void	render_cells(int y, int x, int w, const struct cell *cells, int n,
	    bool reverse);

/*
 * Draw what render_cells() would, but only the glyphs that touch columns
 * [lo, hi) (a wide one whole), and the blanks after the cells when the
 * range reaches them: the rest of the row is left as it was drawn.
 */
void	render_span(int y, int x, int w, const struct cell *cells, int n,
	    int lo, int hi);

/* Fill w columns at (y, x) with blanks. */
void	render_blank(int y, int x, int w);

/*
 * A framed box of w x h cells centred in the w_area x h_area rectangle at
 * (ay, ax), blanked, with title (may be NULL) in bold on its top border;
 * sizes are clipped to the area.  Returns its top-left corner in *y, *x
 * and its clipped size in *w, *h.
 */
void	render_frame(int ay, int ax, int h_area, int w_area, const char *title,
	    int *y, int *x, int *h, int *w);

#endif
