/*
 * askbox.c - the modal approval prompt (see askbox.h): which request it
 * shows, and what each key does to it.  Drawing is in askbox-draw.c; this
 * file never calls curses.
 *
 * Invariants: when open, id names a request that was waiting the last
 * time askbox_sync ran, and every decision re-checks it with
 * approval_find first (someone else may have decided it meanwhile); the
 * text field is used only in the RULE, REASON and EDIT stages; deferred
 * holds numbers of requests the person put off, and is forgotten when
 * the box is opened by hand.  Only 'y' (and a host's 'o') in the CHOOSE
 * stage or 'y' in the CONFIRM stage approves: the CONFIRM stage shows the
 * edited command (confirm_argv, the words that will run) or the rule (the
 * field) once more first.
 */
#include "tui/askbox.h"

#include <stdlib.h>
#include <string.h>

#include "base/quote.h"
#include "control/approval.h"
#include "policy/policy.h"
#include "term/screen.h"
#include "policy/shsplit.h"
#include "base/util.h"
#include "tui/prompt.h"

#include "tui/askbox-int.h"

struct askbox *
askbox_new(struct approval *a)
{
	struct askbox	*b = xcalloc(1, sizeof *b);

	b->a = a;
	b->by = xstrdup("user");
	return b;
}

void
askbox_set_guards(struct askbox *b, char *note)
{
	free(b->guards);
	b->guards = note;
}

void
askbox_set_by(struct askbox *b, const char *by)
{
	free(b->by);
	b->by = xstrdup(by);
}

void
askbox_free(struct askbox *b)
{
	if (b == NULL)
		return;
	free(b->error);
	free(b->guards);
	free(b->deferred);
	free(b->by);
	strv_free(b->confirm_argv);
	free(b);
}

/* Leave the CONFIRM stage's command, if any. */
static void
askbox_unconfirm(struct askbox *b)
{
	strv_free(b->confirm_argv);
	b->confirm_argv = NULL;
}

/* Whether request id was put off. */
static bool
askbox_is_deferred(const struct askbox *b, uint64_t id)
{
	size_t	i;

	for (i = 0; i < b->ndeferred; i++)
		if (b->deferred[i] == id)
			return true;
	return false;
}

/* Show request id from now on, in the CHOOSE stage (no longer deferred). */
static void
askbox_show(struct askbox *b, uint64_t id)
{
	size_t	i;

	i = 0;
	while (i < b->ndeferred) {
		if (b->deferred[i] == id)
			b->deferred[i] = b->deferred[--b->ndeferred];
		else
			i++;
	}
	if (b->open && b->id == id)
		return;
	b->open = true;
	b->id = id;
	b->shown_ms = util_now_ms();
	b->stage = ASKBOX_CHOOSE;
	askbox_unconfirm(b);
	b->save = false;
	memset(&b->field, 0, sizeof b->field);
	free(b->error);
	b->error = NULL;
}

/*
 * Make the box true to the queue: when the request shown is gone or put
 * off, show the oldest waiting one not deferred, or close.
 */
void
askbox_sync(struct askbox *b)
{
	struct approval_request	*r;
	size_t			 i, n;

	if (!b->open || (approval_find(b->a, b->id) != NULL &&
	    !askbox_is_deferred(b, b->id)))
		return;
	n = approval_pending_count(b->a);
	for (i = 0; i < n; i++) {
		r = approval_pending_at(b->a, i);
		if (!askbox_is_deferred(b, r->id)) {
			askbox_show(b, r->id);
			return;
		}
	}
	b->open = false;
	b->id = 0;
	b->stage = ASKBOX_CHOOSE;
	askbox_unconfirm(b);
}

bool
askbox_open(struct askbox *b)
{
	b->ndeferred = 0;
	if (approval_pending_count(b->a) == 0)
		return false;
	if (!b->open || approval_find(b->a, b->id) == NULL)
		askbox_show(b, approval_pending_at(b->a, 0)->id);
	/* Opened on purpose: what it shows was asked for, no guard. */
	b->shown_ms = 0;
	return true;
}

bool
askbox_arrived(struct askbox *b, uint64_t id)
{
	askbox_sync(b);
	if (b->open || approval_find(b->a, id) == NULL)
		return false;
	askbox_show(b, id);
	return true;
}

bool
askbox_is_open(struct askbox *b)
{
	askbox_sync(b);
	return b->open;
}

uint64_t
askbox_shown(struct askbox *b)
{
	askbox_sync(b);
	return b->open ? b->id : 0;
}

enum askbox_stage
askbox_stage(const struct askbox *b)
{
	return b->stage;
}

/*
 * Start editing the field with text (may be NULL) in stage st; false (and
 * an error shown) when the text is too long for the field.
 */
static bool
askbox_field(struct askbox *b, enum askbox_stage st, const char *text)
{
	size_t	len = text != NULL ? strlen(text) : 0;

	free(b->error);
	b->error = NULL;
	if (len >= sizeof b->field.buf) {
		b->error = xasprintf("too long to edit here (%zu bytes, at most "
		    "%zu)", len, sizeof b->field.buf - 1);
		return false;
	}
	memset(&b->field, 0, sizeof b->field);
	memcpy(b->field.buf, text != NULL ? text : "", len);
	b->field.len = len;
	b->stage = st;
	return true;
}

/* Keep cause as the error shown in the box. */
static void
askbox_fail(struct askbox *b, char *cause)
{
	free(b->error);
	b->error = cause;
}

/* Move to the next (d = 1) or previous (d = -1) waiting request. */
static void
askbox_cycle(struct askbox *b, int d)
{
	size_t	i, n = approval_pending_count(b->a);

	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		if (approval_pending_at(b->a, i)->id == b->id)
			break;
	i = (i + n + (size_t)(d > 0 ? 1 : n - 1)) % n;
	askbox_show(b, approval_pending_at(b->a, i)->id);
}

/* A key in the CHOOSE stage. */
static enum askbox_action
askbox_choose_key(struct askbox *b, struct approval_request *r,
    const struct keys_event *ev, uint64_t now_ms, char **message)
{
	char		*cause = NULL, *text;
	uint32_t	 ch = ev->type == KEYS_CHAR && ev->mods == 0 ? ev->ch : 0;
	uint64_t	 id = r->id;
	bool		 host;

	if (ev->type == KEYS_KEY && ev->key == SCREEN_KEY_ESCAPE) {
		b->deferred = xreallocarray(b->deferred, b->ndeferred + 1,
		    sizeof *b->deferred);
		b->deferred[b->ndeferred++] = id;
		askbox_sync(b);
		*message = xasprintf("request #%llu waits for later",
		    (unsigned long long)id);
		return ASKBOX_DEFERRED;
	}
	if (ch == '\t' || (ev->type == KEYS_KEY &&
	    ev->key == SCREEN_KEY_RIGHT)) {
		askbox_cycle(b, 1);
		return ASKBOX_NONE;
	}
	if (ev->type == KEYS_KEY && ev->key == SCREEN_KEY_LEFT) {
		askbox_cycle(b, -1);
		return ASKBOX_NONE;
	}
	/* A host: o this once, y the session, a a rule, n; no edit. */
	/* A program's exec: no edit either, it execs what it asked. */
	if (r->connect ? ch != 'o' && ch != 'y' && ch != 'a' && ch != 'n' :
	    ch != 'y' && ch != 'a' && ch != 'n' &&
	    (ch != 'e' || r->exec_check)) {
		if (ev->type == KEYS_CHAR || ev->type == KEYS_KEY)
			*message = xstrdup(r->connect ? ASKBOX_HOST_KEYS :
			    r->exec_check ? "y let it run  a run and remember  "
			    "n deny  Esc later" :
			    "y approve  a approve and remember  n deny  e edit  "
			    "Esc later");
		return ASKBOX_NONE;
	}
	if (now_ms < b->shown_ms + ASKBOX_GUARD_MS) {
		*message = xasprintf("request #%llu has just appeared: read it, "
		    "then press %c again", (unsigned long long)id, (int)ch);
		return ASKBOX_NONE;
	}
	switch (ch) {
	case 'o':
	case 'y':
		/* Approving frees the request: what the message needs first. */
		host = r->connect;
		if ((ch == 'o' ? approval_approve_once : approval_approve)(b->a,
		    id, b->by, &cause) != 0) {
			askbox_fail(b, cause);
			return ASKBOX_NONE;
		}
		*message = xasprintf("approved #%llu%s", (unsigned long long)id,
		    !host ? "" : ch == 'o' ? " for this connection" :
		    " for this sandbox's session");
		askbox_sync(b);
		return ASKBOX_APPROVED;
	case 'a':
		text = approval_suggest_rule(r);
		askbox_field(b, ASKBOX_RULE, text);
		free(text);
		b->save = false;
		/* A host's rule is exact and saved: shown, never edited. */
		if (r->connect && b->stage == ASKBOX_RULE) {
			b->save = true;
			b->confirm_of = ASKBOX_RULE;
			b->stage = ASKBOX_CONFIRM;
		}
		return ASKBOX_NONE;
	case 'n':
		askbox_field(b, ASKBOX_REASON, NULL);
		return ASKBOX_NONE;
	default:	/* 'e' */
		text = quote_argv(r->exec.argv);
		askbox_field(b, ASKBOX_EDIT, text);
		free(text);
		return ASKBOX_NONE;
	}
}

/*
 * Enter in a text field: a reason denies; a rule (once it parses) or an
 * edited command is shown once more in the CONFIRM stage, where only y
 * approves it.
 */
static enum askbox_action
askbox_field_done(struct askbox *b, uint64_t id, char **message)
{
	struct policy	*scratch;
	char		*cause = NULL;
	int		 rc;

	switch (b->stage) {
	case ASKBOX_RULE:
		/* The queue's own check, on a policy that is thrown away. */
		scratch = policy_new(POLICY_ON_REQUEST);
		rc = policy_remember_line(scratch, b->field.buf, &cause);
		policy_free(scratch);
		if (rc != 0) {
			askbox_fail(b, cause);
			return ASKBOX_NONE;
		}
		break;
	case ASKBOX_REASON:
		if (approval_deny(b->a, id, b->field.len > 0 ? b->field.buf :
		    NULL, b->by, &cause) != 0) {
			askbox_fail(b, cause);
			return ASKBOX_NONE;
		}
		*message = xasprintf("denied #%llu", (unsigned long long)id);
		b->stage = ASKBOX_CHOOSE;
		askbox_sync(b);
		return ASKBOX_DENIED;
	case ASKBOX_EDIT:
		askbox_unconfirm(b);
		b->confirm_argv = shsplit_edited_argv(b->field.buf);
		break;
	default:
		return ASKBOX_NONE;
	}
	free(b->error);
	b->error = NULL;
	b->confirm_of = b->stage;
	b->stage = ASKBOX_CONFIRM;
	*message = xasprintf("y approves #%llu %s, e edits again, Esc goes "
	    "back", (unsigned long long)id, b->confirm_of == ASKBOX_RULE ?
	    "and remembers the rule" : "as edited");
	return ASKBOX_NONE;
}

/* A key in the CONFIRM stage: y approves what is shown, nothing else. */
static enum askbox_action
askbox_confirm_key(struct askbox *b, struct approval_request *r,
    const struct keys_event *ev, char **message)
{
	char		*cause = NULL;
	uint32_t	 ch = ev->type == KEYS_CHAR && ev->mods == 0 ? ev->ch : 0;
	uint64_t	 id = r->id;
	int		 rc;

	if ((ch == 'e' && !r->connect) || (ev->type == KEYS_KEY &&
	    ev->key == SCREEN_KEY_ESCAPE)) {
		b->stage = ch == 'e' ? b->confirm_of : ASKBOX_CHOOSE;
		askbox_unconfirm(b);
		return ASKBOX_NONE;
	}
	if (ch != 'y') {
		*message = xasprintf("y approves #%llu %s, %sEsc goes back",
		    (unsigned long long)id, b->confirm_of == ASKBOX_RULE ?
		    "and remembers the rule" : "as edited", r->connect ? "" :
		    "e edits again, ");
		return ASKBOX_NONE;
	}
	if (b->confirm_of == ASKBOX_RULE) {
		rc = approval_remember(b->a, id, b->field.buf, b->save, b->by,
		    &cause);
		if (rc < 0) {
			b->stage = r->connect ? ASKBOX_CHOOSE : ASKBOX_RULE;
			askbox_fail(b, cause);
			return ASKBOX_NONE;
		}
		if (rc > 0) {
			*message = xasprintf("approved #%llu; the rule is "
			    "remembered but not saved: %s",
			    (unsigned long long)id, cause);
			free(cause);
		} else
			*message = xasprintf("approved #%llu, remembered%s: %s",
			    (unsigned long long)id, b->save ? " and saved" : "",
			    b->field.buf);
	} else {
		if (approval_edit(b->a, id, b->confirm_argv, b->by,
		    &cause) != 0) {
			b->stage = ASKBOX_EDIT;
			askbox_unconfirm(b);
			askbox_fail(b, cause);
			return ASKBOX_NONE;
		}
		*message = xasprintf("approved #%llu as edited",
		    (unsigned long long)id);
	}
	b->stage = ASKBOX_CHOOSE;
	askbox_unconfirm(b);
	askbox_sync(b);
	return ASKBOX_APPROVED;
}

enum askbox_action
askbox_key(struct askbox *b, const struct keys_event *ev, uint64_t now_ms,
    char **message)
{
	struct approval_request	*r;

	*message = NULL;
	askbox_sync(b);
	if (!b->open || (r = approval_find(b->a, b->id)) == NULL)
		return ASKBOX_NONE;
	if (ev->type == KEYS_PASTE_START || ev->type == KEYS_PASTE_END ||
	    ev->type == KEYS_RESIZE || ev->type == KEYS_NONE)
		return ASKBOX_NONE;
	if (b->stage == ASKBOX_CHOOSE)
		return askbox_choose_key(b, r, ev, now_ms, message);
	if (b->stage == ASKBOX_CONFIRM)
		return askbox_confirm_key(b, r, ev, message);

	if (b->stage == ASKBOX_RULE && ev->type == KEYS_CHAR &&
	    ev->mods == 0 && ev->ch == '\t') {
		b->save = !b->save;
		return ASKBOX_NONE;
	}
	switch (prompt_key(&b->field, ev)) {
	case PROMPT_EDITING:
		return ASKBOX_NONE;
	case PROMPT_CANCEL:
		b->stage = ASKBOX_CHOOSE;
		free(b->error);
		b->error = NULL;
		return ASKBOX_NONE;
	case PROMPT_DONE:
		break;
	}
	return askbox_field_done(b, r->id, message);
}

void
askbox_pasted_key(struct askbox *b, const struct keys_event *ev)
{
	askbox_sync(b);
	if (!b->open || (b->stage != ASKBOX_RULE &&
	    b->stage != ASKBOX_REASON && b->stage != ASKBOX_EDIT))
		return;
	/* Text only: a pasted newline must not submit the field. */
	if (ev->type != KEYS_CHAR || ev->mods != 0 || ev->ch < 0x20 ||
	    ev->ch == 0x7f)
		return;
	(void)prompt_key(&b->field, ev);
}
