/*
 * proxy-int.h - what the proxy's files share, never seen outside net/:
 * a request head as parsed (net/proxy-request.c) for the connections that
 * act on it (net/proxy.c), the SOCKS5 reply codes both speak, and the
 * proxy's and its connections' state with what ends a connection
 * (net/proxy-conn.c), which the phases in net/proxy.c call.
 */
#ifndef PTYVISOR_PROXY_INT_H
#define PTYVISOR_PROXY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "net/hostlist.h"
#include "net/proxy.h"
#include "net/relay.h"
#include "net/resolve.h"
#include "net/steer.h"

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
	KIND_SOCKS,	/* SOCKS5 CONNECT */
	KIND_TCP,	/* a relay of a loopback port: no request */
	KIND_UNIX	/* a relay of a UNIX socket: no request */
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

struct ask;
struct loop_timer;

/* Most connections at once; the listeners pause beyond (backlog waits). */
#define PROXY_MAX_CONNS 128

/* Most listening sockets: a few of the proxy's, two per relay (v4, v6). */
#define PROXY_MAX_LISTENERS (4 + 2 * PROXY_MAX_RELAYS)

/* Deadline for the request head, the lookup and the connect each, in ms. */
#define PROXY_PHASE_MS 30000

/* Where a connection is (see proxy.c). */
enum conn_state {
	CONN_HEAD,
	CONN_ASK,
	CONN_RESOLVE,
	CONN_CONNECT,
	CONN_RELAY
};

struct proxy_question;

/* One client's connection, from its request to the end of its relay. */
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
	bool			 asked;		/* a person was asked for it */
	struct sockaddr_storage	 addrs[RESOLVE_MAX_ADDRS];
	int			 naddrs, next_addr;
	char			 addr_text[INET6_ADDRSTRLEN]; /* or "unix" */
	char			 last_error[200];
	struct loop_timer	*timer;
	struct relay		 up;		/* client -> upstream */
	struct relay		 down;		/* upstream -> client */
	int64_t			 started;
};

/* The proxy: its listeners, connections, and the hosts asked or approved. */
struct proxy {
	struct loop		*loop;
	struct proxy_opts	 opts;
	int			 listeners[PROXY_MAX_LISTENERS];
	int			 relay_of[PROXY_MAX_LISTENERS]; /* opts.relays'
						   index, or -1: requests */
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
	struct steer		 steer;		/* which CPU it runs on */
	uint64_t		 log_bytes;	/* the log's size so far */
	bool			 log_full;	/* at opts.log_max: no more */
	uint64_t		 unlogged;	/* connections not listed */
};

/* A host being asked of a person, and who waits for the answer. */
struct proxy_question {
	struct proxy		*p;
	struct proxy_question	*next;
	char			 host[HOSTLIST_NAME_MAX + 1];
	uint16_t		 port;
	struct ask		*ask;
};

/* Whether the listeners should take connections again. */
void	proxy_update_listeners(struct proxy *p);

/* The log's last line, when connections went unlisted (the log full). */
void	proxy_log_end(struct proxy *p);

/* Close and free a connection (logged by the caller). */
void	proxy_conn_free(struct proxy_conn *c);

/* End a connection that was relayed or failed, logged as decided. */
void	proxy_conn_end(struct proxy_conn *c, const char *decision,
	    const char *why);

/* Write a short answer to the client, best effort (it is non-blocking). */
void	proxy_conn_answer(struct proxy_conn *c, const void *data, size_t len);

/* Send a SOCKS5 reply with an unspecified bound address. */
void	proxy_socks_reply(struct proxy_conn *c, int code);

/*
 * Refuse or fail a connection: the client is told why in its protocol
 * (an HTTP status, or a SOCKS5 reply code), the log says decision and
 * why, and the connection ends.
 */
void	proxy_conn_refuse(struct proxy_conn *c, int status, int socks_code,
	    const char *decision, const char *why);

/* A phase took too long: refused as its state says (a loop timer). */
void	proxy_conn_timeout(struct loop *l, void *arg);

/* Start a phase's deadline (PROXY_PHASE_MS). */
void	proxy_conn_deadline(struct proxy_conn *c);

/* Take q off the proxy's questions (no new connection joins it). */
void	proxy_question_unlink(struct proxy_question *q);

/* Free a question nobody waits for any more (withdrawn if unanswered). */
void	proxy_question_free(struct proxy_question *q);

#endif
