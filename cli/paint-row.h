/*
 * paint-row.h - one row of a terminal screen (term/screen.h) as the bytes
 * that draw it on the person's terminal: the cursor to the row's start, an
 * SGR sequence at each change of attributes, the characters in UTF-8,
 * clipped to the terminal's width.  What replay paints when it cannot
 * pass the recorded bytes through.
 */
#ifndef PTYVISOR_PAINT_ROW_H
#define PTYVISOR_PAINT_ROW_H

struct buf;
struct screen;

/*
 * Append to b screen row row of s drawn at terminal row y (0-based) of a
 * terminal width columns wide: the columns past width are cut (a wide
 * character cut in two becomes a blank), the rest of a narrower row is
 * erased.
 */
void	paint_row(struct buf *b, const struct screen *s, int row, int y,
	    int width);

#endif
