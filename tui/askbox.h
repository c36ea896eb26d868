/*
 * askbox.h - the modal approval prompt: one waiting request of the
 * approval queue at a time, with everything a person needs to decide it,
 * and the keys that decide it.
 *
 * The box keeps only the number of the request it shows (requests belong
 * to the queue and can be decided or withdrawn by someone else at any
 * time); whenever that request is gone it moves on to the next waiting
 * one, or closes.  Keys:
 *
 *	y		approve once
 *	a		approve and remember: edit the rule, Tab toggles saving
 *			it to the rules file, Enter shows it once more, y
 *			approves
 *	n		deny: type an optional reason (sent to the agent), Enter
 *	e		edit the command, Enter shows the edited command once
 *			more exactly as it will run, y approves it
 *	Esc		later: defer this request (the next one shows, if any)
 *	Tab, Left/Right	the next / previous waiting request
 *
 * A host a filtered network's proxy asks for (a connect request) takes o
 * (this connection only), y (while its sandbox lives), a (its exact rule,
 * shown, never edited, saved; y approves) and n; no e.
 *
 * Nothing is approved by Enter alone: an edited command or rule always
 * needs its own y.  The console opens the box only on a deliberate act
 * (its prefix key then a), never because a request arrived.  Deciding keys
 * typed in the first moments after a request is shown are still ignored
 * (see ASKBOX_GUARD_MS), for the request that takes the place of one
 * decided elsewhere.  Keys from inside a bracketed paste go through
 * askbox_pasted_key(), which never decides anything.
 */
#ifndef PTYVISOR_ASKBOX_H
#define PTYVISOR_ASKBOX_H

#include <stdbool.h>
#include <stdint.h>

#include "tui/keys.h"
#include "tui/layout.h"

/* Deciding keys are ignored this long after a request is shown. */
#define ASKBOX_GUARD_MS	500

struct approval;
struct askbox;

enum askbox_stage {
	ASKBOX_CHOOSE,		/* y a n e Esc */
	ASKBOX_RULE,		/* editing the rule to remember */
	ASKBOX_REASON,		/* typing the reason of a denial */
	ASKBOX_EDIT,		/* editing the command */
	ASKBOX_CONFIRM,		/* the edited command or rule: y approves */
};

/* What a key did (for the caller's status line and focus). */
enum askbox_action {
	ASKBOX_NONE,
	ASKBOX_APPROVED,	/* a session was (or will be) started */
	ASKBOX_DENIED,
	ASKBOX_DEFERRED,
};

/* A prompt over queue a (borrowed).  Never NULL; starts closed. */
struct askbox	*askbox_new(struct approval *a);

/*
 * What the guarded paths lack where requests run (taken; NULL: nothing),
 * shown in every request's box: sandbox_guard_note().
 */
void		 askbox_set_guards(struct askbox *b, char *note);
/* Who decides with this prompt, for the history (default "user"). */
void		 askbox_set_by(struct askbox *b, const char *by);
void		 askbox_free(struct askbox *b);

/*
 * Open on the oldest waiting request (all deferrals forgotten); false when
 * nothing waits.
 */
bool		 askbox_open(struct askbox *b);

/*
 * Request id started waiting: open on it when the box is closed (false:
 * the box was open already and keeps what it shows).
 */
bool		 askbox_arrived(struct askbox *b, uint64_t id);

/* Whether the box is showing; it closes itself when nothing waits. */
bool		 askbox_is_open(struct askbox *b);

/* The request shown (0 when closed) and the stage. */
uint64_t		 askbox_shown(struct askbox *b);
enum askbox_stage	 askbox_stage(const struct askbox *b);

/*
 * Handle one key at now_ms (util_now_ms(); the guard compares it with
 * when the request was shown).  *message (caller frees) may be set to a
 * line for the status: what was decided, or why nothing was.
 */
enum askbox_action	 askbox_key(struct askbox *b,
			     const struct keys_event *ev, uint64_t now_ms,
			     char **message);

/*
 * A key that arrived inside a bracketed paste: printable text goes into a
 * text field being edited; everything else (Enter, y, Esc...) is dropped.
 * A paste never decides, defers or opens anything.
 */
void		askbox_pasted_key(struct askbox *b,
		    const struct keys_event *ev);

/*
 * Draw the box centred in area (curses).  Returns true when a text field
 * is being edited, with the cursor left at its end.
 */
bool	askbox_draw(struct askbox *b, struct layout_rect area);

#endif
