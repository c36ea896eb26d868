/*
 * replay.c - playback timing (see replay.h).
 *
 * Invariant: the playback times a clock returns never decrease, whatever
 * the input, because each pause is clamped to [0, idle_limit] before it is
 * divided by a positive speed.
 */
#include "record/replay.h"

#include <assert.h>
#include <math.h>

double
replay_idle_limit(double option, double header)
{
	if (option >= 0)
		return option;
	return header > 0 ? header : 0;
}

void
replay_clock_init(struct replay_clock *rc, double speed, double idle_limit)
{
	assert(speed > 0 && isfinite(speed));
	rc->speed = speed;
	rc->idle_limit = idle_limit > 0 ? idle_limit : 0;
	rc->last_in = 0;
	rc->last_out = 0;
}

double
replay_clock_next(struct replay_clock *rc, double t)
{
	double	gap;

	assert(rc->speed > 0);
	gap = t - rc->last_in;
	if (!(gap > 0))		/* also catches NaN */
		gap = 0;
	if (rc->idle_limit > 0 && gap > rc->idle_limit)
		gap = rc->idle_limit;
	if (t > rc->last_in)
		rc->last_in = t;
	rc->last_out += gap / rc->speed;
	return rc->last_out;
}

void
replay_schedule(const double *in, double *out, size_t n, double speed,
    double idle_limit)
{
	struct replay_clock	rc;
	size_t			i;

	replay_clock_init(&rc, speed, idle_limit);
	for (i = 0; i < n; i++)
		out[i] = replay_clock_next(&rc, in[i]);
}

size_t
replay_seek(const double *times, size_t n, double t)
{
	size_t	lo = 0, hi = n, mid;

	/* Binary search for the first time >= t. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (times[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
