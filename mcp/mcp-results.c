/*
 * mcp-results.c - between the MCP tools and the control protocol, without
 * I/O: a run or session_start call's arguments become an exec request, and
 * a job's state (its kept text, its screen, its exit) becomes the tool's
 * answer: run's, session_output's, a progress message (see mcp-int.h).
 */
#include "mcp/mcp-int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/quote.h"
#include "base/utf8.h"
#include "base/util.h"
#include "control/proto.h"
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

static const char *
job_recording(const struct job *j)
{
	json_t	*r = json_object_get(j->exit, "recording");

	return json_is_string(r) ? json_string_value(r) : NULL;
}

/* The exit's ending in words ("exit 1", "timeout"...), or NULL. */
const char *
job_ending(const struct job *j)
{
	json_t	*e = json_object_get(j->exit, "ending");

	return json_is_string(e) ? json_string_value(e) : NULL;
}

/* The integer field key of the exit, as JSON (null when absent). */
json_t *
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
json_t *
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

/* The exec request for run and session_start, or NULL with *msg. */
json_t *
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
