/*
 * relay.c - one direction of a relayed connection (see relay.h).
 *
 * Bytes are read into the direction's buffer and written from it at once,
 * read again only while it has room: at most RELAY_BUF bytes wait per
 * direction, whatever the two sides do.  Each call moves a bounded amount,
 * so one busy connection cannot hold the loop.
 *
 * Why read and write, not splice(2) through a pipe: spliced pages are
 * the upstream sender's, queued megabytes before the reader copies them
 * (out of cache by then), and a socket built from them carries small
 * segments; bytes written from this buffer are in cache when the reader
 * takes them, in segments as large as the path allows.  100 MB copied
 * on loopback went faster this way (bench/net-proxy.sh).
 */
#include "net/relay.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
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
relay_init(struct relay *d, size_t first)
{
	d->cap = first > RELAY_BUF ? first : RELAY_BUF;
	d->buf = xmalloc(d->cap);
	d->off = d->len = 0;
}

/* Release a direction's buffer. */
void
relay_free(struct relay *d)
{
	free(d->buf);
	d->buf = NULL;
}

/* Bytes waiting for dst. */
size_t
relay_pending(const struct relay *d)
{
	return d->len - d->off;
}

/* Whether src may be read now. */
bool
relay_has_room(const struct relay *d)
{
	return !d->eof && d->len < d->cap;
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
			n = read(src, d->buf + d->len, d->cap - d->len);
			if (n > 0) {
				d->len += (size_t)n;
				moved = true;
			} else if (n == 0)
				d->eof = true;
			else if (errno != EAGAIN && errno != EINTR)
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
