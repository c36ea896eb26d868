/*
 * fuzz-mcp.c - libFuzzer target for the MCP JSON-RPC layer (mcp/mcp.c) and
 * the output cap (mcp/outcap.c).  Each input is split into lines, fed to
 * one protocol state in turn (so a handshake can precede what follows), and
 * every tool call handed over is answered with a progress notification and
 * a result.  Besides the sanitizers' findings it asserts the layer's
 * promises: every output line is one JSON object with "jsonrpc":"2.0", a
 * notification never gets an answer, a call always has an id, a tool name
 * and an object of arguments.  The same bytes go through an output cap,
 * whose text must stay within its bound.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp.h"
#include "mcp/outcap.h"
#include "mcp/mcpd.h"
#include "mcp/tools.h"
#include "base/util.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The lines already found to be JSON-RPC objects.  Most inputs write the
 * same line many times (the same parse error for each broken line, the
 * same tool list), and whether a line parses depends on its bytes alone,
 * so a line equal to one seen before passes without being parsed again.
 * Direct-mapped by a hash of the line, in static storage (no allocation
 * for libFuzzer's leak check to count); a longer line is always parsed.
 */
#define FUZZ_SEEN_SLOTS	128
#define FUZZ_SEEN_LINE	(16 * 1024)	/* a tools/list answer fits */

static struct {
	uint64_t	hash;
	size_t		len;
	char		line[FUZZ_SEEN_LINE];
} fuzz_seen[FUZZ_SEEN_SLOTS];

/*
 * Abort unless p is one JSON object with a string "jsonrpc".  Not
 * instrumented for coverage: whether a line was seen before depends on
 * earlier inputs, and libFuzzer must not take that for new behaviour.
 */
__attribute__((no_sanitize("coverage"), noinline)) static void
check_line(const char *p, size_t len)
{
	uint64_t	 h = 14695981039346656037ULL;	/* FNV-1a */
	size_t		 i;
	json_t		*o;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
	i = (size_t)(h % FUZZ_SEEN_SLOTS);
	if (fuzz_seen[i].hash == h && fuzz_seen[i].len == len &&
	    memcmp(fuzz_seen[i].line, p, len) == 0)
		return;
	o = json_loadb(p, len, 0, NULL);
	if (!json_is_object(o) || !json_is_string(json_object_get(o,
	    "jsonrpc")))
		abort();
	json_decref(o);
	if (len <= FUZZ_SEEN_LINE) {
		fuzz_seen[i].hash = h;
		fuzz_seen[i].len = len;
		memcpy(fuzz_seen[i].line, p, len);
	}
}

/* Every line of out is a JSON-RPC object; returns how many. */
static size_t
check_lines(const struct buf *out)
{
	const char	*p = out->data, *nl;
	size_t		 left = out->len, n = 0;

	while (left > 0) {
		nl = memchr(p, '\n', left);
		if (nl == NULL)
			abort();	/* a line without its newline */
		check_line(p, (size_t)(nl - p));
		n++;
		left -= (size_t)(nl - p) + 1;
		p = nl + 1;
	}
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mcp	*m = mcp_new("ptyvisor", "fuzz", mcp_instructions,
			    mcp_tools(MCP_WAIT_S));
	struct buf	 out = { 0 };
	struct outcap	 cap;
	struct mcp_call	*call;
	json_t		*cancelled;
	const char	*p = (const char *)data, *nl;
	size_t		 left = size, len, n;
	enum mcp_what	 w;

	while (left > 0) {
		nl = memchr(p, '\n', left);
		len = nl != NULL ? (size_t)(nl - p) : left;
		out.len = 0;
		w = mcp_handle(m, p, len, &out, &call, &cancelled);
		n = check_lines(&out);
		if (n > 1 || (w != MCP_NOTHING && n != 0))
			abort();	/* one answer at most, none with a call */
		if (w == MCP_CALL) {
			if (call == NULL || call->id == NULL ||
			    call->tool == NULL || !json_is_object(call->args))
				abort();
			out.len = 0;
			if (call->progress != NULL)
				mcp_progress(call, 1, "x", &out);
			mcp_answer(m, call, mcp_tool_result("ok", NULL, false),
			    &out);
			check_lines(&out);
			mcp_call_free(call);
		} else if (w == MCP_CANCEL) {
			if (cancelled == NULL)
				abort();
			json_decref(cancelled);
		}
		len += nl != NULL ? 1 : 0;
		p += len;
		left -= len;
	}

	/* A cap from the last byte, 16 to 1036: most inputs overflow it. */
	outcap_init(&cap, 16 + 4 * (size_t)(size > 0 ? data[size - 1] : 0));
	outcap_add(&cap, (const char *)data, size / 2);
	outcap_add(&cap, (const char *)data + size / 2, size - size / 2);
	out.len = 0;
	outcap_text(&cap, NULL, &out);
	if (out.len > cap.max + 128 && outcap_truncated(&cap))
		abort();
	outcap_free(&cap);
	buf_free(&out);
	mcp_free(m);
	return 0;
}
