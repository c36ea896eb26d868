/*
 * proxy.c - the filtering HTTP and SOCKS5 proxy on the loop (see proxy.h).
 *
 * A connection goes through: HEAD (read the request, HTTP or SOCKS5, within
 * PROXY_HEAD_MAX, parsed in proxy-request.c), judged by name; RESOLVE (a
 * child process looks the name up); CONNECT (each address checked against
 * the lists, then tried in turn, non-blocking); RELAY (bytes both ways,
 * each direction a relay.h with its bounds, half-closes passed on).  A
 * refusal or failure answers the client with the reason and closes.
 * Nothing here blocks: every fd is non-blocking, every wait is on the
 * loop, and each phase before RELAY has a deadline.
 */
#include "net/proxy.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "net/ask.h"
#include "net/hostlist.h"
#include "net/proxy-int.h"
#include "net/relay.h"
#include "net/resolve.h"

/*
 * Largest request head (HTTP request line and headers, or SOCKS5 greeting
 * and request): clients send a few hundred bytes; more is refused, so a
 * client cannot make us hold much before it is judged.
 */
#define PROXY_HEAD_MAX 16384

/* Most connections at once; the listeners pause beyond (backlog waits). */
#define PROXY_MAX_CONNS 128

/* Most listening sockets. */
#define PROXY_MAX_LISTENERS 4

/*
 * How long a person has to answer for a host on neither list; then it is
 * refused (and the question withdrawn).  Agents' tools wait about as long.
 */
#define PROXY_ASK_MS 120000

/* Most hosts a person approved, kept for the sandbox's life. */
#define PROXY_MAX_APPROVED 256

/* Deadline for the request head, the lookup and the connect each, in ms. */
#define PROXY_PHASE_MS 30000

enum conn_state {
	CONN_HEAD,
	CONN_ASK,
	CONN_RESOLVE,
	CONN_CONNECT,
	CONN_RELAY
};

struct proxy_question;

struct proxy_conn {
	struct proxy		*p;
	struct proxy_conn	*prev, *next;
	int			 cfd;		/* the client (sandbox side) */
	int			 ufd;		/* upstream; -1 before */
	enum conn_state		 state;
	char			*head;		/* PROXY_HEAD_MAX bytes */
	size_t			 headlen;
	struct proxy_request	 req;		/* what the head asks for */
	struct hostlist_judgement j;
	struct resolve		*resolve;
	struct proxy_question	*question;	/* CONN_ASK: what it waits for */
	struct sockaddr_storage	 addrs[RESOLVE_MAX_ADDRS];
	int			 naddrs, next_addr;
	char			 addr_text[INET6_ADDRSTRLEN];
	char			 last_error[200];
	struct loop_timer	*timer;
	struct relay		 up;		/* client -> upstream */
	struct relay		 down;		/* upstream -> client */
	int64_t			 started;
};

struct proxy {
	struct loop		*loop;
	struct proxy_opts	 opts;
	int			 listeners[PROXY_MAX_LISTENERS];
	int			 nlisteners;
	bool			 paused;
	struct proxy_conn	*conns;
	unsigned int		 nconns;
	struct {
		char		 host[HOSTLIST_NAME_MAX + 1];
		uint16_t	 port;
	}			*approved;	/* by a person, asked */
	size_t			 napproved;
	struct proxy_question	*questions;	/* being asked */
};

/* A host being asked of a person, and who waits for the answer. */
struct proxy_question {
	struct proxy		*p;
	struct proxy_question	*next;
	char			 host[HOSTLIST_NAME_MAX + 1];
	uint16_t		 port;
	struct ask		*ask;
};

static void	conn_update(struct proxy_conn *c);
static void	conn_try_next(struct proxy_conn *c);
static void	conn_go(struct proxy_conn *c);
static void	conn_timeout(struct loop *l, void *arg);
static void	question_leave(struct proxy_conn *c);

static const char *const proxy_kind_names[] = {
	"unknown", "http-connect", "http", "socks5"
};

/* Make fd non-blocking and close-on-exec. */
static void
set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* Write the connection's line to the log. */
static void
conn_log(struct proxy_conn *c, const char *decision, const char *why)
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
	buf_printf(&b, ",\"sent\":%llu,\"received\":%llu,\"ms\":%lld}\n",
	    (unsigned long long)c->up.bytes,
	    (unsigned long long)c->down.bytes,
	    (long long)((util_wall_us() - c->started) / 1000));
	(void)util_write_all(c->p->opts.log_fd, b.data, b.len);
	buf_free(&b);
}

/* Whether the listeners should take connections again. */
static void
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
static void
conn_free(struct proxy_conn *c)
{
	struct proxy	*p = c->p;

	loop_timer_cancel(p->loop, c->timer);
	resolve_cancel(c->resolve);
	if (c->question != NULL)
		question_leave(c);
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
	p->nconns--;
	free(c->head);
	proxy_request_free(&c->req);
	relay_free(&c->up);
	relay_free(&c->down);
	free(c);
	proxy_update_listeners(p);
}

/* End a connection that was relayed or failed, logged as decided. */
static void
conn_end(struct proxy_conn *c, const char *decision, const char *why)
{
	conn_log(c, decision, why);
	conn_free(c);
}

/* Write a short answer to the client, best effort (it is non-blocking). */
static void
conn_answer(struct proxy_conn *c, const void *data, size_t len)
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
static void
socks_reply(struct proxy_conn *c, int code)
{
	unsigned char	r[10] = { 5, (unsigned char)code, 0, 1, 0, 0, 0, 0,
	    0, 0 };

	conn_answer(c, r, sizeof r);
}

/*
 * Refuse or fail a connection: the client is told why in its protocol,
 * the log says decision and why, and the connection ends.
 */
static void
conn_refuse(struct proxy_conn *c, int status, int socks_code,
    const char *decision, const char *why)
{
	struct buf	 b;
	const char	*text;
	char		*body;

	if (c->req.kind == KIND_SOCKS)
		socks_reply(c, socks_code);
	else if (c->req.kind != KIND_UNKNOWN || c->headlen > 0) {
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
		conn_answer(c, b.data, b.len);
		buf_free(&b);
		free(body);
	}
	conn_end(c, decision, why);
}

/* A phase took too long. */
static void
conn_timeout(struct loop *l, void *arg)
{
	struct proxy_conn	*c = arg;

	(void)l;
	c->timer = NULL;
	switch (c->state) {
	case CONN_HEAD:
		conn_refuse(c, 400, SOCKS_FAILURE, "error",
		    "no complete request in time");
		break;
	case CONN_ASK:
		conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny", "not on the "
		    "allow list, and nobody answered in time");
		break;
	case CONN_RESOLVE:
		conn_refuse(c, 504, SOCKS_HOST_UNREACHABLE, "error",
		    "name lookup timed out");
		break;
	default:
		conn_refuse(c, 504, SOCKS_TTL_EXPIRED, "error",
		    "connection timed out");
		break;
	}
}

/* Start a phase's deadline. */
static void
conn_deadline(struct proxy_conn *c)
{
	loop_timer_cancel(c->p->loop, c->timer);
	c->timer = loop_timer_add(c->p->loop, PROXY_PHASE_MS, conn_timeout, c);
}

/* Addresses looked up (or not). */
static void
conn_resolved(void *arg, const struct sockaddr_storage *addrs, int n,
    const char *error)
{
	struct proxy_conn	*c = arg;

	c->resolve = NULL;
	if (n == 0) {
		char	why[200];

		snprintf(why, sizeof why, "name lookup failed: %s", error);
		conn_refuse(c, 502, SOCKS_HOST_UNREACHABLE, "error", why);
		return;
	}
	memcpy(c->addrs, addrs, (size_t)n * sizeof *addrs);
	c->naddrs = n;
	c->next_addr = 0;
	c->state = CONN_CONNECT;
	conn_deadline(c);
	conn_try_next(c);
}

/* The host and port a person approved for this proxy's life, or not. */
static bool
proxy_is_approved(const struct proxy *p, const char *host, uint16_t port)
{
	size_t	i;

	for (i = 0; i < p->napproved; i++)
		if (p->approved[i].port == port &&
		    strcmp(p->approved[i].host, host) == 0)
			return true;
	return false;
}

/* Free a question nobody waits for any more (withdrawn if unanswered). */
static void
question_free(struct proxy_question *q)
{
	struct proxy		 *p = q->p;
	struct proxy_question	**pp;

	for (pp = &p->questions; *pp != NULL; pp = &(*pp)->next)
		if (*pp == q) {
			*pp = q->next;
			break;
		}
	ask_cancel(q->ask);
	free(q);
}

/* A connection stops waiting for q; the last one to go withdraws it. */
static void
question_leave(struct proxy_conn *c)
{
	struct proxy_question	*q = c->question;
	struct proxy_conn	*o;

	c->question = NULL;
	for (o = c->p->conns; o != NULL; o = o->next)
		if (o->question == q)
			return;
	question_free(q);
}

/* A person answered: every connection waiting for that host goes on. */
static void
question_answered(void *arg, bool approved, const char *why)
{
	struct proxy_question	*q = arg;
	struct proxy		*p = q->p;
	struct proxy_conn	*c;

	q->ask = NULL;
	/* Asked once: the host stays allowed while the sandbox lives. */
	if (approved && !proxy_is_approved(p, q->host, q->port) &&
	    p->napproved < PROXY_MAX_APPROVED) {
		p->approved = xreallocarray(p->approved, p->napproved + 1,
		    sizeof *p->approved);
		snprintf(p->approved[p->napproved].host,
		    sizeof p->approved[p->napproved].host, "%s", q->host);
		p->approved[p->napproved++].port = q->port;
	}
	/* Each one changes the list: start over until none waits. */
again:
	for (c = p->conns; c != NULL; c = c->next) {
		if (c->question != q)
			continue;
		c->question = NULL;
		if (!approved)
			conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny", why);
		else {
			c->j.verdict = HOSTLIST_ALLOW;
			snprintf(c->j.why, sizeof c->j.why, "%s", why);
			conn_go(c);
		}
		goto again;
	}
	question_free(q);
}

/*
 * A host on neither list: allowed already by a person, else asked when
 * there is a server to ask (once, however many connections wait for the
 * same host and port), else refused.
 */
static void
conn_ask(struct proxy_conn *c)
{
	struct proxy_question	*q;
	char			*cause = NULL, why[sizeof c->j.why + 64];

	if (proxy_is_approved(c->p, c->req.host, c->req.port)) {
		c->j.verdict = HOSTLIST_ALLOW;
		snprintf(c->j.why, sizeof c->j.why, "approved earlier in "
		    "this session");
		conn_go(c);
		return;
	}
	if (c->p->opts.ask_socket == NULL) {
		snprintf(why, sizeof why, "%s (nobody to ask here: add it "
		    "with --network-allow)", c->j.why);
		conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny", why);
		return;
	}
	c->state = CONN_ASK;
	loop_timer_cancel(c->p->loop, c->timer);
	c->timer = loop_timer_add(c->p->loop, PROXY_ASK_MS, conn_timeout, c);
	for (q = c->p->questions; q != NULL; q = q->next)
		if (q->port == c->req.port &&
		    strcmp(q->host, c->req.host) == 0) {
			c->question = q;
			return;
		}
	q = xcalloc(1, sizeof *q);
	q->p = c->p;
	snprintf(q->host, sizeof q->host, "%s", c->req.host);
	q->port = c->req.port;
	q->ask = ask_start(c->p->loop, c->p->opts.ask_socket, c->req.host,
	    c->req.port, "a sandboxed command connects to a host on neither "
	    "list", question_answered, q, &cause);
	if (q->ask == NULL) {
		free(q);
		snprintf(why, sizeof why, "%s (%s)", c->j.why, cause);
		free(cause);
		conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny", why);
		return;
	}
	q->next = c->p->questions;
	c->p->questions = q;
	c->question = q;
}

/* The target is judged; go on to resolve, or ask, or refuse. */
static void
conn_judged(struct proxy_conn *c)
{
	hostlist_judge(c->p->opts.hosts, c->req.host, c->req.port, &c->j);
	if (c->j.verdict == HOSTLIST_DENY) {
		conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny", c->j.why);
		return;
	}
	/* The client waits for our answer: nothing to read until then. */
	loop_set_events(c->p->loop, c->cfd, 0);
	if (c->j.verdict == HOSTLIST_ASK) {
		conn_ask(c);
		return;
	}
	conn_go(c);
}

/* Allowed: look the name up (an address needs none), then connect. */
static void
conn_go(struct proxy_conn *c)
{
	struct sockaddr_storage	 ss;
	char			*cause = NULL;
	char			 error[120];

	if (c->j.is_literal) {
		/* An address: nothing to look up (and nobody asked). */
		if (resolve_now(c->req.host, c->req.port, NULL, &ss, 1, error,
		    sizeof error) != 1) {
			conn_refuse(c, 400, SOCKS_BAD_ADDRESS, "error", error);
			return;
		}
		conn_resolved(c, &ss, 1, NULL);
		return;
	}
	c->state = CONN_RESOLVE;
	conn_deadline(c);
	c->resolve = resolve_start(c->p->loop, c->req.host, c->req.port,
	    c->p->opts.hosts_file, conn_resolved, c, &cause);
	if (c->resolve == NULL) {
		conn_refuse(c, 502, SOCKS_FAILURE, "error", cause);
		free(cause);
	}
}

/* The client end is connected upstream: answer it and start relaying. */
static void
conn_connected(struct proxy_conn *c)
{
	static const char	ok[] = "HTTP/1.1 200 Connection established\r\n"
	    "\r\n";

	loop_timer_cancel(c->p->loop, c->timer);
	c->timer = NULL;
	c->state = CONN_RELAY;
	relay_init(&c->up, c->req.forwardlen + c->headlen);
	relay_init(&c->down, 0);
	if (c->req.kind == KIND_CONNECT)
		conn_answer(c, ok, sizeof ok - 1);
	else if (c->req.kind == KIND_SOCKS)
		socks_reply(c, SOCKS_OK);
	/* What must go upstream first: the rewritten head, then the rest. */
	if (c->req.forwardlen > 0) {
		memcpy(c->up.buf, c->req.forward, c->req.forwardlen);
		c->up.len = c->req.forwardlen;
	}
	if (c->headlen > 0 && c->up.len + c->headlen <= c->up.cap) {
		memcpy(c->up.buf + c->up.len, c->head, c->headlen);
		c->up.len += c->headlen;
	}
	free(c->head);
	c->head = NULL;
	c->headlen = 0;
	conn_update(c);
}

static void	conn_on_upstream(struct loop *, int, short, void *);

/* Try the next address that the lists allow. */
static void
conn_try_next(struct proxy_conn *c)
{
	struct sockaddr_storage	*ss;
	socklen_t		 len;
	char			 why[200];
	int			 fd, one = 1;

	if (c->ufd >= 0) {
		loop_del_fd(c->p->loop, c->ufd);
		close(c->ufd);
		c->ufd = -1;
	}
	while (c->next_addr < c->naddrs) {
		ss = &c->addrs[c->next_addr++];
		if (!hostlist_address_ok(c->p->opts.hosts, &c->j,
		    (struct sockaddr *)ss, c->req.port, why, sizeof why)) {
			snprintf(c->last_error, sizeof c->last_error, "%s",
			    why);
			continue;
		}
		if (ss->ss_family == AF_INET)
			inet_ntop(AF_INET, &((struct sockaddr_in *)ss)->sin_addr,
			    c->addr_text, sizeof c->addr_text);
		else
			inet_ntop(AF_INET6,
			    &((struct sockaddr_in6 *)ss)->sin6_addr,
			    c->addr_text, sizeof c->addr_text);
		fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
		if (fd < 0) {
			snprintf(c->last_error, sizeof c->last_error,
			    "socket: %s", strerror(errno));
			continue;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		len = ss->ss_family == AF_INET ? sizeof(struct sockaddr_in) :
		    sizeof(struct sockaddr_in6);
		if (connect(fd, (struct sockaddr *)ss, len) != 0 &&
		    errno != EINPROGRESS) {
			snprintf(c->last_error, sizeof c->last_error,
			    "connect %s: %s", c->addr_text, strerror(errno));
			close(fd);
			continue;
		}
		c->ufd = fd;
		loop_add_fd(c->p->loop, fd, POLLOUT, LOOP_PRIO_NORMAL,
		    conn_on_upstream, c);
		return;
	}
	/* Nothing left: every address refused or failed. */
	if (strstr(c->last_error, "resolves to") != NULL)
		conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny", c->last_error);
	else
		conn_refuse(c, 502, SOCKS_REFUSED, "error", c->last_error);
}

/* Watch each fd for what its directions can do now. */
static void
conn_update(struct proxy_conn *c)
{
	short	cev = 0, uev = 0;

	if (c->state != CONN_RELAY)
		return;
	if (relay_has_room(&c->up))
		cev |= POLLIN;
	if (relay_pending(&c->down) > 0)
		cev |= POLLOUT;
	if (relay_has_room(&c->down))
		uev |= POLLIN;
	if (relay_pending(&c->up) > 0)
		uev |= POLLOUT;
	loop_set_events(c->p->loop, c->cfd, cev);
	loop_set_events(c->p->loop, c->ufd, uev);
}

/* Relay after an event on either side. */
static void
conn_relay(struct proxy_conn *c)
{
	if (relay_pump(&c->up, c->cfd, c->ufd) != 0 ||
	    relay_pump(&c->down, c->ufd, c->cfd) != 0) {
		conn_end(c, "allow", c->j.why);
		return;
	}
	if (c->up.shut && c->down.shut) {
		conn_end(c, "allow", c->j.why);
		return;
	}
	conn_update(c);
}

/* Upstream: connected (or not), or relaying. */
static void
conn_on_upstream(struct loop *l, int fd, short revents, void *arg)
{
	struct proxy_conn	*c = arg;
	socklen_t		 len = sizeof(int);
	int			 err = 0;

	(void)l;
	(void)revents;
	if (c->state == CONN_RELAY) {
		conn_relay(c);
		return;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
		err = errno;
	if (err != 0) {
		snprintf(c->last_error, sizeof c->last_error, "connect %s: %s",
		    c->addr_text, strerror(err));
		conn_try_next(c);
		return;
	}
	conn_connected(c);
}

/* Client: the request head arrives, or relaying. */
static void
conn_on_client(struct loop *l, int fd, short revents, void *arg)
{
	struct proxy_conn	*c = arg;
	enum proxy_parsed	 r;
	ssize_t			 n;

	(void)l;
	(void)revents;
	if (c->state == CONN_RELAY) {
		conn_relay(c);
		return;
	}
	if (c->headlen == PROXY_HEAD_MAX) {
		conn_refuse(c, 431, SOCKS_FAILURE, "error", "request too "
		    "large");
		return;
	}
	n = read(fd, c->head + c->headlen, PROXY_HEAD_MAX - c->headlen);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		if (c->headlen > 0 || n < 0)
			conn_end(c, "error", "the client left before its "
			    "request was complete");
		else
			conn_free(c);	/* a bare connect: nothing to log */
		return;
	}
	c->headlen += (size_t)n;
	r = proxy_request_parse(&c->req, c->head, &c->headlen, PROXY_HEAD_MAX);
	if (c->req.answerlen > 0)
		conn_answer(c, c->req.answer, c->req.answerlen);
	if (r == PROXY_PARSE_MORE)
		return;
	if (r == PROXY_PARSE_BAD) {
		if (c->req.socks_code == SOCKS_NO_REPLY)
			conn_end(c, "error", c->req.why);
		else
			conn_refuse(c, c->req.status, c->req.socks_code,
			    "error", c->req.why);
		return;
	}
	conn_judged(c);
}

/* A listener has a connection. */
static void
proxy_on_accept(struct loop *l, int fd, short revents, void *arg)
{
	struct proxy		*p = arg;
	struct proxy_conn	*c;
	int			 cfd, one = 1;

	(void)revents;
	if (p->nconns >= PROXY_MAX_CONNS)
		return;
	cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0)
		return;
	setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	c = xcalloc(1, sizeof *c);
	c->up.pipe[0] = c->up.pipe[1] = c->down.pipe[0] = c->down.pipe[1] = -1;
	c->p = p;
	c->cfd = cfd;
	c->ufd = -1;
	c->head = xmalloc(PROXY_HEAD_MAX);
	c->started = util_wall_us();
	c->next = p->conns;
	if (p->conns != NULL)
		p->conns->prev = c;
	p->conns = c;
	p->nconns++;
	loop_add_fd(l, cfd, POLLIN, LOOP_PRIO_NORMAL, conn_on_client, c);
	conn_deadline(c);
	proxy_update_listeners(p);
}

struct proxy *
proxy_new(struct loop *l, const struct proxy_opts *opts)
{
	struct proxy	*p = xcalloc(1, sizeof *p);

	p->loop = l;
	p->opts = *opts;
	return p;
}

void
proxy_add_listener(struct proxy *p, int fd)
{
	if (p->nlisteners == PROXY_MAX_LISTENERS) {
		close(fd);
		return;
	}
	set_nonblock(fd);
	p->listeners[p->nlisteners++] = fd;
	loop_add_fd(p->loop, fd, p->paused ? 0 : POLLIN, LOOP_PRIO_NORMAL,
	    proxy_on_accept, p);
}

unsigned int
proxy_connections(const struct proxy *p)
{
	return p->nconns;
}

void
proxy_free(struct proxy *p)
{
	int	i;

	if (p == NULL)
		return;
	while (p->conns != NULL)
		conn_end(p->conns, p->conns->state == CONN_RELAY ? "allow" :
		    "error", "cut: the sandbox ended");
	for (i = 0; i < p->nlisteners; i++) {
		loop_del_fd(p->loop, p->listeners[i]);
		close(p->listeners[i]);
	}
	free(p->approved);
	free(p);
}
