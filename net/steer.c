/*
 * steer.c - which CPU the proxy runs on (see steer.h).
 *
 * Measured with 100 MB copies on two CPUs, each proxied copy between two
 * direct ones, 14 rounds (bench/net-proxy.sh's two ends): left to the
 * scheduler the proxied copies ranged from 1.3 to 4.2 GB/s, by where the
 * proxy happened to land (a trace showed the slow ones with the proxy and
 * the sender taking turns on one CPU); pinned beside the reader, from 2.0
 * to 3.5.  Medians against the direct copies': 80% -> 97% in one series,
 * 92% -> 107% in another.  The pin is held at least STEER_HOLD_US, so two
 * readers on different CPUs move the proxy at most that often, and let go
 * after STEER_IDLE_US without a bulk turn, so an idle or chatty proxy is
 * the scheduler's again.
 */
#include "net/steer.h"

#include <sys/socket.h>

void
steer_init(struct steer *s)
{
	s->have_home = sched_getaffinity(0, sizeof s->home, &s->home) == 0;
	s->cpu = -1;
	s->pinned_us = s->bulk_us = 0;
}

int
steer_decide(const struct steer *s, size_t moved, int cpu, uint64_t now)
{
	if (moved >= STEER_BULK) {
		/* Only to a CPU it may use anyway, and only with a choice. */
		if (cpu < 0 || cpu >= CPU_SETSIZE || !s->have_home ||
		    !CPU_ISSET(cpu, &s->home) || CPU_COUNT(&s->home) < 2)
			return s->cpu;
		if (s->cpu < 0 || now - s->pinned_us >= STEER_HOLD_US)
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
	want = steer_decide(s, moved, cpu, now);
	if (want == s->cpu)
		return;
	if (want < 0) {
		steer_release(s);
		return;
	}
	CPU_ZERO(&set);
	CPU_SET(want, &set);
	if (sched_setaffinity(0, sizeof set, &set) == 0) {
		s->cpu = want;
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
	s->cpu = -1;
}
