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
 * (job_send_text, job_send_stdin), kill (job_send_kill), and the events
 * read (job_readable) and decoded (job_event).
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
#include "control/proto.h"
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

/* Type text (a string) into the job's session: 0, or -1 and *cause. */
int
job_send_text(struct job *j, json_t *text, char **cause)
{
	json_t	*req;
	int	 rc;

	req = json_pack("{s:s, s:s, s:I, s:O}", "op", "input", "id", "in",
	    "session", (json_int_t)j->session, "data", text);
	rc = client_send(j->cl, req, cause);
	json_decref(req);
	return rc;
}

/* Ask the server to end the job's session: 0, or -1 and *cause. */
int
job_send_kill(struct job *j, char **cause)
{
	json_t	*req;
	int	 rc;

	req = json_pack("{s:s, s:s, s:I}", "op", "kill", "id", "k",
	    "session", (json_int_t)j->session);
	rc = client_send(j->cl, req, cause);
	json_decref(req);
	return rc;
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
void
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
