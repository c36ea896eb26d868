/*
 * web-page.c - the page's state from the server's list, the page's
 * decisions as decide requests, its messages about the sessions it shows
 * live and what it is told of them (see web-page.h).
 *
 * Invariants: every text of an agent's, a command's or the server's that
 * reaches the page went through base/quote.c first (a field that is not
 * UTF-8 after quoting cannot happen: quote escapes invalid bytes), but a
 * session's own bytes, which go to the page's terminal only, as UTF-8;
 * the page's fields are exactly those the console's prompt shows, under
 * the same names, and a history entry's those `ptyvisor show` prints.
 */
#include "web/web-page.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/quote.h"
#include "base/utf8.h"
#include "base/util.h"
#include "control/proto-client.h"
#include "net/hostlist.h"
#include "policy/shsplit.h"
#include "record/ending.h"
#include "record/history.h"

/* Longest tag a page may put on a decision, echoed in its answer. */
#define WEB_PAGE_TAG_MAX	64

/* Set key to s, quoted as free text (s NULL: left out). */
static void
web_page_text(json_t *o, const char *key, const char *s)
{
	char	*q;

	if (s == NULL)
		return;
	q = quote_text(s);
	json_object_set_new(o, key, json_string(q));
	free(q);
}

/* Set key to argv's words quoted and joined (argv NULL or empty: out). */
static void
web_page_words(json_t *o, const char *key, char *const *argv)
{
	char	*q;

	if (argv == NULL || argv[0] == NULL)
		return;
	q = quote_argv(argv);
	json_object_set_new(o, key, json_string(q));
	free(q);
}

/* Whether a text the prompt shows holds invisible characters. */
static bool
web_page_invisible(const struct proto_pending *p)
{
	const struct proto_exec	*x = p->exec;

	return quote_argv_has_invisible(x->argv) ||
	    quote_argv_has_invisible(x->env) ||
	    quote_argv_has_invisible(p->environ_differs) ||
	    quote_argv_has_invisible(x->env_dropped) ||
	    (x->cwd != NULL && quote_has_invisible(x->cwd)) ||
	    (x->why != NULL && quote_has_invisible(x->why));
}

/* What the prompt's "network" line says. */
static char *
web_page_network(const struct proto_exec *x)
{
	const char	*warn;
	char		*hosts, *s;

	if (x->network)
		return xstrdup("YES (asked for)");
	if (x->network_allow == NULL)
		return xstrdup("no");
	hosts = quote_text(x->network_allow);
	warn = hostlist_unix_warning(x->network_allow);
	s = xasprintf("only %s (asked for)%s%s", hosts, warn != NULL ?
	    "; WARNING: " : "", warn != NULL ? warn : "");
	free(hosts);
	return s;
}

/* What the prompt's "asked by" line says: the rule and its detail. */
static char *
web_page_asked_by(const struct proto_pending *p)
{
	const char	*by = p->by != NULL ? p->by : "?";

	if (p->detail == NULL || *p->detail == '\0')
		return xstrdup(by);
	if (strstr(p->detail, by) != NULL)
		return xstrdup(p->detail);
	return xasprintf("%s: %s", by, p->detail);
}

/* The rule "approve and remember" suggests, as the queue does. */
static char *
web_page_rule(const struct proto_pending *p)
{
	char	*q, *s;

	if (p->connect && p->exec->argv != NULL && p->exec->argv[0] != NULL &&
	    p->exec->argv[1] != NULL)
		return xasprintf("allow connect %s", p->exec->argv[1]);
	q = quote_argv(p->exec->argv);
	s = xasprintf("allow %s", q);
	free(q);
	return s;
}

/* One waiting request as the page shows it. */
static json_t *
web_page_pending(const struct proto_pending *p)
{
	const struct proto_exec	*x = p->exec;
	json_t			*o = json_object(), *c;
	char			*s;
	bool			 check = p->check_session > 0;

	json_object_set_new(o, "request", json_integer(p->request));
	json_object_set_new(o, "invisible",
	    json_boolean(web_page_invisible(p)));
	web_page_words(o, "command", x->argv);
	if (check) {
		c = json_object();
		json_object_set_new(c, "session",
		    json_integer(p->check_session));
		web_page_text(c, "chain", p->check_chain != NULL ?
		    p->check_chain : "?");
		web_page_text(c, "file", p->check_path != NULL ?
		    p->check_path : "?");
		json_object_set_new(o, "exec_check", c);
	}
	web_page_text(o, "cwd", x->cwd != NULL ? x->cwd : "(the server's)");
	json_object_set_new(o, "sandbox", json_string(x->has_sandbox ?
	    sandbox_profile_name(x->sandbox) : "(the server's default)"));
	json_object_set_new(o, "no_sandbox", json_boolean(x->has_sandbox &&
	    x->sandbox == SANDBOX_FULL_ACCESS));
	s = web_page_network(x);
	json_object_set_new(o, "network", json_string(s));
	free(s);
	json_object_set_new(o, "network_asked",
	    json_boolean(x->network || x->network_allow != NULL));
	web_page_words(o, "env", x->env);
	web_page_words(o, "environ", p->environ_differs);
	web_page_words(o, "dropped", x->env_dropped);
	if (!check)
		web_page_text(o, "why", x->why != NULL ? x->why :
		    "(no reason given)");
	if (check)
		s = xasprintf("pid %ld inside session %lld, waiting in exec",
		    (long)p->check_pid, (long long)p->check_session);
	else if (p->client_pid > 0)
		s = xasprintf("pid %ld  %s", (long)p->client_pid,
		    p->client_exe != NULL ? p->client_exe : "(unknown)");
	else
		s = xstrdup("(unknown)");
	web_page_text(o, "agent", s);
	free(s);
	s = web_page_asked_by(p);
	web_page_text(o, "asked_by", s);
	free(s);
	json_object_set_new(o, "connect", json_boolean(p->connect));
	s = web_page_rule(p);
	web_page_text(o, "rule", s);
	free(s);
	json_object_set_new(o, "editable", json_boolean(!check &&
	    !p->connect));
	return o;
}

/* One session as the page lists it. */
static json_t *
web_page_session(const struct proto_session *s)
{
	json_t	*o = json_object();

	json_object_set_new(o, "session", json_integer(s->session));
	web_page_text(o, "state", s->state != NULL ? s->state : "?");
	web_page_words(o, "command", s->argv);
	web_page_text(o, "cwd", s->cwd);
	json_object_set_new(o, "agent", json_boolean(s->agent));
	if (s->pid > 0)
		json_object_set_new(o, "pid", json_integer(s->pid));
	return o;
}

/* o as one compact JSON text (the codec's), o released.  Caller frees. */
static char *
web_page_dump(json_t *o)
{
	struct buf	 b = { 0 };
	char		*s;

	proto_json_line(&b, o);
	s = xstrndup(b.data, b.len - 1);	/* without its newline */
	buf_free(&b);
	return s;
}

/* One finished session (or request that never ran) of the history. */
static json_t *
web_page_past(const struct history_entry *e)
{
	json_t	*o = json_object();
	char	*s, when[64];

	json_object_set_new(o, "session", json_integer((json_int_t)e->id));
	json_object_set_new(o, "request",
	    json_integer((json_int_t)e->request));
	if (e->signal != 0)
		s = xasprintf("%s (signal %d)", e->state, e->signal);
	else if (e->has_code)
		s = xasprintf("%s %d", e->state, e->code);
	else
		s = xstrdup(e->state != NULL ? e->state : "?");
	web_page_text(o, "state", s);
	free(s);
	web_page_words(o, "command", e->argv);
	web_page_text(o, "by", e->by);
	web_page_text(o, "error", e->error);
	util_format_time(e->end_us, when, sizeof when);
	json_object_set_new(o, "end", json_string(when));
	return o;
}

char *
web_page_state(const struct proto_event *list,
    const struct history_list *history)
{
	json_t	*o = json_object(), *pending = json_array();
	json_t	*sessions = json_array(), *past = json_array();
	size_t	 i;

	for (i = 0; i < list->npending; i++)
		json_array_append_new(pending,
		    web_page_pending(&list->pending[i]));
	for (i = 0; i < list->nsessions; i++)
		json_array_append_new(sessions,
		    web_page_session(&list->sessions[i]));
	for (i = history->n; i > 0 && history->n - i < WEB_PAGE_HISTORY; i--)
		json_array_append_new(past, web_page_past(&history->v[i - 1]));
	json_object_set_new(o, "type", json_string("state"));
	json_object_set_new(o, "pending", pending);
	json_object_set_new(o, "sessions", sessions);
	json_object_set_new(o, "history", past);
	return web_page_dump(o);
}

/* An optional string of the page's message: NULL when absent. */
static int
web_page_str(json_t *o, const char *key, const char **out, char **cause)
{
	json_t	*v = json_object_get(o, key);

	*out = NULL;
	if (v == NULL)
		return 0;
	if (!json_is_string(v) || strlen(json_string_value(v)) !=
	    json_string_length(v)) {
		*cause = xasprintf("'%s' must be a string without NUL", key);
		return -1;
	}
	*out = json_string_value(v);
	return 0;
}

/* The fields of a page's decision into r. */
static int
web_page_fields(json_t *o, struct proto_request *r, const char **tag,
    char **cause)
{
	json_t		*v;
	const char	*decision, *reason, *rule, *edit;

	v = json_object_get(o, "request");
	if (!json_is_integer(v) || json_integer_value(v) < 1) {
		*cause = xstrdup("'request' must be a request number");
		return -1;
	}
	r->request = json_integer_value(v);
	if (web_page_str(o, "decision", &decision, cause) != 0 ||
	    web_page_str(o, "reason", &reason, cause) != 0 ||
	    web_page_str(o, "rule", &rule, cause) != 0 ||
	    web_page_str(o, "edit", &edit, cause) != 0 ||
	    web_page_str(o, "tag", tag, cause) != 0)
		return -1;
	if (decision == NULL || (strcmp(decision, "approve") != 0 &&
	    strcmp(decision, "deny") != 0)) {
		*cause = xstrdup("'decision' must be approve or deny");
		return -1;
	}
	if (*tag != NULL && strlen(*tag) > WEB_PAGE_TAG_MAX) {
		*cause = xstrdup("'tag' is too long");
		return -1;
	}
	r->approve = strcmp(decision, "approve") == 0;
	r->remember = json_is_true(json_object_get(o, "remember"));
	r->once = json_is_true(json_object_get(o, "once"));
	if (r->remember && r->once) {
		*cause = xstrdup("'once' and 'remember' exclude each other");
		return -1;
	}
	if (!r->approve && reason != NULL && *reason != '\0')
		r->reason = xstrdup(reason);
	if (r->approve && r->remember && rule != NULL)
		r->rule = xstrdup(rule);
	if (r->approve && !r->remember && !r->once && edit != NULL) {
		if (strspn(edit, " \t") == strlen(edit)) {
			*cause = xstrdup("the edited command is empty");
			return -1;
		}
		r->exec.argv = shsplit_edited_argv(edit);
		/* The server's rule: a command names its program. */
		if (r->exec.argv[0][0] == '\0') {
			*cause = xstrdup("the edited command names no "
			    "program");
			return -1;
		}
	}
	return 0;
}

int
web_page_decide(const char *msg, size_t len, const char *id,
    const char *peer, const char *token_name, struct proto_request **req,
    char **tag, char **cause)
{
	json_t			*o;
	json_error_t		 jerr;
	struct proto_request	*r;
	const char		*t = NULL;

	*req = NULL;
	*tag = NULL;
	o = json_loadb(msg, len, JSON_REJECT_DUPLICATES, &jerr);
	if (o == NULL || !json_is_object(o) || json_object_get(o, "op") ==
	    NULL || !json_is_string(json_object_get(o, "op")) ||
	    strcmp(json_string_value(json_object_get(o, "op")),
	    "decide") != 0) {
		*cause = xstrdup("not a decision");
		json_decref(o);
		return -1;
	}
	r = xcalloc(1, sizeof *r);
	r->op = PROTO_OP_DECIDE;
	r->id = xstrdup(id);
	r->by = web_page_by(peer, token_name);
	if (web_page_fields(o, r, &t, cause) != 0) {
		proto_request_free(r);
		json_decref(o);
		return -1;
	}
	*tag = t != NULL ? xstrdup(t) : NULL;
	json_decref(o);
	*req = r;
	return 0;
}

char *
web_page_by(const char *peer, const char *token_name)
{
	return xasprintf("web (%s, token %s)", peer, token_name);
}

char *
web_page_result(const char *tag, int ok, const char *message)
{
	json_t	*o = json_object();

	json_object_set_new(o, "type", json_string("result"));
	if (tag != NULL)
		json_object_set_new(o, "tag", json_string(tag));
	json_object_set_new(o, "ok", json_boolean(ok));
	if (message != NULL)
		web_page_text(o, "message", message);
	return web_page_dump(o);
}

char *
web_page_hello(const char *role, const char *token_name)
{
	json_t	*o = json_object();

	json_object_set_new(o, "type", json_string("hello"));
	json_object_set_new(o, "role", json_string(role));
	json_object_set_new(o, "token", json_string(token_name));
	return web_page_dump(o);
}

int
web_page_message(const char *msg, size_t len, struct web_page_msg *m,
    char **cause)
{
	static const char *const ops[] = { "decide", "view", "unview",
				    "input", NULL };
	json_t		*o, *op, *v;
	size_t		 i;
	int		 rc = -1;

	memset(m, 0, sizeof *m);
	/* Keys may hold NUL (C-Space): data's length is its own. */
	o = json_loadb(msg, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
	    NULL);
	op = json_object_get(o, "op");
	i = sizeof ops / sizeof ops[0] - 1;	/* its NULL: none */
	if (json_is_string(op) && strlen(json_string_value(op)) ==
	    json_string_length(op))
		for (i = 0; ops[i] != NULL; i++)
			if (strcmp(json_string_value(op), ops[i]) == 0)
				break;
	if (ops[i] == NULL) {
		*cause = xstrdup("not a message this page sends");
		goto out;
	}
	m->op = (enum web_page_op)i;
	if (m->op == WEB_PAGE_DECIDE) {
		rc = 0;
		goto out;
	}
	v = json_object_get(o, "session");
	if (!json_is_integer(v) || json_integer_value(v) < 1) {
		*cause = xstrdup("'session' must be a session number");
		goto out;
	}
	m->session = json_integer_value(v);
	if (m->op == WEB_PAGE_INPUT) {
		v = json_object_get(o, "data");
		if (!json_is_string(v) || json_string_length(v) == 0) {
			*cause = xstrdup("'data' must be the keys typed");
			goto out;
		}
		m->len = json_string_length(v);
		m->data = xmalloc(m->len + 1);
		memcpy(m->data, json_string_value(v), m->len + 1);
	}
	rc = 0;
out:
	json_decref(o);
	return rc;
}

/* A view's message: {"type": type, "session": session}. */
static json_t *
web_page_view(const char *type, int64_t session)
{
	json_t	*o = json_object();

	json_object_set_new(o, "type", json_string(type));
	json_object_set_new(o, "session", json_integer(session));
	return o;
}

/*
 * Set key to len bytes of a terminal's output, as text (what is not UTF-8
 * as U+FFFD): for the page's terminal, never its markup.
 */
static void
web_page_bytes(json_t *o, const char *key, const char *p, size_t len)
{
	struct utf8_carry	carry = { .len = 0 };
	struct buf		b = { 0 };

	utf8_sanitize(&carry, p, len, &b);
	utf8_finish(&carry, &b);
	json_object_set_new(o, key, json_stringn_nocheck(b.data != NULL ?
	    b.data : "", b.len));
	buf_free(&b);
}

char *
web_page_screen(const struct proto_event *ev)
{
	json_t	*o = web_page_view("screen", ev->session);

	json_object_set_new(o, "cols", json_integer(ev->cols));
	json_object_set_new(o, "rows", json_integer(ev->rows));
	web_page_bytes(o, "data", ev->data, ev->len);
	json_object_set_new(o, "partial", json_boolean(ev->partial));
	return web_page_dump(o);
}

char *
web_page_screen_error(int64_t session, const char *message)
{
	json_t	*o = web_page_view("screen", session);

	web_page_text(o, "error", message);
	return web_page_dump(o);
}

char *
web_page_output(int64_t session, const char *data, size_t len)
{
	json_t	*o = web_page_view("output", session);

	web_page_bytes(o, "data", data, len);
	return web_page_dump(o);
}

char *
web_page_ended(int64_t session, const char *ending)
{
	json_t	*o = web_page_view("ended", session);

	web_page_text(o, "ending", ending != NULL ? ending : "ended");
	return web_page_dump(o);
}

/* What `ptyvisor show` says of one entry (pruned: its recording gone). */
static json_t *
web_page_entry(const struct history_entry *e, bool pruned)
{
	json_t		*o = json_object();
	struct ending	 end;
	char		 t[64], *s;

	json_object_set_new(o, "session", json_integer((json_int_t)e->id));
	if (e->request != 0)
		json_object_set_new(o, "request",
		    json_integer((json_int_t)e->request));
	web_page_words(o, "command", e->argv);
	web_page_text(o, "cwd", e->cwd);
	util_format_time(e->start_us, t, sizeof t);
	json_object_set_new(o, "start", json_string(t));
	util_format_time(e->end_us, t, sizeof t);
	json_object_set_new(o, "end", json_string(t));
	util_format_duration(e->end_us - e->start_us, t, sizeof t);
	json_object_set_new(o, "duration", json_string(t));
	ending_of_entry(e, &end);
	web_page_text(o, "ending", ending_name(&end, t, sizeof t));
	web_page_text(o, "profile", e->profile);
	web_page_text(o, "decision", e->decision);
	web_page_text(o, "by", e->by);
	json_object_set_new(o, "agent", json_boolean(e->agent));
	json_object_set_new(o, "bytes", json_integer((json_int_t)e->bytes));
	if (pruned)
		json_object_set_new(o, "recording", json_string("recording "
		    "pruned (the state directory's budget)"));
	else if (e->recording_dropped != 0) {
		s = xasprintf("recording capped: %llu bytes of output not "
		    "recorded (its head and tail kept)",
		    (unsigned long long)e->recording_dropped);
		json_object_set_new(o, "recording", json_string(s));
		free(s);
	}
	web_page_text(o, "error", e->error);
	return o;
}

char *
web_page_entries(int64_t session, const struct history_list *history,
    const bool *pruned)
{
	json_t	*o = web_page_view("entries", session), *v = json_array();
	size_t	 i, first = history->n, n = 0;

	/* The newest WEB_PAGE_ENTRIES of the session's, oldest first. */
	for (i = history->n; i > 0 && n < WEB_PAGE_ENTRIES; i--)
		if ((int64_t)history->v[i - 1].id == session) {
			first = i - 1;
			n++;
		}
	for (i = first; i < history->n && n > 0; i++)
		if ((int64_t)history->v[i].id == session) {
			json_array_append_new(v, web_page_entry(&history->v[i],
			    pruned != NULL && pruned[i]));
			n--;
		}
	json_object_set_new(o, "entries", v);
	return web_page_dump(o);
}
