/*
 * mcp.c - the MCP JSON-RPC layer (see mcp.h): parsing and checking each
 * message, the two eras, the protocol's own requests, answers.
 *
 * Invariants: every request gets exactly one answer, from here or through
 * mcp_answer(); a notification never gets one; every line written is one
 * compact JSON object; an id that could not be read is answered as null.
 */
#include "mcp/mcp.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *const mcp_versions[] = {
	MCP_MODERN_VERSION, MCP_LEGACY_LATEST, "2025-06-18", "2025-03-26",
	NULL
};

struct mcp {
	char	*name;
	char	*version;
	char	*instructions;
	json_t	*tools;		/* tools/list's array, borrowed */
	char	*negotiated;	/* the legacy handshake's version, or NULL */
};

/* How one request is to be served. */
struct mcp_req {
	json_t		*id;
	const char	*method;
	json_t		*params;	/* an object (empty when absent) */
	bool		 modern;
};

struct mcp *
mcp_new(const char *name, const char *version, const char *instructions,
    json_t *tools)
{
	struct mcp	*m = xcalloc(1, sizeof *m);

	m->name = xstrdup(name);
	m->version = xstrdup(version);
	m->instructions = xstrdup(instructions);
	m->tools = tools;
	return m;
}

void
mcp_free(struct mcp *m)
{
	if (m == NULL)
		return;
	free(m->name);
	free(m->version);
	free(m->instructions);
	free(m->negotiated);
	free(m);
}

const char *
mcp_negotiated(const struct mcp *m)
{
	return m->negotiated;
}

void
mcp_call_free(struct mcp_call *call)
{
	if (call == NULL)
		return;
	json_decref(call->id);
	free(call->tool);
	json_decref(call->args);
	json_decref(call->progress);
	free(call);
}

/*
 * Append msg (consumed) as one line, encoded straight into out's room:
 * json_dumps() would grow a string of its own by copies and then copy it
 * again, several allocations for every line written.  The room reserved
 * first (MCP_EMIT_ROOM) holds any answer but the tool list; a larger
 * message is encoded a second time into room of its size.
 */
#define MCP_EMIT_ROOM	1024

static void
mcp_emit(struct buf *out, json_t *msg)
{
	size_t	room, n;

	buf_reserve(out, MCP_EMIT_ROOM);
	room = out->cap - out->len - 1;
	n = json_dumpb(msg, out->data + out->len, room, JSON_COMPACT);
	if (n > room) {
		buf_reserve(out, n);
		n = json_dumpb(msg, out->data + out->len, n, JSON_COMPACT);
	}
	if (n == 0)		/* cannot happen: we built it */
		fatal("mcp: cannot encode a message");
	out->len += n;
	buf_addc(out, '\n');
	json_decref(msg);
}

/* An error answer; id may be NULL (sent as null), data is consumed. */
static void
mcp_error(struct buf *out, json_t *id, int code, const char *message,
    json_t *data)
{
	json_t	*err, *msg;

	err = json_pack("{s:i, s:s}", "code", code, "message", message);
	if (data != NULL)
		json_object_set_new(err, "data", data);
	msg = json_pack("{s:s, s:O?, s:o}", "jsonrpc", "2.0", "id", id,
	    "error", err);
	if (id == NULL)
		json_object_set_new(msg, "id", json_null());
	mcp_emit(out, msg);
}

/* Dress a result for its era and send it (result consumed). */
static void
mcp_result(struct mcp *m, json_t *id, bool modern, json_t *result,
    struct buf *out)
{
	json_t	*meta;

	if (modern) {
		json_object_set_new(result, "resultType",
		    json_string("complete"));
		meta = json_object_get(result, "_meta");
		if (!json_is_object(meta)) {
			meta = json_object();
			json_object_set_new(result, "_meta", meta);
		}
		json_object_set_new(meta, MCP_META_SERVER, json_pack(
		    "{s:s, s:s}", "name", m->name, "version", m->version));
	}
	mcp_emit(out, json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id,
	    "result", result));
}

/* The versions spoken as a JSON array. */
static json_t *
mcp_version_list(void)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; mcp_versions[i] != NULL; i++)
		json_array_append_new(a, json_string(mcp_versions[i]));
	return a;
}

static bool
mcp_is_legacy(const char *v)
{
	size_t	i;

	for (i = 1; mcp_versions[i] != NULL; i++)
		if (strcmp(v, mcp_versions[i]) == 0)
			return true;
	return false;
}

/*
 * Judge the request's era from its _meta: 1 modern, 0 no modern _meta, -1
 * answered (an error sent).
 */
static int
mcp_era(struct mcp_req *r, struct buf *out)
{
	json_t		*meta = json_object_get(r->params, "_meta");
	json_t		*v;
	const char	*ver;
	char		*msg;

	if (meta != NULL && !json_is_object(meta)) {
		mcp_error(out, r->id, MCP_INVALID_PARAMS,
		    "'_meta' must be an object", NULL);
		return -1;
	}
	v = json_object_get(meta, MCP_META_VERSION);
	if (v == NULL)
		return 0;
	if (!json_is_string(v)) {
		mcp_error(out, r->id, MCP_INVALID_PARAMS, "'_meta' '"
		    MCP_META_VERSION "' must be a string", NULL);
		return -1;
	}
	ver = json_string_value(v);
	if (strcmp(ver, MCP_MODERN_VERSION) != 0) {
		msg = xasprintf("Unsupported protocol version: %s (this server "
		    "speaks %s statelessly, and %s, 2025-06-18 and 2025-03-26 "
		    "after initialize)", ver, MCP_MODERN_VERSION,
		    MCP_LEGACY_LATEST);
		mcp_error(out, r->id, MCP_UNSUPPORTED_VERSION, msg,
		    json_pack("{s:o, s:s}", "supported", mcp_version_list(),
		    "requested", ver));
		free(msg);
		return -1;
	}
	if (!json_is_object(json_object_get(meta, MCP_META_CAPS))) {
		mcp_error(out, r->id, MCP_INVALID_PARAMS, "'_meta' lacks '"
		    MCP_META_CAPS "' (an object), required with protocol "
		    "version " MCP_MODERN_VERSION, NULL);
		return -1;
	}
	r->modern = true;
	return 1;
}

/* initialize: the legacy handshake. */
static void
mcp_initialize(struct mcp *m, struct mcp_req *r, struct buf *out)
{
	json_t		*v = json_object_get(r->params, "protocolVersion");
	const char	*want, *ver;

	if (!json_is_string(v)) {
		mcp_error(out, r->id, MCP_INVALID_PARAMS, "initialize needs "
		    "'protocolVersion' (a string)", NULL);
		return;
	}
	want = json_string_value(v);
	/* The client's version when we speak it, else our latest legacy. */
	ver = mcp_is_legacy(want) ? want : MCP_LEGACY_LATEST;
	free(m->negotiated);
	m->negotiated = xstrdup(ver);
	mcp_result(m, r->id, false, json_pack("{s:s, s:{s:{s:b}}, "
	    "s:{s:s, s:s, s:s}, s:s}", "protocolVersion", ver,
	    "capabilities", "tools", "listChanged", 0,
	    "serverInfo", "name", m->name, "title", "ptyvisor", "version",
	    m->version, "instructions", m->instructions), out);
}

/* server/discover: what this server speaks. */
static void
mcp_discover(struct mcp *m, struct mcp_req *r, struct buf *out)
{
	mcp_result(m, r->id, r->modern, json_pack("{s:o, s:{s:{s:b}}, "
	    "s:{s:s, s:s, s:s}, s:s, s:i, s:s}",
	    "supportedVersions", mcp_version_list(),
	    "capabilities", "tools", "listChanged", 0,
	    "serverInfo", "name", m->name, "title", "ptyvisor", "version",
	    m->version, "instructions", m->instructions,
	    "ttlMs", 0, "cacheScope", "private"), out);
}

/* tools/call: checked here, carried out by the caller. */
static enum mcp_what
mcp_tools_call(struct mcp *m, struct mcp_req *r, struct buf *out,
    struct mcp_call **callp)
{
	json_t		*name = json_object_get(r->params, "name");
	json_t		*args = json_object_get(r->params, "arguments");
	json_t		*meta = json_object_get(r->params, "_meta");
	json_t		*tool, *tok;
	struct mcp_call	*call;
	size_t		 i;
	char		*msg;

	if (!json_is_string(name)) {
		mcp_error(out, r->id, MCP_INVALID_PARAMS, "tools/call needs "
		    "'name' (a string)", NULL);
		return MCP_NOTHING;
	}
	if (args != NULL && !json_is_object(args) && !json_is_null(args)) {
		mcp_error(out, r->id, MCP_INVALID_PARAMS, "'arguments' must "
		    "be an object", NULL);
		return MCP_NOTHING;
	}
	json_array_foreach(m->tools, i, tool) {
		if (json_equal(json_object_get(tool, "name"), name))
			break;
	}
	if (i == json_array_size(m->tools)) {
		msg = xasprintf("Unknown tool: %s", json_string_value(name));
		mcp_error(out, r->id, MCP_INVALID_PARAMS, msg, NULL);
		free(msg);
		return MCP_NOTHING;
	}
	tok = json_object_get(meta, "progressToken");
	if (tok != NULL && !json_is_string(tok) && !json_is_integer(tok)) {
		mcp_error(out, r->id, MCP_INVALID_PARAMS, "'progressToken' "
		    "must be a string or an integer", NULL);
		return MCP_NOTHING;
	}
	call = xcalloc(1, sizeof *call);
	call->id = json_incref(r->id);
	call->tool = xstrdup(json_string_value(name));
	call->args = json_is_object(args) ? json_incref(args) : json_object();
	call->progress = json_incref(tok);
	call->modern = r->modern;
	*callp = call;
	return MCP_CALL;
}

/* A request (it has an id). */
static enum mcp_what
mcp_request(struct mcp *m, struct mcp_req *r, struct buf *out,
    struct mcp_call **call)
{
	const char	*meth = r->method;
	int		 era;
	char		*msg;

	if ((era = mcp_era(r, out)) < 0)
		return MCP_NOTHING;
	if (strcmp(meth, "initialize") == 0) {
		mcp_initialize(m, r, out);
		return MCP_NOTHING;
	}
	if (strcmp(meth, "server/discover") == 0) {
		mcp_discover(m, r, out);
		return MCP_NOTHING;
	}
	if (strcmp(meth, "ping") == 0) {
		mcp_result(m, r->id, r->modern, json_object(), out);
		return MCP_NOTHING;
	}
	if (strcmp(meth, "tools/list") != 0 &&
	    strcmp(meth, "tools/call") != 0) {
		msg = xasprintf("Method not found: %s", meth);
		mcp_error(out, r->id, MCP_METHOD_NOT_FOUND, msg, NULL);
		free(msg);
		return MCP_NOTHING;
	}
	if (era == 0 && m->negotiated == NULL) {
		/* Neither a handshake nor a modern _meta: malformed. */
		mcp_error(out, r->id, MCP_INVALID_PARAMS, "no protocol "
		    "version: send 'initialize' first (" MCP_LEGACY_LATEST
		    ", 2025-06-18, 2025-03-26) or name the version in '_meta' '"
		    MCP_META_VERSION "' (" MCP_MODERN_VERSION ")",
		    json_pack("{s:o}", "supported", mcp_version_list()));
		return MCP_NOTHING;
	}
	if (strcmp(meth, "tools/list") == 0) {
		json_t *res = json_pack("{s:O}", "tools", m->tools);

		if (r->modern) {
			json_object_set_new(res, "ttlMs", json_integer(0));
			json_object_set_new(res, "cacheScope",
			    json_string("private"));
		}
		mcp_result(m, r->id, r->modern, res, out);
		return MCP_NOTHING;
	}
	return mcp_tools_call(m, r, out, call);
}

/* A notification (no id): never answered. */
static enum mcp_what
mcp_notification(const char *method, json_t *params, json_t **cancelled)
{
	json_t	*id;

	if (strcmp(method, "notifications/cancelled") != 0)
		return MCP_NOTHING;	/* initialized, roots... */
	id = json_object_get(params, "requestId");
	if (!json_is_string(id) && !json_is_integer(id))
		return MCP_NOTHING;
	*cancelled = json_incref(id);
	return MCP_CANCEL;
}

enum mcp_what
mcp_handle(struct mcp *m, const char *line, size_t len, struct buf *out,
    struct mcp_call **call, json_t **cancelled)
{
	json_error_t	 err;
	json_t		*msg, *id, *method, *params, *rpc;
	struct mcp_req	 r;
	enum mcp_what	 what = MCP_NOTHING;
	char		*s;

	*call = NULL;
	*cancelled = NULL;
	if (len > MCP_LINE_MAX) {
		mcp_error(out, NULL, MCP_PARSE_ERROR, "Parse error: line "
		    "too long", NULL);
		return MCP_NOTHING;
	}
	msg = json_loadb(line, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
	    &err);
	if (msg == NULL) {
		s = xasprintf("Parse error: %s", err.text);
		mcp_error(out, NULL, MCP_PARSE_ERROR, s, NULL);
		free(s);
		return MCP_NOTHING;
	}
	if (!json_is_object(msg)) {
		mcp_error(out, NULL, MCP_INVALID_REQUEST, json_is_array(msg) ?
		    "Invalid Request: batches are not supported" :
		    "Invalid Request: not an object", NULL);
		json_decref(msg);
		return MCP_NOTHING;
	}
	id = json_object_get(msg, "id");
	method = json_object_get(msg, "method");
	params = json_object_get(msg, "params");
	rpc = json_object_get(msg, "jsonrpc");
	if (id != NULL && !json_is_string(id) && !json_is_integer(id))
		id = NULL;	/* unreadable: answered as null */
	if (method == NULL && id != NULL &&
	    (json_object_get(msg, "result") != NULL ||
	    json_object_get(msg, "error") != NULL)) {
		json_decref(msg);	/* a response: we ask nothing */
		return MCP_NOTHING;
	}
	if (!json_is_string(rpc) ||
	    strcmp(json_string_value(rpc), "2.0") != 0 ||
	    !json_is_string(method) ||
	    (json_object_get(msg, "id") != NULL && id == NULL)) {
		/* A notification is never answered, even a broken one. */
		if (json_object_get(msg, "id") != NULL)
			mcp_error(out, id, MCP_INVALID_REQUEST, "Invalid "
			    "Request: needs \"jsonrpc\":\"2.0\", a string "
			    "'method' and a string or integer 'id'", NULL);
		json_decref(msg);
		return MCP_NOTHING;
	}
	if (params != NULL && !json_is_object(params)) {
		if (id != NULL)
			mcp_error(out, id, MCP_INVALID_PARAMS, "'params' must "
			    "be an object", NULL);
		json_decref(msg);
		return MCP_NOTHING;
	}
	if (params == NULL) {
		params = json_object();
		json_object_set_new(msg, "params", params);
	}
	if (id == NULL)
		what = mcp_notification(json_string_value(method), params,
		    cancelled);
	else {
		memset(&r, 0, sizeof r);
		r.id = id;
		r.method = json_string_value(method);
		r.params = params;
		what = mcp_request(m, &r, out, call);
	}
	json_decref(msg);
	return what;
}

void
mcp_answer(struct mcp *m, const struct mcp_call *call, json_t *result,
    struct buf *out)
{
	mcp_result(m, call->id, call->modern, result, out);
}

void
mcp_progress(const struct mcp_call *call, double progress,
    const char *message, struct buf *out)
{
	json_t	*params;

	params = json_pack("{s:O, s:f}", "progressToken", call->progress,
	    "progress", progress);
	if (message != NULL)
		json_object_set_new(params, "message", json_string(message));
	mcp_emit(out, json_pack("{s:s, s:s, s:o}", "jsonrpc", "2.0",
	    "method", "notifications/progress", "params", params));
}

json_t *
mcp_tool_result(const char *text, json_t *structured, bool is_error)
{
	json_t	*res;

	res = json_pack("{s:[{s:s, s:s}], s:b}", "content", "type", "text",
	    "text", text, "isError", is_error);
	if (structured != NULL)
		json_object_set_new(res, "structuredContent", structured);
	return res;
}
