/*
 * replay.h - playback timing for recordings, with no clocks and no terminal:
 * maps recording times to playback times (idle pauses squeezed, then scaled
 * by the speed) and finds where to resume after a seek.  The player turns
 * these times into sleeps; tests check them directly.
 */
#ifndef PTYVISOR_REPLAY_H
#define PTYVISOR_REPLAY_H

#include <stddef.h>

/*
 * Maps the recording times of successive events to playback times.  A plain
 * value: speed and idle_limit may be changed between events (the '+' and '-'
 * keys), which affects only the pauses that follow.
 */
struct replay_clock {
	double	speed;		/* > 0; 2 plays twice as fast */
	double	idle_limit;	/* > 0: longer pauses become this; 0: none */
	double	last_in;	/* recording time of the previous event */
	double	last_out;	/* playback time of the previous event */
};

/*
 * The idle limit to use: the option when given (option >= 0; 0 turns
 * squeezing off), else the header's idle_time_limit (0 when it has none).
 */
double	replay_idle_limit(double option, double header);

/* Start a clock at time 0 of both the recording and the playback. */
void	replay_clock_init(struct replay_clock *rc, double speed,
	    double idle_limit);

/*
 * The playback time of the next event, recorded at time t (seconds from the
 * start).  Times that go backwards count as no pause.
 */
double	replay_clock_next(struct replay_clock *rc, double t);

/*
 * Playback times out[0..n-1] for the recording times in[0..n-1] (in and out
 * may be the same array).
 */
void	replay_schedule(const double *in, double *out, size_t n, double speed,
	    double idle_limit);

/*
 * Index of the first of the n non-decreasing times at or after t; n when
 * all are before t.
 */
size_t	replay_seek(const double *times, size_t n, double t);

#endif
