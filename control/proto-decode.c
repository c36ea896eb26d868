/*
 * proto-decode.c - the control protocol's event decoder (see
 * proto-client.h): one JSON event object into one struct proto_event,
 * the inverse of proto-events.c.
 *
 * Invariants: a field the server always sends is required, any field
 * present must have its type, and an event that fails either is refused
 * whole (the struct then holds nothing); strings point into the object
 * the event holds a reference to; an output's bytes come from its "b64"
 * when that decodes, else from its "data" text -- that choice is made
 * here and nowhere else.
 */
#include "control/proto-client.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decoding under way: which event, and what went wrong. */
struct proto_dec {
	const char	*event;
	char		*cause;		/* the first problem; NULL: none */
};

/* Note the first problem (the rest follow from it). */
static void
proto_dec_fail(struct proto_dec *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
proto_dec_fail(struct proto_dec *d, const char *fmt, ...)
{
	va_list	 ap;
	char	*what;

	if (d->cause != NULL)
		return;
	va_start(ap, fmt);
	what = xvasprintf(fmt, ap);
	va_end(ap);
	d->cause = xasprintf("%s event: %s", d->event, what);
	free(what);
}

/*
 * Field key of o when it has type (JSON_TRUE: a boolean), else NULL: a
 * failure when it is required or of another type (what: its type for
 * people).
 */
static json_t *
proto_dec_field(struct proto_dec *d, json_t *o, const char *key,
    bool required, json_type type, const char *what)
{
	json_t		*v = json_object_get(o, key);
	json_type	 t;

	if (v == NULL) {
		if (required)
			proto_dec_fail(d, "missing '%s'", key);
		return NULL;
	}
	t = json_typeof(v) == JSON_FALSE ? JSON_TRUE : json_typeof(v);
	if (t != type) {
		proto_dec_fail(d, "'%s' is not %s", key, what);
		return NULL;
	}
	return v;
}

/* A string field of o: NULL when absent or wrong. */
static const char *
proto_dec_str(struct proto_dec *d, json_t *o, const char *key, bool required)
{
	return json_string_value(proto_dec_field(d, o, key, required,
	    JSON_STRING, "a string"));
}

/* An integer field of o, at least min: 0 when absent or wrong. */
static int64_t
proto_dec_int(struct proto_dec *d, json_t *o, const char *key, bool required,
    int64_t min)
{
	json_t	*v = proto_dec_field(d, o, key, required, JSON_INTEGER,
		    "an integer");

	if (v != NULL && json_integer_value(v) < min) {
		proto_dec_fail(d, "'%s' is below %lld", key, (long long)min);
		return 0;
	}
	return json_integer_value(v);
}

/* A boolean field of o: false when absent or wrong. */
static bool
proto_dec_bool(struct proto_dec *d, json_t *o, const char *key, bool required)
{
	return json_is_true(proto_dec_field(d, o, key, required, JSON_TRUE,
	    "true or false"));
}

/* Keep p (allocated) until ev is freed. */
static void *
proto_dec_own(struct proto_event *ev, void *p)
{
	ev->owned = xreallocarray(ev->owned, ev->nowned + 1,
	    sizeof *ev->owned);
	ev->owned[ev->nowned++] = p;
	return p;
}

/*
 * An array of strings of o, as a vector ev owns (its words point into o):
 * NULL when absent or wrong.
 */
static char *const *
proto_dec_argv(struct proto_dec *d, struct proto_event *ev, json_t *o,
    const char *key, bool required)
{
	json_t	*v, *w;
	char	**argv;
	size_t	  i;

	if ((v = proto_dec_field(d, o, key, required, JSON_ARRAY,
	    "an array of strings")) == NULL)
		return NULL;
	argv = proto_dec_own(ev, xcalloc(json_array_size(v) + 1,
	    sizeof *argv));
	json_array_foreach(v, i, w) {
		if (!json_is_string(w)) {
			proto_dec_fail(d, "'%s' is not an array of strings",
			    key);
			return NULL;
		}
		argv[i] = (char *)json_string_value(w);
	}
	return argv;
}

/*
 * A waiting request (queued, and each of a list's): the request itself
 * (a struct proto_exec ev owns, its strings pointing into o) and what the
 * queue made of it.
 */
static void
proto_dec_pending(struct proto_dec *d, struct proto_event *ev, json_t *o,
    struct proto_pending *p)
{
	struct proto_exec	*x = proto_dec_own(ev, xcalloc(1, sizeof *x));
	const char		*profile;
	json_t			*c;

	p->exec = x;
	p->request = proto_dec_int(d, o, "request", true, 0);
	p->verdict = proto_dec_str(d, o, "verdict", false);
	p->environ_differs = proto_dec_argv(d, ev, o, "environ_differs",
	    false);
	p->by = proto_dec_str(d, o, "by", false);
	p->detail = proto_dec_str(d, o, "detail", false);
	x->argv = (char **)proto_dec_argv(d, ev, o, "argv", false);
	x->cwd = (char *)proto_dec_str(d, o, "cwd", false);
	/* A profile this client does not know (a newer server's) is none. */
	profile = proto_dec_str(d, o, "sandbox", false);
	x->has_sandbox = profile != NULL &&
	    sandbox_profile_lookup(profile, &x->sandbox);
	x->network = proto_dec_bool(d, o, "network", true);
	p->connect = proto_dec_bool(d, o, "connect", false);
	x->network_allow = (char *)proto_dec_str(d, o, "network_allow",
	    false);
	x->why = (char *)proto_dec_str(d, o, "why", false);
	x->env_dropped = (char **)proto_dec_argv(d, ev, o, "env_dropped",
	    false);
	x->env = (char **)proto_dec_argv(d, ev, o, "env", false);
	p->client_pid = (pid_t)proto_dec_int(d, o, "client_pid", false, 0);
	p->client_exe = proto_dec_str(d, o, "client_exe", false);
	if ((c = json_object_get(o, "exec_check")) != NULL &&
	    json_is_object(c)) {
		p->check_session = proto_dec_int(d, c, "session", true, 0);
		p->check_pid = (pid_t)proto_dec_int(d, c, "pid", false, 0);
		p->check_path = proto_dec_str(d, c, "path", false);
		p->check_chain = proto_dec_str(d, c, "chain", false);
	}
}

/* One of a list's sessions. */
static void
proto_dec_session(struct proto_dec *d, struct proto_event *ev, json_t *o,
    struct proto_session *s)
{
	s->session = proto_dec_int(d, o, "session", true, 0);
	s->pid = (pid_t)proto_dec_int(d, o, "pid", false, 0);
	s->argv = proto_dec_argv(d, ev, o, "argv", true);
	s->cwd = proto_dec_str(d, o, "cwd", false);
	s->state = proto_dec_str(d, o, "state", false);
	s->agent = proto_dec_bool(d, o, "agent", true);
}

/* An array of objects of o (key), its size in *n; NULL when wrong. */
static json_t *
proto_dec_objects(struct proto_dec *d, json_t *o, const char *key, size_t *n)
{
	json_t	*a = json_object_get(o, key), *item;
	size_t	 i;

	*n = 0;
	if (!json_is_array(a)) {
		proto_dec_fail(d, a == NULL ? "missing '%s'" :
		    "'%s' is not an array of objects", key);
		return NULL;
	}
	json_array_foreach(a, i, item)
		if (!json_is_object(item)) {
			proto_dec_fail(d, "'%s' is not an array of objects",
			    key);
			return NULL;
		}
	*n = json_array_size(a);
	return a;
}

/* A list: its sessions and its waiting requests. */
static void
proto_dec_list(struct proto_dec *d, struct proto_event *ev, json_t *o)
{
	json_t	*a;
	size_t	 i, n;

	if ((a = proto_dec_objects(d, o, "sessions", &n)) != NULL) {
		ev->sessions = xcalloc(n + 1, sizeof *ev->sessions);
		ev->nsessions = n;
		for (i = 0; i < n; i++)
			proto_dec_session(d, ev, json_array_get(a, i),
			    &ev->sessions[i]);
	}
	if ((a = proto_dec_objects(d, o, "pending", &n)) != NULL) {
		ev->pending = xcalloc(n + 1, sizeof *ev->pending);
		ev->npending = n;
		for (i = 0; i < n; i++)
			proto_dec_pending(d, ev, json_array_get(a, i),
			    &ev->pending[i]);
	}
}

/*
 * An output's bytes: "b64" when it decodes, else the "data" text; its
 * pipe from "stream" (none: the PTY).
 */
static void
proto_dec_output(struct proto_dec *d, struct proto_event *ev, json_t *o)
{
	json_t		*b64 = proto_dec_field(d, o, "b64", false, JSON_STRING,
			    "a string");
	const char	*stream = proto_dec_str(d, o, "stream", false);
	json_t		*text = json_object_get(o, "data");

	ev->session = proto_dec_int(d, o, "session", true, 0);
	ev->seq = (uint64_t)proto_dec_int(d, o, "seq", true, 0);
	if (stream != NULL && strcmp(stream, "stdout") == 0)
		ev->fd = 1;
	else if (stream != NULL && strcmp(stream, "stderr") == 0)
		ev->fd = 2;
	else if (stream != NULL)
		proto_dec_fail(d, "'stream' is not \"stdout\" or \"stderr\"");
	if (b64 != NULL && proto_base64_decode(&ev->raw,
	    json_string_value(b64), json_string_length(b64)) == 0) {
		ev->data = ev->raw.data != NULL ? ev->raw.data : "";
		ev->len = ev->raw.len;
		return;
	}
	ev->raw.len = 0;
	if (json_is_string(text)) {
		ev->data = json_string_value(text);
		ev->len = json_string_length(text);
	} else if (text != NULL)
		proto_dec_fail(d, "'data' is not a string");
	else
		proto_dec_fail(d, b64 != NULL ? "'b64' is not base64" :
		    "missing 'data'");
}

/* A session's size, its screen's drawing when there is one. */
static void
proto_dec_screen(struct proto_dec *d, struct proto_event *ev, json_t *o)
{
	json_t	*v;

	ev->session = proto_dec_int(d, o, "session", true, 1);
	ev->cols = (unsigned int)proto_dec_int(d, o, "cols", true, 1);
	ev->rows = (unsigned int)proto_dec_int(d, o, "rows", true, 1);
	if (ev->kind != PROTO_EV_SCREEN)
		return;
	v = proto_dec_field(d, o, "data", true, JSON_STRING, "a string");
	ev->data = json_string_value(v);
	ev->len = json_string_length(v);
	ev->partial = proto_dec_bool(d, o, "partial", false);
}

/* How a session ended. */
static void
proto_dec_exit(struct proto_dec *d, struct proto_event *ev, json_t *o)
{
	struct proto_exit	*e = &ev->exit;

	e->session = proto_dec_int(d, o, "session", true, 0);
	ev->session = e->session;
	if (json_object_get(o, "signal") != NULL)
		e->signal = (int)proto_dec_int(d, o, "signal", true, 1);
	else
		e->code = (int)proto_dec_int(d, o, "code", true, INT32_MIN);
	e->timed_out = proto_dec_bool(d, o, "timed_out", true);
	e->duration_ms = (uint64_t)proto_dec_int(d, o, "duration_ms", true, 0);
	e->recording = proto_dec_str(d, o, "recording", false);
	e->ending = proto_dec_str(d, o, "ending", false);
	e->cwd = proto_dec_str(d, o, "cwd", false);
}

/* The event names, in the order of enum proto_ev_kind. */
static const char *const proto_ev_names[] = {
	"", "hello", "error", "ok", "attached", "queued", "approved",
	"denied", "withdrawn", "started", "output", "written", "exit", "list",
	"screen", "resized", "skipped"
};

/* The fields of ev->kind. */
static void
proto_dec_fields(struct proto_dec *d, struct proto_event *ev, json_t *o)
{
	switch (ev->kind) {
	case PROTO_EV_UNKNOWN:
		break;
	case PROTO_EV_HELLO:
		ev->version = (int)proto_dec_int(d, o, "version", true, 0);
		ev->server = proto_dec_str(d, o, "server", false);
		ev->pid = (pid_t)proto_dec_int(d, o, "pid", false, 0);
		break;
	case PROTO_EV_ERROR:
		ev->code = proto_dec_str(d, o, "code", true);
		ev->message = proto_dec_str(d, o, "message", true);
		break;
	case PROTO_EV_OK:
		ev->not_saved = proto_dec_str(d, o, "not_saved", false);
		break;
	case PROTO_EV_ATTACHED:
		ev->console = (unsigned long)proto_dec_int(d, o, "console",
		    true, 0);
		ev->tty = proto_dec_bool(d, o, "tty", true);
		break;
	case PROTO_EV_QUEUED:
		proto_dec_pending(d, ev, o, &ev->queued);
		ev->request = ev->queued.request;
		break;
	case PROTO_EV_APPROVED:
	case PROTO_EV_DENIED:
		ev->request = proto_dec_int(d, o, "request", true, 0);
		ev->by = proto_dec_str(d, o, "by", false);
		ev->reason = proto_dec_str(d, o, "reason", false);
		ev->argv = proto_dec_argv(d, ev, o, "argv", false);
		ev->scope = proto_dec_str(d, o, "scope", false);
		break;
	case PROTO_EV_WITHDRAWN:
		ev->request = proto_dec_int(d, o, "request", true, 0);
		break;
	case PROTO_EV_STARTED:
		ev->request = proto_dec_int(d, o, "request", true, 0);
		ev->session = proto_dec_int(d, o, "session", true, 0);
		ev->pid = (pid_t)proto_dec_int(d, o, "pid", true, 0);
		break;
	case PROTO_EV_OUTPUT:
		proto_dec_output(d, ev, o);
		break;
	case PROTO_EV_WRITTEN:
	case PROTO_EV_SKIPPED:
		ev->session = proto_dec_int(d, o, "session", true, 0);
		ev->bytes = (uint64_t)proto_dec_int(d, o, "bytes", true, 0);
		break;
	case PROTO_EV_EXIT:
		proto_dec_exit(d, ev, o);
		break;
	case PROTO_EV_LIST:
		proto_dec_list(d, ev, o);
		break;
	case PROTO_EV_SCREEN:
	case PROTO_EV_RESIZED:
		proto_dec_screen(d, ev, o);
		break;
	}
}

int
proto_event_decode(json_t *o, struct proto_event *ev, char **cause)
{
	struct proto_dec	 d = { .event = "an", .cause = NULL };
	const char		*name;
	size_t			 i;

	memset(ev, 0, sizeof *ev);
	if (!json_is_object(o)) {
		*cause = xstrdup("an event must be a JSON object");
		return -1;
	}
	ev->json = json_incref(o);
	name = proto_dec_str(&d, o, "event", true);
	ev->id = proto_dec_str(&d, o, "id", false);
	if (name != NULL) {
		d.event = name;
		for (i = 1; i < sizeof proto_ev_names /
		    sizeof proto_ev_names[0]; i++)
			if (strcmp(name, proto_ev_names[i]) == 0)
				ev->kind = (enum proto_ev_kind)i;
		proto_dec_fields(&d, ev, o);
	}
	if (d.cause != NULL) {
		proto_event_free(ev);
		*cause = d.cause;
		return -1;
	}
	return 0;
}

int
proto_event_parse(const char *line, size_t len, struct proto_event *ev,
    char **cause)
{
	json_error_t	 jerr;
	json_t		*o;
	int		 rc;

	if (len > 0 && line[len - 1] == '\n')
		len--;
	memset(ev, 0, sizeof *ev);
	if ((o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr)) ==
	    NULL) {
		*cause = xasprintf("malformed JSON at column %d: %s",
		    jerr.column, jerr.text);
		return -1;
	}
	rc = proto_event_decode(o, ev, cause);
	json_decref(o);
	return rc;
}

void
proto_event_free(struct proto_event *ev)
{
	size_t	i;

	for (i = 0; i < ev->nowned; i++)
		free(ev->owned[i]);
	free(ev->owned);
	free(ev->sessions);
	free(ev->pending);
	buf_free(&ev->raw);
	json_decref(ev->json);
	memset(ev, 0, sizeof *ev);
}
