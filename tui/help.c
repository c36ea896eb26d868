/*
 * help.c - the help overlay (see help.h).
 *
 * The text is one table, which the overlay draws and the tests read, so
 * they cannot disagree about which keys exist (the man page's list is
 * kept by hand).
 */
#include "tui/help.h"

#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "tui/render.h"

static const char *const help_text[] = {
	"PREFIX then:",
	"  c        new session running your shell",
	"  x        kill the focused session (confirm), or close it",
	"  z        zoom the focused pane / tile again",
	"  n  p     focus the next / previous pane",
	"  arrows   focus the pane to the left, right, above, below",
	"  (with --mouse: a click focuses a pane, the wheel scrolls it)",
	"  1..9 0   focus pane 1..9, 10",
	"  h        history of sessions (Enter: output, r: replay)",
	"  r        replay: the history, where r replays the selection",
	"  a        answer agents' requests (they never take the keys)",
	"  e        the focused session's processes and its last execs",
	"  [        scroll mode over the pane's scrollback",
	"  ?        this help",
	"  d        detach: the terminal back, everything keeps running",
	"           ('ptyvisor attach' comes back)",
	"  q        quit (confirm while sessions run)",
	"  PREFIX   send the prefix key itself",
	"  (the prefix is a setting: --prefix C-a, or prefix = C-a",
	"   under [tui] in the settings file)",
	"",
	"scroll mode and output view (like less):",
	"  j k  Up Down      one line      d u    half a page",
	"  space b  PgDn PgUp  a page      g G    top / bottom",
	"  / ?  search down / up           n N    next / previous",
	"  q Escape  back                  wheel  scroll",
	"  c  C      copy the top line (a search's match) / every line",
	"            shown to the clipboard (OSC 52)",
	"",
	"history: j k arrows PgUp PgDn g G wheel, / search, Enter, r, q",
	"",
	"replay pane: space pause  . step  + - speed  Left Right 5s  q close",
	"",
	"approval prompt: y approve  a approve+remember (Tab: save rule)",
	"  n deny (type a reason)  e edit  Esc later  Tab next; an edited",
	"  command or rule is shown once more: y approves it, Enter never;",
	"  a program's exec inside a session waits in exec meanwhile",
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
help_box(struct layout_rect area, const char *name, const char *const *lines,
    int n, int *top)
{
	int	w = 0, h, x, y, i, len, rows;
	char	title[160];

	for (i = 0; i < n; i++) {
		len = (int)strlen(lines[i]);
		if (len > w)
			w = len;
	}
	w += 4;
	h = n + 2;
	/* Measure first: the frame may be cut to the area. */
	rows = (area.h < h ? area.h : h) - 2;
	if (rows < 1)
		rows = 1;
	if (*top > n - rows)
		*top = n - rows;
	if (*top < 0)
		*top = 0;
	if (rows < n)
		snprintf(title, sizeof title, " %s %d-%d of %d, j/k scroll ",
		    name, *top + 1, *top + rows, n);
	else
		snprintf(title, sizeof title, " %s ", name);
	render_frame(area.y, area.x, area.h, area.w, title, &y, &x, &h, &w);
	for (i = 0; i < h - 2 && *top + i < n; i++)
		mvaddnstr(y + 1 + i, x + 2, lines[*top + i], w - 4);
}

void
help_draw(struct layout_rect area, const char *prefix, int *top)
{
	char	name[80];

	snprintf(name, sizeof name, "keys (prefix %s)", prefix);
	help_box(area, name, help_text, help_lines(), top);
}
