/*
 * proto-int.h - what the codec's files share (proto-events.c builds the
 * server's events, proto-requests.c the clients' requests): the start of
 * every line's object and the one UTF-8 cleaning.  Not for use outside
 * the proto-*.c files.
 */
#ifndef PTYVISOR_PROTO_INT_H
#define PTYVISOR_PROTO_INT_H

#include <jansson.h>
#include <stddef.h>

struct buf;

/* A line's object: {kind: name, "id": id} ("event" or "op"; id NULL: none). */
json_t	*proto_json_new(const char *kind, const char *name, const char *id);

/* Append n bytes at p as valid UTF-8, each invalid byte becoming U+FFFD. */
void	 proto_utf8_clean(struct buf *out, const void *p, size_t n);

#endif
