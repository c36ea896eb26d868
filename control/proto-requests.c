/*
 * proto-requests.c - the control protocol's request builders (see
 * proto-client.h): hello, exec, input, kill, resize, list, subscribe,
 * shutdown, decide, attach and connect, each appended to a buffer as one
 * JSON line, the inverse of proto_parse().
 *
 * Invariants: keys go out in a fixed order (insertion order); a string
 * jansson refuses (not UTF-8) is left out, never sent broken; the exec's
 * sandbox is read in one place (proto_req_exec_sandbox).
 */
#include "control/proto-client.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "control/proto-int.h"

/* Start a request object: {"op": op, "id": id}. */
static json_t *
proto_req_new(enum proto_op op, const char *id)
{
	return proto_json_new("op", proto_op_name(op), id);
}

/* Add a string field when s is not NULL (and is UTF-8). */
static void
proto_req_str(json_t *o, const char *key, const char *s)
{
	if (s != NULL)
		json_object_set_new(o, key, json_string(s));
}

/* Add an array of strings (a word that is not UTF-8 is left out). */
static void
proto_req_argv(json_t *o, const char *key, char *const *argv)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; argv[i] != NULL; i++)
		json_array_append_new(a, json_string(argv[i]));
	json_object_set_new(o, key, a);
}

/*
 * Add "NAME=VALUE" strings as an object of strings.  One without a name
 * is skipped; one that is not UTF-8 cannot be sent and stays behind.
 */
static void
proto_req_env(json_t *o, const char *key, char *const *env)
{
	json_t	*e = json_object();
	char	*name;
	size_t	 i, len;

	for (i = 0; env[i] != NULL; i++) {
		len = strcspn(env[i], "=");
		if (len == 0 || env[i][len] != '=')
			continue;
		name = xstrndup(env[i], len);
		json_object_set_new(e, name, json_string(env[i] + len + 1));
		free(name);
	}
	json_object_set_new(o, key, e);
}

void
proto_req_hello(struct buf *b)
{
	json_t	*o = proto_req_new(PROTO_OP_HELLO, NULL);

	json_object_set_new(o, "version", json_integer(PROTO_VERSION));
	proto_json_line(b, o);
}

/* The exec's sandbox: the profile it names, when it names one. */
static void
proto_req_exec_sandbox(json_t *o, const struct proto_exec *ex)
{
	if (ex->has_sandbox)
		proto_req_str(o, "sandbox", sandbox_profile_name(ex->sandbox));
}

/* The exec's timeout: whole seconds as an integer, else a fraction. */
static void
proto_req_exec_timeout(json_t *o, uint64_t ms)
{
	if (ms == 0)
		return;
	if (ms % 1000 == 0)
		json_object_set_new(o, "timeout_s",
		    json_integer((json_int_t)(ms / 1000)));
	else
		json_object_set_new(o, "timeout_s",
		    json_real((double)ms / 1000));
}

void
proto_req_exec(struct buf *b, const char *id, const struct proto_exec *ex)
{
	json_t	*o = proto_req_new(PROTO_OP_EXEC, id), *stdio;
	int	 i;

	proto_req_argv(o, "argv", ex->argv);
	if (ex->env != NULL)
		proto_req_env(o, "env", ex->env);
	if (ex->cols != 0)
		json_object_set_new(o, "cols", json_integer(ex->cols));
	if (ex->rows != 0)
		json_object_set_new(o, "rows", json_integer(ex->rows));
	json_object_set_new(o, "network", json_boolean(ex->network));
	if (ex->encoding == PROTO_ENC_BASE64)
		json_object_set_new(o, "encoding", json_string("base64"));
	proto_req_str(o, "cwd", ex->cwd);
	proto_req_exec_timeout(o, ex->timeout_ms);
	proto_req_exec_sandbox(o, ex);
	proto_req_str(o, "why", ex->why);
	proto_req_str(o, "network_allow", ex->network_allow);
	if (ex->environ != NULL)
		proto_req_env(o, "environ", ex->environ);
	if (ex->has_umask)
		json_object_set_new(o, "umask", json_integer(ex->umask));
	if (ex->report_cwd)
		json_object_set_new(o, "report_cwd", json_true());
	if (ex->pipes[0] || ex->pipes[1] || ex->pipes[2] || ex->stdin_null) {
		stdio = json_array();
		for (i = 0; i < 3; i++)
			json_array_append_new(stdio, json_string(
			    i == 2 && ex->err_joined ? "stdout" :
			    i == 0 && ex->stdin_null ? "null" :
			    ex->pipes[i] ? "pipe" : "pty"));
		json_object_set_new(o, "stdio", stdio);
	}
	proto_json_line(b, o);
}

void
proto_req_input(struct buf *b, const char *id, int64_t session,
    bool to_stdin, const void *data, size_t len, enum proto_encoding enc,
    bool eof)
{
	json_t		*o = proto_req_new(PROTO_OP_INPUT, id);
	struct buf	 s = { 0 };

	json_object_set_new(o, "session", json_integer(session));
	if (to_stdin)
		json_object_set_new(o, "stream", json_string("stdin"));
	if (len > 0 || !eof) {
		if (enc == PROTO_ENC_BASE64) {
			proto_base64_encode(&s, data, len);
			json_object_set_new(o, "b64", json_stringn(
			    s.data != NULL ? s.data : "", s.len));
		} else {
			proto_utf8_clean(&s, data, len);
			json_object_set_new(o, "data", json_stringn(
			    s.data != NULL ? s.data : "", s.len));
		}
		buf_free(&s);
	}
	if (eof)
		json_object_set_new(o, "eof", json_true());
	proto_json_line(b, o);
}

/* A request with a session and nothing else (kill, screen). */
static void
proto_req_session(struct buf *b, enum proto_op op, const char *id,
    int64_t session)
{
	json_t	*o = proto_req_new(op, id);

	json_object_set_new(o, "session", json_integer(session));
	proto_json_line(b, o);
}

void
proto_req_kill(struct buf *b, const char *id, int64_t session)
{
	proto_req_session(b, PROTO_OP_KILL, id, session);
}

void
proto_req_screen(struct buf *b, const char *id, int64_t session)
{
	proto_req_session(b, PROTO_OP_SCREEN, id, session);
}

void
proto_req_resize(struct buf *b, const char *id, int64_t session,
    unsigned int cols, unsigned int rows)
{
	json_t	*o = proto_req_new(PROTO_OP_RESIZE, id);

	json_object_set_new(o, "session", json_integer(session));
	json_object_set_new(o, "cols", json_integer(cols));
	json_object_set_new(o, "rows", json_integer(rows));
	proto_json_line(b, o);
}

void
proto_req_list(struct buf *b, const char *id)
{
	proto_json_line(b, proto_req_new(PROTO_OP_LIST, id));
}

void
proto_req_subscribe(struct buf *b, const char *id)
{
	proto_json_line(b, proto_req_new(PROTO_OP_SUBSCRIBE, id));
}

void
proto_req_shutdown(struct buf *b, const char *id)
{
	proto_json_line(b, proto_req_new(PROTO_OP_SHUTDOWN, id));
}

void
proto_req_decide(struct buf *b, const struct proto_request *req)
{
	json_t	*o = proto_req_new(PROTO_OP_DECIDE, req->id);

	json_object_set_new(o, "request", json_integer(req->request));
	json_object_set_new(o, "decision",
	    json_string(req->approve ? "approve" : "deny"));
	json_object_set_new(o, "remember", json_boolean(req->remember));
	if (req->once)
		json_object_set_new(o, "once", json_true());
	proto_req_str(o, "reason", req->reason);
	proto_req_str(o, "rule", req->rule);
	if (req->exec.argv != NULL)
		proto_req_argv(o, "argv", req->exec.argv);
	proto_req_str(o, "by", req->by);
	proto_json_line(b, o);
}

void
proto_req_attach(struct buf *b, const struct proto_request *req)
{
	json_t	*o = proto_req_new(PROTO_OP_ATTACH, req->id);

	proto_req_str(o, "term", req->term);
	json_object_set_new(o, "cols", json_integer(req->cols));
	json_object_set_new(o, "rows", json_integer(req->rows));
	json_object_set_new(o, "readonly", json_boolean(req->readonly));
	json_object_set_new(o, "new", json_boolean(req->new_session));
	json_object_set_new(o, "pass_tty", json_boolean(req->pass_tty));
	proto_req_str(o, "tty", req->tty);
	proto_req_str(o, "by", req->by);
	proto_req_str(o, "cwd", req->exec.cwd);
	if (req->exec.argv != NULL)
		proto_req_argv(o, "argv", req->exec.argv);
	proto_json_line(b, o);
}

void
proto_req_connect(struct buf *b, const char *id, const char *host,
    unsigned int port, const char *why)
{
	json_t	*o = proto_req_new(PROTO_OP_CONNECT, id);

	proto_req_str(o, "host", host);
	json_object_set_new(o, "port", json_integer(port));
	proto_req_str(o, "why", why);
	proto_json_line(b, o);
}
