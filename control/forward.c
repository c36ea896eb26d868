/*
 * forward.c - what sessions and the approval queue report, forwarded to
 * control clients as events: started, output (of the PTY or a pipe),
 * written (stdin the command took), resized (to subscribers), exit,
 * queued, approved or denied, withdrawn; an approved exec handed to the
 * spawn hook.  The request's own
 * client gets them with its request id (and output in the encoding it
 * asked for); subscribers get them without an id, as text.  Keeps the
 * sessions it reports on (from their creation to their end) and the execs
 * waiting for a decision (requests.c adds them; the decision or a
 * withdrawal removes them).
 *
 * Invariants:
 * - each tracked session is forgotten here when it ends, so the session
 *   pointers held are always live;
 * - text output never splits a UTF-8 sequence: an incomplete tail (at most
 *   3 bytes) waits in the session's carry for the next read or the end;
 * - a session's output is not read while its owner has CONTROL_PIPE_HOLD
 *   bytes unread (control-int.h says why).
 */
#include "control/control-int.h"

#include <stdlib.h>
#include <string.h>

#include "base/quote.h"
#include "control/proto.h"
#include "record/ending.h"
#include "base/util.h"

/* The tracked session for s, or NULL. */
static struct control_sess *
control_sess_find(struct control *c, struct session *s)
{
	size_t	i;

	for (i = 0; i < c->nsess; i++)
		if (c->sess[i]->s == s)
			return c->sess[i];
	return NULL;
}

/* The waiting exec for request number n, or NULL. */
static struct control_req *
control_req_find(struct control *c, uint64_t n)
{
	size_t	i;

	for (i = 0; i < c->nreqs; i++)
		if (c->reqs[i]->request == n)
			return c->reqs[i];
	return NULL;
}

/* Forget a waiting exec. */
void
control_req_remove(struct control *c, struct control_req *cr)
{
	size_t	i;

	for (i = 0; i < c->nreqs; i++) {
		if (c->reqs[i] == cr) {
			c->reqs[i] = c->reqs[--c->nreqs];
			break;
		}
	}
	free(cr->id);
	free(cr);
}

/* Send the started event once, when the pid is known (or never will be). */
static void
control_sess_started(struct control *c, struct control_sess *cs)
{
	struct buf	b = { 0 };
	pid_t		pid = session_pid(cs->s);

	/* An async start tells it when the command has exec'd. */
	if (cs->started || session_is_starting(cs->s))
		return;
	cs->started = true;
	if (pid < 0)
		pid = 0;
	proto_ev_started(&b, cs->req_id, (int64_t)cs->request,
	    (int64_t)cs->id, pid);
	control_send(cs->owner, &b);
	b.len = 0;
	proto_ev_started(&b, NULL, (int64_t)cs->request, (int64_t)cs->id,
	    pid);
	control_broadcast(c, &b, cs->owner);
	buf_free(&b);
}

/*
 * When the session's owner has CONTROL_PIPE_HOLD bytes unread, the
 * session's output (its PTY and pipes) is not read until the owner has
 * read down to CONTROL_PIPE_RESUME (conn.c): the command blocks as on a
 * slow pipe, and nothing is lost or queued without bound.
 */
static void
control_sess_hold(struct control_sess *cs)
{
	if (cs->owner != NULL && !cs->owner->dead &&
	    cs->owner->out.len >= CONTROL_PIPE_HOLD && !cs->held) {
		cs->held = true;
		session_stdio_hold(cs->s, true);
	}
}

/* Send one chunk of output to the owner and the subscribers. */
static void
control_sess_output(struct control *c, struct control_sess *cs,
    const char *data, size_t len, bool final)
{
	struct buf	 all = { 0 }, text = { 0 }, ev = { 0 };
	size_t		 n;

	control_sess_started(c, cs);
	buf_add(&all, cs->carry, cs->ncarry);
	buf_add(&all, data, len);
	n = final ? all.len : proto_utf8_complete(all.data, all.len);
	cs->ncarry = all.len - n;
	memcpy(cs->carry, all.data + n, cs->ncarry);
	cs->seq++;
	if (cs->owner != NULL && cs->enc == PROTO_ENC_BASE64 && len > 0) {
		proto_ev_output(&ev, cs->req_id, (int64_t)cs->id, cs->seq,
		    data, len, PROTO_ENC_BASE64);
		control_send_output(cs->owner, &ev);
	}
	if (n > 0) {
		if (cs->owner != NULL && cs->enc == PROTO_ENC_TEXT) {
			ev.len = 0;
			proto_ev_output(&ev, cs->req_id, (int64_t)cs->id,
			    cs->seq, all.data, n, PROTO_ENC_TEXT);
			control_send_output(cs->owner, &ev);
		}
		/* Built only for someone: the relay's hot path. */
		if (control_has_subscribers(c, cs->owner)) {
			proto_ev_output(&text, NULL, (int64_t)cs->id, cs->seq,
			    all.data, n, PROTO_ENC_TEXT);
			control_broadcast_session(c, &text, cs->owner,
			    (int64_t)cs->id, n, true);
		}
	}
	buf_free(&all);
	buf_free(&text);
	buf_free(&ev);
	control_sess_hold(cs);
}

/* Sessions callback: track every session, owned or not. */
static void
control_on_created(void *user, struct session *s)
{
	struct control		*c = user;
	struct control_sess	*cs = xcalloc(1, sizeof *cs);
	struct control_req	*cr;

	cs->s = s;
	cs->id = session_id(s);
	/*
	 * A session started for a request (the spawn hook, from
	 * control_on_decided) carries its number: the request, still
	 * waiting here until the hook returns, says whose it is.
	 */
	if (session_request(s) != 0 &&
	    (cr = control_req_find(c, session_request(s))) != NULL) {
		cs->request = cr->request;
		cs->owner = cr->client;
		cs->req_id = cr->id != NULL ? xstrdup(cr->id) : NULL;
		cs->enc = cr->enc;
	}
	c->sess = xreallocarray(c->sess, c->nsess + 1, sizeof *c->sess);
	c->sess[c->nsess++] = cs;
}

static void	control_pipes_end(struct control *, struct control_sess *);

static void
control_on_output(void *user, struct session *s, const char *data,
    size_t len)
{
	struct control		*c = user;
	struct control_sess	*cs = control_sess_find(c, s);

	if (cs != NULL)
		control_sess_output(c, cs, data, len, false);
}

/* An async start's command has exec'd: its pid is known now. */
static void
control_on_started(void *user, struct session *s)
{
	struct control		*c = user;
	struct control_sess	*cs = control_sess_find(c, s);

	if (cs != NULL)
		control_sess_started(c, cs);
}

/* Sessions callback: report the exit, stop tracking. */
static void
control_on_ended(void *user, struct session *s)
{
	struct control		*c = user;
	struct control_sess	*cs = control_sess_find(c, s);
	struct proto_exit	 e;
	struct ending		 end;
	struct pty_status	 st;
	char			 name[64];
	struct buf		 b = { 0 };
	size_t			 i;

	if (cs == NULL)
		return;
	if (cs->ncarry > 0)
		control_sess_output(c, cs, "", 0, true);
	control_pipes_end(c, cs);
	control_sess_started(c, cs);
	memset(&e, 0, sizeof e);
	e.session = (int64_t)cs->id;
	st = session_status(s);
	if (session_state(s) == SESSION_FAILED)
		e.code = session_exit_code(s);
	else if (st.signaled)
		e.signal = st.signal;
	else
		e.code = st.code;
	e.timed_out = session_state(s) == SESSION_TIMED_OUT;
	if (session_end_us(s) > session_start_us(s))
		e.duration_ms = (uint64_t)(session_end_us(s) -
		    session_start_us(s)) / 1000;
	e.recording = session_recording(s);
	session_ending(s, &end);
	e.ending = ending_name(&end, name, sizeof name);
	e.cwd = session_reported_cwd(s);
	proto_ev_exit(&b, cs->req_id, &e);
	control_send(cs->owner, &b);
	b.len = 0;
	proto_ev_exit(&b, NULL, &e);
	control_skip_end(c, (int64_t)cs->id);	/* the gap before the end */
	control_broadcast(c, &b, cs->owner);
	buf_free(&b);
	if (cs->request != 0)
		control_log(c, "session %lu (request %llu) ended: %s%s%s",
		    cs->id, (unsigned long long)cs->request, e.ending,
		    session_error(s) != NULL ? ": " : "",
		    session_error(s) != NULL ? session_error(s) : "");
	for (i = 0; i < c->nsess; i++) {
		if (c->sess[i] == cs) {
			c->sess[i] = c->sess[--c->nsess];
			break;
		}
	}
	free(cs->req_id);
	free(cs);
}

/*
 * The command's pipes.  Its stdout and stderr go to the owner exactly (in
 * its encoding, each stream's UTF-8 tail carried apart) and to subscribers
 * as text, each as an output event naming its stream; when the owner has
 * CONTROL_PIPE_HOLD bytes unread they wait (control_sess_hold).
 */
static void
control_on_stream(void *user, struct session *s, int fd, const char *data,
    size_t len)
{
	struct control		*c = user;
	struct control_sess	*cs = control_sess_find(c, s);
	struct buf		 all = { 0 }, ev = { 0 };
	size_t			 n;

	if (cs == NULL || fd < 1 || fd > 2)
		return;
	control_sess_started(c, cs);
	cs->seq++;
	if (cs->owner != NULL && cs->enc == PROTO_ENC_BASE64 && len > 0) {
		proto_ev_stream(&ev, cs->req_id, (int64_t)cs->id, cs->seq, fd,
		    data, len, PROTO_ENC_BASE64);
		control_send(cs->owner, &ev);
		ev.len = 0;
	}
	buf_add(&all, cs->pipe_carry[fd], cs->npipe_carry[fd]);
	buf_add(&all, data, len);
	n = len == 0 ? all.len : proto_utf8_complete(all.data, all.len);
	cs->npipe_carry[fd] = all.len - n;
	memcpy(cs->pipe_carry[fd], all.data + n, cs->npipe_carry[fd]);
	if (n > 0 && cs->owner != NULL && cs->enc == PROTO_ENC_TEXT) {
		proto_ev_stream(&ev, cs->req_id, (int64_t)cs->id, cs->seq, fd,
		    all.data, n, PROTO_ENC_TEXT);
		control_send(cs->owner, &ev);
		ev.len = 0;
	}
	/* Built only for someone: the relay's hot path. */
	if (n > 0 && control_has_subscribers(c, cs->owner)) {
		proto_ev_stream(&ev, NULL, (int64_t)cs->id, cs->seq, fd,
		    all.data, n, PROTO_ENC_TEXT);
		control_broadcast_session(c, &ev, cs->owner, (int64_t)cs->id,
		    n, false);
	}
	buf_free(&all);
	buf_free(&ev);
	control_sess_hold(cs);
}

/*
 * Sessions callback: a session's terminal has a new size; subscribers
 * that show its screen (the web page's live views) draw it again.
 */
static void
control_on_resized(void *user, struct session *s)
{
	struct control		*c = user;
	struct control_sess	*cs = control_sess_find(c, s);
	struct pty_size		 size = session_size(s);
	struct buf		 b = { 0 };

	if (cs == NULL || !control_has_subscribers(c, NULL))
		return;
	proto_ev_resized(&b, (int64_t)cs->id, size.cols, size.rows);
	control_broadcast(c, &b, NULL);
	buf_free(&b);
}

/* Tell the owner how far the command has read its stdin pipe. */
static void
control_on_stdin_written(void *user, struct session *s, uint64_t total)
{
	struct control		*c = user;
	struct control_sess	*cs = control_sess_find(c, s);
	struct buf		 b = { 0 };

	if (cs == NULL || cs->owner == NULL)
		return;
	proto_ev_written(&b, cs->req_id, (int64_t)cs->id, total);
	control_send(cs->owner, &b);
	buf_free(&b);
}

/* The pipes' UTF-8 tails at the end, as text (a final, empty chunk). */
static void
control_pipes_end(struct control *c, struct control_sess *cs)
{
	int	fd;

	for (fd = 1; fd <= 2; fd++)
		if (cs->npipe_carry[fd] > 0)
			control_on_stream(c, cs->s, fd, "", 0);
}

const struct session_events control_session_events = {
	.created = control_on_created,
	.output = control_on_output,
	.ended = control_on_ended,
	.started = control_on_started,
	.stream = control_on_stream,
	.stdin_written = control_on_stdin_written,
	.resized = control_on_resized,
};

/* Approval callback: a request waits for a person. */
static void
control_on_pending(void *user, struct approval_request *r)
{
	struct control		*c = user;
	struct control_req	*cr = control_req_find(c, r->id);
	struct proto_pending	 p;
	struct buf		 b = { 0 };
	char			*cmd = quote_argv(r->exec.argv);

	control_log(c, "request %llu waits for approval (%s; %s): %s",
	    (unsigned long long)r->id, r->verdict_by, r->verdict_why, cmd);
	free(cmd);
	if (cr != NULL)
		return;		/* control_op_exec told the subscribers */
	approval_pending_view(r, &p);
	proto_ev_queued(&b, NULL, &p);
	control_broadcast(c, &b, NULL);
	buf_free(&b);
}

/* Approval callback: start an approved request, or tell of a denial. */
static void
control_on_decided(void *user, struct approval_request *r)
{
	struct control		*c = user;
	struct control_req	*cr = control_req_find(c, r->id);
	struct control_client	*cl = cr != NULL ? cr->client : NULL;
	bool			 ok = r->state == APPROVAL_APPROVED;
	struct buf		 b = { 0 };
	struct session		*s;
	char			*cmd, *cause = NULL;
	char *const		*edited;
	const char		*scope;

	cmd = quote_argv(r->exec.argv);
	control_log(c, "request %llu %s by %s%s%s%s%s%s%s: %s",
	    (unsigned long long)r->id, ok ? "approved" : "denied",
	    r->decided_by, r->reason != NULL ? " (" : "",
	    r->reason != NULL ? r->reason : "", r->reason != NULL ? ")" : "",
	    r->remembered != NULL ? ", remembered" : "",
	    ok && r->connect ? ", for " : "", ok && r->connect ?
	    approval_scope_name(r->scope) : "", cmd);
	free(cmd);
	edited = ok && r->edited ? r->exec.argv : NULL;
	scope = ok ? approval_scope_name(r->scope) : NULL;
	proto_ev_decided(&b, cr != NULL ? cr->id : NULL, (int64_t)r->id, ok,
	    r->decided_by, r->reason, edited, scope);
	control_send(cl, &b);
	b.len = 0;
	proto_ev_decided(&b, NULL, (int64_t)r->id, ok, r->decided_by,
	    r->reason, edited, scope);
	control_broadcast(c, &b, cl);
	buf_free(&b);
	/* A host asked for by a proxy: the answer is all it waits for. */
	if (!ok || cr == NULL || r->connect) {
		if (cr != NULL)
			control_req_remove(c, cr);
		return;
	}

	s = c->hooks.spawn(c->user, r, &cause);
	if (s == NULL) {
		if (cl != NULL)
			control_error(cl, cr->id, PROTO_ERR_VALUE, cause);
		else
			control_log(c, "request %llu: %s",
			    (unsigned long long)r->id, cause);
		free(cause);
	} else {
		struct control_sess *cs = control_sess_find(c, s);

		if (cs != NULL)
			control_sess_started(c, cs);
	}
	control_req_remove(c, cr);
}

/* Approval callback: the owner gave up on a request. */
static void
control_on_withdrawn(void *user, struct approval_request *r)
{
	struct control		*c = user;
	struct control_req	*cr = control_req_find(c, r->id);
	struct buf		 b = { 0 };

	control_log(c, "request %llu withdrawn by its client",
	    (unsigned long long)r->id);
	proto_ev_withdrawn(&b, (int64_t)r->id);
	control_broadcast(c, &b, NULL);
	buf_free(&b);
	if (cr != NULL)
		control_req_remove(c, cr);
}

const struct approval_events control_approval_events = {
	.pending = control_on_pending,
	.decided = control_on_decided,
	.withdrawn = control_on_withdrawn,
};
