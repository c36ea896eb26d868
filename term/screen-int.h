/*
 * screen-int.h - what the screen's files share: the screen's state
 * (libvterm's callbacks write it, term/screen.c; term/screen-read.c reads
 * the cells back) and the way bytes reach libvterm and the cells
 * (term/feed.c).
 */
#ifndef PTYVISOR_SCREEN_INT_H
#define PTYVISOR_SCREEN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <vterm.h>

#include "term/colmode.h"
#include "term/grid.h"
#include "term/screen.h"
#include "term/scrollback.h"
#include "base/util.h"

struct screen {
	VTerm			*vt;
	VTermState		*st;
	struct grid		*pri;		/* the primary buffer */
	struct grid		*alt;		/* alternate, made on first use */
	struct grid		*cur;		/* the one shown */
	struct scrollback	*sb;
	scrollback_sink_fn	 sink;		/* sees lines as they go */
	void			*sink_arg;
	uint64_t		 pushed;	/* lines ever scrolled off */
	const struct screen_events *ev;
	void			*user;
	struct cell_attr	 pen;
	int			 rows;
	int			 cols;
	int			 crow;
	int			 ccol;
	int			 wrap_row;	/* row of the last glyph, or -1 */
	int			 wrap_end;	/* the column after it */
	bool			 cursor_visible;
	bool			 altscreen;
	bool			 any_protected;	/* GRID_PROTECTED was used */
	char			*title;
	char			*cwd;		/* OSC 7's, NULL: none */
	struct buf		*capture;	/* replies to our own queries */
	struct colmode		 colmode;	/* DECCOLM, which libvterm ignores */
	bool			 bare;		/* no cells: screen_new_bare */
	bool			 no_plain;	/* screen_set_plain_lines off */
	int			 last_width;	/* the last glyph's, for REP */
	char			 held[8];	/* a character's first bytes */
	size_t			 held_len;
	struct buf		 join;		/* held bytes and what follows */
	struct buf		 fixed;		/* a piece with U+FFFD put in */
	/* Plain lines written without libvterm (see screen_feed). */
	bool			 plain;		/* the state allows it now */
	char			 plain_last;	/* the last character written so */
	int			 plain_last_col; /* its column */
	int			 plain_col;	/* the cursor's column since */
	enum { WATCH_OFF, WATCH_LINE, WATCH_PROBE, WATCH_QUIET } watch;
	bool			 w_bad;		/* not what a plain line does */
	int			 w_glyphs;	/* glyphs seen while watching */
	int			 w_scrolls;	/* full scrolls by one row seen */
	const char		*w_text;	/* the glyphs expected */
	int			 w_len;
	int			 w_col;		/* where the next one goes */
};

/*
 * End a run of plain lines: libvterm learns what the screen wrote without
 * it (term/feed.c).  A no-op outside such a run.
 */
void	feed_plain_end(struct screen *s);

#endif
