/*
 * mcp-tools.c - each tool of `ptyvisor mcp` carried out: run and
 * session_start open a job (a control connection sending one exec),
 * session_send, session_output, session_kill and session_list act on the
 * jobs this server started; a cancellation gives a call up and stops its
 * command.  What the answers say is mcp-results.c; answering is
 * mcp-jobs.c.
 */
#include "mcp/mcp-int.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/loop.h"
#include "base/util.h"
#include "control/client.h"
#include "mcp/mcp.h"
#include "mcp/outcap.h"
#include "term/textout.h"

/* The job a session tool names, or NULL after answering the call. */
static struct job *
mcpd_find(struct mcpd *d, struct call *c)
{
	json_t		*s = json_object_get(c->mc->args, "session");
	struct job	*j;
	char		*msg;

	if (!json_is_integer(s)) {
		mcpd_fail(d, c, "'session' must be a session number (from "
		    "run or session_start)", NULL);
		return NULL;
	}
	for (j = d->jobs; j != NULL; j = j->next)
		if (j->session == json_integer_value(s) && j->session > 0)
			return j;
	msg = xasprintf("no session %lld was started by this server (see "
	    "session_list)", (long long)json_integer_value(s));
	mcpd_fail(d, c, msg, NULL);
	free(msg);
	return NULL;
}

/* run and session_start: a new job. */
static void
tool_start(struct mcpd *d, struct call *c)
{
	struct job	*j;
	struct client	*cl;
	json_t		*req;
	char		*msg = NULL, *command = NULL, *cause = NULL;
	double		 num;

	req = mcpd_exec_request(c->mc->args, c->kind == CALL_RUN, &command,
	    &msg);
	num = (double)d->max;
	if (req != NULL && mcpd_arg_number(c->mc->args, "max_bytes",
	    MCP_MAX_BYTES_MIN, MCP_MAX_BYTES_MAX, &num, &msg) < 0) {
		json_decref(req);
		req = NULL;
	}
	c->max = (size_t)num;
	num = d->wait_s;
	if (req != NULL && c->kind == CALL_RUN && mcpd_arg_number(c->mc->args,
	    "wait_s", 0, MCP_WAIT_S_MAX, &num, &msg) < 0) {
		json_decref(req);
		req = NULL;
	}
	c->wait_ms = (uint64_t)(num * 1000);
	if (req == NULL) {
		free(command);
		mcpd_fail(d, c, msg, NULL);
		free(msg);
		return;
	}
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
		free(command);
		json_decref(req);
		return;
	}
	j = xcalloc(1, sizeof *j);
	j->d = d;
	j->cl = cl;
	j->fd = client_fd(cl);
	j->command = command;
	j->stdin_text = json_incref(json_object_get(c->mc->args, "stdin"));
	j->text = textout_new((int)json_integer_value(json_object_get(req,
	    "rows")), (int)json_integer_value(json_object_get(req, "cols")),
	    job_text, j);
	outcap_init(&j->cap, c->max);
	j->next = d->jobs;
	d->jobs = j;
	c->job = j;
	if (client_send(cl, req, &cause) != 0) {
		j->error = cause;
		j->state = JOB_FAILED;
		json_decref(req);
		mcpd_check_job(d, j);
		return;
	}
	json_decref(req);
	loop_add_fd(d->loop, j->fd, POLLIN, LOOP_PRIO_NORMAL, job_readable, j);
}

static void
tool_send(struct mcpd *d, struct call *c)
{
	struct job	*j;
	json_t		*t = json_object_get(c->mc->args, "text"), *req;
	char		*cause = NULL, *msg;

	if ((j = mcpd_find(d, c)) == NULL)
		return;
	if (!json_is_string(t)) {
		mcpd_fail(d, c, "'text' must be a string", NULL);
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
	req = json_pack("{s:s, s:s, s:I, s:O}", "op", "input", "id", "in",
	    "session", (json_int_t)j->session, "data", t);
	if (client_send(j->cl, req, &cause) != 0) {
		mcpd_fail(d, c, cause, NULL);
		free(cause);
	} else {
		msg = xasprintf("sent %zu bytes to session %lld; read the "
		    "effect with session_output", json_string_length(t),
		    (long long)j->session);
		mcpd_answer(d, c, mcp_tool_result(msg, NULL, false));
		free(msg);
	}
	json_decref(req);
}

static void
tool_output(struct mcpd *d, struct call *c)
{
	struct job	*j;
	json_t		*s;
	double		 num = 0;
	char		*msg = NULL;

	if ((j = mcpd_find(d, c)) == NULL)
		return;
	if (mcpd_arg_number(c->mc->args, "wait_ms", 0, MCP_WAIT_MS_MAX, &num,
	    &msg) < 0) {
		mcpd_fail(d, c, msg, NULL);
		free(msg);
		return;
	}
	c->wait_ms = (uint64_t)num;
	num = (double)d->max;
	if (mcpd_arg_number(c->mc->args, "max_bytes", MCP_MAX_BYTES_MIN,
	    MCP_MAX_BYTES_MAX, &num, &msg) < 0) {
		mcpd_fail(d, c, msg, NULL);
		free(msg);
		return;
	}
	c->max = (size_t)num;
	s = json_object_get(c->mc->args, "since");
	if (s != NULL && (!json_is_integer(s) || json_integer_value(s) < 0)) {
		mcpd_fail(d, c, "'since' must be an offset from an earlier "
		    "answer ('next')", NULL);
		return;
	}
	/* Where the previous call stopped, as it is now. */
	c->since = s != NULL ? (uint64_t)json_integer_value(s) : j->read;
	c->job = j;
	if (call_output_ready(c))
		mcpd_answer(d, c, job_output_result(j, c));
	else
		c->timer = loop_timer_add(d->loop, c->wait_ms, call_waited, c);
}

static void
tool_kill(struct mcpd *d, struct call *c)
{
	struct job	*j;
	json_t		*req;
	char		*cause = NULL;

	if ((j = mcpd_find(d, c)) == NULL)
		return;
	c->job = j;
	c->max = d->max;
	c->since = j->total;
	if (job_over(j) || j->cl == NULL) {
		mcpd_answer(d, c, job_output_result(j, c));
		return;
	}
	req = json_pack("{s:s, s:s, s:I}", "op", "kill", "id", "k",
	    "session", (json_int_t)j->session);
	if (client_send(j->cl, req, &cause) != 0) {
		mcpd_fail(d, c, cause, NULL);
		free(cause);
	} else
		c->timer = loop_timer_add(d->loop, MCP_KILL_WAIT_MS,
		    call_waited, c);
	json_decref(req);
}

static void
tool_list(struct mcpd *d, struct call *c)
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
		    job_exit_int(j, "code"), "ending", job_ending(j));
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

/* A tools/call from the client. */
void
mcpd_call(struct mcpd *d, struct mcp_call *mc)
{
	struct call	*c = xcalloc(1, sizeof *c), **pp;
	const char	*t = mc->tool;

	c->d = d;
	c->mc = mc;
	c->max = d->max;
	for (pp = &d->calls; *pp != NULL; pp = &(*pp)->next)
		;
	*pp = c;
	if (strcmp(t, "run") == 0 || strcmp(t, "session_start") == 0) {
		c->kind = strcmp(t, "run") == 0 ? CALL_RUN : CALL_START;
		tool_start(d, c);
	} else if (strcmp(t, "session_send") == 0)
		tool_send(d, c);
	else if (strcmp(t, "session_output") == 0) {
		c->kind = CALL_OUTPUT;
		tool_output(d, c);
	} else if (strcmp(t, "session_kill") == 0) {
		c->kind = CALL_KILL;
		tool_kill(d, c);
	} else
		tool_list(d, c);
}

/* notifications/cancelled: give the call up, stop its command. */
void
mcpd_cancel(struct mcpd *d, json_t *id)
{
	struct call	*c;
	struct job	*j;
	json_t		*req;
	char		*cause = NULL;

	for (c = d->calls; c != NULL; c = c->next)
		if (json_equal(c->mc->id, id))
			break;
	if (c == NULL)
		return;		/* answered already, or never ours */
	j = c->job;
	if (j != NULL && (c->kind == CALL_RUN || c->kind == CALL_START)) {
		j->orphan = true;
		if (j->state == JOB_RUNNING && j->cl != NULL) {
			req = json_pack("{s:s, s:s, s:I}", "op", "kill", "id",
			    "k", "session", (json_int_t)j->session);
			if (client_send(j->cl, req, &cause) != 0)
				free(cause);
			json_decref(req);
		} else if (j->state == JOB_WAITING && j->cl != NULL) {
			/* Leaving withdraws the request. */
			loop_del_fd(d->loop, j->fd);
			client_free(j->cl);
			j->cl = NULL;
			j->state = JOB_FAILED;
			j->error = xstrdup("cancelled");
		}
	}
	mcpd_call_done(d, c);
}

