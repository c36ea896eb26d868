/*
 * cast-input.c - where the asciicast reader's bytes come from: an fd
 * through a small buffered line reader, or memory; lines, each parsed as
 * JSON (invalid UTF-8 repaired), or for a version 1 file the rest of the
 * input as one document; and the reader's failed state.
 *
 * Invariants: the fd buffer never holds more than one line plus one read
 * chunk (a longer line is an error, so memory is bounded), except a
 * version 1 document, read whole and refused over CAST_V1_MAX; a line is
 * returned incomplete only at the end of the input.
 */
#include "record/cast-int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/utf8.h"

/* Bytes read from the fd at a time. */
#define CAST_CHUNK (64U * 1024)

/* Enter the failed state with a message naming the file; -1 for chaining. */
int __attribute__((format(printf, 3, 4)))
cast_fail(struct cast *c, char **cause, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	free(c->error);
	c->error = xasprintf("%s: %s", c->name, msg);
	free(msg);
	c->state = CAST_FAILED;
	if (cause != NULL)
		*cause = xstrdup(c->error);
	return -1;
}

/* Read one more chunk from the fd: 1 read, 0 end of file, -1 error. */
int
cast_fill(struct cast *c, char **cause)
{
	ssize_t	n;

	if (c->eof)
		return 0;
	buf_reserve(&c->in, CAST_CHUNK);
	for (;;) {
		n = read(c->fd, c->in.data + c->in.len, CAST_CHUNK);
		if (n >= 0 || errno != EINTR)
			break;
	}
	if (n < 0)
		return cast_fail(c, cause, "%s", strerror(errno));
	if (n == 0) {
		c->eof = 1;
		return 0;
	}
	c->in.len += (size_t)n;
	return 1;
}

/* The bytes available without reading: the unread part of memory or buffer. */
const char *
cast_avail(struct cast *c, size_t *n)
{
	if (c->mem != NULL) {
		*n = c->mem_len - c->off;
		return c->mem + c->off;
	}
	*n = c->in.len - c->off;
	return c->in.data + c->off;
}

/*
 * Read the next line (without its '\n'): 1 with a line, 0 at the end of
 * input, -1 on error.  *complete is 0 when the line ended at end of input
 * without a newline.  The line stays valid until the next call.
 */
int
cast_read_line(struct cast *c, const char **line, size_t *len, int *complete,
    char **cause)
{
	const char	*p, *nl;
	size_t		 n;

	for (;;) {
		p = cast_avail(c, &n);
		nl = NULL;
		if (n > c->scan)
			nl = memchr(p + c->scan, '\n', n - c->scan);
		if (nl != NULL) {
			*len = (size_t)(nl - p);
			*complete = 1;
			break;
		}
		c->scan = n;
		/* Bound memory: never buffer more than one maximal line. */
		if (n > CAST_LINE_MAX)
			goto too_long;
		if (c->mem != NULL || c->eof) {
			if (n == 0)
				return 0;
			*len = n;
			*complete = 0;
			break;
		}
		/* Keep only the unread part before reading more. */
		if (c->off > 0) {
			buf_consume(&c->in, c->off);
			c->off = 0;
		}
		if (cast_fill(c, cause) < 0)
			return -1;
	}
	if (*len > CAST_LINE_MAX)
		goto too_long;
	c->line++;
	*line = p;
	c->off += *len + *complete;
	c->scan = 0;
	return 1;

too_long:
	return cast_fail(c, cause, "line %lu is longer than %u MiB",
	    c->line + 1, CAST_LINE_MAX / (1024 * 1024));
}

/* Is this byte JSON whitespace? */
int
cast_is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* Is the line only whitespace? */
int
cast_is_blank(const char *p, size_t len)
{
	while (len > 0 && cast_is_space(*p)) {
		p++;
		len--;
	}
	return len == 0;
}

/* Copy the line into out with each invalid UTF-8 byte replaced by U+FFFD. */
static void
cast_utf8_repair(const char *line, size_t len, struct buf *out)
{
	const unsigned char	*p = (const unsigned char *)line;
	size_t			 i = 0;
	int			 n;

	out->len = 0;
	while (i < len) {
		/* A line is whole: a sequence cut at its end is invalid too. */
		n = utf8_seq_len(p + i, len - i);
		if (n <= 0) {
			buf_add(out, "\xef\xbf\xbd", 3);
			i++;
		} else {
			buf_add(out, p + i, (size_t)n);
			i += (size_t)n;
		}
	}
}

/*
 * Parse one line of JSON.  Some writers put raw bytes that are not UTF-8
 * into their strings; rather than refuse the whole recording, such bytes
 * become U+FFFD, as a terminal would show them.
 */
json_t *
cast_parse_line(const char *line, size_t len, json_error_t *err)
{
	json_t		*j;
	struct buf	 fixed = { 0 };

	j = json_loadb(line, len, JSON_ALLOW_NUL, err);
	if (j != NULL || json_error_code(err) != json_error_invalid_utf8)
		return j;
	cast_utf8_repair(line, len, &fixed);
	j = json_loadb(fixed.data, fixed.len, JSON_ALLOW_NUL, err);
	buf_free(&fixed);
	return j;
}

/*
 * Read the rest of the input from byte start as one JSON document (a
 * version 1 file).  Returns the document or NULL with a cause.
 */
json_t *
cast_load_whole(struct cast *c, size_t start, char **cause)
{
	const char	*p;
	size_t		 n;
	json_error_t	 err;
	json_t		*doc;

	c->off = start;
	c->scan = 0;
	while (c->mem == NULL && !c->eof) {
		/* A v1 file is read whole: refuse absurd sizes. */
		if (c->in.len - start > CAST_V1_MAX) {
			cast_fail(c, cause, "line 1 is not a complete header "
			    "and the file is too large for asciicast v1 "
			    "(over %u MiB)", CAST_V1_MAX / (1024 * 1024));
			return NULL;
		}
		if (cast_fill(c, cause) < 0)
			return NULL;
	}
	p = cast_avail(c, &n);
	if (n > CAST_V1_MAX) {
		cast_fail(c, cause, "line 1 is not a complete header and the "
		    "file is too large for asciicast v1 (over %u MiB)",
		    CAST_V1_MAX / (1024 * 1024));
		return NULL;
	}
	doc = json_loadb(p, n, JSON_ALLOW_NUL, &err);
	/* Everything has been consumed; the fd buffer is not needed again. */
	if (c->mem != NULL)
		c->off = c->mem_len;
	else {
		buf_free(&c->in);
		c->off = 0;
	}
	if (doc == NULL) {
		cast_fail(c, cause, "not an asciicast file (line %d: %s)",
		    err.line, err.text);
		return NULL;
	}
	return doc;
}
