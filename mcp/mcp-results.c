/*
 * mcp-results.c - what the tools share without I/O: a job's state (its
 * kept text, its screen, its exit) as a tool's answer (run's,
 * session_output's, a progress message), and the check of a number
 * argument (see mcp-int.h).
 */
#include "mcp/mcp-int.h"

#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/util.h"
#include "mcp/mcp.h"
#include "mcp/outcap.h"
#include "term/textout.h"

/* Finished text of a job: kept for run and for paging. */
void
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

/* How the job ended, or NULL while it has not. */
static const struct proto_exit *
job_exit(const struct job *j)
{
	return j->exit.kind == PROTO_EV_EXIT ? &j->exit.exit : NULL;
}

static const char *
job_recording(const struct job *j)
{
	return job_exit(j) != NULL ? job_exit(j)->recording : NULL;
}

/* The exit's ending in words ("exit 1", "timeout"...), or NULL. */
const char *
job_ending(const struct job *j)
{
	return job_exit(j) != NULL ? job_exit(j)->ending : NULL;
}

/* The exit's status, as JSON: null before the end and after a signal. */
json_t *
job_exit_code(const struct job *j)
{
	const struct proto_exit	*e = job_exit(j);

	return e != NULL && e->signal == 0 ? json_integer(e->code) :
	    json_null();
}

/* The signal that ended the job, as JSON: null when none did. */
static json_t *
job_exit_signal(const struct job *j)
{
	const struct proto_exit	*e = job_exit(j);

	return e != NULL && e->signal != 0 ? json_integer(e->signal) :
	    json_null();
}

/* Whether the job ended by its timeout. */
static bool
job_timed_out(const struct job *j)
{
	return job_exit(j) != NULL && job_exit(j)->timed_out;
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

/*
 * The wait_ms the hints suggest for a server whose wait_s is this (what
 * --wait set): the same, within what session_output takes, at least 1 s.
 */
uint64_t
mcpd_hint_wait_ms(double wait_s)
{
	double	ms = wait_s * 1000;

	if (ms > MCP_WAIT_MS_MAX)
		ms = MCP_WAIT_MS_MAX;
	return ms < 1000 ? 1000 : (uint64_t)ms;
}

/*
 * What to call while the job runs, as the text says it and as the
 * structured part's next_call: session_output on its session.
 */
static json_t *
job_next_call(const struct job *j, struct buf *say)
{
	json_int_t	ms = (json_int_t)mcpd_hint_wait_ms(j->d->wait_s);

	buf_printf(say, "call session_output {\"session\": %lld, "
	    "\"wait_ms\": %lld} until it ends, or session_kill",
	    (long long)j->session, (long long)ms);
	return json_pack("{s:s, s:{s:I, s:I}}", "tool", "session_output",
	    "arguments", "session", (json_int_t)j->session, "wait_ms", ms);
}

/*
 * The answer whose text is head (an edit note, or nothing), out (what the
 * terminal showed) and msg (ptyvisor's words), with sc, the structured
 * part, given the same pieces (output, message) and next, the call to
 * make next or JSON null: what run and session_start answer.  The bufs
 * are freed, sc and next taken.
 */
static json_t *
job_result(struct buf *head, struct buf *out, struct buf *msg, json_t *sc,
    json_t *next, bool err)
{
	json_t	*res;

	buf_add(head, out->data, out->len);
	buf_add(head, msg->data, msg->len);
	json_object_set_new(sc, "output", json_stringn(out->data != NULL ?
	    out->data : "", out->len));
	json_object_set_new(sc, "message", json_string(buf_cstr(msg)));
	json_object_set_new(sc, "next_call", next);
	res = mcp_tool_result(buf_cstr(head), sc, err);
	buf_free(head);
	buf_free(out);
	buf_free(msg);
	return res;
}

/*
 * The answer to a run (and to a session_start that ended before it was
 * answered): ended, denied, failed, or still running.  Agents that hand
 * their model only the structured part (Claude Code, Codex) must find
 * everything the text says there: the text is the edit note, the output
 * and the message, and the structured part carries each (edited, output,
 * message) beside the facts.
 */
json_t *
job_run_result(struct job *j, double waited)
{
	struct buf	 text = { 0 }, out = { 0 }, msg = { 0 };
	json_t		*sc, *next = json_null();
	bool		 err = false, running = j->state == JOB_RUNNING;
	bool		 timed_out;
	const char	*rec;

	timed_out = job_timed_out(j);
	sc = json_pack("{s:o, s:o, s:b, s:b, s:n, s:o, s:b, s:o, s:b, s:n, "
	    "s:n, s:n}", "exit_code", job_exit_code(j),
	    "signal", job_exit_signal(j), "timed_out", timed_out,
	    "denied", j->state == JOB_DENIED, "reason",
	    "session", j->session > 0 ? json_integer(j->session) : json_null(),
	    "running", running, "duration_ms", job_exit(j) != NULL ?
	    json_integer((json_int_t)job_exit(j)->duration_ms) : json_null(),
	    "truncated", outcap_truncated(&j->cap), "recording", "ending",
	    "edited");
	if (j->state == JOB_DENIED) {
		buf_printf(&msg, "Denied by %s%s%s.  The person supervising "
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
		buf_printf(&msg, "ptyvisor: %s", j->error);
		json_object_set_new(sc, "reason", json_string(j->error));
		err = true;
	} else {
		if (j->edited != NULL) {
			buf_printf(&text, "[a person edited the command before "
			    "approving it; what ran: %s]\n", j->edited);
			json_object_set_new(sc, "edited",
			    json_string(j->edited));
		}
		rec = job_recording(j);
		outcap_text(&j->cap, rec, &out);
		if (running) {
			job_screen(j, &out);
			buf_printf(&msg, "[still running after %.0f s as "
			    "session %lld; it was not stopped: ", waited,
			    (long long)j->session);
			next = job_next_call(j, &msg);
			buf_addc(&msg, ']');
			json_object_set_new(sc, "next",
			    json_integer((json_int_t)j->total));
			j->read = j->total;
		} else {
			buf_printf(&msg, "[%s]", job_ending(j) != NULL ?
			    job_ending(j) : "ended");
			if (rec != NULL)
				json_object_set_new(sc, "recording",
				    json_string(rec));
			if (job_ending(j) != NULL)
				json_object_set_new(sc, "ending",
				    json_string(job_ending(j)));
			err = timed_out || job_not_started(j);
		}
		mcpd_newline(&out);
	}
	return job_result(&text, &out, &msg, sc, next, err);
}

/*
 * The answer to a session_start whose command started: its session, the
 * output so far (left for session_output to page from its start), and
 * what to call next, in both parts.
 */
json_t *
job_start_result(struct job *j)
{
	struct buf	 text = { 0 }, out = { 0 }, msg = { 0 };
	json_t		*sc, *next = json_null();
	bool		 running = j->state == JOB_RUNNING;

	buf_add(&out, j->log.data, j->log.len);
	job_screen(j, &out);
	mcpd_newline(&out);
	buf_printf(&msg, "[started as session %lld", (long long)j->session);
	if (running) {
		buf_adds(&msg, "; type into it with session_send, read it: ");
		next = job_next_call(j, &msg);
	} else
		buf_printf(&msg, "; it has ended: %s", job_ending(j) != NULL ?
		    job_ending(j) : "ended");
	buf_addc(&msg, ']');
	sc = json_pack("{s:I, s:b, s:b, s:o}", "session",
	    (json_int_t)j->session, "denied", 0, "running", running,
	    "exit_code", job_exit_code(j));
	json_object_set_new(sc, "ending", job_ending(j) != NULL ?
	    json_string(job_ending(j)) : json_null());
	return job_result(&text, &out, &msg, sc, next, false);
}

/* The answer to session_output. */
json_t *
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
	n = utf8_cut(j->log.data + off, j->log.len - off, c->max);
	if (n > 0)
		buf_add(&out, j->log.data + off, n);
	next = since + n;
	j->read = next;
	job_screen(j, &screen);
	sc = json_pack("{s:I, s:b, s:o, s:o, s:b, s:I, s:I, s:b, s:s%, "
	    "s:s%, s:b}", "session", (json_int_t)j->session,
	    "running", running, "exit_code", job_exit_code(j),
	    "signal", job_exit_signal(j), "timed_out", job_timed_out(j),
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
char *
job_latest(const struct job *j)
{
	struct buf	 s = { 0 };
	size_t		 end, start;
	int		 lines = 0;
	char		*latest;

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
	latest = xstrdup(s.data != NULL ? s.data + start : "");
	buf_free(&s);
	return latest;
}

/* A number argument in [lo, hi]: 0 absent, 1 *v, -1 *msg. */
int
mcpd_arg_number(json_t *args, const char *key, double lo, double hi, double *v,
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
