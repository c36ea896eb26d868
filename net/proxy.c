/*
 * proxy.c - the filtering HTTP and SOCKS5 proxy on the loop (see proxy.h).
 *
 * A connection goes through: HEAD (read the request, HTTP or SOCKS5, within
 * PROXY_HEAD_MAX), judged by name; RESOLVE (a child process looks the name
 * up); CONNECT (each address checked against the lists, then tried in
 * turn, non-blocking); RELAY (bytes both ways through two bounded buffers,
 * half-closes passed on).  A refusal or failure answers the client with the
 * reason and closes.  Nothing here blocks: every fd is non-blocking, every
 * wait is on the loop, and each phase before RELAY has a deadline.
 */
#include "net/proxy.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "net/ask.h"
#include "net/hostlist.h"
#include "net/resolve.h"

/*
 * Largest request head (HTTP request line and headers, or SOCKS5 greeting
 * and request): clients send a few hundred bytes; more is refused, so a
 * client cannot make us hold much before it is judged.
 */
#define PROXY_HEAD_MAX 16384

/*
 * Bytes buffered per direction of a relayed connection: large enough that
 * a bulk transfer moves in few system calls, small enough that 2 x 256 KiB
 * x PROXY_MAX_CONNS stays bounded (64 MiB at most).
 */
#define PROXY_BUF (256 * 1024)

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

enum conn_kind {
	KIND_UNKNOWN,
	KIND_CONNECT,	/* HTTP CONNECT */
	KIND_HTTP,	/* plain HTTP, absolute form */
	KIND_SOCKS	/* SOCKS5 CONNECT */
};

/*
 * One direction of a relayed connection: bytes read from src for dst.
 * They move through a pipe with splice(2), never copied to us; buf holds
 * what must go first (a rewritten request head), or everything when no
 * pipe could be made (then read and written, PROXY_BUF at a time).
 */
struct conn_dir {
	char		*buf;
	size_t		 off, len, cap;
	int		 pipe[2];	/* -1: no pipe, buf only */
	size_t		 inpipe;	/* bytes in the pipe */
	size_t		 pipecap;	/* its capacity */
	bool		 eof;		/* src said EOF */
	bool		 shut;		/* dst shut for writing */
	uint64_t	 bytes;		/* written to dst */
};

struct proxy_question;

struct proxy_conn {
	struct proxy		*p;
	struct proxy_conn	*prev, *next;
	int			 cfd;		/* the client (sandbox side) */
	int			 ufd;		/* upstream; -1 before */
	enum conn_state		 state;
	enum conn_kind		 kind;
	char			*head;		/* PROXY_HEAD_MAX bytes */
	size_t			 headlen;
	bool			 socks_greeted;
	char			 host[HOSTLIST_NAME_MAX + 1];
	uint16_t		 port;
	struct hostlist_judgement j;
	char			*forward;	/* HTTP: the head rewritten */
	size_t			 forwardlen;
	struct resolve		*resolve;
	struct proxy_question	*question;	/* CONN_ASK: what it waits for */
	struct sockaddr_storage	 addrs[RESOLVE_MAX_ADDRS];
	int			 naddrs, next_addr;
	char			 addr_text[INET6_ADDRSTRLEN];
	char			 last_error[200];
	struct loop_timer	*timer;
	struct conn_dir		 up;		/* client -> upstream */
	struct conn_dir		 down;		/* upstream -> client */
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
	buf_printf(&b, ",\"proto\":\"%s\",\"host\":", proxy_kind_names[c->kind]);
	buf_add_json_string(&b, c->host, strlen(c->host));
	buf_printf(&b, ",\"port\":%u,\"address\":", (unsigned)c->port);
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

/*
 * Bytes a direction's pipe may hold: as much as its buffer would, so a
 * bulk transfer moves in few system calls, bounded per connection.
 */
#define PROXY_PIPE (1024 * 1024)

/* Set a direction up for relaying, with a pipe when one can be made. */
static void
dir_init(struct conn_dir *d, size_t first)
{
	int	size;

	d->pipe[0] = d->pipe[1] = -1;
	if (pipe2(d->pipe, O_CLOEXEC | O_NONBLOCK) == 0) {
		fcntl(d->pipe[1], F_SETPIPE_SZ, PROXY_PIPE);
		size = fcntl(d->pipe[1], F_GETPIPE_SZ);
		d->pipecap = size > 0 ? (size_t)size : 65536;
		d->cap = first;
	} else
		d->cap = PROXY_BUF;
	d->buf = d->cap > 0 ? xmalloc(d->cap) : NULL;
}

/* Release a direction's buffer and pipe. */
static void
dir_free(struct conn_dir *d)
{
	free(d->buf);
	if (d->pipe[0] >= 0) {
		close(d->pipe[0]);
		close(d->pipe[1]);
	}
}

/* Bytes waiting for dst. */
static size_t
dir_pending(const struct conn_dir *d)
{
	return d->len - d->off + d->inpipe;
}

/* Whether src may be read now. */
static bool
dir_has_room(const struct conn_dir *d)
{
	if (d->eof)
		return false;
	if (d->pipe[0] >= 0)
		return d->inpipe < d->pipecap;
	return d->len < d->cap;
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
	free(c->forward);
	dir_free(&c->up);
	dir_free(&c->down);
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

/* SOCKS5 reply codes. */
#define SOCKS_OK		0x00
#define SOCKS_FAILURE		0x01
#define SOCKS_NOT_ALLOWED	0x02
#define SOCKS_HOST_UNREACHABLE	0x04
#define SOCKS_REFUSED		0x05
#define SOCKS_TTL_EXPIRED	0x06
#define SOCKS_BAD_COMMAND	0x07
#define SOCKS_BAD_ADDRESS	0x08

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

	if (c->kind == KIND_SOCKS)
		socks_reply(c, socks_code);
	else if (c->kind != KIND_UNKNOWN || c->headlen > 0) {
		switch (status) {
		case 400:	text = "Bad Request"; break;
		case 403:	text = "Forbidden"; break;
		case 431:	text = "Request Header Fields Too Large"; break;
		case 504:	text = "Gateway Timeout"; break;
		default:	text = "Bad Gateway"; break;
		}
		body = xasprintf("ptyvisor: %s:%u: %s%s\n",
		    c->host[0] != '\0' ? c->host : "?", (unsigned)c->port,
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

	if (proxy_is_approved(c->p, c->host, c->port)) {
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
		if (q->port == c->port && strcmp(q->host, c->host) == 0) {
			c->question = q;
			return;
		}
	q = xcalloc(1, sizeof *q);
	q->p = c->p;
	snprintf(q->host, sizeof q->host, "%s", c->host);
	q->port = c->port;
	q->ask = ask_start(c->p->loop, c->p->opts.ask_socket, c->host,
	    c->port, "a sandboxed command connects to a host on neither "
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
	hostlist_judge(c->p->opts.hosts, c->host, c->port, &c->j);
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
		if (resolve_now(c->host, c->port, NULL, &ss, 1, error,
		    sizeof error) != 1) {
			conn_refuse(c, 400, SOCKS_BAD_ADDRESS, "error", error);
			return;
		}
		conn_resolved(c, &ss, 1, NULL);
		return;
	}
	c->state = CONN_RESOLVE;
	conn_deadline(c);
	c->resolve = resolve_start(c->p->loop, c->host, c->port,
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
	dir_init(&c->up, c->forwardlen + c->headlen);
	dir_init(&c->down, 0);
	if (c->kind == KIND_CONNECT)
		conn_answer(c, ok, sizeof ok - 1);
	else if (c->kind == KIND_SOCKS)
		socks_reply(c, SOCKS_OK);
	/* What must go upstream first: the rewritten head, then the rest. */
	if (c->forwardlen > 0) {
		memcpy(c->up.buf, c->forward, c->forwardlen);
		c->up.len = c->forwardlen;
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
		    (struct sockaddr *)ss, c->port, why, sizeof why)) {
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

/* Move what can move in one direction; -1 when the connection broke. */
static int
dir_pump(struct conn_dir *d, int src, int dst)
{
	ssize_t	n;
	int	rounds;
	bool	moved;

	/* A few rounds per event: bounded work per turn, few polls. */
	for (rounds = 0; rounds < 32; rounds++) {
		moved = false;
		/* What must go first, or everything without a pipe. */
		if (d->len > d->off) {
			n = send(dst, d->buf + d->off, d->len - d->off,
			    MSG_NOSIGNAL | MSG_DONTWAIT);
			if (n > 0) {
				d->off += (size_t)n;
				d->bytes += (uint64_t)n;
				moved = true;
			} else if (n < 0 && errno != EAGAIN &&
			    errno != EINTR)
				return -1;
			if (d->off == d->len)
				d->off = d->len = 0;
		}
		if (dir_has_room(d)) {
			if (d->pipe[0] >= 0)
				n = splice(src, NULL, d->pipe[1], NULL,
				    d->pipecap - d->inpipe, SPLICE_F_MOVE |
				    SPLICE_F_NONBLOCK);
			else
				n = read(src, d->buf + d->len, d->cap - d->len);
			if (n > 0) {
				if (d->pipe[0] >= 0)
					d->inpipe += (size_t)n;
				else
					d->len += (size_t)n;
				moved = true;
			} else if (n == 0)
				d->eof = true;
			else if (errno != EAGAIN && errno != EINTR)
				return -1;
		}
		/* The pipe follows what went first. */
		if (d->inpipe > 0 && d->len == d->off) {
			n = splice(d->pipe[0], NULL, dst, NULL, d->inpipe,
			    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (n > 0) {
				d->inpipe -= (size_t)n;
				d->bytes += (uint64_t)n;
				moved = true;
			} else if (n < 0 && errno != EAGAIN &&
			    errno != EINTR)
				return -1;
		}
		if (!moved)
			break;
	}
	if (d->eof && dir_pending(d) == 0 && !d->shut) {
		shutdown(dst, SHUT_WR);
		d->shut = true;
	}
	return 0;
}

/* Watch each fd for what its directions can do now. */
static void
conn_update(struct proxy_conn *c)
{
	short	cev = 0, uev = 0;

	if (c->state != CONN_RELAY)
		return;
	if (dir_has_room(&c->up))
		cev |= POLLIN;
	if (dir_pending(&c->down) > 0)
		cev |= POLLOUT;
	if (dir_has_room(&c->down))
		uev |= POLLIN;
	if (dir_pending(&c->up) > 0)
		uev |= POLLOUT;
	loop_set_events(c->p->loop, c->cfd, cev);
	loop_set_events(c->p->loop, c->ufd, uev);
}

/* Relay after an event on either side. */
static void
conn_relay(struct proxy_conn *c)
{
	if (dir_pump(&c->up, c->cfd, c->ufd) != 0 ||
	    dir_pump(&c->down, c->ufd, c->cfd) != 0) {
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

/* Parse "host:port" or "[v6]:port" (port required unless defport). */
static int
parse_authority(const char *s, size_t len, uint16_t defport, char *host,
    size_t hostlen, uint16_t *port)
{
	char		 a[HOSTLIST_NAME_MAX + 16], *colon, *end;
	unsigned long	 v;

	if (len == 0 || len >= sizeof a || memchr(s, '@', len) != NULL)
		return -1;
	memcpy(a, s, len);
	a[len] = '\0';
	if (a[0] == '[') {
		if ((end = strchr(a, ']')) == NULL)
			return -1;
		colon = end[1] == ':' ? end + 1 : NULL;
		if (end[1] != '\0' && colon == NULL)
			return -1;
		end[1] = '\0';
	} else {
		colon = strrchr(a, ':');
		if (colon != NULL && strchr(a, ':') != colon)
			return -1;	/* bare IPv6 without brackets */
	}
	if (colon != NULL) {
		*colon = '\0';
		if (colon[1] < '0' || colon[1] > '9')
			return -1;
		v = strtoul(colon + 1, &end, 10);
		if (*end != '\0' || v == 0 || v > 65535)
			return -1;
		*port = (uint16_t)v;
	} else if (defport != 0)
		*port = defport;
	else
		return -1;
	return hostlist_normalize(a, host, hostlen);
}

/* Whether header line (name: value) is called name. */
static bool
is_header(const char *line, size_t len, const char *name)
{
	size_t	n = strlen(name);

	return len > n && line[n] == ':' && strncasecmp(line, name, n) == 0;
}

/*
 * A complete HTTP head of len bytes (up to and with the empty line): find
 * the target, build what goes upstream.  Returns 0, or -1 after refusing.
 */
static int
http_parse(struct proxy_conn *c, size_t len)
{
	char		*head = c->head, *sp1, *sp2, *eol, *line, *target;
	char		*authority = NULL, *path = "/";
	size_t		 alen = 0, llen, vlen;
	struct buf	 out;
	bool		 is_connect;

	eol = memmem(head, len, "\r\n", 2);
	sp1 = memchr(head, ' ', (size_t)(eol - head));
	sp2 = sp1 != NULL ? memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1)) :
	    NULL;
	if (sp1 == NULL || sp2 == NULL || sp1 == head ||
	    (size_t)(eol - sp2 - 1) != 8 || strncmp(sp2 + 1, "HTTP/1.", 7) !=
	    0) {
		conn_refuse(c, 400, 0, "error", "not an HTTP proxy request");
		return -1;
	}
	target = sp1 + 1;
	is_connect = (size_t)(sp1 - head) == 7 &&
	    strncmp(head, "CONNECT", 7) == 0;
	if (is_connect) {
		c->kind = KIND_CONNECT;
		if (parse_authority(target, (size_t)(sp2 - target), 0,
		    c->host, sizeof c->host, &c->port) != 0) {
			conn_refuse(c, 400, 0, "error", "bad CONNECT target "
			    "(HOST:PORT)");
			return -1;
		}
		/* Nothing of the head goes upstream; bytes after it do. */
		memmove(head, head + len, c->headlen - len);
		c->headlen -= len;
		return 0;
	}
	c->kind = KIND_HTTP;
	if ((size_t)(sp2 - target) > 7 && strncasecmp(target, "http://", 7) ==
	    0) {
		authority = target + 7;
		alen = strcspn(authority, "/? ");
		if (authority + alen > sp2)
			alen = (size_t)(sp2 - authority);
		path = authority + alen;
	} else {
		conn_refuse(c, 400, 0, "error", (size_t)(sp2 - target) > 8 &&
		    strncasecmp(target, "https://", 8) == 0 ?
		    "https:// needs CONNECT (set HTTPS_PROXY)" :
		    "the target must be an absolute http:// URL");
		return -1;
	}
	if (parse_authority(authority, alen, 80, c->host, sizeof c->host,
	    &c->port) != 0) {
		conn_refuse(c, 400, 0, "error", "bad host in the URL");
		return -1;
	}
	/*
	 * Upstream gets the origin form, the URL's own Host, and one request
	 * per connection: a second request on a kept-alive connection would
	 * reach this host whatever it named.
	 */
	memset(&out, 0, sizeof out);
	buf_add(&out, head, (size_t)(sp1 - head + 1));
	if (path == sp2 || *path == '?')
		buf_addc(&out, '/');
	buf_add(&out, path, (size_t)(eol - path));
	buf_adds(&out, "\r\nHost: ");
	buf_add(&out, authority, alen);
	buf_adds(&out, "\r\nConnection: close\r\n");
	for (line = eol + 2; line < head + len - 2; line = eol + 2) {
		eol = memmem(line, (size_t)(head + len - line), "\r\n", 2);
		llen = (size_t)(eol - line);
		if (is_header(line, llen, "Host") ||
		    is_header(line, llen, "Connection") ||
		    is_header(line, llen, "Keep-Alive") ||
		    is_header(line, llen, "Proxy-Connection") ||
		    is_header(line, llen, "Proxy-Authorization"))
			continue;
		vlen = llen;
		buf_add(&out, line, vlen);
		buf_adds(&out, "\r\n");
	}
	buf_adds(&out, "\r\n");
	c->forward = out.data;
	c->forwardlen = out.len;
	memmove(head, head + len, c->headlen - len);
	c->headlen -= len;
	return 0;
}

/*
 * SOCKS5: the greeting, then the request.  Returns 1 when the target is
 * known, 0 to wait for more, -1 after refusing.
 */
static int
socks_parse(struct proxy_conn *c)
{
	unsigned char	*h = (unsigned char *)c->head;
	unsigned char	 choice[2] = { 5, 0xff };
	size_t		 need, i;
	char		 addr[INET6_ADDRSTRLEN], name[256];

	c->kind = KIND_SOCKS;
	if (!c->socks_greeted) {
		if (c->headlen < 2 || c->headlen < 2 + (size_t)h[1])
			return 0;
		for (i = 0; i < h[1]; i++)
			if (h[2 + i] == 0)
				choice[1] = 0;
		conn_answer(c, choice, sizeof choice);
		if (choice[1] != 0) {
			conn_end(c, "error", "SOCKS5 without the no-"
			    "authentication method");
			return -1;
		}
		need = 2 + (size_t)h[1];
		memmove(h, h + need, c->headlen - need);
		c->headlen -= need;
		c->socks_greeted = true;
	}
	if (c->headlen < 5)
		return 0;
	if (h[0] != 5) {
		socks_reply(c, SOCKS_FAILURE);
		conn_end(c, "error", "bad SOCKS5 request");
		return -1;
	}
	switch (h[3]) {
	case 1:	need = 4 + 4 + 2; break;
	case 3:	need = 4 + 1 + (size_t)h[4] + 2; break;
	case 4:	need = 4 + 16 + 2; break;
	default:
		socks_reply(c, SOCKS_BAD_ADDRESS);
		conn_end(c, "error", "SOCKS5 address type not supported");
		return -1;
	}
	if (c->headlen < need)
		return 0;
	if (h[1] != 1) {
		socks_reply(c, SOCKS_BAD_COMMAND);
		conn_end(c, "error", "only SOCKS5 CONNECT is supported");
		return -1;
	}
	c->port = (uint16_t)(h[need - 2] << 8 | h[need - 1]);
	if (h[3] == 1)
		inet_ntop(AF_INET, h + 4, addr, sizeof addr);
	else if (h[3] == 4)
		inet_ntop(AF_INET6, h + 4, addr, sizeof addr);
	if (h[3] == 3) {
		memcpy(name, h + 5, h[4]);
		name[h[4]] = '\0';
	} else
		snprintf(name, sizeof name, "%s", addr);
	if (strlen(name) != (h[3] == 3 ? h[4] : strlen(name)) ||
	    hostlist_normalize(name, c->host, sizeof c->host) != 0) {
		socks_reply(c, SOCKS_BAD_ADDRESS);
		conn_end(c, "error", "bad SOCKS5 host name");
		return -1;
	}
	memmove(h, h + need, c->headlen - need);
	c->headlen -= need;
	return 1;
}

/* Client: the request head arrives, or relaying. */
static void
conn_on_client(struct loop *l, int fd, short revents, void *arg)
{
	struct proxy_conn	*c = arg;
	ssize_t			 n;
	char			*end;
	int			 r;

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
	if ((unsigned char)c->head[0] == 5) {
		if ((r = socks_parse(c)) <= 0)
			return;
		conn_judged(c);
		return;
	}
	end = memmem(c->head, c->headlen, "\r\n\r\n", 4);
	if (end == NULL) {
		if (c->headlen == PROXY_HEAD_MAX)
			conn_refuse(c, 431, 0, "error", "request head too "
			    "large");
		return;
	}
	if (http_parse(c, (size_t)(end + 4 - c->head)) != 0)
		return;
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

/* A message of one byte with room for one fd, to send or receive. */
struct fd_message {
	struct msghdr	msg;
	struct iovec	iov;
	char		byte;
	union {
		char		buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr	align;
	} u;
};

/* Point m's header at its own byte and control buffer. */
static void
fd_message_init(struct fd_message *m)
{
	memset(m, 0, sizeof *m);
	m->byte = 'L';
	m->iov.iov_base = &m->byte;
	m->iov.iov_len = 1;
	m->msg.msg_iov = &m->iov;
	m->msg.msg_iovlen = 1;
	m->msg.msg_control = m->u.buf;
	m->msg.msg_controllen = sizeof m->u.buf;
}

int
proxy_send_listener(int channel, int fd)
{
	struct fd_message	 m;
	struct msghdr		 msg;
	struct cmsghdr		*cmsg;

	fd_message_init(&m);
	msg = m.msg;
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof fd);
	return sendmsg(channel, &msg, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* State of proxy_serve's loop. */
struct proxy_server {
	struct proxy	*proxy;
	int		 channel;
};

/* A listener arrives on the channel, or the channel ends. */
static void
serve_on_channel(struct loop *l, int fd, short revents, void *arg)
{
	struct proxy_server	*s = arg;
	struct fd_message	 m;
	struct msghdr		 msg;
	struct cmsghdr		*cmsg;
	ssize_t			 n;
	int			 lfd;

	(void)revents;
	fd_message_init(&m);
	msg = m.msg;
	n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		loop_del_fd(l, fd);
		loop_stop(l);
		return;
	}
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg != NULL;
	    cmsg = CMSG_NXTHDR(&msg, cmsg))
		if (cmsg->cmsg_level == SOL_SOCKET &&
		    cmsg->cmsg_type == SCM_RIGHTS &&
		    cmsg->cmsg_len == CMSG_LEN(sizeof(int))) {
			memcpy(&lfd, CMSG_DATA(cmsg), sizeof lfd);
			proxy_add_listener(s->proxy, lfd);
		}
}

/* SIGTERM: end the proxy. */
static void
serve_on_term(struct loop *l, int sig, void *arg)
{
	(void)sig;
	(void)arg;
	loop_stop(l);
}

int
proxy_serve(int channel, const struct proxy_opts *opts, char **cause)
{
	struct proxy_server	 s;
	struct loop		*l;

	signal(SIGPIPE, SIG_IGN);
	if ((l = loop_new(cause)) == NULL)
		return -1;
	if (loop_add_signal(l, SIGTERM, serve_on_term, NULL, cause) != 0) {
		loop_free(l);
		return -1;
	}
	s.proxy = proxy_new(l, opts);
	s.channel = channel;
	loop_add_fd(l, channel, POLLIN, LOOP_PRIO_HIGH, serve_on_channel, &s);
	loop_run(l);
	loop_del_fd(l, channel);
	proxy_free(s.proxy);
	loop_free(l);
	return 0;
}
