/*
 * views.c - the views over the panes and the keys that belong to them:
 * the history list, scroll mode on a pane, a recorded output, a replay in
 * a new pane, the approval prompt; opening them and going back.
 *
 * Invariants: t->scroll is set only in scroll mode (TUI_SCROLL) and is
 * freed on the way out; mouse reports are on only while the history list
 * or scroll mode (an output view too) is shown, or always with --mouse.
 * Of the front end's files only panes.c and draw.c are called from here.
 */
#include "tui/tui-int.h"

#include <limits.h>
#include <stdlib.h>

#include <curses.h>

#include "base/quote.h"
#include "session/session.h"
#include "base/util.h"
#include "tui/askbox.h"
#include "tui/tui-history.h"
#include "tui/keys.h"
#include "tui/tui-replay.h"
#include "tui/scroll.h"

/*
 * Mouse reports while a view over the panes is open (the wheel, a click
 * on the history), and over the panes too when the person asked for the
 * mouse (--mouse): reporting takes the terminal's own selection away.
 */
void
tui_mouse(struct tui *t, bool view)
{
	mousemask(view || t->mouse ? (BUTTON1_PRESSED | BUTTON4_PRESSED |
	    BUTTON5_PRESSED) : 0, NULL);
}

/* Leave history or scroll mode for the panes. */
void
tui_back_to_panes(struct tui *t)
{
	scroll_free(t->scroll);
	t->scroll = NULL;
	t->mode = TUI_NORMAL;
	tui_mouse(t, false);
	t->redraw_all = true;
}

/* Open the history pane. */
void
tui_open_history(struct tui *t)
{
	if (t->history == NULL)
		t->history = tui_history_new(t->history_path, t->ss);
	else
		tui_history_reload(t->history);
	scroll_free(t->scroll);
	t->scroll = NULL;
	t->mode = TUI_HISTORY;
	tui_mouse(t, true);
}

/* Open scroll mode on the focused pane. */
void
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
	cmd = quote_argv(session_argv(s));
	title = xasprintf(" scroll: #%lu %s", session_id(s), cmd);
	t->scroll = scroll_new(session_screen(s), false, title);
	free(title);
	free(cmd);
	t->scroll_from_history = false;
	t->mode = TUI_SCROLL;
	tui_mouse(t, true);
}

/* Open the output of the selected history entry. */
void
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
	scroll_home(t->scroll);		/* an output is read from its start */
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
	int		 i;

	if ((i = tui_find_replay(t, r)) < 0)
		return;
	p = t->panes[i];
	if (p->rect.w == 0)
		return;
	tui_pane_damage(p, srow, erow, 0, INT_MAX);
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
void
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
void
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
void
tui_askbox_key(struct tui *t, const struct keys_event *ev)
{
	char	*message = NULL;

	askbox_key(t->askbox, ev, util_now_ms(), &message);
	if (message != NULL) {
		tui_message(t, "%s", message);
		free(message);
	}
	tui_schedule(t);
}

/*
 * The mouse over the panes (--mouse): a click focuses the pane under it;
 * the wheel up opens scroll mode on it and scrolls, as tmux does.
 */
void
tui_mouse_panes(struct tui *t, const struct keys_event *ev)
{
	int	i = tui_pane_at(t, ev->y, ev->x);

	if (i < 0)
		return;
	tui_focus(t, i);
	if (ev->type == KEYS_WHEEL_UP && t->panes[i]->s != NULL) {
		tui_open_scroll(t);
		if (t->scroll != NULL)
			scroll_key(t->scroll, ev);
	}
}
