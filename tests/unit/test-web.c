/*
 * test-web.c - the web front end's pure parts: its tokens, the headers a
 * token travels in, Host and Origin, the bound on failed logins; the
 * page's state from a list (every text escaped by the quoter), a page's
 * decision read into a decide request, a page's messages about a session
 * shown live and what it is told of one (its screen, output, end, its
 * entries of the history).
 */
#include "web/web-auth.h"
#include "web/web-page.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "control/proto-client.h"
#include "record/history.h"
#include "tests/tap.h"

/* Tokens, headers, names, origins and the login bound. */
static void
test_auth(void)
{
	struct web_auth		*wa;
	const struct web_token	*a, *w, *t;
	char			*cause = NULL, bad[WEB_TOKEN_LEN + 1];
	const char		*s;
	size_t			 len;
	int			 i;

	wa = web_auth_new("127.0.0.1", 8461, "pv.example.org", false, &cause);
	ok(wa != NULL, "tokens made");
	a = web_auth_token(wa, WEB_ROLE_APPROVER);
	w = web_auth_token(wa, WEB_ROLE_WATCH);
	ok(strlen(a->secret) == WEB_TOKEN_LEN && strlen(w->secret) ==
	    WEB_TOKEN_LEN && strcmp(a->secret, w->secret) != 0 &&
	    strspn(a->secret, "0123456789abcdef") == WEB_TOKEN_LEN,
	    "two tokens of 64 hex digits, different");
	is_int(web_auth_check(wa, a->secret, WEB_TOKEN_LEN, 0, &t),
	    WEB_AUTH_OK, "the approver's token logs in");
	ok(t == a && t->role == WEB_ROLE_APPROVER && strcmp(t->name,
	    "approver") == 0, "... as the approver");
	is_int(web_auth_check(wa, w->secret, WEB_TOKEN_LEN, 0, &t),
	    WEB_AUTH_OK, "the watch token logs in");
	ok(t == w && t->role == WEB_ROLE_WATCH, "... as watch-only");
	is_int(web_auth_check(wa, a->secret, WEB_TOKEN_LEN - 1, 0, &t),
	    WEB_AUTH_BAD, "a prefix of a token is no token");
	is_int(web_auth_check(wa, NULL, 0, 0, &t), WEB_AUTH_BAD,
	    "no token is none");
	memcpy(bad, a->secret, sizeof bad);
	bad[WEB_TOKEN_LEN - 1] ^= 1;
	is_int(web_auth_check(wa, bad, WEB_TOKEN_LEN, 0, &t), WEB_AUTH_BAD,
	    "one digit off is refused");
	for (i = 3; i < WEB_AUTH_FAILS_MAX; i++)
		web_auth_check(wa, bad, WEB_TOKEN_LEN, 1000, &t);
	is_int(web_auth_check(wa, a->secret, WEB_TOKEN_LEN, 2000, &t),
	    WEB_AUTH_LIMITED, "after the bound, even the token waits");
	is_int(web_auth_check(wa, a->secret, WEB_TOKEN_LEN,
	    WEB_AUTH_WINDOW_MS + 1, &t), WEB_AUTH_OK,
	    "... until the window has passed");

	s = web_auth_bearer("Bearer abc", &len);
	ok(s != NULL && len == 3 && strncmp(s, "abc", 3) == 0,
	    "Authorization: Bearer");
	ok(web_auth_bearer("Basic abc", &len) == NULL, "not Basic");
	s = web_auth_subprotocol("ptyvisor, token.abc", &len);
	ok(s != NULL && len == 3 && strncmp(s, "abc", 3) == 0,
	    "Sec-WebSocket-Protocol: token.");
	ok(web_auth_subprotocol("ptyvisor", &len) == NULL,
	    "a subprotocol without a token");

	ok(web_auth_host_ok(wa, "127.0.0.1:8461") &&
	    web_auth_host_ok(wa, "localhost:8461") &&
	    web_auth_host_ok(wa, "[::1]:8461") &&
	    web_auth_host_ok(wa, "PV.example.org:8461"),
	    "its names: loopback's, the address, the host");
	ok(!web_auth_host_ok(wa, "attacker.example:8461") &&
	    !web_auth_host_ok(wa, "127.0.0.1:8462") &&
	    !web_auth_host_ok(wa, "127.0.0.1") && !web_auth_host_ok(wa, NULL),
	    "not another name, port, or none");
	ok(web_auth_origin_ok(wa, "http://localhost:8461", "localhost:8461"),
	    "the page's own origin");
	ok(!web_auth_origin_ok(wa, "http://localhost:3000",
	    "localhost:8461") && !web_auth_origin_ok(wa, "null",
	    "localhost:8461") && !web_auth_origin_ok(wa, NULL,
	    "localhost:8461") && !web_auth_origin_ok(wa,
	    "https://localhost:8461", "localhost:8461") &&
	    !web_auth_origin_ok(wa, "http://127.0.0.1:8461",
	    "localhost:8461"), "another origin, scheme or none: refused");
	web_auth_free(wa);
	web_auth_free(NULL);

	/* Every address: loopback's names and the host's, over https. */
	wa = web_auth_new("0.0.0.0", 443, "pv.example.org", true, &cause);
	ok(web_auth_host_ok(wa, "pv.example.org") &&
	    web_auth_host_ok(wa, "pv.example.org:443") &&
	    web_auth_host_ok(wa, "localhost:443") &&
	    !web_auth_host_ok(wa, "0.0.0.0:443"),
	    "every address: the host's name (bare at 443), loopback's, not "
	    "0.0.0.0");
	ok(web_auth_origin_ok(wa, "https://pv.example.org", "pv.example.org") &&
	    !web_auth_origin_ok(wa, "http://pv.example.org", "pv.example.org"),
	    "its origin is https");
	web_auth_free(wa);
}

/* A list with one waiting request of an agent's, and a session. */
static void
test_state(void)
{
	char			*argv[] = { "printf",
				    "<img src=x onerror=alert(1)>\xe2\x80\xae",
				    NULL };
	char			*env[] = { "A=\x1b[31m", NULL };
	char			*sargv[] = { "make", "test", NULL };
	struct proto_exec	 x = { .argv = argv, .cwd = "/src",
				    .env = env, .has_sandbox = true,
				    .sandbox = SANDBOX_FULL_ACCESS,
				    .why = "tests\n" };
	struct proto_pending	 p = { .request = 3, .exec = &x,
				    .verdict = "ask", .by = "mode untrusted",
				    .client_pid = 42, .client_exe = "/bin/agent" };
	struct proto_session	 s = { .session = 1, .pid = 9, .argv = sargv,
				    .cwd = "/src", .state = "running" };
	struct proto_event	 ev;
	struct history_entry	 past[2];
	struct history_list	 hl = { 0 };
	char			*pargv[] = { "echo", "\x1b[2J", NULL };
	json_t			*o, *r;
	char			*st;

	memset(past, 0, sizeof past);

	memset(&ev, 0, sizeof ev);
	ev.kind = PROTO_EV_LIST;
	ev.pending = &p;
	ev.npending = 1;
	ev.sessions = &s;
	ev.nsessions = 1;
	past[0].id = 6;
	past[0].argv = pargv;
	past[0].state = "exited";
	past[0].has_code = true;
	past[0].code = 3;
	past[0].by = "web (127.0.0.1, token approver)";
	past[1] = past[0];
	past[1].id = 7;
	hl.v = past;
	hl.n = 2;
	st = web_page_state(&ev, &hl);
	o = json_loads(st, 0, NULL);
	r = json_array_get(json_object_get(o, "history"), 0);
	ok(json_array_size(json_object_get(o, "history")) == 2 &&
	    json_integer_value(json_object_get(r, "session")) == 7,
	    "the history, newest first");
	is_str(json_string_value(json_object_get(r, "command")),
	    "echo $'\\e[2J'", "its command quoted");
	is_str(json_string_value(json_object_get(r, "state")), "exited 3",
	    "its end");
	is_str(json_string_value(json_object_get(r, "by")),
	    "web (127.0.0.1, token approver)", "who decided");
	r = json_array_get(json_object_get(o, "pending"), 0);
	is_str(json_string_value(json_object_get(o, "type")), "state",
	    "a state message");
	is_str(json_string_value(json_object_get(r, "command")),
	    "printf $'<img src=x onerror=alert(1)>\\u202e'",
	    "the command quoted as the console quotes it");
	ok(json_is_true(json_object_get(r, "invisible")),
	    "the invisible character is flagged");
	is_str(json_string_value(json_object_get(r, "env")),
	    "$'A=\\e[31m'", "the variables set, escaped");
	is_str(json_string_value(json_object_get(r, "why")), "tests\\x0a",
	    "the reason on one line");
	ok(json_is_true(json_object_get(r, "no_sandbox")),
	    "no sandbox is said");
	is_str(json_string_value(json_object_get(r, "agent")),
	    "pid 42  /bin/agent", "the agent");
	is_str(json_string_value(json_object_get(r, "rule")),
	    "allow printf $'<img src=x onerror=alert(1)>\\u202e'",
	    "the rule remembered by default");
	ok(json_is_true(json_object_get(r, "editable")), "editable");
	is_str(json_string_value(json_object_get(json_array_get(
	    json_object_get(o, "sessions"), 0), "command")), "make test",
	    "the session");
	json_decref(o);
	free(st);
}

/* A host a proxy asks for, and a program waiting in exec. */
static void
test_state_kinds(void)
{
	char			*host[] = { "connect", "pypi.org:443", NULL };
	char			*prog[] = { "curl", "-s", "x", NULL };
	struct proto_exec	 hx = { .argv = host, .network = true };
	struct proto_exec	 px = { .argv = prog, .cwd = "/src" };
	struct proto_pending	 p[2] = {
		{ .request = 4, .exec = &hx, .verdict = "ask",
		  .by = "a host on neither list", .connect = true },
		{ .request = 5, .exec = &px, .verdict = "ask",
		  .by = "rule 'ask curl **'", .check_session = 2,
		  .check_pid = 77, .check_path = "/usr/bin/curl",
		  .check_chain = "#2 make \xe2\x86\x90 sh -c curl" },
	};
	struct proto_event	 ev;
	struct history_list	 hl = { 0 };
	json_t			*o, *h, *x;
	char			*st;

	memset(&ev, 0, sizeof ev);
	ev.kind = PROTO_EV_LIST;
	ev.pending = p;
	ev.npending = 2;
	st = web_page_state(&ev, &hl);
	o = json_loads(st, 0, NULL);
	h = json_array_get(json_object_get(o, "pending"), 0);
	x = json_array_get(json_object_get(o, "pending"), 1);
	ok(json_is_true(json_object_get(h, "connect")) &&
	    !json_is_true(json_object_get(h, "editable")),
	    "a host: its own answers, not edited");
	is_str(json_string_value(json_object_get(h, "rule")),
	    "allow connect pypi.org:443", "a host's rule, exactly");
	is_str(json_string_value(json_object_get(json_object_get(x,
	    "exec_check"), "file")), "/usr/bin/curl", "an exec: its file");
	ok(json_integer_value(json_object_get(json_object_get(x,
	    "exec_check"), "session")) == 2 && !json_is_true(json_object_get(
	    x, "editable")) && json_object_get(x, "why") == NULL,
	    "an exec: its session, no edit, no agent's reason");
	is_str(json_string_value(json_object_get(x, "agent")),
	    "pid 77 inside session 2, waiting in exec", "an exec: its process");
	json_decref(o);
	free(st);
}

/* A page's decisions read into decide requests. */
static void
test_decide(void)
{
	struct proto_request	*r;
	char			*tag, *cause = NULL;
	const char		*m;

	m = "{\"op\":\"decide\",\"request\":7,\"decision\":\"deny\","
	    "\"reason\":\"no\",\"tag\":\"t1\"}";
	ok(web_page_decide(m, strlen(m), "d1", "127.0.0.1", "approver", &r,
	    &tag, &cause) == 0 && r->op == PROTO_OP_DECIDE &&
	    r->request == 7 && !r->approve && strcmp(r->reason, "no") == 0 &&
	    strcmp(r->id, "d1") == 0 && strcmp(tag, "t1") == 0,
	    "a denial with its reason and tag");
	is_str(r->by, "web (127.0.0.1, token approver)",
	    "who decided: web, the address, the token's name");
	proto_request_free(r);
	free(tag);
	m = "{\"op\":\"decide\",\"request\":7,\"decision\":\"approve\","
	    "\"edit\":\"make -n 'a b'\"}";
	ok(web_page_decide(m, strlen(m), "d2", "::1", "approver", &r, &tag,
	    &cause) == 0 && r->approve && r->exec.argv != NULL &&
	    strcmp(r->exec.argv[2], "a b") == 0 && r->exec.argv[3] == NULL &&
	    tag == NULL, "an edited command read back as words");
	proto_request_free(r);
	m = "{\"op\":\"decide\",\"request\":7,\"decision\":\"approve\","
	    "\"remember\":true,\"rule\":\"allow make **\"}";
	ok(web_page_decide(m, strlen(m), "d3", "::1", "approver", &r, &tag,
	    &cause) == 0 && r->remember && strcmp(r->rule,
	    "allow make **") == 0, "a rule remembered as edited");
	proto_request_free(r);
	m = "{\"op\":\"decide\",\"request\":0,\"decision\":\"approve\"}";
	ok(web_page_decide(m, strlen(m), "d4", "::1", "approver", &r, &tag,
	    &cause) == -1 && r == NULL && strstr(cause, "request") != NULL,
	    "no request number: refused (%s)", cause);
	free(cause);
	cause = NULL;
	m = "{\"op\":\"decide\",\"request\":1,\"decision\":\"maybe\"}";
	ok(web_page_decide(m, strlen(m), "d5", "::1", "approver", &r, &tag,
	    &cause) == -1, "a decision is approve or deny");
	free(cause);
	cause = NULL;
	m = "{\"op\":\"decide\",\"request\":1,\"decision\":\"approve\","
	    "\"remember\":true,\"once\":true}";
	ok(web_page_decide(m, strlen(m), "d7", "::1", "approver", &r, &tag,
	    &cause) == -1, "once and remember: refused, as the server would");
	free(cause);
	cause = NULL;
	m = "{\"op\":\"decide\",\"request\":1,\"decision\":\"approve\","
	    "\"edit\":\"'' x\"}";
	ok(web_page_decide(m, strlen(m), "d8", "::1", "approver", &r, &tag,
	    &cause) == -1, "an edited command naming no program: refused");
	free(cause);
	cause = NULL;
	m = "[1]";
	ok(web_page_decide(m, strlen(m), "d6", "::1", "approver", &r, &tag,
	    &cause) == -1, "not a decision");
	free(cause);
	cause = web_page_by("::1", "watch");
	is_str(cause, "web (::1, token watch)", "the browser console's "
	    "decider is named as the page's buttons' are");
	free(cause);
}

/* A page's messages about the sessions it shows live. */
static void
test_view_messages(void)
{
	static const struct {
		const char	*msg;
		int		 rc;
		const char	*what;
	} bad[] = {
		{ "{\"op\":\"view\"}", -1, "a view names its session" },
		{ "{\"op\":\"view\",\"session\":0}", -1, "session 0" },
		{ "{\"op\":\"view\",\"session\":\"3\"}", -1, "a string" },
		{ "{\"op\":\"input\",\"session\":3}", -1, "input without keys" },
		{ "{\"op\":\"input\",\"session\":3,\"data\":\"\"}", -1,
		  "input of no key" },
		{ "{\"op\":\"view\\u0000\",\"session\":3}", -1,
		  "an op with NUL in it" },
		{ "{\"op\":\"kill\",\"session\":3}", -1, "an op no page sends" },
		{ "{\"op\":\"view\",\"session\":3,\"session\":4}", -1,
		  "a duplicate key" },
		{ "[1]", -1, "not an object" },
		{ "{\"op\":\"decide\",\"request\":1}", 0,
		  "a decision, left to web_page_decide" },
	};
	struct web_page_msg	 m;
	char			*cause;
	const char		*s;
	size_t			 i;
	int			 rc;

	s = "{\"op\":\"view\",\"session\":12}";
	ok(web_page_message(s, strlen(s), &m, &cause) == 0 &&
	    m.op == WEB_PAGE_VIEW && m.session == 12 && m.data == NULL,
	    "view: its session");
	s = "{\"op\":\"unview\",\"session\":12}";
	ok(web_page_message(s, strlen(s), &m, &cause) == 0 &&
	    m.op == WEB_PAGE_UNVIEW && m.session == 12, "unview");
	s = "{\"op\":\"input\",\"session\":5,\"data\":\"ls\\r\\u0000\\u001b[A\"}";
	ok(web_page_message(s, strlen(s), &m, &cause) == 0 &&
	    m.op == WEB_PAGE_INPUT && m.session == 5 && m.len == 7 &&
	    memcmp(m.data, "ls\r\0\x1b[A", 7) == 0,
	    "input: the keys exactly, NUL (C-Space) and escapes kept");
	free(m.data);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		rc = web_page_message(bad[i].msg, strlen(bad[i].msg), &m,
		    &cause);
		ok(rc == bad[i].rc && (rc == 0 || cause != NULL) &&
		    m.data == NULL, "%s: %s", bad[i].what, rc == 0 ?
		    "read" : cause);
		free(cause);
	}
}

/* What a page is told of a session it shows. */
static void
test_view_told(void)
{
	char			*argv[] = { "make", "\x1b]0;x\x07", NULL };
	struct history_entry	 e[4], many[12];
	struct history_list	 hl = { 0 };
	struct proto_event	 ev;
	json_t			*o, *v;
	bool			 pruned[4] = { false, false, false, true };
	char			*s;
	size_t			 i;

	memset(&ev, 0, sizeof ev);
	ev.kind = PROTO_EV_SCREEN;
	ev.session = 4;
	ev.cols = 100;
	ev.rows = 30;
	ev.data = "\x1b[0m\x1b[H\x1b[2J<b>caf\xc3\xa9\xff";
	ev.len = strlen(ev.data);
	ev.partial = true;
	s = web_page_screen(&ev);
	o = json_loads(s, 0, NULL);
	ok(o != NULL && strcmp(json_string_value(json_object_get(o, "type")),
	    "screen") == 0 && json_integer_value(json_object_get(o,
	    "session")) == 4 && json_integer_value(json_object_get(o,
	    "cols")) == 100 && json_integer_value(json_object_get(o,
	    "rows")) == 30 && json_is_true(json_object_get(o, "partial")),
	    "screen: session, size, partial");
	is_str(json_string_value(json_object_get(o, "data")),
	    "\x1b[0m\x1b[H\x1b[2J<b>caf\xc3\xa9\xef\xbf\xbd",
	    "screen: the terminal's bytes as they are (for xterm.js, never "
	    "markup), invalid UTF-8 as U+FFFD");
	json_decref(o);
	free(s);
	s = web_page_screen_error(4, "no session 4\x1b[2J");
	o = json_loads(s, 0, NULL);
	is_str(json_string_value(json_object_get(o, "error")),
	    "no session 4\\x1b[2J", "no screen: the server's words, quoted");
	json_decref(o);
	free(s);
	s = web_page_output(4, "a\r\nb", 4);
	is_str(s, "{\"type\":\"output\",\"session\":4,\"data\":"
	    "\"a\\r\\nb\"}", "output: its bytes");
	free(s);
	s = web_page_ended(4, "exit 3");
	is_str(s, "{\"type\":\"ended\",\"session\":4,\"ending\":"
	    "\"exit 3\"}", "how it ended");
	free(s);

	memset(e, 0, sizeof e);
	for (i = 0; i < 4; i++) {
		e[i].id = i == 1 ? 9 : 4;
		e[i].argv = argv;
		e[i].state = "exited";
		e[i].has_code = true;
		e[i].code = (int)i;
		e[i].start_us = 1000000;
		e[i].end_us = 3500000;
		e[i].by = "web (::1, token approver)";
		e[i].recording = "/s/4.cast";
	}
	e[2].recording_dropped = 4096;
	hl.v = e;
	hl.n = 4;
	s = web_page_entries(4, &hl, pruned);
	o = json_loads(s, 0, NULL);
	v = json_object_get(o, "entries");
	ok(json_array_size(v) == 3 && json_integer_value(json_object_get(
	    json_array_get(v, 0), "session")) == 4, "its entries alone, "
	    "oldest first (%zu)", json_array_size(v));
	is_str(json_string_value(json_object_get(json_array_get(v, 0),
	    "command")), "make $'\\e]0;x\\x07'", "the command quoted");
	is_str(json_string_value(json_object_get(json_array_get(v, 1),
	    "ending")), "exit 2", "how each ended, in history's words");
	is_str(json_string_value(json_object_get(json_array_get(v, 1),
	    "duration")), "2.5s", "its duration");
	is_str(json_string_value(json_object_get(json_array_get(v, 1),
	    "by")), "web (::1, token approver)", "who decided");
	ok(strstr(json_string_value(json_object_get(json_array_get(v, 1),
	    "recording")), "capped: 4096 bytes") != NULL,
	    "a capped recording says so");
	ok(strstr(json_string_value(json_object_get(json_array_get(v, 2),
	    "recording")), "pruned") != NULL &&
	    json_object_get(json_array_get(v, 0), "recording") == NULL,
	    "a pruned one too; a whole one says nothing");
	json_decref(o);
	free(s);
	hl.v = many;
	hl.n = sizeof many / sizeof many[0];
	memset(many, 0, sizeof many);
	for (i = 0; i < hl.n; i++) {
		many[i].id = 4;
		many[i].argv = argv;
		many[i].code = (int)i;
		many[i].has_code = true;
	}
	s = web_page_entries(4, &hl, NULL);
	o = json_loads(s, 0, NULL);
	v = json_object_get(o, "entries");
	ok(json_array_size(v) == WEB_PAGE_ENTRIES && strcmp(json_string_value(
	    json_object_get(json_array_get(v, WEB_PAGE_ENTRIES - 1),
	    "ending")), "exit 11") == 0, "at most %d entries, the newest",
	    WEB_PAGE_ENTRIES);
	json_decref(o);
	free(s);
	s = web_page_entries(9, &hl, NULL);
	ok(strstr(s, "\"entries\":[]") != NULL, "a session not in the "
	    "history yet: no entries");
	free(s);
}

int
main(void)
{
	test_auth();
	test_state();
	test_state_kinds();
	test_decide();
	test_view_messages();
	test_view_told();
	return tap_done();
}
