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
 * their offsets for session_output's paging.
 *
 * Only JSON-RPC goes to stdout; messages for people go to stderr.
 */
#include "cli/commands.h"
#include "cli/cli.h"
#include "cli/textout.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/quote.h"
#include "base/util.h"
#include "control/client.h"
#include "control/proto.h"
#include "mcp/mcp.h"
#include "mcp/outcap.h"
#include "policy/config.h"

/* run returns after this many seconds of running, unless told. */
#define MCP_WAIT_S		50
#define MCP_WAIT_S_MAX		3600
/* The terminal a command gets unless told: wide, so lines rarely wrap. */
#define MCP_COLS		200
#define MCP_ROWS		50
/*
 * A call's stdin text: at most what the server holds waiting in a pipe
 * (1 MiB), sent in lines of 64 KiB (at most 384 KiB escaped: within the
 * protocol's 1 MiB line).
 */
#define MCP_STDIN_MAX		(1024 * 1024)
#define MCP_STDIN_CHUNK		(64 * 1024)
/* Finished text kept per job for session_output's paging. */
#define MCP_LOG_MAX		(4 * 1024 * 1024)
/* At most one progress notification per this many milliseconds. */
#define MCP_PROGRESS_MS		500
/* The latest lines a progress notification carries. */
#define MCP_PROGRESS_LINES	5
#define MCP_PROGRESS_BYTES	1024
/* Waiting for the server's hello; session_kill waiting for the end. */
#define MCP_CONNECT_MS		10000
#define MCP_KILL_WAIT_MS	5000
#define MCP_WAIT_MS_MAX		600000
#define MCP_MAX_BYTES_MIN	CONFIG_CAP_MIN
#define MCP_MAX_BYTES_MAX	CONFIG_CAP_MAX
/* stdin is read this much at a time. */
#define MCP_READ		65536

enum job_state {
	JOB_WAITING,	/* queued: the rules or a person decide */
	JOB_RUNNING,
	JOB_ENDED,	/* exit received */
	JOB_DENIED,
	JOB_FAILED,	/* an error, or the server went away */
};

enum call_kind {
	CALL_RUN,
	CALL_START,
	CALL_OUTPUT,
	CALL_KILL,
};

struct mcpd;

struct job {
	struct mcpd	*d;
	struct job	*next;
	struct client	*cl;
	int		 fd;
	char		*command;	/* for people: the command, quoted */
	int64_t		 request;
	int64_t		 session;	/* 0 until started */
	enum job_state	 state;
	struct textout	*text;
	struct outcap	 cap;		/* everything, capped: run's answer */
	struct buf	 log;		/* the finished text at [base, total) */
	uint64_t	 base;
	uint64_t	 total;
	uint64_t	 read;		/* where session_output stopped */
	json_t		*exit;		/* the exit event */
	char		*by;		/* who decided */
	char		*reason;	/* a denial's reason */
	char		*error;		/* JOB_FAILED's cause */
	char		*edited;	/* the command a person edited */
	json_t		*stdin_text;	/* run's stdin: sent once started */
	bool		 kept;		/* the session tools may name it */
	bool		 orphan;	/* cancelled: freed when it ends */
};

struct call {
	struct mcpd	*d;
	struct call	*next;
	struct mcp_call	*mc;
	enum call_kind	 kind;
	struct job	*job;
	struct loop_timer *timer;	/* wait_s, wait_ms, kill's wait */
	struct loop_timer *ptimer;	/* the next progress notification */
	uint64_t	 last_progress;
	double		 nprogress;
	uint64_t	 wait_ms;
	uint64_t	 since;		/* session_output's offset */
	size_t		 max;		/* text cap of the answer */
};

struct mcpd {
	struct loop	*loop;
	struct mcp	*mcp;
	struct job	*jobs;
	struct call	*calls;
	struct buf	 in;
	bool		 skipping;	/* the rest of an over-long line */
	char		*socket;
	size_t		 max;		/* default text cap */
	double		 wait_s;	/* default wait_s */
	int		 status;
};

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

/* Finished text of a job: kept for run and for paging. */
static void
job_text(void *user, const char *p, size_t len)
{
	struct job	*j = user;
	size_t		 drop;

	outcap_add(&j->cap, p, len);
	buf_add(&j->log, p, len);
	j->total += len;
	if (j->log.len > MCP_LOG_MAX) {
		drop = j->log.len - MCP_LOG_MAX / 2;
		buf_consume(&j->log, drop);
		j->base += drop;
	}
}

/* The screen as it shows now, while the job runs. */
static void
job_screen(const struct job *j, struct buf *out)
{
	if (j->text != NULL && j->state == JOB_RUNNING)
		textout_screen(j->text, out);
}

static const char *
job_recording(const struct job *j)
{
	json_t	*r = json_object_get(j->exit, "recording");

	return json_is_string(r) ? json_string_value(r) : NULL;
}

/* The exit's ending in words ("exit 1", "timeout"...), or NULL. */
static const char *
job_ending(const struct job *j)
{
	json_t	*e = json_object_get(j->exit, "ending");

	return json_is_string(e) ? json_string_value(e) : NULL;
}

/* The integer field key of the exit, as JSON (null when absent). */
static json_t *
job_exit_int(const struct job *j, const char *key)
{
	json_t	*v = json_object_get(j->exit, key);

	return json_is_integer(v) ? json_integer(json_integer_value(v)) :
	    json_null();
}

/* Whether the job ended without its command having run. */
static bool
job_not_started(const struct job *j)
{
	const char	*e = job_ending(j);

	return e != NULL && (strcmp(e, "not found") == 0 ||
	    strcmp(e, "not executable") == 0 ||
	    strcmp(e, "failed to start") == 0);
}

/* End text with a newline unless it is empty or has one. */
static void
mcpd_newline(struct buf *text)
{
	if (text->len > 0 && text->data[text->len - 1] != '\n')
		buf_addc(text, '\n');
}

/* The answer to a run: ended, denied, failed, or still running. */
static json_t *
job_run_result(struct job *j, double waited)
{
	struct buf	 text = { 0 };
	json_t		*sc;
	bool		 err = false, running = j->state == JOB_RUNNING;
	bool		 timed_out;
	const char	*rec;

	timed_out = json_is_true(json_object_get(j->exit, "timed_out"));
	sc = json_pack("{s:o, s:o, s:b, s:b, s:n, s:o, s:b, s:o, s:b, s:n, "
	    "s:n}", "exit_code", job_exit_int(j, "code"),
	    "signal", job_exit_int(j, "signal"), "timed_out", timed_out,
	    "denied", j->state == JOB_DENIED, "reason",
	    "session", j->session > 0 ? json_integer(j->session) : json_null(),
	    "running", running, "duration_ms", job_exit_int(j, "duration_ms"),
	    "truncated", outcap_truncated(&j->cap), "recording", "ending");
	if (j->state == JOB_DENIED) {
		buf_printf(&text, "Denied by %s%s%s.  The person supervising "
		    "this machine does not let this command run; do not retry "
		    "it unchanged.", j->by != NULL ? j->by : "the person",
		    j->reason != NULL ? ": " : "",
		    j->reason != NULL ? j->reason : "");
		if (j->reason != NULL)
			json_object_set_new(sc, "reason",
			    json_string(j->reason));
		else if (j->by != NULL)
			json_object_set_new(sc, "reason", json_string(j->by));
		err = true;
	} else if (j->state == JOB_FAILED) {
		buf_printf(&text, "ptyvisor: %s", j->error);
		json_object_set_new(sc, "reason", json_string(j->error));
		err = true;
	} else {
		if (j->edited != NULL)
			buf_printf(&text, "[a person edited the command before "
			    "approving it; what ran: %s]\n", j->edited);
		rec = job_recording(j);
		outcap_text(&j->cap, rec, &text);
		if (running) {
			job_screen(j, &text);
			mcpd_newline(&text);
			buf_printf(&text, "[still running after %.0f s as "
			    "session %lld; it was not stopped: call "
			    "session_output {\"session\": %lld, \"wait_ms\": "
			    "30000} until it ends, or session_kill]",
			    waited, (long long)j->session,
			    (long long)j->session);
			json_object_set_new(sc, "next",
			    json_integer((json_int_t)j->total));
			j->read = j->total;
		} else {
			mcpd_newline(&text);
			buf_printf(&text, "[%s]", job_ending(j) != NULL ?
			    job_ending(j) : "ended");
			if (rec != NULL)
				json_object_set_new(sc, "recording",
				    json_string(rec));
			if (job_ending(j) != NULL)
				json_object_set_new(sc, "ending",
				    json_string(job_ending(j)));
			err = timed_out || job_not_started(j);
		}
	}
	sc = mcp_tool_result(buf_cstr(&text), sc, err);
	buf_free(&text);
	return sc;
}

/* The answer to session_output. */
static json_t *
job_output_result(struct job *j, struct call *c)
{
	struct buf	 text = { 0 }, screen = { 0 }, out = { 0 };
	uint64_t	 since = c->since, next;
	size_t		 off, n;
	bool		 running = j->state == JOB_RUNNING;
	json_t		*sc;

	if (since > j->total)
		since = j->total;
	if (since < j->base) {
		buf_printf(&out, "[... %llu bytes before are no longer kept "
		    "here%s%s ...]\n", (unsigned long long)(j->base - since),
		    job_recording(j) != NULL ? "; all of it is in " : "",
		    job_recording(j) != NULL ? job_recording(j) : "");
		since = j->base;
	}
	off = (size_t)(since - j->base);
	n = j->log.len - off;
	if (n > c->max) {
		n = c->max;
		while (n > 0 && ((unsigned char)j->log.data[off + n] & 0xC0) ==
		    0x80)
			n--;
	}
	if (n > 0)
		buf_add(&out, j->log.data + off, n);
	next = since + n;
	j->read = next;
	job_screen(j, &screen);
	sc = json_pack("{s:I, s:b, s:o, s:o, s:b, s:I, s:I, s:b, s:s%, "
	    "s:s%, s:b}", "session", (json_int_t)j->session,
	    "running", running, "exit_code", job_exit_int(j, "code"),
	    "signal", job_exit_int(j, "signal"),
	    "timed_out", json_is_true(json_object_get(j->exit, "timed_out")),
	    "since", (json_int_t)since, "next", (json_int_t)next,
	    "more", next < j->total, "output", out.data != NULL ? out.data :
	    "", out.len, "screen", screen.data != NULL ? screen.data : "",
	    screen.len, "truncated", next < j->total);
	if (job_ending(j) != NULL)
		json_object_set_new(sc, "ending", json_string(job_ending(j)));
	if (job_recording(j) != NULL)
		json_object_set_new(sc, "recording",
		    json_string(job_recording(j)));
	buf_add(&text, out.data, out.len);
	if (next < j->total)
		buf_printf(&text, "[... more: call again with since %llu "
		    "...]\n",
		    (unsigned long long)next);
	if (running && screen.len > 0) {
		buf_adds(&text, "[screen now]\n");
		buf_add(&text, screen.data, screen.len);
	}
	if (running)
		buf_printf(&text, "[session %lld is running]",
		    (long long)j->session);
	else if (j->state == JOB_ENDED)
		buf_printf(&text, "[session %lld ended: %s]",
		    (long long)j->session, job_ending(j) != NULL ?
		    job_ending(j) : "ended");
	else
		buf_printf(&text, "[session %lld: %s]", (long long)j->session,
		    j->error != NULL ? j->error : "not running");
	sc = mcp_tool_result(buf_cstr(&text), sc, false);
	buf_free(&text);
	buf_free(&screen);
	buf_free(&out);
	return sc;
}

/* The last lines of what the job shows, for a progress message. */
static char *
job_latest(const struct job *j)
{
	struct buf	 s = { 0 };
	size_t		 end, start;
	int		 lines = 0;

	if (j->text != NULL)
		textout_screen(j->text, &s);
	if (s.len == 0 && j->log.len > 0)
		buf_add(&s, j->log.data, j->log.len > MCP_PROGRESS_BYTES ?
		    MCP_PROGRESS_BYTES : j->log.len);
	end = s.len;
	while (end > 0 && s.data[end - 1] == '\n')
		end--;
	start = end;
	while (start > 0 && end - start < MCP_PROGRESS_BYTES) {
		if (s.data[start - 1] == '\n' && ++lines == MCP_PROGRESS_LINES)
			break;
		start--;
	}
	while (start < end && ((unsigned char)s.data[start] & 0xC0) == 0x80)
		start++;
	s.len = end;
	buf_cstr(&s);
	start = start <= end ? start : end;
	{
		char *r = xstrdup(s.data != NULL ? s.data + start : "");

		buf_free(&s);
		return r;
	}
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
		n = left < MCP_STDIN_CHUNK ? left : MCP_STDIN_CHUNK;
		while (n < left && n > 0 && ((unsigned char)p[n] & 0xc0) ==
		    0x80)
			n--;
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

/* A number argument in [lo, hi]: 0 absent, 1 *v, -1 *msg. */
static int
arg_number(json_t *args, const char *key, double lo, double hi, double *v,
    char **msg)
{
	json_t	*a = json_object_get(args, key);

	if (a == NULL || json_is_null(a))
		return 0;
	if (!json_is_number(a) || json_number_value(a) < lo ||
	    json_number_value(a) > hi) {
		*msg = xasprintf("'%s' must be a number from %g to %g", key,
		    lo, hi);
		return -1;
	}
	*v = json_number_value(a);
	return 1;
}

/* The exec request for run and session_start, or NULL with *msg. */
static json_t *
mcpd_exec_request(json_t *args, bool with_timeout, char **command,
    char **msg)
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
	if (arg_number(args, "cols", 1, PROTO_SIZE_MAX, &num, msg) < 0)
		goto fail;
	json_object_set_new(req, "cols", json_integer((json_int_t)num));
	num = MCP_ROWS;
	if (arg_number(args, "rows", 1, PROTO_SIZE_MAX, &num, msg) < 0)
		goto fail;
	json_object_set_new(req, "rows", json_integer((json_int_t)num));
	if (with_timeout) {
		switch (arg_number(args, "timeout_s", 0, PROTO_TIMEOUT_MAX_S,
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
	if (req != NULL && arg_number(c->mc->args, "max_bytes",
	    MCP_MAX_BYTES_MIN, MCP_MAX_BYTES_MAX, &num, &msg) < 0) {
		json_decref(req);
		req = NULL;
	}
	c->max = (size_t)num;
	num = d->wait_s;
	if (req != NULL && c->kind == CALL_RUN && arg_number(c->mc->args,
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
	if (arg_number(c->mc->args, "wait_ms", 0, MCP_WAIT_MS_MAX, &num,
	    &msg) < 0) {
		mcpd_fail(d, c, msg, NULL);
		free(msg);
		return;
	}
	c->wait_ms = (uint64_t)num;
	num = (double)d->max;
	if (arg_number(c->mc->args, "max_bytes", MCP_MAX_BYTES_MIN,
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

/* --print-config: the snippet for an agent's configuration. */
static int
mcpd_print_config(const char *agent)
{
	char		*self = cli_self_path();
	struct buf	 b = { 0 };
	json_t		*o;
	int		 rc = 0;
	size_t		 i;

	buf_adds(&b, "ptyvisor mcp speaks MCP");
	for (i = 0; mcp_versions[i] != NULL; i++)
		buf_printf(&b, "%s %s", i == 0 ? "" : ",", mcp_versions[i]);
	if (strcmp(agent, "codex") == 0) {
		/* TOML: the path as a basic string, escaped as JSON is. */
		printf("# ~/.codex/config.toml (%s)\n[mcp_servers.ptyvisor]\n"
		    "command = ", buf_cstr(&b));
		o = json_string(self);
		json_dumpf(o, stdout, JSON_ENCODE_ANY);
		json_decref(o);
		printf("\nargs = [\"mcp\"]\n# run returns after wait_s (50 s) "
		    "with the session still running: within this\n"
		    "tool_timeout_sec = 120\n");
	} else if (strcmp(agent, "claude") == 0 ||
	    strcmp(agent, "gemini") == 0) {
		o = json_pack("{s:{s:{s:s, s:[s]}}}", "mcpServers", "ptyvisor",
		    "command", self, "args", "mcp");
		if (strcmp(agent, "claude") == 0)
			json_object_set_new(json_object_get(json_object_get(o,
			    "mcpServers"), "ptyvisor"), "type",
			    json_string("stdio"));
		else
			json_object_set_new(json_object_get(json_object_get(o,
			    "mcpServers"), "ptyvisor"), "timeout",
			    json_integer(120000));
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		printf("\n");
		json_decref(o);
		fprintf(stderr, "# %s for %s; %s\n", strcmp(agent, "claude") ==
		    0 ? ".mcp.json" : "~/.gemini/settings.json", agent,
		    buf_cstr(&b));
	} else {
		cli_error("mcp", "--print-config: '%s' is not claude, codex or "
		    "gemini", agent);
		rc = CLI_EXIT_ERROR;
	}
	buf_free(&b);
	free(self);
	return rc;
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
			cli_error("mcp", "%s '%s' (see 'ptyvisor mcp --help')",
			    c == ':' ? "missing value for" : "unknown option",
			    argv[optind - 1]);
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
