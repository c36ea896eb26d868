/*
 * input.c - what the person's keys do in the front end: the terminal's
 * input read key by key (tui_input), each key handled by the mode it
 * comes in (the panes, the prefix key and its commands, a y/n question,
 * help, the history list, scroll mode, the approval prompt), pastes kept
 * apart from commands, and quitting.
 *
 * Invariants: a paste is never a command nor a decision: its markers and
 * what comes between them reach the focused session, a field of the
 * approval prompt, or nothing; a read-only console sends no key to any
 * session and takes only the prefix commands that look
 * (tui_readonly_allows); nothing is decided on a screen too small to show
 * the approval prompt.  Of the files that share struct tui, views.c,
 * panes.c, draw.c and tui-term.c are called from here; only tui.c calls in.
 */
#include "tui/tui-int.h"

#include <poll.h>
#include <stdlib.h>

#include <curses.h>

#include "base/loop.h"
#include "session/session.h"
#include "tui/askbox.h"
#include "tui/tui-history.h"
#include "tui/keys.h"
#include "tui/scroll.h"

/*
 * Quit at the end of this loop turn: the person asked, the terminal went
 * away, or (from outside this file) every session ended with
 * quit_when_done, or a signal came.
 */
void
tui_quit(struct tui *t)
{
	t->quit = true;
	loop_stop(t->loop);
}

/* PREFIX q: quit, or for a console leave (asked when sessions run). */
static void
tui_ask_quit(struct tui *t)
{
	if (sessions_running(t->ss) == 0 || t->readonly) {
		if (t->console)
			t->hooks.quit(t->hooks_arg, false);
		else
			tui_quit(t);
		return;
	}
	t->mode = TUI_CONFIRM;
	t->confirm = TUI_CONFIRM_QUIT;
}

/* What a read-only console may do after the prefix: look, never act. */
static bool
tui_readonly_allows(uint32_t ch)
{
	return ch == 'd' || ch == 'q' || ch == 'z' || ch == 'n' ||
	    ch == 'p' || ch == 'h' || ch == '[' || ch == '?' || ch == 'r' ||
	    ch == 'e' ||
	    (ch >= '0' && ch <= '9');
}

/* A command after the prefix key. */
static void
tui_command(struct tui *t, const struct keys_event *ev)
{
	struct session	*s = t->npanes > 0 ? t->panes[t->focus]->s : NULL;
	char		*cause = NULL, name[32];

	if (ev->type == KEYS_KEY && ev->key == SCREEN_KEY_ESCAPE)
		return;
	/* An arrow focuses the pane that way, as tmux's do. */
	if (ev->type == KEYS_KEY && ev->mods == 0) {
		switch (ev->key) {
		case SCREEN_KEY_LEFT:	tui_focus_toward(t, -1, 0); return;
		case SCREEN_KEY_RIGHT:	tui_focus_toward(t, 1, 0); return;
		case SCREEN_KEY_UP:	tui_focus_toward(t, 0, -1); return;
		case SCREEN_KEY_DOWN:	tui_focus_toward(t, 0, 1); return;
		}
	}
	if (ev->type != KEYS_CHAR || ev->mods != 0)
		goto unknown;
	if (t->readonly && !tui_readonly_allows(ev->ch)) {
		tui_message(t, "read-only console: watching only (%s d "
		    "detaches)", t->prefix_name);
		return;
	}
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
		t->help_top = 0;
		t->redraw_all = true;
		return;
	case 'e':
		if (s == NULL) {
			tui_message(t, "no session to show");
			return;
		}
		t->mode = TUI_EXECS;
		t->execs_of = session_id(s);
		t->help_top = 0;
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
		tui_ask_quit(t);
		return;
	case 'd':
		if (t->console)
			t->hooks.detach(t->hooks_arg);
		else
			tui_message(t, "no server to detach from (this console "
			    "runs without a socket)");
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
	/* A console may leave its sessions running instead. */
	if (t->console && t->confirm == TUI_CONFIRM_QUIT &&
	    ev->type == KEYS_CHAR && ev->ch == 'd') {
		t->hooks.detach(t->hooks_arg);
		return;
	}
	if (!yes)
		return;
	if (t->confirm == TUI_CONFIRM_QUIT) {
		if (t->console)
			t->hooks.quit(t->hooks_arg, true);
		else
			tui_quit(t);
		return;
	}
	if ((s = sessions_find(t->ss, t->confirm_id)) != NULL &&
	    !session_is_done(s))
		session_kill(s);
}

/* A key while help is shown. */
static void
tui_help_key(struct tui *t, const struct keys_event *ev)
{
	/* Scroll keys move a help that does not fit; others close. */
	if (ev->type == KEYS_KEY && ev->key == SCREEN_KEY_DOWN)
		t->help_top++;
	else if (ev->type == KEYS_KEY && ev->key == SCREEN_KEY_UP)
		t->help_top--;
	else if (ev->type == KEYS_CHAR && ev->mods == 0 &&
	    (ev->ch == 'j' || ev->ch == 'k' || ev->ch == ' ' ||
	    ev->ch == 'b'))
		t->help_top += ev->ch == 'j' ? 1 : ev->ch == 'k' ? -1 :
		    ev->ch == ' ' ? LINES / 2 : -(LINES / 2);
	else
		t->mode = TUI_NORMAL;
	t->redraw_all = true;
}

/* A key in scroll mode or an output view (r replays one from history). */
static void
tui_scroll_mode_key(struct tui *t, const struct keys_event *ev)
{
	if (ev->type == KEYS_CLICK)
		return;		/* nothing to click on in a pager */
	if (t->scroll_from_history && ev->type == KEYS_CHAR &&
	    ev->mods == 0 && ev->ch == 'r') {
		tui_open_replay(t);
		return;
	}
	switch (scroll_key(t->scroll, ev)) {
	case SCROLL_QUIT:
		if (t->scroll_from_history) {
			scroll_free(t->scroll);
			t->scroll = NULL;
			t->mode = TUI_HISTORY;
		} else
			tui_back_to_panes(t);
		break;
	case SCROLL_COPY:
		tui_clipboard(t, scroll_copied(t->scroll));
		break;
	case SCROLL_KEEP:
		break;
	}
}

/*
 * One key from the person.  Returns whether it only went to the focused
 * session: then nothing on the screen changed until the program answers.
 */
static bool
tui_key(struct tui *t, const struct keys_event *ev)
{
	struct session	*s = t->npanes > 0 ? t->panes[t->focus]->s : NULL;
	bool		 marker;

	if (ev->type == KEYS_RESIZE)
		return false;
	/* Pastes are followed in every mode: pasted text is no command. */
	marker = ev->type == KEYS_PASTE_START || ev->type == KEYS_PASTE_END;
	if (marker)
		t->pasting = ev->type == KEYS_PASTE_START;
	if (t->askbox != NULL && askbox_is_open(t->askbox)) {
		/* A paste is text for a field at most, never a decision. */
		if (marker)
			return false;
		if (t->pasting)
			askbox_pasted_key(t->askbox, ev);
		/* Nothing is decided on a screen too small to show it. */
		else if (!t->too_small)
			tui_askbox_key(t, ev);
		return false;
	}
	/* Outside the panes (help, history, scroll...) a paste is dropped. */
	if ((marker || t->pasting) && t->mode != TUI_NORMAL)
		return false;
	switch (t->mode) {
	case TUI_HELP:
	case TUI_EXECS:
		tui_help_key(t, ev);
		return false;
	case TUI_CONFIRM:
		tui_answer(t, ev);
		return false;
	case TUI_PREFIX_WAIT:
		t->mode = TUI_NORMAL;
		tui_command(t, ev);
		return false;
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
		return false;
	case TUI_SCROLL:
		tui_scroll_mode_key(t, ev);
		return false;
	case TUI_NORMAL:
		break;
	}
	if (ev->type == KEYS_CLICK || ev->type == KEYS_WHEEL_UP ||
	    ev->type == KEYS_WHEEL_DOWN) {
		/* A watcher's wheel could reach a program: clicks only. */
		if (!t->readonly || ev->type == KEYS_CLICK)
			tui_mouse_panes(t, ev);
		return false;
	}
	if (!t->pasting && !marker && ev->type == KEYS_CHAR && ev->mods == 0 &&
	    ev->ch == t->prefix) {
		t->mode = TUI_PREFIX_WAIT;
		return false;
	}
	if (t->npanes > 0 && t->panes[t->focus]->replay != NULL) {
		if (!t->pasting && !marker)
			tui_replay_input(t, ev);
		return false;
	}
	if (t->readonly) {
		if (!marker)
			tui_message(t, "read-only console: keys reach no "
			    "session (%s d detaches)", t->prefix_name);
		return false;
	}
	/* The markers reach the program when it asked for them (mode 2004). */
	if (s == NULL || session_is_done(s))
		return false;
	keys_send(s, ev);
	return true;
}

/* The terminal has input: handle every key it holds. */
void
tui_input(struct loop *l, int fd, short revents, void *arg)
{
	struct tui		*t = arg;
	struct keys_event	 ev;
	bool			 changed = false;

	(void)l;
	(void)fd;
	if (revents & (POLLHUP | POLLERR | POLLNVAL)) {
		tui_quit(t);	/* the terminal went away */
		return;
	}
	if (!tui_enter(t))
		return;
	/* A console's keys may detach it: then its terminal is gone. */
	sessions_input_hold(t->ss, true);
	while (!t->quit && t->term != NULL && keys_read(&ev)) {
		if (!tui_key(t, &ev))
			changed = true;
		if (t->term != NULL)
			tui_enter(t);
	}
	sessions_input_hold(t->ss, false);
	/*
	 * Keys that only went to the focused session change nothing on the
	 * screen: its echo asks for the frame.  Drawing one here would hold
	 * up the echo itself (the kernel's worker that carries the keys to
	 * the program waits for this CPU).
	 */
	if (changed)
		tui_schedule_now(t);
}
