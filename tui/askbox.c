/*
 * askbox.c - the modal approval prompt (see askbox.h).
 *
 * Invariants: when open, id names a request that was waiting the last
 * time askbox_sync ran, and every decision re-checks it with
 * approval_find first (someone else may have decided it meanwhile); the
 * text field is used only in the RULE, REASON and EDIT stages; deferred
 * holds numbers of requests the person put off, and is forgotten when
 * the box is opened by hand.
 */
#include "tui/askbox.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "control/approval.h"
#include "policy/policy.h"
#include "term/screen.h"
#include "policy/shsplit.h"
#include "base/util.h"
#include "tui/prompt.h"
#include "tui/render.h"

/* At most this many rows for the command, and for a text field. */
#define ASKBOX_COMMAND_ROWS	6
#define ASKBOX_FIELD_ROWS	4

struct askbox {
	struct approval		*a;
	bool			 open;
	uint64_t		 id;		/* the request shown */
	uint64_t		 shown_ms;	/* when it was shown: the guard */
	enum askbox_stage	 stage;
	bool			 save;		/* save the remembered rule */
	struct prompt		 field;
	char			*error;		/* the last failure, shown */
	uint64_t		*deferred;
	size_t			 ndeferred;
};

struct askbox *
askbox_new(struct approval *a)
{
	struct askbox	*b = xcalloc(1, sizeof *b);

	b->a = a;
	return b;
}

void
askbox_free(struct askbox *b)
{
	if (b == NULL)
		return;
	free(b->error);
	free(b->deferred);
	free(b);
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
	b->save = false;
	memset(&b->field, 0, sizeof b->field);
	free(b->error);
	b->error = NULL;
}

/*
 * Make the box true to the queue: when the request shown is gone or put
 * off, show the oldest waiting one not deferred, or close.
 */
static void
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
}

bool
askbox_open(struct askbox *b)
{
	b->ndeferred = 0;
	if (approval_pending_count(b->a) == 0)
		return false;
	if (!b->open || approval_find(b->a, b->id) == NULL)
		askbox_show(b, approval_pending_at(b->a, 0)->id);
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

/*
 * The argv of an edited command line: its words when it is one plain
 * command, else the line run by sh -c.  Caller frees with strv_free.
 */
static char **
askbox_edited_argv(const char *line)
{
	struct shsplit	*sp;
	char		**argv = NULL;
	size_t		  i;
	int		  pass;

	/* Plain shell words first; $'...' (our own quoting) as a rule. */
	for (pass = 0; pass < 2 && argv == NULL; pass++) {
		if (pass == 1 && strstr(line, "$'") == NULL)
			break;
		sp = shsplit_parse(line, pass == 0 ? 0 : SHSPLIT_RULE);
		if (sp->error == NULL && sp->ncmds == 1 &&
		    sp->cmds[0].problem == NULL && sp->cmds[0].nwords > 0) {
			argv = xcalloc(sp->cmds[0].nwords + 1, sizeof *argv);
			for (i = 0; i < sp->cmds[0].nwords; i++)
				argv[i] = xstrdup(sp->cmds[0].words[i].text);
		}
		shsplit_free(sp);
	}
	if (argv == NULL) {
		argv = xcalloc(4, sizeof *argv);
		argv[0] = xstrdup("/bin/sh");
		argv[1] = xstrdup("-c");
		argv[2] = xstrdup(line);
	}
	return argv;
}

/* A key in the CHOOSE stage. */
static enum askbox_action
askbox_choose_key(struct askbox *b, struct approval_request *r,
    const struct keys_event *ev, uint64_t now_ms, char **message)
{
	char		*cause = NULL, *text;
	uint32_t	 ch = ev->type == KEYS_CHAR && ev->mods == 0 ? ev->ch : 0;
	uint64_t	 id = r->id;

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
	if (ch != 'y' && ch != 'a' && ch != 'n' && ch != 'e') {
		if (ev->type == KEYS_CHAR || ev->type == KEYS_KEY)
			*message = xstrdup("y approve  a approve and remember  "
			    "n deny  e edit  Esc later");
		return ASKBOX_NONE;
	}
	if (now_ms < b->shown_ms + ASKBOX_GUARD_MS) {
		*message = xasprintf("request #%llu has just appeared: read it, "
		    "then press %c again", (unsigned long long)id, (int)ch);
		return ASKBOX_NONE;
	}
	switch (ch) {
	case 'y':
		if (approval_approve(b->a, id, "user", &cause) != 0) {
			askbox_fail(b, cause);
			return ASKBOX_NONE;
		}
		*message = xasprintf("approved #%llu", (unsigned long long)id);
		askbox_sync(b);
		return ASKBOX_APPROVED;
	case 'a':
		text = approval_suggest_rule(r);
		askbox_field(b, ASKBOX_RULE, text);
		free(text);
		b->save = false;
		return ASKBOX_NONE;
	case 'n':
		askbox_field(b, ASKBOX_REASON, NULL);
		return ASKBOX_NONE;
	default:	/* 'e' */
		text = policy_quote_argv(r->argv);
		askbox_field(b, ASKBOX_EDIT, text);
		free(text);
		return ASKBOX_NONE;
	}
}

/* Enter in a text field: decide as the stage says. */
static enum askbox_action
askbox_field_done(struct askbox *b, uint64_t id, char **message)
{
	char	*cause = NULL, **argv;
	int	 rc;

	switch (b->stage) {
	case ASKBOX_RULE:
		rc = approval_remember(b->a, id, b->field.buf, b->save, &cause);
		if (rc < 0) {
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
		break;
	case ASKBOX_REASON:
		if (approval_deny(b->a, id, b->field.len > 0 ? b->field.buf :
		    NULL, "user", &cause) != 0) {
			askbox_fail(b, cause);
			return ASKBOX_NONE;
		}
		*message = xasprintf("denied #%llu", (unsigned long long)id);
		b->stage = ASKBOX_CHOOSE;
		askbox_sync(b);
		return ASKBOX_DENIED;
	case ASKBOX_EDIT:
		argv = askbox_edited_argv(b->field.buf);
		rc = approval_edit(b->a, id, argv, &cause);
		strv_free(argv);
		if (rc != 0) {
			askbox_fail(b, cause);
			return ASKBOX_NONE;
		}
		*message = xasprintf("approved #%llu as edited",
		    (unsigned long long)id);
		break;
	case ASKBOX_CHOOSE:
		return ASKBOX_NONE;
	}
	b->stage = ASKBOX_CHOOSE;
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

/* The width of the character at p (n bytes); control and bad bytes: '?'. */
static int
askbox_char(const char *p, size_t avail, mbstate_t *st, wchar_t *wc,
    size_t *n)
{
	int	cw;

	*n = mbrtowc(wc, p, avail, st);
	if (*n == (size_t)-1 || *n == (size_t)-2 || *n == 0) {
		memset(st, 0, sizeof *st);
		*n = 1;
		*wc = L'?';
	} else if (*wc < 0x20 || (*wc >= 0x7f && *wc < 0xa0))
		*wc = L'?';
	if ((cw = wcwidth(*wc)) < 0) {
		*wc = L'?';
		cw = 1;
	}
	return cw;
}

/*
 * Lay text out from (y, x) wrapped at w columns over at most rows rows,
 * drawing it when draw is true; control characters and invalid bytes show
 * as '?'.  With tail, when the text does not fit its start is dropped
 * (behind a '…') rather than its end.  Returns the rows used (at least
 * 1); *cy, *cx get the position after the text.
 */
static int
askbox_put(bool draw, int y, int x, int w, int rows, const char *text,
    bool tail, int *cy, int *cx)
{
	mbstate_t	 st;
	wchar_t		 wc;
	size_t		 len = strlen(text), n;
	int		 row = 0, col = 0, cw, total = 0, room = w * rows - 2;
	const char	*p, *start = text;

	*cy = y;
	*cx = x;
	if (w < 2 || rows < 1)
		return 1;
	if (tail) {
		/* Only the tail fits: start where it does. */
		memset(&st, 0, sizeof st);
		for (p = text; p < text + len; p += n)
			total += askbox_char(p, (size_t)(text + len - p), &st,
			    &wc, &n);
		memset(&st, 0, sizeof st);
		for (p = text; total > room && p < text + len; p += n)
			total -= askbox_char(p, (size_t)(text + len - p), &st,
			    &wc, &n);
		if (p != text) {
			start = p;
			if (draw)
				mvaddstr(y, x, "…");
			col = 1;
		}
	}
	memset(&st, 0, sizeof st);
	if (draw)
		move(y, x + col);
	for (p = start; p < text + len; p += n) {
		cw = askbox_char(p, (size_t)(text + len - p), &st, &wc, &n);
		if (col + cw > w) {
			if (row + 1 >= rows) {
				if (draw)
					mvaddstr(y + row, x + w - 1, "…");
				break;
			}
			row++;
			col = 0;
			if (draw)
				move(y + row, x);
		}
		if (draw)
			addnwstr(&wc, 1);
		col += cw;
	}
	if (col >= w && row + 1 < rows) {
		row++;
		col = 0;
	}
	*cy = y + row;
	*cx = x + (col < w ? col : w - 1);
	return row + 1;
}

/* One line of the box: a label, then its text (or a field). */
struct askbox_row {
	const char	*label;
	char		*text;
	int		 max;		/* rows at most */
	attr_t		 attr;
	bool		 field;		/* the text being edited */
	int		 rows;		/* measured */
};

/* The lines of the box for request r, into v (at most 12). */
static int
askbox_rows(struct askbox *b, struct approval_request *r,
    struct askbox_row *v)
{
	int	n = 0;
	bool	nosandbox;

	memset(v, 0, 12 * sizeof *v);
	v[n].label = "command";
	v[n].text = policy_quote_argv(r->argv);
	v[n].max = ASKBOX_COMMAND_ROWS;
	v[n++].attr = A_BOLD;
	v[n].label = "cwd";
	v[n].text = xstrdup(r->cwd != NULL ? r->cwd : "(the console's)");
	v[n++].max = 2;
	nosandbox = strcmp(r->sandbox, "danger-full-access") == 0 ||
	    strcmp(r->sandbox, "none") == 0;
	v[n].label = "sandbox";
	v[n].text = xasprintf("%s%s", r->sandbox, nosandbox ?
	    "  (NO SANDBOX)" : "");
	v[n].max = 1;
	v[n++].attr = nosandbox ? A_BOLD | A_REVERSE : A_NORMAL;
	v[n].label = "network";
	v[n].text = xstrdup(r->network ? "YES (asked for)" : "no");
	v[n].max = 1;
	v[n++].attr = r->network ? A_BOLD | A_REVERSE : A_NORMAL;
	if (r->env != NULL && r->env[0] != NULL) {
		struct buf	env = { 0 };
		size_t		i;

		for (i = 0; r->env[i] != NULL; i++) {
			if (i > 0)
				buf_add(&env, " ", 1);
			shsplit_quote(&env, r->env[i]);
		}
		v[n].label = "env";
		v[n].text = xstrdup(buf_cstr(&env));
		v[n].max = 3;
		v[n++].attr = A_BOLD;
		buf_free(&env);
	}
	v[n].label = "why";
	v[n].text = xstrdup(r->why != NULL ? r->why : "(no reason given)");
	v[n++].max = 3;
	v[n].label = "agent";
	if (r->client_pid > 0)
		v[n].text = xasprintf("pid %ld  %s", (long)r->client_pid,
		    r->client_exe != NULL ? r->client_exe : "(unknown)");
	else
		v[n].text = xstrdup("(unknown)");
	v[n++].max = 1;
	/* verdict_why often repeats verdict_by ("mode X: ..."). */
	v[n].label = "asked by";
	if (r->verdict_why == NULL || *r->verdict_why == '\0')
		v[n].text = xstrdup(r->verdict_by);
	else if (strstr(r->verdict_why, r->verdict_by) != NULL)
		v[n].text = xstrdup(r->verdict_why);
	else
		v[n].text = xasprintf("%s: %s", r->verdict_by, r->verdict_why);
	v[n++].max = 2;
	if (b->stage != ASKBOX_CHOOSE) {
		v[n].label = NULL;	/* a blank line */
		v[n].text = xstrdup("");
		v[n++].max = 1;
		v[n].label = b->stage == ASKBOX_RULE ? "rule" :
		    b->stage == ASKBOX_REASON ? "reason" : "edit";
		v[n].text = xstrdup(b->field.buf);
		v[n].max = ASKBOX_FIELD_ROWS;
		v[n].attr = A_UNDERLINE;
		v[n++].field = true;
	}
	if (b->error != NULL) {
		v[n].label = "error";
		v[n].text = xstrdup(b->error);
		v[n].max = 2;
		v[n++].attr = A_BOLD;
	}
	return n;
}

bool
askbox_draw(struct askbox *b, struct layout_rect area)
{
	struct approval_request	*r;
	struct askbox_row	 v[12];
	size_t			 n, i, pos = 0;
	int			 nv, w, h, x, y, row, j, cy = 0, cx = 0, ey, ex;
	char			 title[128];
	const char		*hint;
	bool			 editing = false;

	askbox_sync(b);
	if (!b->open || (r = approval_find(b->a, b->id)) == NULL)
		return false;
	n = approval_pending_count(b->a);
	for (i = 0; i < n; i++)
		if (approval_pending_at(b->a, i)->id == r->id)
			pos = i + 1;
	switch (b->stage) {
	case ASKBOX_CHOOSE:
		hint = n > 1 ? "y approve  a approve+remember  n deny  e edit  "
		    "Esc later  Tab next" : "y approve  a approve+remember  "
		    "n deny  e edit  Esc later";
		break;
	case ASKBOX_RULE:
		hint = b->save ? "[x] save to the rules file (Tab)  Enter "
		    "approve  Esc back" : "[ ] save to the rules file (Tab)  "
		    "Enter approve  Esc back";
		break;
	case ASKBOX_REASON:
		hint = "Enter deny (the reason goes to the agent)  Esc back";
		break;
	default:
		hint = "Enter approve the edited command  Esc back";
		break;
	}

	/* Measure: borders, the lines, a blank line, the hint. */
	w = area.w - 4 < 100 ? area.w - 4 : 100;
	if (w < 30)
		w = area.w;
	nv = askbox_rows(b, r, v);
	h = 4;
	for (j = 0; j < nv; j++) {
		v[j].rows = askbox_put(false, 0, 0, w - 13, v[j].max,
		    v[j].text, v[j].field, &ey, &ex);
		h += v[j].rows;
	}
	snprintf(title, sizeof title, " approve request #%llu? (%zu of %zu "
	    "waiting) ", (unsigned long long)r->id, pos, n);
	render_frame(area.y, area.x, area.h, area.w, title, &y, &x, &h, &w);

	row = y + 1;
	for (j = 0; j < nv && row + v[j].rows <= y + h - 3; j++) {
		if (v[j].label != NULL) {
			attrset(A_BOLD);
			mvaddnstr(row, x + 2, v[j].label, w - 4);
		}
		attrset(v[j].attr);
		if (v[j].field) {
			askbox_put(true, row, x + 11, w - 13, v[j].max,
			    v[j].text, true, &cy, &cx);
			editing = true;
		} else
			askbox_put(true, row, x + 11, w - 13, v[j].max,
			    v[j].text, false, &ey, &ex);
		attrset(A_NORMAL);
		row += v[j].rows;
	}
	for (j = 0; j < nv; j++)
		free(v[j].text);
	if (h >= 4) {
		attrset(A_REVERSE);
		mvaddnstr(y + h - 2, x + 2, hint, w - 4);
		attrset(A_NORMAL);
	}
	if (editing)
		move(cy, cx);
	return editing;
}
