/*
 * help.c - the help overlay (see help.h).
 *
 * The text is one table so the overlay, the tests and the documentation
 * cannot disagree about which keys exist.
 */
#include "tui/help.h"

#include <string.h>

#include <curses.h>

static const char *const help_text[] = {
	"PREFIX then:",
	"  c        new session running your shell",
	"  x        kill the focused session (confirm), or close it",
	"  z        zoom the focused pane / tile again",
	"  n  p     focus the next / previous pane",
	"  1..9 0   focus pane 1..9, 10",
	"  h        history of sessions (Enter: output, r: replay)",
	"  r        replay: the history, where r replays the selection",
	"  [        scroll mode over the pane's scrollback",
	"  ?        this help",
	"  q        quit (confirm while sessions run)",
	"  PREFIX   send the prefix key itself",
	"",
	"scroll mode and output view (like less):",
	"  j k  Up Down      one line      d u    half a page",
	"  space b  PgDn PgUp  a page      g G    top / bottom",
	"  / ?  search down / up           n N    next / previous",
	"  q Escape  back                  wheel  scroll",
	"",
	"history: j k arrows PgUp PgDn g G wheel, / search, Enter, r, q",
	"",
	"replay pane: space pause  . step  + - speed  Left Right 5s  q close",
	"",
	"any key closes this help",
};

int
help_lines(void)
{
	return (int)(sizeof help_text / sizeof help_text[0]);
}

const char *
help_line(int i)
{
	return i >= 0 && i < help_lines() ? help_text[i] : NULL;
}

void
help_draw(struct layout_rect area, const char *prefix)
{
	int	n = help_lines(), w = 0, h, x, y, i, len;

	for (i = 0; i < n; i++) {
		len = (int)strlen(help_text[i]);
		if (len > w)
			w = len;
	}
	w += 4;
	h = n + 2;
	if (w > area.w)
		w = area.w;
	if (h > area.h)
		h = area.h;
	x = area.x + (area.w - w) / 2;
	y = area.y + (area.h - h) / 2;
	attrset(A_NORMAL);
	for (i = 0; i < h; i++)
		mvhline(y + i, x, ' ', w);
	if (w >= 2 && h >= 2) {
		mvhline(y, x + 1, ACS_HLINE, w - 2);
		mvhline(y + h - 1, x + 1, ACS_HLINE, w - 2);
		mvvline(y + 1, x, ACS_VLINE, h - 2);
		mvvline(y + 1, x + w - 1, ACS_VLINE, h - 2);
		mvaddch(y, x, ACS_ULCORNER);
		mvaddch(y, x + w - 1, ACS_URCORNER);
		mvaddch(y + h - 1, x, ACS_LLCORNER);
		mvaddch(y + h - 1, x + w - 1, ACS_LRCORNER);
		attrset(A_BOLD);
		mvprintw(y, x + 2, " keys (prefix %s) ", prefix);
		attrset(A_NORMAL);
	}
	for (i = 0; i < n && i < h - 2; i++)
		mvaddnstr(y + 1 + i, x + 2, help_text[i], w - 4);
}
