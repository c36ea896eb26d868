/*
 * test-steer.c - which CPU the proxy runs on: what a turn calls for (a
 * bulk turn pins to the reader's CPU, only one of home's and only with a
 * choice; a pin held STEER_HOLD_US before following another reader; home
 * again after STEER_IDLE_US without a bulk turn), then the process's real
 * affinity over a real TCP connection on loopback: pinned to the CPU the
 * reading socket's packets came in on, another reader on that CPU the one
 * it follows from then on, and home again after.
 */
#include "net/steer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/tap.h"

/* A steer whose home is CPUs 0, 1 and 2, at home (readers: fds 7, 8). */
static struct steer
three(void)
{
	struct steer	s;

	memset(&s, 0, sizeof s);
	CPU_ZERO(&s.home);
	CPU_SET(0, &s.home);
	CPU_SET(1, &s.home);
	CPU_SET(2, &s.home);
	s.have_home = true;
	s.cpu = s.reader = -1;
	return s;
}

static void
test_decide(void)
{
	struct steer	s = three();
	uint64_t	t = 1000000;

	is_int(steer_decide(&s, STEER_BULK - 1, 7, 1, t), -1,
	    "less than STEER_BULK in a turn: stays home");
	is_int(steer_decide(&s, STEER_BULK, 7, 1, t), 1,
	    "a bulk turn: to the reader's CPU");
	is_int(steer_decide(&s, STEER_BULK, 7, -1, t), -1,
	    "a bulk turn, the reader's CPU unknown: stays home");
	is_int(steer_decide(&s, STEER_BULK, 7, 5, t), -1,
	    "a bulk turn toward a CPU not in home: stays home");
	is_int(steer_decide(&s, STEER_BULK, 7, CPU_SETSIZE, t), -1,
	    "a CPU number out of range: stays home");

	s.cpu = 1;
	s.reader = 7;
	s.pinned_us = s.bulk_us = t;
	is_int(steer_decide(&s, STEER_BULK, 7, 1, t + 5), 1,
	    "pinned, the same reader: stays");
	is_int(steer_decide(&s, STEER_BULK, 7, 2, t + 5), 2,
	    "its reader moved to another CPU: follows it at once");
	is_int(steer_decide(&s, STEER_BULK, 8, 2, t + STEER_HOLD_US - 1), 1,
	    "another reader elsewhere before STEER_HOLD_US: stays");
	is_int(steer_decide(&s, STEER_BULK, 8, 2, t + STEER_HOLD_US), 2,
	    "another reader elsewhere after STEER_HOLD_US: follows it");
	is_int(steer_decide(&s, 100, 7, 1, t + STEER_IDLE_US - 1), 1,
	    "a small turn soon after a bulk one: stays pinned");
	is_int(steer_decide(&s, 0, 7, -1, t + STEER_IDLE_US), -1,
	    "a turn STEER_IDLE_US after the last bulk one: home");

	s = three();
	CPU_ZERO(&s.home);
	CPU_SET(1, &s.home);
	is_int(steer_decide(&s, STEER_BULK, 7, 1, t), -1,
	    "a home of one CPU: never pinned");
	s = three();
	s.have_home = false;
	is_int(steer_decide(&s, STEER_BULK, 7, 1, t), -1,
	    "home unknown: never pinned");
}

/* A connected pair of TCP sockets on 127.0.0.1, or -1. */
static int
tcp_pair(int fd[2])
{
	struct sockaddr_in	sa;
	socklen_t		len = sizeof sa;
	int			l;

	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((l = socket(AF_INET, SOCK_STREAM, 0)) < 0)
		return -1;
	if (bind(l, (struct sockaddr *)&sa, sizeof sa) != 0 ||
	    listen(l, 1) != 0 ||
	    getsockname(l, (struct sockaddr *)&sa, &len) != 0 ||
	    (fd[0] = socket(AF_INET, SOCK_STREAM, 0)) < 0) {
		close(l);
		return -1;
	}
	if (connect(fd[0], (struct sockaddr *)&sa, sizeof sa) != 0 ||
	    (fd[1] = accept(l, NULL, NULL)) < 0) {
		close(fd[0]);
		close(l);
		return -1;
	}
	close(l);
	return 0;
}

/* Whether the process's affinity is exactly want. */
static int
affinity_is(const cpu_set_t *want)
{
	cpu_set_t	now;

	if (sched_getaffinity(0, sizeof now, &now) != 0)
		return 0;
	return CPU_EQUAL(&now, want);
}

/* 256 KiB written on w and read on r: each takes in the other's packets. */
static void
traffic(int w, int r)
{
	static char	b[65536];
	size_t		sent = 0, got = 0;
	ssize_t		n;

	memset(b, 'x', sizeof b);
	while (got < 4 * sizeof b) {
		if (sent < 4 * sizeof b) {
			n = write(w, b, sizeof b);
			if (n > 0)
				sent += (size_t)n;
		}
		n = read(r, b, sizeof b);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
}

static void
test_real(void)
{
	struct steer	s;
	cpu_set_t	one;
	int		fd[2], cpu = -1, cpu1 = -1;
	socklen_t	len = sizeof cpu;
	uint64_t	t = 1000000;

	steer_init(&s);
	if (!s.have_home || CPU_COUNT(&s.home) < 2) {
		tap_skip(6, "fewer than two CPUs to choose from here");
		return;
	}
	if (tcp_pair(fd) != 0) {
		tap_skip(6, "no TCP on 127.0.0.1 here");
		return;
	}
	/* The proxy writes fd[0]; its reader reads fd[1] and acknowledges,
	 * and fd[0] takes those packets in on the reader's CPU. */
	traffic(fd[0], fd[1]);
	if (getsockopt(fd[0], SOL_SOCKET, SO_INCOMING_CPU, &cpu, &len) != 0 ||
	    cpu < 0 || !CPU_ISSET(cpu, &s.home)) {
		tap_skip(6, "SO_INCOMING_CPU tells nothing here");
		close(fd[0]);
		close(fd[1]);
		return;
	}
	steer_turn(&s, 100, fd[0], t);
	ok(affinity_is(&s.home) && s.cpu == -1,
	    "a small turn: the affinity is still home");
	steer_turn(&s, STEER_BULK, fd[0], t);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	ok(affinity_is(&one) && s.cpu == cpu,
	    "a bulk turn: pinned to the reader's CPU (%d)", cpu);
	/* Pinned, the process's traffic both ways comes in on that CPU. */
	traffic(fd[1], fd[0]);
	len = sizeof cpu1;
	if (getsockopt(fd[1], SOL_SOCKET, SO_INCOMING_CPU, &cpu1, &len) != 0 ||
	    cpu1 != cpu)
		tap_skip(1, "the other socket's packets came in elsewhere");
	else {
		steer_turn(&s, STEER_BULK, fd[1], t);
		ok(affinity_is(&one) && s.reader == fd[1], "another reader on "
		    "the pinned CPU: the one it follows now");
	}
	steer_turn(&s, 0, fd[0], t + STEER_IDLE_US - 1);
	ok(affinity_is(&one), "a small turn right after: still pinned");
	steer_turn(&s, 0, fd[0], t + STEER_IDLE_US);
	ok(affinity_is(&s.home) && s.cpu == -1,
	    "no bulk turn for STEER_IDLE_US: home again");
	steer_turn(&s, STEER_BULK, fd[0], t + 2 * STEER_IDLE_US);
	steer_release(&s);
	ok(affinity_is(&s.home) && s.cpu == -1,
	    "released (the last connection ended): home again");
	close(fd[0]);
	close(fd[1]);
}

int
main(void)
{
	test_decide();
	test_real();
	return tap_done();
}
