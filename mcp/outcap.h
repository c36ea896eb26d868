/*
 * outcap.h - a command's text kept within a cap: the head and the tail,
 * the gap between them counted and marked, cut only between characters
 * (and between lines where one is near).  What an agent gets back from
 * `ptyvisor mcp`; the recording keeps everything.
 */
#ifndef PTYVISOR_OUTCAP_H
#define PTYVISOR_OUTCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* The default cap of the text returned to an agent. */
#define OUTCAP_DEFAULT	(64 * 1024)

struct outcap {
	size_t		max;	/* bytes kept at most: half head, half tail */
	struct buf	head;
	struct buf	tail;	/* the last bytes, up to twice max/2 */
	uint64_t	total;	/* bytes added */
	bool		full;	/* the head is complete */
};

/* Zero c and give it its cap (at least 16 bytes). */
void	outcap_init(struct outcap *c, size_t max);
void	outcap_free(struct outcap *c);

/* Text arrived (valid UTF-8, in order). */
void	outcap_add(struct outcap *c, const char *p, size_t len);

/* Whether bytes were dropped. */
bool	outcap_truncated(const struct outcap *c);

/*
 * Append the kept text to out: all of it, or the head, a line saying how
 * many bytes are not shown and where they are (where, when not NULL, e.g.
 * the recording's path), then the tail.
 */
void	outcap_text(const struct outcap *c, const char *where,
	    struct buf *out);

#endif
