/*
 * help.h - the help overlay: every key of the front end, in a box over
 * the panes.  When it does not fit, j/k, arrows, space and b scroll it;
 * any other key closes it.
 */
#ifndef PTYVISOR_HELP_H
#define PTYVISOR_HELP_H

#include "tui/layout.h"

/*
 * Draw the overlay centred in area, naming the prefix key (e.g. "C-g"),
 * from text line *top on (clamped here, so callers may move it freely).
 */
void	help_draw(struct layout_rect area, const char *prefix, int *top);

/*
 * The same box for other text: n lines under a title naming it, from line
 * *top on (clamped), j/k scrolling as the help does.
 */
void	help_box(struct layout_rect area, const char *name,
	    const char *const *lines, int n, int *top);

/* Number of lines of help text (for tests). */
int	help_lines(void);

/* Line i of the help text (without the prefix name). */
const char	*help_line(int i);

#endif
