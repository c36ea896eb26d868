/*
 * relay.c - one direction of a relayed connection, and a relayed socket's
 * tuning (see relay.h).
 *
 * Bytes move from src into the direction's pipe and out of it with
 * splice(2): the proxy hands the sender's pages on to the reader's socket
 * and never copies them.  Where no pipe of RELAY_BUF can be had (the
 * user's pipe pages spent, no more fds) or a socket cannot be spliced,
 * they are read into a buffer and written from it.  Either way at most
 * RELAY_BUF bytes wait per direction, whatever the two sides do, and each
 * call moves a bounded amount, so one busy connection cannot hold the loop.
 *
 * Splicing pays only beside the reader: with the proxy wherever the
 * scheduler put it, copying was faster (the pages queued long on the
 * sender's side and the reader took them cold); with the proxy on the
 * reader's CPU (steer.h) splicing is.  bench/net-proxy.sh's two ends on
 * two CPUs, each proxied copy between direct ones, against the direct
 * copy's median: 100 MB down, 100% copied and 116% spliced (12 rounds);
 * 1 GB down, 101% and 112% (6 rounds); 100 MB up, 106% and 166% (8
 * rounds).  The proxy's own CPU for 3 GB down: 0.68-0.71 s copied,
 * 0.42-0.50 s spliced.
 */
#include "net/relay.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/util.h"

/*
 * Rounds of writing and reading per call: up to 32 buffers (8 MiB) per
 * event keeps a bulk transfer off the poll, and a turn of the loop short.
 */
#define RELAY_ROUNDS 32

/*
 * The receive buffer of a relayed socket, when net.core.rmem_max allows
 * it.  A relayed copy keeps three processes busy (sender, proxy,
 * receiver): on two cores one of them waits for a CPU at any time, and a
 * sender that may run this far ahead of the proxy waits for it less often
 * than the kernel's tuning lets it, which starts small and grows by what
 * the reader took.  bench/net-proxy.sh, 100 MB, each proxied copy beside a
 * direct one, order alternating, ten triples: the proxied copy at 79% of
 * the direct one with the kernel's tuning (median), 87% with this.  Fixed,
 * the buffer no longer grows past it: below 4 MiB allowed, the tuning
 * (which may reach net.ipv4.tcp_rmem's maximum) is kept.
 */
#define RELAY_SOCKBUF	(4 * 1024 * 1024)

/*
 * The congestion control of a connection to this machine's loopback: one
 * every kernel has and lets anyone choose, that does not pace.  The
 * reason the sandbox's namespace has it (sandbox/net.c) holds for the
 * proxy's hop out to a server on the host's loopback: a host's BBR paces
 * it at the rate it measured, far below what the CPUs carry.  100 MB
 * uploads through the proxy to a server on 127.0.0.1 of a BBR host, each
 * between direct ones, 8 rounds: the proxy steered (steer.h) but paced,
 * 52% of the direct upload (before the steering, 59%); unpaced, 106%.
 * Toward anywhere else the host's choice stays.
 */
#define RELAY_LOOPBACK_CONGESTION	"reno"

/* Whether a peer is on this machine's loopback (127/8, ::1, ::ffff:127/104). */
static bool
relay_loopback(const struct sockaddr *peer)
{
	const struct sockaddr_in	*s4;
	const struct sockaddr_in6	*s6;

	if (peer == NULL)
		return false;
	if (peer->sa_family == AF_INET) {
		s4 = (const struct sockaddr_in *)(const void *)peer;
		return (ntohl(s4->sin_addr.s_addr) >> 24) == 127;
	}
	if (peer->sa_family == AF_INET6) {
		s6 = (const struct sockaddr_in6 *)(const void *)peer;
		return IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr) ||
		    (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr) &&
		    s6->sin6_addr.s6_addr[12] == 127);
	}
	return false;
}

void
relay_socket_tune(int fd, const struct sockaddr *peer)
{
	static int	allowed = -1;	/* net.core.rmem_max, read once */
	FILE		*f;
	int		 size = RELAY_SOCKBUF;

	if (allowed < 0) {
		allowed = 0;
		if ((f = fopen("/proc/sys/net/core/rmem_max", "re")) != NULL) {
			if (fscanf(f, "%d", &allowed) != 1)
				allowed = 0;
			fclose(f);
		}
	}
	if (allowed >= RELAY_SOCKBUF)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size,
		    sizeof size);
	/* Refused (not TCP, an old kernel): the host's choice stays. */
	if (relay_loopback(peer))
		(void)setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION,
		    RELAY_LOOPBACK_CONGESTION,
		    sizeof RELAY_LOOPBACK_CONGESTION - 1);
}

/* Set a direction up for relaying. */
void
relay_init(struct relay *d, size_t first, bool splice)
{
	int	size;

	d->off = d->len = d->inpipe = 0;
	d->spliced = d->pipe_full = false;
	if (splice && pipe2(d->pipe, O_CLOEXEC | O_NONBLOCK) == 0) {
		/* A smaller pipe (the user's pipe pages spent) would move
		 * bytes a few pages at a time: the buffer does better. */
		(void)fcntl(d->pipe[1], F_SETPIPE_SZ, RELAY_BUF);
		size = fcntl(d->pipe[1], F_GETPIPE_SZ);
		if (size >= RELAY_BUF)
			d->spliced = true;
		else {
			close(d->pipe[0]);
			close(d->pipe[1]);
		}
	}
	if (d->spliced) {
		d->cap = first;
		d->buf = first > 0 ? xmalloc(first) : NULL;
	} else {
		d->cap = first > RELAY_BUF ? first : RELAY_BUF;
		d->buf = xmalloc(d->cap);
	}
}

/* Release a direction's buffer and pipe. */
void
relay_free(struct relay *d)
{
	free(d->buf);
	d->buf = NULL;
	if (d->spliced) {
		close(d->pipe[0]);
		close(d->pipe[1]);
		d->spliced = false;
	}
}

/*
 * A source that cannot be spliced (every socket can, on the kernels
 * ptyvisor runs on): what the pipe holds goes to the end of the buffer,
 * which then carries everything.  -1 if the pipe cannot be read.
 */
static int
relay_unsplice(struct relay *d)
{
	size_t	want = d->len - d->off + d->inpipe;
	char	*buf;
	ssize_t	 n;

	if (want < RELAY_BUF)
		want = RELAY_BUF;
	buf = xmalloc(want);
	if (d->len > d->off)
		memcpy(buf, d->buf + d->off, d->len - d->off);
	d->len -= d->off;
	d->off = 0;
	while (d->inpipe > 0) {
		n = read(d->pipe[0], buf + d->len, d->inpipe);
		if (n <= 0) {
			free(buf);
			return -1;
		}
		d->len += (size_t)n;
		d->inpipe -= (size_t)n;
	}
	free(d->buf);
	d->buf = buf;
	d->cap = want;
	close(d->pipe[0]);
	close(d->pipe[1]);
	d->spliced = d->pipe_full = false;
	return 0;
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
	if (d->spliced)
		return d->inpipe < RELAY_BUF && !d->pipe_full;
	return d->len < d->cap;
}

/* Move what can move in one direction; -1 when the connection broke. */
int
relay_pump(struct relay *d, int src, int dst)
{
	ssize_t	n;
	int	rounds;
	bool	moved;

	/* Until neither side moves: drained to EAGAIN, bounded per turn. */
	for (rounds = 0; rounds < RELAY_ROUNDS; rounds++) {
		moved = false;
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
			if (d->spliced)
				n = splice(src, NULL, d->pipe[1], NULL,
				    RELAY_BUF - d->inpipe, SPLICE_F_MOVE |
				    SPLICE_F_NONBLOCK);
			else
				n = read(src, d->buf + d->len,
				    d->cap - d->len);
			if (n > 0) {
				if (d->spliced)
					d->inpipe += (size_t)n;
				else
					d->len += (size_t)n;
				moved = true;
			} else if (n == 0)
				d->eof = true;
			else if (errno == EINVAL && d->spliced) {
				if (relay_unsplice(d) != 0)
					return -1;
				moved = true;
			} else if (errno == EAGAIN) {
				/* Nothing to read, or no slot left in the
				 * pipe (small segments): which, EAGAIN does
				 * not say, so src waits till the pipe
				 * drains. */
				if (d->spliced && d->inpipe > 0)
					d->pipe_full = true;
			} else if (errno != EINTR)
				return -1;
		}
		/* The pipe's bytes, after what had to go first. */
		if (d->inpipe > 0 && d->len == d->off) {
			n = splice(d->pipe[0], NULL, dst, NULL, d->inpipe,
			    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (n > 0) {
				d->inpipe -= (size_t)n;
				d->bytes += (uint64_t)n;
				d->pipe_full = false;
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
