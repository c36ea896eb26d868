/*
 * test-replay.c - playback timing: idle squeezing, speed, seeking, checked
 * on computed playback times (no clocks), including on the events of a
 * real recording.
 */
#include "record/replay.h"

#include <stdlib.h>

#include "record/cast.h"
#include "base/util.h"
#include "tests/tap.h"

/* Are two times equal to within rounding? */
static int
near(double a, double b)
{
	if (a - b < 1e-9 && b - a < 1e-9)
		return 1;
	diag("got %.9f, want %.9f", a, b);
	return 0;
}

/* Are all n times as expected? */
static int
all_near(const double *got, const double *want, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (!near(got[i], want[i])) {
			diag("at index %zu", i);
			return 0;
		}
	}
	return 1;
}

static void
test_idle_limit_choice(void)
{
	ok(near(replay_idle_limit(-1, 2.5), 2.5), "no option: header's limit");
	ok(near(replay_idle_limit(-1, 0), 0), "neither: no limit");
	ok(near(replay_idle_limit(0.5, 2.5), 0.5), "option beats header");
	ok(near(replay_idle_limit(0, 2.5), 0), "option 0 turns it off");
}

static void
test_schedule(void)
{
	static const double	in[] = { 0.2, 0.4, 3.4, 3.5, 5.0 };
	double			out[5];
	static const double	plain[] = { 0.2, 0.4, 3.4, 3.5, 5.0 };
	static const double	fast[] = { 0.02, 0.04, 0.34, 0.35, 0.5 };
	static const double	squeezed[] = { 0.2, 0.4, 0.9, 1.0, 1.5 };
	static const double	both[] = { 0.02, 0.04, 0.09, 0.10, 0.15 };

	replay_schedule(in, out, 5, 1, 0);
	ok(all_near(out, plain, 5), "speed 1, no limit: times unchanged");
	replay_schedule(in, out, 5, 10, 0);
	ok(all_near(out, fast, 5), "speed 10: a 5 s recording plays in 0.5 s");
	replay_schedule(in, out, 5, 1, 0.5);
	ok(all_near(out, squeezed, 5), "idle limit 0.5: pauses of 3 s and "
	    "1.5 s become 0.5 s");
	replay_schedule(in, out, 5, 10, 0.5);
	ok(all_near(out, both, 5), "speed 10 and idle limit 0.5");
	replay_schedule(in, out, 5, 0.5, 0);
	ok(near(out[4], 10), "speed 0.5: twice as long");
}

static void
test_edges(void)
{
	double	times[] = { 10, 10, 9, 11 };
	double	want_first[] = { 1, 1, 1, 2 };
	struct replay_clock rc;

	replay_schedule(times, times, 4, 1, 1);
	ok(all_near(times, want_first, 4), "the wait before the first event "
	    "is squeezed too; backwards time is no pause; in place");

	replay_clock_init(&rc, 1, 0);
	ok(near(replay_clock_next(&rc, 1), 1), "clock: first event");
	rc.speed = 4;
	ok(near(replay_clock_next(&rc, 3), 1.5), "clock: speed changed "
	    "mid-way affects the following pauses only");
	rc.speed = 1;
	rc.idle_limit = 0.25;
	ok(near(replay_clock_next(&rc, 10), 1.75), "clock: idle limit "
	    "changed mid-way");
	replay_schedule(NULL, NULL, 0, 1, 0);
	ok(1, "no events");
}

static void
test_seek(void)
{
	static const double	t[] = { 0, 1, 1, 2, 5 };

	is_int(replay_seek(t, 5, -1), 0, "seek before the start");
	is_int(replay_seek(t, 5, 0), 0, "seek to 0");
	is_int(replay_seek(t, 5, 0.5), 1, "seek between events");
	is_int(replay_seek(t, 5, 1), 1, "seek to equal times: the first");
	is_int(replay_seek(t, 5, 1.5), 3, "seek after equal times");
	is_int(replay_seek(t, 5, 5), 4, "seek to the last event");
	is_int(replay_seek(t, 5, 6), 5, "seek past the end");
	is_int(replay_seek(t, 0, 1), 0, "seek in nothing");
}

/* Timing of the events of the recording made with asciinema rec. */
static void
test_recording(void)
{
	const char		*srcdir = getenv("top_srcdir");
	char			*path, *cause = NULL;
	struct cast		*c;
	struct cast_event	 ev;
	double			 in[16], out[16], limit;
	size_t			 n = 0;

	path = xasprintf("%s/tests/data/asciinema-rec.cast",
	    srcdir != NULL ? srcdir : ".");
	c = cast_open(path, &cause);
	if (!ok(c != NULL, "recording opens")) {
		diag("%s", cause);
		free(cause);
		free(path);
		return;
	}
	while (n < 16 && cast_next(c, &ev, &cause) == 1)
		in[n++] = ev.time;
	limit = replay_idle_limit(-1, cast_header(c)->idle_time_limit);
	cast_free(c);
	free(path);

	is_int(n, 4, "recording: four events");
	ok(near(limit, 0), "recording: no idle limit in its header");
	replay_schedule(in, out, n, 10, 0);
	ok(near(out[n - 1], 0.2307423), "recording at speed 10: last event "
	    "at a tenth of its time");
	replay_schedule(in, out, n, 1, 0.5);
	/* Pauses 0.002976, 0.301312, 1.501717 -> 0.5, 0.501418 -> 0.5. */
	ok(near(out[2], 0.804288) && near(out[3], 1.304288),
	    "recording with idle limit 0.5: long pauses squeezed");
	is_int(replay_seek(out, n, 0.9), 3, "recording: seek in playback "
	    "time");
}

int
main(void)
{
	test_idle_limit_choice();
	test_schedule();
	test_edges();
	test_seek();
	test_recording();
	return tap_done();
}
