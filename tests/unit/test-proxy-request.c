/*
 * test-proxy-request.c - a proxy request's head parsed without a socket:
 * plain HTTP rewritten for upstream (origin form, the URL's Host, no proxy
 * headers, one request), CONNECT and what follows its head, each malformed
 * HTTP request refused with its status and reason, a head too large,
 * SOCKS5's greeting answered and its request parsed (names, IPv4, IPv6,
 * split across reads), each malformed one refused with its reply code.
 */
#include "net/proxy-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"

/* Room for a head, as the proxy gives it. */
#define HEAD_MAX 16384

static char	head[HEAD_MAX];
static size_t	headlen;

/* Parse len bytes of data into r (zeroed first) as one read. */
static enum proxy_parsed
parse(struct proxy_request *r, const void *data, size_t len)
{
	memset(r, 0, sizeof *r);
	memcpy(head, data, len);
	headlen = len;
	return proxy_request_parse(r, head, &headlen, HEAD_MAX);
}

/* parse() of a string. */
static enum proxy_parsed
parse_str(struct proxy_request *r, const char *s)
{
	return parse(r, s, strlen(s));
}

/* An HTTP request refused with status 400 and a reason containing piece. */
static void
refused(const char *req, const char *piece, const char *name)
{
	struct proxy_request	r;
	enum proxy_parsed	got = parse_str(&r, req);

	ok(got == PROXY_PARSE_BAD && r.status == 400 && r.why != NULL &&
	    strstr(r.why, piece) != NULL && r.answerlen == 0, "%s", name);
	if (got == PROXY_PARSE_BAD)
		diag("why: %s", r.why);
	proxy_request_free(&r);
}

static void
test_http(void)
{
	struct proxy_request	r;
	static const char	want[] = "GET /a/b?q=1 HTTP/1.1\r\nHost: "
	    "Allowed.Test:8080\r\nConnection: close\r\nUser-Agent: t\r\n\r\n";
	static const char	partial[] = "GET http://allowed.test/ HTTP/1.1\r\n"
	    "X: y\r\n";

	ok(parse_str(&r, "GET http://Allowed.Test:8080/a/b?q=1 HTTP/1.1\r\n"
	    "Host: evil.example\r\nProxy-Authorization: Basic eA==\r\n"
	    "Proxy-Connection: keep-alive\r\nConnection: keep-alive\r\n"
	    "Keep-Alive: 5\r\nUser-Agent: t\r\n\r\n") == PROXY_PARSE_READY &&
	    r.kind == KIND_HTTP, "plain HTTP: ready");
	is_str(r.host, "allowed.test", "plain HTTP: the host, lowercase");
	is_int(r.port, 8080, "plain HTTP: the port");
	ok(r.forward != NULL && r.forwardlen == strlen(want) &&
	    memcmp(r.forward, want, r.forwardlen) == 0, "plain HTTP: origin "
	    "form, the URL's Host, one request, no proxy headers");
	is_int(headlen, 0, "plain HTTP: the head is taken");
	proxy_request_free(&r);

	ok(parse_str(&r, "GET http://allowed.test HTTP/1.0\r\n\r\n") ==
	    PROXY_PARSE_READY && r.port == 80 && r.forward != NULL &&
	    strncmp(r.forward, "GET / HTTP/1.0\r\n", 16) == 0, "no port: 80; "
	    "no path: /");
	proxy_request_free(&r);
	ok(parse_str(&r, "GET http://allowed.test:81?x HTTP/1.1\r\n\r\n") ==
	    PROXY_PARSE_READY && r.port == 81 && r.forward != NULL &&
	    strncmp(r.forward, "GET /?x HTTP/1.1\r\n", 18) == 0, "a query "
	    "without a path: /?x");
	proxy_request_free(&r);

	ok(parse_str(&r, partial) == PROXY_PARSE_MORE && r.forward == NULL &&
	    headlen == strlen(partial), "a head without its empty line: read "
	    "on, nothing taken");
}

static void
test_connect(void)
{
	struct proxy_request	r;

	ok(parse_str(&r, "CONNECT allowed.test:443 HTTP/1.1\r\nHost: x\r\n"
	    "\r\nPING\r\n\r\n") == PROXY_PARSE_READY && r.kind == KIND_CONNECT,
	    "CONNECT: ready");
	ok(strcmp(r.host, "allowed.test") == 0 && r.port == 443,
	    "CONNECT: host and port");
	ok(r.forward == NULL && headlen == 8 && memcmp(head, "PING\r\n\r\n",
	    8) == 0, "CONNECT: nothing of the head goes on, what follows it "
	    "does");
	ok(parse_str(&r, "CONNECT [::1]:443 HTTP/1.1\r\n\r\n") ==
	    PROXY_PARSE_READY && strcmp(r.host, "::1") == 0 && r.port == 443,
	    "CONNECT to a bracketed IPv6 address");
	ok(parse_str(&r, "CONNECT 127.0.0.1:443 HTTP/1.1\r\n\r\n") ==
	    PROXY_PARSE_READY && strcmp(r.host, "127.0.0.1") == 0,
	    "CONNECT to an IPv4 address (judged later, not here)");
}

static void
test_http_refusals(void)
{
	struct proxy_request	 r;
	char			*big;

	refused("CONNECT allowed.test HTTP/1.1\r\n\r\n", "bad CONNECT target",
	    "CONNECT without a port: 400");
	refused("CONNECT allowed.test:0 HTTP/1.1\r\n\r\n", "bad CONNECT "
	    "target", "CONNECT to port 0: 400");
	refused("CONNECT allowed.test:65536 HTTP/1.1\r\n\r\n", "bad CONNECT "
	    "target", "CONNECT to port 65536: 400");
	refused("CONNECT ::1:443 HTTP/1.1\r\n\r\n", "bad CONNECT target",
	    "IPv6 without brackets: 400");
	refused("GET https://allowed.test/ HTTP/1.1\r\n\r\n", "https:// needs "
	    "CONNECT", "https:// in plain form: 400");
	refused("GET /local HTTP/1.1\r\nHost: allowed.test\r\n\r\n",
	    "absolute http:// URL", "origin form: 400");
	refused("GET http://user@allowed.test/ HTTP/1.1\r\n\r\n", "bad host in "
	    "the URL", "user info: 400");
	refused("GET http://a b/ HTTP/1.1\r\n\r\n", "not an HTTP proxy request",
	    "a space in the URL: 400");
	refused("hello\r\n\r\n", "not an HTTP proxy request", "garbage: 400");
	refused("GET http://allowed.test/ HTTP/2.0\r\n\r\n", "not an HTTP "
	    "proxy request", "not HTTP/1.x: 400");

	ok(parse_str(&r, "GET /local HTTP/1.1\r\n\r\n") == PROXY_PARSE_BAD &&
	    r.kind == KIND_HTTP, "refused plain HTTP is still HTTP (answered "
	    "in HTTP)");

	big = malloc(HEAD_MAX);
	memset(big, 'a', HEAD_MAX);
	memcpy(big, "GET http://allowed.test/ HTTP/1.1\r\nX: ", 38);
	ok(parse(&r, big, HEAD_MAX) == PROXY_PARSE_BAD && r.status == 431 &&
	    strcmp(r.why, "request head too large") == 0, "a full buffer "
	    "without the end of the head: 431");
	ok(parse(&r, big, HEAD_MAX - 1) == PROXY_PARSE_MORE, "one byte less: "
	    "read on");
	free(big);
}

/* A SOCKS5 greeting offering no authentication, then a request. */
static size_t
socks_request(unsigned char *out, unsigned char cmd, unsigned char atyp,
    const void *addr, size_t addrlen, unsigned int port)
{
	size_t	n = 0;

	memcpy(out, "\x05\x01\x00\x05", 4);
	n = 4;
	out[n++] = cmd;
	out[n++] = 0;
	out[n++] = atyp;
	if (atyp == 3)
		out[n++] = (unsigned char)addrlen;
	memcpy(out + n, addr, addrlen);
	n += addrlen;
	out[n++] = (unsigned char)(port >> 8);
	out[n++] = (unsigned char)port;
	return n;
}

static void
test_socks(void)
{
	struct proxy_request	r;
	unsigned char		req[300];
	size_t			n, i;
	enum proxy_parsed	got = PROXY_PARSE_MORE;
	bool			answered = false;

	ok(parse(&r, "\x05\x01\x02", 3) == PROXY_PARSE_BAD &&
	    r.answerlen == 2 && r.answer[0] == 5 && r.answer[1] == 0xff &&
	    r.socks_code == SOCKS_NO_REPLY && r.kind == KIND_SOCKS,
	    "no method we take: 0xff, and no reply after it");

	n = socks_request(req, 1, 3, "Allowed.Test", 12, 443);
	memcpy(req + n, "PING", 4);
	ok(parse(&r, req, n + 4) == PROXY_PARSE_READY && r.kind == KIND_SOCKS &&
	    r.answerlen == 2 && r.answer[0] == 5 && r.answer[1] == 0,
	    "a name: ready, the greeting answered");
	ok(strcmp(r.host, "allowed.test") == 0 && r.port == 443,
	    "a name: host and port");
	ok(headlen == 4 && memcmp(head, "PING", 4) == 0, "a name: what "
	    "follows the request is kept");

	n = socks_request(req, 1, 1, "\xa9\xfe\xa9\xfe", 4, 80);
	ok(parse(&r, req, n) == PROXY_PARSE_READY &&
	    strcmp(r.host, "169.254.169.254") == 0 && r.port == 80, "IPv4");
	n = socks_request(req, 1, 4, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\1", 16,
	    22);
	ok(parse(&r, req, n) == PROXY_PARSE_READY && strcmp(r.host, "::1") ==
	    0 && r.port == 22, "IPv6");

	/* One byte a read: the greeting answered once, then ready. */
	n = socks_request(req, 1, 3, "allowed.test", 12, 443);
	memset(&r, 0, sizeof r);
	headlen = 0;
	for (i = 0; i < n; i++) {
		head[headlen++] = (char)req[i];
		got = proxy_request_parse(&r, head, &headlen, HEAD_MAX);
		if (r.answerlen > 0) {
			ok(!answered && i == 2, "split: the greeting answered "
			    "once it is whole (byte %zu)", i);
			answered = true;
		}
		if (got != PROXY_PARSE_MORE)
			break;
	}
	ok(got == PROXY_PARSE_READY && i == n - 1 &&
	    strcmp(r.host, "allowed.test") == 0 && headlen == 0,
	    "split: ready at the last byte");

	n = socks_request(req, 2, 1, "\x7f\0\0\1", 4, 80);
	ok(parse(&r, req, n) == PROXY_PARSE_BAD && r.socks_code ==
	    SOCKS_BAD_COMMAND && r.answerlen == 2 && r.answer[1] == 0,
	    "BIND: command not supported, after the greeting's answer");
	ok(parse(&r, "\x05\x01\x00\x05\x01\x00\x09\x00\x00", 9) ==
	    PROXY_PARSE_BAD && r.socks_code == SOCKS_BAD_ADDRESS,
	    "address type not supported");
	ok(parse(&r, "\x05\x01\x00\x04\x01\x00\x01\x00\x00", 9) ==
	    PROXY_PARSE_BAD && r.socks_code == SOCKS_FAILURE &&
	    strcmp(r.why, "bad SOCKS5 request") == 0, "a request of another "
	    "version: failure");
	n = socks_request(req, 1, 3, "a\0b", 3, 80);
	ok(parse(&r, req, n) == PROXY_PARSE_BAD && r.socks_code ==
	    SOCKS_BAD_ADDRESS && strcmp(r.why, "bad SOCKS5 host name") == 0,
	    "a name with a NUL: bad address");
	n = socks_request(req, 1, 3, "a b", 3, 80);
	ok(parse(&r, req, n) == PROXY_PARSE_BAD && r.socks_code ==
	    SOCKS_BAD_ADDRESS, "a name with a space: bad address");
}

/*
 * The greeting in a read of its own, then a request that is not SOCKS5:
 * still SOCKS (never the HTTP parser), refused with a failure reply code.
 */
static void
test_socks_after_greeting(void)
{
	static const char *const	 junk[] = {
		"GET / HTTP/1.1\r\n\r\n", "garbage\r\n\r\n", "\x04",
		"X"
	};
	struct proxy_request		 r;
	enum proxy_parsed		 got;
	size_t				 i;

	for (i = 0; i < sizeof junk / sizeof junk[0]; i++) {
		memset(&r, 0, sizeof r);
		memcpy(head, "\x05\x01\x00", 3);
		headlen = 3;
		got = proxy_request_parse(&r, head, &headlen, HEAD_MAX);
		ok(got == PROXY_PARSE_MORE && r.socks_greeted &&
		    headlen == 0, "greeting alone (%zu): answered, more", i);
		memcpy(head, junk[i], strlen(junk[i]));
		headlen = strlen(junk[i]);
		got = proxy_request_parse(&r, head, &headlen, HEAD_MAX);
		ok(got == PROXY_PARSE_BAD && r.kind == KIND_SOCKS &&
		    r.socks_code == SOCKS_FAILURE && r.answerlen == 0,
		    "then %zu bytes not starting with 5: a SOCKS5 failure "
		    "(code %d)", strlen(junk[i]), r.socks_code);
		proxy_request_free(&r);
	}
}

int
main(void)
{
	test_http();
	test_connect();
	test_http_refusals();
	test_socks();
	test_socks_after_greeting();
	return tap_done();
}
