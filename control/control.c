/*
 * control.c - the control socket server (see control.h).
 *
 * Invariants:
 * - every fd is non-blocking and close-on-exec; the listening socket and
 *   clients are served at high priority, before any PTY;
 * - a client's unread output never exceeds CONTROL_OUT_MAX and its partial
 *   input never exceeds one line (PROTO_LINE_MAX) plus one read;
 * - a closed client is only marked dead at once (callbacks up the stack
 *   may still hold it); its memory is freed from a timer, outside them;
 * - each tracked session is forgotten here when it ends, so the session
 *   pointers held are always live.
 */
#include "control/control.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "control/proto.h"
#include "base/util.h"

/*
 * Unsent output a client may have queued.  A shim reading normally never
 * gets near it; beyond it the client is not reading and is dropped rather
 * than letting a flooding session grow our memory without end.
 */
#define CONTROL_OUT_MAX		(2 * 1024 * 1024)
/* Bytes read from one client per loop turn, so none can hog the loop. */
#define CONTROL_READ_BUDGET	(64 * 1024)
/* Clients at once: each holds an fd and buffers; refuse more. */
#define CONTROL_CLIENTS_MAX	256
/* A client being closed after an error gets this long to read it. */
#define CONTROL_CLOSE_GRACE_MS	1000
/* After accept() fails for lack of fds, wait before trying again. */
#define CONTROL_ACCEPT_PAUSE_MS	100

struct control_client {
	struct control		*c;
	unsigned long		 serial;	/* for the log */
	int			 fd;
	pid_t			 pid;
	char			*exe;
	struct buf		 in;
	struct buf		 out;
	bool			 hello;
	bool			 subscribed;
	bool			 closing;	/* draining out, then close */
	bool			 dead;
	struct loop_timer	*close_timer;
};

/* An exec request waiting for its decision. */
struct control_req {
	uint64_t		 request;
	struct control_client	*client;	/* NULL once it left */
	char			*id;
	enum proto_encoding	 enc;
};

/* A session the server reports on. */
struct control_sess {
	struct session		*s;
	unsigned long		 id;
	uint64_t		 request;	/* 0: not started by a client */
	struct control_client	*owner;		/* NULL: nobody waits */
	char			*req_id;
	enum proto_encoding	 enc;
	uint64_t		 seq;
	unsigned char		 carry[4];	/* incomplete UTF-8 tail */
	size_t			 ncarry;
	bool			 started;	/* started event sent */
};

struct control {
	struct loop		*loop;
	struct sessions		*ss;
	struct approval		*a;
	struct control_hooks	 hooks;
	void			*user;
	char			*path;
	int			 fd;
	dev_t			 dev;
	ino_t			 ino;
	bool			 keep;
	unsigned long		 serial;

	struct control_client	**clients;
	size_t			 nclients;
	struct loop_timer	*reap_timer;
	struct loop_timer	*accept_timer;

	struct control_req	**reqs;
	size_t			 nreqs;
	struct control_sess	**sess;
	size_t			 nsess;
	struct control_req	*spawning;	/* during hooks.spawn */
};

static void	control_client_close(struct control_client *cl);
static void	control_client_flush(struct control_client *cl);

/* Log one line through the hook. */
static void __attribute__((format(printf, 2, 3)))
control_log(struct control *c, const char *fmt, ...)
{
	va_list	 ap;
	char	*line;

	if (c->hooks.log == NULL)
		return;
	va_start(ap, fmt);
	line = xvasprintf(fmt, ap);
	va_end(ap);
	c->hooks.log(c->user, line);
	free(line);
}

char *
control_socket_path(void)
{
	const char	*s;

	if ((s = getenv("PTYVISOR_SOCKET")) != NULL && *s != '\0')
		return xstrdup(s);
	if ((s = getenv("XDG_RUNTIME_DIR")) != NULL && *s == '/')
		return xasprintf("%s/ptyvisor/ptyvisor.sock", s);
	return xasprintf("/tmp/ptyvisor-%u/ptyvisor.sock",
	    (unsigned)geteuid());
}

/* Make sure the socket's directory exists, is ours and is private. */
static int
control_prepare_dir(const char *path, char **cause)
{
	char		*dir = xstrdup(path), *slash;
	struct stat	 st;
	int		 rc = -1;

	slash = strrchr(dir, '/');
	if (slash == NULL) {
		free(dir);
		dir = xstrdup(".");
	} else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		goto out;
	}
	if (lstat(dir, &st) != 0) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode))
		*cause = xasprintf("%s: not a directory", dir);
	else if (st.st_uid != geteuid())
		*cause = xasprintf("%s: owned by uid %u, not by us", dir,
		    (unsigned)st.st_uid);
	else if ((st.st_mode & 022) != 0)
		*cause = xasprintf("%s: writable by others (mode %03o); make "
		    "it 0700", dir, (unsigned)(st.st_mode & 0777));
	else
		rc = 0;
out:
	free(dir);
	return rc;
}

/* Fill a sockaddr_un for path; -1 with *cause when it does not fit. */
static int
control_addr(const char *path, struct sockaddr_un *sun, char **cause)
{
	memset(sun, 0, sizeof *sun);
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun->sun_path) {
		*cause = xasprintf("%s: socket path too long", path);
		return -1;
	}
	memcpy(sun->sun_path, path, strlen(path) + 1);
	return 0;
}

/*
 * A socket already at path: another live server (refuse), a stale one
 * (remove it) or something else (refuse).
 */
static int
control_clear_stale(const char *path, char **cause)
{
	struct sockaddr_un	sun;
	struct stat		st;
	int			fd, rc;

	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : (*cause = xasprintf("%s: %s",
		    path, strerror(errno)), -1);
	if (!S_ISSOCK(st.st_mode)) {
		*cause = xasprintf("%s exists and is not a socket", path);
		return -1;
	}
	if (control_addr(path, &sun, cause) != 0)
		return -1;
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		*cause = xasprintf("socket: %s", strerror(errno));
		return -1;
	}
	rc = connect(fd, (struct sockaddr *)&sun, sizeof sun);
	close(fd);
	if (rc == 0) {
		*cause = xasprintf("another ptyvisor is already serving on %s",
		    path);
		return -1;
	}
	if (errno != ECONNREFUSED) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (unlink(path) != 0 && errno != ENOENT) {
		*cause = xasprintf("%s: stale socket: %s", path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* Queue a built event line for a client and try to send it. */
static void
control_send(struct control_client *cl, struct buf *line)
{
	if (cl == NULL || cl->dead || line->len == 0)
		return;
	if (cl->out.len + line->len > CONTROL_OUT_MAX) {
		control_log(cl->c, "client %lu (pid %ld) is not reading: "
		    "more than %d bytes queued, disconnecting", cl->serial,
		    (long)cl->pid, CONTROL_OUT_MAX);
		cl->out.len = 0;
		control_client_close(cl);
		return;
	}
	buf_add(&cl->out, line->data, line->len);
	control_client_flush(cl);
}

/* Send line to every subscribed client except skip. */
static void
control_broadcast(struct control *c, struct buf *line,
    struct control_client *skip)
{
	size_t	i;

	for (i = 0; i < c->nclients; i++) {
		struct control_client *cl = c->clients[i];

		if (cl != skip && cl->subscribed && !cl->dead)
			control_send(cl, line);
	}
}

/* Send an error event, and log it. */
static void
control_error(struct control_client *cl, const char *id, enum proto_err code,
    const char *message)
{
	struct buf	b = { 0 };

	control_log(cl->c, "client %lu (pid %ld): %s: %s", cl->serial,
	    (long)cl->pid, proto_err_name(code), message);
	proto_ev_error(&b, id, code, message);
	control_send(cl, &b);
	buf_free(&b);
}

/* Free dead clients, outside any callback that may still hold them. */
static void
control_reap(struct loop *l, void *arg)
{
	struct control	*c = arg;
	size_t		 i = 0;

	(void)l;
	c->reap_timer = NULL;
	while (i < c->nclients) {
		struct control_client *cl = c->clients[i];

		if (!cl->dead) {
			i++;
			continue;
		}
		loop_timer_cancel(c->loop, cl->close_timer);
		buf_free(&cl->in);
		buf_free(&cl->out);
		free(cl->exe);
		free(cl);
		c->clients[i] = c->clients[--c->nclients];
	}
}

/* Drop a client now: kill its sessions, withdraw its requests. */
static void
control_client_close(struct control_client *cl)
{
	struct control	*c = cl->c;
	size_t		 i;

	if (cl->dead)
		return;
	cl->dead = true;
	loop_del_fd(c->loop, cl->fd);
	close(cl->fd);
	cl->fd = -1;
	loop_timer_cancel(c->loop, cl->close_timer);
	cl->close_timer = NULL;
	for (i = 0; i < c->nsess; i++) {
		struct control_sess *cs = c->sess[i];

		if (cs->owner != cl)
			continue;
		cs->owner = NULL;
		if (!c->keep && !session_is_done(cs->s)) {
			control_log(c, "client %lu left: killing session %lu",
			    cl->serial, cs->id);
			session_kill(cs->s);
		}
	}
	for (i = 0; i < c->nreqs; i++)
		if (c->reqs[i]->client == cl)
			c->reqs[i]->client = NULL;
	if (!c->keep)
		approval_withdraw_owner(c->a, cl);
	if (c->reap_timer == NULL)
		c->reap_timer = loop_timer_add(c->loop, 0, control_reap, c);
}

/* The grace for reading a last error is over. */
static void
control_close_timer(struct loop *l, void *arg)
{
	struct control_client	*cl = arg;

	(void)l;
	cl->close_timer = NULL;
	control_client_close(cl);
}

/* Close after what is queued has been sent (or a grace has passed). */
static void
control_client_finish(struct control_client *cl)
{
	if (cl->dead || cl->closing)
		return;
	cl->closing = true;
	if (cl->out.len == 0) {
		control_client_close(cl);
		return;
	}
	loop_set_events(cl->c->loop, cl->fd, POLLOUT);
	cl->close_timer = loop_timer_add(cl->c->loop, CONTROL_CLOSE_GRACE_MS,
	    control_close_timer, cl);
}

/* Write what the socket takes now; watch POLLOUT for the rest. */
static void
control_client_flush(struct control_client *cl)
{
	ssize_t	n;

	while (!cl->dead && cl->out.len > 0) {
		n = send(cl->fd, cl->out.data, cl->out.len,
		    MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			buf_consume(&cl->out, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		cl->out.len = 0;
		control_client_close(cl);
		return;
	}
	if (cl->dead)
		return;
	if (cl->closing && cl->out.len == 0) {
		control_client_close(cl);
		return;
	}
	loop_set_events(cl->c->loop, cl->fd, (cl->closing ? 0 : POLLIN) |
	    (cl->out.len > 0 ? POLLOUT : 0));
}

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
static void
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

	if (cs->started)
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
		control_send(cs->owner, &ev);
	}
	if (n > 0) {
		if (cs->owner != NULL && cs->enc == PROTO_ENC_TEXT) {
			ev.len = 0;
			proto_ev_output(&ev, cs->req_id, (int64_t)cs->id,
			    cs->seq, all.data, n, PROTO_ENC_TEXT);
			control_send(cs->owner, &ev);
		}
		proto_ev_output(&text, NULL, (int64_t)cs->id, cs->seq,
		    all.data, n, PROTO_ENC_TEXT);
		control_broadcast(c, &text, cs->owner);
	}
	buf_free(&all);
	buf_free(&text);
	buf_free(&ev);
}

/* Sessions callback: track every session, owned or not. */
static void
control_on_created(void *user, struct session *s)
{
	struct control		*c = user;
	struct control_sess	*cs = xcalloc(1, sizeof *cs);

	cs->s = s;
	cs->id = session_id(s);
	if (c->spawning != NULL) {
		cs->request = c->spawning->request;
		cs->owner = c->spawning->client;
		cs->req_id = c->spawning->id != NULL ?
		    xstrdup(c->spawning->id) : NULL;
		cs->enc = c->spawning->enc;
	}
	c->sess = xreallocarray(c->sess, c->nsess + 1, sizeof *c->sess);
	c->sess[c->nsess++] = cs;
}

static void
control_on_output(void *user, struct session *s, const char *data,
    size_t len)
{
	struct control		*c = user;
	struct control_sess	*cs = control_sess_find(c, s);

	if (cs != NULL)
		control_sess_output(c, cs, data, len, false);
}

/* Sessions callback: report the exit, stop tracking. */
static void
control_on_ended(void *user, struct session *s)
{
	struct control		*c = user;
	struct control_sess	*cs = control_sess_find(c, s);
	struct proto_exit	 e;
	struct pty_status	 st;
	struct buf		 b = { 0 };
	size_t			 i;

	if (cs == NULL)
		return;
	if (cs->ncarry > 0)
		control_sess_output(c, cs, "", 0, true);
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
	proto_ev_exit(&b, cs->req_id, &e);
	control_send(cs->owner, &b);
	b.len = 0;
	proto_ev_exit(&b, NULL, &e);
	control_broadcast(c, &b, cs->owner);
	buf_free(&b);
	if (cs->request != 0)
		control_log(c, "session %lu (request %llu) ended: %s%s%s",
		    cs->id, (unsigned long long)cs->request,
		    session_state_name(session_state(s)),
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

static const struct session_events control_session_events = {
	.created = control_on_created,
	.output = control_on_output,
	.ended = control_on_ended,
};

/* Describe r for queued and list events. */
static void
control_pending_of(const struct approval_request *r, struct proto_pending *p)
{
	memset(p, 0, sizeof *p);
	p->request = (int64_t)r->id;
	p->argv = r->argv;
	p->cwd = r->cwd;
	p->sandbox = r->sandbox;
	p->network = r->network;
	p->why = r->why;
	p->verdict = policy_decision_name(r->verdict);
	p->by = r->verdict_by;
	p->client_pid = r->client_pid;
}

/* Approval callback: a request waits for a person. */
static void
control_on_pending(void *user, struct approval_request *r)
{
	struct control		*c = user;
	struct control_req	*cr = control_req_find(c, r->id);
	struct proto_pending	 p;
	struct buf		 b = { 0 };
	char			*cmd = policy_quote_argv(r->argv);

	control_log(c, "request %llu waits for approval (%s): %s",
	    (unsigned long long)r->id, r->verdict_by, cmd);
	free(cmd);
	if (cr != NULL)
		return;		/* control_op_exec told the subscribers */
	control_pending_of(r, &p);
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

	cmd = policy_quote_argv(r->argv);
	control_log(c, "request %llu %s by %s%s%s%s%s: %s",
	    (unsigned long long)r->id, ok ? "approved" : "denied",
	    r->decided_by, r->reason != NULL ? " (" : "",
	    r->reason != NULL ? r->reason : "", r->reason != NULL ? ")" : "",
	    r->remembered != NULL ? ", remembered" : "", cmd);
	free(cmd);
	edited = ok && r->edited ? r->argv : NULL;
	proto_ev_decided(&b, cr != NULL ? cr->id : NULL, (int64_t)r->id, ok,
	    r->decided_by, r->reason, edited);
	control_send(cl, &b);
	b.len = 0;
	proto_ev_decided(&b, NULL, (int64_t)r->id, ok, r->decided_by,
	    r->reason, edited);
	control_broadcast(c, &b, cl);
	buf_free(&b);
	if (!ok || cr == NULL) {
		if (cr != NULL)
			control_req_remove(c, cr);
		return;
	}

	c->spawning = cr;
	s = c->hooks.spawn(c->user, r, &cause);
	c->spawning = NULL;
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

static const struct approval_events control_approval_events = {
	.pending = control_on_pending,
	.decided = control_on_decided,
	.withdrawn = control_on_withdrawn,
};

/* exec: judge, queue, and let the decision start it. */
static void
control_op_exec(struct control_client *cl, struct proto_request *req)
{
	struct control		*c = cl->c;
	struct approval_spec	 spec;
	struct approval_request	*r;
	struct control_req	*cr;
	struct proto_pending	 p;
	struct buf		 b = { 0 };

	memset(&spec, 0, sizeof spec);
	spec.argv = req->exec.argv;
	spec.cwd = req->exec.cwd;
	spec.env = req->exec.env;
	spec.timeout_ms = req->exec.timeout_ms;
	spec.sandbox = req->exec.sandbox;
	spec.network = req->exec.network;
	spec.cols = req->exec.cols;
	spec.rows = req->exec.rows;
	spec.why = req->exec.why;
	spec.client_pid = cl->pid;
	spec.client_exe = cl->exe;
	spec.owner = cl;
	r = approval_submit(c->a, &spec);

	cr = xcalloc(1, sizeof *cr);
	cr->request = r->id;
	cr->client = cl;
	cr->id = xstrdup(req->id);
	cr->enc = req->exec.encoding;
	c->reqs = xreallocarray(c->reqs, c->nreqs + 1, sizeof *c->reqs);
	c->reqs[c->nreqs++] = cr;

	control_pending_of(r, &p);
	proto_ev_queued(&b, req->id, &p);
	control_send(cl, &b);
	b.len = 0;
	proto_ev_queued(&b, NULL, &p);
	control_broadcast(c, &b, cl);
	buf_free(&b);
	approval_dispatch(c->a, r);
}

/* The running session a request names, or NULL after an error event. */
static struct session *
control_op_session(struct control_client *cl, struct proto_request *req)
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
	if (session_is_done(s)) {
		msg = xasprintf("session %lld has ended",
		    (long long)req->session);
		control_error(cl, req->id, PROTO_ERR_STATE, msg);
		free(msg);
		return NULL;
	}
	return s;
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
		control_pending_of(approval_pending_at(c->a, i), &pp[i]);
	proto_ev_list(&b, req->id, ps, ns, pp, np);
	control_send(cl, &b);
	buf_free(&b);
	free(ps);
	free(pp);
}

/* decide: approve (maybe remembering) or deny a waiting request. */
static void
control_op_decide(struct control_client *cl, struct proto_request *req)
{
	struct control	*c = cl->c;
	struct buf	 b = { 0 };
	char		*cause = NULL;
	int		 rc;

	if (approval_find(c->a, (uint64_t)req->request) == NULL) {
		cause = xasprintf("no request %lld is waiting",
		    (long long)req->request);
		control_error(cl, req->id, PROTO_ERR_NO_REQUEST, cause);
		free(cause);
		return;
	}
	if (!req->approve)
		rc = approval_deny(c->a, (uint64_t)req->request, req->reason,
		    "user", &cause);
	else if (req->remember)
		rc = approval_remember(c->a, (uint64_t)req->request, NULL,
		    false, &cause);
	else
		rc = approval_approve(c->a, (uint64_t)req->request, "user",
		    &cause);
	if (rc < 0) {
		control_error(cl, req->id, PROTO_ERR_VALUE, cause);
		free(cause);
		return;
	}
	free(cause);
	if (!cl->dead) {
		proto_ev_ok(&b, req->id);
		control_send(cl, &b);
		buf_free(&b);
	}
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
		if ((s = control_op_session(cl, req)) == NULL)
			return;
		session_write(s, req->data, req->datalen);
		break;
	case PROTO_OP_KILL:
		if ((s = control_op_session(cl, req)) == NULL)
			return;
		session_kill(s);
		break;
	case PROTO_OP_RESIZE:
		if ((s = control_op_session(cl, req)) == NULL)
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
	}
	proto_ev_ok(&b, req->id);
	control_send(cl, &b);
	buf_free(&b);
}

/* Parse and answer one line (without its newline). */
static void
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

/* Split what was read into lines; bound what waits for a newline. */
static void
control_lines(struct control_client *cl)
{
	char	*nl;
	size_t	 off = 0, n;

	while (!cl->dead && !cl->closing && off < cl->in.len) {
		nl = memchr(cl->in.data + off, '\n', cl->in.len - off);
		if (nl == NULL)
			break;
		n = (size_t)(nl - (cl->in.data + off));
		if (n > 0 && cl->in.data[off + n - 1] == '\r')
			n--;
		if (n > 0)
			control_line(cl, cl->in.data + off, n);
		off = (size_t)(nl - cl->in.data) + 1;
	}
	if (cl->dead)
		return;
	buf_consume(&cl->in, off);
	/* A line longer than the bound is refused without reading it all. */
	if (!cl->closing && cl->in.len > PROTO_LINE_MAX + 1) {
		cl->in.len = 0;
		control_error(cl, NULL, PROTO_ERR_TOO_LONG,
		    "line longer than 1 MiB");
		control_client_finish(cl);
	}
}

/* A client's socket is readable or writable. */
static void
control_client_io(struct loop *l, int fd, short revents, void *arg)
{
	struct control_client	*cl = arg;
	char			 buf[16384];
	size_t			 total = 0;
	ssize_t			 n;

	(void)l;
	(void)fd;
	if (cl->dead)
		return;
	if (revents & POLLOUT)
		control_client_flush(cl);
	if (cl->dead || cl->closing)
		return;
	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	while (total < CONTROL_READ_BUDGET && !cl->dead && !cl->closing) {
		n = recv(cl->fd, buf, sizeof buf, MSG_DONTWAIT);
		if (n > 0) {
			buf_add(&cl->in, buf, (size_t)n);
			total += (size_t)n;
			control_lines(cl);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		/* EOF or error: the client has gone. */
		if (cl->in.len > 0)
			control_log(cl->c, "client %lu (pid %ld) left in the "
			    "middle of a line", cl->serial, (long)cl->pid);
		control_client_close(cl);
		return;
	}
}

/* The peer's executable, from /proc; NULL when unknown. */
static char *
control_peer_exe(pid_t pid)
{
	char	 path[64], exe[PATH_MAX];
	ssize_t	 n;

	snprintf(path, sizeof path, "/proc/%ld/exe", (long)pid);
	if ((n = readlink(path, exe, sizeof exe - 1)) <= 0)
		return NULL;
	exe[n] = '\0';
	return xstrdup(exe);
}

static void	control_accept(struct loop *l, int fd, short revents,
		    void *arg);

/* Accepting again after running out of fds. */
static void
control_accept_timer(struct loop *l, void *arg)
{
	struct control	*c = arg;

	(void)l;
	c->accept_timer = NULL;
	loop_set_events(c->loop, c->fd, POLLIN);
}

/* A new connection: check the peer, say hello. */
static void
control_accept(struct loop *l, int fd, short revents, void *arg)
{
	struct control		*c = arg;
	struct control_client	*cl;
	struct ucred		 cred;
	socklen_t		 len = sizeof cred;
	struct buf		 b = { 0 };
	int			 cfd;

	(void)revents;
	cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM) {
			control_log(c, "accept: %s", strerror(errno));
			loop_set_events(l, c->fd, 0);
			c->accept_timer = loop_timer_add(l,
			    CONTROL_ACCEPT_PAUSE_MS, control_accept_timer, c);
		}
		return;
	}
	if (getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
	    cred.uid != geteuid()) {
		control_log(c, "refused a client of uid %ld (pid %ld)",
		    (long)cred.uid, (long)cred.pid);
		close(cfd);
		return;
	}
	if (c->nclients >= CONTROL_CLIENTS_MAX) {
		proto_ev_error(&b, NULL, PROTO_ERR_INTERNAL,
		    "too many clients");
		(void)!send(cfd, b.data, b.len, MSG_NOSIGNAL | MSG_DONTWAIT);
		buf_free(&b);
		control_log(c, "refused pid %ld: too many clients",
		    (long)cred.pid);
		close(cfd);
		return;
	}
	cl = xcalloc(1, sizeof *cl);
	cl->c = c;
	cl->serial = ++c->serial;
	cl->fd = cfd;
	cl->pid = cred.pid;
	cl->exe = control_peer_exe(cred.pid);
	c->clients = xreallocarray(c->clients, c->nclients + 1,
	    sizeof *c->clients);
	c->clients[c->nclients++] = cl;
	loop_add_fd(l, cfd, POLLIN, LOOP_PRIO_HIGH, control_client_io, cl);
	proto_ev_hello(&b);
	control_send(cl, &b);
	buf_free(&b);
}

struct control *
control_new(struct loop *loop, struct sessions *ss, struct approval *a,
    const char *path, const struct control_hooks *hooks, void *user,
    char **cause)
{
	struct control		*c;
	struct sockaddr_un	 sun;
	struct stat		 st;
	mode_t			 mask;
	int			 fd;
	char			*p;

	p = path != NULL ? xstrdup(path) : control_socket_path();
	if (control_prepare_dir(p, cause) != 0 ||
	    control_addr(p, &sun, cause) != 0 ||
	    control_clear_stale(p, cause) != 0) {
		free(p);
		return NULL;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		*cause = xasprintf("socket: %s", strerror(errno));
		free(p);
		return NULL;
	}
	mask = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		umask(mask);
		*cause = xasprintf("%s: %s", p, strerror(errno));
		close(fd);
		free(p);
		return NULL;
	}
	umask(mask);
	if (chmod(p, 0600) != 0 || stat(p, &st) != 0 ||
	    listen(fd, 64) != 0) {
		*cause = xasprintf("%s: %s", p, strerror(errno));
		unlink(p);
		close(fd);
		free(p);
		return NULL;
	}

	c = xcalloc(1, sizeof *c);
	c->loop = loop;
	c->ss = ss;
	c->a = a;
	c->hooks = *hooks;
	c->user = user;
	c->path = p;
	c->fd = fd;
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	loop_add_fd(loop, fd, POLLIN, LOOP_PRIO_HIGH, control_accept, c);
	sessions_subscribe(ss, &control_session_events, c);
	approval_subscribe(a, &control_approval_events, c);
	return c;
}

void
control_free(struct control *c)
{
	struct stat	st;
	size_t		i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nclients; i++)
		control_client_close(c->clients[i]);
	loop_timer_cancel(c->loop, c->reap_timer);
	control_reap(c->loop, c);
	loop_timer_cancel(c->loop, c->accept_timer);
	loop_del_fd(c->loop, c->fd);
	close(c->fd);
	/* Only remove the socket if it is still ours. */
	if (stat(c->path, &st) == 0 && st.st_dev == c->dev &&
	    st.st_ino == c->ino)
		unlink(c->path);
	while (c->nreqs > 0)
		control_req_remove(c, c->reqs[0]);
	free(c->reqs);
	for (i = 0; i < c->nsess; i++) {
		free(c->sess[i]->req_id);
		free(c->sess[i]);
	}
	free(c->sess);
	free(c->clients);
	free(c->path);
	free(c);
}

void
control_set_keep_on_disconnect(struct control *c, bool keep)
{
	c->keep = keep;
}

const char *
control_path(const struct control *c)
{
	return c->path;
}

size_t
control_clients(const struct control *c)
{
	size_t	i, n = 0;

	for (i = 0; i < c->nclients; i++)
		if (!c->clients[i]->dead)
			n++;
	return n;
}
