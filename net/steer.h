/*
 * steer.h - which CPU the proxy runs on: beside the process that reads
 * what it relays, while a bulk transfer flows; wherever the scheduler
 * likes otherwise.
 *
 * A relay sits in the middle of a pipeline (sender, proxy, reader).  Left
 * to itself, a socket's wakeup draws the proxy to the sender's CPU, and on
 * a machine with few CPUs the two heavy ends of the pipeline then share
 * one while the reader's is half idle.  Next to the reader, the proxy
 * hands it bytes on the CPU that takes them, and the sender keeps its own.
 * The reader's CPU is the one the kernel last took the reading socket's
 * packets on (SO_INCOMING_CPU): on loopback the reader's own, over a
 * network the one its flow's packets arrive on.
 */
#ifndef PTYVISOR_STEER_H
#define PTYVISOR_STEER_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes moved toward one reader in one turn that make it a bulk transfer. */
#define STEER_BULK	(64 * 1024)

/*
 * Least time on one CPU before following another reader to another: two
 * readers on two CPUs move the proxy at most this often.  The reader it
 * is pinned for it follows at once (the scheduler moved it).
 */
#define STEER_HOLD_US	20000

/* Time without a bulk turn after which the proxy goes back home. */
#define STEER_IDLE_US	100000

struct steer {
	cpu_set_t	 home;		/* the affinity it started with */
	bool		 have_home;
	int		 cpu;		/* pinned to, or -1: at home */
	int		 reader;	/* the socket it is pinned for */
	uint64_t	 pinned_us;	/* when it was pinned there */
	uint64_t	 bulk_us;	/* the last bulk turn */
};

/* Note the process's affinity as its home; nothing pinned. */
void	steer_init(struct steer *s);

/*
 * What a turn calls for, without doing it: the CPU to pin to, -1 to go
 * home, or s->cpu to stay.  moved: bytes moved toward the socket reader;
 * cpu: the reader's CPU (-1 unknown); now: a monotonic time in us.
 */
int	steer_decide(const struct steer *s, size_t moved, int reader, int cpu,
	    uint64_t now);

/*
 * After a relay turn that moved `moved` bytes toward the socket reader:
 * follow the reader's CPU when that is a bulk transfer, go home when none
 * has flowed for STEER_IDLE_US.  A refused change leaves things as they
 * were.
 */
void	steer_turn(struct steer *s, size_t moved, int reader, uint64_t now);

/* Back home (the last relayed connection ended). */
void	steer_release(struct steer *s);

#endif
