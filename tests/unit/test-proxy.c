/*
 * test-proxy.c - the filtering proxy as a process of its own (proxy_serve)
 * against an upstream of the test's own on 127.0.0.1: what plain HTTP
 * sends upstream (origin form, the URL's Host, no proxy headers, one
 * request), CONNECT and SOCKS5 tunnels, every malformed request refused
 * with its status or reply code, refusals with the reason, failed lookups
 * and connects, the log; a host on neither list asked through the asker
 * the proxy is given (a stub here: net/ask.h), each answer and a question
 * withdrawn; relays (a loopback port, localhost, a UNIX socket) with no
 * request, a port nobody listens on reset, a port ptyvisor's process
 * claims never connected to, each logged.  No namespace needed: the
 * proxy's listeners are the test's.
 */
#include "net/proxy.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "net/ask.h"
#include "net/hostlist.h"
#include "net/ownport.h"
#include "tests/tap.h"

static uint16_t	 upstream_port;		/* echoes what it gets */
static uint16_t	 closed_port;		/* nobody listens */
static uint16_t	 proxy_port;

/* A listening socket on 127.0.0.1, any port; its port in *port. */
static int
listen_any(uint16_t *port)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof sin;
	int			fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    listen(fd, 64) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) != 0)
		exit(99);
	*port = ntohs(sin.sin_port);
	return fd;
}

/*
 * The upstream: for each connection, read up to the first empty line and
 * send back "ECHO\n" and those bytes, then close.
 */
static void __attribute__((noreturn))
run_upstream(int lfd)
{
	char	buf[65536];
	size_t	len;
	ssize_t	n;
	int	fd;

	for (;;) {
		if ((fd = accept(lfd, NULL, NULL)) < 0)
			continue;
		len = 0;
		while (len < sizeof buf - 1 &&
		    (n = read(fd, buf + len, sizeof buf - 1 - len)) > 0) {
			len += (size_t)n;
			buf[len] = '\0';
			if (strstr(buf, "\r\n\r\n") != NULL)
				break;
		}
		if (write(fd, "ECHO\n", 5) == 5 && len > 0)
			(void)!write(fd, buf, len);
		close(fd);
	}
}

/* Connect to 127.0.0.1:port (blocking, 10 s timeouts); -1 if refused. */
static int
connect_port(uint16_t port)
{
	struct sockaddr_in	sin;
	struct timeval		tv = { 10, 0 };
	int			fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons(port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
		close(fd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	return fd;
}

/* Connect to the proxy. */
static int
connect_proxy(void)
{
	int	fd = connect_port(proxy_port);

	if (fd < 0)
		exit(98);
	return fd;
}

/* A proxy of opts in a process of its own; its channel in *channel. */
static pid_t
proxy_start(const struct proxy_opts *opts, int *channel)
{
	char	*cause = NULL;
	pid_t	 pid;
	int	 sp[2];

	socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp);
	if ((pid = fork()) == 0) {
		close(sp[0]);
		_exit(proxy_serve(sp[1], opts, &cause) == 0 ? 0 : 1);
	}
	close(sp[1]);
	*channel = sp[0];
	return pid;
}

/* Send len bytes of data, read all until EOF into a new string. */
static char *
exchange(const void *data, size_t len, size_t *outlen)
{
	char	*out = malloc(1 << 20);
	size_t	 got = 0;
	ssize_t	 n;
	int	 fd = connect_proxy();

	if (len > 0 && write(fd, data, len) != (ssize_t)len)
		exit(97);
	while (got < (1 << 20) - 1 && (n = read(fd, out + got,
	    (1 << 20) - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(fd);
	if (outlen != NULL)
		*outlen = got;
	return out;
}

/* exchange() of a string. */
static char *
ask(const char *s)
{
	return exchange(s, strlen(s), NULL);
}

/* Whether s starts with prefix. */
static int
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void
test_http(void)
{
	char	req[512], *r;

	snprintf(req, sizeof req, "GET http://Allowed.Test:%u/a/b?q=1 "
	    "HTTP/1.1\r\nHost: evil.example\r\nProxy-Authorization: Basic "
	    "eA==\r\nProxy-Connection: keep-alive\r\nConnection: keep-alive"
	    "\r\nKeep-Alive: 5\r\nUser-Agent: t\r\n\r\n", upstream_port);
	r = ask(req);
	snprintf(req, sizeof req, "ECHO\nGET /a/b?q=1 HTTP/1.1\r\nHost: "
	    "Allowed.Test:%u\r\nConnection: close\r\nUser-Agent: t\r\n\r\n",
	    upstream_port);
	is_str(r, req, "plain HTTP: origin form, the URL's Host, one request, "
	    "no proxy headers");
	free(r);

	snprintf(req, sizeof req, "GET http://allowed.test:%u HTTP/1.0\r\n"
	    "\r\n", upstream_port);
	r = ask(req);
	ok(strstr(r, "GET / HTTP/1.0\r\n") != NULL, "no path: /");
	free(r);

	snprintf(req, sizeof req, "GET http://allowed.test:%u?x HTTP/1.1\r\n"
	    "\r\n", upstream_port);
	r = ask(req);
	ok(strstr(r, "GET /?x HTTP/1.1\r\n") != NULL, "a query without a "
	    "path: /?x");
	free(r);
}

static void
test_connect(void)
{
	char	req[256], *r;

	snprintf(req, sizeof req, "CONNECT allowed.test:%u HTTP/1.1\r\nHost: "
	    "x\r\n\r\nPING\r\n\r\n", upstream_port);
	r = ask(req);
	is_str(r, "HTTP/1.1 200 Connection established\r\n\r\nECHO\n"
	    "PING\r\n\r\n", "CONNECT: established, then the bytes after the "
	    "head go through");
	free(r);
}

/* One refusal: the request, the status line's start, a piece of it. */
static void
refused(const char *req, const char *status, const char *piece,
    const char *name)
{
	char	*r = ask(req);

	ok(starts(r, status) && strstr(r, piece) != NULL &&
	    strstr(r, "Connection: close\r\n") != NULL, "%s", name);
	if (!starts(r, status) || strstr(r, piece) == NULL)
		diag("got: %.200s", r);
	free(r);
}

static void
test_refusals(void)
{
	char	req[256], *big;
	size_t	len = 20000;

	refused("CONNECT denied.test:443 HTTP/1.1\r\n\r\n",
	    "HTTP/1.1 403 ", "X-Ptyvisor-Refused: on the deny list "
	    "(denied.test)\r\n", "a denied host: 403 with the reason");
	refused("CONNECT other.test:443 HTTP/1.1\r\n\r\n",
	    "HTTP/1.1 403 ", "ptyvisor: other.test:443: refused: not on the "
	    "allow list", "a host on neither list: 403");
	refused("CONNECT 127.0.0.1:443 HTTP/1.1\r\n\r\n", "HTTP/1.1 403 ",
	    "loopback", "an IP literal: 403");
	refused("CONNECT [::1]:443 HTTP/1.1\r\n\r\n", "HTTP/1.1 403 ",
	    "loopback", "an IPv6 literal: 403");
	refused("CONNECT allowed.test HTTP/1.1\r\n\r\n", "HTTP/1.1 400 ",
	    "bad CONNECT target", "CONNECT without a port: 400");
	refused("CONNECT allowed.test:0 HTTP/1.1\r\n\r\n", "HTTP/1.1 400 ",
	    "bad CONNECT target", "CONNECT to port 0: 400");
	refused("CONNECT ::1:443 HTTP/1.1\r\n\r\n", "HTTP/1.1 400 ",
	    "bad CONNECT target", "IPv6 without brackets: 400");
	refused("GET https://allowed.test/ HTTP/1.1\r\n\r\n", "HTTP/1.1 400 ",
	    "https:// needs CONNECT", "https:// in plain form: 400");
	refused("GET /local HTTP/1.1\r\nHost: allowed.test\r\n\r\n",
	    "HTTP/1.1 400 ", "absolute http:// URL", "origin form: 400");
	refused("GET http://user@allowed.test/ HTTP/1.1\r\n\r\n",
	    "HTTP/1.1 400 ", "bad host in the URL", "user info: 400");
	refused("GET http://a b/ HTTP/1.1\r\n\r\n", "HTTP/1.1 400 ",
	    "not an HTTP proxy request", "a space in the URL: 400");
	refused("hello\r\n\r\n", "HTTP/1.1 400 ", "not an HTTP proxy request",
	    "garbage: 400");
	refused("GET http://allowed.test/ HTTP/2.0\r\n\r\n", "HTTP/1.1 400 ",
	    "not an HTTP proxy request", "not HTTP/1.x: 400");
	refused("CONNECT nosuch.test:80 HTTP/1.1\r\n\r\n", "HTTP/1.1 502 ",
	    "name lookup failed: no such host", "a name not found: 502");
	snprintf(req, sizeof req, "CONNECT allowed.test:%u HTTP/1.1\r\n\r\n",
	    closed_port);
	refused(req, "HTTP/1.1 502 ", "Connection refused",
	    "nobody listening: 502");

	big = malloc(len);
	memset(big, 'a', len);
	memcpy(big, "GET http://allowed.test/ HTTP/1.1\r\nX: ", 38);
	{
		char	*r = exchange(big, len, NULL);

		ok(starts(r, "HTTP/1.1 431 "), "a head over 16 KiB: 431");
		free(r);
	}
	free(big);
}

static void
test_socks(void)
{
	unsigned char	req[64], *r;
	size_t		n, len;

	/* No acceptable method. */
	r = (unsigned char *)exchange("\x05\x01\x02", 3, &len);
	ok(len == 2 && r[0] == 5 && r[1] == 0xff, "SOCKS5: no method we "
	    "take: 0xff");
	free(r);

	/* BIND is refused. */
	n = 0;
	memcpy(req, "\x05\x01\x00" "\x05\x02\x00\x01\x7f\x00\x00\x01\x00\x50",
	    13);
	n = 13;
	r = (unsigned char *)exchange(req, n, &len);
	ok(len == 12 && r[2] == 5 && r[3] == 7, "SOCKS5 BIND: command not "
	    "supported");
	free(r);

	/* An unknown address type. */
	memcpy(req, "\x05\x01\x00" "\x05\x01\x00\x09\x00\x00", 9);
	r = (unsigned char *)exchange(req, 9, &len);
	ok(len == 12 && r[3] == 8, "SOCKS5: address type not supported");
	free(r);

	/* A denied name. */
	n = 0;
	memcpy(req, "\x05\x01\x00\x05\x01\x00\x03", 7);
	n = 7;
	req[n++] = 11;
	memcpy(req + n, "denied.test", 11);
	n += 11;
	req[n++] = 1;
	req[n++] = 0xbb;
	r = (unsigned char *)exchange(req, n, &len);
	ok(len == 12 && r[3] == 2, "SOCKS5: a denied host, not allowed by "
	    "ruleset");
	free(r);

	/* An IPv4 literal. */
	memcpy(req, "\x05\x01\x00\x05\x01\x00\x01\xa9\xfe\xa9\xfe\x00\x50",
	    13);
	r = (unsigned char *)exchange(req, 13, &len);
	ok(len == 12 && r[3] == 2, "SOCKS5: the metadata address refused");
	free(r);

	/* An allowed name: the tunnel. */
	n = 0;
	memcpy(req, "\x05\x01\x00\x05\x01\x00\x03", 7);
	n = 7;
	req[n++] = 12;
	memcpy(req + n, "allowed.test", 12);
	n += 12;
	req[n++] = (unsigned char)(upstream_port >> 8);
	req[n++] = (unsigned char)upstream_port;
	memcpy(req + n, "PING\r\n\r\n", 8);
	n += 8;
	r = (unsigned char *)exchange(req, n, &len);
	ok(len == 2 + 10 + 13 && r[3] == 0 &&
	    memcmp(r + 12, "ECHO\nPING\r\n\r\n", 13) == 0,
	    "SOCKS5: an allowed name, then the bytes after the request");
	free(r);
}

/* The log's lines: how many, and how many with decision d. */
static void
test_log(const char *path)
{
	FILE	*f = fopen(path, "r");
	char	 line[2048];
	int	 n = 0, allow = 0, deny = 0, bad = 0;

	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		n++;
		if (line[0] != '{' || line[strlen(line) - 1] != '\n')
			bad++;
		if (strstr(line, "\"decision\":\"allow\"") != NULL)
			allow++;
		if (strstr(line, "\"decision\":\"deny\"") != NULL)
			deny++;
	}
	if (f != NULL)
		fclose(f);
	ok(n > 20 && bad == 0, "the log: one JSON line per connection (%d)",
	    n);
	is_int(allow, 5, "the log: five allowed");
	is_int(deny, 6, "the log: six denied");
}

/*
 * A log with a small bound: whole lines up to it, then {"log_full":true},
 * and at the proxy's end how many connections were not listed.
 */
static void
test_log_cap(const struct hostlist *hl, const char *hosts, const char *dir)
{
	struct proxy_opts	 po;
	char			*log = xasprintf("%s/capped", dir), *r, line[2048];
	int			 lfd, sp[2], fd, i, n = 0, full = 0, status;
	long			 unlisted = -1;
	struct stat		 st;
	FILE			*f;
	pid_t			 px;

	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	lfd = listen_any(&proxy_port);
	memset(&po, 0, sizeof po);
	po.hosts = hl;
	po.log_fd = fd;
	po.log_max = 1500;
	po.hosts_file = hosts;
	px = proxy_start(&po, &sp[0]);
	proxy_send_listener(sp[0], lfd);
	close(lfd);
	for (i = 0; i < 20; i++) {
		r = ask("CONNECT denied.test:443 HTTP/1.1\r\n\r\n");
		free(r);
	}
	close(sp[0]);
	waitpid(px, &status, 0);
	close(fd);
	if ((f = fopen(log, "r")) != NULL) {
		while (fgets(line, sizeof line, f) != NULL) {
			if (strstr(line, "\"decision\":\"deny\"") != NULL)
				n++;
			else if (strcmp(line, "{\"log_full\":true}\n") == 0)
				full++;
			else if (sscanf(line, "{\"not_logged\":%ld}", &unlisted)
			    != 1)
				diag("unexpected line: %s", line);
		}
		fclose(f);
	}
	ok(n > 0 && n < 20 && full == 1, "a capped log: %d lines, then "
	    "log_full once", n);
	is_int(unlisted, 20 - n, "and at the end how many were not listed");
	if (stat(log, &st) != 0)
		st.st_size = -1;
	ok(st.st_size > 0 && st.st_size <= 1500 + 32,
	    "within its bound but for that last line (%lld bytes)",
	    (long long)st.st_size);
	unlink(log);
	free(log);
}

/*
 * The stub asker, in the proxy's process: answers from the loop by the
 * host's name (no.test no, once.test once, slow.test never, others for
 * the session; nobody.test cannot be asked), and notes each question and
 * each withdrawal as a line of stub_log for the test to count.
 */
static char	stub_log[256];

struct ask {
	struct loop		*l;
	struct loop_timer	*timer;
	enum ask_answer		 answer;
	char			 host[64];
	ask_fn			 fn;
	void			*arg;
};

/* Append "WHAT HOST" to the stub's log. */
static void
stub_note(const char *what, const char *host)
{
	FILE	*f = fopen(stub_log, "a");

	if (f != NULL) {
		fprintf(f, "%s %s\n", what, host);
		fclose(f);
	}
}

/* The stub's answer, from the loop. */
static void
stub_answer(struct loop *l, void *arg)
{
	struct ask	*a = arg;
	ask_fn		 fn = a->fn;
	void		*fn_arg = a->arg;
	enum ask_answer	 answer = a->answer;

	(void)l;
	free(a);
	fn(fn_arg, answer, answer == ASK_DENIED ? "denied by the stub" :
	    "approved by the stub");
}

static struct ask *
stub_start(struct loop *l, const char *where, const char *host,
    uint16_t port, const char *why, ask_fn fn, void *arg, char **cause)
{
	struct ask	*a;

	(void)port;
	(void)why;
	if (strcmp(where, "stub") != 0 || strcmp(host, "nobody.test") == 0) {
		*cause = xstrdup("nobody at the stub");
		return NULL;
	}
	stub_note("ask", host);
	a = xcalloc(1, sizeof *a);
	a->l = l;
	a->fn = fn;
	a->arg = arg;
	snprintf(a->host, sizeof a->host, "%s", host);
	a->answer = strcmp(host, "no.test") == 0 ? ASK_DENIED :
	    strcmp(host, "once.test") == 0 ? ASK_ONCE : ASK_SESSION;
	if (strcmp(host, "slow.test") != 0)
		a->timer = loop_timer_add(l, 0, stub_answer, a);
	return a;
}

static void
stub_cancel(struct ask *a)
{
	stub_note("cancel", a->host);
	if (a->timer != NULL)
		loop_timer_cancel(a->l, a->timer);
	free(a);
}

static const struct asker stub_asker = { stub_start, stub_cancel };

/* How many lines of the stub's log are "WHAT HOST", within 5 s of min. */
static int
stub_count(const char *what, const char *host, int min)
{
	char	 line[256], want[256];
	FILE	*f;
	int	 n = 0, tries;

	snprintf(want, sizeof want, "%s %s\n", what, host);
	for (tries = 0; tries < 500; tries++) {
		n = 0;
		if ((f = fopen(stub_log, "r")) != NULL) {
			while (fgets(line, sizeof line, f) != NULL)
				n += strcmp(line, want) == 0;
			fclose(f);
		}
		if (n >= min)
			break;
		usleep(10000);
	}
	return n;
}

/* CONNECT to host's upstream through the proxy: the answer. */
static char *
connect_to(const char *host)
{
	char	req[256];

	snprintf(req, sizeof req, "CONNECT %s:%u HTTP/1.1\r\n\r\nPING\r\n"
	    "\r\n", host, upstream_port);
	return ask(req);
}

/* A second proxy, given the stub asker: each answer reaches the client. */
static void
test_ask(const char *hosts_path, const char *dir)
{
	struct proxy_opts	 po;
	struct hostlist		*hl = hostlist_new();
	char			*cause = NULL, *r, req[256];
	pid_t			 px;
	int			 lfd, sp[2], status, fd;

	snprintf(stub_log, sizeof stub_log, "%s/asked", dir);
	/* The test's names resolve to loopback: let that address through. */
	hostlist_add(hl, false, "allowed.test,127.0.0.1", &cause);
	lfd = listen_any(&proxy_port);
	memset(&po, 0, sizeof po);
	po.hosts = hl;
	po.log_fd = -1;
	po.hosts_file = hosts_path;
	po.ask_socket = "stub";
	po.asker = &stub_asker;
	px = proxy_start(&po, &sp[0]);
	proxy_send_listener(sp[0], lfd);
	close(lfd);

	r = connect_to("once.test");
	ok(starts(r, "HTTP/1.1 200 ") && strstr(r, "ECHO\nPING") != NULL,
	    "asked, approved once: through");
	free(r);
	r = connect_to("once.test");
	ok(starts(r, "HTTP/1.1 200 ") && stub_count("ask", "once.test", 2) ==
	    2, "approved once: the next connection is asked again");
	free(r);
	r = connect_to("session.test");
	free(r);
	r = connect_to("session.test");
	ok(starts(r, "HTTP/1.1 200 ") && stub_count("ask", "session.test",
	    1) == 1, "approved for the session: asked once, through twice");
	free(r);
	r = connect_to("no.test");
	ok(starts(r, "HTTP/1.1 403 ") && strstr(r, "denied by the stub") !=
	    NULL, "denied: 403 with the asker's reason");
	free(r);
	snprintf(req, sizeof req, "refused: not on the allow list, and nobody "
	    "at the stub; allow it with --network-allow nobody.test:%u",
	    upstream_port);
	r = connect_to("nobody.test");
	ok(starts(r, "HTTP/1.1 403 ") && strstr(r, req) != NULL,
	    "nobody to ask: 403 with why and how to allow it");
	if (strstr(r, req) == NULL)
		diag("got: %.300s", r);
	free(r);

	/* The proxy ending withdraws a question still asked. */
	fd = connect_proxy();
	snprintf(req, sizeof req, "CONNECT slow.test:%u HTTP/1.1\r\n\r\n",
	    upstream_port);
	(void)!write(fd, req, strlen(req));
	ok(stub_count("ask", "slow.test", 1) == 1, "slow.test asked");
	close(sp[0]);
	ok(waitpid(px, &status, 0) == px && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0, "the asking proxy ends");
	ok(stub_count("cancel", "slow.test", 1) == 1,
	    "... and withdraws the question nobody answered (cancel)");
	close(fd);
	unlink(stub_log);
	hostlist_free(hl);
}

/*
 * Connect to 127.0.0.1:port, send s, read until EOF or an error: what
 * came back ("" when nothing did, "refused" when the connect was).
 */
static char *
relay_exchange(uint16_t port, const char *s)
{
	char	buf[4096];
	size_t	got = 0;
	ssize_t	n;
	int	fd;

	if ((fd = connect_port(port)) < 0)
		return xstrdup("refused");
	/* A reset may come before the write: what matters is what comes. */
	(void)!send(fd, s, strlen(s), MSG_NOSIGNAL);
	while (got < sizeof buf - 1 &&
	    (n = read(fd, buf + got, sizeof buf - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	close(fd);
	return xstrdup(buf);
}

/* The log's lines that hold every one of the NULL-ended pieces. */
static int
log_count(const char *log, ...)
{
	char		 line[1024];
	const char	*piece;
	va_list		 ap;
	FILE		*f;
	int		 n = 0;
	bool		 all;

	if ((f = fopen(log, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		all = true;
		va_start(ap, log);
		while ((piece = va_arg(ap, const char *)) != NULL)
			if (strstr(line, piece) == NULL)
				all = false;
		va_end(ap);
		n += all;
	}
	fclose(f);
	return n;
}

/* The lines test_relays' proxy logged, each checked (path: relay two's). */
static void
relay_log_check(const char *log, const char *path)
{
	char	want[64];

	snprintf(want, sizeof want, "\"port\":%u,", (unsigned)upstream_port);
	ok(log_count(log, "\"proto\":\"tcp\",\"host\":\"127.0.0.1\"", want,
	    "\"address\":\"127.0.0.1\",\"decision\":\"allow\","
	    "\"why\":\"relay zero\",\"sent\":8,\"received\":13", NULL) == 1,
	    "logged: proto tcp, the address, why, the bytes each way");
	ok(log_count(log, "\"host\":\"localhost\"", want,
	    "\"why\":\"relay one\",\"sent\":8,\"received\":13", NULL) == 1,
	    "logged: localhost");
	ok(log_count(log, "\"proto\":\"unix\"", path,
	    "\"port\":0,\"address\":\"unix\",\"decision\":\"allow\","
	    "\"why\":\"relay two\",\"sent\":8,\"received\":13", NULL) == 1,
	    "logged: proto unix, the path");
	ok(log_count(log, "\"decision\":\"error\",\"why\":\"connect "
	    "127.0.0.1: Connection refused\"", NULL) == 1, "logged: the "
	    "refused connect");
	ok(log_count(log, "\"decision\":\"deny\",\"why\":\"a port of "
	    "ptyvisor's own (claimed by its process): never relayed\"",
	    NULL) == 1, "logged: the claimed port, never relayed");
	ok(log_count(log, "\"proto\"", NULL) == 5, "one line per connection "
	    "served");
}

/* Make r the relay of host:port (a path with port 0), logged with why. */
static void
relay_set(struct proxy_relay *r, const char *host, uint16_t port,
    const char *why)
{
	memset(r, 0, sizeof *r);
	snprintf(r->host, sizeof r->host, "%s", host);
	r->port = port;
	snprintf(r->why, sizeof r->why, "%s", why);
}

/*
 * A third proxy with relays: each listener's connections go to the one
 * service it names, the client's bytes first, with no request.
 */
static void
test_relays(const char *dir)
{
	struct proxy_relay	 r[5];
	struct proxy_opts	 po;
	struct sockaddr_un	 sun;
	struct hostlist		*hl = hostlist_new();
	char			 log[256], *got;
	uint16_t		 port[6], claimed;
	pid_t			 up, up2, px;
	int			 lfd[6], sp[2], status, ufd, logfd, own, i;

	snprintf(log, sizeof log, "%s/relays", dir);
	logfd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	/* A UNIX upstream, answering as the TCP one does. */
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof sun.sun_path, "%s/up.sock", dir);
	ufd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (bind(ufd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
	    listen(ufd, 8) != 0)
		exit(99);
	if ((up = fork()) == 0)
		run_upstream(ufd);
	close(ufd);
	/* A port of ptyvisor's own: claimed, with an upstream listening. */
	ufd = listen_any(&claimed);
	if ((up2 = fork()) == 0)
		run_upstream(ufd);
	close(ufd);
	own = ownport_claim(claimed);

	relay_set(&r[0], "127.0.0.1", upstream_port, "relay zero");
	relay_set(&r[1], "localhost", upstream_port, "relay one");
	relay_set(&r[2], sun.sun_path, 0, "relay two");
	relay_set(&r[3], "127.0.0.1", closed_port, "relay three");
	relay_set(&r[4], "127.0.0.1", claimed, "relay four");
	for (i = 0; i < 6; i++)
		lfd[i] = listen_any(&port[i]);
	memset(&po, 0, sizeof po);
	po.hosts = hl;
	po.log_fd = logfd;
	po.relays = r;
	po.nrelays = 5;
	px = proxy_start(&po, &sp[0]);
	for (i = 0; i < 5; i++)
		ok(proxy_send_relay(sp[0], lfd[i], i) == 0, "relay %d handed "
		    "over", i);
	/* One the proxy was not given: it keeps nothing of it. */
	proxy_send_relay(sp[0], lfd[5], 7);
	ok(proxy_send_relay(sp[0], lfd[5], PROXY_MAX_RELAYS) == -1,
	    "a relay's index beyond PROXY_MAX_RELAYS is not sent");
	for (i = 0; i < 6; i++)
		close(lfd[i]);

	got = relay_exchange(port[0], "PING\r\n\r\n");
	is_str(got, "ECHO\nPING\r\n\r\n", "a loopback port's relay: the "
	    "client's bytes reach the service, no request, no answer of ours");
	free(got);
	got = relay_exchange(port[1], "PING\r\n\r\n");
	is_str(got, "ECHO\nPING\r\n\r\n", "localhost: the listener's "
	    "family first (127.0.0.1 here)");
	free(got);
	got = relay_exchange(port[2], "PING\r\n\r\n");
	is_str(got, "ECHO\nPING\r\n\r\n", "a UNIX socket's relay");
	free(got);
	got = relay_exchange(port[3], "PING\r\n\r\n");
	is_str(got, "", "a port nobody listens on: nothing back (a reset)");
	free(got);
	got = relay_exchange(port[4], "PING\r\n\r\n");
	is_str(got, "", "a port ptyvisor's process claims: nothing back");
	free(got);
	/* Refused, or reset if it came before the proxy closed it. */
	got = relay_exchange(port[5], "PING\r\n\r\n");
	ok(strcmp(got, "refused") == 0 || strcmp(got, "") == 0, "a relay the "
	    "proxy was not given: closed, never served (%s)", got);
	free(got);

	close(sp[0]);
	ok(waitpid(px, &status, 0) == px && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0, "the relaying proxy ends");
	relay_log_check(log, sun.sun_path);
	kill(up, SIGKILL);
	waitpid(up, NULL, 0);
	kill(up2, SIGKILL);
	waitpid(up2, NULL, 0);
	close(own);
	close(logfd);
	unlink(log);
	unlink(sun.sun_path);
	hostlist_free(hl);
}

int
main(void)
{
	struct proxy_opts	 po;
	struct hostlist		*hl = hostlist_new();
	char			 dir[] = "/tmp/test-proxy.XXXXXX", path[256];
	char			 log[256], *cause = NULL;
	pid_t			 up, px;
	int			 ufd, cfd, lfd, sp[2], status, logfd;
	FILE			*f;

	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(dir) == NULL)
		return 99;
	snprintf(path, sizeof path, "%s/hosts", dir);
	snprintf(log, sizeof log, "%s/log", dir);
	f = fopen(path, "w");
	fprintf(f, "# test names\n127.0.0.1 allowed.test denied.test "
	    "other.test once.test session.test no.test nobody.test "
	    "slow.test\n");
	fclose(f);
	hostlist_add(hl, false, "allowed.test,nosuch.test", &cause);
	hostlist_add(hl, true, "denied.test", &cause);

	ufd = listen_any(&upstream_port);
	cfd = listen_any(&closed_port);
	close(cfd);
	if ((up = fork()) == 0)
		run_upstream(ufd);
	close(ufd);

	lfd = listen_any(&proxy_port);
	logfd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	memset(&po, 0, sizeof po);
	po.hosts = hl;
	po.log_fd = logfd;
	po.hosts_file = path;
	px = proxy_start(&po, &sp[0]);
	ok(proxy_send_listener(sp[0], lfd) == 0, "the listener handed over");
	close(lfd);

	test_http();
	test_connect();
	test_refusals();
	test_socks();

	/* EOF on the channel ends the proxy, cleanly. */
	close(sp[0]);
	ok(waitpid(px, &status, 0) == px && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0, "EOF on the channel: the proxy ends");
	test_log(log);
	test_log_cap(hl, path, dir);
	test_ask(path, dir);
	test_relays(dir);

	kill(up, SIGKILL);
	waitpid(up, NULL, 0);
	close(logfd);
	unlink(log);
	unlink(path);
	rmdir(dir);
	hostlist_free(hl);
	return tap_done();
}
