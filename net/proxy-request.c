/*
 * proxy-request.c - a proxy request's head, parsed (see proxy-int.h): HTTP
 * CONNECT HOST:PORT, plain HTTP in absolute form (rewritten to what goes
 * upstream: the origin form, the URL's own Host, no proxy headers, one
 * request), or SOCKS5's greeting and CONNECT request.  Pure: it reads
 * bytes and says what they ask for, or why they are refused; nothing is
 * sent or closed here.
 */
#include "net/proxy-int.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

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

/* A refusal of r: the status, the SOCKS5 reply code, why. */
static enum proxy_parsed
refuse(struct proxy_request *r, int status, int socks_code, const char *why)
{
	r->status = status;
	r->socks_code = socks_code;
	r->why = why;
	return PROXY_PARSE_BAD;
}

/* Take the first n bytes, parsed, out of head. */
static void
consume(char *head, size_t *headlen, size_t n)
{
	memmove(head, head + n, *headlen - n);
	*headlen -= n;
}

/*
 * A complete HTTP head of len bytes (up to and with the empty line): find
 * the target, build what goes upstream.
 */
static enum proxy_parsed
http_parse(struct proxy_request *r, char *head, size_t *headlen, size_t len)
{
	char		*sp1, *sp2, *eol, *line, *target;
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
		return refuse(r, 400, 0, "not an HTTP proxy request");
	}
	target = sp1 + 1;
	is_connect = (size_t)(sp1 - head) == 7 &&
	    strncmp(head, "CONNECT", 7) == 0;
	if (is_connect) {
		r->kind = KIND_CONNECT;
		if (parse_authority(target, (size_t)(sp2 - target), 0,
		    r->host, sizeof r->host, &r->port) != 0)
			return refuse(r, 400, 0, "bad CONNECT target "
			    "(HOST:PORT)");
		/* Nothing of the head goes upstream; bytes after it do. */
		consume(head, headlen, len);
		return PROXY_PARSE_READY;
	}
	r->kind = KIND_HTTP;
	if ((size_t)(sp2 - target) > 7 && strncasecmp(target, "http://", 7) ==
	    0) {
		authority = target + 7;
		alen = strcspn(authority, "/? ");
		if (authority + alen > sp2)
			alen = (size_t)(sp2 - authority);
		path = authority + alen;
	} else
		return refuse(r, 400, 0, (size_t)(sp2 - target) > 8 &&
		    strncasecmp(target, "https://", 8) == 0 ?
		    "https:// needs CONNECT (set HTTPS_PROXY)" :
		    "the target must be an absolute http:// URL");
	if (parse_authority(authority, alen, 80, r->host, sizeof r->host,
	    &r->port) != 0)
		return refuse(r, 400, 0, "bad host in the URL");
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
	r->forward = out.data;
	r->forwardlen = out.len;
	consume(head, headlen, len);
	return PROXY_PARSE_READY;
}

/*
 * SOCKS5: the greeting (answered in r->answer), then the request.  Its
 * refusals are answered with a reply code alone.
 */
static enum proxy_parsed
socks_parse(struct proxy_request *r, char *head, size_t *headlen)
{
	unsigned char	*h = (unsigned char *)head;
	unsigned char	 choice[2] = { 5, 0xff };
	size_t		 need, i;
	char		 addr[INET6_ADDRSTRLEN], name[256];

	r->kind = KIND_SOCKS;
	if (!r->socks_greeted) {
		if (*headlen < 2 || *headlen < 2 + (size_t)h[1])
			return PROXY_PARSE_MORE;
		for (i = 0; i < h[1]; i++)
			if (h[2 + i] == 0)
				choice[1] = 0;
		memcpy(r->answer, choice, sizeof choice);
		r->answerlen = sizeof choice;
		if (choice[1] != 0)
			return refuse(r, 400, SOCKS_NO_REPLY, "SOCKS5 without "
			    "the no-authentication method");
		consume(head, headlen, 2 + (size_t)h[1]);
		r->socks_greeted = true;
	}
	/* Greeted: whatever follows is a SOCKS5 request, or refused as one. */
	if (*headlen > 0 && h[0] != 5)
		return refuse(r, 400, SOCKS_FAILURE, "bad SOCKS5 request");
	if (*headlen < 5)
		return PROXY_PARSE_MORE;
	switch (h[3]) {
	case 1:	need = 4 + 4 + 2; break;
	case 3:	need = 4 + 1 + (size_t)h[4] + 2; break;
	case 4:	need = 4 + 16 + 2; break;
	default:
		return refuse(r, 400, SOCKS_BAD_ADDRESS, "SOCKS5 address type "
		    "not supported");
	}
	if (*headlen < need)
		return PROXY_PARSE_MORE;
	if (h[1] != 1)
		return refuse(r, 400, SOCKS_BAD_COMMAND, "only SOCKS5 CONNECT "
		    "is supported");
	r->port = (uint16_t)(h[need - 2] << 8 | h[need - 1]);
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
	    hostlist_normalize(name, r->host, sizeof r->host) != 0)
		return refuse(r, 400, SOCKS_BAD_ADDRESS, "bad SOCKS5 host "
		    "name");
	consume(head, headlen, need);
	return PROXY_PARSE_READY;
}

enum proxy_parsed
proxy_request_parse(struct proxy_request *r, char *head, size_t *len,
    size_t max)
{
	char	*end;

	r->answerlen = 0;
	/* After a greeting, even a request in a read of its own is SOCKS5. */
	if (r->socks_greeted || (unsigned char)head[0] == 5)
		return socks_parse(r, head, len);
	end = memmem(head, *len, "\r\n\r\n", 4);
	if (end == NULL) {
		if (*len == max)
			return refuse(r, 431, 0, "request head too large");
		return PROXY_PARSE_MORE;
	}
	return http_parse(r, head, len, (size_t)(end + 4 - head));
}

void
proxy_request_free(struct proxy_request *r)
{
	free(r->forward);
	r->forward = NULL;
	r->forwardlen = 0;
}
