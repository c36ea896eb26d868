/*
 * tools.c - the tools `ptyvisor mcp` offers, as tools/list shows them, and
 * the paragraph that tells a model what ptyvisor is.  The descriptions are
 * what a model reads before it calls: they say that a person may deny a
 * call, how a denial reads, and how a long command is followed.
 */
#include "mcp/mcp.h"

#include "base/util.h"

const char mcp_instructions[] =
    "ptyvisor runs your shell commands under a person's supervision: "
    "each command is judged by the person's rules, may wait until the "
    "person approves it, runs in a sandbox (by default it may write only "
    "its working directory, no network) inside a terminal, and is "
    "recorded.  A call may be denied: the result then has isError true, "
    "denied true and the reason (a rule, or the person's own words); "
    "do not retry the same command, change what you do or ask the "
    "person.  A command still running after wait_s seconds is not "
    "killed: run returns running true and a session number; follow it "
    "with session_output (wait_ms, since) until running is false.  "
    "Output is what a terminal shows, capped at 64 KiB (head and tail "
    "kept, the gap marked); the recording holds everything.";

/* The fields run and session_start share, as JSON Schema properties. */
#define TOOLS_CMD_PROPS \
	"\"command\": {\"type\": \"string\", \"description\": \"A shell " \
	"command line, run by sh -c.\"}," \
	"\"argv\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, " \
	"\"minItems\": 1, \"description\": \"The command as words, run " \
	"without a shell (instead of command).\"}," \
	"\"cwd\": {\"type\": \"string\", \"description\": \"Working " \
	"directory, absolute (default: the directory ptyvisor mcp was " \
	"started in).  Under the workspace-write sandbox the command may " \
	"write only here.\"}," \
	"\"why\": {\"type\": \"string\", \"description\": \"Why you run " \
	"it, in a sentence: the person approving reads it.\"}," \
	"\"env\": {\"type\": \"object\", \"additionalProperties\": " \
	"{\"type\": \"string\"}, \"description\": \"Variables to set; a " \
	"command with variables is always asked of the person.\"}," \
	"\"sandbox\": {\"type\": \"string\", \"enum\": [\"read-only\", " \
	"\"workspace-write\", \"danger-full-access\"], \"description\": " \
	"\"Sandbox profile (default: the server's, usually " \
	"workspace-write).  danger-full-access is always asked.\"}," \
	"\"network\": {\"type\": \"boolean\", \"description\": \"Allow " \
	"network access (always asked).\"}," \
	"\"network_allow\": {\"type\": \"string\", \"maxLength\": 4096, " \
	"\"description\": \"Hosts the command needs, comma-separated " \
	"(pypi.org, *.pythonhosted.org, github.com:443): it reaches only " \
	"those (and the server's own list), through a proxy the proxy " \
	"variables name (always asked).\"}," \
	"\"rows\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": " \
	"1000, \"description\": \"Terminal rows (default 50).\"}," \
	"\"cols\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": " \
	"1000, \"description\": \"Terminal columns (default 200).\"}," \
	"\"stdin\": {\"type\": \"string\", \"maxLength\": 1048576, " \
	"\"description\": \"Text for the command's standard input, then " \
	"end of file (as printf TEXT | sh -c COMMAND; at most 1 MiB).  " \
	"Without it stdin is the terminal.\"}"

#define TOOLS_MAX_BYTES \
	"\"max_bytes\": {\"type\": \"integer\", \"minimum\": 1024, " \
	"\"maximum\": 1048576, \"description\": \"Cap of the text returned " \
	"(default 65536): head and tail kept, the gap marked.\"}"

#define TOOLS_INT_OR_NULL "{\"type\": [\"integer\", \"null\"]}"
#define TOOLS_STR_OR_NULL "{\"type\": [\"string\", \"null\"]}"

static const char tools_json[] = "["
    "{\"name\": \"run\", \"title\": \"Run a command (supervised)\","
    "\"description\": \"Run a shell command under the person's "
    "supervision and return what the terminal showed and the exit status."
    "  The person's rules decide, or the person approves: the call may "
    "wait for that, and may be denied (isError true, denied true, "
    "reason says why: do not retry it unchanged).  A command still "
    "running after wait_s seconds (default 50) is NOT killed: the result "
    "says running true with its session number; call session_output "
    "with that session (wait_ms up to 50000) until running is false, or "
    "session_kill.  A non-zero exit is a normal result.\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {"
    TOOLS_CMD_PROPS ","
    "\"timeout_s\": {\"type\": \"number\", \"minimum\": 0, \"maximum\": "
    "604800, \"description\": \"Kill the command after this many "
    "seconds (default: none).\"},"
    "\"wait_s\": {\"type\": \"number\", \"minimum\": 0, \"maximum\": 3600,"
    " \"description\": \"Return after this many seconds of running even "
    "if the command has not ended (default 50); it keeps running.\"},"
    TOOLS_MAX_BYTES "}},"
    "\"outputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"exit_code\": " TOOLS_INT_OR_NULL ", \"signal\": " TOOLS_INT_OR_NULL
    ", \"timed_out\": {\"type\": \"boolean\"}, \"denied\": {\"type\": "
    "\"boolean\"}, \"reason\": " TOOLS_STR_OR_NULL ", \"session\": "
    TOOLS_INT_OR_NULL ", \"running\": {\"type\": \"boolean\"}, "
    "\"duration_ms\": " TOOLS_INT_OR_NULL ", \"truncated\": {\"type\": "
    "\"boolean\"}, \"recording\": " TOOLS_STR_OR_NULL ", \"ending\": "
    TOOLS_STR_OR_NULL ", \"next\": {\"type\": \"integer\"}}},"
    "\"annotations\": {\"title\": \"Run a command (supervised)\", "
    "\"readOnlyHint\": false, \"destructiveHint\": true, "
    "\"idempotentHint\": false, \"openWorldHint\": true}},"

    "{\"name\": \"session_start\", \"title\": \"Start an interactive "
    "session\", \"description\": \"Start a command that keeps running "
    "(a REPL, a dev server, top, anything interactive) in a supervised "
    "terminal and return its session number at once.  Approval and "
    "denial as for run.  Then session_send types into it, session_output "
    "reads its screen, session_kill ends it.\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {"
    TOOLS_CMD_PROPS "}},"
    "\"outputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"session\": " TOOLS_INT_OR_NULL ", \"denied\": {\"type\": "
    "\"boolean\"}, \"reason\": " TOOLS_STR_OR_NULL "}},"
    "\"annotations\": {\"title\": \"Start an interactive session\", "
    "\"readOnlyHint\": false, \"destructiveHint\": true, "
    "\"idempotentHint\": false, \"openWorldHint\": true}},"

    "{\"name\": \"session_send\", \"title\": \"Type into a session\","
    "\"description\": \"Type text into a running session as keys: a "
    "newline (\\\\n) is Enter, escape sequences pass through (\\\\u0003 "
    "is Ctrl-C).  Read the effect with session_output.\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"session\": {\"type\": \"integer\", \"minimum\": 1}, \"text\": "
    "{\"type\": \"string\"}}, \"required\": [\"session\", \"text\"]},"
    "\"annotations\": {\"title\": \"Type into a session\", "
    "\"readOnlyHint\": false, \"destructiveHint\": true, "
    "\"idempotentHint\": false, \"openWorldHint\": true}},"

    "{\"name\": \"session_output\", \"title\": \"Read a session\","
    "\"description\": \"The output of a session started by run or "
    "session_start: the lines finished since 'since' (a byte offset; "
    "default: where the previous call stopped), the screen as it shows "
    "now, whether it still runs and its exit status.  wait_ms waits up "
    "to that long for new output or the end.  Page through long output "
    "with the 'next' offset it returns.\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"session\": {\"type\": \"integer\", \"minimum\": 1}, \"wait_ms\": "
    "{\"type\": \"integer\", \"minimum\": 0, \"maximum\": 600000}, "
    "\"since\": {\"type\": \"integer\", \"minimum\": 0}, "
    TOOLS_MAX_BYTES "}, \"required\": [\"session\"]},"
    "\"outputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"session\": {\"type\": \"integer\"}, \"running\": {\"type\": "
    "\"boolean\"}, \"exit_code\": " TOOLS_INT_OR_NULL ", \"signal\": "
    TOOLS_INT_OR_NULL ", \"timed_out\": {\"type\": \"boolean\"}, "
    "\"ending\": " TOOLS_STR_OR_NULL ", \"since\": {\"type\": "
    "\"integer\"}, \"next\": {\"type\": \"integer\"}, \"more\": "
    "{\"type\": \"boolean\"}, \"output\": {\"type\": \"string\"}, "
    "\"screen\": {\"type\": \"string\"}, \"truncated\": {\"type\": "
    "\"boolean\"}, \"recording\": " TOOLS_STR_OR_NULL "}},"
    "\"annotations\": {\"title\": \"Read a session\", "
    "\"readOnlyHint\": true, \"openWorldHint\": false}},"

    "{\"name\": \"session_kill\", \"title\": \"End a session\","
    "\"description\": \"End a running session (hang-up, then SIGTERM, "
    "then SIGKILL after 2 s).\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"session\": {\"type\": \"integer\", \"minimum\": 1}}, "
    "\"required\": [\"session\"]},"
    "\"annotations\": {\"title\": \"End a session\", "
    "\"readOnlyHint\": false, \"destructiveHint\": true, "
    "\"idempotentHint\": true, \"openWorldHint\": false}},"

    "{\"name\": \"session_list\", \"title\": \"List sessions\","
    "\"description\": \"The sessions this server started (by run or "
    "session_start) and whether each still runs.\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {}},"
    "\"outputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"sessions\": {\"type\": \"array\", \"items\": {\"type\": "
    "\"object\"}}}, \"required\": [\"sessions\"]},"
    "\"annotations\": {\"title\": \"List sessions\", "
    "\"readOnlyHint\": true, \"openWorldHint\": false}}"
    "]";

json_t *
mcp_tools(void)
{
	static json_t	*tools;
	json_error_t	 err;

	if (tools == NULL &&
	    (tools = json_loads(tools_json, 0, &err)) == NULL)
		fatal("mcp: the tool list does not parse: %s (column %d)",
		    err.text, err.column);
	return tools;
}
