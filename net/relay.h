/*
 * relay.h - one direction of a relayed connection: bytes read from one
 * socket and written to another, through a pipe with splice(2) (never
 * copied to us) or, when no pipe can be made, through a bounded buffer;
 * the writing side shut once the reading side said EOF and everything
 * went.  Knows nothing of proxies: the caller polls, and asks here what
 * to poll for.
 */
#ifndef PTYVISOR_RELAY_H
#define PTYVISOR_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One direction: bytes read from src for dst.  buf holds what must go
 * first (the caller puts it in buf[0..cap) after relay_init and sets
 * len), or everything when there is no pipe.
 */
struct relay {
	char		*buf;
	size_t		 off, len, cap;
	int		 pipe[2];	/* -1: no pipe, buf only */
	size_t		 inpipe;	/* bytes in the pipe */
	size_t		 pipecap;	/* its capacity */
	bool		 eof;		/* src said EOF */
	bool		 shut;		/* dst shut for writing */
	uint64_t	 bytes;		/* written to dst */
};

/*
 * Set a direction up, with a pipe when one can be made; first: room for
 * the bytes that must go first (without a pipe the buffer is 256 KiB).
 * A zeroed struct relay with both pipe fds -1 may be freed without it.
 */
void	relay_init(struct relay *d, size_t first);

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

#endif
