/*
 * requests.c - answering a control client's request lines: the hello gate
 * (nothing but hello until one was accepted), then exec (judged and queued;
 * forward.c starts it once decided), connect (a filtered network's proxy
 * asking for a host: queued the same way, the decision all it waits for),
 * input (to the PTY, or to the stdin pipe of the client's own command),
 * kill, resize, list, subscribe, decide, attach (the connection becomes a
 * console's, console.c), shutdown (the server ends, where it may be
 * ended that way) and screen (a session's, drawn as it is now).  Every
 * request but hello gets one answer: its own event (queued, list,
 * attached, screen), "ok", or an error event.
 *
 * Invariants: only lines proto_parse() fully validated reach the ops; a
 * request naming a missing or ended session, or no waiting request, gets an
 * error event and changes nothing.
 */
#include "control/control-int.h"

#include <stdlib.h>
#include <string.h>

#include "control/proto.h"
#include "base/util.h"

/* Track r for cl's request req: queued events, then the verdict acts. */
static void
control_queue(struct control_client *cl, struct proto_request *req,
    enum proto_encoding enc, struct approval_request *r)
{
	struct control		*c = cl->c;
	struct control_req	*cr;
	struct proto_pending	 p;
	struct buf		 b = { 0 };

	cr = xcalloc(1, sizeof *cr);
	cr->request = r->id;
	cr->client = cl;
	cr->id = xstrdup(req->id);
	cr->enc = enc;
	c->reqs = xreallocarray(c->reqs, c->nreqs + 1, sizeof *c->reqs);
	c->reqs[c->nreqs++] = cr;

	approval_pending_view(r, &p);
	proto_ev_queued(&b, req->id, &p);
	control_send(cl, &b);
	b.len = 0;
	proto_ev_queued(&b, NULL, &p);
	control_broadcast(c, &b, cl);
	buf_free(&b);
	approval_dispatch(c->a, r);
}

/* Who sent cl's requests, for the queue. */
static struct approval_from
control_from(struct control_client *cl)
{
	struct approval_from	from = { cl->pid, cl->exe, cl };

	return from;
}

/* exec: judge, queue (the request itself), and let the decision start it. */
static void
control_op_exec(struct control_client *cl, struct proto_request *req)
{
	struct approval_from	 from = control_from(cl);
	enum proto_encoding	 enc = req->exec.encoding;

	control_queue(cl, req, enc, approval_submit(cl->c->a, &req->exec,
	    &from));
}

/* connect: a filtered network's proxy asks a person for one host. */
static void
control_op_connect(struct control_client *cl, struct proto_request *req)
{
	struct approval_from	 from = control_from(cl);

	control_queue(cl, req, PROTO_ENC_TEXT, approval_submit_host(cl->c->a,
	    req->host, req->port, req->why, &from));
}

/*
 * The session a request names, running unless ended_ok, or NULL after an
 * error event.
 */
static struct session *
control_op_session(struct control_client *cl, struct proto_request *req,
    bool ended_ok)
{
	struct session	*s = sessions_find(cl->c->ss,
			    (unsigned long)req->session);
	char		*msg;

	if (s == NULL) {
		msg = xasprintf("no session %lld", (long long)req->session);
		control_error(cl, req->id, PROTO_ERR_NO_SESSION, msg);
		free(msg);
		return NULL;
	}
	if (!ended_ok && session_is_done(s)) {
		msg = xasprintf("session %lld has ended",
		    (long long)req->session);
		control_error(cl, req->id, PROTO_ERR_STATE, msg);
		free(msg);
		return NULL;
	}
	return s;
}

/*
 * input to the command's stdin pipe: only from the client that ran it (its
 * `written` events go there), within the bound the session keeps.
 */
static void
control_op_stdin(struct control_client *cl, struct proto_request *req,
    struct session *s)
{
	struct buf	 b = { 0 };
	char		*cause = NULL;
	size_t		 i;

	for (i = 0; i < cl->c->nsess; i++)
		if (cl->c->sess[i]->s == s)
			break;
	if (i == cl->c->nsess || cl->c->sess[i]->owner != cl) {
		cause = xasprintf("session %lld: only the client that ran it "
		    "writes its stdin", (long long)req->session);
		control_error(cl, req->id, PROTO_ERR_STATE, cause);
		free(cause);
		return;
	}
	if (session_stdin_write(s, req->data, req->datalen, req->eof,
	    &cause) != 0) {
		control_error(cl, req->id, PROTO_ERR_STATE, cause);
		free(cause);
		return;
	}
	proto_ev_ok(&b, req->id);
	control_send(cl, &b);
	buf_free(&b);
}

/*
 * screen: a session's screen as it is now (ended or not), drawn for a
 * terminal of its size; the session's output events this client gets
 * after it continue it.
 */
static void
control_op_screen(struct control_client *cl, struct proto_request *req)
{
	struct session	*s;
	struct buf	 draw = { 0 }, b = { 0 };
	struct pty_size	 size;
	bool		 whole;

	if ((s = control_op_session(cl, req, true)) == NULL)
		return;
	whole = session_screen_redraw(s, PROTO_SCREEN_MAX, &draw, &size);
	proto_ev_screen(&b, req->id, req->session, size.cols, size.rows,
	    draw.data, draw.len, !whole);
	control_send(cl, &b);
	buf_free(&b);
	buf_free(&draw);
}

/* list: every session and every waiting request. */
static void
control_op_list(struct control_client *cl, struct proto_request *req)
{
	struct control		*c = cl->c;
	struct proto_session	*ps;
	struct proto_pending	*pp;
	struct buf		 b = { 0 };
	size_t			 i, ns = sessions_count(c->ss);
	size_t			 np = approval_pending_count(c->a);

	ps = xcalloc(ns + 1, sizeof *ps);
	pp = xcalloc(np + 1, sizeof *pp);
	for (i = 0; i < ns; i++) {
		struct session *s = sessions_at(c->ss, i);

		ps[i].session = (int64_t)session_id(s);
		ps[i].pid = session_is_done(s) ? 0 : session_pid(s);
		ps[i].argv = session_argv(s);
		ps[i].cwd = session_cwd(s);
		ps[i].state = session_state_name(session_state(s));
		ps[i].agent = session_is_agent(s);
	}
	for (i = 0; i < np; i++)
		approval_pending_view(approval_pending_at(c->a, i), &pp[i]);
	proto_ev_list(&b, req->id, ps, ns, pp, np);
	control_send(cl, &b);
	buf_free(&b);
	free(ps);
	free(pp);
}

/*
 * decide: approve (once, remembering a rule, or as edited) or deny a
 * waiting request, by whom the client names (else "user").  A
 * remembered host whose rule could not be saved is approved all the same
 * (1 from approval_remember); the answer (not_saved) and the log say why
 * it was not saved.
 */
static void
control_op_decide(struct control_client *cl, struct proto_request *req)
{
	struct control	*c = cl->c;
	struct buf	 b = { 0 };
	const char	*by;
	char		*cause = NULL;
	int		 rc;

	if (approval_find(c->a, (uint64_t)req->request) == NULL) {
		cause = xasprintf("no request %lld is waiting",
		    (long long)req->request);
		control_error(cl, req->id, PROTO_ERR_NO_REQUEST, cause);
		free(cause);
		return;
	}
	/* A front end that names who decided: which client it was, logged. */
	if (req->by != NULL)
		control_log(c, "client %lu (pid %ld, %s) decides request %lld "
		    "for %s", cl->serial, (long)cl->pid, cl->exe != NULL ?
		    cl->exe : "?", (long long)req->request, req->by);
	by = req->by != NULL ? req->by : "user";
	if (!req->approve)
		rc = approval_deny(c->a, (uint64_t)req->request, req->reason,
		    by, &cause);
	else if (req->remember)
		rc = approval_remember(c->a, (uint64_t)req->request, req->rule,
		    false, by, &cause);
	else if (req->exec.argv != NULL)
		rc = approval_edit(c->a, (uint64_t)req->request,
		    req->exec.argv, by, &cause);
	else if (req->once)
		rc = approval_approve_once(c->a, (uint64_t)req->request, by,
		    &cause);
	else
		rc = approval_approve(c->a, (uint64_t)req->request, by,
		    &cause);
	if (rc < 0) {
		control_error(cl, req->id, PROTO_ERR_VALUE, cause);
		free(cause);
		return;
	}
	if (rc > 0)
		control_log(c, "request %lld: the rule is not saved: %s",
		    (long long)req->request, cause);
	if (!cl->dead) {
		if (rc > 0)
			proto_ev_ok_not_saved(&b, req->id, cause);
		else
			proto_ev_ok(&b, req->id);
		control_send(cl, &b);
		buf_free(&b);
	}
	free(cause);
}

/* Answer one parsed request. */
static void
control_handle(struct control_client *cl, struct proto_request *req)
{
	struct session	*s;
	struct buf	 b = { 0 };
	struct pty_size	 size;

	switch (req->op) {
	case PROTO_OP_HELLO:
		return;		/* a repeated hello changes nothing */
	case PROTO_OP_EXEC:
		control_op_exec(cl, req);
		return;
	case PROTO_OP_INPUT:
		if ((s = control_op_session(cl, req, false)) == NULL)
			return;
		if (req->to_stdin) {
			control_op_stdin(cl, req, s);
			return;
		}
		session_write(s, req->data, req->datalen);
		break;
	case PROTO_OP_KILL:
		if ((s = control_op_session(cl, req, false)) == NULL)
			return;
		session_cancel(s, "the agent stopped it");
		break;
	case PROTO_OP_RESIZE:
		if ((s = control_op_session(cl, req, false)) == NULL)
			return;
		size.cols = (unsigned short)req->cols;
		size.rows = (unsigned short)req->rows;
		session_resize(s, size);
		break;
	case PROTO_OP_LIST:
		control_op_list(cl, req);
		return;
	case PROTO_OP_SUBSCRIBE:
		cl->subscribed = true;
		break;
	case PROTO_OP_DECIDE:
		control_op_decide(cl, req);
		return;
	case PROTO_OP_ATTACH:
		control_op_attach(cl, req);
		return;
	case PROTO_OP_SHUTDOWN:
		if (cl->c->hooks.shutdown == NULL) {
			control_error(cl, req->id, PROTO_ERR_STATE, "this "
			    "server ends with SIGTERM ('ptyvisor serve')");
			return;
		}
		control_log(cl->c, "client %lu (pid %ld) asked the server to "
		    "end", cl->serial, (long)cl->pid);
		proto_ev_ok(&b, req->id);
		control_send(cl, &b);
		buf_free(&b);
		cl->c->hooks.shutdown(cl->c->user);
		return;
	case PROTO_OP_CONNECT:
		control_op_connect(cl, req);
		return;
	case PROTO_OP_SCREEN:
		control_op_screen(cl, req);
		return;
	}
	proto_ev_ok(&b, req->id);
	control_send(cl, &b);
	buf_free(&b);
}

/* Parse and answer one line (without its newline). */
void
control_line(struct control_client *cl, const char *line, size_t len)
{
	struct proto_request	*req;
	struct proto_error	 err;

	memset(&err, 0, sizeof err);
	if ((req = proto_parse(line, len, &err)) == NULL) {
		control_error(cl, err.has_id ? err.id : NULL, err.code,
		    err.message);
		if (err.code == PROTO_ERR_VERSION ||
		    err.code == PROTO_ERR_TOO_LONG || !cl->hello)
			control_client_finish(cl);
		return;
	}
	if (!cl->hello && req->op != PROTO_OP_HELLO) {
		control_error(cl, req->id, PROTO_ERR_STATE,
		    "the first line must be {\"op\":\"hello\",\"version\":1}");
		control_client_finish(cl);
	} else {
		cl->hello = true;
		control_handle(cl, req);
	}
	proto_request_free(req);
}
