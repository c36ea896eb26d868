/*
 * steer.c - which CPU the proxy runs on (see steer.h).
 *
 * Invariants: it pins only to a CPU of its home affinity, and only when
 * home holds two or more; a change the kernel refuses leaves the state as
 * it was; steer_release puts home back (every CPU, when home was taken
 * away meanwhile).
 *
 * Measured on two CPUs with bench/net-proxy.sh's two ends, each proxied
 * copy between two direct ones: left to the scheduler, 100 MB proxied
 * copies ranged from 1.3 to 4.2 GB/s by where the proxy happened to land
 * (a scheduler trace showed the slow ones with the proxy and the sender
 * taking turns on one CPU); pinned beside the reader, medians 80% -> 97%
 * and 92% -> 107% of the direct copies' (14 rounds each).  Held on its CPU
 * for STEER_HOLD_US even when its own reader moved, the proxy kept that
 * gain for 100 MB but lost it over 1 GB copies (81% against 81%);
 * following its reader at once keeps it (1 GB, with splice: 112% held,
 * 118% followed at once, 6 rounds).  Another reader it follows only
 * after STEER_HOLD_US, so two readers on two CPUs move it at most that
 * often; and it lets go after STEER_IDLE_US without a bulk turn, so an
 * idle or chatty proxy is the scheduler's again.
 */
#include "net/steer.h"

#include <sys/socket.h>

void
steer_init(struct steer *s)
{
	s->have_home = sched_getaffinity(0, sizeof s->home, &s->home) == 0;
	s->cpu = s->reader = -1;
	s->pinned_us = s->bulk_us = 0;
}

int
steer_decide(const struct steer *s, size_t moved, int reader, int cpu,
    uint64_t now)
{
	if (moved >= STEER_BULK) {
		/* Only to a CPU it may use anyway, and only with a choice. */
		if (cpu < 0 || cpu >= CPU_SETSIZE || !s->have_home ||
		    !CPU_ISSET(cpu, &s->home) || CPU_COUNT(&s->home) < 2)
			return s->cpu;
		if (s->cpu < 0 || reader == s->reader ||
		    now - s->pinned_us >= STEER_HOLD_US)
			return cpu;
		return s->cpu;
	}
	if (s->cpu >= 0 && now - s->bulk_us >= STEER_IDLE_US)
		return -1;
	return s->cpu;
}

void
steer_turn(struct steer *s, size_t moved, int reader, uint64_t now)
{
	cpu_set_t	set;
	socklen_t	len = sizeof(int);
	int		cpu = -1, want;

	if (moved >= STEER_BULK) {
		if (getsockopt(reader, SOL_SOCKET, SO_INCOMING_CPU, &cpu,
		    &len) != 0)
			cpu = -1;
		s->bulk_us = now;
	}
	want = steer_decide(s, moved, reader, cpu, now);
	if (want == s->cpu) {
		/* A reader on the CPU it is pinned to is one it follows. */
		if (cpu >= 0 && cpu == s->cpu)
			s->reader = reader;
		return;
	}
	if (want < 0) {
		steer_release(s);
		return;
	}
	CPU_ZERO(&set);
	CPU_SET(want, &set);
	if (sched_setaffinity(0, sizeof set, &set) == 0) {
		s->cpu = want;
		s->reader = reader;
		s->pinned_us = now;
	}
}

void
steer_release(struct steer *s)
{
	cpu_set_t	all;
	int		i;

	if (s->cpu < 0)
		return;
	/* Home may have been taken away (a cpuset changed): then every CPU
	 * the kernel still allows. */
	if (sched_setaffinity(0, sizeof s->home, &s->home) != 0) {
		CPU_ZERO(&all);
		for (i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, &all);
		(void)sched_setaffinity(0, sizeof all, &all);
	}
	s->cpu = s->reader = -1;
}
