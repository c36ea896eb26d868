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

/* The tools/list array, parsed once from each tool's text. */
json_t *
mcp_tools(void)
{
	static json_t	*tools;
	json_error_t	 err;
	json_t		*t;
	size_t		 i;

	if (tools != NULL)
		return tools;
	tools = json_array();
	for (i = 0; i < TOOLS_N; i++) {
		if ((t = json_loads(tools_list[i]->json, 0, &err)) == NULL)
			fatal("mcp: the tool %s does not parse: %s (column "
			    "%d)", tools_list[i]->name, err.text, err.column);
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
