/*
 * test-relay.c - one direction of a relayed connection between socket
 * pairs: what must go first goes before what is read, bytes counted, EOF
 * passed on as a half-close once everything went, reading paused while
 * the pipe is full and nothing lost after, a broken peer reported; the
 * same through the buffer alone when no pipe can be made.
 */
#include "net/relay.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/tap.h"

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
test_order(bool with_pipe)
{
	struct relay	d;
	char		b[64];
	ssize_t		n;
	const char	*how = with_pipe ? "pipe" : "buffer";

	memset(&d, 0, sizeof d);
	relay_init(&d, 4);
	ok((d.pipe[0] >= 0) == with_pipe, "%s: %s", how, with_pipe ?
	    "a pipe is made" : "no pipe can be made");
	ok(d.cap >= 4, "%s: room for what goes first", how);
	memcpy(d.buf, "HEAD", 4);
	d.len = 4;
	is_int(relay_pending(&d), 4, "%s: the head is pending", how);
	ok(relay_has_room(&d), "%s: the source may be read", how);
	if (write(in[0], "BODY", 4) != 4)
		exit(98);
	is_int(relay_pump(&d, in[1], out[0]), 0, "%s: pumped", how);
	n = drain(b, sizeof b);
	ok(n == 8 && memcmp(b, "HEADBODY", 8) == 0, "%s: the head, then the "
	    "body", how);
	is_int(d.bytes, 8, "%s: bytes counted", how);
	is_int(relay_pending(&d), 0, "%s: nothing pending", how);
	ok(!d.shut, "%s: no EOF yet, not shut", how);

	shutdown(in[0], SHUT_WR);
	is_int(relay_pump(&d, in[1], out[0]), 0, "%s: EOF pumped", how);
	ok(d.eof && d.shut && !relay_has_room(&d), "%s: EOF seen, the "
	    "destination shut, nothing more read", how);
	n = read(out[1], b, sizeof b);
	is_int(n, 0, "%s: the destination's peer reads EOF", how);
	relay_free(&d);
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

	memset(&d, 0, sizeof d);
	relay_init(&d, 0);
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
	ok(paused && d.inpipe == d.pipecap, "the pipe full: the source is "
	    "not read (%zu bytes in the pipe)", d.inpipe);
	ok(relay_pending(&d) == d.inpipe, "what waits is what the pipe "
	    "holds");
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

	memset(&d, 0, sizeof d);
	relay_init(&d, 0);
	close(out[1]);
	out[1] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (write(in[0], "DATA", 4) != 4)
		exit(98);
	is_int(relay_pump(&d, in[1], out[0]), -1, "a destination gone: "
	    "broken");
	relay_free(&d);
}

int
main(void)
{
	struct rlimit	rl, low;
	int		fd;

	signal(SIGPIPE, SIG_IGN);
	pairs();
	test_order(true);
	unpair();
	pairs();
	test_backpressure();
	unpair();
	pairs();
	test_broken();
	unpair();

	/* No room for a pipe's two fds: the buffer alone. */
	pairs();
	if ((fd = dup(0)) < 0 || getrlimit(RLIMIT_NOFILE, &rl) != 0)
		exit(99);
	close(fd);
	low = rl;
	low.rlim_cur = (rlim_t)fd + 1;
	if (setrlimit(RLIMIT_NOFILE, &low) != 0)
		exit(99);
	test_order(false);
	setrlimit(RLIMIT_NOFILE, &rl);
	unpair();
	return tap_done();
}
