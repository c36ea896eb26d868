/*
 * test-mcp.c - the MCP JSON-RPC layer without I/O: both eras, the
 * protocol's own requests, every class of malformed message, answers to
 * tool calls, progress, cancellation; and the output cap.
 */
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp.h"
#include "mcp/outcap.h"
#include "mcp/mcpd.h"
#include "mcp/tools.h"
#include "base/util.h"
#include "tests/tap.h"

#define VER "\"io.modelcontextprotocol/protocolVersion\":"
#define CAPS "\"io.modelcontextprotocol/clientCapabilities\":{}"
#define META "\"_meta\":{" VER "\"2026-07-28\"," CAPS "}"

/*
 * Feed line to m; the single answer line parsed (NULL when none), the
 * what in *what, a call or cancelled id left for the caller.
 */
static json_t *
feed(struct mcp *m, const char *line, enum mcp_what *what,
    struct mcp_call **call, json_t **cancelled)
{
	struct buf	 out = { 0 };
	struct mcp_call	*c = NULL;
	json_t		*x = NULL, *ans = NULL;
	enum mcp_what	 w;

	w = mcp_handle(m, line, strlen(line), &out, &c, &x);
	if (what != NULL)
		*what = w;
	if (call != NULL)
		*call = c;
	else
		mcp_call_free(c);
	if (cancelled != NULL)
		*cancelled = x;
	else
		json_decref(x);
	if (out.len > 0) {
		ok(memchr(out.data, '\n', out.len) == out.data + out.len - 1,
		    "one answer line, ending in a newline");
		ans = json_loadb(out.data, out.len, 0, NULL);
	}
	buf_free(&out);
	return ans;
}

/* The error code of an answer (0 when it is not an error). */
static int
code(json_t *ans)
{
	return (int)json_integer_value(json_object_get(json_object_get(ans,
	    "error"), "code"));
}

static void
test_eras(void)
{
	struct mcp	*m = mcp_new("ptyvisor", "9.9", mcp_instructions, mcp_tools(MCP_WAIT_S));
	struct mcp_call	*call;
	enum mcp_what	 w;
	json_t		*a, *r;

	a = feed(m, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
	    NULL, NULL, NULL);
	is_int(code(a), MCP_INVALID_PARAMS,
	    "no handshake, no _meta: invalid params");
	ok(json_is_array(json_object_get(json_object_get(a, "error"), "data") ?
	    json_object_get(json_object_get(json_object_get(a, "error"),
	    "data"), "supported") : NULL), "... with the versions spoken");
	json_decref(a);

	a = feed(m, "{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":"
	    "\"server/discover\",\"params\":{" META "}}", NULL, NULL, NULL);
	r = json_object_get(a, "result");
	is_str(json_string_value(json_object_get(r, "resultType")), "complete",
	    "server/discover: resultType complete");
	is_int(json_array_size(json_object_get(r, "supportedVersions")), 4,
	    "server/discover: four versions");
	ok(json_object_get(json_object_get(r, "capabilities"), "tools") != NULL,
	    "server/discover: capabilities tools");
	ok(strstr(json_string_value(json_object_get(r, "instructions")),
	    "denied") != NULL, "server/discover: instructions");
	is_str(json_string_value(json_object_get(json_object_get(
	    json_object_get(r, "_meta"), MCP_META_SERVER), "name")), "ptyvisor",
	    "server/discover: serverInfo in _meta");
	json_decref(a);

	a = feed(m, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\","
	    "\"params\":{" META "}}", NULL, NULL, NULL);
	r = json_object_get(a, "result");
	is_int(json_array_size(json_object_get(r, "tools")), 6,
	    "modern tools/list: six tools");
	ok(json_is_integer(json_object_get(r, "ttlMs")) &&
	    json_is_string(json_object_get(r, "cacheScope")),
	    "modern tools/list: ttlMs and cacheScope");
	json_decref(a);

	a = feed(m, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\","
	    "\"params\":{\"_meta\":{" VER "\"2030-01-01\"," CAPS "}}}",
	    NULL, NULL, NULL);
	is_int(code(a), MCP_UNSUPPORTED_VERSION, "unknown version: -32022");
	is_str(json_string_value(json_object_get(json_object_get(
	    json_object_get(a, "error"), "data"), "requested")), "2030-01-01",
	    "... naming the requested one");
	json_decref(a);

	a = feed(m, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\","
	    "\"params\":{\"_meta\":{" VER "\"2026-07-28\"}}}", NULL, NULL,
	    NULL);
	is_int(code(a), MCP_INVALID_PARAMS, "modern without capabilities");
	json_decref(a);

	a = feed(m, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"initialize\","
	    "\"params\":{\"protocolVersion\":\"2025-03-26\"}}", NULL, NULL,
	    NULL);
	r = json_object_get(a, "result");
	is_str(json_string_value(json_object_get(r, "protocolVersion")),
	    "2025-03-26", "initialize: the client's version when spoken");
	ok(json_object_get(r, "resultType") == NULL,
	    "initialize: a legacy result has no resultType");
	is_str(mcp_negotiated(m), "2025-03-26", "negotiated");
	json_decref(a);

	a = feed(m, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"initialize\","
	    "\"params\":{\"protocolVersion\":\"2024-11-05\"}}", NULL, NULL,
	    NULL);
	is_str(json_string_value(json_object_get(json_object_get(a, "result"),
	    "protocolVersion")), MCP_LEGACY_LATEST,
	    "initialize: an unknown version gets our latest legacy one");
	json_decref(a);

	a = feed(m, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\","
	    "\"params\":{}}", NULL, NULL, NULL);
	is_int(code(a), MCP_INVALID_PARAMS, "initialize without a version");
	json_decref(a);

	a = feed(m, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\","
	    "\"params\":{\"name\":\"run\",\"arguments\":{\"command\":\"ls\"},"
	    "\"_meta\":{\"progressToken\":\"p1\"}}}", &w, &call, NULL);
	ok(a == NULL && w == MCP_CALL && call != NULL, "legacy tools/call: a "
	    "call for the caller");
	if (call != NULL) {
		struct buf	out = { 0 };

		is_str(call->tool, "run", "... its tool");
		ok(!call->modern, "... legacy");
		is_str(json_string_value(call->progress), "p1",
		    "... its progress token");
		mcp_progress(call, 1, "line", &out);
		a = json_loadb(out.data, out.len, 0, NULL);
		is_str(json_string_value(json_object_get(a, "method")),
		    "notifications/progress", "progress notification");
		json_decref(a);
		out.len = 0;
		mcp_answer(m, call, mcp_tool_result("hi", NULL, false), &out);
		a = json_loadb(out.data, out.len, 0, NULL);
		ok(json_integer_value(json_object_get(a, "id")) == 8 &&
		    json_object_get(json_object_get(a, "result"),
		    "resultType") == NULL, "legacy answer: its id, no "
		    "resultType");
		json_decref(a);
		buf_free(&out);
		mcp_call_free(call);
	}

	a = feed(m, "{\"jsonrpc\":\"2.0\",\"id\":\"m\",\"method\":"
	    "\"tools/call\",\"params\":{\"name\":\"session_list\"," META "}}",
	    &w, &call, NULL);
	ok(w == MCP_CALL && call != NULL && call->modern &&
	    json_is_object(call->args), "modern tools/call; arguments "
	    "default to {}");
	if (call != NULL) {
		struct buf	out = { 0 };

		mcp_answer(m, call, mcp_tool_result("x", NULL, false), &out);
		a = json_loadb(out.data, out.len, 0, NULL);
		is_str(json_string_value(json_object_get(json_object_get(a,
		    "result"), "resultType")), "complete",
		    "modern answer: resultType");
		json_decref(a);
		buf_free(&out);
		mcp_call_free(call);
	}
	mcp_free(m);
}

static void
test_malformed(void)
{
	static const struct {
		const char	*line;
		int		 code;	/* 0: no answer */
		const char	*what;
	} cases[] = {
		{ "{", MCP_PARSE_ERROR, "truncated JSON" },
		{ "{\"a\":1,\"a\":2}", MCP_PARSE_ERROR, "duplicate key" },
		{ "[]", MCP_INVALID_REQUEST, "a batch" },
		{ "3", MCP_INVALID_REQUEST, "a number" },
		{ "{\"id\":1,\"method\":\"ping\"}", MCP_INVALID_REQUEST,
		    "no jsonrpc" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1}", MCP_INVALID_REQUEST,
		    "no method" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":3}",
		    MCP_INVALID_REQUEST, "method not a string" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}",
		    MCP_INVALID_REQUEST, "a fractional id" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
		    MCP_INVALID_REQUEST, "a null id" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x/y\"}",
		    MCP_METHOD_NOT_FOUND, "an unknown method" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\","
		    "\"params\":3}", MCP_INVALID_PARAMS, "params a number" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\","
		    "\"params\":{\"_meta\":3}}", MCP_INVALID_PARAMS,
		    "_meta a number" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
		    "\"params\":{\"name\":\"rm\"," META "}}",
		    MCP_INVALID_PARAMS, "an unknown tool" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
		    "\"params\":{" META "}}", MCP_INVALID_PARAMS,
		    "no tool name" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
		    "\"params\":{\"name\":\"run\",\"arguments\":[]," META "}}",
		    MCP_INVALID_PARAMS, "arguments an array" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
		    "\"params\":{\"name\":\"run\",\"_meta\":{\"progressToken\":"
		    "{}," VER "\"2026-07-28\"," CAPS "}}}", MCP_INVALID_PARAMS,
		    "a progress token object" },
		{ "{\"jsonrpc\":\"2.0\",\"method\":\"x/y\"}", 0,
		    "an unknown notification" },
		{ "{\"jsonrpc\":\"1.0\",\"method\":\"x/y\"}", 0,
		    "a broken notification" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", 0,
		    "a response" },
	};
	struct mcp	*m = mcp_new("ptyvisor", "9.9", mcp_instructions, mcp_tools(MCP_WAIT_S));
	json_t		*a;
	size_t		 i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		a = feed(m, cases[i].line, NULL, NULL, NULL);
		if (cases[i].code == 0)
			ok(a == NULL, "%s: no answer", cases[i].what);
		else
			is_int(code(a), cases[i].code, "%s", cases[i].what);
		json_decref(a);
	}
	mcp_free(m);
}

static void
test_cancel(void)
{
	struct mcp	*m = mcp_new("ptyvisor", "9.9", mcp_instructions, mcp_tools(MCP_WAIT_S));
	enum mcp_what	 w;
	json_t		*a, *id = NULL;

	a = feed(m, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
	    "cancelled\",\"params\":{\"requestId\":\"r7\"}}", &w, NULL, &id);
	ok(a == NULL && w == MCP_CANCEL && json_is_string(id) &&
	    strcmp(json_string_value(id), "r7") == 0,
	    "notifications/cancelled: the id, no answer");
	json_decref(id);
	a = feed(m, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
	    "cancelled\",\"params\":{}}", &w, NULL, NULL);
	ok(a == NULL && w == MCP_NOTHING, "cancelled without an id: ignored");
	mcp_free(m);
}

static void
test_tools(void)
{
	json_t	*t;
	size_t	 i;
	bool	 good = true;

	json_array_foreach(mcp_tools(MCP_WAIT_S), i, t) {
		good = good && json_is_string(json_object_get(t, "name")) &&
		    json_is_string(json_object_get(t, "description")) &&
		    json_is_object(json_object_get(t, "inputSchema")) &&
		    json_is_object(json_object_get(t, "annotations"));
	}
	ok(good, "every tool has a name, description, input schema, "
	    "annotations");
}

static void
test_outcap(void)
{
	struct outcap	 c;
	struct buf	 out = { 0 };
	char		 line[32];
	int		 i;
	size_t		 n = 0;

	outcap_init(&c, 1024);
	outcap_add(&c, "", 0);
	outcap_text(&c, NULL, &out);
	ok(!outcap_truncated(&c) && out.len == 0, "no text: nothing");
	outcap_free(&c);

	outcap_init(&c, 1024);
	outcap_add(&c, "short\n", 6);
	outcap_text(&c, NULL, &out);
	ok(!outcap_truncated(&c) && out.len == 6 &&
	    memcmp(out.data, "short\n", 6) == 0, "short text: whole");
	outcap_free(&c);

	outcap_init(&c, 1024);
	for (i = 1; i <= 10000; i++) {
		snprintf(line, sizeof line, "%d\n", i);
		outcap_add(&c, line, strlen(line));
		n += strlen(line);
	}
	out.len = 0;
	outcap_text(&c, "/r.cast", &out);
	buf_cstr(&out);
	ok(outcap_truncated(&c), "long text: truncated");
	ok(strncmp(out.data, "1\n2\n3\n", 6) == 0, "... the head kept");
	ok(out.len > 11 && strcmp(out.data + out.len - 11, "9999\n10000\n") ==
	    0, "... the tail kept");
	ok(strstr(out.data, "bytes not shown; all of it is in /r.cast") !=
	    NULL, "... the gap marked, the recording named");
	ok(out.len < 1024 + 128, "... within the cap (%zu bytes)", out.len);
	{
		/* Head + gap + tail account for every byte. */
		const char		*g = strstr(out.data, "[... ");
		unsigned long long	 gap = strtoull(g + 5, NULL, 10);
		const char		*tail = strchr(g, '\n') + 1;
		size_t			 kept = (size_t)(g - out.data) +
					     strlen(tail);

		is_int(kept + gap, n, "head + gap + tail == everything");
	}
	outcap_free(&c);

	/* A cut never splits a character. */
	outcap_init(&c, 64);
	for (i = 0; i < 100; i++)
		outcap_add(&c, "\xe2\x82\xac", 3);	/* U+20AC */
	out.len = 0;
	outcap_text(&c, NULL, &out);
	{
		json_t *s = json_stringn(out.data, out.len);

		ok(s != NULL, "cuts between characters: valid UTF-8");
		json_decref(s);
	}
	outcap_free(&c);
	buf_free(&out);
}

/*
 * Answers appended one after another to one buffer: each a whole line,
 * the tool list (larger than the room first reserved) as well as the short
 * ones around it.
 */
static void
test_emit(void)
{
	static const char *const lines[] = {
		"x",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\","
		    "\"params\":{" META "}}",
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\","
		    "\"params\":{" META "}}",
	};
	struct mcp	*m = mcp_new("ptyvisor", "9.9", mcp_instructions, mcp_tools(MCP_WAIT_S));
	struct buf	 out = { 0 };
	struct mcp_call	*c;
	json_t		*x, *a;
	const char	*p, *nl;
	size_t		 i, n = 0, tools = 0;

	for (i = 0; i < sizeof lines / sizeof lines[0]; i++)
		mcp_handle(m, lines[i], strlen(lines[i]), &out, &c, &x);
	for (p = out.data; p < out.data + out.len; p = nl + 1) {
		if ((nl = memchr(p, '\n', out.len - (size_t)(p - out.data))) ==
		    NULL)
			break;
		a = json_loadb(p, (size_t)(nl - p), 0, NULL);
		n += json_is_object(a) && json_object_get(a, "id") != NULL;
		tools += json_array_size(json_object_get(json_object_get(a,
		    "result"), "tools"));
		json_decref(a);
	}
	ok(n == 4 && p == out.data + out.len,
	    "four answers in one buffer, four whole lines");
	is_int(tools, 12, "... the tool list twice, whole");
	buf_free(&out);
	mcp_free(m);
}

int
main(void)
{
	test_eras();
	test_malformed();
	test_cancel();
	test_tools();
	test_outcap();
	test_emit();
	return tap_done();
}
