/*
 * mcp.c - `ptyvisor mcp`: an MCP server on stdin/stdout for agents
 * (Claude Code, Codex, Gemini CLI...).  The protocol itself is mcp/; this
 * file carries the tools out as a client of the running console or
 * `ptyvisor serve`, so every command passes the same rules, approval,
 * sandbox, recording and history as `ptyvisor exec`, and shows as an agent
 * pane.  With no server it runs nothing: each call says how to start one.
 *
 * Each command (run, session_start) is a job on its own control
 * connection: closing it kills the command, so EOF on stdin ends the
 * server and its sessions with it.  Everything runs on one event loop:
 * stdin, the jobs' sockets, the timers of waiting calls; several calls
 * are in flight at once and are answered in any order.
 *
 * A job's output is rendered as terminal text (cli/textout.h, what `exec
 * --text` prints); finished lines are kept twice: capped head and tail
 * for run's answer (mcp/outcap.h), and the last MCP_LOG_MAX bytes with
 * their offsets for session_output's paging.  How arguments become a
 * request and a job becomes an answer is mcp-results.c.
 *
 * Only JSON-RPC goes to stdout; messages for people go to stderr.
 */
#include "cli/commands.h"
#include "cli/cli.h"
#include "cli/mcp-int.h"
#include "cli/textout.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/quote.h"
#include "base/utf8.h"
#include "base/util.h"
#include "control/client.h"
#include "control/proto.h"
#include "mcp/mcp.h"
#include "mcp/outcap.h"
#include "policy/config.h"

static void	mcpd_check_job(struct mcpd *d, struct job *j);

/* Write out's lines to stdout, all of them, and empty it. */
static void
mcpd_flush(struct mcpd *d, struct buf *out)
{
	/* A client that is gone gets nothing more. */
	if (out->len > 0 &&
	    util_write_all(STDOUT_FILENO, out->data, out->len) != 0)
		loop_stop(d->loop);
	out->len = 0;
}

/* Answer call with result (consumed), then forget the call. */
static void	mcpd_call_done(struct mcpd *d, struct call *c);

static void
mcpd_answer(struct mcpd *d, struct call *c, json_t *result)
{
	struct buf	out = { 0 };

	mcp_answer(d->mcp, c->mc, result, &out);
	mcpd_flush(d, &out);
	buf_free(&out);
	mcpd_call_done(d, c);
}

/* An isError answer with a message and optional structured content. */
static void
mcpd_fail(struct mcpd *d, struct call *c, const char *msg, json_t *sc)
{
	mcpd_answer(d, c, mcp_tool_result(msg, sc, true));
}

static void
job_free(struct job *j)
{
	struct job	**pp;

	for (pp = &j->d->jobs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == j) {
			*pp = j->next;
			break;
		}
	if (j->cl != NULL) {
		loop_del_fd(j->d->loop, j->fd);
		client_free(j->cl);
	}
	textout_free(j->text);
	outcap_free(&j->cap);
	buf_free(&j->log);
	json_decref(j->exit);
	json_decref(j->stdin_text);
	free(j->command);
	free(j->by);
	free(j->reason);
	free(j->error);
	free(j->edited);
	free(j);
}

/* Whether a job has stopped (ended, denied or failed). */
static bool
job_over(const struct job *j)
{
	return j->state == JOB_ENDED || j->state == JOB_DENIED ||
	    j->state == JOB_FAILED;
}

/* A job nobody can reach any more goes. */
static void
job_maybe_free(struct job *j)
{
	struct call	*c;

	for (c = j->d->calls; c != NULL; c = c->next)
		if (c->job == j)
			return;
	if (j->orphan && job_over(j))
		job_free(j);
	else if (!j->kept && !j->orphan && job_over(j))
		job_free(j);
}

static void
mcpd_call_done(struct mcpd *d, struct call *c)
{
	struct call	**pp;
	struct job	 *j = c->job;

	for (pp = &d->calls; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	loop_timer_cancel(d->loop, c->timer);
	loop_timer_cancel(d->loop, c->ptimer);
	mcp_call_free(c->mc);
	free(c);
	if (j != NULL)
		job_maybe_free(j);
}

static void
call_progress_now(struct call *c)
{
	struct buf	 out = { 0 };
	char		*msg = job_latest(c->job);

	c->last_progress = util_now_ms();
	c->nprogress += 1;
	mcp_progress(c->mc, c->nprogress, msg, &out);
	mcpd_flush(c->d, &out);
	buf_free(&out);
	free(msg);
}

static void
call_progress_timer(struct loop *loop, void *arg)
{
	struct call	*c = arg;

	(void)loop;
	c->ptimer = NULL;
	call_progress_now(c);
}

/* Something new to report to a run call with a progress token. */
static void
call_progress(struct call *c)
{
	uint64_t	now = util_now_ms();

	if (c->mc->progress == NULL || c->ptimer != NULL)
		return;
	if (now - c->last_progress >= MCP_PROGRESS_MS)
		call_progress_now(c);
	else
		c->ptimer = loop_timer_add(c->d->loop, MCP_PROGRESS_MS -
		    (now - c->last_progress), call_progress_timer, c);
}

/* run's wait_s ran out: answer with what there is; the job stays. */
static void
call_run_waited(struct loop *loop, void *arg)
{
	struct call	*c = arg;

	(void)loop;
	c->timer = NULL;
	c->job->kept = true;
	mcpd_answer(c->d, c, job_run_result(c->job,
	    (double)c->wait_ms / 1000));
}

/* session_output's or session_kill's wait ran out. */
static void
call_waited(struct loop *loop, void *arg)
{
	struct call	*c = arg;

	(void)loop;
	c->timer = NULL;
	mcpd_answer(c->d, c, job_output_result(c->job, c));
}

/* Whether session_output has something to say now. */
static bool
call_output_ready(const struct call *c)
{
	const struct job	*j = c->job;
	return job_over(j) || j->total > c->since || c->wait_ms == 0;
}

/* The job changed: answer the calls waiting on it that can be. */
static void
mcpd_check_job(struct mcpd *d, struct job *j)
{
	struct call	*c, *next;
	json_t		*sc;

	for (c = d->calls; c != NULL; c = next) {
		next = c->next;
		if (c->job != j)
			continue;
		switch (c->kind) {
		case CALL_RUN:
			if (job_over(j))
				mcpd_answer(d, c, job_run_result(j, 0));
			else if (j->state == JOB_RUNNING && c->timer == NULL &&
			    c->wait_ms > 0) {
				c->timer = loop_timer_add(d->loop, c->wait_ms,
				    call_run_waited, c);
				call_progress(c);
			} else if (j->state == JOB_RUNNING && c->wait_ms == 0) {
				j->kept = true;
				mcpd_answer(d, c, job_run_result(j, 0));
			}
			break;
		case CALL_START:
			if (j->state == JOB_RUNNING || j->state == JOB_ENDED) {
				j->kept = true;
				sc = json_pack("{s:I, s:b}", "session",
				    (json_int_t)j->session, "denied", 0);
				mcpd_answer(d, c, mcp_tool_result("started",
				    sc, false));
			} else if (job_over(j))
				mcpd_answer(d, c, job_run_result(j, 0));
			break;
		case CALL_OUTPUT:
			if (call_output_ready(c))
				mcpd_answer(d, c, job_output_result(j, c));
			break;
		case CALL_KILL:
			if (job_over(j))
				mcpd_answer(d, c, job_output_result(j, c));
			break;
		}
	}
}

/* New output for the job's run calls' progress. */
static void
mcpd_job_output(struct mcpd *d, struct job *j)
{
	struct call	*c, *next;

	for (c = d->calls; c != NULL; c = next) {
		next = c->next;
		if (c->job == j && c->kind == CALL_RUN)
			call_progress(c);
	}
	mcpd_check_job(d, j);
}

/*
 * The started job's stdin: the text in lines of at most MCP_STDIN_CHUNK
 * bytes (cut between characters), then end of file.  It all fits in what
 * the server holds for a pipe (MCP_STDIN_MAX), so no window is needed.
 */
static void
job_send_stdin(struct job *j)
{
	const char	*p;
	size_t		 left, n;
	json_t		*req;
	char		*cause = NULL;

	if (j->stdin_text == NULL)
		return;
	p = json_string_value(j->stdin_text);
	left = json_string_length(j->stdin_text);
	do {
		n = utf8_cut(p, left, MCP_STDIN_CHUNK);
		req = json_pack("{s:s, s:s, s:I, s:s, s:s%, s:b}", "op",
		    "input", "id", "in", "session", (json_int_t)j->session,
		    "stream", "stdin", "data", p, n, "eof", n == left);
		if (client_send(j->cl, req, &cause) != 0) {
			fprintf(stderr, "ptyvisor mcp: session %lld: stdin: "
			    "%s\n", (long long)j->session, cause);
			free(cause);
			json_decref(req);
			break;
		}
		json_decref(req);
		p += n;
		left -= n;
	} while (left > 0);
	json_decref(j->stdin_text);
	j->stdin_text = NULL;
}

/* One event about a job. */
static void
job_event(struct job *j, json_t *ev)
{
	const char	*name = client_str(ev, "event"), *s, *id;
	struct buf	 b = { 0 };
	json_t		*argv;
	char		**v;
	size_t		 i;

	if (name == NULL)
		return;
	id = client_str(ev, "id");
	if (strcmp(name, "queued") == 0)
		j->request = json_integer_value(json_object_get(ev,
		    "request"));
	else if (strcmp(name, "denied") == 0) {
		j->state = JOB_DENIED;
		free(j->by);
		j->by = (s = client_str(ev, "by")) != NULL ? xstrdup(s) : NULL;
		if ((s = client_str(ev, "reason")) != NULL)
			j->reason = xstrdup(s);
	} else if (strcmp(name, "approved") == 0) {
		free(j->by);
		j->by = (s = client_str(ev, "by")) != NULL ? xstrdup(s) : NULL;
		argv = json_object_get(ev, "argv");
		if (json_is_array(argv)) {
			v = xcalloc(json_array_size(argv) + 1, sizeof *v);
			for (i = 0; i < json_array_size(argv); i++) {
				s = json_string_value(json_array_get(argv, i));
				v[i] = xstrdup(s != NULL ? s : "");
			}
			free(j->edited);
			j->edited = quote_argv(v);
			strv_free(v);
		}
	} else if (strcmp(name, "started") == 0) {
		j->session = json_integer_value(json_object_get(ev,
		    "session"));
		j->state = JOB_RUNNING;
		job_send_stdin(j);
	} else if (strcmp(name, "output") == 0) {
		s = client_str(ev, "b64");
		if (j->text == NULL)
			;	/* nothing after the exit */
		else if (s != NULL &&
		    proto_base64_decode(&b, s, strlen(s)) == 0)
			textout_feed(j->text, b.data, b.len);
		else if ((s = client_str(ev, "data")) != NULL)
			textout_feed(j->text, s, strlen(s));
		buf_free(&b);
		mcpd_job_output(j->d, j);
		return;
	} else if (strcmp(name, "exit") == 0) {
		/* The rest of the screen is text now; the screen goes. */
		if (j->text != NULL)
			textout_finish(j->text);
		textout_free(j->text);
		j->text = NULL;
		json_decref(j->exit);
		j->exit = json_incref(ev);
		j->state = JOB_ENDED;
	} else if (strcmp(name, "error") == 0) {
		s = client_str(ev, "message");
		if (id != NULL && strcmp(id, "x") != 0) {
			fprintf(stderr, "ptyvisor mcp: session %lld: %s\n",
			    (long long)j->session, s != NULL ? s : "error");
			return;
		}
		free(j->error);
		j->error = xstrdup(s != NULL ? s : "error");
		j->state = JOB_FAILED;
	} else
		return;
	mcpd_check_job(j->d, j);
}

/* Whether j is still one of d's jobs. */
static bool
mcpd_has_job(const struct mcpd *d, const struct job *j)
{
	const struct job	*k;

	for (k = d->jobs; k != NULL; k = k->next)
		if (k == j)
			return true;
	return false;
}

/* The job's socket is readable. */
static void
job_readable(struct loop *loop, int fd, short revents, void *arg)
{
	struct job	*j = arg;
	struct mcpd	*d = j->d;
	json_t		*ev;
	char		*cause = NULL;
	int		 rc;

	(void)loop;
	(void)fd;
	(void)revents;
	while ((rc = client_read(j->cl, 0, &ev, &cause)) == 1) {
		job_event(j, ev);
		json_decref(ev);
		/* Answering may have freed the job; one that ended goes. */
		if (!mcpd_has_job(d, j))
			return;
		if (job_over(j)) {
			job_maybe_free(j);
			if (!mcpd_has_job(d, j))
				return;
		}
	}
	if (rc < 0) {
		loop_del_fd(d->loop, j->fd);
		client_free(j->cl);
		j->cl = NULL;
		if (!job_over(j)) {
			j->error = xasprintf("lost the ptyvisor server: %s",
			    cause);
			j->state = JOB_FAILED;
		}
		free(cause);
		mcpd_check_job(d, j);
		job_maybe_free(j);
	}
}

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
static void
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
static void
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

/* One line from the client. */
static void
mcpd_line(struct mcpd *d, const char *line, size_t len)
{
	struct buf	 out = { 0 };
	struct mcp_call	*call;
	json_t		*cancelled;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len == 0)
		return;
	switch (mcp_handle(d->mcp, line, len, &out, &call, &cancelled)) {
	case MCP_NOTHING:
		break;
	case MCP_CALL:
		mcpd_flush(d, &out);
		mcpd_call(d, call);
		break;
	case MCP_CANCEL:
		mcpd_cancel(d, cancelled);
		json_decref(cancelled);
		break;
	}
	mcpd_flush(d, &out);
	buf_free(&out);
}

/* stdin is readable: whole lines to the protocol. */
static void
mcpd_readable(struct loop *loop, int fd, short revents, void *arg)
{
	struct mcpd	*d = arg;
	char		 b[MCP_READ], *nl;
	ssize_t		 n;
	size_t		 len;

	(void)revents;
	n = read(fd, b, sizeof b);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		/* EOF: a last line without its newline still counts. */
		if (d->in.len > 0 && !d->skipping)
			mcpd_line(d, d->in.data, d->in.len);
		loop_stop(loop);
		return;
	}
	buf_add(&d->in, b, (size_t)n);
	while ((nl = memchr(d->in.data, '\n', d->in.len)) != NULL) {
		len = (size_t)(nl - d->in.data);
		if (!d->skipping)
			mcpd_line(d, d->in.data, len);
		d->skipping = false;
		buf_consume(&d->in, len + 1);
	}
	if (d->in.len > MCP_LINE_MAX && !d->skipping) {
		/* Answer the over-long line now, drop it up to its end. */
		mcpd_line(d, d->in.data, d->in.len);
		d->skipping = true;
	}
	if (d->skipping)
		d->in.len = 0;
}

static void
mcpd_signal(struct loop *loop, int sig, void *arg)
{
	(void)sig;
	(void)arg;
	loop_stop(loop);
}

static void
mcpd_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor mcp [OPTIONS]\n"
	    "       ptyvisor mcp --print-config claude|codex|gemini\n\n"
	    "An MCP server on stdin/stdout for coding agents: its tools (run,\n"
	    "session_start, session_send, session_output, session_kill,\n"
	    "session_list) ask the running ptyvisor (the console or 'serve')\n"
	    "to run commands, under its rules, approval, sandbox and\n"
	    "recording.  Speaks MCP 2026-07-28 (stateless) and 2025-11-25,\n"
	    "2025-06-18, 2025-03-26 (initialize).  See doc/agents.md.\n\n"
	    "Options:\n"
	    "  --socket PATH       the server's socket (default "
	    "$PTYVISOR_SOCKET,\n"
	    "                      the settings file's, else the usual one)\n"
	    "  --max-bytes N       cap of the text a call returns (default "
	    "[mcp]\n"
	    "                      max_bytes of the settings file, else "
	    "65536)\n"
	    "  --wait S            run's default wait_s (default 50)\n"
	    "  --print-config A    print the configuration for agent A "
	    "(claude,\n"
	    "                      codex, gemini) and exit\n"
	    "  -h, --help          show this help\n");
}

int
cmd_mcp(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 'P' },
		{ "max-bytes", required_argument, NULL, 'm' },
		{ "wait", required_argument, NULL, 'w' },
		{ "print-config", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct config	*cfg;
	struct mcpd		 d;
	const char		*sock = NULL;
	bool			 max_given = false;
	char			*cause = NULL, *end;
	long			 v;
	int			 c;

	memset(&d, 0, sizeof d);
	d.max = OUTCAP_DEFAULT;
	d.wait_s = MCP_WAIT_S;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'P':
			sock = optarg;
			break;
		case 'm':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' ||
			    v < MCP_MAX_BYTES_MIN || v > MCP_MAX_BYTES_MAX) {
				cli_error("mcp", "--max-bytes: '%s' is not "
				    "from %d to %d", optarg, MCP_MAX_BYTES_MIN,
				    MCP_MAX_BYTES_MAX);
				return CLI_EXIT_ERROR;
			}
			d.max = (size_t)v;
			max_given = true;
			break;
		case 'w':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || v < 0 ||
			    v > MCP_WAIT_S_MAX) {
				cli_error("mcp", "--wait: '%s' is not a number "
				    "of seconds up to %d", optarg,
				    MCP_WAIT_S_MAX);
				return CLI_EXIT_ERROR;
			}
			d.wait_s = (double)v;
			break;
		case 'p':
			return mcpd_print_config(optarg);
		case 'h':
			mcpd_usage(stdout);
			return 0;
		default:
			cli_bad_option("mcp", c, argv[optind - 1]);
			return CLI_EXIT_ERROR;
		}
	}
	if (optind < argc) {
		cli_error("mcp", "unexpected argument '%s'", argv[optind]);
		return CLI_EXIT_ERROR;
	}
	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	if (!max_given && config_mcp_max_bytes(cfg) > 0)
		d.max = config_mcp_max_bytes(cfg);
	signal(SIGPIPE, SIG_IGN);
	if ((d.loop = loop_new(&cause)) == NULL) {
		cli_error("mcp", "%s", cause);
		free(cause);
		return CLI_EXIT_ERROR;
	}
	d.socket = sock != NULL ? xstrdup(sock) : cli_socket_path(cfg);
	d.mcp = mcp_new("ptyvisor", PACKAGE_VERSION);
	loop_add_signal(d.loop, SIGTERM, mcpd_signal, &d, &cause);
	loop_add_signal(d.loop, SIGINT, mcpd_signal, &d, &cause);
	loop_add_signal(d.loop, SIGHUP, mcpd_signal, &d, &cause);
	free(cause);
	loop_add_fd(d.loop, STDIN_FILENO, POLLIN, LOOP_PRIO_HIGH,
	    mcpd_readable, &d);
	loop_run(d.loop);

	/* Unanswered calls are dropped; closing a job kills its command. */
	while (d.calls != NULL) {
		struct call *next = d.calls->next;

		loop_timer_cancel(d.loop, d.calls->timer);
		loop_timer_cancel(d.loop, d.calls->ptimer);
		mcp_call_free(d.calls->mc);
		free(d.calls);
		d.calls = next;
	}
	while (d.jobs != NULL)
		job_free(d.jobs);
	loop_del_fd(d.loop, STDIN_FILENO);
	mcp_free(d.mcp);
	buf_free(&d.in);
	free(d.socket);
	loop_free(d.loop);
	return d.status;
}
