/*
 * colmode.h - two sequences libvterm 0.1.4 gets wrong, spotted in a
 * terminal's byte stream.  DECCOLM (CSI ? 3 h, CSI ? 3 l): libvterm ignores
 * the mode; a VT100, xterm allowed to switch widths, and tmux all clear the
 * screen and home the cursor for it (tmux without changing the width, as we
 * do).  REP (CSI Pn b, no leader, no intermediate): libvterm repeats the
 * last character printed, and loops for ever when that one took no column
 * (none printed yet, or a combining mark on its own); the screen drops such
 * a REP.  DECSTBM (CSI Pt ; Pb r): xterm and tmux clamp the bottom (and
 * the top) to the screen and ignore a region of less than two lines,
 * margins and cursor left as they were; libvterm resets the margins and
 * homes the cursor instead; the screen drops such a DECSTBM (colmode_stbm
 * says which).  The scanner follows only what it needs of ECMA-48 as libvterm
 * parses it: ESC [, a leader, parameters, intermediates, the final byte,
 * with C0 controls inside executed and CAN, SUB or ESC ending the sequence;
 * its state carries over from one piece of the stream to the next.
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
	unsigned int	stbm[2];	/* a plain sequence's first two
					   parameters (0: missing) */
	unsigned int	nparam;		/* its separators so far */
	bool		sub;		/* a ':' among them */
};

enum colmode_seq {
	COLMODE_NONE,
	COLMODE_DECCOLM,
	COLMODE_REP,
	COLMODE_DECSTBM		/* with parameters; see colmode_stbm() */
};

/*
 * Scan p[0..len): the offset just past the final byte of the first DECCOLM,
 * REP or DECSTBM with parameters in it, *found set to which; else len,
 * *found COLMODE_NONE.  A zeroed struct starts.
 */
size_t	colmode_scan(struct colmode *m, const char *p, size_t len,
	    enum colmode_seq *found);

/*
 * Whether the DECSTBM just found is one xterm and tmux ignore on a screen
 * of rows lines: its region, clamped to the screen, under two lines.
 */
bool	colmode_stbm_ignored(const struct colmode *m, int rows);

#endif
