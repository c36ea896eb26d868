/*
 * tui-history.c - the history pane (see tui-history.h).
 *
 * The list is rebuilt from history.jsonl plus the sessions of this run
 * that have not finished yet (finished ones are in the file); entries are
 * shown newest first.  Invariant: 0 <= sel < n whenever n > 0, and the
 * selected row is always inside the visible window [top, top + height).
 */
#include "tui/tui-history.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "base/quote.h"
#include "record/ending.h"
#include "record/history.h"
#include "record/player.h"
#include "term/screen.h"
#include "session/session.h"
#include "base/util.h"
#include "tui/prompt.h"

/* Scrollback kept when replaying a recording for the output view. */
#define TUI_HISTORY_SCROLLBACK	100000

struct tui_history {
	char			*path;
	struct sessions		*ss;
	struct history_list	 list;		/* from the file */
	unsigned long		*running;	/* ids of running sessions */
	size_t			 nrunning;
	size_t			 n;		/* rows: running + list */
	size_t			 sel;
	size_t			 top;
	int			 height;
	int			 first_y;	/* screen row of row top */
	bool			 prompting;
	struct prompt		 prompt;
	char			*pattern;
	const char		*message;
};

struct tui_history *
tui_history_new(const char *history_path, struct sessions *ss)
{
	struct tui_history	*h = xcalloc(1, sizeof *h);

	h->path = xstrdup(history_path);
	h->ss = ss;
	h->height = 1;
	tui_history_reload(h);
	return h;
}

void
tui_history_free(struct tui_history *h)
{
	if (h == NULL)
		return;
	history_list_free(&h->list);
	free(h->running);
	free(h->path);
	free(h->pattern);
	free(h);
}

void
tui_history_reload(struct tui_history *h)
{
	struct session	*s;
	char		*cause = NULL;
	size_t		 i, n = sessions_count(h->ss);

	history_list_free(&h->list);
	memset(&h->list, 0, sizeof h->list);
	if (history_load(h->path, &h->list, &cause) != 0) {
		free(cause);
		h->message = "cannot read the history file";
	}
	free(h->running);
	h->running = xcalloc(n + 1, sizeof *h->running);
	h->nrunning = 0;
	for (i = n; i > 0; i--) {
		s = sessions_at(h->ss, i - 1);
		if (!session_is_done(s))
			h->running[h->nrunning++] = session_id(s);
	}
	h->n = h->nrunning + h->list.n;
	if (h->sel >= h->n)
		h->sel = h->n > 0 ? h->n - 1 : 0;
}

/* The file entry shown at row i (rows after the running ones), or NULL. */
static struct history_entry *
tui_history_entry(struct tui_history *h, size_t i)
{
	if (i < h->nrunning || i >= h->n)
		return NULL;
	return &h->list.v[h->list.n - 1 - (i - h->nrunning)];
}

/* What to say of a request that never ran (it has no output). */
static char *
tui_history_never_ran(const struct history_entry *e)
{
	bool	 denied = e->state != NULL && strcmp(e->state, "denied") == 0;
	char	*why = quote_text(e->error != NULL ? e->error : ""), *s;

	s = xasprintf("request %lu never ran: %s%s%s%s%s", e->request,
	    denied ? "denied" : "nobody answered", denied && e->by != NULL ?
	    " by " : "", denied && e->by != NULL ? e->by : "",
	    *why != '\0' ? ": " : "", why);
	free(why);
	return s;
}

/* The text of row i into buf (icon, id, start, duration, status, cmd). */
static void
tui_history_row(struct tui_history *h, size_t i, char *buf, size_t len)
{
	struct history_entry	*e;
	struct session		*s;
	struct tm		 tm;
	time_t			 t;
	struct ending		 ending;
	char			 when[32], dur[48], status[64], *cmd;
	char			 idcol[24], agent[64];
	const char		*icon;
	int64_t			 start, end;

	if (i < h->nrunning) {
		s = sessions_find(h->ss, h->running[i]);
		if (s == NULL) {
			snprintf(buf, len, "?");
			return;
		}
		start = session_start_us(s);
		end = util_wall_us();
		icon = "●";
		snprintf(status, sizeof status, "running");
		cmd = quote_argv(session_argv(s));
		t = (time_t)(start / 1000000);
		localtime_r(&t, &tm);
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
		util_format_duration(end - start, dur, sizeof dur);
		snprintf(buf, len, "%s %5lu  %s  %7s  %-14s  %s%s", icon,
		    h->running[i], when, dur, status, session_is_agent(s) ?
		    "agent: " : "", cmd);
		free(cmd);
		return;
	}
	e = tui_history_entry(h, i);
	ending_of_entry(e, &ending);
	ending_name(&ending, status, sizeof status);
	icon = ending_is_success(&ending) ? "✔" : "✘";
	t = (time_t)(e->start_us / 1000000);
	localtime_r(&t, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
	util_format_duration(e->end_us - e->start_us, dur, sizeof dur);
	cmd = quote_argv(e->argv);
	/* A request that never ran has no session id: "-". */
	if (e->id != 0)
		snprintf(idcol, sizeof idcol, "%5lu", e->id);
	else
		snprintf(idcol, sizeof idcol, "%5s", "-");
	if (e->request != 0)
		snprintf(agent, sizeof agent, "agent (request %lu): ",
		    e->request);
	else
		snprintf(agent, sizeof agent, "%s", e->agent ? "agent: " : "");
	snprintf(buf, len, "%s %s  %s  %7s  %-14s  %s%s", icon, idcol, when,
	    dur, status, agent, cmd);
	free(cmd);
}

/* Keep the selection visible. */
static void
tui_history_follow(struct tui_history *h)
{
	size_t	hh = h->height > 0 ? (size_t)h->height : 1;

	if (h->sel < h->top)
		h->top = h->sel;
	if (h->sel >= h->top + hh)
		h->top = h->sel - hh + 1;
}

/* Move the selection by d rows. */
static void
tui_history_move(struct tui_history *h, long d)
{
	long	sel = (long)h->sel + d;

	if (h->n == 0)
		return;
	if (sel < 0)
		sel = 0;
	if (sel >= (long)h->n)
		sel = (long)h->n - 1;
	h->sel = (size_t)sel;
	tui_history_follow(h);
}

/* Select the next row (after the selection, wrapping) matching pattern. */
static bool
tui_history_search(struct tui_history *h)
{
	char	row[1024];
	size_t	k, i;

	if (h->pattern == NULL || h->n == 0)
		return false;
	for (k = 1; k <= h->n; k++) {
		i = (h->sel + k) % h->n;
		tui_history_row(h, i, row, sizeof row);
		if (strstr(row, h->pattern) != NULL) {
			h->sel = i;
			tui_history_follow(h);
			return true;
		}
	}
	return false;
}

enum tui_history_result
tui_history_key(struct tui_history *h, const struct keys_event *ev)
{
	long	page = h->height > 1 ? h->height - 1 : 1;
	long	row;

	h->message = NULL;
	/* A click selects the row under it. */
	if (ev->type == KEYS_CLICK) {
		row = (long)ev->y - h->first_y;
		if (!h->prompting && row >= 0 && row < h->height &&
		    h->top + (size_t)row < h->n)
			h->sel = h->top + (size_t)row;
		return TUI_HISTORY_KEEP;
	}
	if (h->prompting) {
		switch (prompt_key(&h->prompt, ev)) {
		case PROMPT_DONE:
			h->prompting = false;
			if (h->prompt.len > 0) {
				free(h->pattern);
				h->pattern = xstrdup(h->prompt.buf);
			}
			if (!tui_history_search(h))
				h->message = "Pattern not found";
			break;
		case PROMPT_CANCEL:
			h->prompting = false;
			break;
		case PROMPT_EDITING:
			break;
		}
		return TUI_HISTORY_KEEP;
	}
	switch (ev->type) {
	case KEYS_WHEEL_UP:
		tui_history_move(h, -3);
		break;
	case KEYS_WHEEL_DOWN:
		tui_history_move(h, 3);
		break;
	case KEYS_KEY:
		switch (ev->key) {
		case SCREEN_KEY_UP:
			tui_history_move(h, -1);
			break;
		case SCREEN_KEY_DOWN:
			tui_history_move(h, 1);
			break;
		case SCREEN_KEY_PAGEUP:
			tui_history_move(h, -page);
			break;
		case SCREEN_KEY_PAGEDOWN:
			tui_history_move(h, page);
			break;
		case SCREEN_KEY_HOME:
			tui_history_move(h, -(long)h->n);
			break;
		case SCREEN_KEY_END:
			tui_history_move(h, (long)h->n);
			break;
		case SCREEN_KEY_ENTER:
			return h->n > 0 ? TUI_HISTORY_OPEN : TUI_HISTORY_KEEP;
		case SCREEN_KEY_ESCAPE:
			return TUI_HISTORY_QUIT;
		}
		break;
	case KEYS_CHAR:
		switch (ev->ch) {
		case 'j':
			tui_history_move(h, 1);
			break;
		case 'k':
			tui_history_move(h, -1);
			break;
		case ' ':
		case KEYS_CTRL('f'):
			tui_history_move(h, page);
			break;
		case 'b':
		case KEYS_CTRL('b'):
			tui_history_move(h, -page);
			break;
		case 'g':
			tui_history_move(h, -(long)h->n);
			break;
		case 'G':
			tui_history_move(h, (long)h->n);
			break;
		case '/':
			h->prompting = true;
			memset(&h->prompt, 0, sizeof h->prompt);
			break;
		case 'n':
			if (!tui_history_search(h))
				h->message = "Pattern not found";
			break;
		case '\r':
		case '\n':
			return h->n > 0 ? TUI_HISTORY_OPEN : TUI_HISTORY_KEEP;
		case 'r':
			return h->n > 0 ? TUI_HISTORY_REPLAY : TUI_HISTORY_KEEP;
		case 'q':
		case 'h':
		case KEYS_CTRL('c'):
			return TUI_HISTORY_QUIT;
		}
		break;
	default:
		break;
	}
	return TUI_HISTORY_KEEP;
}

bool
tui_history_draw(struct tui_history *h, struct layout_rect area)
{
	char	row[1024], info[160];
	int	i, y;

	if (area.h < 3 || area.w < 1)
		return false;
	h->height = area.h - 2;
	h->first_y = area.y + 1;
	tui_history_follow(h);
	attrset(A_REVERSE | A_BOLD);
	mvhline(area.y, area.x, ' ', area.w);
	snprintf(row, sizeof row, " history   %-5s  %-19s  %7s  %-14s  %s",
	    "   id", "start", "time", "status", "command");
	mvaddnstr(area.y, area.x, row, area.w);
	attrset(A_NORMAL);
	for (i = 0; i < h->height; i++) {
		y = area.y + 1 + i;
		mvhline(y, area.x, ' ', area.w);
		if (h->top + (size_t)i >= h->n)
			continue;
		tui_history_row(h, h->top + (size_t)i, row, sizeof row);
		if (h->top + (size_t)i == h->sel)
			attrset(A_REVERSE);
		mvaddstr(y, area.x, " ");
		addnstr(row, area.w - 1);
		attrset(A_NORMAL);
	}
	y = area.y + area.h - 1;
	if (h->prompting) {
		prompt_draw(&h->prompt, "/", y, area.x, area.w);
		return true;
	}
	snprintf(info, sizeof info, "%s%s%zu sessions  Enter output  / search"
	    "  q back", h->message != NULL ? h->message : "",
	    h->message != NULL ? "  " : "", h->n);
	attrset(A_REVERSE);
	mvhline(y, area.x, ' ', area.w);
	mvaddnstr(y, area.x, info, area.w);
	attrset(A_NORMAL);
	return false;
}

struct screen *
tui_history_cast_screen(const char *path, char **cause)
{
	struct screen	*scr;
	char		*warning = NULL;

	scr = player_final_screen(path, TUI_HISTORY_SCROLLBACK, &warning,
	    cause);
	free(warning);	/* a damaged tail: what was read is shown */
	return scr;
}

struct screen *
tui_history_screen(struct tui_history *h, bool *owned, char **title,
    char **cause)
{
	struct history_entry	*e;
	struct session		*s;
	unsigned long		 id;
	char			*cmd;
	struct screen		*scr;

	if (h->n == 0) {
		*cause = xstrdup("no session selected");
		return NULL;
	}
	e = tui_history_entry(h, h->sel);
	id = e != NULL ? e->id : h->running[h->sel];
	if ((s = sessions_find(h->ss, id)) != NULL) {
		*owned = false;
		cmd = quote_argv(session_argv(s));
		*title = xasprintf(" #%lu %s", id, cmd);
		free(cmd);
		return session_screen(s);
	}
	if (e != NULL && e->id == 0) {
		*cause = tui_history_never_ran(e);
		return NULL;
	}
	if (e == NULL || e->recording == NULL) {
		*cause = xasprintf("session %lu has no recording", id);
		return NULL;
	}
	if ((scr = tui_history_cast_screen(e->recording, cause)) == NULL)
		return NULL;
	*owned = true;
	cmd = quote_argv(e->argv);
	*title = xasprintf(" #%lu %s (recording)", id, cmd);
	free(cmd);
	return scr;
}

int
tui_history_recording(struct tui_history *h, unsigned long *id, char **path,
    char **cmd, char **cause)
{
	struct history_entry	*e;

	if (h->n == 0) {
		*cause = xstrdup("no session selected");
		return -1;
	}
	if ((e = tui_history_entry(h, h->sel)) == NULL) {
		*cause = xasprintf("session %lu is still running",
		    h->running[h->sel]);
		return -1;
	}
	if (e->id == 0) {
		*cause = tui_history_never_ran(e);
		return -1;
	}
	if (e->recording == NULL) {
		*cause = xasprintf("session %lu has no recording", e->id);
		return -1;
	}
	*id = e->id;
	*path = xstrdup(e->recording);
	*cmd = quote_argv(e->argv);
	return 0;
}
