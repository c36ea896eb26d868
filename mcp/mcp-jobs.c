/*
 * mcp-jobs.c - the jobs of `ptyvisor mcp` and the calls waiting on them:
 * a job is one command on its own control connection (mcpd.c); its
 * events (queued, approved or denied, started, output, exit) change its
 * state, and each change answers the calls that can be answered now (run,
 * session_start, session_output, session_kill), sends run's progress, or
 * arms a call's wait; a cancellation gives a call up and stops its
 * command.  Answers go to stdout here, and only here.
 *
 * What a job says to the server and hears from it (the control protocol,
 * doc/protocol.md) is here, but the exec request (tool-run.c): input
 * (job_send_text, job_send_stdin) and kill (job_send_kill), built by the
 * codec (control/proto-client.h), and the events, read decoded
 * (job_readable) and followed (job_event).
 */
#include "mcp/mcp-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/quote.h"
#include "base/utf8.h"
#include "base/util.h"
#include "control/client.h"
#include "control/proto-client.h"
#include "mcp/mcp.h"
#include "mcp/outcap.h"
#include "term/textout.h"

/* Write out's lines to stdout, all of them, and empty it. */
void
mcpd_flush(struct mcpd *d, struct buf *out)
{
	/* A client that is gone gets nothing more. */
	if (out->len > 0 &&
	    util_write_all(STDOUT_FILENO, out->data, out->len) != 0)
		loop_stop(d->loop);
	out->len = 0;
}

/* Answer call with result (consumed), then forget the call. */
void
mcpd_answer(struct mcpd *d, struct call *c, json_t *result)
{
	struct buf	out = { 0 };

	mcp_answer(d->mcp, c->mc, result, &out);
	mcpd_flush(d, &out);
	buf_free(&out);
	mcpd_call_done(d, c);
}

/* An isError answer with a message and optional structured content. */
void
mcpd_fail(struct mcpd *d, struct call *c, const char *msg, json_t *sc)
{
	if (sc != NULL && json_object_get(sc, "message") == NULL)
		json_object_set_new(sc, "message", json_string(msg));
	mcpd_answer(d, c, mcp_tool_result(msg, sc, true));
}

void
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
	proto_event_free(&j->exit);
	json_decref(j->stdin_text);
	free(j->command);
	free(j->by);
	free(j->reason);
	free(j->error);
	free(j->edited);
	free(j);
}

/* Whether a job has stopped (ended, denied or failed). */
bool
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

void
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
void
call_waited(struct loop *loop, void *arg)
{
	struct call	*c = arg;

	(void)loop;
	c->timer = NULL;
	mcpd_answer(c->d, c, job_output_result(c->job, c));
}

/* Whether session_output has something to say now. */
bool
call_output_ready(const struct call *c)
{
	const struct job	*j = c->job;
	return job_over(j) || j->total > c->since || c->wait_ms == 0;
}

/* The job changed: answer the calls waiting on it that can be. */
void
mcpd_check_job(struct mcpd *d, struct job *j)
{
	struct call	*c, *next;

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
				mcpd_answer(d, c, job_start_result(j));
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

/* Send line (the codec's) on the job's connection and free it: 0, or -1. */
static int
job_send(struct job *j, struct buf *line, char **cause)
{
	int	rc = client_send_line(j->cl, line, cause);

	buf_free(line);
	return rc;
}

/*
 * The started job's stdin: the text in lines of at most MCP_STDIN_CHUNK
 * bytes (cut between characters), then end of file.  It all fits in what
 * the server holds for a pipe (MCP_STDIN_MAX), so no window is needed.
 */
static void
job_send_stdin(struct job *j)
{
	struct buf	 line = { 0 };
	const char	*p;
	size_t		 left, n;
	char		*cause = NULL;

	if (j->stdin_text == NULL)
		return;
	p = json_string_value(j->stdin_text);
	left = json_string_length(j->stdin_text);
	do {
		n = utf8_cut(p, left, MCP_STDIN_CHUNK);
		proto_req_input(&line, MCP_INPUT_ID, j->session, true, p, n,
		    PROTO_ENC_TEXT, n == left);
		if (job_send(j, &line, &cause) != 0) {
			fprintf(stderr, "ptyvisor mcp: session %lld: stdin: "
			    "%s\n", (long long)j->session, cause);
			free(cause);
			break;
		}
		p += n;
		left -= n;
	} while (left > 0);
	json_decref(j->stdin_text);
	j->stdin_text = NULL;
}

/* Type len bytes of text into the job's session: 0, or -1 and *cause. */
int
job_send_text(struct job *j, const char *text, size_t len, char **cause)
{
	struct buf	line = { 0 };

	proto_req_input(&line, MCP_INPUT_ID, j->session, false, text, len,
	    PROTO_ENC_TEXT, false);
	return job_send(j, &line, cause);
}

/* Ask the server to end the job's session: 0, or -1 and *cause. */
int
job_send_kill(struct job *j, char **cause)
{
	struct buf	line = { 0 };

	proto_req_kill(&line, MCP_KILL_ID, j->session);
	return job_send(j, &line, cause);
}

/* Replace *s with a copy of v (NULL: none). */
static void
job_set(char **s, const char *v)
{
	free(*s);
	*s = v != NULL ? xstrdup(v) : NULL;
}

/*
 * One event about a job (the exit event is kept: ev is emptied).  An
 * error answering its exec fails it; one answering its input or kill is
 * only said on stderr.
 */
static void
job_event(struct job *j, struct proto_event *ev)
{
	switch (ev->kind) {
	case PROTO_EV_QUEUED:
		j->request = ev->request;
		break;
	case PROTO_EV_DENIED:
		j->state = JOB_DENIED;
		job_set(&j->by, ev->by);
		if (ev->reason != NULL)
			job_set(&j->reason, ev->reason);
		break;
	case PROTO_EV_APPROVED:
		job_set(&j->by, ev->by);
		if (ev->argv != NULL) {
			free(j->edited);
			j->edited = quote_argv(ev->argv);
		}
		break;
	case PROTO_EV_STARTED:
		j->session = ev->session;
		j->state = JOB_RUNNING;
		job_send_stdin(j);
		break;
	case PROTO_EV_OUTPUT:
		if (j->text != NULL)	/* nothing after the exit */
			textout_feed(j->text, ev->data, ev->len);
		mcpd_job_output(j->d, j);
		return;
	case PROTO_EV_EXIT:
		/* The rest of the screen is text now; the screen goes. */
		if (j->text != NULL)
			textout_finish(j->text);
		textout_free(j->text);
		j->text = NULL;
		proto_event_free(&j->exit);
		j->exit = *ev;
		memset(ev, 0, sizeof *ev);
		j->state = JOB_ENDED;
		break;
	case PROTO_EV_ERROR:
		if (ev->id != NULL && strcmp(ev->id, MCP_EXEC_ID) != 0) {
			fprintf(stderr, "ptyvisor mcp: session %lld: %s\n",
			    (long long)j->session, ev->message);
			return;
		}
		job_set(&j->error, ev->message);
		j->state = JOB_FAILED;
		break;
	default:
		return;
	}
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
void
job_readable(struct loop *loop, int fd, short revents, void *arg)
{
	struct job	*j = arg;
	struct mcpd		*d = j->d;
	struct proto_event	 ev;
	char			*cause = NULL;
	int			 rc;

	(void)loop;
	(void)fd;
	(void)revents;
	while ((rc = client_read_event(j->cl, 0, &ev, &cause)) == 1) {
		job_event(j, &ev);
		proto_event_free(&ev);
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


/* notifications/cancelled: give the call up, stop its command. */
void
mcpd_cancel(struct mcpd *d, json_t *id)
{
	struct call	*c;
	struct job	*j;
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
			if (job_send_kill(j, &cause) != 0)
				free(cause);
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
