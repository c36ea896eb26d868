/*
 * tool-run.c - the tools that start a command: run (answered when the
 * command ends, or after wait_s with it still running) and session_start
 * (answered once it starts).  Their schema, the checks that turn their
 * arguments into an exec request, and the job each opens: a control
 * connection of its own, followed by mcp-jobs.c.
 *
 * A relative cwd is taken against the directory `ptyvisor mcp` started
 * in; without one the command runs there.
 *
 * The request is a struct proto_exec, sent as the codec builds it
 * (control/proto-client.h).  What it cannot carry and the server refuses
 * -- a variable name that is empty or holds '=', a profile the server
 * does not know -- is not sent: once connected, the call gets the
 * server's own words, as it did when the server read them.
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
#include "control/proto-client.h"
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
	"\"network_allow\": {\"type\": \"string\", \"description\": " \
	"\"Hosts the command needs, comma-separated " \
	"(pypi.org, *.pythonhosted.org, github.com:443): it reaches only " \
	"those (and the server's own list), through a proxy the proxy " \
	"variables name (always asked).  localhost:5432 is the person's " \
	"own port, reached at that address by any client; " \
	"unix:/run/x.sock a socket of theirs at its path.\"}," \
	"\"rows\": {" TOOLS_NUMBER ", \"minimum\": 1, \"maximum\": 1000, " \
	"\"description\": \"Terminal rows (default 50; null: the " \
	"default)." TOOLS_WHOLE "\"}," \
	"\"cols\": {" TOOLS_NUMBER ", \"minimum\": 1, \"maximum\": 1000, " \
	"\"description\": \"Terminal columns (default 200; null: the " \
	"default)." TOOLS_WHOLE "\"}," \
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
    "running after wait_s seconds (default " TOOLS_WAIT_S ") is NOT killed: the result "
    "says running true with its session number; call session_output "
    "with that session (wait_ms " TOOLS_WAIT_MS ") until running is false, or "
    "session_kill.  A non-zero exit is a normal result.  " TOOLS_GUARDED
    "\","
    "\"inputSchema\": {\"type\": \"object\", \"properties\": {"
    RUN_PROPS ","
    "\"timeout_s\": {" TOOLS_NUMBER ", \"minimum\": 0, \"maximum\": "
    "604800, \"description\": \"Kill the command after this many "
    "seconds (default, or null: none).\"},"
    "\"wait_s\": {" TOOLS_NUMBER ", \"minimum\": 0, \"maximum\": 3600, "
    "\"description\": \"Return after this many seconds of running even "
    "if the command has not ended (default " TOOLS_WAIT_S "; null: the "
    "default); it "
    "keeps running.\"},"
    TOOLS_MAX_BYTES "}},"
    "\"outputSchema\": {\"type\": \"object\", \"properties\": {"
    "\"exit_code\": " TOOLS_INT_OR_NULL ", \"signal\": " TOOLS_INT_OR_NULL
    ", \"timed_out\": {\"type\": \"boolean\"}, \"denied\": {\"type\": "
    "\"boolean\"}, \"reason\": " TOOLS_STR_OR_NULL ", \"session\": "
    TOOLS_INT_OR_NULL ", \"running\": {\"type\": \"boolean\"}, "
    "\"duration_ms\": " TOOLS_INT_OR_NULL ", \"truncated\": {\"type\": "
    "\"boolean\"}, \"recording\": " TOOLS_STR_OR_NULL ", \"ending\": "
    TOOLS_STR_OR_NULL ", \"next\": {\"type\": \"integer\"}, "
    TOOLS_RESULT_TEXT "}},"
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
    "\"boolean\"}, \"reason\": " TOOLS_STR_OR_NULL ", \"running\": "
    "{\"type\": \"boolean\"}, \"exit_code\": " TOOLS_INT_OR_NULL ", "
    "\"ending\": " TOOLS_STR_OR_NULL ", " TOOLS_RESULT_TEXT "}},"
    "\"annotations\": {\"title\": \"Start an interactive session\", "
    "\"readOnlyHint\": false, \"destructiveHint\": true, "
    "\"idempotentHint\": false, \"openWorldHint\": true}}";

/*
 * The command: 'command' (run by sh -c) or 'argv', into ex->argv, and
 * *command, the command for people.  0, or -1 and *msg.
 */
static int
run_words(json_t *args, struct proto_exec *ex, char **command, char **msg)
{
	json_t		*cmd = json_object_get(args, "command");
	json_t		*argv = json_object_get(args, "argv"), *v;
	size_t		 i;

	if ((cmd != NULL) == (argv != NULL)) {
		*msg = xstrdup("give either 'command' (a shell command line) "
		    "or 'argv' (an array of words)");
		return -1;
	}
	if (cmd != NULL) {
		if (!json_is_string(cmd) || *json_string_value(cmd) == '\0') {
			*msg = xstrdup("'command' must be a non-empty string");
			return -1;
		}
		ex->argv = xcalloc(4, sizeof *ex->argv);
		ex->argv[0] = xstrdup("sh");
		ex->argv[1] = xstrdup("-c");
		ex->argv[2] = xstrdup(json_string_value(cmd));
		*command = xstrdup(json_string_value(cmd));
		return 0;
	}
	if (!json_is_array(argv) || json_array_size(argv) == 0) {
		*msg = xstrdup("'argv' must be a non-empty array of strings");
		return -1;
	}
	json_array_foreach(argv, i, v) {
		if (!json_is_string(v)) {
			*msg = xstrdup("'argv' must be a non-empty array of "
			    "strings");
			return -1;
		}
	}
	ex->argv = xcalloc(json_array_size(argv) + 1, sizeof *ex->argv);
	json_array_foreach(argv, i, v)
		ex->argv[i] = xstrdup(json_string_value(v));
	*command = quote_argv(ex->argv);
	return 0;
}

/*
 * The working directory: 'cwd', absolute or taken against ours, else
 * ours (none when ours cannot be had).  0, or -1 and *msg.
 */
static int
run_cwd(json_t *args, struct proto_exec *ex, char **msg)
{
	json_t	*v = json_object_get(args, "cwd");
	char	 cwd[PATH_MAX];

	if (getcwd(cwd, sizeof cwd) == NULL)
		cwd[0] = '\0';
	if (v != NULL && (!json_is_string(v) || *json_string_value(v) ==
	    '\0')) {
		*msg = xstrdup("'cwd' must be a directory");
		return -1;
	}
	if (v != NULL && *json_string_value(v) == '/')
		ex->cwd = xstrdup(json_string_value(v));
	else if (v != NULL)
		ex->cwd = xasprintf("%s/%s", cwd, json_string_value(v));
	else if (cwd[0] == '/')
		ex->cwd = xstrdup(cwd);
	return 0;
}

/*
 * The string and boolean arguments: stdin (a pipe for fd 0), why,
 * sandbox (its name in *profile), network, network_allow.  0, or -1 and
 * *msg.
 */
static int
run_options(json_t *args, struct proto_exec *ex, const char **profile,
    char **msg)
{
	json_t	*v;

	if ((v = json_object_get(args, "stdin")) != NULL) {
		if (!json_is_string(v) || json_string_length(v) >
		    MCP_STDIN_MAX) {
			*msg = xstrdup("'stdin' must be a string of at most "
			    "1 MiB");
			return -1;
		}
		ex->pipes[0] = true;
	}
	if ((v = json_object_get(args, "why")) != NULL) {
		if (!json_is_string(v)) {
			*msg = xstrdup("'why' must be a string");
			return -1;
		}
		ex->why = xstrdup(json_string_value(v));
	}
	if ((v = json_object_get(args, "sandbox")) != NULL) {
		if (!json_is_string(v)) {
			*msg = xstrdup(PROTO_MSG_BAD_SANDBOX);
			return -1;
		}
		*profile = json_string_value(v);
	}
	if ((v = json_object_get(args, "network")) != NULL) {
		if (!json_is_boolean(v)) {
			*msg = xstrdup("'network' must be true or false");
			return -1;
		}
		ex->network = json_is_true(v);
	}
	if ((v = json_object_get(args, "network_allow")) != NULL) {
		if (!json_is_string(v)) {
			*msg = xstrdup("'network_allow' must be a string of "
			    "host patterns");
			return -1;
		}
		ex->network_allow = xstrdup(json_string_value(v));
	}
	return 0;
}

/* The variables to set, 'env', as NAME=VALUE.  0, or -1 and *msg. */
static int
run_env(json_t *args, struct proto_exec *ex, char **msg)
{
	json_t		*env = json_object_get(args, "env"), *v;
	const char	*key;
	size_t		 n = 0;

	if (env == NULL)
		return 0;
	if (!json_is_object(env)) {
		*msg = xstrdup("'env' must be an object of strings");
		return -1;
	}
	json_object_foreach(env, key, v) {
		if (!json_is_string(v)) {
			*msg = xasprintf("'env' value of %s must be a string",
			    key);
			return -1;
		}
	}
	ex->env = xcalloc(json_object_size(env) + 1, sizeof *ex->env);
	json_object_foreach(env, key, v)
		ex->env[n++] = xasprintf("%s=%s", key, json_string_value(v));
	return 0;
}

/*
 * The terminal's size and, for run, the timeout (a fraction of a
 * millisecond rounded as the server rounds it).  0, or -1 and *msg.
 */
static int
run_limits(json_t *args, bool with_timeout, struct proto_exec *ex,
    char **msg)
{
	double	num = MCP_COLS;

	if (mcpd_arg_number(args, "cols", 1, PROTO_SIZE_MAX, &num, msg) < 0)
		return -1;
	ex->cols = (unsigned int)num;
	num = MCP_ROWS;
	if (mcpd_arg_number(args, "rows", 1, PROTO_SIZE_MAX, &num, msg) < 0)
		return -1;
	ex->rows = (unsigned int)num;
	if (!with_timeout)
		return 0;
	switch (mcpd_arg_number(args, "timeout_s", 0, PROTO_TIMEOUT_MAX_S,
	    &num, msg)) {
	case -1:
		return -1;
	case 1:
		ex->timeout_ms = (uint64_t)(num * 1000 + 0.5);
		break;
	}
	return 0;
}

/*
 * The profile named parsed into ex, and what the server answers a
 * request it refuses for what struct proto_exec cannot carry (it holds a
 * parsed profile and NAME=VALUE variables): a variable name that is
 * empty or holds '=', then a profile it does not know, in the order it
 * reads them.  The one fault it finds before those is argv[0] empty,
 * which the request carries: the server says that itself.  NULL: nothing
 * to refuse here.
 */
static char *
run_refused(json_t *args, struct proto_exec *ex, const char *profile)
{
	json_t		*v;
	const char	*key;
	bool		 bad_name = false;

	json_object_foreach(json_object_get(args, "env"), key, v)
		if (!proto_env_name_ok(key))
			bad_name = true;
	ex->has_sandbox = profile != NULL &&
	    sandbox_profile_lookup(profile, &ex->sandbox);
	if (ex->argv[0][0] == '\0')
		return NULL;
	if (bad_name)
		return xasprintf(PROTO_FMT_BAD_ENV_NAME, "env");
	if (profile != NULL && !ex->has_sandbox)
		return xstrdup(PROTO_MSG_BAD_SANDBOX);
	return NULL;
}

/* What a run or session_start call asks, checked. */
struct run_args {
	struct proto_exec	 ex;		/* the exec request */
	char			*refused;	/* the server's answer to it,
						   NULL: none (run_refused) */
	char			*command;	/* the command, for people */
	size_t			 max;		/* the answer's text cap */
	uint64_t		 wait_ms;	/* run: answer after this long
						   running */
};

static void
run_args_free(struct run_args *a)
{
	proto_exec_free(&a->ex);
	free(a->refused);
	free(a->command);
	memset(a, 0, sizeof *a);
}

/*
 * The exec request for run (run true) or session_start, each argument
 * checked as it is read (the control protocol's "exec" op,
 * doc/protocol.md), and the answer's cap and wait, max and wait_s their
 * defaults: 0 and *a, or -1 and *msg.
 */
static int
run_args(json_t *args, bool run, size_t max, double wait_s,
    struct run_args *a, char **msg)
{
	const char	*profile = NULL;
	double		 num;

	memset(a, 0, sizeof *a);
	a->ex.encoding = PROTO_ENC_BASE64;
	if (run_words(args, &a->ex, &a->command, msg) != 0 ||
	    run_cwd(args, &a->ex, msg) != 0 ||
	    run_options(args, &a->ex, &profile, msg) != 0 ||
	    run_env(args, &a->ex, msg) != 0 ||
	    run_limits(args, run, &a->ex, msg) != 0)
		goto fail;
	num = (double)max;
	if (mcpd_arg_number(args, "max_bytes", MCP_MAX_BYTES_MIN,
	    MCP_MAX_BYTES_MAX, &num, msg) < 0)
		goto fail;
	a->max = (size_t)num;
	num = wait_s;
	if (run && mcpd_arg_number(args, "wait_s", 0, MCP_WAIT_S_MAX, &num,
	    msg) < 0)
		goto fail;
	a->wait_ms = (uint64_t)(num * 1000);
	a->refused = run_refused(args, &a->ex, profile);
	return 0;
fail:
	run_args_free(a);
	return -1;
}

/*
 * The checks of run (run true) or session_start: the exec line, or what
 * the server would answer it.
 */
static int
run_check_args(json_t *args, bool run, struct buf *req, char **msg)
{
	struct run_args	a;

	if (run_args(args, run, OUTCAP_DEFAULT, MCP_WAIT_S, &a, msg) != 0)
		return -1;
	if (a.refused != NULL) {
		*msg = a.refused;
		a.refused = NULL;
		run_args_free(&a);
		return -1;
	}
	proto_req_exec(req, MCP_EXEC_ID, &a.ex);
	run_args_free(&a);
	return 0;
}

static int
run_check(json_t *args, struct buf *req, char **msg)
{
	return run_check_args(args, true, req, msg);
}

static int
start_check(json_t *args, struct buf *req, char **msg)
{
	return run_check_args(args, false, req, msg);
}

/* A new job for a call, on connection cl, following the request a. */
static struct job *
run_job(struct mcpd *d, struct call *c, struct client *cl,
    struct run_args *a)
{
	struct job	*j = xcalloc(1, sizeof *j);

	j->d = d;
	j->cl = cl;
	j->fd = client_fd(cl);
	j->command = a->command;
	a->command = NULL;
	j->stdin_text = json_incref(json_object_get(c->mc->args, "stdin"));
	j->text = textout_new((int)a->ex.rows, (int)a->ex.cols, job_text, j);
	outcap_init(&j->cap, c->max);
	j->next = d->jobs;
	d->jobs = j;
	c->job = j;
	return j;
}

/*
 * Send the job its exec request, or fail it as the server would have
 * (a->refused) or because the server is gone.
 */
static void
run_send(struct mcpd *d, struct job *j, struct run_args *a)
{
	struct buf	 line = { 0 };
	char		*cause = NULL;

	if (a->refused == NULL) {
		proto_req_exec(&line, MCP_EXEC_ID, &a->ex);
		if (client_send_line(j->cl, &line, &cause) == 0) {
			buf_free(&line);
			loop_add_fd(d->loop, j->fd, POLLIN, LOOP_PRIO_NORMAL,
			    job_readable, j);
			return;
		}
		buf_free(&line);
	} else {
		cause = a->refused;
		a->refused = NULL;
	}
	j->error = cause;
	j->state = JOB_FAILED;
	mcpd_check_job(d, j);
}

/* run and session_start: a new job on a connection of its own. */
static void
run_start(struct mcpd *d, struct call *c)
{
	struct run_args	 a;
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
		run_args_free(&a);
		return;
	}
	run_send(d, run_job(d, c, cl, &a), &a);
	run_args_free(&a);
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
