/*
 * record.c - asciicast v2 writer (see record.h).
 *
 * Invariants: events are appended to an in-memory buffer in time order and
 * reach the file in that order; the UTF-8 carry of output and input are
 * kept apart so a split sequence never mixes streams; the first write error
 * is kept and reported by the next flush or close, and no later write is
 * attempted after it (a partial event must not be followed by more).
 */
#include "record/record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/utf8.h"
#include "base/util.h"

/* Write to the file once this much is buffered (bounded memory per session). */
#define RECORD_HIGH_WATER (64 * 1024)
/* Room kept between flushes; more is given back (ten sessions' bursts). */
#define RECORD_KEEP (16 * 1024)

struct record {
	int			fd;
	char			*path;
	struct buf		pending;	/* encoded events not yet written */
	struct buf		text;		/* scratch: sanitized data */
	struct utf8_carry	out_carry;
	struct utf8_carry	in_carry;
	uint64_t		bytes;
	uint64_t		last_us;	/* time of the last event */
	off_t			whole;		/* file size up to whole events */
	int			error;		/* first errno, 0 if none */
};

/* Append one event line with already valid UTF-8 data. */
static void
add_event(struct record *r, uint64_t t_us, const char *type,
    const char *data, size_t len)
{
	/* Keep time monotonic even if a caller's clock steps back. */
	if (t_us < r->last_us)
		t_us = r->last_us;
	r->last_us = t_us;
	buf_printf(&r->pending, "[%llu.%06llu, \"%s\", ",
	    (unsigned long long)(t_us / 1000000),
	    (unsigned long long)(t_us % 1000000), type);
	buf_add_json_string(&r->pending, data, len);
	buf_add(&r->pending, "]\n", 2);
}

/* Write the pending buffer, remembering the first error. */
static void
write_pending(struct record *r)
{
	size_t	off = 0;
	ssize_t	n;

	while (r->error == 0 && off < r->pending.len) {
		n = write(r->fd, r->pending.data + off, r->pending.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r->error = n < 0 ? errno : EIO;
			break;
		}
		off += (size_t)n;
	}
	/*
	 * A write cut short (a full disk) would leave half an event: cut the
	 * file back to its last whole one, so the recording stays valid.
	 */
	if (r->error == 0)
		r->whole += (off_t)off;
	else if (off > 0 && ftruncate(r->fd, r->whole) != 0)
		r->error = EIO;		/* not even cut back: say it is broken */
	r->pending.len = 0;
}

struct record *
record_create(const char *path, const struct record_header *h, char **cause)
{
	struct record	*r;
	struct buf	 hdr = { 0 };
	int		 fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		int e = errno;

		*cause = xasprintf("%s: %s", path, strerror(e));
		errno = e;	/* callers retry another name on EEXIST */
		return NULL;
	}
	r = xcalloc(1, sizeof *r);
	r->fd = fd;
	r->path = xstrdup(path);

	buf_printf(&hdr, "{\"version\": 2, \"width\": %u, \"height\": %u, "
	    "\"timestamp\": %lld", h->cols, h->rows, (long long)h->timestamp);
	if (h->command != NULL) {
		buf_adds(&hdr, ", \"command\": ");
		buf_add_json_string(&hdr, h->command, strlen(h->command));
	}
	if (h->title != NULL) {
		buf_adds(&hdr, ", \"title\": ");
		buf_add_json_string(&hdr, h->title, strlen(h->title));
	}
	buf_adds(&hdr, ", \"env\": {");
	if (h->term != NULL) {
		buf_adds(&hdr, "\"TERM\": ");
		buf_add_json_string(&hdr, h->term, strlen(h->term));
	}
	if (h->shell != NULL) {
		buf_adds(&hdr, h->term != NULL ? ", \"SHELL\": " : "\"SHELL\": ");
		buf_add_json_string(&hdr, h->shell, strlen(h->shell));
	}
	buf_adds(&hdr, "}}\n");
	/* The header goes out at once so a crash still leaves a valid file. */
	buf_add(&r->pending, hdr.data, hdr.len);
	buf_free(&hdr);
	write_pending(r);
	if (r->error != 0) {
		*cause = xasprintf("%s: %s", path, strerror(r->error));
		unlink(path);
		close(fd);
		buf_free(&r->pending);
		free(r->path);
		free(r);
		return NULL;
	}
	return r;
}

/* Sanitize data through carry and append it as one event of type. */
static void
add_stream(struct record *r, struct utf8_carry *carry, uint64_t t_us,
    const char *type, const void *data, size_t len)
{
	r->text.len = 0;
	utf8_sanitize(carry, data, len, &r->text);
	if (r->text.len > 0)
		add_event(r, t_us, type, r->text.data, r->text.len);
	if (r->pending.len >= RECORD_HIGH_WATER)
		write_pending(r);
}

void
record_output(struct record *r, uint64_t t_us, const void *data, size_t len)
{
	r->bytes += len;
	add_stream(r, &r->out_carry, t_us, "o", data, len);
}

void
record_input(struct record *r, uint64_t t_us, const void *data, size_t len)
{
	add_stream(r, &r->in_carry, t_us, "i", data, len);
}

void
record_resize(struct record *r, uint64_t t_us, unsigned cols, unsigned rows)
{
	char	size[32];
	int	n;

	n = snprintf(size, sizeof size, "%ux%u", cols, rows);
	add_event(r, t_us, "r", size, (size_t)n);
}

int
record_flush(struct record *r, char **cause)
{
	write_pending(r);
	/* A burst's room is not kept while the session idles. */
	buf_trim(&r->pending, RECORD_KEEP);
	r->text.len = 0;	/* scratch: each chunk starts it afresh */
	buf_trim(&r->text, RECORD_KEEP);
	if (r->error != 0) {
		*cause = xasprintf("%s: %s", r->path, strerror(r->error));
		return -1;
	}
	return 0;
}

int
record_close(struct record *r, uint64_t t_us, const char *marker,
    char **cause)
{
	int	rc = 0, error;

	r->text.len = 0;
	utf8_finish(&r->out_carry, &r->text);
	if (r->text.len > 0)
		add_event(r, t_us, "o", r->text.data, r->text.len);
	r->text.len = 0;
	utf8_finish(&r->in_carry, &r->text);
	if (r->text.len > 0)
		add_event(r, t_us, "i", r->text.data, r->text.len);
	if (marker != NULL)
		add_event(r, t_us, "m", marker, strlen(marker));
	write_pending(r);
	if (r->error != 0 && marker != NULL) {
		/* The disk filled: the end alone may still fit (else cut). */
		error = r->error;
		r->error = 0;
		add_event(r, t_us, "m", marker, strlen(marker));
		write_pending(r);
		r->error = error;
	}
	if (r->error == 0 && fsync(r->fd) != 0)
		r->error = errno;
	if (close(r->fd) != 0 && r->error == 0 && errno != EINTR)
		r->error = errno;
	if (r->error != 0) {
		*cause = xasprintf("%s: %s", r->path, strerror(r->error));
		rc = -1;
	}
	buf_free(&r->pending);
	buf_free(&r->text);
	free(r->path);
	free(r);
	return rc;
}

uint64_t
record_bytes(const struct record *r)
{
	return r->bytes;
}
