/*
 * tool-session.c - the tools that act on the sessions this server started
 * (by run or session_start): session_send types into one, session_output
 * reads it (since, wait_ms, max_bytes), session_kill ends it,
 * session_list lists them.  Each tool's schema, its argument checks and
 * its behaviour, side by side; answering and the jobs are mcp-jobs.c,
 * what the answers say mcp-results.c.
 *
 * A session number below 1 is refused as one this server did not start
 * (no job ever has one), so the checks and the lookup agree.
 */
#include "mcp/tools.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/loop.h"
#include "base/util.h"
#include "mcp/mcp.h"
#include "mcp/mcp-int.h"

static const char send_json[] =
    "{\"name\": \"session_send\", \"title\": \"Type into a session\","
    "\"description\": \"Type text into a running session as keys: a "
    "newline (\\\\n) is Enter, escape sequences pass through (\\\\u0003 "
    "is Ctrl-C).  Read the effect with session_output.\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"session\": {\"type\": \"integer\", \"minimum\": 1}, \"text\": "
    "{\"type\": \"string\"}}, \"required\": [\"session\", \"text\"]},"
    "\"annotations\": {\"title\": \"Type into a session\", "
    "\"readOnlyHint\": false, \"destructiveHint\": true, "
    "\"idempotentHint\": false, \"openWorldHint\": true}}";

static const char output_json[] =
    "{\"name\": \"session_output\", \"title\": \"Read a session\","
    "\"description\": \"The output of a session started by run or "
    "session_start: the lines finished since 'since' (a byte offset; "
    "default: where the previous call stopped), the screen as it shows "
    "now, whether it still runs and its exit status.  wait_ms waits up "
    "to that long for new output or the end.  Page through long output "
    "with the 'next' offset it returns.\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"session\": {\"type\": \"integer\", \"minimum\": 1}, \"wait_ms\": "
    "{" TOOLS_NUMBER ", \"minimum\": 0, \"maximum\": 600000, "
    "\"description\": \"Wait up to this many milliseconds for new output "
    "or the end (default 0, or null: answer at once)." TOOLS_WHOLE "\"}, "
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
    "\"readOnlyHint\": true, \"openWorldHint\": false}}";

static const char kill_json[] =
    "{\"name\": \"session_kill\", \"title\": \"End a session\","
    "\"description\": \"End a running session (hang-up, then SIGTERM, "
    "then SIGKILL after 2 s).\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"session\": {\"type\": \"integer\", \"minimum\": 1}}, "
    "\"required\": [\"session\"]},"
    "\"annotations\": {\"title\": \"End a session\", "
    "\"readOnlyHint\": false, \"destructiveHint\": true, "
    "\"idempotentHint\": true, \"openWorldHint\": false}}";

static const char list_json[] =
    "{\"name\": \"session_list\", \"title\": \"List sessions\","
    "\"description\": \"The sessions this server started (by run or "
    "session_start) and whether each still runs.\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {}},"
    "\"outputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"sessions\": {\"type\": \"array\", \"items\": {\"type\": "
    "\"object\"}}}, \"required\": [\"sessions\"]},"
    "\"annotations\": {\"title\": \"List sessions\", "
    "\"readOnlyHint\": true, \"openWorldHint\": false}}";

/* What a call naming a session this server did not start is told. */
static char *
session_unknown(int64_t session)
{
	return xasprintf("no session %lld was started by this server (see "
	    "session_list)", (long long)session);
}

/* The session argument: 0 and *session, or -1 and *msg. */
static int
session_arg(json_t *args, int64_t *session, char **msg)
{
	json_t	*s = json_object_get(args, "session");

	if (!json_is_integer(s)) {
		*msg = xstrdup("'session' must be a session number (from run "
		    "or session_start)");
		return -1;
	}
	*session = json_integer_value(s);
	if (*session < 1) {
		*msg = session_unknown(*session);
		return -1;
	}
	return 0;
}

/* The job a session tool names, or NULL after answering the call. */
static struct job *
session_find(struct mcpd *d, struct call *c)
{
	struct job	*j;
	int64_t		 session;
	char		*msg;

	if (session_arg(c->mc->args, &session, &msg) != 0) {
		mcpd_fail(d, c, msg, NULL);
		free(msg);
		return NULL;
	}
	for (j = d->jobs; j != NULL; j = j->next)
		if (j->session == session)
			return j;
	msg = session_unknown(session);
	mcpd_fail(d, c, msg, NULL);
	free(msg);
	return NULL;
}

/* session_send's text: 0, or -1 and *msg. */
static int
send_args(json_t *args, char **msg)
{
	if (!json_is_string(json_object_get(args, "text"))) {
		*msg = xstrdup("'text' must be a string");
		return -1;
	}
	return 0;
}

static int
send_check(json_t *args, struct buf *req, char **msg)
{
	int64_t	session;

	(void)req;
	if (session_arg(args, &session, msg) != 0)
		return -1;
	return send_args(args, msg);
}

/* session_send: the text typed into the session's terminal. */
static void
send_call(struct mcpd *d, struct call *c)
{
	struct job	*j;
	json_t		*t = json_object_get(c->mc->args, "text");
	char		*cause = NULL, *msg = NULL;

	if ((j = session_find(d, c)) == NULL)
		return;
	if (send_args(c->mc->args, &msg) != 0) {
		mcpd_fail(d, c, msg, NULL);
		free(msg);
		return;
	}
	if (j->state != JOB_RUNNING || j->cl == NULL) {
		msg = xasprintf("session %lld is not running (%s)",
		    (long long)j->session, job_ending(j) != NULL ?
		    job_ending(j) : "ended");
		mcpd_fail(d, c, msg, NULL);
		free(msg);
		return;
	}
	if (job_send_text(j, json_string_value(t), json_string_length(t),
	    &cause) != 0) {
		mcpd_fail(d, c, cause, NULL);
		free(cause);
	} else {
		msg = xasprintf("sent %zu bytes to session %lld; read the "
		    "effect with session_output", json_string_length(t),
		    (long long)j->session);
		mcpd_answer(d, c, mcp_tool_result(msg, NULL, false));
		free(msg);
	}
}

/* What session_output asks but the session. */
struct output_args {
	uint64_t	wait_ms;
	size_t		max;
	bool		has_since;
	uint64_t	since;
};

/* session_output's arguments but the session: 0, or -1 and *msg. */
static int
output_args(json_t *args, size_t max, struct output_args *a, char **msg)
{
	json_t	*s;
	double	 num = 0;

	if (mcpd_arg_number(args, "wait_ms", 0, MCP_WAIT_MS_MAX, &num,
	    msg) < 0)
		return -1;
	a->wait_ms = (uint64_t)num;
	num = (double)max;
	if (mcpd_arg_number(args, "max_bytes", MCP_MAX_BYTES_MIN,
	    MCP_MAX_BYTES_MAX, &num, msg) < 0)
		return -1;
	a->max = (size_t)num;
	s = json_object_get(args, "since");
	if (s != NULL && (!json_is_integer(s) || json_integer_value(s) < 0)) {
		*msg = xstrdup("'since' must be an offset from an earlier "
		    "answer ('next')");
		return -1;
	}
	a->has_since = s != NULL;
	a->since = s != NULL ? (uint64_t)json_integer_value(s) : 0;
	return 0;
}

static int
output_check(json_t *args, struct buf *req, char **msg)
{
	struct output_args	a;
	int64_t			session;

	(void)req;
	if (session_arg(args, &session, msg) != 0)
		return -1;
	return output_args(args, MCP_MAX_BYTES_MIN, &a, msg);
}

/* session_output: now, or once there is something new or wait_ms ends. */
static void
output_call(struct mcpd *d, struct call *c)
{
	struct job		*j;
	struct output_args	 a;
	char			*msg = NULL;

	c->kind = CALL_OUTPUT;
	if ((j = session_find(d, c)) == NULL)
		return;
	if (output_args(c->mc->args, d->max, &a, &msg) != 0) {
		mcpd_fail(d, c, msg, NULL);
		free(msg);
		return;
	}
	c->wait_ms = a.wait_ms;
	c->max = a.max;
	/* Where the previous call stopped, as it is now. */
	c->since = a.has_since ? a.since : j->read;
	c->job = j;
	if (call_output_ready(c))
		mcpd_answer(d, c, job_output_result(j, c));
	else
		c->timer = loop_timer_add(d->loop, c->wait_ms, call_waited, c);
}

static int
kill_check(json_t *args, struct buf *req, char **msg)
{
	int64_t	session;

	(void)req;
	return session_arg(args, &session, msg);
}

/* session_kill: answered when the session has ended, or after a wait. */
static void
kill_call(struct mcpd *d, struct call *c)
{
	struct job	*j;
	char		*cause = NULL;

	c->kind = CALL_KILL;
	if ((j = session_find(d, c)) == NULL)
		return;
	c->job = j;
	c->max = d->max;
	c->since = j->total;
	if (job_over(j) || j->cl == NULL) {
		mcpd_answer(d, c, job_output_result(j, c));
		return;
	}
	if (job_send_kill(j, &cause) != 0) {
		mcpd_fail(d, c, cause, NULL);
		free(cause);
	} else
		c->timer = loop_timer_add(d->loop, MCP_KILL_WAIT_MS,
		    call_waited, c);
}

/* session_list takes no arguments and ignores any. */
static int
list_check(json_t *args, struct buf *req, char **msg)
{
	(void)args;
	(void)msg;
	(void)req;
	return 0;
}

static void
list_call(struct mcpd *d, struct call *c)
{
	struct job	*j;
	json_t		*a = json_array(), *o;
	struct buf	 text = { 0 };

	for (j = d->jobs; j != NULL; j = j->next) {
		if (j->session == 0)
			continue;
		o = json_pack("{s:I, s:s, s:b, s:o, s:s?}", "session",
		    (json_int_t)j->session, "command", j->command, "running",
		    j->state == JOB_RUNNING, "exit_code",
		    job_exit_code(j), "ending", job_ending(j));
		json_array_append_new(a, o);
		buf_printf(&text, "session %lld: %s (%s)\n",
		    (long long)j->session, j->command,
		    j->state == JOB_RUNNING ? "running" : job_ending(j) != NULL
		    ? job_ending(j) : "ended");
	}
	if (text.len == 0)
		buf_adds(&text, "no sessions started by this server\n");
	mcpd_answer(d, c, mcp_tool_result(buf_cstr(&text),
	    json_pack("{s:o}", "sessions", a), false));
	buf_free(&text);
}

const struct mcp_tool tool_session_send = {
	"session_send", send_json, send_check, send_call
};
const struct mcp_tool tool_session_output = {
	"session_output", output_json, output_check, output_call
};
const struct mcp_tool tool_session_kill = {
	"session_kill", kill_json, kill_check, kill_call
};
const struct mcp_tool tool_session_list = {
	"session_list", list_json, list_check, list_call
};
