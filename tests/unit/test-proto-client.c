/*
 * test-proto-client.c - the client's half of the control protocol: every
 * request builder's line parsed back by proto_parse() gives the values
 * it was built from, every event proto-events.c builds decodes back to
 * the values it was built from, and events with a field missing or of
 * the wrong type are refused.
 */
#include "control/proto-client.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "tests/tap.h"

/* Parse the one line in b as a request (and empty b); NULL after a diag. */
static struct proto_request *
reparse(struct buf *b, const char *what)
{
	struct proto_error	 err;
	struct proto_request	*r;

	ok(b->len > 0 && memchr(b->data, '\n', b->len) ==
	    b->data + b->len - 1, "%s: one line", what);
	r = proto_parse(b->data, b->len, &err);
	if (!ok(r != NULL, "%s: the server parses it", what))
		diag("%.*s: %s", (int)b->len, b->data, err.message);
	buf_free(b);
	return r;
}

/* An exec with every field, and one with none but argv. */
static void
test_exec(void)
{
	char			*argv[] = { "make", "caf\xc3\xa9", "", NULL };
	char			*env[] = { "A=1", "B=x=y", NULL };
	char			*environ_[] = { "PATH=/bin", "HOME=/h",
				    "BAD=\xff", "=nameless", "noeq", NULL };
	char			*kept[] = { "PATH=/bin", "HOME=/h", NULL };
	char			*none[] = { NULL };
	struct proto_exec	 ex;
	struct proto_request	*r;
	struct buf		 b = { 0 };

	memset(&ex, 0, sizeof ex);
	ex.argv = argv;
	ex.env = env;
	ex.environ = environ_;
	ex.cwd = "/src";
	ex.timeout_ms = 600000;
	ex.has_sandbox = true;
	ex.sandbox = SANDBOX_READ_ONLY;
	ex.network = true;
	ex.network_allow = "pypi.org,*.example.org:443";
	ex.cols = 132;
	ex.rows = 43;
	ex.why = "run the tests";
	ex.encoding = PROTO_ENC_BASE64;
	ex.pipes[0] = ex.pipes[1] = ex.pipes[2] = true;
	ex.err_joined = true;
	ex.has_umask = true;
	ex.umask = 027;
	ex.report_cwd = true;
	proto_req_exec(&b, "7", &ex);
	ok(strncmp(b.data, "{\"op\":\"exec\",\"id\":\"7\",\"argv\":", 29) == 0,
	    "exec: op and id first");
	if ((r = reparse(&b, "exec")) == NULL)
		return;
	is_int(r->op, PROTO_OP_EXEC, "exec: op");
	is_str(r->id, "7", "exec: id");
	ok(strv_equal(r->exec.argv, argv), "exec: argv");
	ok(strv_equal(r->exec.env, env), "exec: env");
	ok(strv_equal(r->exec.environ, kept), "exec: environ (a variable "
	    "without a name or not UTF-8 stays behind)");
	is_str(r->exec.cwd, "/src", "exec: cwd");
	is_int(r->exec.timeout_ms, 600000, "exec: timeout");
	is_str(r->exec.has_sandbox ? sandbox_profile_name(r->exec.sandbox) :
	    NULL, "read-only", "exec: sandbox");
	ok(r->exec.network, "exec: network");
	is_str(r->exec.network_allow, "pypi.org,*.example.org:443",
	    "exec: network_allow");
	is_int(r->exec.cols, 132, "exec: cols");
	is_int(r->exec.rows, 43, "exec: rows");
	is_str(r->exec.why, "run the tests", "exec: why");
	is_int(r->exec.encoding, PROTO_ENC_BASE64, "exec: encoding");
	ok(r->exec.pipes[0] && r->exec.pipes[1] && !r->exec.pipes[2] &&
	    r->exec.err_joined, "exec: stdio, stderr on stdout's pipe");
	ok(r->exec.has_umask && r->exec.umask == 027, "exec: umask");
	ok(r->exec.report_cwd, "exec: report_cwd");
	proto_request_free(r);

	ex.timeout_ms = 1500;
	ex.pipes[1] = ex.pipes[2] = false;
	ex.err_joined = false;
	proto_req_exec(&b, "8", &ex);
	if ((r = reparse(&b, "exec with a fraction")) != NULL) {
		is_int(r->exec.timeout_ms, 1500, "exec: 1.5 s");
		ok(r->exec.pipes[0] && !r->exec.pipes[1] && !r->exec.pipes[2] &&
		    !r->exec.err_joined, "exec: stdin a pipe only");
	}
	proto_request_free(r);

	memset(&ex, 0, sizeof ex);
	ex.argv = argv;
	ex.env = none;
	proto_req_exec(&b, "9", &ex);
	buf_cstr(&b);
	ok(strstr(b.data, "\"env\":{}") != NULL, "exec: an empty env is "
	    "sent as {}");
	ok(strstr(b.data, "sandbox") == NULL && strstr(b.data, "cwd") ==
	    NULL && strstr(b.data, "stdio") == NULL && strstr(b.data,
	    "umask") == NULL && strstr(b.data, "encoding") == NULL &&
	    strstr(b.data, "report_cwd") == NULL,
	    "exec: what is not set is left out");
	if ((r = reparse(&b, "exec, argv only")) != NULL) {
		ok(r->exec.cwd == NULL && !r->exec.has_sandbox &&
		    r->exec.why == NULL && r->exec.environ == NULL &&
		    !r->exec.network && r->exec.timeout_ms == 0 &&
		    !r->exec.has_umask && !r->exec.report_cwd,
		    "exec: nothing else set");
		ok(r->exec.cols == PROTO_DEFAULT_COLS &&
		    r->exec.rows == PROTO_DEFAULT_ROWS, "exec: default size");
		is_int(r->exec.encoding, PROTO_ENC_TEXT, "exec: text");
	}
	proto_request_free(r);

	memset(&ex, 0, sizeof ex);
	ex.argv = argv;
	ex.stdin_null = true;
	ex.pipes[1] = true;
	proto_req_exec(&b, "9", &ex);
	buf_cstr(&b);
	ok(strstr(b.data, "\"stdio\":[\"null\",\"pipe\",\"pty\"]") != NULL,
	    "exec: stdin on /dev/null is sent as \"null\"");
	if ((r = reparse(&b, "exec, stdin null")) != NULL)
		ok(r->exec.stdin_null && !r->exec.pipes[0] &&
		    r->exec.pipes[1] && !r->exec.pipes[2],
		    "exec: stdin null read back");
	proto_request_free(r);
}

/* Input, as bytes and text, to the PTY and to stdin, and an EOF alone. */
static void
test_input(void)
{
	static const char	 bytes[] = { 'a', 0, (char)0xff, '\n' };
	struct proto_request	*r;
	struct buf		 b = { 0 };

	proto_req_input(&b, "in", 12, true, bytes, sizeof bytes,
	    PROTO_ENC_BASE64, false);
	if ((r = reparse(&b, "input b64")) != NULL)
		ok(r->op == PROTO_OP_INPUT && r->session == 12 &&
		    r->to_stdin && !r->eof && r->datalen == sizeof bytes &&
		    memcmp(r->data, bytes, sizeof bytes) == 0,
		    "input: exact bytes to stdin");
	proto_request_free(r);

	proto_req_input(&b, "in", 3, false, "y\n", 2, PROTO_ENC_TEXT, false);
	if ((r = reparse(&b, "input text")) != NULL)
		ok(!r->to_stdin && r->datalen == 2 &&
		    memcmp(r->data, "y\n", 2) == 0, "input: text typed");
	proto_request_free(r);

	proto_req_input(&b, "in", 3, false, "\xff", 1, PROTO_ENC_TEXT, false);
	if ((r = reparse(&b, "input text, not UTF-8")) != NULL)
		ok(r->datalen == 3 && memcmp(r->data, "\xef\xbf\xbd", 3) == 0,
		    "input: a byte that is not UTF-8 becomes U+FFFD as text");
	proto_request_free(r);

	proto_req_input(&b, "in", 3, true, NULL, 0, PROTO_ENC_BASE64, true);
	buf_cstr(&b);
	ok(strstr(b.data, "b64") == NULL, "input: an EOF alone has no bytes");
	if ((r = reparse(&b, "input eof")) != NULL)
		ok(r->to_stdin && r->eof && r->datalen == 0, "input: EOF");
	proto_request_free(r);

	proto_req_input(&b, "in", 3, true, "z", 1, PROTO_ENC_TEXT, true);
	if ((r = reparse(&b, "input and eof")) != NULL)
		ok(r->eof && r->datalen == 1 && r->data[0] == 'z',
		    "input: the last bytes and EOF");
	proto_request_free(r);
}

/* The small requests. */
static void
test_small(void)
{
	struct proto_request	*r, d;
	struct buf		 b = { 0 };
	char			*edited[] = { (char *)"make", (char *)"-n", NULL };

	proto_req_hello(&b);
	is_str(buf_cstr(&b), "{\"op\":\"hello\",\"version\":1}\n", "hello: as the "
	    "protocol writes it");
	if ((r = reparse(&b, "hello")) != NULL)
		ok(r->op == PROTO_OP_HELLO && r->version == PROTO_VERSION,
		    "hello: version");
	proto_request_free(r);

	proto_req_kill(&b, "kill", 5);
	if ((r = reparse(&b, "kill")) != NULL)
		ok(r->op == PROTO_OP_KILL && r->session == 5 &&
		    strcmp(r->id, "kill") == 0, "kill: session");
	proto_request_free(r);

	proto_req_screen(&b, "s", 9);
	if ((r = reparse(&b, "screen")) != NULL)
		ok(r->op == PROTO_OP_SCREEN && r->session == 9 &&
		    strcmp(r->id, "s") == 0, "screen: session");
	proto_request_free(r);

	proto_req_resize(&b, "r", 5, 132, 43);
	if ((r = reparse(&b, "resize")) != NULL)
		ok(r->op == PROTO_OP_RESIZE && r->session == 5 &&
		    r->cols == 132 && r->rows == 43, "resize: session, size");
	proto_request_free(r);

	proto_req_list(&b, "l");
	if ((r = reparse(&b, "list")) != NULL)
		ok(r->op == PROTO_OP_LIST && strcmp(r->id, "l") == 0, "list");
	proto_request_free(r);

	proto_req_subscribe(&b, "s");
	if ((r = reparse(&b, "subscribe")) != NULL)
		ok(r->op == PROTO_OP_SUBSCRIBE, "subscribe");
	proto_request_free(r);

	proto_req_shutdown(&b, "k");
	if ((r = reparse(&b, "shutdown")) != NULL)
		ok(r->op == PROTO_OP_SHUTDOWN, "shutdown");
	proto_request_free(r);

	memset(&d, 0, sizeof d);
	d.id = (char *)"1";
	d.request = 3;
	d.approve = d.remember = true;
	proto_req_decide(&b, &d);
	if ((r = reparse(&b, "decide approve")) != NULL)
		ok(r->op == PROTO_OP_DECIDE && r->request == 3 &&
		    r->approve && r->remember && !r->once && r->reason == NULL &&
		    r->rule == NULL && r->by == NULL && r->exec.argv == NULL,
		    "decide: approve and remember");
	proto_request_free(r);

	d.rule = (char *)"allow make **";
	d.by = (char *)"web (127.0.0.1, token approver)";
	proto_req_decide(&b, &d);
	if ((r = reparse(&b, "decide remember a rule")) != NULL)
		ok(r->remember && strcmp(r->rule, "allow make **") == 0 &&
		    strcmp(r->by, "web (127.0.0.1, token approver)") == 0,
		    "decide: the rule remembered and who decided");
	proto_request_free(r);

	d.rule = d.by = NULL;
	d.remember = false;
	d.exec.argv = edited;
	proto_req_decide(&b, &d);
	if ((r = reparse(&b, "decide edited")) != NULL)
		ok(r->approve && r->exec.argv != NULL &&
		    strcmp(r->exec.argv[0], "make") == 0 &&
		    strcmp(r->exec.argv[1], "-n") == 0 &&
		    r->exec.argv[2] == NULL, "decide: the command as edited");
	proto_request_free(r);
	d.exec.argv = NULL;

	d.request = 4;
	d.once = true;
	proto_req_decide(&b, &d);
	if ((r = reparse(&b, "decide once")) != NULL)
		ok(r->approve && !r->remember && r->once, "decide: once");
	proto_request_free(r);

	d.approve = d.once = false;
	d.reason = (char *)"not now";
	proto_req_decide(&b, &d);
	if ((r = reparse(&b, "decide deny")) != NULL)
		ok(!r->approve && strcmp(r->reason, "not now") == 0,
		    "decide: deny with a reason");
	proto_request_free(r);

	proto_req_connect(&b, "1", "Files.Example.ORG.", 443, "why not");
	if ((r = reparse(&b, "connect")) != NULL)
		ok(r->op == PROTO_OP_CONNECT && strcmp(r->host,
		    "files.example.org") == 0 && r->port == 443 &&
		    strcmp(r->why, "why not") == 0, "connect: host, port, why");
	proto_request_free(r);
}

/* Attach, with every field and with the required ones only. */
static void
test_attach(void)
{
	char			*argv[] = { "make", "test", NULL };
	struct proto_request	 a, *r;
	struct buf		 b = { 0 };

	memset(&a, 0, sizeof a);
	a.id = "a";
	a.term = "xterm-256color";
	a.cols = 160;
	a.rows = 48;
	a.new_session = true;
	a.pass_tty = true;
	a.tty = "pts/3";
	a.by = "web (::1, token approver)";
	a.exec.cwd = "/src";
	a.exec.argv = argv;
	proto_req_attach(&b, &a);
	if ((r = reparse(&b, "attach")) != NULL) {
		ok(r->op == PROTO_OP_ATTACH && strcmp(r->id, "a") == 0 &&
		    strcmp(r->term, "xterm-256color") == 0 && r->cols == 160 &&
		    r->rows == 48 && !r->readonly && r->new_session &&
		    r->pass_tty && strcmp(r->tty, "pts/3") == 0 &&
		    strcmp(r->by, "web (::1, token approver)") == 0,
		    "attach: term, size, new, pass_tty, tty, by");
		ok(strcmp(r->exec.cwd, "/src") == 0 &&
		    strv_equal(r->exec.argv, argv), "attach: cwd and argv");
	}
	proto_request_free(r);

	memset(&a, 0, sizeof a);
	a.id = "a";
	a.term = "screen";
	a.cols = 80;
	a.rows = 24;
	a.readonly = true;
	proto_req_attach(&b, &a);
	if ((r = reparse(&b, "attach read-only")) != NULL)
		ok(r->readonly && !r->new_session && !r->pass_tty &&
		    r->tty == NULL && r->by == NULL && r->exec.cwd == NULL &&
		    r->exec.argv == NULL, "attach: read-only, nothing else");
	proto_request_free(r);
}

/* Decode the one line in b (and empty b); -1 after a diag. */
static int
decode(struct buf *b, struct proto_event *ev, const char *what)
{
	char	*cause = NULL;
	int	 rc;

	rc = proto_event_parse(b->data, b->len, ev, &cause);
	if (!ok(rc == 0, "%s: decodes", what))
		diag("%.*s: %s", (int)b->len, b->data, cause);
	free(cause);
	buf_free(b);
	return rc;
}

/* Whether two waiting requests say the same. */
static bool
same_pending(const struct proto_pending *a, const struct proto_pending *b)
{
#define SAME_STR(x, y) ((x) == NULL ? (y) == NULL : (y) != NULL && \
	strcmp((x), (y)) == 0)
	const struct proto_exec	*x = a->exec, *y = b->exec;

	return a->request == b->request && strv_equal(x->argv, y->argv) &&
	    SAME_STR(x->cwd, y->cwd) && x->has_sandbox == y->has_sandbox &&
	    (!x->has_sandbox || x->sandbox == y->sandbox) &&
	    x->network == y->network &&
	    SAME_STR(x->network_allow, y->network_allow) &&
	    SAME_STR(x->why, y->why) && SAME_STR(a->verdict, b->verdict) &&
	    SAME_STR(a->by, b->by) && a->client_pid == b->client_pid &&
	    strv_equal(a->environ_differs, b->environ_differs) &&
	    SAME_STR(a->detail, b->detail) && a->connect == b->connect &&
	    strv_equal(x->env, y->env) && SAME_STR(a->client_exe, b->client_exe);
#undef SAME_STR
}

/* The events about a request and its session. */
static void
test_decode_run(void)
{
	char			*argv[] = { "make", "caf\xc3\xa9", NULL };
	char			*differs[] = { "PATH=/tmp/bin:/bin", NULL };
	char			*env[] = { "CI=1", "A=b c", NULL };
	struct proto_exec	 fullx = { .argv = argv, .cwd = "/src",
				    .env = env,
				    .has_sandbox = true,
				    .sandbox = SANDBOX_WORKSPACE_WRITE,
				    .network = true, .network_allow = "pypi.org",
				    .why = "tests" };
	struct proto_exec	 barex = { .argv = argv };
	struct proto_pending	 full = { .request = 12, .exec = &fullx,
				    .verdict = "ask", .by = "mode untrusted",
				    .client_pid = 42, .environ_differs = differs,
				    .client_exe = "/usr/bin/agent",
				    .detail = "mode untrusted: make may run a "
				    "program", .connect = true };
	struct proto_pending	 bare = { .request = 13, .exec = &barex,
				    .verdict = "allow", .by = "rule" };
	struct proto_exit	 ex = { 7, 3, 0, false, 1500, "/s/7.cast",
				    "exit 3", "/src/sub" };
	struct proto_exit	 sig = { 8, 0, 9, true, 10, NULL, NULL, NULL };
	struct proto_event	 ev;
	struct buf		 b = { 0 };

	proto_ev_queued(&b, "1", &full);
	if (decode(&b, &ev, "queued") == 0)
		ok(ev.kind == PROTO_EV_QUEUED && strcmp(ev.id, "1") == 0 &&
		    same_pending(&ev.queued, &full) && ev.request == 12,
		    "queued: every field back");
	proto_event_free(&ev);
	proto_ev_queued(&b, NULL, &bare);
	if (decode(&b, &ev, "queued, bare") == 0)
		ok(ev.id == NULL && same_pending(&ev.queued, &bare),
		    "queued: what was left out is NULL");
	proto_event_free(&ev);

	proto_ev_decided(&b, "1", 12, true, "user (edited)", NULL, argv,
	    "once");
	if (decode(&b, &ev, "approved") == 0)
		ok(ev.kind == PROTO_EV_APPROVED && ev.request == 12 &&
		    strcmp(ev.by, "user (edited)") == 0 &&
		    ev.reason == NULL && strv_equal(ev.argv, argv) &&
		    strcmp(ev.scope, "once") == 0, "approved: by, argv, scope");
	proto_event_free(&ev);
	proto_ev_decided(&b, "1", 12, false, "user", "not now", NULL, NULL);
	if (decode(&b, &ev, "denied") == 0)
		ok(ev.kind == PROTO_EV_DENIED && strcmp(ev.by, "user") == 0 &&
		    strcmp(ev.reason, "not now") == 0 && ev.argv == NULL &&
		    ev.scope == NULL, "denied: by, reason");
	proto_event_free(&ev);

	proto_ev_withdrawn(&b, 12);
	if (decode(&b, &ev, "withdrawn") == 0)
		ok(ev.kind == PROTO_EV_WITHDRAWN && ev.request == 12 &&
		    ev.id == NULL, "withdrawn: request");
	proto_event_free(&ev);

	proto_ev_started(&b, "1", 12, 7, 4321);
	if (decode(&b, &ev, "started") == 0)
		ok(ev.kind == PROTO_EV_STARTED && ev.request == 12 &&
		    ev.session == 7 && ev.pid == 4321, "started: request, "
		    "session, pid");
	proto_event_free(&ev);

	proto_ev_written(&b, "1", 7, 65536);
	if (decode(&b, &ev, "written") == 0)
		ok(ev.kind == PROTO_EV_WRITTEN && ev.session == 7 &&
		    ev.bytes == 65536, "written: session, bytes");
	proto_event_free(&ev);

	proto_ev_exit(&b, "1", &ex);
	if (decode(&b, &ev, "exit") == 0)
		ok(ev.kind == PROTO_EV_EXIT && ev.session == 7 &&
		    ev.exit.session == 7 && ev.exit.code == 3 &&
		    ev.exit.signal == 0 && !ev.exit.timed_out &&
		    ev.exit.duration_ms == 1500 &&
		    strcmp(ev.exit.recording, "/s/7.cast") == 0 &&
		    strcmp(ev.exit.ending, "exit 3") == 0 &&
		    strcmp(ev.exit.cwd, "/src/sub") == 0, "exit: code, "
		    "duration, recording, ending, cwd");
	proto_event_free(&ev);
	proto_ev_exit(&b, NULL, &sig);
	if (decode(&b, &ev, "exit by signal") == 0)
		ok(ev.exit.signal == 9 && ev.exit.code == 0 &&
		    ev.exit.timed_out && ev.exit.recording == NULL &&
		    ev.exit.ending == NULL && ev.exit.cwd == NULL,
		    "exit: signal, timed out");
	proto_event_free(&ev);
}

/* Output: text, base64 and the pipes' streams, bytes back exactly. */
static void
test_decode_output(void)
{
	static const char	 bytes[] = { 'o', 'k', 0, (char)0xff, '\r',
				    '\n' };
	struct proto_event	 ev;
	struct buf		 b = { 0 };

	proto_ev_output(&b, "1", 7, 4, bytes, sizeof bytes, PROTO_ENC_BASE64);
	if (decode(&b, &ev, "output b64") == 0)
		ok(ev.kind == PROTO_EV_OUTPUT && ev.session == 7 &&
		    ev.seq == 4 && ev.fd == 0 && ev.len == sizeof bytes &&
		    memcmp(ev.data, bytes, sizeof bytes) == 0,
		    "output: the exact bytes of b64, the PTY's");
	proto_event_free(&ev);

	proto_ev_output(&b, NULL, 7, 5, "caf\xc3\xa9\xff", 6, PROTO_ENC_TEXT);
	if (decode(&b, &ev, "output text") == 0)
		ok(ev.len == 8 && memcmp(ev.data, "caf\xc3\xa9\xef\xbf\xbd",
		    8) == 0, "output: text (invalid byte as U+FFFD)");
	proto_event_free(&ev);

	proto_ev_stream(&b, "1", 7, 6, 2, "err\n", 4, PROTO_ENC_BASE64);
	if (decode(&b, &ev, "stderr") == 0)
		ok(ev.fd == 2 && ev.len == 4 && memcmp(ev.data, "err\n", 4) ==
		    0, "output: stderr's pipe");
	proto_event_free(&ev);
	proto_ev_stream(&b, "1", 7, 7, 1, "out\n", 4, PROTO_ENC_TEXT);
	if (decode(&b, &ev, "stdout") == 0)
		ok(ev.fd == 1 && ev.len == 4 && memcmp(ev.data, "out\n", 4) ==
		    0, "output: stdout's pipe");
	proto_event_free(&ev);

	proto_ev_screen(&b, "v1", 7, 100, 30, "\033[0m\033[H\033[2Jcaf\xc3\xa9\xff",
	    17, true);
	if (decode(&b, &ev, "screen") == 0)
		ok(ev.kind == PROTO_EV_SCREEN && ev.session == 7 &&
		    ev.cols == 100 && ev.rows == 30 && ev.partial &&
		    strcmp(ev.id, "v1") == 0 && ev.len == 19 &&
		    memcmp(ev.data, "\033[0m\033[H\033[2Jcaf\xc3\xa9\xef\xbf\xbd",
		    19) == 0, "screen: session, size, partial, the drawing "
		    "as text (invalid byte as U+FFFD)");
	proto_event_free(&ev);
	proto_ev_screen(&b, "v2", 7, 80, 24, "", 0, false);
	if (decode(&b, &ev, "screen, whole") == 0)
		ok(!ev.partial && ev.len == 0 && ev.data != NULL,
		    "screen: whole, an empty drawing");
	proto_event_free(&ev);
	proto_ev_resized(&b, 7, 132, 43);
	if (decode(&b, &ev, "resized") == 0)
		ok(ev.kind == PROTO_EV_RESIZED && ev.session == 7 &&
		    ev.cols == 132 && ev.rows == 43 && ev.id == NULL,
		    "resized: session, size");
	proto_event_free(&ev);
	proto_ev_skipped(&b, 9, 1048576);
	if (decode(&b, &ev, "skipped") == 0)
		ok(ev.kind == PROTO_EV_SKIPPED && ev.session == 9 &&
		    ev.bytes == 1048576 && ev.id == NULL,
		    "skipped: session, bytes left out");
	proto_event_free(&ev);

	buf_adds(&b, "{\"event\":\"output\",\"session\":1,\"seq\":1,"
	    "\"b64\":\"!!\",\"data\":\"text\"}");
	if (decode(&b, &ev, "output, bad b64 and data") == 0)
		ok(ev.len == 4 && memcmp(ev.data, "text", 4) == 0,
		    "output: b64 that does not decode falls back to data");
	proto_event_free(&ev);
}

/* The other events: hello, error, ok, attached, list, unknown ones. */
static void
test_decode_other(void)
{
	char			*argv[] = { "sh", "-c", "x", NULL };
	char			*argv2[] = { "ls", NULL };
	struct proto_session	 sess[2] = {
		{ 7, 1234, argv, "/src", "running", true },
		{ 8, 0, argv2, NULL, "exited", false } };
	struct proto_exec	 pendx = { .argv = argv2, .cwd = "/src",
				    .has_sandbox = true,
				    .sandbox = SANDBOX_READ_ONLY, .why = "why" };
	struct proto_pending	 pend = { .request = 12, .exec = &pendx,
				    .verdict = "ask", .by = "mode never",
				    .client_pid = 42, .connect = true };
	struct proto_event	 ev;
	struct buf		 b = { 0 };
	json_t			*o;

	proto_ev_hello(&b);
	if (decode(&b, &ev, "hello") == 0)
		ok(ev.kind == PROTO_EV_HELLO && ev.version == PROTO_VERSION &&
		    strcmp(ev.server, "ptyvisor " PACKAGE_VERSION) == 0 &&
		    ev.pid == getpid(), "hello: version, server, pid");
	proto_event_free(&ev);

	proto_ev_error(&b, "9", PROTO_ERR_NO_REQUEST, "no request 9");
	if (decode(&b, &ev, "error") == 0)
		ok(ev.kind == PROTO_EV_ERROR && strcmp(ev.id, "9") == 0 &&
		    strcmp(ev.code, "no-such-request") == 0 &&
		    strcmp(ev.message, "no request 9") == 0, "error: code, "
		    "message");
	proto_event_free(&ev);

	proto_ev_ok(&b, "2");
	if (decode(&b, &ev, "ok") == 0)
		ok(ev.kind == PROTO_EV_OK && ev.not_saved == NULL, "ok");
	proto_event_free(&ev);
	proto_ev_ok_not_saved(&b, "2", "rules: Is a directory");
	if (decode(&b, &ev, "ok not saved") == 0)
		is_str(ev.not_saved, "rules: Is a directory", "ok: not_saved");
	proto_event_free(&ev);

	proto_ev_attached(&b, "a", 7, true);
	if (decode(&b, &ev, "attached") == 0)
		ok(ev.kind == PROTO_EV_ATTACHED && ev.console == 7 && ev.tty,
		    "attached: console, tty");
	proto_event_free(&ev);

	proto_ev_list(&b, "l", sess, 2, &pend, 1);
	o = json_loadb(b.data, b.len, 0, NULL);
	if (decode(&b, &ev, "list") == 0) {
		ok(ev.kind == PROTO_EV_LIST && ev.nsessions == 2 &&
		    ev.sessions[0].session == 7 &&
		    ev.sessions[0].pid == 1234 &&
		    strv_equal(ev.sessions[0].argv, argv) &&
		    strcmp(ev.sessions[0].cwd, "/src") == 0 &&
		    strcmp(ev.sessions[0].state, "running") == 0 &&
		    ev.sessions[0].agent && ev.sessions[1].pid == 0 &&
		    ev.sessions[1].cwd == NULL && !ev.sessions[1].agent,
		    "list: sessions");
		ok(ev.npending == 1 && same_pending(&ev.pending[0], &pend),
		    "list: the waiting request");
	}
	json_decref(o);
	proto_event_free(&ev);

	buf_adds(&b, "{\"event\":\"news\",\"id\":\"1\",\"what\":[1]}");
	if (decode(&b, &ev, "an unknown event") == 0)
		ok(ev.kind == PROTO_EV_UNKNOWN && strcmp(ev.id, "1") == 0,
		    "an event of a newer server is PROTO_EV_UNKNOWN");
	proto_event_free(&ev);

	buf_adds(&b, "{\"event\":\"queued\",\"request\":3,\"network\":false,"
	    "\"sandbox\":\"a-newer-profile\",\"argv\":[\"ls\"]}");
	if (decode(&b, &ev, "a profile this client does not know") == 0)
		ok(ev.kind == PROTO_EV_QUEUED && ev.request == 3 &&
		    !ev.queued.exec->has_sandbox &&
		    strcmp(ev.queued.exec->argv[0], "ls") == 0,
		    "a profile of a newer server is none, the rest is read");
	proto_event_free(&ev);
	buf_adds(&b, "{\"event\":\"ok\",\"id\":\"1\",\"new_field\":{}}\n");
	if (decode(&b, &ev, "an unknown field") == 0)
		ok(ev.kind == PROTO_EV_OK, "an unknown field is ignored");
	proto_event_free(&ev);
}

/* Events with a field missing or of the wrong type are refused. */
static void
test_decode_bad(void)
{
	static const char *const bad[] = {
		"[1,2]",
		"{\"id\":\"1\"}",
		"{\"event\":7}",
		"{\"event\":\"ok\",\"id\":3}",
		"{\"event\":\"hello\",\"server\":\"x\"}",
		"{\"event\":\"error\",\"code\":\"bad-value\"}",
		"{\"event\":\"error\",\"code\":1,\"message\":\"m\"}",
		"{\"event\":\"attached\",\"console\":1}",
		"{\"event\":\"queued\",\"request\":1}",
		"{\"event\":\"queued\",\"request\":1,\"network\":false,"
		    "\"argv\":[\"a\",2]}",
		"{\"event\":\"queued\",\"request\":\"1\",\"network\":false}",
		"{\"event\":\"approved\",\"by\":\"user\"}",
		"{\"event\":\"denied\",\"request\":1,\"reason\":false}",
		"{\"event\":\"withdrawn\"}",
		"{\"event\":\"started\",\"request\":1,\"pid\":2}",
		"{\"event\":\"output\",\"session\":1,\"seq\":1}",
		"{\"event\":\"output\",\"session\":1,\"seq\":1,\"b64\":\"!!\"}",
		"{\"event\":\"output\",\"session\":1,\"seq\":1,\"data\":5}",
		"{\"event\":\"output\",\"session\":1,\"data\":\"x\"}",
		"{\"event\":\"output\",\"session\":1,\"seq\":1,\"data\":\"x\","
		    "\"stream\":\"stdin\"}",
		"{\"event\":\"written\",\"session\":1,\"bytes\":-1}",
		"{\"event\":\"screen\",\"session\":1,\"cols\":80,\"rows\":24}",
		"{\"event\":\"screen\",\"session\":1,\"cols\":0,\"rows\":24,"
		    "\"data\":\"\"}",
		"{\"event\":\"resized\",\"session\":1,\"cols\":80}",
		"{\"event\":\"exit\",\"session\":1,\"timed_out\":false,"
		    "\"duration_ms\":1}",
		"{\"event\":\"exit\",\"session\":1,\"code\":0,"
		    "\"timed_out\":0,\"duration_ms\":1}",
		"{\"event\":\"exit\",\"session\":1,\"signal\":\"9\","
		    "\"timed_out\":false,\"duration_ms\":1}",
		"{\"event\":\"list\",\"sessions\":[]}",
		"{\"event\":\"list\",\"sessions\":{},\"pending\":[]}",
		"{\"event\":\"list\",\"sessions\":[],\"pending\":[1]}",
		"{\"event\":\"list\",\"sessions\":[{\"session\":1,"
		    "\"agent\":true}],\"pending\":[]}",
		"{\"event\":\"ok\"",
		NULL
	};
	struct proto_event	 ev;
	char			*cause;
	size_t			 i;
	int			 rc;

	for (i = 0; bad[i] != NULL; i++) {
		cause = NULL;
		rc = proto_event_parse(bad[i], strlen(bad[i]), &ev, &cause);
		ok(rc == -1 && cause != NULL && ev.json == NULL &&
		    ev.kind == PROTO_EV_UNKNOWN, "refused: %s (%s)", bad[i],
		    cause != NULL ? cause : "accepted");
		free(cause);
		if (rc == 0)
			proto_event_free(&ev);
	}
}

int
main(void)
{
	test_exec();
	test_input();
	test_small();
	test_attach();
	test_decode_run();
	test_decode_output();
	test_decode_other();
	test_decode_bad();
	return tap_done();
}
