/*
 * colmode.h - DECCOLM (CSI ? 3 h, CSI ? 3 l) spotted in a terminal's byte
 * stream.  libvterm 0.1.4 ignores the mode; a VT100, xterm allowed to
 * switch widths, and tmux all clear the screen and home the cursor for it
 * (tmux without changing the width, as we do).  The scanner follows only
 * what it needs of ECMA-48: ESC [ ?, parameters, the final byte, with C0
 * controls inside executed and CAN, SUB or ESC ending the sequence; its
 * state carries over from one piece of the stream to the next.
 */
#ifndef PTYVISOR_COLMODE_H
#define PTYVISOR_COLMODE_H

#include <stdbool.h>
#include <stddef.h>

struct colmode {
	unsigned char	state;
	unsigned int	param;		/* the parameter being read */
	bool		has3;		/* a parameter 3 was read */
	bool		inter;		/* an intermediate byte was read */
};

/*
 * Scan p[0..len): the offset just past the final byte of the first DECCOLM
 * in it, *found set; else len, *found false.  A zeroed struct starts.
 */
size_t	colmode_scan(struct colmode *m, const char *p, size_t len,
	    bool *found);

#endif
