/*
 * tui.c - the front end object (see tui.h).
 *
 * Flow control: screen damage only marks rows of a pane dirty and asks
 * for a frame; frames are drawn from a loop timer at most once per
 * TUI_FRAME_MS, and draw only dirty rows (curses then sends only the
 * cells that changed).  The terminal's input is a high-priority fd, so
 * keys are handled before any session's output in every loop turn.
 *
 * A pane shows a screen and a title: either a session's (live) or a
 * replay's (a recording played back, tui/replay.h); both are drawn by the
 * same code, only the title and the keys differ.
 *
 * Invariants: every session of the set has exactly one pane (created
 * adds it, closing a finished pane forgets the session); a pane has
 * exactly one of a session and a replay; focus < npanes when npanes > 0;
 * a pane's dirty array has one entry per row of its content rectangle.
 */
#include "tui/tui.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <curses.h>

#include "control/approval.h"
#include "base/loop.h"
#include "session/session.h"
#include "base/util.h"
#include "tui/askbox.h"
#include "tui/help.h"
#include "tui/history.h"
#include "tui/keys.h"
#include "tui/layout.h"
#include "tui/render.h"
#include "tui/replay.h"
#include "tui/scroll.h"

/* One frame every 16 ms at most (about 60 a second). */
#define TUI_FRAME_MS		16

/* Titles (durations) and messages are refreshed every second. */
#define TUI_TICK_MS		1000

/* How long a hint stays on the status line. */
#define TUI_MESSAGE_MS		3000

/* The default prefix key: C-g (tui_opts.prefix changes it). */
#define TUI_PREFIX_DEFAULT	'g'

/* TERM the sessions see: what libvterm emulates. */
#define TUI_SESSION_TERM	"xterm-256color"

enum tui_mode {
	TUI_NORMAL,
	TUI_PREFIX_WAIT,	/* the prefix key was pressed */
	TUI_CONFIRM,		/* a y/n question on the status line */
	TUI_HELP,
	TUI_HISTORY,
	TUI_SCROLL,		/* scroll mode or an output view */
};

enum tui_confirm {
	TUI_CONFIRM_KILL,
	TUI_CONFIRM_QUIT,
};

struct tui_pane {
	struct session		*s;	/* a session's pane, or NULL */
	struct tui_replay	*replay;	/* a replay's pane, or NULL */
	struct layout_rect	 rect;	/* w == 0: not visible */
	bool			*dirty;	/* one per content row */
	int			 ndirty;
	bool			 dirty_all;
	bool			 title_dirty;
};

struct tui {
	struct loop		*loop;
	struct sessions		*ss;
	uint32_t		 prefix;	/* the prefix key's code */
	char			 prefix_name[8];	/* "C-g" */
	char			*sandbox;	/* profile name, status line */
	const struct sandbox_opts *sandbox_opts;	/* borrowed */
	char			*approval_mode;
	struct approval		*approval;	/* borrowed; NULL: none */
	struct askbox		*askbox;	/* NULL without approval */
	bool			 agents;	/* a socket serves agents */
	bool			 box_drawn;	/* the prompt is on screen */
	bool			 focus_agent;	/* focus the next agent pane */
	struct loop_timer	*tidy_timer;
	char			*history_path;
	bool			 quit_when_done;
	size_t			 scrollback;	/* 0: the default */
	char			**envp;		/* for new sessions */

	struct tui_pane		**panes;
	int			 npanes;
	int			 focus;
	bool			 zoom;

	enum tui_mode		 mode;
	enum tui_confirm	 confirm;
	unsigned long		 confirm_id;
	bool			 pasting;
	bool			 too_small;
	bool			 redraw_all;
	bool			 quit;
	bool			 closing;	/* terminal given back */

	char			*message;
	uint64_t		 message_until;

	struct tui_history	*history;
	struct scroll		*scroll;
	bool			 scroll_from_history;

	struct cell		*cells;		/* one row, for drawing */
	int			 ncells;

	struct loop_timer	*frame_timer;
	struct loop_timer	*tick_timer;
	uint64_t		 last_frame_ms;
};

static void	tui_schedule(struct tui *t);
static void	tui_relayout(struct tui *t);

void
tui_restore_terminal(void)
{
	if (stdscr != NULL && !isendwin()) {
		/* Bracketed paste off, then leave curses. */
		putp("\033[?2004l");
		fflush(stdout);
		endwin();
	}
}

/* Show a hint on the status line for a few seconds. */
static void
tui_message(struct tui *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
tui_message(struct tui *t, const char *fmt, ...)
{
	va_list	ap;

	free(t->message);
	va_start(ap, fmt);
	t->message = xvasprintf(fmt, ap);
	va_end(ap);
	t->message_until = util_now_ms() + TUI_MESSAGE_MS;
	tui_schedule(t);
}

/* The pane of session s, or -1. */
static int
tui_find(struct tui *t, struct session *s)
{
	int	i;

	for (i = 0; i < t->npanes; i++)
		if (t->panes[i]->s == s)
			return i;
	return -1;
}

/* The pane showing replay r, or -1. */
static int
tui_find_replay(struct tui *t, struct tui_replay *r)
{
	int	i;

	for (i = 0; i < t->npanes; i++)
		if (t->panes[i]->replay == r)
			return i;
	return -1;
}

/* The screen pane p shows. */
static struct screen *
tui_pane_screen(const struct tui_pane *p)
{
	if (p->replay != NULL)
		return tui_replay_screen(p->replay);
	return session_screen(p->s);
}

/* True when nothing more will change pane p's screen by itself. */
static bool
tui_pane_is_done(const struct tui_pane *p)
{
	if (p->replay != NULL)
		return tui_replay_finished(p->replay);
	return session_is_done(p->s);
}

/* Frame timer: draw now. */
static void	tui_draw(struct tui *t);

static void
tui_frame(struct loop *l, void *arg)
{
	struct tui	*t = arg;

	(void)l;
	t->frame_timer = NULL;
	tui_draw(t);
}

/* Ask for a frame: now if the last one is old enough, else when it is. */
static void
tui_schedule(struct tui *t)
{
	uint64_t	now = util_now_ms(), delay = 0;

	if (t->frame_timer != NULL || t->closing)
		return;
	if (now < t->last_frame_ms + TUI_FRAME_MS)
		delay = t->last_frame_ms + TUI_FRAME_MS - now;
	t->frame_timer = loop_timer_add(t->loop, delay, tui_frame, t);
}

/* Every second: durations in titles, expiring messages. */
static void
tui_tick(struct loop *l, void *arg)
{
	struct tui	*t = arg;
	int		 i;

	t->tick_timer = loop_timer_add(l, TUI_TICK_MS, tui_tick, t);
	for (i = 0; i < t->npanes; i++)
		if (t->panes[i]->s != NULL && !session_is_done(t->panes[i]->s))
			t->panes[i]->title_dirty = true;
	if (t->mode == TUI_HISTORY && t->history != NULL)
		tui_history_reload(t->history);
	tui_schedule(t);
}

static void	tui_close_pane(struct tui *, int);

/*
 * A new agent session started: close the panes of agent sessions that
 * have ended (they are in the history), except the focused one, so that
 * an agent's stream of commands does not fill the screen.
 */
static void
tui_tidy_agents(struct loop *l, void *arg)
{
	struct tui	*t = arg;
	struct session	*s, *newest = NULL;
	int		 i;

	(void)l;
	t->tidy_timer = NULL;
	for (i = 0; i < t->npanes; i++)
		if ((s = t->panes[i]->s) != NULL && session_is_agent(s))
			newest = s;
	i = 0;
	while (i < t->npanes) {
		s = t->panes[i]->s;
		if (s != NULL && s != newest && session_is_agent(s) &&
		    session_is_done(s) && i != t->focus) {
			if (i < t->focus)
				t->focus--;
			tui_close_pane(t, i);
		} else
			i++;
	}
	tui_schedule(t);
}

/* Session events. */
static void
tui_ev_created(void *user, struct session *s)
{
	struct tui	*t = user;
	struct tui_pane	*p = xcalloc(1, sizeof *p);

	p->s = s;
	t->panes = xreallocarray(t->panes, (size_t)t->npanes + 1,
	    sizeof *t->panes);
	t->panes[t->npanes++] = p;
	/*
	 * An agent's session does not take the keys from the person, unless
	 * the person just approved it.
	 */
	if (!session_is_agent(s) || t->focus_agent || t->npanes == 1)
		t->focus = t->npanes - 1;
	else {
		t->panes[t->npanes - 1]->title_dirty = true;
		tui_message(t, "agent session #%lu started", session_id(s));
	}
	if (session_is_agent(s) && t->tidy_timer == NULL)
		t->tidy_timer = loop_timer_add(t->loop, 0, tui_tidy_agents, t);
	tui_relayout(t);
	tui_schedule(t);
}

static void
tui_ev_damage(void *user, struct session *s, int srow, int erow, int scol,
    int ecol)
{
	struct tui	*t = user;
	struct tui_pane	*p;
	int		 i, r;

	(void)scol;
	(void)ecol;
	if ((i = tui_find(t, s)) < 0)
		return;
	p = t->panes[i];
	if (p->rect.w == 0)
		return;		/* not visible: drawn whole when shown */
	for (r = srow < 0 ? 0 : srow; r < erow && r < p->ndirty; r++)
		p->dirty[r] = true;
	tui_schedule(t);
}

static void
tui_ev_bell(void *user, struct session *s)
{
	struct tui	*t = user;

	(void)s;
	if (!t->closing)
		beep();
}

static void
tui_ev_props(void *user, struct session *s)
{
	struct tui	*t = user;
	int		 i;

	if ((i = tui_find(t, s)) >= 0) {
		t->panes[i]->dirty_all = true;
		t->panes[i]->title_dirty = true;
	}
	tui_schedule(t);
}

static void
tui_ev_ended(void *user, struct session *s)
{
	struct tui	*t = user;
	int		 i;

	if ((i = tui_find(t, s)) >= 0)
		t->panes[i]->title_dirty = true;
	if (t->history != NULL)
		tui_history_reload(t->history);
	if (t->quit_when_done && sessions_running(t->ss) == 0)
		tui_quit(t);
	tui_schedule(t);
}

static const struct session_events tui_events = {
	.created = tui_ev_created,
	.damage = tui_ev_damage,
	.bell = tui_ev_bell,
	.props = tui_ev_props,
	.ended = tui_ev_ended,
};

/* Mouse reports (the wheel) only while a view uses them. */
static void
tui_mouse(bool on)
{
	mousemask(on ? (BUTTON4_PRESSED | BUTTON5_PRESSED) : 0, NULL);
}

/* Leave history or scroll mode for the panes. */
static void
tui_back_to_panes(struct tui *t)
{
	scroll_free(t->scroll);
	t->scroll = NULL;
	t->mode = TUI_NORMAL;
	tui_mouse(false);
	t->redraw_all = true;
}

/* Remove pane i and forget its (finished) session or its replay. */
static void
tui_close_pane(struct tui *t, int i)
{
	struct tui_pane	*p = t->panes[i];

	if (p->s != NULL)
		sessions_forget(t->ss, p->s);
	tui_replay_free(p->replay);
	free(p->dirty);
	free(p);
	memmove(&t->panes[i], &t->panes[i + 1],
	    (size_t)(t->npanes - i - 1) * sizeof *t->panes);
	t->npanes--;
	if (t->focus >= t->npanes)
		t->focus = t->npanes > 0 ? t->npanes - 1 : 0;
	if (t->npanes <= 1)
		t->zoom = false;
	tui_relayout(t);
}

/* The rectangle the next new pane will get (for its first size). */
static struct layout_rect
tui_next_rect(struct tui *t)
{
	struct layout_rect	area = { 0, 0, COLS, LINES - 1 };
	struct layout_rect	rects[LAYOUT_MAX_PANES];
	int			n = t->npanes + 1;

	if (n > LAYOUT_MAX_PANES)
		n = LAYOUT_MAX_PANES;
	if (t->zoom || layout_tile(area, n, rects) != 0)
		return area;
	return rects[n - 1];
}

struct pty_size
tui_next_size(struct tui *t)
{
	struct layout_rect	c = layout_content(tui_next_rect(t));
	struct pty_size		size;

	size.cols = (unsigned short)(c.w > 1 ? c.w : 80);
	size.rows = (unsigned short)(c.h > 1 ? c.h : 24);
	return size;
}

int
tui_new_session(struct tui *t, char *const *argv, char **cause)
{
	struct session_opts	 so;
	const char		*shell = getenv("SHELL");
	char			*sh[2];

	if (argv == NULL) {
		sh[0] = (char *)(shell != NULL && *shell == '/' ? shell :
		    "/bin/sh");
		sh[1] = NULL;
		argv = sh;
	}
	memset(&so, 0, sizeof so);
	so.argv = argv;
	so.envp = t->envp;
	so.size = tui_next_size(t);
	so.term = TUI_SESSION_TERM;
	so.scrollback = t->scrollback;
	so.sandbox = t->sandbox_opts;
	so.decision = "user";
	so.by = "user";
	if (sessions_start(t->ss, &so, cause) == NULL)
		return -1;
	tui_relayout(t);
	return 0;
}

/* Give every visible pane its rectangle and its session that size. */
static void
tui_relayout(struct tui *t)
{
	struct layout_rect	 area, rects[LAYOUT_MAX_PANES], c;
	struct pty_size		 size;
	struct tui_pane		*p;
	int			 i, first, n;

	t->redraw_all = true;
	t->too_small = layout_too_small(COLS, LINES);
	for (i = 0; i < t->npanes; i++)
		t->panes[i]->rect.w = 0;
	if (t->too_small || t->npanes == 0)
		return;
	area.x = 0;
	area.y = 0;
	area.w = COLS;
	area.h = LINES - 1;
	first = layout_window(t->npanes, t->focus);
	n = t->npanes - first < LAYOUT_MAX_PANES ? t->npanes - first :
	    LAYOUT_MAX_PANES;
	if (t->zoom || layout_tile(area, n, rects) != 0)
		t->panes[t->focus]->rect = area;
	else
		for (i = 0; i < n; i++)
			t->panes[first + i]->rect = rects[i];
	for (i = 0; i < t->npanes; i++) {
		p = t->panes[i];
		if (p->rect.w == 0)
			continue;
		c = layout_content(p->rect);
		if (c.h != p->ndirty) {
			free(p->dirty);
			p->dirty = xcalloc((size_t)c.h + 1, sizeof *p->dirty);
			p->ndirty = c.h;
		}
		p->dirty_all = true;
		p->title_dirty = true;
		if (p->s != NULL && c.w > 0 && c.h > 0) {
			size.cols = (unsigned short)c.w;
			size.rows = (unsigned short)c.h;
			session_resize(p->s, size);
		}
	}
}

void
tui_resize(struct tui *t)
{
	struct winsize	ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	tui_relayout(t);
	tui_schedule(t);
}

void
tui_quit(struct tui *t)
{
	t->quit = true;
	loop_stop(t->loop);
}

/* Format a duration in microseconds: 12s, 4m05s, 1h02m. */
static void
tui_duration(int64_t us, char *buf, size_t len)
{
	int64_t	s = us > 0 ? us / 1000000 : 0;

	if (s < 60)
		snprintf(buf, len, "%llds", (long long)s);
	else if (s < 3600)
		snprintf(buf, len, "%lldm%02llds", (long long)(s / 60),
		    (long long)(s % 60));
	else
		snprintf(buf, len, "%lldh%02lldm", (long long)(s / 3600),
		    (long long)(s / 60 % 60));
}

/* A short tag for a sandbox profile; running without one must stand out. */
static const char *
tui_profile_tag(const char *profile)
{
	if (strcmp(profile, "workspace-write") == 0)
		return "ws";
	if (strcmp(profile, "read-only") == 0)
		return "ro";
	return "NO SANDBOX";
}

/*
 * A session pane's title: "#id command", then its sandbox profile, state
 * and duration.
 */
static void
tui_session_title(struct session *s, char *left, size_t llen, char *right,
    size_t rlen)
{
	char	label[32], dur[48], *cmd;
	int64_t	end = session_end_us(s);

	session_label(s, label, sizeof label);
	tui_duration((end != 0 ? end : util_wall_us()) - session_start_us(s),
	    dur, sizeof dur);
	cmd = session_quote_argv(session_argv(s));
	snprintf(left, llen, "#%lu %s%s", session_id(s),
	    session_is_agent(s) ? "agent: " : "", cmd);
	free(cmd);
	snprintf(right, rlen, "%s %s %s",
	    tui_profile_tag(session_profile(s)), label, dur);
}

/* Draw pane i's title row: number, then its session's or replay's. */
static void
tui_draw_title(struct tui *t, int i)
{
	struct tui_pane	*p = t->panes[i];
	char		 left[512], right[160], l[480], r[150];
	int		 w = p->rect.w, rl;
	bool		 focused = i == t->focus;

	if (p->replay != NULL)
		tui_replay_title(p->replay, l, sizeof l, r, sizeof r);
	else
		tui_session_title(p->s, l, sizeof l, r, sizeof r);
	snprintf(left, sizeof left, " %d%s %s ", i + 1, focused ? "*" : " ",
	    l);
	snprintf(right, sizeof right, " %s ", r);
	rl = (int)strlen(right);
	attrset(focused ? A_REVERSE | A_BOLD : A_REVERSE);
	mvhline(p->rect.y, p->rect.x, ' ', w);
	if (w > rl + 8) {
		mvaddnstr(p->rect.y, p->rect.x, left, w - rl - 1);
		mvaddstr(p->rect.y, p->rect.x + w - rl, right);
	} else
		mvaddnstr(p->rect.y, p->rect.x, left, w);
	attrset(A_NORMAL);
}

/* Draw the dirty rows of pane i. */
static void
tui_draw_pane(struct tui *t, int i, struct cell **cells, int *ncells)
{
	struct tui_pane		*p = t->panes[i];
	struct screen		*scr = tui_pane_screen(p);
	struct layout_rect	 c = layout_content(p->rect);
	int			 row, cols = screen_cols(scr);

	if (p->rect.w == 0)
		return;
	if (p->title_dirty || t->redraw_all)
		tui_draw_title(t, i);
	p->title_dirty = false;
	if (cols > *ncells) {
		*cells = xreallocarray(*cells, (size_t)cols, sizeof **cells);
		*ncells = cols;
	}
	for (row = 0; row < c.h; row++) {
		if (!p->dirty_all && !t->redraw_all &&
		    (row >= p->ndirty || !p->dirty[row]))
			continue;
		if (row < p->ndirty)
			p->dirty[row] = false;
		if (row >= screen_rows(scr)) {
			render_blank(c.y + row, c.x, c.w);
			continue;
		}
		screen_row_cells(scr, row, *cells, cols);
		render_cells(c.y + row, c.x, c.w, *cells, cols, false);
	}
	p->dirty_all = false;
	if (t->redraw_all && p->rect.x + p->rect.w < COLS) {
		attrset(A_NORMAL);
		mvvline(p->rect.y, p->rect.x + p->rect.w, ACS_VLINE,
		    p->rect.h);
	}
}

/* The status line: counts, modes, and a hint, message or question. */
static void
tui_draw_status(struct tui *t)
{
	char	left[256], right[256], pending[64];
	int	y = LINES - 1, rl, x, px = -1, pl = 0;
	size_t	np = t->approval != NULL ? approval_pending_count(t->approval) :
		    0;

	if (np > 0)
		snprintf(pending, sizeof pending, " %zu PENDING ", np);
	else
		snprintf(pending, sizeof pending, " 0 pending ");
	snprintf(left, sizeof left, " ptyvisor | %zu running |%s| approval %s "
	    "| sandbox %s%s ", sessions_running(t->ss), pending,
	    t->approval_mode, t->sandbox, t->agents ? "" : " | agents off");
	if (np > 0) {
		px = (int)(strstr(left, pending) - left);
		pl = (int)strlen(pending);
	}
	if (t->mode == TUI_CONFIRM && t->confirm == TUI_CONFIRM_QUIT)
		snprintf(right, sizeof right, "kill %zu running session%s "
		    "and quit? (y/n) ", sessions_running(t->ss),
		    sessions_running(t->ss) == 1 ? "" : "s");
	else if (t->mode == TUI_CONFIRM)
		snprintf(right, sizeof right, "kill session #%lu? (y/n) ",
		    t->confirm_id);
	else if (t->mode == TUI_PREFIX_WAIT)
		snprintf(right, sizeof right, "[%s] c new  x kill  z zoom  "
		    "n/p focus  h history  [ scroll  a approvals  ? help  q quit ",
		    t->prefix_name);
	else if (t->message != NULL)
		snprintf(right, sizeof right, "%s ", t->message);
	else if (np > 0 && !t->box_drawn)
		snprintf(right, sizeof right, "%s a: approve or deny ",
		    t->prefix_name);
	else
		snprintf(right, sizeof right, "%s ? help ", t->prefix_name);
	rl = (int)strlen(right);
	x = COLS - rl > 0 ? COLS - rl : 0;	/* the right side wins */
	attrset(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	mvaddnstr(y, 0, left, x);
	if (px >= 0 && px < x) {
		/* Waiting requests stand out. */
		attrset(A_BOLD);
		mvaddnstr(y, px, pending, pl < x - px ? pl : x - px);
		attrset(A_REVERSE);
	}
	mvaddnstr(y, x, right, COLS - x);
	attrset(A_NORMAL);
}

/* Place the cursor: the focused pane's, when it is shown and visible. */
static void
tui_place_cursor(struct tui *t)
{
	struct tui_pane		*p;
	struct layout_rect	 c;
	int			 row, col;
	bool			 visible;

	if (t->npanes == 0 || (t->mode != TUI_NORMAL &&
	    t->mode != TUI_PREFIX_WAIT)) {
		curs_set(0);
		return;
	}
	p = t->panes[t->focus];
	c = layout_content(p->rect);
	screen_cursor(tui_pane_screen(p), &row, &col, &visible);
	if (p->rect.w == 0 || !visible || tui_pane_is_done(p) ||
	    row >= c.h || col >= c.w) {
		curs_set(0);
		return;
	}
	move(c.y + row, c.x + col);
	curs_set(1);
}

static void
tui_draw(struct tui *t)
{
	struct layout_rect	 area = { 0, 0, COLS, LINES - 1 };
	int			 i, cy = 0, cx = 0;
	bool			 prompt = false;

	bool			 box;

	if (t->closing)
		return;
	/* The prompt just closed: what it covered is drawn again. */
	box = t->askbox != NULL && askbox_is_open(t->askbox);
	if (t->box_drawn && !box)
		t->redraw_all = true;
	t->box_drawn = box;
	t->last_frame_ms = util_now_ms();
	if (t->message != NULL && t->last_frame_ms >= t->message_until) {
		free(t->message);
		t->message = NULL;
	}
	if (t->redraw_all)
		erase();
	if (t->too_small) {
		erase();
		attrset(A_BOLD);
		mvaddnstr(LINES / 2, COLS > 9 ? (COLS - 9) / 2 : 0,
		    "too small", COLS);
		attrset(A_NORMAL);
		curs_set(0);
		refresh();
		t->redraw_all = true;
		return;
	}
	switch (t->mode) {
	case TUI_HISTORY:
		prompt = tui_history_draw(t->history, area);
		break;
	case TUI_SCROLL:
		prompt = scroll_draw(t->scroll, area);
		break;
	default:
		if (t->npanes == 0) {
			attrset(A_NORMAL);
			char	msg[80];

			snprintf(msg, sizeof msg, "no sessions: %s c starts a "
			    "shell, %s q quits", t->prefix_name,
			    t->prefix_name);
			mvaddnstr(area.h / 2, 2, msg, COLS - 2);
		}
		for (i = 0; i < t->npanes; i++)
			tui_draw_pane(t, i, &t->cells, &t->ncells);
		if (t->mode == TUI_HELP)
			help_draw(area, t->prefix_name);
		break;
	}
	if (box)
		prompt = askbox_draw(t->askbox, area);
	if (prompt)
		getyx(stdscr, cy, cx);
	tui_draw_status(t);
	t->redraw_all = t->mode == TUI_HELP;
	if (prompt) {
		move(cy, cx);
		curs_set(1);
	} else
		tui_place_cursor(t);
	refresh();
}

/* Focus pane i (wrapping). */
static void
tui_focus(struct tui *t, int i)
{
	if (t->npanes == 0)
		return;
	i %= t->npanes;
	if (i < 0)
		i += t->npanes;
	if (i == t->focus)
		return;
	t->panes[t->focus]->title_dirty = true;
	t->focus = i;
	t->panes[i]->title_dirty = true;
	tui_relayout(t);
}

/* Open the history pane. */
static void
tui_open_history(struct tui *t)
{
	if (t->history == NULL)
		t->history = tui_history_new(t->history_path, t->ss);
	else
		tui_history_reload(t->history);
	scroll_free(t->scroll);
	t->scroll = NULL;
	t->mode = TUI_HISTORY;
	tui_mouse(true);
}

/* Open scroll mode on the focused pane. */
static void
tui_open_scroll(struct tui *t)
{
	struct session	*s;
	char		*cmd, *title;

	if (t->npanes == 0)
		return;
	if ((s = t->panes[t->focus]->s) == NULL) {
		tui_message(t, "no scroll mode in a replay (h l seek)");
		return;
	}
	cmd = session_quote_argv(session_argv(s));
	title = xasprintf(" scroll: #%lu %s", session_id(s), cmd);
	t->scroll = scroll_new(session_screen(s), false, title);
	free(title);
	free(cmd);
	t->scroll_from_history = false;
	t->mode = TUI_SCROLL;
	tui_mouse(true);
}

/* A command after the prefix key. */
static void
tui_command(struct tui *t, const struct keys_event *ev)
{
	struct session	*s = t->npanes > 0 ? t->panes[t->focus]->s : NULL;
	char		*cause = NULL, name[32];

	if (ev->type == KEYS_KEY && ev->key == SCREEN_KEY_ESCAPE)
		return;
	if (ev->type != KEYS_CHAR || ev->mods != 0)
		goto unknown;
	if (ev->ch == t->prefix) {	/* twice: send it through */
		if (s != NULL)
			keys_send(s, ev);
		return;
	}
	switch (ev->ch) {
	case 'c':
		if (tui_new_session(t, NULL, &cause) != 0) {
			tui_message(t, "cannot start a shell: %s", cause);
			free(cause);
		}
		return;
	case 'x':
		if (t->npanes > 0 && t->panes[t->focus]->replay != NULL) {
			tui_close_pane(t, t->focus);
			return;
		}
		if (s == NULL)
			return;
		if (session_is_done(s)) {
			tui_close_pane(t, t->focus);
			return;
		}
		t->mode = TUI_CONFIRM;
		t->confirm = TUI_CONFIRM_KILL;
		t->confirm_id = session_id(s);
		return;
	case 'z':
		t->zoom = !t->zoom && t->npanes > 1;
		tui_relayout(t);
		return;
	case 'n':
		tui_focus(t, t->focus + 1);
		return;
	case 'p':
		tui_focus(t, t->focus - 1);
		return;
	case 'h':
		tui_open_history(t);
		return;
	case '[':
		tui_open_scroll(t);
		return;
	case '?':
		t->mode = TUI_HELP;
		t->redraw_all = true;
		return;
	case 'r':
		tui_open_history(t);
		tui_message(t, "select a session, then r replays it");
		return;
	case 'a':
		if (t->askbox == NULL || !askbox_open(t->askbox))
			tui_message(t, "no request is waiting%s", t->agents ?
			    "" : " (agents off: no socket)");
		return;
	case 'q':
		if (sessions_running(t->ss) == 0) {
			tui_quit(t);
			return;
		}
		t->mode = TUI_CONFIRM;
		t->confirm = TUI_CONFIRM_QUIT;
		return;
	}
	if (ev->ch >= '0' && ev->ch <= '9') {
		if (ev->ch == '0' ? t->npanes >= 10 :
		    (int)(ev->ch - '0') <= t->npanes)
			tui_focus(t, ev->ch == '0' ? 9 : (int)(ev->ch - '1'));
		else
			tui_message(t, "no pane %c", (char)ev->ch);
		return;
	}
unknown:
	keys_describe(ev, name, sizeof name);
	tui_message(t, "unknown key %s after %s (%s ? lists the keys)", name,
	    t->prefix_name, t->prefix_name);
}

/* The answer to a y/n question. */
static void
tui_answer(struct tui *t, const struct keys_event *ev)
{
	struct session	*s;
	bool		 yes = ev->type == KEYS_CHAR && (ev->ch == 'y' ||
			    ev->ch == 'Y');

	t->mode = TUI_NORMAL;
	if (!yes)
		return;
	if (t->confirm == TUI_CONFIRM_QUIT) {
		tui_quit(t);
		return;
	}
	if ((s = sessions_find(t->ss, t->confirm_id)) != NULL &&
	    !session_is_done(s))
		session_kill(s);
}

/* Open the output of the selected history entry. */
static void
tui_open_output(struct tui *t)
{
	struct screen	*scr;
	char		*title = NULL, *cause = NULL;
	bool		 owned = false;

	scr = tui_history_screen(t->history, &owned, &title, &cause);
	if (scr == NULL) {
		tui_message(t, "%s", cause);
		free(cause);
		return;
	}
	t->scroll = scroll_new(scr, owned, title);
	free(title);
	t->scroll_from_history = true;
	t->mode = TUI_SCROLL;
}

/* Replay events: mark the replay's pane for drawing. */
static void
tui_replay_damage(void *user, struct tui_replay *r, int srow, int erow)
{
	struct tui	*t = user;
	struct tui_pane	*p;
	int		 i, row;

	if ((i = tui_find_replay(t, r)) < 0)
		return;
	p = t->panes[i];
	if (p->rect.w == 0)
		return;
	for (row = srow < 0 ? 0 : srow; row < erow && row < p->ndirty; row++)
		p->dirty[row] = true;
	tui_schedule(t);
}

static void
tui_replay_redraw(void *user, struct tui_replay *r)
{
	struct tui	*t = user;
	int		 i;

	if ((i = tui_find_replay(t, r)) < 0)
		return;
	t->panes[i]->dirty_all = true;
	t->panes[i]->title_dirty = true;
	tui_schedule(t);
}

static void
tui_replay_title_changed(void *user, struct tui_replay *r)
{
	struct tui	*t = user;
	int		 i;

	if ((i = tui_find_replay(t, r)) < 0)
		return;
	t->panes[i]->title_dirty = true;
	tui_schedule(t);
}

static const struct tui_replay_events tui_replay_events = {
	.damage = tui_replay_damage,
	.redraw = tui_replay_redraw,
	.title = tui_replay_title_changed,
};

/*
 * Replay the selected history entry in a new pane, focused; a missing or
 * unreadable recording is a message and leaves the current view.
 */
static void
tui_open_replay(struct tui *t)
{
	struct tui_replay	*r;
	struct tui_pane		*p;
	unsigned long		 id;
	char			*path = NULL, *cmd = NULL, *cause = NULL;

	if (tui_history_recording(t->history, &id, &path, &cmd, &cause) != 0) {
		tui_message(t, "%s", cause);
		free(cause);
		return;
	}
	r = tui_replay_open(path, id, cmd, t->loop, &tui_replay_events, t,
	    &cause);
	free(path);
	free(cmd);
	if (r == NULL) {
		tui_message(t, "cannot replay: %s", cause);
		free(cause);
		return;
	}
	p = xcalloc(1, sizeof *p);
	p->replay = r;
	t->panes = xreallocarray(t->panes, (size_t)t->npanes + 1,
	    sizeof *t->panes);
	t->panes[t->npanes++] = p;
	t->focus = t->npanes - 1;
	tui_back_to_panes(t);
	tui_relayout(t);
}

/* A key for the focused replay pane. */
static void
tui_replay_input(struct tui *t, const struct keys_event *ev)
{
	struct tui_pane	*p = t->panes[t->focus];
	char		*message = NULL;

	if (tui_replay_key(p->replay, ev, &message) == TUI_REPLAY_CLOSE)
		tui_close_pane(t, t->focus);
	if (message != NULL) {
		tui_message(t, "%s", message);
		free(message);
	}
}

/* A key for the approval prompt. */
static void
tui_askbox_key(struct tui *t, const struct keys_event *ev)
{
	char	*message = NULL;

	/* A session approved here shows in a focused pane. */
	t->focus_agent = true;
	askbox_key(t->askbox, ev, util_now_ms(), &message);
	t->focus_agent = false;
	if (message != NULL) {
		tui_message(t, "%s", message);
		free(message);
	}
	tui_schedule(t);
}

/* One key from the person. */
static void
tui_key(struct tui *t, const struct keys_event *ev)
{
	struct session	*s = t->npanes > 0 ? t->panes[t->focus]->s : NULL;

	if (ev->type == KEYS_RESIZE)
		return;
	if (t->askbox != NULL && askbox_is_open(t->askbox)) {
		/* Nothing is decided on a screen too small to show it. */
		if (!t->too_small)
			tui_askbox_key(t, ev);
		return;
	}
	switch (t->mode) {
	case TUI_HELP:
		t->mode = TUI_NORMAL;
		t->redraw_all = true;
		return;
	case TUI_CONFIRM:
		tui_answer(t, ev);
		return;
	case TUI_PREFIX_WAIT:
		t->mode = TUI_NORMAL;
		tui_command(t, ev);
		return;
	case TUI_HISTORY:
		switch (tui_history_key(t->history, ev)) {
		case TUI_HISTORY_QUIT:
			tui_back_to_panes(t);
			break;
		case TUI_HISTORY_OPEN:
			tui_open_output(t);
			break;
		case TUI_HISTORY_REPLAY:
			tui_open_replay(t);
			break;
		case TUI_HISTORY_KEEP:
			break;
		}
		return;
	case TUI_SCROLL:
		if (t->scroll_from_history && ev->type == KEYS_CHAR &&
		    ev->mods == 0 && ev->ch == 'r') {
			tui_open_replay(t);
			return;
		}
		if (scroll_key(t->scroll, ev) == SCROLL_QUIT) {
			if (t->scroll_from_history) {
				scroll_free(t->scroll);
				t->scroll = NULL;
				t->mode = TUI_HISTORY;
			} else
				tui_back_to_panes(t);
		}
		return;
	case TUI_NORMAL:
		break;
	}
	if (ev->type == KEYS_PASTE_START)
		t->pasting = true;
	else if (ev->type == KEYS_PASTE_END)
		t->pasting = false;
	else if (!t->pasting && ev->type == KEYS_CHAR && ev->mods == 0 &&
	    ev->ch == t->prefix) {
		t->mode = TUI_PREFIX_WAIT;
		return;
	}
	if (t->npanes > 0 && t->panes[t->focus]->replay != NULL) {
		if (!t->pasting && ev->type != KEYS_PASTE_END)
			tui_replay_input(t, ev);
		return;
	}
	if (s != NULL && !session_is_done(s))
		keys_send(s, ev);
}

/* The terminal has input: handle every key it holds. */
static void
tui_input(struct loop *l, int fd, short revents, void *arg)
{
	struct tui		*t = arg;
	struct keys_event	 ev;

	(void)l;
	(void)fd;
	if (revents & (POLLHUP | POLLERR | POLLNVAL)) {
		tui_quit(t);	/* the terminal went away */
		return;
	}
	while (!t->quit && keys_read(&ev))
		tui_key(t, &ev);
	tui_schedule(t);
}

/* Approval events: tell the person, show the prompt. */
static void
tui_ap_pending(void *user, struct approval_request *r)
{
	struct tui	*t = user;

	if (t->closing)
		return;
	beep();
	askbox_arrived(t->askbox, r->id);
	tui_schedule(t);
}

static void
tui_ap_changed(void *user, struct approval_request *r)
{
	struct tui	*t = user;

	(void)r;
	if (!t->closing)
		tui_schedule(t);
}

static const struct approval_events tui_approval_events = {
	.pending = tui_ap_pending,
	.decided = tui_ap_changed,
	.withdrawn = tui_ap_changed,
};

/* The environment of sessions: ours with TERM set to what we emulate. */
static char **
tui_environment(void)
{
	extern char	**environ;
	char		**env;
	size_t		  n = 0, i;

	for (i = 0; environ[i] != NULL; i++)
		;
	env = xcalloc(i + 2, sizeof *env);
	for (i = 0; environ[i] != NULL; i++) {
		if (strncmp(environ[i], "TERM=", 5) == 0 ||
		    strncmp(environ[i], "COLUMNS=", 8) == 0 ||
		    strncmp(environ[i], "LINES=", 6) == 0 ||
		    strncmp(environ[i], "TMUX=", 5) == 0 ||
		    strncmp(environ[i], "TMUX_PANE=", 10) == 0)
			continue;
		env[n++] = xstrdup(environ[i]);
	}
	env[n++] = xstrdup("TERM=" TUI_SESSION_TERM);
	env[n] = NULL;
	return env;
}

struct tui *
tui_new(struct loop *loop, struct sessions *ss, const struct tui_opts *o,
    char **cause)
{
	struct tui	*t;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		*cause = xstrdup("the front end needs a terminal (stdin and "
		    "stdout); use 'ptyvisor run' or 'ptyvisor serve'");
		return NULL;
	}
	if (newterm(NULL, stdout, stdin) == NULL) {
		*cause = xasprintf("cannot start curses on TERM=%s",
		    getenv("TERM") != NULL ? getenv("TERM") : "(unset)");
		return NULL;
	}
	util_set_fatal_hook(tui_restore_terminal);
	raw();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keys_init();
	render_init();
	putp("\033[?2004h");	/* bracketed paste: pastes are marked */

	t = xcalloc(1, sizeof *t);
	t->loop = loop;
	t->ss = ss;
	t->prefix = (uint32_t)KEYS_CTRL(o->prefix ? o->prefix : TUI_PREFIX_DEFAULT);
	snprintf(t->prefix_name, sizeof t->prefix_name, "C-%c",
	    o->prefix ? o->prefix : TUI_PREFIX_DEFAULT);
	t->sandbox_opts = o->sandbox;
	t->sandbox = xstrdup(o->sandbox != NULL ?
	    sandbox_profile_name(o->sandbox->profile) : "none");
	t->approval_mode = xstrdup(o->approval_mode != NULL ?
	    o->approval_mode : "untrusted");
	t->approval = o->approval;
	t->agents = o->agents;
	if (t->approval != NULL) {
		t->askbox = askbox_new(t->approval);
		approval_subscribe(t->approval, &tui_approval_events, t);
	}
	t->history_path = xstrdup(o->history_path);
	t->quit_when_done = o->quit_when_done;
	t->scrollback = o->scrollback;
	t->envp = tui_environment();
	t->redraw_all = true;
	sessions_subscribe(ss, &tui_events, t);
	loop_add_fd(loop, STDIN_FILENO, POLLIN, LOOP_PRIO_HIGH, tui_input, t);
	t->tick_timer = loop_timer_add(loop, TUI_TICK_MS, tui_tick, t);
	tui_relayout(t);
	if (o->notice != NULL)
		tui_message(t, "%s", o->notice);
	return t;
}

int
tui_run(struct tui *t)
{
	tui_schedule(t);
	while (!t->quit) {
		if (loop_once(t->loop, -1) != 0)
			fatal("event loop: %s", strerror(errno));
	}
	t->closing = true;
	loop_del_fd(t->loop, STDIN_FILENO);
	loop_timer_cancel(t->loop, t->frame_timer);
	loop_timer_cancel(t->loop, t->tick_timer);
	loop_timer_cancel(t->loop, t->tidy_timer);
	t->frame_timer = t->tick_timer = t->tidy_timer = NULL;
	tui_restore_terminal();
	return 0;
}

void
tui_free(struct tui *t)
{
	int	i;

	if (t == NULL)
		return;
	if (!t->closing) {
		loop_del_fd(t->loop, STDIN_FILENO);
		loop_timer_cancel(t->loop, t->frame_timer);
		loop_timer_cancel(t->loop, t->tick_timer);
		loop_timer_cancel(t->loop, t->tidy_timer);
	}
	tui_restore_terminal();
	for (i = 0; i < t->npanes; i++) {
		tui_replay_free(t->panes[i]->replay);
		free(t->panes[i]->dirty);
		free(t->panes[i]);
	}
	free(t->panes);
	free(t->cells);
	scroll_free(t->scroll);
	tui_history_free(t->history);
	strv_free(t->envp);
	free(t->message);
	free(t->sandbox);
	free(t->approval_mode);
	askbox_free(t->askbox);
	free(t->history_path);
	free(t);
}
