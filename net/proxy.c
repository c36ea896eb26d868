/*
 * proxy.c - the filtering HTTP and SOCKS5 proxy on the loop (see proxy.h).
 *
 * A connection goes through: HEAD (read the request, HTTP or SOCKS5, within
 * PROXY_HEAD_MAX, parsed in proxy-request.c), judged by name against the
 * lists, then by the caller's rules for a host on neither; ASK (such a
 * host, unless a person approved it earlier in the sandbox's life: asked
 * of the server through ask.h, refused where there is none, one question
 * per host and port however many connections wait for it, for at most
 * PROXY_ASK_MS); RESOLVE (a child process looks the name up); CONNECT
 * (each address checked against the lists, then tried in turn,
 * non-blocking); RELAY (bytes both ways, each direction a relay.h with its
 * bounds, half-closes passed on, the process steered to the reader's CPU
 * while bulk flows, steer.h).  A refusal or failure answers the client
 * with the reason and closes (how a connection ends, is logged and times
 * out: proxy-conn.c).  A connection to a relay's listener has no HEAD:
 * it starts at CONNECT, to the one service its relay names (a port of the
 * host's loopback, never one of ptyvisor's own, or a UNIX socket).
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
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "net/ask.h"
#include "net/hostlist.h"
#include "net/ownport.h"
#include "net/proxy-int.h"
#include "net/relay.h"
#include "net/resolve.h"

/*
 * Largest request head (HTTP request line and headers, or SOCKS5 greeting
 * and request): clients send a few hundred bytes; more is refused, so a
 * client cannot make us hold much before it is judged.
 */
#define PROXY_HEAD_MAX 16384

/*
 * How long a person has to answer for a host on neither list; then it is
 * refused (and the question withdrawn).  Agents' tools wait about as long.
 */
#define PROXY_ASK_MS 120000

/* Most hosts approved for the session, kept for the sandbox's life. */
#define PROXY_MAX_APPROVED 256

static void	conn_update(struct proxy_conn *c);
static void	conn_try_next(struct proxy_conn *c);
static void	conn_go(struct proxy_conn *c);
static void	conn_ask(struct proxy_conn *c);

/* Make fd non-blocking and close-on-exec. */
static void
set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
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
		proxy_conn_refuse(c, 502, SOCKS_HOST_UNREACHABLE, "error", why);
		return;
	}
	memcpy(c->addrs, addrs, (size_t)n * sizeof *addrs);
	c->naddrs = n;
	c->next_addr = 0;
	c->state = CONN_CONNECT;
	proxy_conn_deadline(c);
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

/*
 * The connection that asked first among those waiting for q (the list
 * is newest first): the one an answer for this once lets through.
 */
static struct proxy_conn *
question_first(struct proxy_question *q)
{
	struct proxy_conn	*c, *first = NULL;

	for (c = q->p->conns; c != NULL; c = c->next)
		if (c->question == q)
			first = c;
	return first;
}

/*
 * A person answered: the connections waiting for that host go on (with
 * "once", only the first to ask; the others are asked again), or are
 * refused.
 */
static void
question_answered(void *arg, enum ask_answer answer, const char *why)
{
	struct proxy_question	*q = arg;
	struct proxy		*p = q->p;
	struct proxy_conn	*c, *first;

	q->ask = NULL;
	/* Asked again below: a new question, never this answered one. */
	proxy_question_unlink(q);
	first = answer == ASK_ONCE ? question_first(q) : NULL;
	/* For the session: the host stays allowed while the sandbox lives. */
	if (answer == ASK_SESSION && !proxy_is_approved(p, q->host, q->port) &&
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
		if (answer == ASK_DENIED)
			proxy_conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny",
			    why);
		else if (answer == ASK_ONCE && c != first)
			conn_ask(c);
		else {
			c->j.verdict = HOSTLIST_ALLOW;
			snprintf(c->j.why, sizeof c->j.why, "%s", why);
			conn_go(c);
		}
		goto again;
	}
	proxy_question_free(q);
}

/*
 * A host on neither list that nobody can be asked about (what stands in
 * the way: nobody, no server...): refused, with how to allow it.
 */
static void
conn_refuse_unasked(struct proxy_conn *c, const char *nobody)
{
	char	*why, *rule = NULL;

	if (c->p->opts.rules_file != NULL)
		rule = xasprintf(", or the rule 'allow connect %s:%u' in %s",
		    c->req.host, (unsigned)c->req.port,
		    c->p->opts.rules_file);
	why = xasprintf("%s, and %s; allow it with --network-allow %s:%u%s",
	    c->j.why, nobody, c->req.host, (unsigned)c->req.port,
	    rule != NULL ? rule : "");
	proxy_conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny", why);
	free(why);
	free(rule);
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
	char			*cause = NULL;

	if (proxy_is_approved(c->p, c->req.host, c->req.port)) {
		c->j.verdict = HOSTLIST_ALLOW;
		snprintf(c->j.why, sizeof c->j.why, "approved earlier in "
		    "this session");
		conn_go(c);
		return;
	}
	if (c->p->opts.ask_socket == NULL || c->p->opts.asker == NULL) {
		conn_refuse_unasked(c, "nobody to ask here");
		return;
	}
	c->state = CONN_ASK;
	loop_timer_cancel(c->p->loop, c->timer);
	c->timer = loop_timer_add(c->p->loop, PROXY_ASK_MS, proxy_conn_timeout,
	    c);
	for (q = c->p->questions; q != NULL; q = q->next)
		if (q->port == c->req.port &&
		    strcmp(q->host, c->req.host) == 0) {
			c->question = q;
			c->asked = true;
			return;
		}
	q = xcalloc(1, sizeof *q);
	q->p = c->p;
	snprintf(q->host, sizeof q->host, "%s", c->req.host);
	q->port = c->req.port;
	q->ask = c->p->opts.asker->start(c->p->loop, c->p->opts.ask_socket,
	    c->req.host, c->req.port, "a sandboxed command connects to a host "
	    "on neither list", question_answered, q, &cause);
	if (q->ask == NULL) {
		free(q);
		conn_refuse_unasked(c, cause);
		free(cause);
		return;
	}
	q->next = c->p->questions;
	c->p->questions = q;
	c->question = q;
	c->asked = true;
}

/* The target is judged; go on to resolve, or ask, or refuse. */
static void
conn_judged(struct proxy_conn *c)
{
	hostlist_judge(c->p->opts.hosts, c->req.host, c->req.port, &c->j);
	/* Neither list: the caller's rules (deny winning) before a person. */
	if (c->j.verdict == HOSTLIST_ASK && c->p->opts.rules != NULL)
		c->p->opts.rules(c->p->opts.rules_arg, c->req.host,
		    c->req.port, &c->j);
	if (c->j.verdict == HOSTLIST_DENY) {
		proxy_conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny", c->j.why);
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
			proxy_conn_refuse(c, 400, SOCKS_BAD_ADDRESS, "error",
			    error);
			return;
		}
		conn_resolved(c, &ss, 1, NULL);
		return;
	}
	c->state = CONN_RESOLVE;
	proxy_conn_deadline(c);
	c->resolve = resolve_start(c->p->loop, c->req.host, c->req.port,
	    c->p->opts.hosts_file, conn_resolved, c, &cause);
	if (c->resolve == NULL) {
		proxy_conn_refuse(c, 502, SOCKS_FAILURE, "error", cause);
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
	relay_init(&c->up, c->req.forwardlen + c->headlen, true);
	relay_init(&c->down, 0, true);
	if (c->req.kind == KIND_CONNECT)
		proxy_conn_answer(c, ok, sizeof ok - 1);
	else if (c->req.kind == KIND_SOCKS)
		proxy_socks_reply(c, SOCKS_OK);
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
		/* A UNIX socket's relay: its path is all there is to it. */
		if (ss->ss_family != AF_UNIX &&
		    !hostlist_address_ok(c->p->opts.hosts, &c->j,
		    (struct sockaddr *)ss, c->req.port, why, sizeof why)) {
			snprintf(c->last_error, sizeof c->last_error, "%s",
			    why);
			continue;
		}
		if (ss->ss_family == AF_INET)
			inet_ntop(AF_INET, &((struct sockaddr_in *)ss)->sin_addr,
			    c->addr_text, sizeof c->addr_text);
		else if (ss->ss_family == AF_INET6)
			inet_ntop(AF_INET6,
			    &((struct sockaddr_in6 *)ss)->sin6_addr,
			    c->addr_text, sizeof c->addr_text);
		else
			snprintf(c->addr_text, sizeof c->addr_text, "unix");
		fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
		if (fd < 0) {
			snprintf(c->last_error, sizeof c->last_error,
			    "socket: %s", strerror(errno));
			continue;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		relay_socket_tune(fd, (struct sockaddr *)ss);
		len = ss->ss_family == AF_INET ? sizeof(struct sockaddr_in) :
		    ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
		    sizeof(struct sockaddr_un);
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
		proxy_conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny",
		    c->last_error);
	else
		proxy_conn_refuse(c, 502, SOCKS_REFUSED, "error",
		    c->last_error);
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

/*
 * Relay after an event on either side; then the proxy moves beside
 * whoever reads the direction that moved most, if that was a bulk
 * transfer (steer.h).
 */
static void
conn_relay(struct proxy_conn *c)
{
	uint64_t	up = c->up.bytes, down = c->down.bytes;

	if (relay_pump(&c->up, c->cfd, c->ufd) != 0 ||
	    relay_pump(&c->down, c->ufd, c->cfd) != 0) {
		proxy_conn_end(c, "allow", c->j.why);
		return;
	}
	up = c->up.bytes - up;
	down = c->down.bytes - down;
	if (down >= up)
		steer_turn(&c->p->steer, (size_t)down, c->cfd, util_now_us());
	else
		steer_turn(&c->p->steer, (size_t)up, c->ufd, util_now_us());
	if (c->up.shut && c->down.shut) {
		proxy_conn_end(c, "allow", c->j.why);
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
		proxy_conn_refuse(c, 431, SOCKS_FAILURE, "error", "request too "
		    "large");
		return;
	}
	n = read(fd, c->head + c->headlen, PROXY_HEAD_MAX - c->headlen);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		if (c->headlen > 0 || n < 0)
			proxy_conn_end(c, "error", "the client left before its "
			    "request was complete");
		else
			proxy_conn_free(c);	/* a bare connect: no log */
		return;
	}
	c->headlen += (size_t)n;
	r = proxy_request_parse(&c->req, c->head, &c->headlen, PROXY_HEAD_MAX);
	if (c->req.answerlen > 0)
		proxy_conn_answer(c, c->req.answer, c->req.answerlen);
	if (r == PROXY_PARSE_MORE)
		return;
	if (r == PROXY_PARSE_BAD) {
		if (c->req.socks_code == SOCKS_NO_REPLY)
			proxy_conn_end(c, "error", c->req.why);
		else
			proxy_conn_refuse(c, c->req.status, c->req.socks_code,
			    "error", c->req.why);
		return;
	}
	conn_judged(c);
}

/*
 * The addresses of a loopback port's relay into addrs (room for two):
 * the one it names, or for localhost the listener's family first, then
 * the other (a host's service may listen on either).  How many.
 */
static int
relay_addresses(const struct proxy_relay *r, int family,
    struct sockaddr_storage *addrs)
{
	struct sockaddr_in	*in;
	struct sockaddr_in6	*in6;
	int			 n = 0, i, fam[2];

	if (strcmp(r->host, "localhost") != 0) {
		fam[0] = strchr(r->host, ':') != NULL ? AF_INET6 : AF_INET;
		fam[1] = AF_UNSPEC;
	} else {
		fam[0] = family == AF_INET6 ? AF_INET6 : AF_INET;
		fam[1] = fam[0] == AF_INET6 ? AF_INET : AF_INET6;
	}
	for (i = 0; i < 2 && fam[i] != AF_UNSPEC; i++) {
		memset(&addrs[n], 0, sizeof addrs[n]);
		if (fam[i] == AF_INET) {
			in = (struct sockaddr_in *)&addrs[n];
			in->sin_family = AF_INET;
			in->sin_port = htons(r->port);
			in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		} else {
			in6 = (struct sockaddr_in6 *)&addrs[n];
			in6->sin6_family = AF_INET6;
			in6->sin6_port = htons(r->port);
			in6->sin6_addr = in6addr_loopback;
		}
		n++;
	}
	return n;
}

/*
 * A connection to relay's listener (of family): allowed already (the
 * sandbox listens for nothing else), so no request and nothing asked;
 * straight to connecting to the service on the host.
 */
static void
conn_relay_start(struct proxy_conn *c, int relay, int family)
{
	const struct proxy_relay	*r = &c->p->opts.relays[relay];
	struct sockaddr_un		*sun;
	size_t				 len;

	c->req.kind = r->port == 0 ? KIND_UNIX : KIND_TCP;
	snprintf(c->req.host, sizeof c->req.host, "%s", r->host);
	c->req.port = r->port;
	c->j.verdict = HOSTLIST_ALLOW;
	c->j.exact = true;
	snprintf(c->j.why, sizeof c->j.why, "%s", r->why);
	c->state = CONN_CONNECT;
	proxy_conn_deadline(c);
	/* Its web front end, should one listen there now. */
	if (r->port != 0 && ownport_is_claimed(r->port)) {
		proxy_conn_refuse(c, 403, SOCKS_NOT_ALLOWED, "deny", "a port "
		    "of ptyvisor's own (claimed by its process): never "
		    "relayed");
		return;
	}
	if (r->port == 0) {
		sun = (struct sockaddr_un *)&c->addrs[0];
		memset(&c->addrs[0], 0, sizeof c->addrs[0]);
		sun->sun_family = AF_UNIX;
		/* The lists take no longer path (HOSTLIST_UNIX_PATH_MAX). */
		if ((len = strlen(r->host)) >= sizeof sun->sun_path) {
			proxy_conn_refuse(c, 502, SOCKS_FAILURE, "error",
			    "the socket's path is too long");
			return;
		}
		memcpy(sun->sun_path, r->host, len + 1);
		c->naddrs = 1;
	} else
		c->naddrs = relay_addresses(r, family, c->addrs);
	c->next_addr = 0;
	conn_try_next(c);
}

/* The index of listening socket fd in p's listeners, or -1. */
static int
proxy_listener_index(const struct proxy *p, int fd)
{
	int	i;

	for (i = 0; i < p->nlisteners; i++)
		if (p->listeners[i] == fd)
			return i;
	return -1;
}

/* A listener has a connection. */
static void
proxy_on_accept(struct loop *l, int fd, short revents, void *arg)
{
	struct proxy		*p = arg;
	struct proxy_conn	*c;
	struct sockaddr_storage	 ss;
	socklen_t		 sslen = sizeof ss;
	int			 cfd, one = 1, i, relay;

	(void)revents;
	if (p->nconns >= PROXY_MAX_CONNS)
		return;
	cfd = accept4(fd, (struct sockaddr *)&ss, &sslen, SOCK_NONBLOCK |
	    SOCK_CLOEXEC);
	if (cfd < 0)
		return;
	i = proxy_listener_index(p, fd);
	relay = i >= 0 ? p->relay_of[i] : -1;
	setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	relay_socket_tune(cfd, NULL);
	c = xcalloc(1, sizeof *c);
	c->p = p;
	c->cfd = cfd;
	c->ufd = -1;
	/* A relay's client sends no request: nothing to hold. */
	if (relay < 0)
		c->head = xmalloc(PROXY_HEAD_MAX);
	c->started = util_wall_us();
	c->next = p->conns;
	if (p->conns != NULL)
		p->conns->prev = c;
	p->conns = c;
	p->nconns++;
	/* A relay's client is read once the service answered (RELAY). */
	loop_add_fd(l, cfd, relay < 0 ? POLLIN : 0, LOOP_PRIO_NORMAL,
	    conn_on_client, c);
	proxy_update_listeners(p);
	if (relay < 0)
		proxy_conn_deadline(c);
	else
		conn_relay_start(c, relay, ss.ss_family);
}

struct proxy *
proxy_new(struct loop *l, const struct proxy_opts *opts)
{
	struct proxy	*p = xcalloc(1, sizeof *p);
	struct stat	 st;

	p->loop = l;
	p->opts = *opts;
	steer_init(&p->steer);
	/* A log appended to (--network-log FILE) counts from its size. */
	if (opts->log_fd >= 0 && fstat(opts->log_fd, &st) == 0)
		p->log_bytes = (uint64_t)st.st_size;
	return p;
}

/* Serve a listening socket: requests (relay -1), or a relay's. */
static void
proxy_listen(struct proxy *p, int fd, int relay)
{
	if (p->nlisteners == PROXY_MAX_LISTENERS) {
		close(fd);
		return;
	}
	set_nonblock(fd);
	p->relay_of[p->nlisteners] = relay;
	p->listeners[p->nlisteners++] = fd;
	loop_add_fd(p->loop, fd, p->paused ? 0 : POLLIN, LOOP_PRIO_NORMAL,
	    proxy_on_accept, p);
}

void
proxy_add_listener(struct proxy *p, int fd)
{
	proxy_listen(p, fd, -1);
}

void
proxy_add_relay(struct proxy *p, int fd, int relay)
{
	/* A relay the proxy was not given: nothing to reach through it. */
	if (relay < 0 || relay >= p->opts.nrelays) {
		close(fd);
		return;
	}
	proxy_listen(p, fd, relay);
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
		proxy_conn_end(p->conns, p->conns->state == CONN_RELAY ?
		    "allow" : "error", "cut: the sandbox ended");
	for (i = 0; i < p->nlisteners; i++) {
		loop_del_fd(p->loop, p->listeners[i]);
		close(p->listeners[i]);
	}
	proxy_log_end(p);
	free(p->approved);
	free(p);
}
