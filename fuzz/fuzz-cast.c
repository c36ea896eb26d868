/*
 * fuzz-cast.c - libFuzzer target for the asciicast reader: open the input
 * as a recording, read every event, and feed the times to the playback
 * clock.  Besides memory errors (found by the sanitizers), it checks the
 * reader's promises: a failure always comes with a cause, event times never
 * decrease, data is NUL-terminated, resize sizes are in range.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/cast.h"
#include "record/replay.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cast			*c;
	struct cast_event		 ev;
	struct replay_clock		 rc;
	const struct cast_header	*h;
	char				*cause = NULL;
	double				 last = 0, played = 0, p;
	int				 r;

	c = cast_open_mem((const char *)data, size, "fuzz", &cause);
	if (c == NULL) {
		assert(cause != NULL && *cause != '\0');
		free(cause);
		return 0;
	}
	h = cast_header(c);
	assert(h->version >= 1 && h->version <= 3);
	assert(h->width >= 1 && h->width <= CAST_SIZE_MAX);
	assert(h->height >= 1 && h->height <= CAST_SIZE_MAX);
	replay_clock_init(&rc, 3, replay_idle_limit(-1, h->idle_time_limit));
	while ((r = cast_next(c, &ev, &cause)) == 1) {
		assert(ev.time >= last);
		last = ev.time;
		assert(ev.data[ev.len] == '\0' && ev.code != NULL);
		assert(ev.type == 0 || (ev.code[0] == ev.type &&
		    ev.code[1] == '\0'));
		assert((ev.cols == 0) == (ev.rows == 0));
		assert(ev.cols <= CAST_SIZE_MAX && ev.rows <= CAST_SIZE_MAX);
		p = replay_clock_next(&rc, ev.time);
		assert(p >= played);
		played = p;
	}
	if (r < 0) {
		assert(cause != NULL && *cause != '\0');
		free(cause);
		cause = NULL;
		/* Errors are sticky. */
		r = cast_next(c, &ev, &cause);
		assert(r == -1 && cause != NULL);
		free(cause);
	} else
		assert(cast_next(c, &ev, NULL) == 0);
	cast_free(c);
	return 0;
}
