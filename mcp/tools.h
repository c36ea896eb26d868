/*
 * tools.h - the tools `ptyvisor mcp` offers: for each, what tools/list
 * shows (its schema), its argument checks and its behaviour, kept side by
 * side in one file per tool or small family (tool-run.c, tool-session.c);
 * tools.c lists them in order, with the paragraph telling a model what
 * ptyvisor is.
 *
 * Invariant: a tool's check refuses exactly what its call refuses before
 * acting on a session's state, with the same message.  What the schema
 * allows, the check (and the control protocol's parse of the request it
 * builds) accepts, and what it refuses is refused;
 * tests/unit/test-mcp-schema.c holds them to it.
 */
#ifndef PTYVISOR_TOOLS_H
#define PTYVISOR_TOOLS_H

#include <jansson.h>

struct buf;
struct call;
struct mcpd;

struct mcp_tool {
	const char	*name;
	/* tools/list's entry, JSON text: name, description, inputSchema... */
	const char	*json;
	/*
	 * The arguments checked, without I/O: 0 and the control request
	 * they become appended to req (a line built by the codec; nothing
	 * when that needs a session's state), or -1 and *msg (the call's
	 * isError answer, or the server's words for a request it would
	 * refuse).
	 */
	int		(*check)(json_t *args, struct buf *req, char **msg);
	/* Carry the call out: answered now or once its job moves. */
	void		(*call)(struct mcpd *d, struct call *c);
};

/* The tools, each in its own file. */
extern const struct mcp_tool	tool_run;
extern const struct mcp_tool	tool_session_start;
extern const struct mcp_tool	tool_session_send;
extern const struct mcp_tool	tool_session_output;
extern const struct mcp_tool	tool_session_kill;
extern const struct mcp_tool	tool_session_list;

/*
 * Schema pieces more than one tool shows.  A number argument, as
 * mcpd_arg_number() reads it, is any number within its bounds, or null,
 * which is the same as leaving it out (TOOLS_NUMBER); where a whole
 * number is meant the code takes a fraction and cuts it, so the schema
 * admits one and the description says so (TOOLS_WHOLE).
 */
#define TOOLS_NUMBER	"\"type\": [\"number\", \"null\"]"
#define TOOLS_WHOLE	"  A whole number: a fraction is cut."
#define TOOLS_MAX_BYTES \
	"\"max_bytes\": {" TOOLS_NUMBER ", \"minimum\": 1024, " \
	"\"maximum\": 1048576, \"description\": \"Cap of the text returned " \
	"(default 65536; null: the default): head and tail kept, the gap " \
	"marked." TOOLS_WHOLE "\"}"
/*
 * What every sandbox keeps out of a command's reach, in one sentence: the
 * words of GUARD_SUMMARY (sandbox/guard.h, which mcp/ may not include;
 * tests/e2e/agents.sh checks that both say the same).
 */
#define TOOLS_GUARDED	"In every ptyvisor sandbox, ptyvisor's settings, " \
			"rules and state, each agent's settings and hooks, " \
			"git hooks and config and shell start-up files are " \
			"read-only, and credentials are hidden."
/*
 * The server's wait_s and the wait_ms its hints suggest, put in the texts
 * when tools/list is made (--wait changes them).
 */
#define TOOLS_WAIT_S	"@WAIT_S@"
#define TOOLS_WAIT_MS	"@WAIT_MS@"
/*
 * What run's and session_start's structured part adds to the facts, so
 * that an agent handing its model only that part (Claude Code, Codex)
 * loses nothing the text says: the output, ptyvisor's message after it
 * (the ending, a denial, the hint while running), the command a person
 * edited, and the call to make next while the command runs.
 */
#define TOOLS_RESULT_TEXT \
	"\"output\": {\"type\": \"string\", \"description\": \"What " \
	"the terminal showed (capped as the text part).\"}, \"message\": " \
	"{\"type\": \"string\", \"description\": \"ptyvisor's words " \
	"after the output: the ending, a denial and what to do, or how " \
	"to follow a command still running.\"}, \"edited\": " \
	"{\"type\": [\"string\", \"null\"], \"description\": \"What " \
	"ran, when the person edited the command before approving it.\"}, " \
	"\"next_call\": {\"type\": [\"object\", \"null\"], " \
	"\"description\": \"While the command runs: the tool to call " \
	"next and its arguments.\"}"
#define TOOLS_INT_OR_NULL "{\"type\": [\"integer\", \"null\"]}"
#define TOOLS_STR_OR_NULL "{\"type\": [\"string\", \"null\"]}"

/*
 * The tools as tools/list shows them, in order (an array; borrowed, valid
 * until the next call with another wait_s), their texts naming wait_s,
 * the server's default wait.
 */
json_t			*mcp_tools(double wait_s);

/* The tool named name, or NULL. */
const struct mcp_tool	*mcp_tool_find(const char *name);

/* The paragraph telling a model what ptyvisor is (server/discover). */
extern const char	 mcp_instructions[];

#endif
