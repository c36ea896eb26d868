/*
 * scroll.h - scroll mode: a pager over a screen's scrollback and screen,
 * with less's keys (j k d u b space g G / ? n N q), the mouse wheel, and
 * c/C to copy the top line or the lines shown (the caller sends them to
 * the terminal's clipboard).
 *
 * Used for a pane's history (the live screen of its session: the view
 * follows its end until moved, then stays on its text while the pane
 * scrolls) and for a finished session's output (a screen built from its
 * recording).
 */
#ifndef PTYVISOR_SCROLL_H
#define PTYVISOR_SCROLL_H

#include <stdbool.h>

#include "tui/keys.h"
#include "tui/layout.h"

struct screen;
struct scroll;

enum scroll_result {
	SCROLL_KEEP,
	SCROLL_QUIT,
	SCROLL_COPY,	/* c or C: scroll_copied() holds the text */
};

/*
 * A pager over scr, starting at its bottom.  When owned, scroll_free()
 * frees scr; otherwise scr must outlive the pager.  title is copied.
 */
struct scroll	*scroll_new(struct screen *scr, bool owned, const char *title);

/* Show the content from its first line (an output view opens so). */
void		 scroll_home(struct scroll *sv);
void		 scroll_free(struct scroll *sv);

enum scroll_result	scroll_key(struct scroll *sv,
			    const struct keys_event *ev);

/*
 * Draw into area: a title row, the lines, and a bottom row for the
 * position, messages and the search prompt.  Returns true when a
 * prompt is open (the curses cursor is then left at its end).
 */
bool	scroll_draw(struct scroll *sv, struct layout_rect area);

/*
 * After SCROLL_COPY: the text to copy (c: the top line shown, where a
 * search puts its match; C: every line shown), lines joined by newlines.
 * Borrowed until the next key.
 */
const char	*scroll_copied(struct scroll *sv);

/* The first line shown (negative: scrollback), for tests and redraws. */
int	scroll_top(const struct scroll *sv);

#endif
