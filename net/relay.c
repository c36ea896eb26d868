/*
 * relay.c - one direction of a relayed connection (see relay.h).
 *
 * Bytes move through a pipe with splice(2) when one can be made, else
 * through a buffer, read and written RELAY_BUF at a time; what must go
 * first (in buf) always goes before the pipe's bytes.  Each call moves a
 * bounded amount, so one busy connection cannot hold the loop.
 */
#include "net/relay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/util.h"

/*
 * Bytes buffered per direction of a relayed connection: large enough that
 * a bulk transfer moves in few system calls, small enough that 2 x 256 KiB
 * x a proxy's PROXY_MAX_CONNS stays bounded (64 MiB at most).
 */
#define RELAY_BUF (256 * 1024)

/*
 * Bytes a direction's pipe may hold: as much as its buffer would, so a
 * bulk transfer moves in few system calls, bounded per connection.
 */
#define RELAY_PIPE (1024 * 1024)

/* Set a direction up for relaying, with a pipe when one can be made. */
void
relay_init(struct relay *d, size_t first)
{
	int	size;

	d->pipe[0] = d->pipe[1] = -1;
	if (pipe2(d->pipe, O_CLOEXEC | O_NONBLOCK) == 0) {
		fcntl(d->pipe[1], F_SETPIPE_SZ, RELAY_PIPE);
		size = fcntl(d->pipe[1], F_GETPIPE_SZ);
		d->pipecap = size > 0 ? (size_t)size : 65536;
		d->cap = first;
	} else
		d->cap = RELAY_BUF;
	d->buf = d->cap > 0 ? xmalloc(d->cap) : NULL;
}

/* Release a direction's buffer and pipe. */
void
relay_free(struct relay *d)
{
	free(d->buf);
	if (d->pipe[0] >= 0) {
		close(d->pipe[0]);
		close(d->pipe[1]);
	}
}

/* Bytes waiting for dst. */
size_t
relay_pending(const struct relay *d)
{
	return d->len - d->off + d->inpipe;
}

/* Whether src may be read now. */
bool
relay_has_room(const struct relay *d)
{
	if (d->eof)
		return false;
	if (d->pipe[0] >= 0)
		return d->inpipe < d->pipecap;
	return d->len < d->cap;
}

/* Move what can move in one direction; -1 when the connection broke. */
int
relay_pump(struct relay *d, int src, int dst)
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
		if (relay_has_room(d)) {
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
	if (d->eof && relay_pending(d) == 0 && !d->shut) {
		shutdown(dst, SHUT_WR);
		d->shut = true;
	}
	return 0;
}
