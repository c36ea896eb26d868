/*
 * mcp.h - the Model Context Protocol's JSON-RPC layer for `ptyvisor mcp`:
 * one message per line in, lines out, no I/O of its own.
 *
 * Both eras of the protocol on one stream, judged request by request:
 *
 * - legacy (2025-11-25, 2025-06-18, 2025-03-26): an `initialize` handshake
 *   negotiates the version for the rest of the stream;
 * - modern (2026-07-28): each request names its version and the client's
 *   capabilities in `_meta`; nothing is inferred from earlier requests;
 *   every result carries `resultType`; `server/discover` says what the
 *   server speaks.
 *
 * The layer answers the protocol's own requests (initialize, ping,
 * server/discover, tools/list) and every malformed message itself; a
 * tools/call naming a known tool is handed to the caller as a struct
 * mcp_call, answered later (in any order, several at once) with
 * mcp_answer().  notifications/cancelled hands over the request id.
 */
#ifndef PTYVISOR_MCP_H
#define PTYVISOR_MCP_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct buf;

/* JSON-RPC's error codes, and the one 2026-07-28 adds that we send. */
#define MCP_PARSE_ERROR		-32700
#define MCP_INVALID_REQUEST	-32600
#define MCP_METHOD_NOT_FOUND	-32601
#define MCP_INVALID_PARAMS	-32602
#define MCP_INTERNAL_ERROR	-32603
#define MCP_UNSUPPORTED_VERSION	-32022

/* The modern revision, and the legacy ones, newest first. */
#define MCP_MODERN_VERSION	"2026-07-28"
#define MCP_LEGACY_LATEST	"2025-11-25"

/* The _meta keys of the modern revision. */
#define MCP_META_VERSION	"io.modelcontextprotocol/protocolVersion"
#define MCP_META_CAPS		"io.modelcontextprotocol/clientCapabilities"
#define MCP_META_CLIENT		"io.modelcontextprotocol/clientInfo"
#define MCP_META_SERVER		"io.modelcontextprotocol/serverInfo"

/* Longest input line taken; a longer one is a parse error. */
#define MCP_LINE_MAX		(4 * 1024 * 1024)

struct mcp;

/* A tools/call for the caller to carry out. */
struct mcp_call {
	json_t		*id;		/* the request's id: string, integer */
	char		*tool;		/* a name the tools list */
	json_t		*args;		/* an object, never NULL */
	json_t		*progress;	/* the progress token, or NULL */
	bool		 modern;	/* answered as 2026-07-28 */
};

/* What mcp_handle() leaves for the caller. */
enum mcp_what {
	MCP_NOTHING,	/* answered (or nothing to answer) */
	MCP_CALL,	/* *call: a tool to run */
	MCP_CANCEL,	/* *cancelled: the id of a request to give up */
};

/*
 * The protocol state of one stream: name and version are the server's,
 * instructions what it tells a model (initialize, server/discover), tools
 * tools/list's array (borrowed: it outlives the state); a tools/call must
 * name one of them.
 */
struct mcp	*mcp_new(const char *name, const char *version,
		    const char *instructions, json_t *tools);
void		 mcp_free(struct mcp *m);

/*
 * One line from the client (without its newline; need not be
 * NUL-terminated).  Lines to send are appended to out, each ending in a
 * newline.  MCP_CALL leaves *call (free with mcp_call_free); MCP_CANCEL
 * leaves *cancelled (decref).
 */
enum mcp_what	 mcp_handle(struct mcp *m, const char *line, size_t len,
		     struct buf *out, struct mcp_call **call,
		     json_t **cancelled);

/*
 * Answer call with result, a CallToolResult object (consumed): modern
 * calls get resultType and the server's name in _meta.
 */
void	mcp_answer(struct mcp *m, const struct mcp_call *call,
	    json_t *result, struct buf *out);

/*
 * A notifications/progress for call's token (call must have one):
 * progress counts up; message may be NULL.
 */
void	mcp_progress(const struct mcp_call *call, double progress,
	    const char *message, struct buf *out);

void	mcp_call_free(struct mcp_call *call);

/* The legacy version the stream's initialize negotiated, or NULL. */
const char	*mcp_negotiated(const struct mcp *m);

/*
 * A CallToolResult: one text block, the structured content (consumed;
 * may be NULL) and isError.
 */
json_t	*mcp_tool_result(const char *text, json_t *structured,
	    bool is_error);

/* The versions spoken, newest first, NULL-terminated. */
extern const char *const mcp_versions[];

#endif
