/*
 * help.h - the help overlay: every key of the front end, in a box over
 * the panes.  Any key closes it.
 */
#ifndef PTYVISOR_HELP_H
#define PTYVISOR_HELP_H

#include "tui/layout.h"

/* Draw the overlay centred in area, naming the prefix key (e.g. "C-g"). */
void	help_draw(struct layout_rect area, const char *prefix);

/* Number of lines of help text (for tests). */
int	help_lines(void);

/* Line i of the help text (without the prefix name). */
const char	*help_line(int i);

#endif
