/*
 * tui.c - the front end object (see tui.h): its life (new, run, free;
 * a console's attach and detach) and what it subscribes to (the
 * sessions, the approval queue, the terminal's input, a tick).
 *
 * Flow control: screen damage only marks rows of a pane dirty and asks
 * for a frame; frames the person waits for (after a key, an approval
 * event, the focused pane's echo) are drawn at once, others at most once
 * per TUI_FRAME_MS, and draw only dirty rows (curses then sends only the
 * cells that changed).  The terminal's input and the focused pane's PTY
 * are high-priority fds, so keys and their echo are handled before any
 * other session's output in every loop turn.
 *
 * A pane shows a screen and a title: either a session's (live) or a
 * replay's (a recording played back, tui/tui-replay.h); both are drawn by
 * the same code, only the title and the keys differ.
 *
 * The rest of the front end shares struct tui through tui/tui-int.h
 * (where its invariants are) and sits below this file: input.c does what
 * the person's keys say (the modes, the prefix key and its commands, y/n
 * questions), views.c opens and leaves the views over the panes, panes.c
 * keeps the panes (focus, tiling, sizes, new sessions), draw.c paces and
 * draws the frames, tui-term.c holds the terminals they draw on.  None of
 * them calls back into this file.
 */
#include "tui/tui.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>

#include "control/approval.h"
#include "base/loop.h"
#include "session/session.h"
#include "base/util.h"
#include "tui/askbox.h"
#include "tui/tui-history.h"
#include "tui/keys.h"
#include "tui/render.h"
#include "tui/tui-replay.h"
#include "tui/scroll.h"
#include "tui/tui-int.h"

/* Titles (durations) and messages are refreshed every second. */
#define TUI_TICK_MS		1000

/* The default prefix key: C-g (tui_opts.prefix changes it). */
#define TUI_PREFIX_DEFAULT	'g'

/* The front end on the person's own terminal (no server), if any. */
static struct tui	*tui_own;

void
tui_restore_terminal(void)
{
	if (tui_own == NULL || tui_own->term == NULL)
		return;
	tui_term_enter(tui_own->term);
	if (!isendwin()) {
		/* Bracketed paste off, then leave curses. */
		tui_bracketed_paste(tui_own, false);
		endwin();
	}
}

/* The bell, on t's terminal only. */
static void
tui_beep(struct tui *t)
{
	if (!t->closing && tui_enter(t))
		beep();
}

/* Every second: durations in titles, expiring messages. */
static void
tui_tick(struct loop *l, void *arg)
{
	struct tui	*t = arg;
	int		 i;
	bool		 changed = t->message != NULL;

	t->tick_timer = loop_timer_add(l, TUI_TICK_MS, tui_tick, t);
	if (!tui_enter(t))
		return;		/* detached: nothing to refresh */
	for (i = 0; i < t->npanes; i++)
		if (t->panes[i]->s != NULL &&
		    !session_is_done(t->panes[i]->s)) {
			t->panes[i]->title_dirty = true;
			changed = true;
		}
	if (t->mode == TUI_HISTORY && t->history != NULL) {
		tui_history_reload(t->history);
		changed = true;
	}
	/* Nothing running, nothing to expire: no frame. */
	if (changed)
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
	 * An agent's session never takes the keys from the person, not even
	 * one the person just approved: they stay where they were typing.
	 * Nor does one another console opened.
	 */
	if (t->starting || t->npanes == 1)
		t->focus = t->npanes - 1;
	else {
		t->panes[t->npanes - 1]->title_dirty = true;
		if (!session_is_agent(s))
			tui_message(t, "session #%lu started in another "
			    "console", session_id(s));
		else if (session_request(s) != 0)
			tui_message(t, "request %lu -> session #%lu started",
			    session_request(s), session_id(s));
		else
			tui_message(t, "agent session #%lu started",
			    session_id(s));
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
	int		 i;

	if ((i = tui_find(t, s)) < 0)
		return;
	p = t->panes[i];
	if (p->rect.w == 0)
		return;		/* not visible: drawn whole when shown */
	tui_pane_damage(p, srow, erow, scol, ecol);
	/* The focused pane's echo at once; the others' output paced. */
	if (i == t->focus && t->mode == TUI_NORMAL)
		tui_schedule_echo(t);
	else
		tui_schedule(t);
}

static void
tui_ev_bell(void *user, struct session *s)
{
	struct tui	*t = user;

	(void)s;
	tui_beep(t);
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

/* A running session's recording failed (a full disk): say so at once. */
static void
tui_ev_trouble(void *user, struct session *s)
{
	struct tui	*t = user;
	int		 i;

	tui_message(t, "session #%lu: %s", session_id(s), session_error(s));
	if ((i = tui_find(t, s)) >= 0)
		t->panes[i]->title_dirty = true;
	tui_beep(t);
	tui_schedule_now(t);
}

/* A finished session is forgotten (by this console or another). */
static void
tui_ev_forgotten(void *user, struct session *s)
{
	struct tui	*t = user;
	int		 i;

	if ((i = tui_find(t, s)) < 0)
		return;
	tui_remove_pane(t, i);
	tui_schedule(t);
}

static const struct session_events tui_events = {
	.created = tui_ev_created,
	.damage = tui_ev_damage,
	.bell = tui_ev_bell,
	.props = tui_ev_props,
	.ended = tui_ev_ended,
	.forgotten = tui_ev_forgotten,
	.trouble = tui_ev_trouble,
};

/* Approval events: tell the person; the prompt opens only when asked. */
static void
tui_ap_pending(void *user, struct approval_request *r)
{
	struct tui	*t = user;

	if (t->closing)
		return;
	/*
	 * Announce it (bell, status line) but leave the keyboard where it
	 * is: the prompt opens only on a deliberate act (prefix, then a), so
	 * what the person was typing into a pane can never decide it.
	 */
	(void)r;
	tui_beep(t);
	tui_schedule_now(t);
}

static void
tui_ap_changed(void *user, struct approval_request *r)
{
	struct tui	*t = user;

	(void)r;
	if (!t->closing)
		tui_schedule_now(t);
}

static const struct approval_events tui_approval_events = {
	.pending = tui_ap_pending,
	.decided = tui_ap_changed,
	.withdrawn = tui_ap_changed,
};

/* What every front end starts with, on terminal tt (entered). */
static struct tui *
tui_create(struct loop *loop, struct sessions *ss, const struct tui_opts *o,
    struct tui_term *tt)
{
	struct tui	*t;

	t = xcalloc(1, sizeof *t);
	t->loop = loop;
	t->ss = ss;
	t->term = tt;
	tui_bracketed_paste(t, true);	/* pastes are marked */
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
		askbox_set_guards(t->askbox, sandbox_guard_note(o->sandbox));
		approval_subscribe(t->approval, &tui_approval_events, t);
	}
	t->history_path = xstrdup(o->history_path);
	t->quit_when_done = o->quit_when_done;
	t->mouse = o->mouse;
	tui_mouse(t, false);
	t->scrollback = o->scrollback;
	t->envp = session_environ(TUI_SESSION_TERM, false);
	t->redraw_all = true;
	sessions_subscribe(ss, &tui_events, t);
	t->tick_timer = loop_timer_add(loop, TUI_TICK_MS, tui_tick, t);
	if (o->notice != NULL)
		tui_message(t, "%s", o->notice);
	return t;
}

struct tui *
tui_new(struct loop *loop, struct sessions *ss, const struct tui_opts *o,
    char **cause)
{
	struct tui_term	*tt;
	struct tui	*t;

	if ((tt = tui_term_own(cause)) == NULL)
		return NULL;
	util_set_fatal_hook(tui_restore_terminal);
	t = tui_create(loop, ss, o, tt);
	tui_own = t;
	loop_add_fd(loop, STDIN_FILENO, POLLIN, LOOP_PRIO_HIGH, tui_input, t);
	tui_relayout(t);
	return t;
}

/* A console's name and rights. */
static void
tui_console_set(struct tui *t, const struct tui_console *c)
{
	char	*by;

	t->readonly = c->readonly;
	free(t->by);
	t->by = xstrdup(c->name != NULL ? c->name : "console");
	if (t->askbox != NULL) {
		by = c->by != NULL ? xstrdup(c->by) :
		    xasprintf("user (%s)", t->by);
		askbox_set_by(t->askbox, by);
		free(by);
	}
}

struct tui *
tui_new_console(struct loop *loop, struct sessions *ss,
    const struct tui_opts *o, const struct tui_console *c,
    const struct tui_console_hooks *hooks, void *arg, char **cause)
{
	struct tui_term	*tt;
	struct tui	*t;
	struct tui_pane	*p;
	size_t		 i;

	if ((tt = tui_term_remote(c->term, c->rows, c->cols, cause)) == NULL)
		return NULL;
	t = tui_create(loop, ss, o, tt);
	t->console = true;
	t->hooks = *hooks;
	t->hooks_arg = arg;
	tui_console_set(t, c);
	/* The sessions already there, each in a pane; the newest focused. */
	for (i = 0; i < sessions_count(ss); i++) {
		p = xcalloc(1, sizeof *p);
		p->s = sessions_at(ss, i);
		t->panes = xreallocarray(t->panes, (size_t)t->npanes + 1,
		    sizeof *t->panes);
		t->panes[t->npanes++] = p;
		t->focus = t->npanes - 1;
	}
	tui_relayout(t);
	tui_schedule_now(t);
	return t;
}

void
tui_detach(struct tui *t, struct buf *out)
{
	if (t->term == NULL)
		return;
	loop_timer_cancel(t->loop, t->frame_timer);
	t->frame_timer = NULL;
	t->frame_now = false;
	tui_enter(t);
	tui_bracketed_paste(t, false);
	tui_term_release(t->term);
	if (out != NULL)
		tui_term_take(t->term, out);
	else {
		struct buf	drop = { 0 };

		tui_term_take(t->term, &drop);
		buf_free(&drop);
	}
	t->term = NULL;
	if (t->watched != 0) {
		struct session	*s = sessions_find(t->ss, t->watched);

		if (s != NULL)
			session_set_watched(s, false);
		t->watched = 0;
	}
	tui_relayout(t);	/* its panes bind no session's size now */
}

int
tui_attach(struct tui *t, const struct tui_console *c, char **cause)
{
	if (t->term != NULL) {
		*cause = xstrdup("console already attached");
		return -1;
	}
	if ((t->term = tui_term_remote(c->term, c->rows, c->cols,
	    cause)) == NULL)
		return -1;
	tui_console_set(t, c);
	tui_bracketed_paste(t, true);
	tui_mouse(t, t->mode == TUI_HISTORY || t->mode == TUI_SCROLL);
	t->redraw_all = true;
	tui_relayout(t);
	tui_schedule_now(t);
	return 0;
}

bool
tui_attached(const struct tui *t)
{
	return t->term != NULL;
}

void
tui_console_input(struct tui *t, const void *data, size_t len)
{
	const char	*p = data;
	size_t		 n;

	/* In pieces the pipe takes, each read by curses before the next. */
	while (len > 0 && t->term != NULL) {
		n = len < 4096 ? len : 4096;
		if (tui_term_keys(t->term, p, n) != 0)
			break;
		tui_input(t->loop, -1, POLLIN, t);
		p += n;
		len -= n;
	}
}

void
tui_console_resize(struct tui *t, int rows, int cols)
{
	if (t->term == NULL)
		return;
	tui_term_resize(t->term, rows, cols);
	tui_relayout(t);
	tui_schedule_now(t);
}

void
tui_console_redraw(struct tui *t)
{
	if (!tui_enter(t))
		return;
	clearok(curscr, TRUE);
	t->redraw_all = true;
	tui_schedule_now(t);
}

void
tui_console_output(struct tui *t, struct buf *out)
{
	if (t->term != NULL)
		tui_term_take(t->term, out);
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
	if (!t->console)
		loop_del_fd(t->loop, STDIN_FILENO);
	loop_timer_cancel(t->loop, t->frame_timer);
	loop_timer_cancel(t->loop, t->tick_timer);
	loop_timer_cancel(t->loop, t->tidy_timer);
	t->frame_timer = t->tick_timer = t->tidy_timer = NULL;
	tui_restore_terminal();
	return 0;
}

void
tui_status(struct tui *t, const char *line)
{
	tui_message(t, "%s", line);
	tui_schedule(t);
}

void
tui_free(struct tui *t)
{
	int	i;

	if (t == NULL)
		return;
	if (!t->closing) {
		if (!t->console)
			loop_del_fd(t->loop, STDIN_FILENO);
		loop_timer_cancel(t->loop, t->frame_timer);
		loop_timer_cancel(t->loop, t->tick_timer);
		loop_timer_cancel(t->loop, t->tidy_timer);
	}
	if (t->console)
		tui_detach(t, NULL);
	else {
		tui_restore_terminal();
		tui_own = NULL;
	}
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
	free(t->status_key);
	free(t->sandbox);
	free(t->approval_mode);
	askbox_free(t->askbox);
	free(t->history_path);
	free(t->by);
	free(t);
}
