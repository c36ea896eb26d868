/*
 * draw.c - the front end's frames: tui_schedule() asks for one and a loop
 * timer draws it; pane titles, pane rows and borders, the status line
 * (with the hint tui_message() leaves there) and the cursor.
 *
 * Also what goes to the terminal beside the frames: bracketed paste on
 * and off, copied text (OSC 52).
 *
 * Flow control: a frame the person waits for is drawn at once (after the
 * callback that asked for it); others at most once per TUI_FRAME_MS.
 * Frames draw only dirty rows (curses then sends only the cells that
 * changed); a pane that is not visible (rect.w == 0) is not drawn.
 * Drawing changes no pane list, session or mode: it clears dirty marks,
 * expires the message, notes whether the approval prompt is on screen and
 * tells the focused pane's session that it is watched (served first).  Of
 * the front end's files it calls only tui-term.c (the terminal it draws
 * on).
 */
#include "tui/tui-int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "base/quote.h"
#include "control/approval.h"
#include "control/proto.h"
#include "base/loop.h"
#include "session/session.h"
#include "base/util.h"
#include "policy/policy.h"
#include "tui/askbox.h"
#include "tui/help.h"
#include "tui/tui-history.h"
#include "tui/layout.h"
#include "tui/render.h"
#include "tui/tui-replay.h"
#include "tui/scroll.h"

/* How long a hint stays on the status line. */
#define TUI_MESSAGE_MS		3000

/*
 * At most this many columns of a waiting command on the status line: enough
 * to recognise it, short enough that the whole notice fits in 80 columns
 * beside the start of the left side.  The prompt shows it whole.
 */
#define TUI_NOTICE_COMMAND	32

/*
 * Ask the terminal to mark pastes (ESC [?2004h) or stop (l).  Written to
 * the terminal at once: through curses (putp) it would wait in stdio's
 * buffer until exit, and pastes would arrive as typed keys.
 */
void
tui_bracketed_paste(struct tui *t, bool on)
{
	const char	*seq = on ? "\033[?2004h" : "\033[?2004l";

	/* No terminal: nothing to mark. */
	if (t->term != NULL)
		(void)util_write_all(tui_term_out_fd(t->term), seq,
		    strlen(seq));
}

/*
 * Put text on the terminal's clipboard with OSC 52, as tmux's
 * set-clipboard does: the terminal (or a tmux around us) decides whether
 * to take it.  Written at once, like the paste mode; the status line says
 * what was sent.
 */
void
tui_clipboard(struct tui *t, const char *text)
{
	struct buf	seq = { 0 };
	size_t		lines = 1;
	const char	*p;

	buf_adds(&seq, "\033]52;c;");
	proto_base64_encode(&seq, text, strlen(text));
	buf_adds(&seq, "\a");
	if (t->term != NULL)
		(void)util_write_all(tui_term_out_fd(t->term), seq.data,
		    seq.len);
	buf_free(&seq);
	for (p = text; *p != '\0'; p++)
		if (*p == '\n')
			lines++;
	tui_message(t, "copied %zu line%s to the clipboard (OSC 52)", lines,
	    lines == 1 ? "" : "s");
}

/* Show a hint on the status line for a few seconds. */
void
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
	util_format_duration((end != 0 ? end : util_wall_us()) - session_start_us(s),
	    dur, sizeof dur);
	cmd = quote_argv(session_argv(s));
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
	char		 left[560], right[160], l[480], r[150];
	int		 w = p->rect.w, rl;
	bool		 focused = i == t->focus;

	if (p->replay != NULL)
		tui_replay_title(p->replay, l, sizeof l, r, sizeof r);
	else
		tui_session_title(p->s, l, sizeof l, r, sizeof r);
	/* A zoomed pane says so, and how many panes it hides. */
	if (t->zoom && t->npanes > 1)
		snprintf(left, sizeof left, " %d%s ZOOM (+%d hidden) %s ", i + 1,
		    focused ? "*" : " ", t->npanes - 1, l);
	else
		snprintf(left, sizeof left, " %d%s %s ", i + 1,
		    focused ? "*" : " ", l);
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
	int			 row, cols = screen_cols(scr), lo, hi;

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
		/* The whole row, or the columns that changed. */
		lo = 0;
		hi = INT_MAX;
		if (!p->dirty_all && !t->redraw_all) {
			if (row >= p->ndirty ||
			    p->dirty[row].lo >= p->dirty[row].hi)
				continue;
			lo = p->dirty[row].lo;
			hi = p->dirty[row].hi;
		}
		if (row < p->ndirty)
			p->dirty[row].lo = p->dirty[row].hi = 0;
		if (row >= screen_rows(scr)) {
			render_blank(c.y + row, c.x, c.w);
			continue;
		}
		screen_row_cells(scr, row, *cells, cols);
		render_span(c.y + row, c.x, c.w, *cells, cols, lo, hi);
	}
	p->dirty_all = false;
	if (t->redraw_all && p->rect.x + p->rect.w < COLS) {
		attrset(A_NORMAL);
		mvvline(p->rect.y, p->rect.x + p->rect.w, ACS_VLINE,
		    p->rect.h);
	}
}

/* Whether a pane has anything a frame would draw. */
static bool
tui_pane_dirty(const struct tui_pane *p)
{
	int	row;

	if (p->rect.w == 0)
		return false;	/* hidden: drawn whole when shown */
	if (p->dirty_all || p->title_dirty)
		return true;
	for (row = 0; row < p->ndirty; row++)
		if (p->dirty[row].lo < p->dirty[row].hi)
			return true;
	return false;
}

void
tui_pane_damage(struct tui_pane *p, int srow, int erow, int scol, int ecol)
{
	struct tui_span	*d;
	int		 r;

	if (scol < 0)
		scol = 0;
	if (scol >= ecol)
		return;
	for (r = srow < 0 ? 0 : srow; r < erow && r < p->ndirty; r++) {
		d = &p->dirty[r];
		if (d->lo >= d->hi) {
			d->lo = scol;
			d->hi = ecol;
			continue;
		}
		if (scol < d->lo)
			d->lo = scol;
		if (ecol > d->hi)
			d->hi = ecol;
	}
}

/*
 * Whether the status line would show what it shows (the same texts and
 * marks, the same size, nothing erased it): then drawing it again is
 * skipped, which is most of a frame's work when one key echoes.
 */
static bool
tui_status_same(struct tui *t, const char *a, const char *b, int marks)
{
	char	*key;

	key = xasprintf("%dx%d %d\n%s\n%s", COLS, LINES, marks, a,
	    b != NULL ? b : "");
	if (!t->redraw_all && t->status_key != NULL &&
	    strcmp(key, t->status_key) == 0) {
		free(key);
		return true;
	}
	free(t->status_key);
	t->status_key = key;
	return false;
}

/*
 * How many bytes of s fit in cols columns (stopping at a character
 * boundary); *width gets the columns they take.
 */
static size_t
tui_fit(const char *s, int cols, int *width)
{
	mbstate_t	st;
	wchar_t		wc;
	size_t		n, used = 0, len = strlen(s);
	int		w;

	memset(&st, 0, sizeof st);
	*width = 0;
	while (used < len) {
		n = mbrtowc(&wc, s + used, len - used, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof st);
			n = 1;
			w = 1;
		} else if ((w = wcwidth(wc)) < 0)
			w = 1;
		if (*width + w > cols)
			break;
		*width += w;
		used += n;
	}
	return used;
}

/*
 * The status line's notice of waiting requests: the oldest one's number
 * and command (quoted as it would run, cut to TUI_NOTICE_COMMAND columns),
 * and the keys that open the prompt.  Keys typed meanwhile still go to the
 * focused pane.
 */
static void
tui_pending_notice(struct tui *t, char *out, size_t len)
{
	struct approval_request	*r = approval_pending_at(t->approval, 0);
	char			*cmd = quote_argv(r->exec.argv);
	int			 width;
	size_t			 cut = tui_fit(cmd, TUI_NOTICE_COMMAND, &width);

	snprintf(out, len, "%zu PENDING: #%llu %.*s%s  %s a: answer ",
	    approval_pending_count(t->approval), (unsigned long long)r->id,
	    (int)cut, cmd, cut < strlen(cmd) ? "..." : "", t->prefix_name);
	free(cmd);
}

/*
 * The status line: counts and modes on the left, a hint, notice or
 * question on the right.  The right side wins; the left gives way a whole
 * field (" | ...") at a time, never mid-word.  A message replaces the
 * line whole for its few seconds.
 */
static void
tui_draw_status(struct tui *t)
{
	char	left[256], right[256], pending[64], *bar;
	int	y = LINES - 1, rw, lw, x, px = -1, pl = 0;
	size_t	fit;
	bool	notice = false;
	size_t	np = t->approval != NULL ? approval_pending_count(t->approval) :
		    0;

	if (t->message != NULL && t->mode != TUI_CONFIRM &&
	    t->mode != TUI_PREFIX_WAIT) {
		if (tui_status_same(t, t->message, NULL, 4))
			return;
		attrset(A_REVERSE);
		mvhline(y, 0, ' ', COLS);
		fit = tui_fit(t->message, COLS > 1 ? COLS - 1 : 0, &lw);
		mvaddnstr(y, 1, t->message, (int)fit);
		attrset(A_NORMAL);
		return;
	}
	if (np > 0)
		snprintf(pending, sizeof pending, " %zu PENDING ", np);
	else
		snprintf(pending, sizeof pending, " 0 pending ");
	snprintf(left, sizeof left, " ptyvisor | %zu running |%s| approval %s "
	    "| sandbox %s%s ", sessions_running(t->ss), pending,
	    t->approval != NULL ? policy_mode_name(policy_mode(approval_policy(
	    t->approval))) : t->approval_mode, t->sandbox, t->agents ? "" :
	    " | agents off");
	if (t->mode == TUI_CONFIRM && t->confirm == TUI_CONFIRM_QUIT &&
	    t->console)
		snprintf(right, sizeof right, "detach (d), or kill %zu running "
		    "session%s and quit? (y/n) ", sessions_running(t->ss),
		    sessions_running(t->ss) == 1 ? "" : "s");
	else if (t->mode == TUI_CONFIRM && t->confirm == TUI_CONFIRM_QUIT)
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
	else if (np > 0 && !t->box_drawn) {
		tui_pending_notice(t, right, sizeof right);
		notice = true;
	} else
		snprintf(right, sizeof right, "%s ? help ", t->prefix_name);
	if (tui_status_same(t, left, right, (np > 0) | notice << 1))
		return;
	attrset(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	fit = tui_fit(right, COLS, &rw);
	right[fit] = '\0';
	x = COLS - rw;
	/* The left side loses whole fields until it fits before x. */
	while (tui_fit(left, x, &lw) < strlen(left) || lw + 1 > x) {
		if ((bar = strrchr(left, '|')) == NULL) {
			left[0] = '\0';
			break;
		}
		*bar = '\0';
	}
	mvaddstr(y, 0, left);
	if (np > 0 && strstr(left, pending) != NULL) {
		/* Waiting requests stand out. */
		px = (int)(strstr(left, pending) - left);
		pl = (int)strlen(pending);
		attrset(A_BOLD);
		mvaddnstr(y, px, pending, pl);
		attrset(A_REVERSE);
	}
	if (notice)
		attrset(A_BOLD);	/* the notice stands out like the count */
	mvaddstr(y, x, right);
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

/*
 * Draw a frame: a view or the panes (and help), the prompt, the status
 * line.  A frame drawn at once within TUI_FRAME_MS of the last whole one
 * draws only the focused pane (the echo the person waits for); the other
 * panes stay dirty for the next whole frame, so their output is drawn at
 * the paced rate whatever the person types.  Returns false for such a
 * partial frame when it left a pane to draw.
 */
/* The focused session's processes and last execs, in the help's box. */
static void
tui_draw_execs(struct tui *t, struct layout_rect area)
{
	struct session	*s = sessions_find(t->ss, t->execs_of);
	char		*text, *p, **lines = NULL, name[64];
	int		 n = 0;

	if (s == NULL) {
		t->mode = TUI_NORMAL;
		return;
	}
	text = session_exec_view(s);
	for (p = text; *p != '\0'; n++) {
		lines = xreallocarray(lines, (size_t)n + 1, sizeof *lines);
		lines[n] = p;
		p += strcspn(p, "\n");
		if (*p == '\n')
			*p++ = '\0';
	}
	snprintf(name, sizeof name, "session %lu: processes and execs",
	    session_id(s));
	help_box(area, name, (const char *const *)lines, n, &t->help_top);
	free(lines);
	free(text);
}

static bool
tui_draw(struct tui *t, bool urgent)
{
	struct layout_rect	 area = { 0, 0, COLS, LINES - 1 };
	int			 i, cy = 0, cx = 0;
	bool			 prompt = false, box, whole, skipped = false;
	uint64_t		 now = util_now_ms();

	if (t->closing)
		return true;
	/* The prompt just closed: what it covered is drawn again. */
	box = t->askbox != NULL && askbox_is_open(t->askbox);
	if (t->box_drawn && !box)
		t->redraw_all = true;
	t->box_drawn = box;
	whole = !urgent || t->mode != TUI_NORMAL || t->redraw_all ||
	    box || t->too_small || now >= t->last_frame_ms + TUI_FRAME_MS;
	if (whole)
		t->last_frame_ms = now;
	if (t->message != NULL && now >= t->message_until) {
		free(t->message);
		t->message = NULL;
	}
	if (t->redraw_all) {
		erase();
		/* Whatever reset the terminal, pastes stay marked. */
		tui_bracketed_paste(t, true);
	}
	if (t->too_small) {
		erase();
		attrset(A_BOLD);
		mvaddnstr(LINES / 2, COLS > 9 ? (COLS - 9) / 2 : 0,
		    "too small", COLS);
		attrset(A_NORMAL);
		curs_set(0);
		refresh();
		t->redraw_all = true;
		return true;
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
			if (whole || i == t->focus)
				tui_draw_pane(t, i, &t->cells, &t->ncells);
			else if (tui_pane_dirty(t->panes[i]))
				skipped = true;
		if (t->mode == TUI_HELP)
			help_draw(area, t->prefix_name, &t->help_top);
		else if (t->mode == TUI_EXECS)
			tui_draw_execs(t, area);
		break;
	}
	if (box)
		prompt = askbox_draw(t->askbox, area);
	if (prompt)
		getyx(stdscr, cy, cx);
	tui_draw_status(t);
	t->redraw_all = t->mode == TUI_HELP || t->mode == TUI_EXECS;
	if (prompt) {
		move(cy, cx);
		curs_set(1);
	} else
		tui_place_cursor(t);
	refresh();
	return whole || !skipped;
}

/*
 * The focused pane's session is the one the loop serves first (its PTY
 * with the person's keys); the one before it no longer is.
 */
static void
tui_watch_focus(struct tui *t)
{
	struct session	*s = NULL, *old;

	if (t->npanes > 0 && t->mode != TUI_HISTORY)
		s = t->panes[t->focus]->s;
	if ((s != NULL ? session_id(s) : 0) == t->watched)
		return;
	if (t->watched != 0 &&
	    (old = sessions_find(t->ss, t->watched)) != NULL)
		session_set_watched(old, false);
	t->watched = s != NULL ? session_id(s) : 0;
	if (s != NULL)
		session_set_watched(s, true);
}

/* Frame timer: draw now. */
static void
tui_frame(struct loop *l, void *arg)
{
	struct tui	*t = arg;
	bool		 urgent = t->frame_now;

	(void)l;
	t->frame_timer = NULL;
	t->frame_now = false;
	if (!tui_enter(t))
		return;		/* detached: drawn whole when back */
	tui_watch_focus(t);
	if (!tui_draw(t, urgent))
		tui_schedule(t);	/* the other panes, paced */
}

void
tui_schedule_now(struct tui *t)
{
	if (t->closing || t->term == NULL ||
	    (t->frame_timer != NULL && t->frame_now))
		return;
	loop_timer_cancel(t->loop, t->frame_timer);
	t->frame_timer = loop_timer_urgent(t->loop, tui_frame, t);
	t->frame_now = true;
}

void
tui_schedule_echo(struct tui *t)
{
	uint64_t	now = util_now_ms(), n;

	/* A bucket of TUI_FRAME_BURST frames, one back every TUI_FRAME_MS. */
	n = (now - t->echo_ms) / TUI_FRAME_MS;
	if (n >= (uint64_t)(TUI_FRAME_BURST - t->echo_frames)) {
		t->echo_frames = TUI_FRAME_BURST;
		t->echo_ms = now;
	} else if (n > 0) {
		t->echo_frames += (int)n;
		t->echo_ms += n * TUI_FRAME_MS;
	}
	if (t->echo_frames > 0 && !(t->frame_timer != NULL && t->frame_now)) {
		t->echo_frames--;
		tui_schedule_now(t);
	} else
		tui_schedule(t);
}

/*
 * Ask for a frame: at once if the last one is old enough (the leading
 * edge), else when it is.
 */
void
tui_schedule(struct tui *t)
{
	uint64_t	now = util_now_ms();

	if (t->frame_timer != NULL || t->closing || t->term == NULL)
		return;
	if (now >= t->last_frame_ms + TUI_FRAME_MS) {
		tui_schedule_now(t);
		return;
	}
	t->frame_timer = loop_timer_add(t->loop,
	    t->last_frame_ms + TUI_FRAME_MS - now, tui_frame, t);
}
