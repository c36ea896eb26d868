/*
 * test-proto.c - control protocol: every op parsed, every class of bad
 * input refused with the right code, every event built and read back,
 * UTF-8 carry-over and RFC 4648 base64 vectors.
 */
#include "control/proto.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "tests/tap.h"

/* Parse a NUL-terminated line. */
static struct proto_request *
parse(const char *line, struct proto_error *err)
{
	return proto_parse(line, strlen(line), err);
}

/* Every op, with its fields. */
static void
test_ops(void)
{
	struct proto_error	 err;
	struct proto_request	*r;

	r = parse("{\"op\":\"hello\",\"version\":1}\n", &err);
	ok(r != NULL && r->op == PROTO_OP_HELLO && r->version == 1 &&
	    r->id == NULL, "hello (no id needed, newline ignored)");
	proto_request_free(r);

	r = parse("{\"op\":\"exec\",\"id\":\"1\",\"argv\":[\"make\",\"test\"],"
	    "\"cwd\":\"/abs\",\"env\":{\"A\":\"1\",\"B\":\"x=y\"},"
	    "\"timeout_s\":600,\"sandbox\":\"workspace-write\","
	    "\"network\":false,\"cols\":120,\"rows\":40,"
	    "\"why\":\"run the tests\",\"extra\":[1]}\r\n", &err);
	if (!ok(r != NULL, "exec (the protocol's example, unknown field ignored)")) {
		diag("%s", err.message);
		return;
	}
	is_int(r->op, PROTO_OP_EXEC, "exec op");
	is_str(r->id, "1", "exec id");
	is_str(r->exec.argv[0], "make", "argv[0]");
	is_str(r->exec.argv[1], "test", "argv[1]");
	ok(r->exec.argv[2] == NULL, "argv terminated");
	is_str(r->exec.cwd, "/abs", "cwd");
	is_str(r->exec.env[0], "A=1", "env A");
	is_str(r->exec.env[1], "B=x=y", "env B");
	ok(r->exec.env[2] == NULL, "env terminated");
	is_int(r->exec.timeout_ms, 600000, "timeout in ms");
	is_str(r->exec.has_sandbox ? sandbox_profile_name(r->exec.sandbox) :
	    NULL, "workspace-write", "sandbox");
	ok(!r->exec.network, "network");
	is_int(r->exec.cols, 120, "cols");
	is_int(r->exec.rows, 40, "rows");
	is_str(r->exec.why, "run the tests", "why");
	is_int(r->exec.encoding, PROTO_ENC_TEXT, "text by default");
	proto_request_free(r);

	r = parse("{\"op\":\"exec\",\"id\":\"2\",\"argv\":[\"ls\"],"
	    "\"timeout_s\":1.5,\"network\":true,\"encoding\":\"base64\"}",
	    &err);
	ok(r != NULL && r->exec.cwd == NULL && r->exec.env == NULL &&
	    !r->exec.has_sandbox && r->exec.why == NULL &&
	    r->exec.timeout_ms == 1500 && r->exec.network &&
	    r->exec.cols == PROTO_DEFAULT_COLS &&
	    r->exec.rows == PROTO_DEFAULT_ROWS &&
	    r->exec.encoding == PROTO_ENC_BASE64, "exec defaults");
	proto_request_free(r);

	r = parse("{\"op\":\"input\",\"id\":\"2\",\"session\":7,"
	    "\"data\":\"y\\n\\u0000\"}", &err);
	ok(r != NULL && r->op == PROTO_OP_INPUT && r->session == 7 &&
	    r->datalen == 3 && memcmp(r->data, "y\n\0", 3) == 0,
	    "input text, NUL kept");
	proto_request_free(r);

	r = parse("{\"op\":\"input\",\"id\":\"2\",\"session\":7,"
	    "\"b64\":\"A/8=\"}", &err);
	ok(r != NULL && r->datalen == 2 && memcmp(r->data, "\x03\xff", 2) == 0,
	    "input base64");
	proto_request_free(r);

	r = parse("{\"op\":\"exec\",\"id\":\"3\",\"argv\":[\"sh\"],"
	    "\"stdio\":[\"pipe\",\"pty\",\"pipe\"],\"umask\":18,"
	    "\"environ\":{\"PATH\":\"/bin\",\"X\":\"a=b\"}}", &err);
	ok(r != NULL && r->exec.pipes[0] && !r->exec.pipes[1] &&
	    r->exec.pipes[2] && r->exec.has_umask && r->exec.umask == 022 &&
	    r->exec.environ != NULL && r->exec.env == NULL &&
	    strcmp(r->exec.environ[0], "PATH=/bin") == 0 &&
	    strcmp(r->exec.environ[1], "X=a=b") == 0 &&
	    r->exec.environ[2] == NULL && !r->exec.err_joined,
	    "exec with stdio, umask, environ");
	proto_request_free(r);
	r = parse("{\"op\":\"exec\",\"id\":\"3\",\"argv\":[\"sh\"],"
	    "\"stdio\":[\"pty\",\"pipe\",\"stdout\"]}", &err);
	ok(r != NULL && !r->exec.pipes[0] && r->exec.pipes[1] &&
	    !r->exec.pipes[2] && r->exec.err_joined,
	    "exec with stderr on stdout's pipe");
	proto_request_free(r);
	r = parse("{\"op\":\"exec\",\"id\":\"3\",\"argv\":[\"sh\"],"
	    "\"stdio\":[\"null\",\"pipe\",\"pty\"]}", &err);
	ok(r != NULL && r->exec.stdin_null && !r->exec.pipes[0] &&
	    r->exec.pipes[1] && !r->exec.pipes[2], "exec with stdin on /dev/null");
	proto_request_free(r);
	r = parse("{\"op\":\"connect\",\"id\":\"4\",\"host\":\"PyPI.org.\","
	    "\"port\":443,\"why\":\"w\"}", &err);
	ok(r != NULL && r->op == PROTO_OP_CONNECT &&
	    strcmp(r->host, "pypi.org") == 0 && r->port == 443 &&
	    strcmp(r->why, "w") == 0, "connect: host normalized, port, why");
	proto_request_free(r);
	r = parse("{\"op\":\"exec\",\"id\":\"3\",\"argv\":[\"pip\"],"
	    "\"network_allow\":\"pypi.org, *.pythonhosted.org\"}", &err);
	ok(r != NULL && r->exec.network_allow != NULL &&
	    strcmp(r->exec.network_allow, "pypi.org, *.pythonhosted.org") == 0
	    && !r->exec.network, "exec with network_allow");
	proto_request_free(r);
	r = parse("{\"op\":\"exec\",\"id\":\"3\",\"argv\":[\"sh\"]}",
	    &err);
	ok(r != NULL && !r->exec.pipes[0] && !r->exec.pipes[1] &&
	    !r->exec.pipes[2] && !r->exec.has_umask &&
	    r->exec.environ == NULL, "exec without them: the PTY, ours");
	proto_request_free(r);

	r = parse("{\"op\":\"input\",\"id\":\"2\",\"session\":7,"
	    "\"stream\":\"stdin\",\"b64\":\"AAE=\"}", &err);
	ok(r != NULL && r->to_stdin && !r->eof && r->datalen == 2 &&
	    memcmp(r->data, "\0\1", 2) == 0, "input to stdin");
	proto_request_free(r);
	r = parse("{\"op\":\"input\",\"id\":\"2\",\"session\":7,"
	    "\"stream\":\"stdin\",\"eof\":true}", &err);
	ok(r != NULL && r->to_stdin && r->eof && r->datalen == 0,
	    "stdin's EOF alone");
	proto_request_free(r);
	r = parse("{\"op\":\"input\",\"id\":\"2\",\"session\":7,"
	    "\"stream\":\"pty\",\"data\":\"x\"}", &err);
	ok(r != NULL && !r->to_stdin && !r->eof, "input to the pty, named");
	proto_request_free(r);

	r = parse("{\"op\":\"kill\",\"id\":\"3\",\"session\":7}", &err);
	ok(r != NULL && r->op == PROTO_OP_KILL && r->session == 7, "kill");
	proto_request_free(r);
	r = parse("{\"op\":\"screen\",\"id\":\"s\",\"session\":7}", &err);
	ok(r != NULL && r->op == PROTO_OP_SCREEN && r->session == 7 &&
	    strcmp(proto_op_name(r->op), "screen") == 0, "screen");
	proto_request_free(r);

	r = parse("{\"op\":\"attach\",\"id\":\"a\",\"term\":\"screen-256color\","
	    "\"cols\":160,\"rows\":48,\"tty\":\"pts/3\",\"new\":true,"
	    "\"argv\":[\"make\",\"test\"],\"cwd\":\"/src\"}", &err);
	ok(r != NULL && r->op == PROTO_OP_ATTACH && r->cols == 160 &&
	    r->rows == 48 && !r->readonly && r->new_session &&
	    strcmp(r->term, "screen-256color") == 0 &&
	    strcmp(r->tty, "pts/3") == 0 && r->exec.argv != NULL &&
	    strcmp(r->exec.argv[1], "test") == 0 &&
	    strcmp(r->exec.cwd, "/src") == 0, "attach: a console and its "
	    "first session");
	proto_request_free(r);
	r = parse("{\"op\":\"attach\",\"id\":\"a\",\"term\":\"xterm\","
	    "\"cols\":80,\"rows\":24,\"readonly\":true}", &err);
	ok(r != NULL && r->readonly && !r->new_session && r->tty == NULL &&
	    r->exec.argv == NULL && r->by == NULL, "attach: read-only, "
	    "nothing opened");
	proto_request_free(r);
	r = parse("{\"op\":\"attach\",\"id\":\"a\",\"term\":\"xterm\","
	    "\"cols\":80,\"rows\":24,\"by\":\"web (127.0.0.1, token "
	    "approver)\"}", &err);
	ok(r != NULL && r->by != NULL && strcmp(r->by, "web (127.0.0.1, "
	    "token approver)") == 0, "attach: who decides in the console");
	proto_request_free(r);
	r = parse("{\"op\":\"shutdown\",\"id\":\"k\"}", &err);
	ok(r != NULL && r->op == PROTO_OP_SHUTDOWN, "shutdown");
	proto_request_free(r);
	is_str(proto_op_name(PROTO_OP_ATTACH), "attach", "op name attach");

	r = parse("{\"op\":\"resize\",\"id\":\"3\",\"session\":7,\"cols\":100,"
	    "\"rows\":30}", &err);
	ok(r != NULL && r->op == PROTO_OP_RESIZE && r->session == 7 &&
	    r->cols == 100 && r->rows == 30, "resize");
	proto_request_free(r);

	r = parse("{\"op\":\"list\",\"id\":\"4\"}", &err);
	ok(r != NULL && r->op == PROTO_OP_LIST, "list");
	proto_request_free(r);

	r = parse("{\"op\":\"subscribe\",\"id\":\"5\"}", &err);
	ok(r != NULL && r->op == PROTO_OP_SUBSCRIBE, "subscribe");
	proto_request_free(r);

	r = parse("{\"op\":\"decide\",\"id\":\"6\",\"request\":12,"
	    "\"decision\":\"approve\",\"remember\":true}", &err);
	ok(r != NULL && r->op == PROTO_OP_DECIDE && r->request == 12 &&
	    r->approve && r->remember && r->reason == NULL, "decide approve");
	proto_request_free(r);

	r = parse("{\"op\":\"decide\",\"id\":\"6\",\"request\":12,"
	    "\"decision\":\"deny\",\"reason\":\"not now\"}", &err);
	ok(r != NULL && !r->approve && !r->remember &&
	    r->reason != NULL && strcmp(r->reason, "not now") == 0,
	    "decide deny with reason");
	proto_request_free(r);

	r = parse("{\"op\":\"decide\",\"id\":\"6\",\"request\":12,"
	    "\"decision\":\"approve\",\"once\":true}", &err);
	ok(r != NULL && r->approve && r->once && !r->remember,
	    "decide approve once");
	proto_request_free(r);
}

struct bad {
	const char	*line;
	enum proto_err	 code;
	const char	*id;		/* id expected in the error, or NULL */
	const char	*message;	/* substring */
};

#define EX	"{\"op\":\"exec\",\"id\":\"e\","
#define IN	"{\"op\":\"input\",\"id\":\"i\","
#define DE	"{\"op\":\"decide\",\"id\":\"d\","

static const struct bad bads[] = {
	{ "{", PROTO_ERR_JSON, NULL, "malformed JSON" },
	{ "", PROTO_ERR_JSON, NULL, NULL },
	{ "{\"op\":\"list\",\"id\":\"1\"} x", PROTO_ERR_JSON, NULL, NULL },
	{ "{\"op\":\"list\",\"op\":\"exec\",\"id\":\"1\"}", PROTO_ERR_JSON,
	    NULL, "duplicate" },
	{ "{\"op\":\"list\",\"id\":\"\xff\"}", PROTO_ERR_JSON, NULL, NULL },
	{ "[1,2]", PROTO_ERR_NOT_OBJECT, NULL, "object" },
	{ "\"exec\"", PROTO_ERR_NOT_OBJECT, NULL, NULL },
	{ "{\"op\":\"frob\",\"id\":\"1\"}", PROTO_ERR_UNKNOWN_OP, "1",
	    "unknown op 'frob'" },
	{ "{\"id\":\"1\"}", PROTO_ERR_MISSING, "1", "'op'" },
	{ "{\"op\":5,\"id\":\"1\"}", PROTO_ERR_TYPE, "1", "'op'" },
	{ "{\"op\":\"list\"}", PROTO_ERR_MISSING, NULL, "'id'" },
	{ "{\"op\":\"list\",\"id\":7}", PROTO_ERR_TYPE, NULL, "'id'" },
	{ "{\"op\":\"list\",\"id\":\"\"}", PROTO_ERR_VALUE, NULL, "'id'" },
	{ "{\"op\":\"hello\",\"version\":2}", PROTO_ERR_VERSION, NULL,
	    "version 2" },
	{ "{\"op\":\"hello\"}", PROTO_ERR_MISSING, NULL, "'version'" },
	{ "{\"op\":\"hello\",\"version\":\"1\"}", PROTO_ERR_TYPE, NULL, NULL },
	{ EX "\"cwd\":\"/\"}", PROTO_ERR_MISSING, "e", "'argv'" },
	{ EX "\"argv\":\"ls\"}", PROTO_ERR_TYPE, "e", "'argv'" },
	{ EX "\"argv\":[]}", PROTO_ERR_VALUE, "e", "empty" },
	{ EX "\"argv\":[\"ls\",1]}", PROTO_ERR_TYPE, "e", "'argv[1]'" },
	{ EX "\"argv\":[\"ls\",null]}", PROTO_ERR_TYPE, "e", "'argv[1]'" },
	{ EX "\"argv\":[\"\"]}", PROTO_ERR_VALUE, "e", "'argv[0]'" },
	{ EX "\"argv\":[\"a\\u0000b\"]}", PROTO_ERR_VALUE, "e", "NUL" },
	{ EX "\"argv\":[\"ls\"],\"cwd\":\"rel/dir\"}", PROTO_ERR_VALUE, "e",
	    "absolute" },
	{ EX "\"argv\":[\"ls\"],\"cwd\":\"\"}", PROTO_ERR_VALUE, "e", NULL },
	{ EX "\"argv\":[\"ls\"],\"cwd\":5}", PROTO_ERR_TYPE, "e", "'cwd'" },
	{ EX "\"argv\":[\"ls\"],\"env\":[]}", PROTO_ERR_TYPE, "e", "'env'" },
	{ EX "\"argv\":[\"ls\"],\"stdio\":\"pipe\"}", PROTO_ERR_TYPE, "e",
	    "'stdio'" },
	{ EX "\"argv\":[\"ls\"],\"stdio\":[\"pipe\",\"pipe\"]}",
	    PROTO_ERR_VALUE, "e", "'stdio'" },
	{ EX "\"argv\":[\"ls\"],\"stdio\":[\"pipe\",\"tty\",\"pty\"]}",
	    PROTO_ERR_VALUE, "e", "'stdio'" },
	{ EX "\"argv\":[\"ls\"],\"stdio\":[\"pipe\",1,\"pty\"]}",
	    PROTO_ERR_TYPE, "e", "'stdio'" },
	{ EX "\"argv\":[\"ls\"],\"stdio\":[\"pipe\",\"pty\",\"stdout\"]}",
	    PROTO_ERR_VALUE, "e", "only when stdout is \"pipe\"" },
	{ EX "\"argv\":[\"ls\"],\"stdio\":[\"stdout\",\"pipe\",\"pty\"]}",
	    PROTO_ERR_VALUE, "e", "'stdio'" },
	{ EX "\"argv\":[\"ls\"],\"stdio\":[\"pty\",\"null\",\"pty\"]}",
	    PROTO_ERR_VALUE, "e", "the first may be \"null\"" },
	{ EX "\"argv\":[\"ls\"],\"umask\":512}", PROTO_ERR_VALUE, "e",
	    "'umask'" },
	{ "{\"op\":\"connect\",\"id\":\"e\",\"port\":443}", PROTO_ERR_MISSING,
	    "e", "'host'" },
	{ "{\"op\":\"connect\",\"id\":\"e\",\"host\":\"a b\",\"port\":1}",
	    PROTO_ERR_VALUE, "e", "'host' must be a host name" },
	{ "{\"op\":\"connect\",\"id\":\"e\",\"host\":\"a.org\"}",
	    PROTO_ERR_MISSING, "e", "'port'" },
	{ "{\"op\":\"connect\",\"id\":\"e\",\"host\":\"a.org\",\"port\":0}",
	    PROTO_ERR_VALUE, "e", "'port'" },
	{ EX "\"argv\":[\"ls\"],\"network_allow\":[\"a.org\"]}",
	    PROTO_ERR_TYPE, "e", "'network_allow'" },
	{ EX "\"argv\":[\"ls\"],\"network_allow\":\"a..org\"}",
	    PROTO_ERR_VALUE, "e", "'network_allow': bad host pattern" },
	{ EX "\"argv\":[\"ls\"],\"umask\":\"022\"}", PROTO_ERR_TYPE, "e",
	    "'umask'" },
	{ EX "\"argv\":[\"ls\"],\"environ\":[\"A=1\"]}", PROTO_ERR_TYPE,
	    "e", "'environ'" },
	{ EX "\"argv\":[\"ls\"],\"environ\":{\"A\":1}}", PROTO_ERR_TYPE,
	    "e", "'environ.A'" },
	{ EX "\"argv\":[\"ls\"],\"environ\":{\"A=B\":\"1\"}}",
	    PROTO_ERR_VALUE, "e", "'environ'" },
	{ IN "\"session\":1,\"stream\":\"stdout\",\"data\":\"x\"}",
	    PROTO_ERR_VALUE, "i", "'stream'" },
	{ IN "\"session\":1,\"eof\":true}", PROTO_ERR_VALUE, "i", "'eof'" },
	{ IN "\"session\":1,\"stream\":\"stdin\",\"eof\":1}",
	    PROTO_ERR_TYPE, "i", "'eof'" },
	{ IN "\"session\":1,\"stream\":\"stdin\"}", PROTO_ERR_MISSING, "i",
	    NULL },
	{ EX "\"argv\":[\"ls\"],\"env\":{\"A\":1}}", PROTO_ERR_TYPE, "e",
	    "'env.A'" },
	{ EX "\"argv\":[\"ls\"],\"env\":{\"A=B\":\"x\"}}", PROTO_ERR_VALUE,
	    "e", "name" },
	{ EX "\"argv\":[\"ls\"],\"env\":{\"\":\"x\"}}", PROTO_ERR_VALUE, "e",
	    NULL },
	{ EX "\"argv\":[\"ls\"],\"timeout_s\":-1}", PROTO_ERR_VALUE, "e",
	    "'timeout_s'" },
	{ EX "\"argv\":[\"ls\"],\"timeout_s\":1e12}", PROTO_ERR_VALUE, "e",
	    NULL },
	{ EX "\"argv\":[\"ls\"],\"timeout_s\":\"10\"}", PROTO_ERR_TYPE, "e",
	    NULL },
	{ EX "\"argv\":[\"ls\"],\"cols\":0}", PROTO_ERR_VALUE, "e", "'cols'" },
	{ EX "\"argv\":[\"ls\"],\"rows\":100000}", PROTO_ERR_VALUE, "e",
	    "'rows'" },
	{ EX "\"argv\":[\"ls\"],\"cols\":80.5}", PROTO_ERR_TYPE, "e", NULL },
	{ EX "\"argv\":[\"ls\"],\"sandbox\":\"bogus\"}", PROTO_ERR_VALUE, "e",
	    "'sandbox'" },
	{ EX "\"argv\":[\"ls\"],\"network\":\"yes\"}", PROTO_ERR_TYPE, "e",
	    "'network'" },
	{ EX "\"argv\":[\"ls\"],\"why\":[]}", PROTO_ERR_TYPE, "e", "'why'" },
	{ EX "\"argv\":[\"ls\"],\"encoding\":\"hex\"}", PROTO_ERR_VALUE, "e",
	    "'encoding'" },
	{ IN "\"session\":7}", PROTO_ERR_MISSING, "i", "'data'" },
	{ IN "\"session\":7,\"data\":\"a\",\"b64\":\"YQ==\"}", PROTO_ERR_VALUE,
	    "i", NULL },
	{ IN "\"session\":7,\"data\":5}", PROTO_ERR_TYPE, "i", "'data'" },
	{ IN "\"session\":7,\"b64\":\"!!!!\"}", PROTO_ERR_VALUE, "i",
	    "base64" },
	{ IN "\"session\":0,\"data\":\"a\"}", PROTO_ERR_VALUE, "i",
	    "'session'" },
	{ IN "\"session\":\"7\",\"data\":\"a\"}", PROTO_ERR_TYPE, "i", NULL },
	{ IN "\"data\":\"a\"}", PROTO_ERR_MISSING, "i", "'session'" },
	{ "{\"op\":\"kill\",\"id\":\"k\"}", PROTO_ERR_MISSING, "k", NULL },
	{ "{\"op\":\"screen\",\"id\":\"s\",\"session\":0}", PROTO_ERR_VALUE,
	    "s", "'session'" },
	{ "{\"op\":\"resize\",\"id\":\"r\",\"session\":1,\"cols\":80}",
	    PROTO_ERR_MISSING, "r", "'rows'" },
	{ DE "\"request\":1,\"decision\":\"deny\",\"rule\":\"allow x\"}",
	    PROTO_ERR_VALUE, "d", "'rule'" },
	{ DE "\"request\":1,\"decision\":\"approve\",\"remember\":true,"
	    "\"argv\":[\"ls\"]}", PROTO_ERR_VALUE, "d", "'argv'" },
	{ DE "\"request\":1,\"decision\":\"approve\",\"argv\":[]}",
	    PROTO_ERR_VALUE, "d", "empty" },
	{ DE "\"request\":1,\"decision\":\"approve\",\"by\":\"\"}",
	    PROTO_ERR_VALUE, "d", "'by'" },
	{ DE "\"request\":1,\"decision\":\"approve\",\"by\":\"a\\nb\"}",
	    PROTO_ERR_VALUE, "d", "control" },
	{ DE "\"request\":1,\"decision\":\"maybe\"}", PROTO_ERR_VALUE, "d",
	    "'decision'" },
	{ DE "\"decision\":\"approve\"}", PROTO_ERR_MISSING, "d", "'request'" },
	{ DE "\"request\":1}", PROTO_ERR_MISSING, "d", "'decision'" },
	{ DE "\"request\":1,\"decision\":\"deny\",\"reason\":5}",
	    PROTO_ERR_TYPE, "d", "'reason'" },
	{ DE "\"request\":1,\"decision\":\"approve\",\"remember\":1}",
	    PROTO_ERR_TYPE, "d", "'remember'" },
	{ DE "\"request\":1,\"decision\":\"approve\",\"once\":\"yes\"}",
	    PROTO_ERR_TYPE, "d", "'once'" },
	{ DE "\"request\":1,\"decision\":\"approve\",\"once\":true,"
	    "\"remember\":true}", PROTO_ERR_VALUE, "d", "'once'" },
#define AT "{\"op\":\"attach\",\"id\":\"a\","
	{ AT "\"cols\":80,\"rows\":24}", PROTO_ERR_MISSING, "a", "'term'" },
	{ AT "\"term\":\"xterm\",\"rows\":24}", PROTO_ERR_MISSING, "a",
	    "'cols'" },
	{ AT "\"term\":\"x term\",\"cols\":80,\"rows\":24}",
	    PROTO_ERR_VALUE, "a", "'term'" },
	{ AT "\"term\":\"\",\"cols\":80,\"rows\":24}", PROTO_ERR_VALUE,
	    "a", "'term'" },
	{ AT "\"term\":\"xterm\",\"cols\":0,\"rows\":24}",
	    PROTO_ERR_VALUE, "a", "'cols'" },
	{ AT "\"term\":\"xterm\",\"cols\":80,\"rows\":1001}",
	    PROTO_ERR_VALUE, "a", "'rows'" },
	{ AT "\"term\":\"xterm\",\"cols\":80,\"rows\":24,\"argv\":[\"x\"]}",
	    PROTO_ERR_VALUE, "a", "'new'" },
	{ AT "\"term\":\"xterm\",\"cols\":80,\"rows\":24,\"readonly\":true,"
	    "\"new\":true}", PROTO_ERR_VALUE, "a", "read-only" },
	{ AT "\"term\":\"xterm\",\"cols\":80,\"rows\":24,\"tty\":\"a\\nb\"}",
	    PROTO_ERR_VALUE, "a", "'tty'" },
	{ AT "\"term\":\"xterm\",\"cols\":80,\"rows\":24,\"readonly\":1}",
	    PROTO_ERR_TYPE, "a", "'readonly'" },
	{ AT "\"term\":\"xterm\",\"cols\":80,\"rows\":24,\"by\":\"a\\nb\"}",
	    PROTO_ERR_VALUE, "a", "control" },
	{ AT "\"term\":\"xterm\",\"cols\":80,\"rows\":24,\"by\":7}",
	    PROTO_ERR_TYPE, "a", "'by'" },
};

/* Every class of bad input gets its code, its id, a message. */
static void
test_bad(void)
{
	struct proto_error	 err;
	struct proto_request	*r;
	size_t			 i;

	for (i = 0; i < sizeof bads / sizeof bads[0]; i++) {
		r = parse(bads[i].line, &err);
		if (!ok(r == NULL && err.code == bads[i].code &&
		    err.message[0] != '\0' && (bads[i].message == NULL ||
		    strstr(err.message, bads[i].message) != NULL) &&
		    (bads[i].id == NULL ? !err.has_id : (err.has_id &&
		    strcmp(err.id, bads[i].id) == 0)),
		    "bad %zu: %s → %s", i, bads[i].line,
		    proto_err_name(bads[i].code)))
			diag("got %s: %s", r != NULL ? "a request" :
			    proto_err_name(err.code), err.message);
		proto_request_free(r);
	}
}

/* The 1 MiB bound: at the limit parses, one byte more is refused. */
static void
test_long(void)
{
	struct proto_error	 err;
	struct proto_request	*r;
	const char		*head = "{\"op\":\"list\",\"id\":\"big\"";
	char			*line;
	size_t			 n = PROTO_LINE_MAX;

	line = xmalloc(n + 3);
	memset(line, ' ', n + 2);
	memcpy(line, head, strlen(head));
	line[n - 1] = '}';
	line[n] = '\n';
	r = proto_parse(line, n + 1, &err);
	ok(r != NULL && r->op == PROTO_OP_LIST, "line of exactly 1 MiB parses");
	proto_request_free(r);
	line[n - 1] = ' ';
	line[n] = '}';
	r = proto_parse(line, n + 1, &err);
	ok(r == NULL && err.code == PROTO_ERR_TOO_LONG,
	    "line of 1 MiB + 1 refused as too long");
	free(line);
	line = xmalloc(2 * n);
	memset(line, 'x', 2 * n);
	r = proto_parse(line, 2 * n, &err);
	ok(r == NULL && err.code == PROTO_ERR_TOO_LONG, "2 MiB line refused");
	free(line);
}

/* Parse the one line in b back; checks it is exactly one line. */
static json_t *
read_back(struct buf *b, const char *what)
{
	json_error_t	 jerr;
	json_t		*o;
	char		*nl;

	buf_cstr(b);
	nl = memchr(b->data, '\n', b->len);
	ok(b->len > 0 && nl == b->data + b->len - 1,
	    "%s: one line ending in a newline", what);
	o = json_loadb(b->data, b->len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
	    &jerr);
	ok(json_is_object(o), "%s: parses back", what);
	b->len = 0;
	return o;
}

/* Field accessors that tolerate missing fields. */
static const char *
sget(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static long long
iget(json_t *o, const char *k)
{
	json_t	*v = json_object_get(o, k);

	return json_is_integer(v) ? (long long)json_integer_value(v) : -999;
}

/* Every builder, read back with jansson. */
static void
test_events(void)
{
	struct buf		 b;
	json_t			*o, *a;
	char			*argv[] = { "make", "caf\xc3\xa9", "\xff", NULL };
	char			*differs[] = { "PATH=/tmp/bin:/bin", NULL };
	struct proto_exec	 pex = { .argv = argv, .cwd = "/src",
				    .has_sandbox = true,
				    .sandbox = SANDBOX_WORKSPACE_WRITE,
				    .network = true, .why = "tests" };
	struct proto_pending	 pend = { .request = 12, .exec = &pex,
				    .verdict = "ask", .by = "mode untrusted",
				    .client_pid = 42 };
	struct proto_session	 sess = { 7, 1234, argv, "/src", "running",
				    true };
	struct proto_exit	 ex = { 7, 3, 0, false, 1500, "/s/7.cast",
				    "exit 3", "/src/sub dir" };
	struct proto_exit	 ex2 = { 8, 0, 9, true, 10, NULL, NULL, NULL };
	struct buf		 dec;

	memset(&b, 0, sizeof b);
	proto_ev_hello(&b);
	o = read_back(&b, "hello");
	is_str(sget(o, "event"), "hello", "hello event");
	is_int(iget(o, "version"), 1, "hello version");
	is_str(sget(o, "server"), "ptyvisor " PACKAGE_VERSION, "hello server");
	ok(json_object_get(o, "id") == NULL, "no id when none given");
	json_decref(o);

	proto_ev_error(&b, "9", PROTO_ERR_VALUE, "'cwd' must be absolute");
	o = read_back(&b, "error");
	ok(strcmp(sget(o, "event"), "error") == 0 &&
	    strcmp(sget(o, "id"), "9") == 0 &&
	    strcmp(sget(o, "code"), "bad-value") == 0 &&
	    strcmp(sget(o, "message"), "'cwd' must be absolute") == 0,
	    "error event fields");
	json_decref(o);

	proto_ev_ok(&b, "5");
	o = read_back(&b, "ok");
	ok(strcmp(sget(o, "event"), "ok") == 0 &&
	    strcmp(sget(o, "id"), "5") == 0 &&
	    json_object_get(o, "not_saved") == NULL, "ok event");
	json_decref(o);

	proto_ev_ok_not_saved(&b, "6", "rules: Not a directory");
	o = read_back(&b, "ok");
	ok(strcmp(sget(o, "id"), "6") == 0 &&
	    strcmp(sget(o, "not_saved"), "rules: Not a directory") == 0,
	    "ok event of an approval whose rule was not saved");
	json_decref(o);

	proto_ev_queued(&b, "1", &pend);
	o = read_back(&b, "queued");
	ok(strcmp(sget(o, "event"), "queued") == 0 && iget(o, "request") == 12 &&
	    strcmp(sget(o, "verdict"), "ask") == 0 &&
	    strcmp(sget(o, "by"), "mode untrusted") == 0 &&
	    strcmp(sget(o, "cwd"), "/src") == 0 &&
	    json_is_true(json_object_get(o, "network")) &&
	    iget(o, "client_pid") == 42, "queued fields");
	a = json_object_get(o, "argv");
	ok(json_array_size(a) == 3 &&
	    strcmp(json_string_value(json_array_get(a, 1)), "caf\xc3\xa9") == 0 &&
	    strcmp(json_string_value(json_array_get(a, 2)),
	    "\xef\xbf\xbd") == 0, "queued argv, invalid UTF-8 → U+FFFD");
	ok(json_object_get(o, "environ_differs") == NULL,
	    "no environ_differs: none sent");
	ok(json_object_get(o, "detail") == NULL, "no detail when none");
	json_decref(o);
	pend.environ_differs = differs;
	proto_ev_queued(&b, "1", &pend);
	o = read_back(&b, "queued with environ_differs");
	a = json_object_get(o, "environ_differs");
	ok(json_array_size(a) == 1 && strcmp(json_string_value(
	    json_array_get(a, 0)), "PATH=/tmp/bin:/bin") == 0,
	    "queued lists the agent's variables that differ");
	pend.environ_differs = NULL;
	json_decref(o);
	pend.detail = "mode untrusted: x sets core.pager";
	proto_ev_queued(&b, "1", &pend);
	o = read_back(&b, "queued");
	is_str(sget(o, "detail"), pend.detail, "queued detail");
	json_decref(o);
	pend.detail = NULL;

	pex.network_allow = "pypi.org,github.com:443";
	proto_ev_queued(&b, "1", &pend);
	o = read_back(&b, "queued");
	is_str(sget(o, "network_allow"), "pypi.org,github.com:443",
	    "queued network_allow");
	json_decref(o);
	pex.network_allow = NULL;

	proto_ev_decided(&b, "6", 12, true, "user", NULL, NULL, NULL);
	o = read_back(&b, "approved");
	ok(strcmp(sget(o, "event"), "approved") == 0 &&
	    iget(o, "request") == 12 && strcmp(sget(o, "by"), "user") == 0 &&
	    json_object_get(o, "reason") == NULL &&
	    json_object_get(o, "argv") == NULL &&
	    json_object_get(o, "scope") == NULL, "approved event");
	json_decref(o);
	proto_ev_decided(&b, "6", 12, true, "user", NULL, NULL, "once");
	o = read_back(&b, "approved");
	is_str(sget(o, "scope"), "once", "approved event of a host: its scope");
	json_decref(o);
	pend.connect = true;
	proto_ev_queued(&b, "1", &pend);
	o = read_back(&b, "queued");
	ok(json_is_true(json_object_get(o, "connect")), "queued host: connect");
	json_decref(o);
	pend.connect = false;
	{
		char *const edited[] = { "make", "check", NULL };

		proto_ev_decided(&b, "6", 12, true, "user (edited)", NULL,
		    edited, NULL);
		o = read_back(&b, "approved");
		a = json_object_get(o, "argv");
		ok(json_array_size(a) == 2 && strcmp(json_string_value(
		    json_array_get(a, 1)), "check") == 0,
		    "approved event of an edited command carries its argv");
		json_decref(o);
	}
	proto_ev_decided(&b, "1", 12, false, "rule 'deny rm **' (rules:1)",
	    "no \"rm\"\nplease", NULL, NULL);
	o = read_back(&b, "denied");
	ok(strcmp(sget(o, "event"), "denied") == 0 &&
	    strcmp(sget(o, "reason"), "no \"rm\"\nplease") == 0,
	    "denied event, reason with quotes and newline");
	json_decref(o);

	proto_ev_started(&b, "1", 12, 7, 4321);
	o = read_back(&b, "started");
	ok(strcmp(sget(o, "event"), "started") == 0 && iget(o, "session") == 7 &&
	    iget(o, "pid") == 4321 && iget(o, "request") == 12,
	    "started event");
	json_decref(o);

	proto_ev_output(&b, "1", 7, 3, "ok\r\n\x1b[31m\xc3", 10,
	    PROTO_ENC_TEXT);
	o = read_back(&b, "output text");
	ok(iget(o, "session") == 7 && iget(o, "seq") == 3 &&
	    strcmp(sget(o, "data"), "ok\r\n\x1b[31m\xef\xbf\xbd") == 0 &&
	    json_object_get(o, "b64") == NULL, "output text, bad byte → U+FFFD");
	json_decref(o);
	proto_ev_output(&b, NULL, 7, 4, "a\0b", 3, PROTO_ENC_TEXT);
	o = read_back(&b, "output NUL");
	ok(json_string_length(json_object_get(o, "data")) == 3 &&
	    memcmp(sget(o, "data"), "a\0b", 3) == 0, "NUL survives as text");
	json_decref(o);
	proto_ev_output(&b, "1", 7, 5, "\xff\x00\xc3", 3, PROTO_ENC_BASE64);
	o = read_back(&b, "output b64");
	memset(&dec, 0, sizeof dec);
	ok(json_object_get(o, "data") == NULL &&
	    proto_base64_decode(&dec, sget(o, "b64"), strlen(sget(o, "b64")))
	    == 0 && dec.len == 3 && memcmp(dec.data, "\xff\x00\xc3", 3) == 0,
	    "output base64 gives the exact bytes");
	buf_free(&dec);
	json_decref(o);

	proto_ev_stream(&b, "1", 7, 6, 2, "e\0\xff", 3, PROTO_ENC_BASE64);
	o = read_back(&b, "stream b64");
	memset(&dec, 0, sizeof dec);
	ok(strcmp(sget(o, "stream"), "stderr") == 0 && iget(o, "seq") == 6 &&
	    proto_base64_decode(&dec, sget(o, "b64"), strlen(sget(o, "b64")))
	    == 0 && dec.len == 3 && memcmp(dec.data, "e\0\xff", 3) == 0,
	    "a pipe's output names its stream, exact bytes");
	buf_free(&dec);
	json_decref(o);
	proto_ev_stream(&b, NULL, 7, 7, 1, "out\n", 4, PROTO_ENC_TEXT);
	o = read_back(&b, "stream text");
	ok(strcmp(sget(o, "stream"), "stdout") == 0 &&
	    strcmp(sget(o, "data"), "out\n") == 0 &&
	    json_object_get(o, "id") == NULL, "stdout as text");
	json_decref(o);
	proto_ev_output(&b, "1", 7, 8, "x", 1, PROTO_ENC_TEXT);
	o = read_back(&b, "pty output");
	ok(json_object_get(o, "stream") == NULL, "the PTY's output names none");
	json_decref(o);
	proto_ev_written(&b, "1", 7, 5000000000LL);
	o = read_back(&b, "written");
	ok(iget(o, "session") == 7 && iget(o, "bytes") == 5000000000LL &&
	    strcmp(sget(o, "id"), "1") == 0, "written: the stdin pipe's total");
	json_decref(o);

	proto_ev_exit(&b, "1", &ex);
	o = read_back(&b, "exit code");
	ok(iget(o, "code") == 3 && json_object_get(o, "signal") == NULL &&
	    json_is_false(json_object_get(o, "timed_out")) &&
	    iget(o, "duration_ms") == 1500 &&
	    strcmp(sget(o, "recording"), "/s/7.cast") == 0, "exit with code");
	is_str(sget(o, "ending"), "exit 3", "exit carries the ending's name");
	is_str(sget(o, "cwd"), "/src/sub dir", "exit carries the directory the "
	    "command reported");
	json_decref(o);
	proto_ev_exit(&b, "1", &ex2);
	o = read_back(&b, "exit signal");
	ok(iget(o, "signal") == 9 && json_object_get(o, "code") == NULL &&
	    json_is_true(json_object_get(o, "timed_out")) &&
	    json_object_get(o, "recording") == NULL, "exit by signal");
	ok(json_object_get(o, "ending") == NULL, "no ending: none sent");
	ok(json_object_get(o, "cwd") == NULL, "no directory: none sent");
	json_decref(o);

	proto_ev_list(&b, "4", &sess, 1, &pend, 1);
	o = read_back(&b, "list");
	a = json_object_get(o, "sessions");
	ok(json_array_size(a) == 1 &&
	    iget(json_array_get(a, 0), "session") == 7 &&
	    iget(json_array_get(a, 0), "pid") == 1234 &&
	    strcmp(sget(json_array_get(a, 0), "state"), "running") == 0 &&
	    json_is_true(json_object_get(json_array_get(a, 0), "agent")),
	    "list sessions");
	a = json_object_get(o, "pending");
	ok(json_array_size(a) == 1 &&
	    iget(json_array_get(a, 0), "request") == 12 &&
	    strcmp(sget(json_array_get(a, 0), "why"), "tests") == 0,
	    "list pending");
	json_decref(o);
	proto_ev_list(&b, "4", NULL, 0, NULL, 0);
	o = read_back(&b, "empty list");
	ok(json_array_size(json_object_get(o, "sessions")) == 0 &&
	    json_array_size(json_object_get(o, "pending")) == 0, "empty list");
	json_decref(o);
	buf_free(&b);
}

/* Incomplete UTF-8 sequences at the end are held back, nothing else. */
static void
test_utf8(void)
{
	is_int(proto_utf8_complete("abc", 3), 3, "ASCII complete");
	is_int(proto_utf8_complete("a\xc3", 2), 1, "2-byte lead held");
	is_int(proto_utf8_complete("a\xc3\xa9", 3), 3, "2-byte complete");
	is_int(proto_utf8_complete("\xe2\x82", 2), 0, "3-byte, 2 held");
	is_int(proto_utf8_complete("\xe2\x82\xac", 3), 3, "euro complete");
	is_int(proto_utf8_complete("x\xf0\x9f\x98", 4), 1, "4-byte, 3 held");
	is_int(proto_utf8_complete("\xf0\x9f\x98\x80", 4), 4, "emoji complete");
	is_int(proto_utf8_complete("a\xff", 2), 2, "invalid byte not held");
	is_int(proto_utf8_complete("a\x80\x80\x80\x80", 5), 5,
	    "stray continuations not held");
	is_int(proto_utf8_complete("", 0), 0, "empty");
}

/* RFC 4648 section 10 vectors, both ways, and strict decoding. */
static void
test_base64(void)
{
	static const char	*vec[][2] = {
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" },
		{ "foo", "Zm9v" }, { "foob", "Zm9vYg==" },
		{ "fooba", "Zm9vYmE=" }, { "foobar", "Zm9vYmFy" },
	};
	static const char	*badv[] = { "Zg=", "Zg=a", "Z===", "Zh==",
				    "Zm9v\n", "====", "Zm9vY", "Zm=v",
				    "Zm8=Zm8=", "Zm9-", "Zm9=" };
	struct buf		 b;
	size_t			 i;

	memset(&b, 0, sizeof b);
	for (i = 0; i < sizeof vec / sizeof vec[0]; i++) {
		b.len = 0;
		proto_base64_encode(&b, vec[i][0], strlen(vec[i][0]));
		is_str(buf_cstr(&b), vec[i][1], "encode \"%s\"", vec[i][0]);
		b.len = 0;
		ok(proto_base64_decode(&b, vec[i][1], strlen(vec[i][1])) == 0 &&
		    strcmp(buf_cstr(&b), vec[i][0]) == 0, "decode \"%s\"",
		    vec[i][1]);
	}
	for (i = 0; i < sizeof badv / sizeof badv[0]; i++) {
		b.len = 0;
		is_int(proto_base64_decode(&b, badv[i], strlen(badv[i])), -1,
		    "decode refuses \"%s\"", badv[i]);
	}
	/* Every byte value, so every one of the 64 digits, both ways. */
	{
		unsigned char	all[256 * 3];
		struct buf	enc = { 0 };

		for (i = 0; i < sizeof all; i++)
			all[i] = (unsigned char)(i * 7 + i / 256);
		proto_base64_encode(&enc, all, sizeof all);
		b.len = 0;
		ok(proto_base64_decode(&b, enc.data, enc.len) == 0 &&
		    b.len == sizeof all && memcmp(b.data, all, sizeof all) == 0,
		    "every byte value round-trips");
		ok(strchr(buf_cstr(&enc), '+') != NULL &&
		    strchr(buf_cstr(&enc), '/') != NULL &&
		    strchr(buf_cstr(&enc), '9') != NULL, "through + / and digits");
		b.len = 0;
		is_int(proto_base64_decode(&b, "Zm9v\0Zm9", 8), -1,
		    "decode refuses a NUL inside");
		buf_free(&enc);
	}
	buf_free(&b);
}

/* Names for logs and error events. */
static void
test_names(void)
{
	is_str(proto_op_name(PROTO_OP_DECIDE), "decide", "op name");
	is_str(proto_err_name(PROTO_ERR_TOO_LONG), "line-too-long",
	    "error name");
	is_str(proto_err_name(PROTO_ERR_INTERNAL), "internal", "last name");
	proto_request_free(NULL);
	ok(1, "proto_request_free(NULL) is a no-op");
}

/* Console frames: header and size payload, both ways. */
static void
test_frames(void)
{
	unsigned char	h[PROTO_FRAME_HEAD + 1], sz[4];
	unsigned int	rows, cols;
	uint32_t	len;
	char		type;

	proto_frame_head(h, 'o', 0x01020304);
	ok(memcmp(h, "o\x01\x02\x03\x04", 5) == 0,
	    "a frame's header: type, then the length big-endian");
	ok(!proto_frame_peek(h, PROTO_FRAME_HEAD - 1, &type, &len),
	    "four bytes are not a header yet");
	ok(proto_frame_peek(h, PROTO_FRAME_HEAD, &type, &len) && type == 'o' &&
	    len == 0x01020304, "five are: type and length read back");
	proto_frame_size(sz, 48, 1000);
	proto_frame_size_read(sz, &rows, &cols);
	ok(sz[0] == 0 && sz[1] == 48 && sz[2] == 0x03 && sz[3] == 0xe8 &&
	    rows == 48 && cols == 1000, "a size frame: rows, columns, 2 bytes "
	    "each, big-endian");
}

int
main(void)
{
	test_ops();
	test_bad();
	test_long();
	test_events();
	test_utf8();
	test_base64();
	test_frames();
	test_names();
	return tap_done();
}
