/*
 * proxy-conn.c - a proxy connection's bookkeeping and its ways to end (see
 * proxy-int.h): its JSON line in the log, freeing it (and its place in a
 * question being asked), answering the client in its own protocol (an
 * HTTP status with the reason, a SOCKS5 reply code, or for a relay's
 * client a reset), the deadline of
 * each phase, and the listeners paused while PROXY_MAX_CONNS are open.
 * When the last connection is freed the proxy goes back to its home CPUs
 * (steer.h).  The phases that lead a connection here are in proxy.c.
 */
#include "net/proxy-int.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "net/ask.h"

static void	proxy_question_leave(struct proxy_conn *c);

static const char *const proxy_kind_names[] = {
	"unknown", "http-connect", "http", "socks5", "tcp", "unix"
};


/*
 * Write line (len bytes) to p's log, within its bound: past it, a last
 * line says the log is full and the connection is only counted.
 */
static void
proxy_log_line(struct proxy *p, const char *line, size_t len)
{
	static const char	full[] = "{\"log_full\":true}\n";
	uint64_t		max = p->opts.log_max != 0 ? p->opts.log_max :
				    PROXY_LOG_MAX;

	if (p->log_full) {
		p->unlogged++;
		return;
	}
	if (p->log_bytes + len + strlen(full) > max) {
		p->log_full = true;
		p->unlogged++;
		line = full;
		len = strlen(full);
	}
	if (util_write_all(p->opts.log_fd, line, len) == 0)
		p->log_bytes += len;
}

void
proxy_log_end(struct proxy *p)
{
	char	line[64];
	int	n;

	if (p->opts.log_fd < 0 || p->unlogged == 0)
		return;
	n = snprintf(line, sizeof line, "{\"not_logged\":%llu}\n",
	    (unsigned long long)p->unlogged);
	(void)util_write_all(p->opts.log_fd, line, (size_t)n);
	p->unlogged = 0;
}

/* Write the connection's line to the log. */
static void
proxy_conn_log(struct proxy_conn *c, const char *decision, const char *why)
{
	struct buf	b;
	char		t[64];

	if (c->p->opts.log_fd < 0)
		return;
	memset(&b, 0, sizeof b);
	util_format_time(util_wall_us(), t, sizeof t);
	buf_adds(&b, "{\"time\":");
	buf_add_json_string(&b, t, strlen(t));
	buf_printf(&b, ",\"proto\":\"%s\",\"host\":",
	    proxy_kind_names[c->req.kind]);
	buf_add_json_string(&b, c->req.host, strlen(c->req.host));
	buf_printf(&b, ",\"port\":%u,\"address\":", (unsigned)c->req.port);
	buf_add_json_string(&b, c->addr_text, strlen(c->addr_text));
	buf_adds(&b, ",\"decision\":");
	buf_add_json_string(&b, decision, strlen(decision));
	buf_adds(&b, ",\"why\":");
	buf_add_json_string(&b, why, strlen(why));
	if (c->asked)
		buf_adds(&b, ",\"asked\":true");
	buf_printf(&b, ",\"sent\":%llu,\"received\":%llu,\"ms\":%lld}\n",
	    (unsigned long long)c->up.bytes,
	    (unsigned long long)c->down.bytes,
	    (long long)((util_wall_us() - c->started) / 1000));
	proxy_log_line(c->p, b.data, b.len);
	buf_free(&b);
}

/* Whether the listeners should take connections again. */
void
proxy_update_listeners(struct proxy *p)
{
	bool	pause = p->nconns >= PROXY_MAX_CONNS;
	int	i;

	if (pause == p->paused)
		return;
	p->paused = pause;
	for (i = 0; i < p->nlisteners; i++)
		loop_set_events(p->loop, p->listeners[i], pause ? 0 : POLLIN);
}

/* Close and free a connection (logged by the caller). */
void
proxy_conn_free(struct proxy_conn *c)
{
	struct proxy	*p = c->p;

	loop_timer_cancel(p->loop, c->timer);
	resolve_cancel(c->resolve);
	if (c->question != NULL)
		proxy_question_leave(c);
	loop_del_fd(p->loop, c->cfd);
	close(c->cfd);
	if (c->ufd >= 0) {
		loop_del_fd(p->loop, c->ufd);
		close(c->ufd);
	}
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		p->conns = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	if (--p->nconns == 0)
		steer_release(&p->steer);
	free(c->head);
	proxy_request_free(&c->req);
	relay_free(&c->up);
	relay_free(&c->down);
	free(c);
	proxy_update_listeners(p);
}

/* End a connection that was relayed or failed, logged as decided. */
void
proxy_conn_end(struct proxy_conn *c, const char *decision, const char *why)
{
	proxy_conn_log(c, decision, why);
	proxy_conn_free(c);
}

/* Write a short answer to the client, best effort (it is non-blocking). */
void
proxy_conn_answer(struct proxy_conn *c, const void *data, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		n = send(c->cfd, data, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		data = (const char *)data + n;
		len -= (size_t)n;
	}
}

/* Send a SOCKS5 reply with an unspecified bound address. */
void
proxy_socks_reply(struct proxy_conn *c, int code)
{
	unsigned char	r[10] = { 5, (unsigned char)code, 0, 1, 0, 0, 0, 0,
	    0, 0 };

	proxy_conn_answer(c, r, sizeof r);
}

/*
 * Refuse or fail a connection: the client is told why in its protocol,
 * the log says decision and why, and the connection ends.
 */
void
proxy_conn_refuse(struct proxy_conn *c, int status, int socks_code,
    const char *decision, const char *why)
{
	struct buf	 b;
	const char	*text;
	char		*body;

	if (c->req.kind == KIND_SOCKS)
		proxy_socks_reply(c, socks_code);
	else if (c->req.kind == KIND_TCP) {
		/* No protocol to say it in: a reset, as from a closed port. */
		struct linger	lg = { 1, 0 };

		(void)setsockopt(c->cfd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	} else if ((c->req.kind != KIND_UNKNOWN && c->req.kind != KIND_UNIX) ||
	    c->headlen > 0) {
		switch (status) {
		case 400:	text = "Bad Request"; break;
		case 403:	text = "Forbidden"; break;
		case 431:	text = "Request Header Fields Too Large"; break;
		case 504:	text = "Gateway Timeout"; break;
		default:	text = "Bad Gateway"; break;
		}
		body = xasprintf("ptyvisor: %s:%u: %s%s\n",
		    c->req.host[0] != '\0' ? c->req.host : "?",
		    (unsigned)c->req.port,
		    status == 403 ? "refused: " : "", why);
		memset(&b, 0, sizeof b);
		buf_printf(&b, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; "
		    "charset=utf-8\r\nContent-Length: %zu\r\nConnection: "
		    "close\r\nX-Ptyvisor-Refused: ", status, text,
		    strlen(body));
		/* One line: the reason has no CR or LF (it is ours). */
		buf_adds(&b, why);
		buf_adds(&b, "\r\n\r\n");
		buf_adds(&b, body);
		proxy_conn_answer(c, b.data, b.len);
		buf_free(&b);
		free(body);
	}
	proxy_conn_end(c, decision, why);
}


/* A phase took too long. */
void
proxy_conn_timeout(struct loop *l, void *arg)
{
	struct proxy_conn	*c = arg;

	(void)l;
	c->timer = NULL;
	switch (c->state) {
	case CONN_HEAD:
		proxy_conn_refuse(c, 400, SOCKS_FAILURE, "error",
		    "no complete request in time");
		break;
	case CONN_ASK:
		proxy_conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny", "not on "
		    "the allow list, and nobody answered in time");
		break;
	case CONN_RESOLVE:
		proxy_conn_refuse(c, 504, SOCKS_HOST_UNREACHABLE, "error",
		    "name lookup timed out");
		break;
	default:
		proxy_conn_refuse(c, 504, SOCKS_TTL_EXPIRED, "error",
		    "connection timed out");
		break;
	}
}

/* Start a phase's deadline. */
void
proxy_conn_deadline(struct proxy_conn *c)
{
	loop_timer_cancel(c->p->loop, c->timer);
	c->timer = loop_timer_add(c->p->loop, PROXY_PHASE_MS,
	    proxy_conn_timeout, c);
}


/* Take q off the proxy's questions (no new connection joins it). */
void
proxy_question_unlink(struct proxy_question *q)
{
	struct proxy_question	**pp;

	for (pp = &q->p->questions; *pp != NULL; pp = &(*pp)->next)
		if (*pp == q) {
			*pp = q->next;
			break;
		}
}

/* Free a question nobody waits for any more (withdrawn if unanswered). */
void
proxy_question_free(struct proxy_question *q)
{
	proxy_question_unlink(q);
	if (q->ask != NULL)
		q->p->opts.asker->cancel(q->ask);
	free(q);
}

/* A connection stops waiting for q; the last one to go withdraws it. */
static void
proxy_question_leave(struct proxy_conn *c)
{
	struct proxy_question	*q = c->question;
	struct proxy_conn	*o;

	c->question = NULL;
	for (o = c->p->conns; o != NULL; o = o->next)
		if (o->question == q)
			return;
	proxy_question_free(q);
}

