/*
 * test-relay.c - one direction of a relayed connection between socket
 * pairs, each check twice: bytes copied through the buffer, and spliced
 * through the pipe.  What must go first goes before what is read, bytes
 * counted, EOF passed on as a half-close once everything went, reading
 * paused while the buffer (the pipe) is full and nothing lost after, a
 * broken peer reported; two directions as the proxy runs them moving
 * megabytes of a non-repeating stream each way, one side half-closed
 * while the other goes on, every byte compared and counted.  Spliced
 * only: a pipe whose slots are all taken by small writes pauses the
 * source (no busy poll) and loses nothing; a source that cannot be
 * spliced falls back to the buffer, after what had to go first.  A
 * socket's receive buffer made large when the system allows it, left to
 * the kernel when it does not; toward this machine's loopback a
 * congestion control that does not pace, elsewhere the host's.
 */
#include "net/relay.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/tap.h"

/* Whether this pass splices. */
static bool		 spliced;

/* Set a direction up in this pass's way; 0, or -1 to skip the pass. */
static int
init(struct relay *d, size_t first)
{
	memset(d, 0, sizeof *d);
	relay_init(d, first, spliced);
	return d->spliced == spliced ? 0 : -1;
}
/* Two socket pairs: the relay reads in[1] and writes out[0]. */
static int	in[2], out[2];

static void
pairs(void)
{
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, in) != 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, out) != 0)
		exit(99);
}

static void
unpair(void)
{
	close(in[0]);
	close(in[1]);
	close(out[0]);
	close(out[1]);
}

/* Read what out[1] has now into b (at most len), or -1. */
static ssize_t
drain(char *b, size_t len)
{
	ssize_t	n = read(out[1], b, len);

	return n < 0 && errno == EAGAIN ? 0 : n;
}

/* The head first, then what the source sent, then EOF passed on. */
static void
test_order(void)
{
	struct relay	d;
	char		b[64];
	ssize_t		n;

	(void)init(&d, 4);
	ok(d.cap >= 4, "room for what goes first");
	memcpy(d.buf, "HEAD", 4);
	d.len = 4;
	is_int(relay_pending(&d), 4, "the head is pending");
	ok(relay_has_room(&d), "the source may be read");
	if (write(in[0], "BODY", 4) != 4)
		exit(98);
	is_int(relay_pump(&d, in[1], out[0]), 0, "pumped");
	n = drain(b, sizeof b);
	ok(n == 8 && memcmp(b, "HEADBODY", 8) == 0, "the head, then the body");
	is_int(d.bytes, 8, "bytes counted");
	is_int(relay_pending(&d), 0, "nothing pending");
	ok(!d.shut, "no EOF yet, not shut");

	shutdown(in[0], SHUT_WR);
	is_int(relay_pump(&d, in[1], out[0]), 0, "EOF pumped");
	ok(d.eof && d.shut && !relay_has_room(&d), "EOF seen, the "
	    "destination shut, nothing more read");
	n = read(out[1], b, sizeof b);
	is_int(n, 0, "the destination's peer reads EOF");
	relay_free(&d);
}

/* A head larger than the usual buffer: room for all of it. */
static void
test_large_head(void)
{
	struct relay	d;

	(void)init(&d, 1024 * 1024);
	ok(d.cap >= 1024 * 1024 && d.buf != NULL, "a head of 1 MiB fits");
	relay_free(&d);
	relay_free(&d);
	ok(d.buf == NULL, "freed twice: nothing left to free");
}

/* A destination that does not read: the source paused, nothing lost. */
static void
test_backpressure(void)
{
	struct relay	 d;
	static char	 chunk[65536], got[65536];
	size_t		 sent = 0, recvd = 0, i;
	ssize_t		 n;
	int		 rounds;
	bool		 paused = false, same = true;

	(void)init(&d, 0);
	for (rounds = 0; rounds < 10000 && !paused; rounds++) {
		for (i = 0; i < sizeof chunk; i++)
			chunk[i] = (char)((sent + i) % 251);
		n = write(in[0], chunk, sizeof chunk);
		if (n > 0)
			sent += (size_t)n;
		if (relay_pump(&d, in[1], out[0]) != 0)
			break;
		paused = !relay_has_room(&d);
	}
	if (spliced) {
		ok(paused && (d.inpipe == RELAY_BUF || d.pipe_full), "the pipe "
		    "full: the source is not read (%zu bytes held)", d.inpipe);
		ok(relay_pending(&d) <= RELAY_BUF, "what waits is bounded by "
		    "the pipe (%zu of %d)", relay_pending(&d), RELAY_BUF);
	} else {
		ok(paused && d.len == d.cap, "the buffer full: the source is "
		    "not read (%zu bytes held)", d.len);
		ok(relay_pending(&d) <= d.cap, "what waits is bounded by the "
		    "buffer (%zu of %zu)", relay_pending(&d), d.cap);
	}
	shutdown(in[0], SHUT_WR);
	for (rounds = 0; rounds < 100000 && !d.shut; rounds++) {
		if (relay_pump(&d, in[1], out[0]) != 0)
			break;
		while ((n = drain(got, sizeof got)) > 0) {
			for (i = 0; i < (size_t)n; i++)
				if (got[i] != (char)((recvd + i) % 251))
					same = false;
			recvd += (size_t)n;
		}
	}
	while ((n = drain(got, sizeof got)) > 0) {
		for (i = 0; i < (size_t)n; i++)
			if (got[i] != (char)((recvd + i) % 251))
				same = false;
		recvd += (size_t)n;
	}
	ok(d.shut && recvd == sent && d.bytes == sent && same, "every byte "
	    "arrives in order once the destination reads (%zu of %zu)", recvd,
	    sent);
	relay_free(&d);
}

/* A destination gone: the relay says the connection broke. */
static void
test_broken(void)
{
	struct relay	d;

	(void)init(&d, 0);
	close(out[1]);
	out[1] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (write(in[0], "DATA", 4) != 4)
		exit(98);
	is_int(relay_pump(&d, in[1], out[0]), -1, "a destination gone: "
	    "broken");
	relay_free(&d);
}

/*
 * Byte i of a non-repeating stream (a 64-bit mix of the seed and i): a
 * block lost, repeated or moved shows, wherever it falls.
 */
static unsigned char
stream_byte(uint64_t seed, uint64_t i)
{
	uint64_t	x = seed ^ (i >> 3) * 0x9e3779b97f4a7c15ULL;

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 29;
	return (unsigned char)(x >> ((i & 7) * 8));
}

/* One end of the bulk test: what it sends and what it checks. */
struct end {
	int		 fd;
	uint64_t	 seed_out, seed_in;
	size_t		 to_send, sent, got;
	bool		 shut, eof, same;
};

/* Send what the end may (in odd-sized pieces), shut it when all went. */
static void
end_send(struct end *e)
{
	unsigned char	b[70001];
	size_t		want, i;
	ssize_t		n;

	while (e->sent < e->to_send) {
		want = e->to_send - e->sent;
		if (want > sizeof b - (e->sent % 7919))
			want = sizeof b - (e->sent % 7919);
		for (i = 0; i < want; i++)
			b[i] = stream_byte(e->seed_out, e->sent + i);
		n = write(e->fd, b, want);
		if (n <= 0)
			return;
		e->sent += (size_t)n;
	}
	if (!e->shut) {
		shutdown(e->fd, SHUT_WR);
		e->shut = true;
	}
}

/* Read what has come to the end, compared with the peer's stream. */
static void
end_recv(struct end *e)
{
	unsigned char	b[65536];
	ssize_t		n, i;

	while ((n = read(e->fd, b, sizeof b)) > 0) {
		for (i = 0; i < n; i++)
			if (b[i] != stream_byte(e->seed_in, e->got + (size_t)i))
				e->same = false;
		e->got += (size_t)n;
	}
	if (n == 0)
		e->eof = true;
}

/*
 * Both directions as the proxy runs them: a client's 3 MB up while 24 MB
 * come down, the client half-closed long before the server; every byte
 * compared, counted, each EOF passed on.
 */
static void
test_both_ways(void)
{
	struct relay	up, down;
	struct end	cl, sv;
	int		cp[2], sp[2], turns;
	const size_t	nup = 3000017, ndown = 24000023;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, cp) != 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sp) != 0)
		exit(99);
	(void)init(&up, 0);
	(void)init(&down, 0);
	memset(&cl, 0, sizeof cl);
	memset(&sv, 0, sizeof sv);
	cl.fd = cp[0];
	cl.seed_out = sv.seed_in = 0x5eed1;
	cl.to_send = nup;
	sv.fd = sp[1];
	sv.seed_out = cl.seed_in = 0x5eed2;
	sv.to_send = ndown;
	cl.same = sv.same = true;
	for (turns = 0; turns < 1000000 && !(cl.eof && sv.eof); turns++) {
		end_send(&cl);
		/* The server answers in full only after the client's EOF. */
		if (sv.eof || sv.sent < ndown / 2)
			end_send(&sv);
		if (relay_pump(&up, cp[1], sp[0]) != 0 ||
		    relay_pump(&down, sp[0], cp[1]) != 0)
			break;
		end_recv(&sv);
		end_recv(&cl);
	}
	ok(sv.eof && sv.got == nup && sv.same, "up: %zu of %zu bytes, "
	    "%s, then EOF", sv.got, nup, sv.same ? "equal" : "different");
	ok(cl.eof && cl.got == ndown && cl.same, "down: %zu of %zu bytes, "
	    "%s, then EOF", cl.got, ndown, cl.same ? "equal" : "different");
	ok(up.bytes == nup && down.bytes == ndown, "each way counted "
	    "exactly (%llu up, %llu down)", (unsigned long long)up.bytes,
	    (unsigned long long)down.bytes);
	ok(up.shut && down.shut, "both half-closes passed on");
	relay_free(&up);
	relay_free(&down);
	close(cp[0]);
	close(cp[1]);
	close(sp[0]);
	close(sp[1]);
}

/* A TCP socket's congestion control after relay_socket_tune(peer). */
static void
cc_after(const struct sockaddr *peer, int family, char *name, size_t len)
{
	socklen_t	l = (socklen_t)len - 1;
	int		fd;

	memset(name, 0, len);
	if ((fd = socket(family, SOCK_STREAM, 0)) < 0)
		return;
	relay_socket_tune(fd, peer);
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &l) != 0)
		name[0] = '\0';
	close(fd);
}

/*
 * relay_socket_tune with a peer: toward this machine's loopback (IPv4,
 * IPv6, IPv4-mapped) the congestion control is reno, which does not
 * pace; toward anywhere else, or without a peer, it is the host's.
 */
static void
test_tune_loopback(void)
{
	struct sockaddr_in	s4;
	struct sockaddr_in6	s6;
	char			host[32], got[32];

	cc_after(NULL, AF_INET, host, sizeof host);
	if (host[0] == '\0') {
		tap_skip(5, "no TCP congestion control to read here");
		return;
	}
	memset(&s4, 0, sizeof s4);
	s4.sin_family = AF_INET;
	s4.sin_port = htons(9);
	s4.sin_addr.s_addr = htonl(0x7f000001);
	cc_after((struct sockaddr *)&s4, AF_INET, got, sizeof got);
	is_str(got, "reno", "toward 127.0.0.1: reno (the host's: %s)", host);
	s4.sin_addr.s_addr = htonl(0x7f0a0b0c);
	cc_after((struct sockaddr *)&s4, AF_INET, got, sizeof got);
	is_str(got, "reno", "toward 127.10.11.12: reno");
	s4.sin_addr.s_addr = htonl(0xc0000201);
	cc_after((struct sockaddr *)&s4, AF_INET, got, sizeof got);
	is_str(got, host, "toward 192.0.2.1: the host's");
	memset(&s6, 0, sizeof s6);
	s6.sin6_family = AF_INET6;
	s6.sin6_port = htons(9);
	s6.sin6_addr = in6addr_loopback;
	cc_after((struct sockaddr *)&s6, AF_INET6, got, sizeof got);
	if (got[0] == '\0')
		tap_skip(2, "no IPv6 TCP socket here");
	else {
		is_str(got, "reno", "toward ::1: reno");
		inet_pton(AF_INET6, "::ffff:127.0.0.1", &s6.sin6_addr);
		cc_after((struct sockaddr *)&s6, AF_INET6, got, sizeof got);
		is_str(got, "reno", "toward ::ffff:127.0.0.1: reno");
	}
}

/*
 * relay_socket_tune: a TCP socket gets a receive buffer of 4 MiB (the
 * kernel doubles what it is given) when net.core.rmem_max allows that
 * much, and keeps the kernel's own otherwise.
 */
static void
test_tune(void)
{
	FILE		*f;
	int		 fd, max = -1, before = 0, after = 0;
	socklen_t	 len = sizeof before;

	if ((f = fopen("/proc/sys/net/core/rmem_max", "r")) != NULL) {
		if (fscanf(f, "%d", &max) != 1)
			max = -1;
		fclose(f);
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || max < 0) {
		tap_skip(1, "no TCP socket or no net.core.rmem_max here");
		if (fd >= 0)
			close(fd);
		return;
	}
	getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &before, &len);
	relay_socket_tune(fd, NULL);
	len = sizeof after;
	getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &after, &len);
	if (max >= 4 * 1024 * 1024)
		ok(after >= 8 * 1024 * 1024, "rmem_max %d: the receive buffer "
		    "is %d bytes (was %d)", max, after, before);
	else
		is_int(after, before, "rmem_max %d: the receive buffer is the "
		    "kernel's", max);
	close(fd);
}

/*
 * Spliced: one-byte writes, each its own piece in the pipe, toward a
 * destination that reads nothing.  Once the pipe has no slot left the
 * source is no longer asked for (it would poll readable and splice
 * nothing, for ever), and every byte comes through in order later.
 */
static void
test_small_pieces(void)
{
	struct relay	d;
	char		b[4096];
	size_t		i, sent = 0, got = 0;
	ssize_t		n;
	int		rounds, waiting = 0;
	bool		same = true;

	pairs();
	(void)init(&d, 0);
	for (rounds = 0; rounds < 1000000; rounds++) {
		b[0] = (char)(sent % 251);
		if (write(in[0], b, 1) == 1) {
			sent++;
			continue;
		}
		if (errno != EAGAIN)
			exit(98);
		/* The source full: the relay moves what it can. */
		if (relay_pump(&d, in[1], out[0]) != 0 || !relay_has_room(&d))
			break;
	}
	if (ioctl(in[1], FIONREAD, &waiting) != 0)
		waiting = -1;
	ok(!relay_has_room(&d) && relay_pending(&d) > 0 && waiting > 0,
	    "the destination full, the pipe's slots taken (%zu bytes in "
	    "it): the source (%d bytes still in it) is not asked for",
	    relay_pending(&d), waiting);
	shutdown(in[0], SHUT_WR);
	for (rounds = 0; rounds < 1000000 && !d.shut; rounds++) {
		if (relay_pump(&d, in[1], out[0]) != 0)
			break;
		while ((n = drain(b, sizeof b)) > 0)
			for (i = 0; i < (size_t)n; i++, got++)
				if (b[i] != (char)(got % 251))
					same = false;
	}
	while ((n = drain(b, sizeof b)) > 0)
		for (i = 0; i < (size_t)n; i++, got++)
			if (b[i] != (char)(got % 251))
				same = false;
	ok(d.shut && got == sent && same && d.bytes == sent, "all %zu bytes "
	    "in order once the destination reads (%zu)", sent, got);
	relay_free(&d);
	unpair();
}

/*
 * Spliced: a source splice(2) refuses (an eventfd: sockets all splice):
 * what went first, then what the source had, through the buffer.
 */
static void
test_unspliceable(void)
{
	struct relay	d;
	uint64_t	v = 42, w = 0;
	char		b[64];
	ssize_t		n;
	int		efd;

	if ((efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, out) != 0)
		exit(99);
	(void)init(&d, 4);
	memcpy(d.buf, "HEAD", 4);
	d.len = 4;
	if (write(efd, &v, sizeof v) != sizeof v)
		exit(98);
	is_int(relay_pump(&d, efd, out[0]), 0, "pumped from an eventfd");
	n = drain(b, sizeof b);
	if (n == 12)
		memcpy(&w, b + 4, sizeof w);
	ok(n == 12 && memcmp(b, "HEAD", 4) == 0 && w == 42, "the head, "
	    "then what the source had, through the buffer (%zd bytes)", n);
	ok(!d.spliced && d.cap >= RELAY_BUF && d.bytes == 12, "fell back "
	    "to a buffer of RELAY_BUF, bytes counted");
	relay_free(&d);
	close(efd);
	close(out[0]);
	close(out[1]);
}

/* The checks that run the same, copied and spliced. */
static void
pass(void)
{
	pairs();
	test_order();
	unpair();
	test_large_head();
	pairs();
	test_backpressure();
	unpair();
	pairs();
	test_broken();
	unpair();
	test_both_ways();
}

int
main(void)
{
	struct relay	probe;
	int		before;

	signal(SIGPIPE, SIG_IGN);
	test_tune();
	test_tune_loopback();
	diag("copied through the buffer");
	spliced = false;
	before = tap_count;
	pass();
	diag("spliced through a pipe");
	spliced = true;
	if (init(&probe, 0) != 0) {
		tap_skip(tap_count - before + 5, "no pipe of RELAY_BUF here");
		relay_free(&probe);
		return tap_done();
	}
	relay_free(&probe);
	pass();
	test_small_pieces();
	test_unspliceable();
	return tap_done();
}
