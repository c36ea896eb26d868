/*
 * conn.c - the way out to control clients: each client's bounded output
 * queue, broadcasts to subscribers, error events, a graceful finish (send
 * what is queued, then close) and the close itself, which kills the
 * client's sessions and withdraws its requests (unless told to keep them)
 * and tells the owner a console's client is gone; and the log hook.  The
 * lowest file of the server: it calls none of the others.
 *
 * Invariants:
 * - a client's unread output never exceeds CONTROL_OUT_MAX: a client that
 *   stops reading is dropped, the loop never blocks on it;
 * - a closed client is only marked dead at once (callbacks up the stack
 *   may still hold it); its memory is freed from a timer, outside them.
 */
#include "control/control-int.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "control/proto.h"
#include "base/util.h"

/*
 * Unsent output a client may have queued.  A shim reading normally never
 * gets near it; beyond it the client is not reading and is dropped rather
 * than letting a flooding session grow our memory without end.
 */
#define CONTROL_OUT_MAX		(2 * 1024 * 1024)
/*
 * A subscriber with this much unsent has the output of the sessions it
 * did not run left out (control_broadcast_session), rather than being
 * dropped at CONTROL_OUT_MAX: a front end following 100 floods stays; it
 * is told once it has read down to CONTROL_SUB_RESUME.
 */
#define CONTROL_SUB_SKIP	(1024 * 1024)
#define CONTROL_SUB_RESUME	(256 * 1024)
/* A client being closed after an error gets this long to read it. */
#define CONTROL_CLOSE_GRACE_MS	1000

/* Log one line through the hook. */
void
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

/* Queue a built event line for a client and try to send it. */
void
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

/* The batch's time is up: send what waits. */
static void
control_batch_timer(struct loop *l, void *arg)
{
	struct control_client	*cl = arg;

	(void)l;
	cl->batch_timer = NULL;
	control_client_flush(cl);
}

void
control_send_output(struct control_client *cl, struct buf *line)
{
	if (cl == NULL || cl->dead || line->len == 0)
		return;
	if (cl->out.len + line->len > CONTROL_OUT_MAX ||
	    cl->out.len + line->len >= CONTROL_BATCH || cl->closing) {
		control_send(cl, line);
		return;
	}
	buf_add(&cl->out, line->data, line->len);
	if (cl->batch_timer == NULL)
		cl->batch_timer = loop_timer_add(cl->c->loop,
		    CONTROL_BATCH_MS, control_batch_timer, cl);
}

/* Read again the output of cl's sessions held while it was behind. */
void
control_pipes_resume(struct control_client *cl)
{
	struct control	*c = cl->c;
	size_t		 i;

	for (i = 0; i < c->nsess; i++) {
		if (c->sess[i]->owner == cl && c->sess[i]->held) {
			c->sess[i]->held = false;
			session_stdio_hold(c->sess[i]->s, false);
		}
	}
}

/* Whether cl is one control_broadcast sends to. */
static bool
control_is_subscriber(const struct control_client *cl,
    const struct control_client *skip)
{
	return cl != skip && cl->subscribed && !cl->dead;
}

bool
control_has_subscribers(const struct control *c,
    const struct control_client *skip)
{
	size_t	i;

	for (i = 0; i < c->nclients; i++)
		if (control_is_subscriber(c->clients[i], skip))
			return true;
	return false;
}

/* Send line to every subscribed client except skip. */
void
control_broadcast(struct control *c, struct buf *line,
    struct control_client *skip)
{
	size_t	i;

	for (i = 0; i < c->nclients; i++)
		if (control_is_subscriber(c->clients[i], skip))
			control_send(c->clients[i], line);
}

/* cl's record of session's output left out, or NULL. */
static struct control_skip *
control_skip_find(struct control_client *cl, int64_t session)
{
	size_t	i;

	for (i = 0; i < cl->nskipped; i++)
		if (cl->skipped[i].session == session)
			return &cl->skipped[i];
	return NULL;
}

void
control_broadcast_session(struct control *c, struct buf *line,
    struct control_client *skip, int64_t session, size_t bytes,
    bool batched)
{
	struct control_client	*cl;
	struct control_skip	*k;
	size_t			 i;

	for (i = 0; i < c->nclients; i++) {
		cl = c->clients[i];
		if (!control_is_subscriber(cl, skip))
			continue;
		/* Once left out, until told: no gap goes unsaid. */
		k = control_skip_find(cl, session);
		if (k == NULL && cl->out.len + line->len > CONTROL_SUB_SKIP) {
			cl->skipped = xreallocarray(cl->skipped,
			    cl->nskipped + 1, sizeof *cl->skipped);
			k = &cl->skipped[cl->nskipped++];
			k->session = session;
			k->bytes = 0;
		}
		if (k != NULL) {
			k->bytes += bytes;
			continue;
		}
		if (batched)
			control_send_output(cl, line);
		else
			control_send(cl, line);
	}
}

/* k's skipped event for cl, in b (emptied first); what it says logged. */
static void
control_skip_event(struct control_client *cl, const struct control_skip *k,
    struct buf *b)
{
	b->len = 0;
	proto_ev_skipped(b, k->session, k->bytes);
	control_log(cl->c, "client %lu (pid %ld) fell behind: %llu bytes of "
	    "session %lld's output left out for it", cl->serial,
	    (long)cl->pid, (unsigned long long)k->bytes,
	    (long long)k->session);
}

void
control_skip_end(struct control *c, int64_t session)
{
	struct control_client	*cl;
	struct control_skip	*k;
	struct buf		 b = { 0 };
	size_t			 i;

	for (i = 0; i < c->nclients; i++) {
		cl = c->clients[i];
		if (cl->dead || (k = control_skip_find(cl, session)) == NULL)
			continue;
		control_skip_event(cl, k, &b);
		*k = cl->skipped[--cl->nskipped];
		control_send(cl, &b);
	}
	buf_free(&b);
}

/* Queue cl's skipped events (it has caught up); the caller sends them. */
static void
control_skip_tell(struct control_client *cl)
{
	struct buf	b = { 0 };
	size_t		i;

	for (i = 0; i < cl->nskipped; i++) {
		control_skip_event(cl, &cl->skipped[i], &b);
		buf_add(&cl->out, b.data, b.len);
	}
	buf_free(&b);
	free(cl->skipped);
	cl->skipped = NULL;
	cl->nskipped = 0;
}

/* Send an error event, and log it. */
void
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
void
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
		free(cl->skipped);
		free(cl);
		c->clients[i] = c->clients[--c->nclients];
	}
}

void
control_drop_fds(struct control_client *cl)
{
	while (cl->nfds > 0)
		close(cl->fds[--cl->nfds]);
}

/* Drop a client now: kill its sessions, withdraw its requests. */
void
control_client_close(struct control_client *cl)
{
	struct control	*c = cl->c;
	size_t		 i;

	if (cl->dead)
		return;
	cl->dead = true;
	control_drop_fds(cl);
	if (cl->console != NULL) {
		void *console = cl->console;

		cl->console = NULL;
		c->hooks.console_gone(console);
	}
	loop_del_fd(c->loop, cl->fd);
	close(cl->fd);
	cl->fd = -1;
	loop_timer_cancel(c->loop, cl->close_timer);
	cl->close_timer = NULL;
	loop_timer_cancel(c->loop, cl->hello_timer);
	cl->hello_timer = NULL;
	loop_timer_cancel(c->loop, cl->batch_timer);
	cl->batch_timer = NULL;
	for (i = 0; i < c->nsess; i++) {
		struct control_sess *cs = c->sess[i];

		if (cs->owner != cl)
			continue;
		cs->owner = NULL;
		/* Nobody feeds its stdin or waits for its pipes any more. */
		if (cs->held) {
			cs->held = false;
			session_stdio_hold(cs->s, false);
		}
		if (session_has_stdin(cs->s)) {
			char *cause = NULL;

			(void)session_stdin_write(cs->s, "", 0, true, &cause);
			free(cause);
		}
		if (!c->keep && !session_is_done(cs->s)) {
			control_log(c, "client %lu left: killing session %lu",
			    cl->serial, cs->id);
			session_cancel(cs->s, "the agent went away");
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
void
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
void
control_client_flush(struct control_client *cl)
{
	ssize_t	n;

	if (cl->batch_timer != NULL) {	/* what it waited for goes now */
		loop_timer_cancel(cl->c->loop, cl->batch_timer);
		cl->batch_timer = NULL;
	}
again:
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
	if (cl->nskipped > 0 && cl->out.len < CONTROL_SUB_RESUME) {
		control_skip_tell(cl);
		goto again;
	}
	if (cl->out.len < CONTROL_PIPE_RESUME)
		control_pipes_resume(cl);
	if (cl->closing && cl->out.len == 0) {
		control_client_close(cl);
		return;
	}
	loop_set_events(cl->c->loop, cl->fd, (cl->closing ? 0 : POLLIN) |
	    (cl->out.len > 0 ? POLLOUT : 0));
}

void
control_flush_all(struct control *c, int timeout_ms)
{
	uint64_t	 deadline = util_now_ms() + (uint64_t)timeout_ms, now;
	struct pollfd	*pfds = xcalloc(c->nclients + 1, sizeof *pfds);
	size_t		 i, n;

	for (;;) {
		n = 0;
		for (i = 0; i < c->nclients; i++) {
			struct control_client *cl = c->clients[i];

			if (cl->dead || cl->out.len == 0)
				continue;
			control_client_flush(cl);
			if (!cl->dead && cl->out.len > 0) {
				pfds[n].fd = cl->fd;
				pfds[n].events = POLLOUT;
				n++;
			}
		}
		now = util_now_ms();
		if (n == 0 || now >= deadline)
			break;
		(void)poll(pfds, n, (int)(deadline - now));
	}
	free(pfds);
}
