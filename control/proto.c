/*
 * proto.c - control protocol lines (see proto.h): request parsing and
 * validation, and the names of ops and error codes.  Event builders are in
 * proto-events.c, base64 and the UTF-8 boundary in proto-encoding.c.
 *
 * Invariants: proto_parse either returns a fully validated request or NULL
 * with an error, never a half-checked struct; every string it keeps is free
 * of NUL bytes except input data, which carries its length.
 */
#include "control/proto.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "net/hostlist.h"

/* Fill *err (code and printf-style message); returns NULL for the caller. */
static void *
proto_fail(struct proto_error *err, enum proto_err code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void *
proto_fail(struct proto_error *err, enum proto_err code, const char *fmt, ...)
{
	va_list	ap;

	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return NULL;
}

const char *
proto_op_name(enum proto_op op)
{
	static const char	*names[] = { "hello", "exec", "input", "kill",
				    "resize", "list", "subscribe", "decide",
				    "attach", "shutdown", "connect",
				    "screen" };

	if ((size_t)op >= sizeof names / sizeof names[0])
		return "unknown";
	return names[op];
}

const char *
proto_err_name(enum proto_err code)
{
	static const char	*names[] = { "malformed-json", "not-an-object",
				    "unknown-op", "missing-field", "wrong-type",
				    "bad-value", "line-too-long", "bad-version",
				    "no-such-session", "no-such-request",
				    "bad-state", "internal" };

	if ((size_t)code >= sizeof names / sizeof names[0])
		return "internal";
	return names[code];
}

void
proto_exec_free(struct proto_exec *x)
{
	if (x == NULL)
		return;
	strv_free(x->argv);
	free(x->cwd);
	strv_free(x->env);
	strv_free(x->environ);
	strv_free(x->env_dropped);
	free(x->why);
	free(x->network_allow);
	memset(x, 0, sizeof *x);
}

void
proto_request_free(struct proto_request *req)
{
	if (req == NULL)
		return;
	free(req->id);
	proto_exec_free(&req->exec);
	free(req->host);
	free(req->why);
	free(req->data);
	free(req->reason);
	free(req->rule);
	free(req->by);
	free(req->term);
	free(req->tty);
	free(req);
}

/*
 * Read an optional string field into *out (NULL when absent).  Returns 0,
 * or -1 with *err for a non-string or a string holding a NUL byte.
 */
static int
proto_get_str(json_t *o, const char *key, bool required, char **out,
    struct proto_error *err)
{
	json_t	*v = json_object_get(o, key);

	*out = NULL;
	if (v == NULL) {
		if (!required)
			return 0;
		proto_fail(err, PROTO_ERR_MISSING, "missing field '%s'", key);
		return -1;
	}
	if (!json_is_string(v)) {
		proto_fail(err, PROTO_ERR_TYPE, "'%s' must be a string", key);
		return -1;
	}
	if (strlen(json_string_value(v)) != json_string_length(v)) {
		proto_fail(err, PROTO_ERR_VALUE, "'%s' contains a NUL byte",
		    key);
		return -1;
	}
	*out = xstrdup(json_string_value(v));
	return 0;
}

/* Read an optional boolean field (absent: false). */
static int
proto_get_bool(json_t *o, const char *key, bool *out, struct proto_error *err)
{
	json_t	*v = json_object_get(o, key);

	*out = false;
	if (v == NULL)
		return 0;
	if (!json_is_boolean(v)) {
		proto_fail(err, PROTO_ERR_TYPE, "'%s' must be true or false",
		    key);
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

/*
 * Read an integer field in [lo, hi].  Absent: *out = def when not required.
 */
static int
proto_get_int(json_t *o, const char *key, bool required, int64_t lo,
    int64_t hi, int64_t def, int64_t *out, struct proto_error *err)
{
	json_t	*v = json_object_get(o, key);

	*out = def;
	if (v == NULL) {
		if (!required)
			return 0;
		proto_fail(err, PROTO_ERR_MISSING, "missing field '%s'", key);
		return -1;
	}
	if (!json_is_integer(v)) {
		proto_fail(err, PROTO_ERR_TYPE, "'%s' must be an integer", key);
		return -1;
	}
	if (json_integer_value(v) < lo || json_integer_value(v) > hi) {
		proto_fail(err, PROTO_ERR_VALUE, "'%s' must be between %lld "
		    "and %lld", key, (long long)lo, (long long)hi);
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
}

/* Read a NULL-terminated string vector from a JSON array. */
static int
proto_get_argv(json_t *o, struct proto_exec *ex, struct proto_error *err)
{
	json_t	*v = json_object_get(o, "argv"), *item;
	size_t	 i, n;

	if (v == NULL) {
		proto_fail(err, PROTO_ERR_MISSING, "missing field 'argv'");
		return -1;
	}
	if (!json_is_array(v)) {
		proto_fail(err, PROTO_ERR_TYPE,
		    "'argv' must be an array of strings");
		return -1;
	}
	n = json_array_size(v);
	if (n == 0) {
		proto_fail(err, PROTO_ERR_VALUE, "'argv' is empty");
		return -1;
	}
	ex->argv = xcalloc(n + 1, sizeof *ex->argv);
	json_array_foreach(v, i, item) {
		if (!json_is_string(item)) {
			proto_fail(err, PROTO_ERR_TYPE,
			    "'argv[%zu]' must be a string", i);
			return -1;
		}
		if (strlen(json_string_value(item)) !=
		    json_string_length(item)) {
			proto_fail(err, PROTO_ERR_VALUE,
			    "'argv[%zu]' contains a NUL byte", i);
			return -1;
		}
		ex->argv[i] = xstrdup(json_string_value(item));
	}
	if (ex->argv[0][0] == '\0') {
		proto_fail(err, PROTO_ERR_VALUE, "'argv[0]' is empty");
		return -1;
	}
	return 0;
}

bool
proto_env_name_ok(const char *name)
{
	return name[0] != '\0' && strchr(name, '=') == NULL;
}

/* Read an object of strings (key: "env", "environ") as NAME=VALUE. */
static int
proto_get_env(json_t *o, const char *name, char ***out,
    struct proto_error *err)
{
	json_t		*v = json_object_get(o, name), *val;
	const char	*key;
	size_t		 n = 0;

	if (v == NULL)
		return 0;
	if (!json_is_object(v)) {
		proto_fail(err, PROTO_ERR_TYPE,
		    "'%s' must be an object of strings", name);
		return -1;
	}
	*out = xcalloc(json_object_size(v) + 1, sizeof **out);
	json_object_foreach(v, key, val) {
		if (!proto_env_name_ok(key)) {
			proto_fail(err, PROTO_ERR_VALUE, PROTO_FMT_BAD_ENV_NAME,
			    name);
			return -1;
		}
		if (!json_is_string(val)) {
			proto_fail(err, PROTO_ERR_TYPE,
			    "'%s.%.64s' must be a string", name, key);
			return -1;
		}
		if (strlen(json_string_value(val)) != json_string_length(val)) {
			proto_fail(err, PROTO_ERR_VALUE,
			    "'%s.%.64s' contains a NUL byte", name, key);
			return -1;
		}
		(*out)[n++] = xasprintf("%s=%s", key, json_string_value(val));
	}
	return 0;
}

/* Read an encoding name field (absent: text). */
static int
proto_get_encoding(json_t *o, enum proto_encoding *enc,
    struct proto_error *err)
{
	char	*s;

	*enc = PROTO_ENC_TEXT;
	if (proto_get_str(o, "encoding", false, &s, err) == -1)
		return -1;
	if (s == NULL || strcmp(s, "text") == 0) {
		free(s);
		return 0;
	}
	if (strcmp(s, "base64") == 0) {
		*enc = PROTO_ENC_BASE64;
		free(s);
		return 0;
	}
	free(s);
	proto_fail(err, PROTO_ERR_VALUE,
	    "'encoding' must be \"text\" or \"base64\"");
	return -1;
}

/*
 * Read "stdio": absent, or three of "pty" and "pipe" for fds 0, 1, 2; the
 * first may be "null" (/dev/null), the third "stdout" when the second is
 * "pipe": stderr on stdout's pipe.
 */
static int
proto_get_stdio(json_t *o, struct proto_exec *ex, struct proto_error *err)
{
	static const char	 what[] = "'stdio' must be an array of three "
	    "\"pty\" or \"pipe\" (the first may be \"null\", the third "
	    "\"stdout\")";
	json_t			*v = json_object_get(o, "stdio"), *e;
	const char		*m;
	size_t			 i;

	if (v == NULL)
		return 0;
	if (!json_is_array(v) || json_array_size(v) != 3) {
		proto_fail(err, json_is_array(v) ? PROTO_ERR_VALUE :
		    PROTO_ERR_TYPE, what);
		return -1;
	}
	json_array_foreach(v, i, e) {
		m = json_string_value(e);
		if (m != NULL && i == 2 && strcmp(m, "stdout") == 0) {
			if (!ex->pipes[1]) {
				proto_fail(err, PROTO_ERR_VALUE, "'stdio': "
				    "stderr can be \"stdout\" only when "
				    "stdout is \"pipe\"");
				return -1;
			}
			ex->err_joined = true;
			continue;
		}
		if (m != NULL && i == 0 && strcmp(m, "null") == 0) {
			ex->stdin_null = true;
			continue;
		}
		if (m == NULL || (strcmp(m, "pty") != 0 &&
		    strcmp(m, "pipe") != 0)) {
			proto_fail(err, m == NULL ? PROTO_ERR_TYPE :
			    PROTO_ERR_VALUE, what);
			return -1;
		}
		ex->pipes[i] = strcmp(m, "pipe") == 0;
	}
	return 0;
}

/* Validate the fields of an exec request. */
static int
proto_parse_exec(json_t *o, struct proto_exec *ex, struct proto_error *err)
{
	char		*profile = NULL;
	json_t		*t;
	double		 secs;
	int64_t		 n;
	char		*cause = NULL;

	if (proto_get_argv(o, ex, err) == -1)
		return -1;
	if (proto_get_str(o, "cwd", false, &ex->cwd, err) == -1)
		return -1;
	if (ex->cwd != NULL && ex->cwd[0] != '/') {
		proto_fail(err, PROTO_ERR_VALUE,
		    "'cwd' must be an absolute path");
		return -1;
	}
	if (proto_get_env(o, "env", &ex->env, err) == -1 ||
	    proto_get_env(o, "environ", &ex->environ, err) == -1)
		return -1;
	if ((t = json_object_get(o, "timeout_s")) != NULL) {
		if (!json_is_number(t)) {
			proto_fail(err, PROTO_ERR_TYPE,
			    "'timeout_s' must be a number");
			return -1;
		}
		secs = json_number_value(t);
		if (!(secs >= 0 && secs <= PROTO_TIMEOUT_MAX_S)) {
			proto_fail(err, PROTO_ERR_VALUE, "'timeout_s' must be "
			    "between 0 (none) and %d", PROTO_TIMEOUT_MAX_S);
			return -1;
		}
		ex->timeout_ms = (uint64_t)(secs * 1000 + 0.5);
	}
	if (proto_get_str(o, "sandbox", false, &profile, err) == -1)
		return -1;
	ex->has_sandbox = profile != NULL;
	if (profile != NULL && !sandbox_profile_lookup(profile,
	    &ex->sandbox)) {
		free(profile);
		proto_fail(err, PROTO_ERR_VALUE, PROTO_MSG_BAD_SANDBOX);
		return -1;
	}
	free(profile);
	if (proto_get_bool(o, "network", &ex->network, err) == -1)
		return -1;
	if (proto_get_str(o, "network_allow", false, &ex->network_allow,
	    err) == -1)
		return -1;
	if (ex->network_allow != NULL &&
	    hostlist_check(ex->network_allow, &cause) != 0) {
		proto_fail(err, PROTO_ERR_VALUE, "'network_allow': %s", cause);
		free(cause);
		return -1;
	}
	if (proto_get_int(o, "cols", false, 1, PROTO_SIZE_MAX,
	    PROTO_DEFAULT_COLS, &n, err) == -1)
		return -1;
	ex->cols = (unsigned int)n;
	if (proto_get_int(o, "rows", false, 1, PROTO_SIZE_MAX,
	    PROTO_DEFAULT_ROWS, &n, err) == -1)
		return -1;
	ex->rows = (unsigned int)n;
	if (proto_get_str(o, "why", false, &ex->why, err) == -1)
		return -1;
	if (proto_get_stdio(o, ex, err) == -1)
		return -1;
	if (proto_get_bool(o, "report_cwd", &ex->report_cwd, err) == -1)
		return -1;
	if (json_object_get(o, "umask") != NULL) {
		if (proto_get_int(o, "umask", true, 0, 0777, 0, &n, err) == -1)
			return -1;
		ex->has_umask = true;
		ex->umask = (unsigned int)n;
	}
	return proto_get_encoding(o, &ex->encoding, err);
}

/* Read an input's "stream" (absent or "pty"; "stdin") and "eof". */
static int
proto_get_input_stream(json_t *o, struct proto_request *req,
    struct proto_error *err)
{
	char	*st;

	if (proto_get_str(o, "stream", false, &st, err) == -1)
		return -1;
	if (st != NULL && strcmp(st, "stdin") != 0 && strcmp(st, "pty") != 0) {
		free(st);
		proto_fail(err, PROTO_ERR_VALUE,
		    "'stream' must be \"pty\" or \"stdin\"");
		return -1;
	}
	req->to_stdin = st != NULL && strcmp(st, "stdin") == 0;
	free(st);
	if (proto_get_bool(o, "eof", &req->eof, err) == -1)
		return -1;
	if (req->eof && !req->to_stdin) {
		proto_fail(err, PROTO_ERR_VALUE,
		    "'eof' needs \"stream\":\"stdin\"");
		return -1;
	}
	return 0;
}

/* Validate the fields of an input request: exactly one of data and b64. */
static int
proto_parse_input(json_t *o, struct proto_request *req,
    struct proto_error *err)
{
	json_t		*data = json_object_get(o, "data");
	json_t		*b64 = json_object_get(o, "b64");
	struct buf	 b;

	if (proto_get_int(o, "session", true, 1, INT64_MAX, 0, &req->session,
	    err) == -1)
		return -1;
	if (proto_get_input_stream(o, req, err) == -1)
		return -1;
	if (req->eof && data == NULL && b64 == NULL) {
		req->data = xstrdup("");	/* EOF alone */
		return 0;
	}
	if ((data == NULL) == (b64 == NULL)) {
		proto_fail(err, data == NULL ? PROTO_ERR_MISSING :
		    PROTO_ERR_VALUE, "input needs exactly one of 'data' and "
		    "'b64'");
		return -1;
	}
	if (data != NULL) {
		if (!json_is_string(data)) {
			proto_fail(err, PROTO_ERR_TYPE,
			    "'data' must be a string");
			return -1;
		}
		req->datalen = json_string_length(data);
		req->data = xmalloc(req->datalen + 1);
		memcpy(req->data, json_string_value(data), req->datalen + 1);
		return 0;
	}
	if (!json_is_string(b64)) {
		proto_fail(err, PROTO_ERR_TYPE, "'b64' must be a string");
		return -1;
	}
	memset(&b, 0, sizeof b);
	if (proto_base64_decode(&b, json_string_value(b64),
	    json_string_length(b64)) == -1) {
		buf_free(&b);
		proto_fail(err, PROTO_ERR_VALUE, "'b64' is not valid base64");
		return -1;
	}
	req->datalen = b.len;
	req->data = xmalloc(b.len + 1);
	if (b.len > 0)
		memcpy(req->data, b.data, b.len);
	req->data[b.len] = '\0';
	buf_free(&b);
	return 0;
}

/*
 * A decide's or an attach's "by": 1 to PROTO_BY_MAX bytes of text on one
 * line (no control character), since it goes into the log and the history
 * as it is.
 */
static int
proto_check_by(const char *v, struct proto_error *err)
{
	const unsigned char	*p;

	if (*v == '\0' || strlen(v) > PROTO_BY_MAX) {
		proto_fail(err, PROTO_ERR_VALUE, "'by' must be 1 to %d bytes",
		    PROTO_BY_MAX);
		return -1;
	}
	for (p = (const unsigned char *)v; *p != '\0'; p++)
		if (*p < ' ' || *p == 0x7f) {
			proto_fail(err, PROTO_ERR_VALUE, "'by' must hold no "
			    "control character");
			return -1;
		}
	return 0;
}

/* Validate the fields of a decide request. */
static int
proto_parse_decide(json_t *o, struct proto_request *req,
    struct proto_error *err)
{
	char	*d;

	if (proto_get_int(o, "request", true, 1, INT64_MAX, 0, &req->request,
	    err) == -1)
		return -1;
	if (proto_get_str(o, "decision", true, &d, err) == -1)
		return -1;
	if (strcmp(d, "approve") != 0 && strcmp(d, "deny") != 0) {
		free(d);
		proto_fail(err, PROTO_ERR_VALUE,
		    "'decision' must be \"approve\" or \"deny\"");
		return -1;
	}
	req->approve = strcmp(d, "approve") == 0;
	free(d);
	if (proto_get_str(o, "reason", false, &req->reason, err) == -1)
		return -1;
	if (proto_get_bool(o, "remember", &req->remember, err) == -1 ||
	    proto_get_bool(o, "once", &req->once, err) == -1)
		return -1;
	if (req->approve && req->remember && req->once) {
		proto_fail(err, PROTO_ERR_VALUE,
		    "'once' and 'remember' exclude each other");
		return -1;
	}
	if (proto_get_str(o, "rule", false, &req->rule, err) == -1 ||
	    proto_get_str(o, "by", false, &req->by, err) == -1)
		return -1;
	if (req->rule != NULL && (!req->approve || !req->remember)) {
		proto_fail(err, PROTO_ERR_VALUE, "'rule' needs \"approve\" "
		    "with 'remember'");
		return -1;
	}
	if (req->by != NULL && proto_check_by(req->by, err) == -1)
		return -1;
	if (json_object_get(o, "argv") != NULL) {
		if (!req->approve || req->remember || req->once) {
			proto_fail(err, PROTO_ERR_VALUE, "'argv' (an edited "
			    "command) needs \"approve\" without 'remember' "
			    "or 'once'");
			return -1;
		}
		if (proto_get_argv(o, &req->exec, err) == -1)
			return -1;
	}
	return 0;
}

/* Validate the fields of a connect request (a host to be asked for). */
static int
proto_parse_connect(json_t *o, struct proto_request *req,
    struct proto_error *err)
{
	char	*host, norm[HOSTLIST_NAME_MAX + 1];
	int64_t	 n;

	if (proto_get_str(o, "host", true, &host, err) == -1)
		return -1;
	if (hostlist_normalize(host, norm, sizeof norm) != 0) {
		free(host);
		proto_fail(err, PROTO_ERR_VALUE,
		    "'host' must be a host name or an address");
		return -1;
	}
	free(host);
	req->host = xstrdup(norm);
	if (proto_get_int(o, "port", true, 1, 65535, 0, &n, err) == -1)
		return -1;
	req->port = (unsigned int)n;
	return proto_get_str(o, "why", false, &req->why, err);
}

/* Read the id (optional here) so that even errors can echo it. */
static int
proto_parse_id(json_t *o, struct proto_request *req, struct proto_error *err)
{
	json_t	*v = json_object_get(o, "id");

	if (v == NULL)
		return 0;
	if (!json_is_string(v)) {
		proto_fail(err, PROTO_ERR_TYPE, "'id' must be a string");
		return -1;
	}
	if (json_string_length(v) == 0 || json_string_length(v) > PROTO_ID_MAX ||
	    strlen(json_string_value(v)) != json_string_length(v)) {
		proto_fail(err, PROTO_ERR_VALUE,
		    "'id' must be 1 to %d bytes without NUL", PROTO_ID_MAX);
		return -1;
	}
	req->id = xstrdup(json_string_value(v));
	err->has_id = true;
	snprintf(err->id, sizeof err->id, "%s", req->id);
	return 0;
}

/* A short name of visible ASCII (a TERM, a terminal's name). */
static int
proto_check_name(const char *key, const char *v, size_t max,
    struct proto_error *err)
{
	const char	*p;

	if (*v == '\0' || strlen(v) > max) {
		proto_fail(err, PROTO_ERR_VALUE, "'%s' must be 1 to %zu bytes",
		    key, max);
		return -1;
	}
	for (p = v; *p != '\0'; p++)
		if (*p <= ' ' || *p > '~') {
			proto_fail(err, PROTO_ERR_VALUE, "'%s' must be visible "
			    "ASCII", key);
			return -1;
		}
	return 0;
}

/* attach: term, cols, rows; readonly, tty, by, new, argv, cwd optional. */
static int
proto_parse_attach(json_t *o, struct proto_request *req,
    struct proto_error *err)
{
	int64_t	n;

	if (proto_get_str(o, "term", true, &req->term, err) == -1 ||
	    proto_check_name("term", req->term, 64, err) == -1 ||
	    proto_get_int(o, "cols", true, 1, PROTO_SIZE_MAX, 0, &n,
	    err) == -1)
		return -1;
	req->cols = (unsigned int)n;
	if (proto_get_int(o, "rows", true, 1, PROTO_SIZE_MAX, 0, &n,
	    err) == -1)
		return -1;
	req->rows = (unsigned int)n;
	if (proto_get_bool(o, "readonly", &req->readonly, err) == -1 ||
	    proto_get_bool(o, "new", &req->new_session, err) == -1 ||
	    proto_get_bool(o, "pass_tty", &req->pass_tty, err) == -1 ||
	    proto_get_str(o, "tty", false, &req->tty, err) == -1 ||
	    (req->tty != NULL &&
	    proto_check_name("tty", req->tty, 64, err) == -1) ||
	    proto_get_str(o, "by", false, &req->by, err) == -1 ||
	    (req->by != NULL && proto_check_by(req->by, err) == -1) ||
	    proto_get_str(o, "cwd", false, &req->exec.cwd, err) == -1)
		return -1;
	if (json_object_get(o, "argv") != NULL) {
		if (!req->new_session) {
			proto_fail(err, PROTO_ERR_VALUE, "'argv' needs "
			    "'new': true");
			return -1;
		}
		if (proto_get_argv(o, &req->exec, err) == -1)
			return -1;
	}
	if (req->readonly && req->new_session) {
		proto_fail(err, PROTO_ERR_VALUE, "a read-only console opens "
		    "no session");
		return -1;
	}
	return 0;
}

struct proto_request *
proto_parse(const char *line, size_t len, struct proto_error *err)
{
	static const char	*ops[] = { "hello", "exec", "input", "kill",
				    "resize", "list", "subscribe", "decide",
				    "attach", "shutdown", "connect", "screen",
				    NULL };
	struct proto_request	*req;
	json_error_t		 jerr;
	json_t			*o = NULL, *v;
	const char		*op;
	int64_t			 n;
	size_t			 i;

	memset(err, 0, sizeof *err);
	if (len > 0 && line[len - 1] == '\n')
		len--;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len > PROTO_LINE_MAX)
		return proto_fail(err, PROTO_ERR_TOO_LONG,
		    "line longer than %d bytes", PROTO_LINE_MAX);
	/* Duplicate keys could mean one thing to us and another to a log. */
	o = json_loadb(line, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL |
	    JSON_DECODE_ANY, &jerr);
	if (o == NULL)
		return proto_fail(err, PROTO_ERR_JSON,
		    "malformed JSON at column %d: %s", jerr.column, jerr.text);
	if (!json_is_object(o)) {
		json_decref(o);
		return proto_fail(err, PROTO_ERR_NOT_OBJECT,
		    "a request must be a JSON object");
	}

	req = xcalloc(1, sizeof *req);
	if (proto_parse_id(o, req, err) == -1)
		goto fail;
	v = json_object_get(o, "op");
	if (v == NULL) {
		proto_fail(err, PROTO_ERR_MISSING, "missing field 'op'");
		goto fail;
	}
	if (!json_is_string(v)) {
		proto_fail(err, PROTO_ERR_TYPE, "'op' must be a string");
		goto fail;
	}
	op = json_string_value(v);
	for (i = 0; ops[i] != NULL && strcmp(op, ops[i]) != 0; i++)
		;
	if (ops[i] == NULL) {
		proto_fail(err, PROTO_ERR_UNKNOWN_OP, "unknown op '%.64s'", op);
		goto fail;
	}
	req->op = (enum proto_op)i;
	if (req->op != PROTO_OP_HELLO && req->id == NULL) {
		proto_fail(err, PROTO_ERR_MISSING, "missing field 'id'");
		goto fail;
	}

	switch (req->op) {
	case PROTO_OP_HELLO:
		if (proto_get_int(o, "version", true, 1, INT32_MAX, 0, &n,
		    err) == -1)
			goto fail;
		req->version = (int)n;
		if (req->version != PROTO_VERSION) {
			proto_fail(err, PROTO_ERR_VERSION, "protocol version %d "
			    "not supported (this server speaks %d)",
			    req->version, PROTO_VERSION);
			goto fail;
		}
		break;
	case PROTO_OP_EXEC:
		if (proto_parse_exec(o, &req->exec, err) == -1)
			goto fail;
		break;
	case PROTO_OP_INPUT:
		if (proto_parse_input(o, req, err) == -1)
			goto fail;
		break;
	case PROTO_OP_KILL:
	case PROTO_OP_SCREEN:
		if (proto_get_int(o, "session", true, 1, INT64_MAX, 0,
		    &req->session, err) == -1)
			goto fail;
		break;
	case PROTO_OP_RESIZE:
		if (proto_get_int(o, "session", true, 1, INT64_MAX, 0,
		    &req->session, err) == -1 ||
		    proto_get_int(o, "cols", true, 1, PROTO_SIZE_MAX, 0, &n,
		    err) == -1)
			goto fail;
		req->cols = (unsigned int)n;
		if (proto_get_int(o, "rows", true, 1, PROTO_SIZE_MAX, 0, &n,
		    err) == -1)
			goto fail;
		req->rows = (unsigned int)n;
		break;
	case PROTO_OP_LIST:
	case PROTO_OP_SUBSCRIBE:
	case PROTO_OP_SHUTDOWN:
		break;
	case PROTO_OP_DECIDE:
		if (proto_parse_decide(o, req, err) == -1)
			goto fail;
		break;
	case PROTO_OP_ATTACH:
		if (proto_parse_attach(o, req, err) == -1)
			goto fail;
		break;
	case PROTO_OP_CONNECT:
		if (proto_parse_connect(o, req, err) == -1)
			goto fail;
		break;
	}
	json_decref(o);
	return req;

fail:
	json_decref(o);
	proto_request_free(req);
	return NULL;
}
