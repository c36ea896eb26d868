/*
 * proxy-int.h - what the proxy's files share, never seen outside net/:
 * a request head as parsed (net/proxy-request.c) for the connections that
 * act on it (net/proxy.c), and the SOCKS5 reply codes both speak.
 */
#ifndef PTYVISOR_PROXY_INT_H
#define PTYVISOR_PROXY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/hostlist.h"

/* SOCKS5 reply codes. */
#define SOCKS_OK		0x00
#define SOCKS_FAILURE		0x01
#define SOCKS_NOT_ALLOWED	0x02
#define SOCKS_HOST_UNREACHABLE	0x04
#define SOCKS_REFUSED		0x05
#define SOCKS_TTL_EXPIRED	0x06
#define SOCKS_BAD_COMMAND	0x07
#define SOCKS_BAD_ADDRESS	0x08
/* No reply after a refusal: the greeting's answer already said it. */
#define SOCKS_NO_REPLY		(-1)

enum proxy_kind {
	KIND_UNKNOWN,
	KIND_CONNECT,	/* HTTP CONNECT */
	KIND_HTTP,	/* plain HTTP, absolute form */
	KIND_SOCKS	/* SOCKS5 CONNECT */
};

/* What proxy_request_parse() found. */
enum proxy_parsed {
	PROXY_PARSE_MORE,	/* the head is not complete: read on */
	PROXY_PARSE_READY,	/* host and port known */
	PROXY_PARSE_BAD		/* refuse: status, socks_code and why */
};

/*
 * A request head as parsed so far; zeroed before the first byte.  The
 * kind is known as soon as the head says it, even when it is refused.
 */
struct proxy_request {
	enum proxy_kind	 kind;
	char		 host[HOSTLIST_NAME_MAX + 1];
	uint16_t	 port;
	bool		 socks_greeted;
	char		*forward;	/* HTTP: the head rewritten */
	size_t		 forwardlen;
	unsigned char	 answer[2];	/* to send the client first (the
					   SOCKS5 greeting's answer) */
	size_t		 answerlen;	/* 0: nothing */
	int		 status;	/* PROXY_PARSE_BAD: HTTP status, */
	int		 socks_code;	/* SOCKS5 reply code, */
	const char	*why;		/* and the reason */
};

/*
 * Parse the *len bytes of head (at most max; the buffer holds max) read
 * from a client so far: HTTP when the first byte is not 5, else SOCKS5.
 * What is parsed is taken out of head (*len shrinks), so what is left is
 * what the client sent after its request.  Each call sets r->answer anew.
 */
enum proxy_parsed proxy_request_parse(struct proxy_request *r, char *head,
		    size_t *len, size_t max);

/* Free what a request holds (its rewritten head). */
void		 proxy_request_free(struct proxy_request *r);

#endif
