/*
 * askbox-draw.c - drawing the approval prompt with curses: every detail of
 * the request shown, the field being edited or the command and rule shown
 * once more, and the keys of the stage.
 *
 * Invariants: nothing is drawn raw: what the agent chose (the command,
 * its directory, variables, reason, hosts) is escaped first by the
 * quoter (base/quote.h: control, invalid and invisible characters; a
 * warning row says when invisible ones were there), and any control or
 * invalid byte left elsewhere shows as '?'; the box fits the area given,
 * cutting long fields to their row budgets.
 */
#include "tui/askbox-int.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "base/quote.h"
#include "base/util.h"
#include "sandbox/sandbox.h"
#include "control/approval.h"
#include "net/hostlist.h"
#include "policy/policy.h"
#include "policy/shsplit.h"
#include "tui/render.h"

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
/*
 * Rows of the box at most: the warning, command, cwd, sandbox, network,
 * env, environ, dropped, why, agent, asked by, a blank, a field or the
 * check, an error.
 */
#define ASKBOX_MAX_ROWS	15

struct askbox_row {
	const char	*label;
	char		*text;
	int		 max;		/* rows at most */
	attr_t		 attr;
	bool		 field;		/* the text being edited */
	int		 rows;		/* measured */
};

/* Whether any text of r an agent chose holds an invisible character. */
static bool
askbox_has_invisible(const struct approval_request *r)
{
	return quote_argv_has_invisible(r->exec.argv) ||
	    quote_argv_has_invisible(r->exec.env) ||
	    quote_argv_has_invisible(r->environ_differs) ||
	    quote_argv_has_invisible(r->exec.env_dropped) ||
	    (r->exec.cwd != NULL && quote_has_invisible(r->exec.cwd)) ||
	    (r->exec.why != NULL && quote_has_invisible(r->exec.why));
}

/* The lines of the box for request r, into v (at most ASKBOX_MAX_ROWS). */
static int
askbox_rows(struct askbox *b, struct approval_request *r,
    struct askbox_row *v)
{
	int	n = 0;
	bool	nosandbox;

	memset(v, 0, ASKBOX_MAX_ROWS * sizeof *v);
	/*
	 * Bidirectional and zero-width characters would make the terminal
	 * show the person something else than what runs: every field shows
	 * them escaped (\u202e), and the request says it holds them.
	 */
	if (askbox_has_invisible(r)) {
		v[n].label = "WARNING";
		v[n].text = xstrdup("holds invisible characters (bidirectional "
		    "or zero-width), shown below as \\uXXXX");
		v[n].max = 2;
		v[n++].attr = A_BOLD | A_REVERSE;
	}
	v[n].label = "command";
	v[n].text = quote_argv(r->exec.argv);
	v[n].max = ASKBOX_COMMAND_ROWS;
	v[n++].attr = A_BOLD;
	if (r->exec_check) {
		/* A program inside a session waits in exec: from where. */
		v[n].label = "exec in";
		v[n].text = quote_text(r->check_chain != NULL ?
		    r->check_chain : "?");
		v[n].max = 3;
		v[n++].attr = A_BOLD;
		v[n].label = "file";
		v[n].text = quote_text(r->check_path != NULL ?
		    r->check_path : "?");
		v[n++].max = 2;
	}
	v[n].label = "cwd";
	v[n].text = r->exec.cwd != NULL ? quote_text(r->exec.cwd) :
	    xstrdup("(the console's)");
	v[n++].max = 2;
	nosandbox = r->exec.sandbox == SANDBOX_FULL_ACCESS;
	v[n].label = "sandbox";
	v[n].text = xasprintf("%s%s", sandbox_profile_name(r->exec.sandbox),
	    nosandbox ? "  (NO SANDBOX)" : "");
	v[n].max = 1;
	v[n++].attr = nosandbox ? A_BOLD | A_REVERSE : A_NORMAL;
	if (!nosandbox && b->guards != NULL) {
		/* What no sandbox may change or read, where it is not so. */
		v[n].label = "guards";
		v[n].text = xstrdup(b->guards);
		v[n].max = 3;
		v[n++].attr = strncmp(b->guards, "NOT", 3) == 0 ?
		    A_BOLD | A_REVERSE : A_BOLD;
	}
	v[n].label = "network";
	if (r->exec.network)
		v[n].text = xstrdup("YES (asked for)");
	else if (r->exec.network_allow != NULL) {
		/* The hosts asked for are approved with the command. */
		char		*hosts = quote_text(r->exec.network_allow);
		const char	*warn;

		warn = hostlist_unix_warning(r->exec.network_allow);
		v[n].text = xasprintf("only %s (asked for)%s%s", hosts,
		    warn != NULL ? "; WARNING: " : "", warn != NULL ? warn :
		    "");
		free(hosts);
	} else
		v[n].text = xstrdup("no");
	v[n].max = r->exec.network_allow != NULL ? 3 : 1;
	v[n++].attr = r->exec.network || r->exec.network_allow != NULL ?
	    A_BOLD | A_REVERSE : A_NORMAL;
	if (r->exec.env != NULL && r->exec.env[0] != NULL) {
		struct buf	env = { 0 };
		size_t		i;

		for (i = 0; r->exec.env[i] != NULL; i++) {
			if (i > 0)
				buf_add(&env, " ", 1);
			quote_word(&env, r->exec.env[i]);
		}
		v[n].label = "env";
		v[n].text = xstrdup(buf_cstr(&env));
		v[n].max = 3;
		v[n++].attr = A_BOLD;
		buf_free(&env);
	}
	if (r->environ_differs != NULL) {
		/* The agent's own variables that steer what runs. */
		v[n].label = "environ";
		v[n].text = quote_argv(r->environ_differs);
		v[n].max = 2;
		v[n++].attr = A_BOLD;
	}
	if (r->exec.env_dropped != NULL) {
		/* Secrets the agent's environment carried: names, not run. */
		v[n].label = "dropped";
		v[n].text = quote_argv(r->exec.env_dropped);
		v[n++].max = 2;
	}
	if (!r->exec_check) {
		v[n].label = "why";
		v[n].text = r->exec.why != NULL ? quote_text(r->exec.why) :
		    xstrdup("(no reason given)");
		v[n++].max = 3;
	}
	v[n].label = "agent";
	if (r->exec_check)
		v[n].text = xasprintf("pid %ld inside session %lu, waiting in "
		    "exec", (long)r->check_pid, r->check_session);
	else if (r->client_pid > 0)
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
	if (b->stage == ASKBOX_CONFIRM) {
		v[n].label = NULL;	/* a blank line */
		v[n].text = xstrdup("");
		v[n++].max = 1;
		/* Exactly what y approves: the words that run, or the rule. */
		if (b->confirm_of == ASKBOX_EDIT) {
			v[n].label = "will run";
			v[n].text = quote_argv(b->confirm_argv);
		} else {
			v[n].label = "rule";
			v[n].text = xasprintf("%s  (%s)", b->field.buf, b->save ?
			    "saved to the rules file" : "this console only");
		}
		v[n].max = ASKBOX_COMMAND_ROWS;
		v[n++].attr = A_BOLD;
	} else if (b->stage != ASKBOX_CHOOSE) {
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

/*
 * A terminal too short for the whole box: give up to `over` rows, the
 * least needed first: the blank line, the agent, what asked, then long
 * texts shrink to one row (cwd, why, env, the command).  The command's
 * first row, sandbox, network, the warning, the field being edited or
 * checked and an error are never given up: deciding must never be blind.
 * Returns the rows given up.
 */
static int
askbox_shed(struct askbox_row *v, int nv, int over)
{
	static const char *const drop[] = { "", "agent", "asked by" };
	static const char *const shrink[] = { "cwd", "why", "env", "command" };
	const char	*label;
	size_t		 k;
	int		 j, given = 0;

	for (k = 0; k < sizeof drop / sizeof drop[0] && given < over; k++)
		for (j = 0; j < nv && given < over; j++) {
			label = v[j].label != NULL ? v[j].label : "";
			if (strcmp(label, drop[k]) == 0 && !v[j].field &&
			    v[j].rows > 0) {
				given += v[j].rows;
				v[j].rows = 0;
			}
		}
	for (k = 0; k < sizeof shrink / sizeof shrink[0] && given < over; k++)
		for (j = 0; j < nv && given < over; j++)
			if (v[j].label != NULL &&
			    strcmp(v[j].label, shrink[k]) == 0 && v[j].rows > 1) {
				given += v[j].rows - 1;
				v[j].rows = 1;
			}
	return given;
}

bool
askbox_draw(struct askbox *b, struct layout_rect area)
{
	struct approval_request	*r;
	struct askbox_row	 v[ASKBOX_MAX_ROWS];
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
		if (r->connect)
			hint = ASKBOX_HOST_KEYS;
		else if (r->exec_check)
			hint = n > 1 ? "y let it run  a run+remember  n deny "
			    "(EACCES)  Esc later  Tab next" : "y let it run  a "
			    "run+remember  n deny (EACCES)  Esc later";
		else
			hint = n > 1 ? "y approve  a approve+remember  n deny  "
			    "e edit  Esc later  Tab next" : "y approve  a "
			    "approve+remember  n deny  e edit  Esc later";
		break;
	case ASKBOX_RULE:
		hint = b->save ? "[x] save to the rules file (Tab)  Enter "
		    "check it  Esc back" : "[ ] save to the rules file (Tab)  "
		    "Enter check it  Esc back";
		break;
	case ASKBOX_REASON:
		hint = "Enter deny (the reason goes to the agent)  Esc back";
		break;
	case ASKBOX_EDIT:
		hint = "Enter check the edited command  Esc back";
		break;
	default:
		hint = b->confirm_of == ASKBOX_EDIT ? "y approve this edited "
		    "command  e edit again  Esc back" : r->connect ? "y allow "
		    "and save this rule: later sandboxes reach the host "
		    "unasked  Esc back" : "y approve and remember this rule  "
		    "e edit again  Esc back";
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
	h -= askbox_shed(v, nv, h - area.h);
	snprintf(title, sizeof title, " approve request #%llu? (%zu of %zu "
	    "waiting) ", (unsigned long long)r->id, pos, n);
	render_frame(area.y, area.x, area.h, area.w, title, &y, &x, &h, &w);

	row = y + 1;
	for (j = 0; j < nv && row + v[j].rows <= y + h - 3; j++) {
		if (v[j].rows == 0)
			continue;	/* given up for a short terminal */
		v[j].max = v[j].rows;
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
