/*
 * proto-events.c - the control protocol's event builders (see proto.h):
 * hello, error, ok, queued, approved/denied, withdrawn, started, output
 * (of the PTY or a pipe), screen, resized, written, exit and list, each
 * appended to a buffer as one JSON line; the notify program's argument,
 * which describes a waiting request as queued does; and proto_json_line,
 * which writes every line of the codec.
 *
 * Invariants: event builders only hand jansson valid UTF-8 (invalid bytes
 * become U+FFFD) and always emit exactly one line.
 */
#include "control/proto.h"
#include "control/proto-int.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/quote.h"
#include "base/utf8.h"
#include "base/util.h"

void
proto_utf8_clean(struct buf *out, const void *p, size_t n)
{
	struct utf8_carry	carry = { .len = 0 };

	utf8_sanitize(&carry, p, n, out);
	utf8_finish(&carry, out);
}

json_t *
proto_json_new(const char *kind, const char *name, const char *id)
{
	json_t	*o = json_object();

	if (o == NULL)
		fatal("out of memory");
	json_object_set_new(o, kind, json_string(name));
	if (id != NULL)
		json_object_set_new(o, "id", json_string(id));
	return o;
}

/* Start an event object: {"event": name, "id": id}. */
static json_t *
proto_ev_new(const char *name, const char *id)
{
	return proto_json_new("event", name, id);
}

/* A JSON string of s with invalid UTF-8 bytes replaced by U+FFFD. */
static json_t *
proto_str(const char *s)
{
	struct buf	 b;
	json_t		*v;

	memset(&b, 0, sizeof b);
	proto_utf8_clean(&b, s, strlen(s));
	v = json_stringn_nocheck(b.data != NULL ? b.data : "", b.len);
	buf_free(&b);
	if (v == NULL)
		fatal("out of memory");
	return v;
}

/* Add a string field when s is not NULL. */
static void
proto_set_str(json_t *o, const char *key, const char *s)
{
	if (s != NULL)
		json_object_set_new(o, key, proto_str(s));
}

/* Add an integer field. */
static void
proto_set_int(json_t *o, const char *key, int64_t v)
{
	json_object_set_new(o, key, json_integer((json_int_t)v));
}

/* Add an array of strings. */
static void
proto_set_argv(json_t *o, const char *key, char *const *argv)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; argv != NULL && argv[i] != NULL; i++)
		json_array_append_new(a, proto_str(argv[i]));
	json_object_set_new(o, key, a);
}

void
proto_json_line(struct buf *b, json_t *o)
{
	char	*s;

	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (s == NULL)
		fatal("out of memory");
	buf_adds(b, s);
	buf_addc(b, '\n');
	free(s);
	json_decref(o);
}

void
proto_ev_hello(struct buf *b)
{
	json_t	*o = proto_ev_new("hello", NULL);

	proto_set_int(o, "version", PROTO_VERSION);
	proto_set_str(o, "server", "ptyvisor " PACKAGE_VERSION);
	proto_set_int(o, "pid", (int64_t)getpid());
	proto_json_line(b, o);
}

void
proto_ev_attached(struct buf *b, const char *id, unsigned long console,
    bool tty)
{
	json_t	*o = proto_ev_new("attached", id);

	proto_set_int(o, "console", (int64_t)console);
	json_object_set_new(o, "tty", json_boolean(tty));
	proto_json_line(b, o);
}

void
proto_ev_error(struct buf *b, const char *id, enum proto_err code,
    const char *message)
{
	json_t	*o = proto_ev_new("error", id);

	proto_set_str(o, "code", proto_err_name(code));
	proto_set_str(o, "message", message);
	proto_json_line(b, o);
}

void
proto_ev_ok(struct buf *b, const char *id)
{
	proto_json_line(b, proto_ev_new("ok", id));
}

void
proto_ev_ok_not_saved(struct buf *b, const char *id, const char *why)
{
	json_t	*o = proto_ev_new("ok", id);

	proto_set_str(o, "not_saved", why);
	proto_json_line(b, o);
}

/* An exec check's own fields, as one object under "exec_check". */
static void
proto_set_check(json_t *o, const struct proto_pending *p)
{
	json_t	*c;

	if (p->check_session <= 0)
		return;
	c = json_object();
	proto_set_int(c, "session", p->check_session);
	if (p->check_pid > 0)
		proto_set_int(c, "pid", p->check_pid);
	proto_set_str(c, "path", p->check_path);
	proto_set_str(c, "chain", p->check_chain);
	json_object_set_new(o, "exec_check", c);
}

/* Add the fields of a pending request to o. */
static void
proto_set_pending(json_t *o, const struct proto_pending *p)
{
	const struct proto_exec	*x = p->exec;

	proto_set_int(o, "request", p->request);
	proto_set_str(o, "verdict", p->verdict);
	if (p->environ_differs != NULL && p->environ_differs[0] != NULL)
		proto_set_argv(o, "environ_differs", p->environ_differs);
	proto_set_str(o, "by", p->by);
	proto_set_str(o, "detail", p->detail);
	if (x->argv != NULL)
		proto_set_argv(o, "argv", x->argv);
	proto_set_str(o, "cwd", x->cwd);
	if (x->has_sandbox)
		proto_set_str(o, "sandbox", sandbox_profile_name(x->sandbox));
	json_object_set_new(o, "network", json_boolean(x->network));
	if (p->connect)
		json_object_set_new(o, "connect", json_true());
	proto_set_str(o, "network_allow", x->network_allow);
	proto_set_str(o, "why", x->why);
	if (x->env_dropped != NULL && x->env_dropped[0] != NULL)
		proto_set_argv(o, "env_dropped", x->env_dropped);
	if (x->env != NULL && x->env[0] != NULL)
		proto_set_argv(o, "env", x->env);
	if (p->client_pid > 0)
		proto_set_int(o, "client_pid", p->client_pid);
	proto_set_str(o, "client_exe", p->client_exe);
	proto_set_check(o, p);
}

char *
proto_notify_json(const struct proto_pending *p)
{
	const struct proto_exec	*x = p->exec;
	json_t			*o = json_object(), *argv = json_array();
	char			*cmd, *s, *out;
	size_t			 i;

	for (i = 0; x->argv[i] != NULL; i++)
		json_array_append_new(argv, json_string(x->argv[i]));
	cmd = quote_argv(x->argv);
	json_object_set_new(o, "type", json_string("approval-requested"));
	json_object_set_new(o, "request", json_integer((json_int_t)p->request));
	json_object_set_new(o, "command", json_string(cmd));
	json_object_set_new(o, "argv", argv);
	if (x->cwd != NULL)
		json_object_set_new(o, "cwd", json_string(x->cwd));
	json_object_set_new(o, "sandbox", json_string(x->has_sandbox ?
	    sandbox_profile_name(x->sandbox) : ""));
	json_object_set_new(o, "network", json_boolean(x->network));
	if (x->network_allow != NULL)
		json_object_set_new(o, "network_allow",
		    json_string(x->network_allow));
	if (x->why != NULL)
		json_object_set_new(o, "why", json_string(x->why));
	if (x->env_dropped != NULL && x->env_dropped[0] != NULL)
		proto_set_argv(o, "env_dropped", x->env_dropped);
	if (p->client_pid > 0)
		json_object_set_new(o, "client_pid",
		    json_integer(p->client_pid));
	if (p->client_exe != NULL)
		json_object_set_new(o, "client_exe",
		    json_string(p->client_exe));
	json_object_set_new(o, "by", json_string(p->by));
	proto_set_check(o, p);
	free(cmd);
	/* json_string refuses invalid UTF-8: such fields are just left out. */
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (s == NULL)
		fatal("out of memory");
	out = xstrdup(s);
	free(s);
	return out;
}

void
proto_ev_queued(struct buf *b, const char *id,
    const struct proto_pending *pending)
{
	json_t	*o = proto_ev_new("queued", id);

	proto_set_pending(o, pending);
	proto_json_line(b, o);
}

void
proto_ev_decided(struct buf *b, const char *id, int64_t request,
    bool approved, const char *by, const char *reason, char *const *argv,
    const char *scope)
{
	json_t	*o = proto_ev_new(approved ? "approved" : "denied", id);

	proto_set_int(o, "request", request);
	proto_set_str(o, "by", by);
	proto_set_str(o, "reason", reason);
	if (argv != NULL)
		proto_set_argv(o, "argv", argv);
	proto_set_str(o, "scope", scope);
	proto_json_line(b, o);
}

void
proto_ev_withdrawn(struct buf *b, int64_t request)
{
	json_t	*o = proto_ev_new("withdrawn", NULL);

	proto_set_int(o, "request", request);
	proto_json_line(b, o);
}

void
proto_ev_started(struct buf *b, const char *id, int64_t request,
    int64_t session, pid_t pid)
{
	json_t	*o = proto_ev_new("started", id);

	proto_set_int(o, "request", request);
	proto_set_int(o, "session", session);
	proto_set_int(o, "pid", pid);
	proto_json_line(b, o);
}

/*
 * An output event; stream names the pipe it came from (NULL: the PTY).
 * The data goes last, encoded straight into the line: base64 digits need
 * no escaping, and text is escaped by one pass over runs of plain bytes.
 * Through a jansson string it was copied, checked and escaped byte by
 * byte again: most of the server's relay cost apart from the screen (perf,
 * `exec --raw` of 6.9 MB).
 */
static void
proto_ev_output_of(struct buf *b, const char *id, int64_t session,
    uint64_t seq, const char *stream, const void *data, size_t len,
    enum proto_encoding enc)
{
	json_t		*o = proto_ev_new("output", id);
	struct buf	 tmp;

	proto_set_int(o, "session", session);
	proto_set_int(o, "seq", (int64_t)seq);
	if (stream != NULL)
		json_object_set_new(o, "stream", json_string(stream));
	proto_json_line(b, o);
	b->len -= 2;		/* "}\n": the data goes before them */
	if (enc == PROTO_ENC_BASE64) {
		buf_adds(b, ",\"b64\":\"");
		proto_base64_encode(b, data, len);
		buf_addc(b, '"');
	} else {
		memset(&tmp, 0, sizeof tmp);
		proto_utf8_clean(&tmp, data, len);
		buf_adds(b, ",\"data\":");
		buf_add_json_string(b, tmp.data != NULL ? tmp.data : "",
		    tmp.len);
		buf_free(&tmp);
	}
	buf_add(b, "}\n", 2);
}

void
proto_ev_output(struct buf *b, const char *id, int64_t session, uint64_t seq,
    const void *data, size_t len, enum proto_encoding enc)
{
	proto_ev_output_of(b, id, session, seq, NULL, data, len, enc);
}

void
proto_ev_stream(struct buf *b, const char *id, int64_t session, uint64_t seq,
    int fd, const void *data, size_t len, enum proto_encoding enc)
{
	proto_ev_output_of(b, id, session, seq, fd == 2 ? "stderr" : "stdout",
	    data, len, enc);
}

void
proto_ev_screen(struct buf *b, const char *id, int64_t session,
    unsigned int cols, unsigned int rows, const void *data, size_t len,
    bool partial)
{
	json_t		*o = proto_ev_new("screen", id);
	struct buf	 tmp = { 0 };

	proto_set_int(o, "session", session);
	proto_set_int(o, "cols", cols);
	proto_set_int(o, "rows", rows);
	proto_utf8_clean(&tmp, data, len);
	json_object_set_new(o, "data", json_stringn_nocheck(tmp.data != NULL ?
	    tmp.data : "", tmp.len));
	buf_free(&tmp);
	if (partial)
		json_object_set_new(o, "partial", json_true());
	proto_json_line(b, o);
}

void
proto_ev_resized(struct buf *b, int64_t session, unsigned int cols,
    unsigned int rows)
{
	json_t	*o = proto_ev_new("resized", NULL);

	proto_set_int(o, "session", session);
	proto_set_int(o, "cols", cols);
	proto_set_int(o, "rows", rows);
	proto_json_line(b, o);
}

void
proto_ev_skipped(struct buf *b, int64_t session, uint64_t bytes)
{
	json_t	*o = proto_ev_new("skipped", NULL);

	proto_set_int(o, "session", session);
	proto_set_int(o, "bytes", (int64_t)bytes);
	proto_json_line(b, o);
}

void
proto_ev_written(struct buf *b, const char *id, int64_t session,
    uint64_t total)
{
	json_t	*o = proto_ev_new("written", id);

	proto_set_int(o, "session", session);
	proto_set_int(o, "bytes", (int64_t)total);
	proto_json_line(b, o);
}

void
proto_ev_exit(struct buf *b, const char *id, const struct proto_exit *e)
{
	json_t	*o = proto_ev_new("exit", id);

	proto_set_int(o, "session", e->session);
	if (e->signal != 0)
		proto_set_int(o, "signal", e->signal);
	else
		proto_set_int(o, "code", e->code);
	json_object_set_new(o, "timed_out", json_boolean(e->timed_out));
	proto_set_int(o, "duration_ms", (int64_t)e->duration_ms);
	proto_set_str(o, "recording", e->recording);
	proto_set_str(o, "ending", e->ending);
	proto_set_str(o, "cwd", e->cwd);
	proto_json_line(b, o);
}

void
proto_ev_list(struct buf *b, const char *id,
    const struct proto_session *sessions, size_t nsessions,
    const struct proto_pending *pending, size_t npending)
{
	json_t	*o = proto_ev_new("list", id), *a, *item;
	size_t	 i;

	a = json_array();
	for (i = 0; i < nsessions; i++) {
		item = json_object();
		proto_set_int(item, "session", sessions[i].session);
		if (sessions[i].pid > 0)
			proto_set_int(item, "pid", sessions[i].pid);
		proto_set_argv(item, "argv", sessions[i].argv);
		proto_set_str(item, "cwd", sessions[i].cwd);
		proto_set_str(item, "state", sessions[i].state);
		json_object_set_new(item, "agent",
		    json_boolean(sessions[i].agent));
		json_array_append_new(a, item);
	}
	json_object_set_new(o, "sessions", a);
	a = json_array();
	for (i = 0; i < npending; i++) {
		item = json_object();
		proto_set_pending(item, &pending[i]);
		json_array_append_new(a, item);
	}
	json_object_set_new(o, "pending", a);
	proto_json_line(b, o);
}
