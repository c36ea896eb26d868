/*
 * tools.c - the tools `ptyvisor mcp` offers, in the order tools/list
 * shows them (each in its own file, see tools.h), and the paragraph that
 * tells a model what ptyvisor is.  The descriptions are what a model
 * reads before it calls: they say that a person may deny a call, how a
 * denial reads, and how a long command is followed.
 */
#include "mcp/tools.h"

#include <stddef.h>
#include <string.h>

#include "base/util.h"
#include "mcp/mcp-int.h"

const char mcp_instructions[] =
    "ptyvisor runs your shell commands under a person's supervision: "
    "each command is judged by the person's rules, may wait until the "
    "person approves it, runs in a sandbox (by default it may write only "
    "its working directory, no network) inside a terminal, and is "
    "recorded.  " TOOLS_GUARDED "  A call may be denied: the result then has isError true, "
    "denied true and the reason (a rule, or the person's own words); "
    "do not retry the same command, change what you do or ask the "
    "person.  A command still running after wait_s seconds is not "
    "killed: run returns running true and a session number; follow it "
    "with session_output (wait_ms, since) until running is false.  "
    "Output is what a terminal shows, capped at 64 KiB (head and tail "
    "kept, the gap marked); the recording holds everything.";

static const struct mcp_tool *const tools_list[] = {
	&tool_run, &tool_session_start, &tool_session_send,
	&tool_session_output, &tool_session_kill, &tool_session_list
};

#define TOOLS_N	(sizeof tools_list / sizeof tools_list[0])

/*
 * A tool's text with the server's waits in place of TOOLS_WAIT_S and
 * TOOLS_WAIT_MS.  Caller frees.
 */
static char *
tools_text(const char *json, double wait_s)
{
	struct buf	 b = { 0 };
	const char	*p, *at;

	for (p = json; (at = strchr(p, '@')) != NULL; p = at) {
		buf_add(&b, p, (size_t)(at - p));
		if (strncmp(at, TOOLS_WAIT_S, strlen(TOOLS_WAIT_S)) == 0) {
			buf_printf(&b, "%g", wait_s);
			at += strlen(TOOLS_WAIT_S);
		} else if (strncmp(at, TOOLS_WAIT_MS,
		    strlen(TOOLS_WAIT_MS)) == 0) {
			buf_printf(&b, "%llu", (unsigned long long)
			    mcpd_hint_wait_ms(wait_s));
			at += strlen(TOOLS_WAIT_MS);
		} else
			buf_addc(&b, *at++);
	}
	buf_adds(&b, p);
	return buf_cstr(&b);
}

/* The tools/list array, parsed from each tool's text once per wait_s. */
json_t *
mcp_tools(double wait_s)
{
	static json_t	*tools;
	static double	 made_for;
	json_error_t	 err;
	json_t		*t;
	char		*text;
	size_t		 i;

	if (tools != NULL && made_for == wait_s)
		return tools;
	json_decref(tools);
	tools = json_array();
	made_for = wait_s;
	for (i = 0; i < TOOLS_N; i++) {
		text = tools_text(tools_list[i]->json, wait_s);
		if ((t = json_loads(text, 0, &err)) == NULL)
			fatal("mcp: the tool %s does not parse: %s (column "
			    "%d)", tools_list[i]->name, err.text, err.column);
		free(text);
		json_array_append_new(tools, t);
	}
	return tools;
}

const struct mcp_tool *
mcp_tool_find(const char *name)
{
	size_t	i;

	for (i = 0; i < TOOLS_N; i++)
		if (strcmp(tools_list[i]->name, name) == 0)
			return tools_list[i];
	return NULL;
}
