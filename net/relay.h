/*
 * relay.h - one direction of a relayed connection: bytes moved from one
 * socket to another through a bounded pipe (splice, never copied to user
 * space) or, where no pipe can be had, a bounded buffer; the writing side
 * shut once the reading side said EOF and everything went.  Also the
 * tuning of a relayed socket before it connects (its receive buffer, and
 * an unpaced congestion control toward this machine's loopback).  Knows
 * nothing of proxies: the caller polls, and asks here what to poll for.
 */
#ifndef PTYVISOR_RELAY_H
#define PTYVISOR_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Bytes that wait per direction of a relayed connection: large enough that
 * a bulk transfer moves in few system calls, small enough that 2 x 256 KiB
 * x a proxy's PROXY_MAX_CONNS stays bounded (64 MiB at most).
 */
#define RELAY_BUF (256 * 1024)

/*
 * One direction: bytes read from src for dst, waiting in buf[off..len),
 * then (spliced) in the pipe.  What must go first is put in buf[0..cap)
 * by the caller after relay_init, which sets len.  A zeroed struct relay
 * may be freed.
 */
struct relay {
	char		*buf;
	size_t		 off, len, cap;
	int		 pipe[2];	/* spliced: the pipe bytes move through */
	size_t		 inpipe;	/* bytes in it */
	bool		 spliced;	/* through the pipe, not buf */
	bool		 pipe_full;	/* it took nothing: wait till it drains */
	bool		 eof;		/* src said EOF */
	bool		 shut;		/* dst shut for writing */
	uint64_t	 bytes;		/* written to dst */
};

/*
 * Set a direction up; first: room for the bytes that must go first.
 * splice: through a pipe of RELAY_BUF (256 KiB) when one can be made;
 * else, or without splice, through a buffer of RELAY_BUF (or first, if
 * more).  At most RELAY_BUF bytes wait either way, beyond what goes first.
 */
void	relay_init(struct relay *d, size_t first, bool splice);

/* Release a direction's buffer and pipe. */
void	relay_free(struct relay *d);

/* Bytes waiting for dst. */
size_t	relay_pending(const struct relay *d);

/* Whether src may be read now. */
bool	relay_has_room(const struct relay *d);

/*
 * Move what can move from src to dst, a bounded amount per call; shut dst
 * for writing once src said EOF and nothing waits.  0, or -1 when the
 * connection broke.
 */
int	relay_pump(struct relay *d, int src, int dst);

/*
 * Give a socket the relay reads from a receive buffer of RELAY_SOCKBUF
 * when the system allows one that large (net.core.rmem_max), before it
 * connects; else leave it to the kernel's tuning.  peer (or NULL): where
 * it will connect; on this machine's loopback it gets a congestion
 * control that does not pace (reno), whatever the host's default.
 */
struct sockaddr;
void	relay_socket_tune(int fd, const struct sockaddr *peer);

#endif
