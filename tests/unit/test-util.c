/*
 * test-util.c - base/util: the one duration format, times, buffers.
 */
#include "base/util.h"

#include <string.h>

#include "tests/tap.h"

/* The duration format of us. */
static const char *
dur(int64_t us)
{
	static char	buf[32];

	util_format_duration(us, buf, sizeof buf);
	return buf;
}

int
main(void)
{
	struct buf	b = { 0 };
	char		t[64];

	is_str(dur(-1), "-", "a negative duration is unknown");
	is_str(dur(0), "0.0s", "zero");
	is_str(dur(400000), "0.4s", "under ten seconds: tenths");
	is_str(dur(9960000), "10.0s", "rounded at the edge");
	is_str(dur(12000000), "12s", "then whole seconds");
	is_str(dur(184000000), "3m04s", "minutes and seconds");
	is_str(dur(7500000000LL), "2h05m", "hours and minutes");
	util_format_duration(184000000, t, 4);
	is_str(t, "3m0", "a short buffer is cut, terminated");
	util_format_time(0, t, sizeof t);
	is_str(t, "1970-01-01T00:00:00.000Z", "wall time as RFC 3339 UTC");
	buf_printf(&b, "%d-%s", 7, "x");
	buf_add(&b, "yz", 2);
	is_str(buf_cstr(&b), "7-xyz", "buffer printf and add");
	buf_free(&b);
	return tap_done();
}
