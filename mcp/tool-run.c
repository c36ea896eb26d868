/*
 * tool-run.c - the tools that start a command: run (answered when the
 * command ends, or after wait_s with it still running) and session_start
 * (answered once it starts).  Their schema, the checks that turn their
 * arguments into an exec request, and the job each opens: a control
 * connection of its own, followed by mcp-jobs.c.
 *
 * A relative cwd is taken against the directory `ptyvisor mcp` started
 * in; without one the command runs there.
 */
#include "mcp/tools.h"

#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/quote.h"
#include "base/util.h"
#include "control/client.h"
#include "control/proto.h"
#include "mcp/mcp.h"
#include "mcp/mcp-int.h"
#include "mcp/outcap.h"
#include "term/textout.h"

/* The fields run and session_start share, as JSON Schema properties. */
#define RUN_PROPS \
	"\"command\": {\"type\": \"string\", \"description\": \"A shell " \
	"command line, run by sh -c.\"}," \
	"\"argv\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, " \
	"\"minItems\": 1, \"description\": \"The command as words, run " \
	"without a shell (instead of command).\"}," \
	"\"cwd\": {\"type\": \"string\", \"description\": \"Working " \
	"directory: absolute, or relative to the directory ptyvisor mcp " \
	"was started in (the default).  Under the workspace-write sandbox " \
	"the command may write only here.\"}," \
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

static const char run_json[] =
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
    RUN_PROPS ","
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
    "\"idempotentHint\": false, \"openWorldHint\": true}}";

static const char start_json[] =
    "{\"name\": \"session_start\", \"title\": \"Start an interactive "
    "session\", \"description\": \"Start a command that keeps running "
    "(a REPL, a dev server, top, anything interactive) in a supervised "
    "terminal and return its session number at once.  Approval and "
    "denial as for run.  Then session_send types into it, session_output "
    "reads its screen, session_kill ends it.\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {"
    RUN_PROPS "}},"
    "\"outputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"session\": " TOOLS_INT_OR_NULL ", \"denied\": {\"type\": "
    "\"boolean\"}, \"reason\": " TOOLS_STR_OR_NULL "}},"
    "\"annotations\": {\"title\": \"Start an interactive session\", "
    "\"readOnlyHint\": false, \"destructiveHint\": true, "
    "\"idempotentHint\": false, \"openWorldHint\": true}}";

/*
 * The exec request for run and session_start, or NULL with *msg: each
 * argument checked and set in the request as it is read (the control
 * protocol's "exec" op, doc/protocol.md); *command is the command for
 * people.
 */
static json_t *
run_request(json_t *args, bool with_timeout, char **command, char **msg)
{
	json_t		*cmd = json_object_get(args, "command");
	json_t		*argv = json_object_get(args, "argv"), *v, *req;
	json_t		*words, *env;
	const char	*key, *s;
	char		 cwd[PATH_MAX], **w;
	double		 num;
	size_t		 i;

	if ((cmd != NULL) == (argv != NULL)) {
		*msg = xstrdup("give either 'command' (a shell command line) "
		    "or 'argv' (an array of words)");
		return NULL;
	}
	if (cmd != NULL) {
		if (!json_is_string(cmd) || *json_string_value(cmd) == '\0') {
			*msg = xstrdup("'command' must be a non-empty string");
			return NULL;
		}
		words = json_pack("[s, s, O]", "sh", "-c", cmd);
	} else {
		if (!json_is_array(argv) || json_array_size(argv) == 0) {
			*msg = xstrdup("'argv' must be a non-empty array of "
			    "strings");
			return NULL;
		}
		json_array_foreach(argv, i, v) {
			if (!json_is_string(v)) {
				*msg = xstrdup("'argv' must be a non-empty "
				    "array of strings");
				return NULL;
			}
		}
		words = json_incref(argv);
	}
	w = xcalloc(json_array_size(words) + 1, sizeof *w);
	json_array_foreach(words, i, v)
		w[i] = xstrdup(json_string_value(v));
	*command = cmd != NULL ? xstrdup(json_string_value(cmd)) :
	    quote_argv(w);
	strv_free(w);
	req = json_pack("{s:s, s:s, s:o, s:s}", "op", "exec", "id", "x",
	    "argv", words, "encoding", "base64");
	if (getcwd(cwd, sizeof cwd) == NULL)
		cwd[0] = '\0';
	v = json_object_get(args, "cwd");
	if (v != NULL && (!json_is_string(v) || *json_string_value(v) ==
	    '\0')) {
		*msg = xstrdup("'cwd' must be a directory");
		goto fail;
	}
	if (v != NULL && *json_string_value(v) == '/')
		json_object_set(req, "cwd", v);
	else if (v != NULL)
		json_object_set_new(req, "cwd", json_sprintf("%s/%s", cwd,
		    json_string_value(v)));
	else if (cwd[0] == '/')
		json_object_set_new(req, "cwd", json_string(cwd));
	if ((v = json_object_get(args, "stdin")) != NULL) {
		if (!json_is_string(v) || json_string_length(v) >
		    MCP_STDIN_MAX) {
			*msg = xstrdup("'stdin' must be a string of at most "
			    "1 MiB");
			goto fail;
		}
		json_object_set_new(req, "stdio", json_pack("[s, s, s]",
		    "pipe", "pty", "pty"));
	}
	if ((v = json_object_get(args, "why")) != NULL) {
		if (!json_is_string(v)) {
			*msg = xstrdup("'why' must be a string");
			goto fail;
		}
		json_object_set(req, "why", v);
	}
	if ((v = json_object_get(args, "sandbox")) != NULL) {
		if (!json_is_string(v)) {
			*msg = xstrdup("'sandbox' must be read-only, "
			    "workspace-write or danger-full-access");
			goto fail;
		}
		json_object_set(req, "sandbox", v);
	}
	if ((v = json_object_get(args, "network")) != NULL) {
		if (!json_is_boolean(v)) {
			*msg = xstrdup("'network' must be true or false");
			goto fail;
		}
		json_object_set(req, "network", v);
	}
	if ((v = json_object_get(args, "network_allow")) != NULL) {
		if (!json_is_string(v)) {
			*msg = xstrdup("'network_allow' must be a string of "
			    "host patterns");
			goto fail;
		}
		json_object_set(req, "network_allow", v);
	}
	if ((v = json_object_get(args, "env")) != NULL) {
		if (!json_is_object(v)) {
			*msg = xstrdup("'env' must be an object of strings");
			goto fail;
		}
		env = json_object();
		json_object_foreach(v, key, words) {
			if ((s = json_string_value(words)) == NULL) {
				json_decref(env);
				*msg = xasprintf("'env' value of %s must be a "
				    "string", key);
				goto fail;
			}
			json_object_set(env, key, words);
		}
		json_object_set_new(req, "env", env);
	}
	num = MCP_COLS;
	if (mcpd_arg_number(args, "cols", 1, PROTO_SIZE_MAX, &num, msg) < 0)
		goto fail;
	json_object_set_new(req, "cols", json_integer((json_int_t)num));
	num = MCP_ROWS;
	if (mcpd_arg_number(args, "rows", 1, PROTO_SIZE_MAX, &num, msg) < 0)
		goto fail;
	json_object_set_new(req, "rows", json_integer((json_int_t)num));
	if (with_timeout) {
		switch (mcpd_arg_number(args, "timeout_s", 0, PROTO_TIMEOUT_MAX_S,
		    &num, msg)) {
		case -1:
			goto fail;
		case 1:
			json_object_set_new(req, "timeout_s", json_real(num));
			break;
		}
	}
	return req;
fail:
	free(*command);
	*command = NULL;
	json_decref(req);
	return NULL;
}

/* What a run or session_start call asks, checked. */
struct run_args {
	json_t		*req;		/* the exec request */
	char		*command;	/* the command, for people */
	size_t		 max;		/* the answer's text cap */
	uint64_t	 wait_ms;	/* run: answer after this long running */
};

/*
 * run's (run true) or session_start's arguments, max and wait_s the
 * defaults: 0 and *a, or -1 and *msg.
 */
static int
run_args(json_t *args, bool run, size_t max, double wait_s,
    struct run_args *a, char **msg)
{
	double	num;

	memset(a, 0, sizeof *a);
	a->req = run_request(args, run, &a->command, msg);
	num = (double)max;
	if (a->req != NULL && mcpd_arg_number(args, "max_bytes",
	    MCP_MAX_BYTES_MIN, MCP_MAX_BYTES_MAX, &num, msg) < 0) {
		json_decref(a->req);
		a->req = NULL;
	}
	a->max = (size_t)num;
	num = wait_s;
	if (a->req != NULL && run && mcpd_arg_number(args, "wait_s", 0,
	    MCP_WAIT_S_MAX, &num, msg) < 0) {
		json_decref(a->req);
		a->req = NULL;
	}
	a->wait_ms = (uint64_t)(num * 1000);
	if (a->req == NULL) {
		free(a->command);
		a->command = NULL;
		return -1;
	}
	return 0;
}

/* The checks of run (run true) or session_start. */
static int
run_check_args(json_t *args, bool run, json_t **req, char **msg)
{
	struct run_args	a;

	*req = NULL;
	if (run_args(args, run, OUTCAP_DEFAULT, MCP_WAIT_S, &a, msg) != 0)
		return -1;
	free(a.command);
	*req = a.req;
	return 0;
}

static int
run_check(json_t *args, json_t **req, char **msg)
{
	return run_check_args(args, true, req, msg);
}

static int
start_check(json_t *args, json_t **req, char **msg)
{
	return run_check_args(args, false, req, msg);
}

/* run and session_start: a new job on a connection of its own. */
static void
run_start(struct mcpd *d, struct call *c)
{
	struct run_args	 a;
	struct job	*j;
	struct client	*cl;
	char		*msg = NULL, *cause = NULL;

	if (run_args(c->mc->args, c->kind == CALL_RUN, d->max, d->wait_s, &a,
	    &msg) != 0) {
		mcpd_fail(d, c, msg, NULL);
		free(msg);
		return;
	}
	c->max = a.max;
	c->wait_ms = a.wait_ms;
	cl = client_connect(d->socket, MCP_CONNECT_MS, &cause);
	if (cl == NULL) {
		msg = xasprintf("%s.  Nothing was run: ptyvisor runs commands "
		    "only under a person's supervision.  Ask the person to "
		    "start it ('ptyvisor' for the console, or 'ptyvisor "
		    "serve'), then call again.", cause);
		mcpd_fail(d, c, msg, json_pack("{s:n, s:b, s:b, s:s}",
		    "session", "denied", 0, "running", 0, "reason", cause));
		free(msg);
		free(cause);
		free(a.command);
		json_decref(a.req);
		return;
	}
	j = xcalloc(1, sizeof *j);
	j->d = d;
	j->cl = cl;
	j->fd = client_fd(cl);
	j->command = a.command;
	j->stdin_text = json_incref(json_object_get(c->mc->args, "stdin"));
	j->text = textout_new((int)json_integer_value(json_object_get(a.req,
	    "rows")), (int)json_integer_value(json_object_get(a.req, "cols")),
	    job_text, j);
	outcap_init(&j->cap, c->max);
	j->next = d->jobs;
	d->jobs = j;
	c->job = j;
	if (client_send(cl, a.req, &cause) != 0) {
		j->error = cause;
		j->state = JOB_FAILED;
		json_decref(a.req);
		mcpd_check_job(d, j);
		return;
	}
	json_decref(a.req);
	loop_add_fd(d->loop, j->fd, POLLIN, LOOP_PRIO_NORMAL, job_readable, j);
}

static void
run_call(struct mcpd *d, struct call *c)
{
	c->kind = CALL_RUN;
	run_start(d, c);
}

static void
start_call(struct mcpd *d, struct call *c)
{
	c->kind = CALL_START;
	run_start(d, c);
}

const struct mcp_tool tool_run = {
	"run", run_json, run_check, run_call
};
const struct mcp_tool tool_session_start = {
	"session_start", start_json, start_check, start_call
};
