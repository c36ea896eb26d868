/*
 * proxy.h - the filtering proxy, a sandboxed command's only way out to the
 * network: HTTP (CONNECT, and plain requests in absolute form) and SOCKS5
 * (CONNECT, names or addresses) on the same listening sockets, told apart
 * by their first byte.
 *
 * Each connection's target is judged by name against a host list
 * (net/hostlist.h) before anything is resolved; names are resolved here,
 * outside the sandbox (net/resolve.h), and each address is checked again
 * before it is connected to.  Everything is non-blocking on the loop, with
 * bounded buffers per connection and a bound on connections.  A host on
 * neither list is judged by the caller's rules when it has some (the
 * rules file's "connect" rules), else asked of a person through the
 * asker the caller gives, at the place it names (net/ask.h: ptyvisor's
 * asks its server on the control socket), else refused with how to
 * allow it; one approved for the session (or by a rule) is kept for the
 * proxy's life, one approved once lets that connection through and the
 * next is asked again.  A refusal
 * answers with the reason (an HTTP 403 whose body and X-Ptyvisor-Refused
 * header say why, or SOCKS5's "not allowed by ruleset").
 *
 * Besides its own port, the proxy serves relays: a listening socket of
 * the sandbox's at a service's own address (a port of its loopback, a
 * UNIX socket's path), each connection made to it relayed to the same
 * service of the host, with no request and nothing asked: the allow list
 * named it when the sandbox was made.  A port a process of ptyvisor's
 * claims (ownport.h) is never connected to.
 *
 * Every connection ends as one JSON line on the log fd: time, protocol,
 * host, port, the address used, the decision and why, whether a person
 * was asked, bytes each way.
 */
#ifndef PTYVISOR_PROXY_H
#define PTYVISOR_PROXY_H

#include <stdint.h>

#include "net/hostlist.h"

struct asker;
struct loop;
struct proxy;

/* Most services of the host one proxy relays (32 ports or sockets). */
#define PROXY_MAX_RELAYS 32

/*
 * A service of the host a sandbox reaches at its own address: a port of
 * the loopback (host "localhost", "127.0.0.1" or "::1", the address
 * connected to; localhost's in the family of the listener it came in on
 * first, then the other) or a UNIX socket (port 0, host its path).
 */
struct proxy_relay {
	char		 host[HOSTLIST_NAME_MAX + 1];
	uint16_t	 port;		/* 0: a UNIX socket */
	char		 why[160];	/* what allows it, for the log */
};

/*
 * The log stops at this size: a last line {"log_full":true}, and when the
 * proxy ends {"not_logged":N}, the connections it did not list.  Why 16
 * MiB: as a session's exec log; a line is about 250 bytes, so some 65,000
 * connections, far more than any build or test makes, and a loop that
 * reconnects for ever no longer fills the disk.
 */
#define PROXY_LOG_MAX	(16 * 1024 * 1024)

/* What a proxy needs; the caller keeps hosts alive as long as the proxy. */
struct proxy_opts {
	const struct hostlist	*hosts;
	int			 log_fd;	/* -1: no log */
	uint64_t		 log_max;	/* its bound; 0: PROXY_LOG_MAX
						   (tests set less) */
	const char		*hosts_file;	/* tests only: see resolve.h */
	const char		*ask_socket;	/* a host on neither list is
						   asked there, by asker;
						   NULL: refused */
	const struct asker	*asker;		/* who asks (net/ask.h);
						   NULL: refused */
	hostlist_rules_fn	 rules;		/* a host on neither list is
						   judged by these first;
						   NULL: none */
	void			*rules_arg;
	const char		*rules_file;	/* where a rule for a refused
						   host would go, for the
						   reason's hint; NULL: none */
	const struct proxy_relay *relays;	/* the services relayed,
						   by index */
	int			 nrelays;
};

/* A proxy on l.  Free with proxy_free(). */
struct proxy	*proxy_new(struct loop *l, const struct proxy_opts *opts);

/* Serve connections accepted on a listening socket (the proxy owns it). */
void		 proxy_add_listener(struct proxy *p, int fd);

/*
 * Relay the connections accepted on a listening socket (the proxy owns
 * it) to opts.relays[relay].
 */
void		 proxy_add_relay(struct proxy *p, int fd, int relay);

/* How many connections are open. */
unsigned int	 proxy_connections(const struct proxy *p);

/* Close every connection (each logged, as cut) and listener.  NULL: no-op. */
void		 proxy_free(struct proxy *p);

/*
 * The proxy as a process of its own: receive listening sockets over the
 * UNIX socket channel (SCM_RIGHTS), serve them until channel reaches EOF or
 * SIGTERM arrives, then close everything (logged) and return 0; -1 with
 * *cause when it cannot start.
 */
int		 proxy_serve(int channel, const struct proxy_opts *opts,
		     char **cause);

/* Send a listening socket over channel to proxy_serve(); 0 or -1. */
int		 proxy_send_listener(int channel, int fd);

/*
 * Send a relay's listening socket over channel to proxy_serve(), for
 * opts.relays[relay] (below PROXY_MAX_RELAYS); 0 or -1.
 */
int		 proxy_send_relay(int channel, int fd, int relay);

#endif
