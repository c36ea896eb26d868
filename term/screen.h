/*
 * screen.h - a session's virtual terminal: libvterm's parser and state
 * writing cells of our own, a compact scrollback, damage reporting for
 * renderers, keyboard encoding, and plain-text export; or a bare one that
 * only answers the program's queries.
 *
 * Rows are addressed from -scrollback_count (the oldest scrolled-off line)
 * to rows-1 (the bottom of the screen).
 */
#ifndef PTYVISOR_SCREEN_H
#define PTYVISOR_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "term/cell.h"
#include "term/scrollback.h"
#include "base/util.h"

struct screen;

/* What a screen tells its owner.  Every member may be NULL. */
struct screen_events {
	/* Cells [srow,erow) x [scol,ecol) changed. */
	void	(*damage)(void *user, int srow, int erow, int scol, int ecol);
	/* The terminal wants to send bytes to the program (replies, keys). */
	void	(*output)(void *user, const char *data, size_t len);
	void	(*bell)(void *user);
	/* Title, cursor visibility/shape, alternate screen, mouse changed. */
	void	(*props)(void *user);
};

/* Keys beyond plain characters, for screen_key(). */
enum screen_key {
	SCREEN_KEY_ENTER = 1, SCREEN_KEY_TAB, SCREEN_KEY_BACKSPACE,
	SCREEN_KEY_ESCAPE, SCREEN_KEY_UP, SCREEN_KEY_DOWN, SCREEN_KEY_LEFT,
	SCREEN_KEY_RIGHT, SCREEN_KEY_INS, SCREEN_KEY_DEL, SCREEN_KEY_HOME,
	SCREEN_KEY_END, SCREEN_KEY_PAGEUP, SCREEN_KEY_PAGEDOWN,
	SCREEN_KEY_F0 = 64		/* F1 is SCREEN_KEY_F0 + 1, ... */
};

#define SCREEN_MOD_SHIFT	0x1
#define SCREEN_MOD_ALT		0x2
#define SCREEN_MOD_CTRL		0x4

/* A rows x cols screen keeping sb_lines of scrollback; events may be NULL. */
struct screen	*screen_new(int rows, int cols, size_t sb_lines,
		    const struct screen_events *ev, void *user);
/*
 * A bare rows x cols screen: it answers the program's queries (cursor
 * position, device attributes) but keeps no cells, no scrollback and no
 * title; its rows read as blank.
 */
struct screen	*screen_new_bare(int rows, int cols,
		    const struct screen_events *ev, void *user);
void		 screen_free(struct screen *s);

/* Feed bytes the program wrote. */
void	screen_feed(struct screen *s, const char *data, size_t len);

/*
 * Whether plain lines may be written without libvterm (see term/feed.c;
 * on by default).  Off, every byte goes through libvterm: for tests and
 * measurements that compare both ways.
 */
void	screen_set_plain_lines(struct screen *s, bool on);

/* Flush merged damage to the damage callback. */
void	screen_flush_damage(struct screen *s);

/* Resize; lines pushed off the top go to the scrollback. */
void	screen_resize(struct screen *s, int rows, int cols);

int	screen_rows(const struct screen *s);
int	screen_cols(const struct screen *s);
size_t	screen_scrollback_count(const struct screen *s);

/*
 * Lines ever scrolled off the top into the scrollback (the ring forgets
 * old ones; this count does not), so a reader can stream them in order.
 */
uint64_t	screen_pushed(const struct screen *s);

/*
 * Hand each line that scrolls off the top to fn as it goes (see
 * scrollback_set_sink), kept in the scrollback or not.  Lines a resize
 * wraps anew in the scrollback are not handed again.
 */
void	screen_set_line_sink(struct screen *s, scrollback_sink_fn fn,
	    void *arg);

/*
 * Append the text of cells[0..n): a glyph's characters, a space for an
 * empty cell, right halves skipped; trailing blanks dropped when trim.
 */
void	screen_cells_text(const struct cell *cells, int n, bool trim,
	    struct buf *out);

/* The cell at (row, col); row may be negative (scrollback). */
void	screen_cell(const struct screen *s, int row, int col, struct cell *c);

/*
 * Fill cells[0..n) with row (negative: scrollback), blank-padded past the
 * screen's width.  Cheaper than n calls of screen_cell() for scrollback.
 */
void	screen_row_cells(const struct screen *s, int row, struct cell *cells,
	    int n);

/* Cursor position and visibility. */
void	screen_cursor(const struct screen *s, int *row, int *col,
	    bool *visible);

bool		 screen_altscreen(const struct screen *s);
const char	*screen_title(const struct screen *s);
/*
 * The directory the program last reported with OSC 7 ("file://HOST/PATH",
 * decoded), or NULL when it never did.
 */
const char	*screen_cwd(const struct screen *s);

/* Keyboard: encoded bytes arrive through the output event. */
void	screen_key(struct screen *s, enum screen_key key, int mods);
void	screen_unichar(struct screen *s, uint32_t c, int mods);
void	screen_paste(struct screen *s, bool start);

/*
 * Append what a terminal shows as plain UTF-8 text: the scrollback (when
 * with_scrollback) then the screen, one line per row, trailing blanks and
 * trailing empty lines dropped.
 */
void	screen_text(const struct screen *s, bool with_scrollback,
	    struct buf *out);

/*
 * Append the bytes that make a terminal of the screen's size, just reset,
 * show the screen as it is now (term/screen-redraw.c): its cells with their
 * attributes, on the alternate screen when the program is there, then the
 * cursor (where it is, shown or hidden) and the program's pen.  Rows that
 * would take the dump past max bytes are left out, and those after them:
 * false then.
 */
bool	screen_redraw(const struct screen *s, size_t max, struct buf *out);

/*
 * Append cells[0..n) as the bytes that draw them where the cursor stands
 * (term/screen-redraw.c): an SGR sequence wherever the attributes change
 * from *pen (updated), the characters in UTF-8, an empty cell as a space,
 * a wide character that does not fit before n as a blank, right halves
 * skipped.  Every underline is drawn single.
 */
void	screen_draw_cells(const struct cell *cells, int n,
	    struct cell_attr *pen, struct buf *out);

/* Append one row's text (trailing blanks dropped), without a newline. */
void	screen_row_text(const struct screen *s, int row, struct buf *out);

/*
 * Append one row's text as part of the line the program wrote: when the
 * row goes on in the next one (the terminal wrapped it, not a newline),
 * every column is kept, blanks too, and true is returned; else as
 * screen_row_text().  Rows appended while this is true make one line.
 */
bool	screen_row_text_wrapped(const struct screen *s, int row,
	    struct buf *out);

#endif
