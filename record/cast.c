/*
 * cast.c - streaming asciicast reader (see cast.h).
 *
 * Input comes from an fd through a small buffered line reader, or from
 * memory.  Invariants: the fd buffer never holds more than one line plus one
 * read chunk (a longer line is an error, so memory is bounded); event times
 * handed out never decrease; once cast_next has returned 0 or -1 it keeps
 * returning that.  Only the last line of a file may be incomplete without
 * that being an error: a writer that crashes leaves exactly that.
 */
#include "record/cast.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/util.h"

/* Bytes read from the fd at a time. */
#define CAST_CHUNK (64U * 1024)

enum cast_state {
	CAST_READING,
	CAST_DONE,
	CAST_FAILED
};

struct cast {
	char			*name;
	struct cast_header	 hdr;
	enum cast_state		 state;
	char			*error;		/* sticky cause once failed */
	char			*warning;

	/* Input: an fd (owned when own_fd) or memory. */
	int			 fd;
	int			 own_fd;
	const char		*mem;
	size_t			 mem_len;
	size_t			 off;		/* next unread byte */
	size_t			 scan;		/* bytes past off with no LF */
	struct buf		 in;		/* fd input */
	int			 eof;
	unsigned long		 line;

	/* Version 1: the whole document and the next frame. */
	json_t			*v1_doc;
	size_t			 v1_next;

	double			 last;		/* time of the previous event */
	struct buf		 code;
	struct buf		 data;
};

/* Set *cause (when wanted) to a formatted message. */
static void __attribute__((format(printf, 2, 3)))
cast_cause(char **cause, const char *fmt, ...)
{
	va_list	ap;

	if (cause == NULL)
		return;
	va_start(ap, fmt);
	*cause = xvasprintf(fmt, ap);
	va_end(ap);
}

/* Enter the failed state with a message naming the file; -1 for chaining. */
static int __attribute__((format(printf, 3, 4)))
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
static int
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
static const char *
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
static int
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
static int
cast_is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* Is the line only whitespace? */
static int
cast_is_blank(const char *p, size_t len)
{
	while (len > 0 && cast_is_space(*p)) {
		p++;
		len--;
	}
	return len == 0;
}

/* Length of the valid UTF-8 sequence at p (max n bytes), 0 if invalid. */
static size_t
cast_utf8_len(const unsigned char *p, size_t n)
{
	size_t		need, i;
	uint32_t	cp, min;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		need = 2;
		cp = p[0] & 0x1f;
		min = 0x80;
	} else if ((p[0] & 0xf0) == 0xe0) {
		need = 3;
		cp = p[0] & 0x0f;
		min = 0x800;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		need = 4;
		cp = p[0] & 0x07;
		min = 0x10000;
	} else
		return 0;
	if (n < need)
		return 0;
	for (i = 1; i < need; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need;
}

/* Copy the line into out with each invalid UTF-8 byte replaced by U+FFFD. */
static void
cast_utf8_repair(const char *line, size_t len, struct buf *out)
{
	const unsigned char	*p = (const unsigned char *)line;
	size_t			 i = 0, n;

	out->len = 0;
	while (i < len) {
		n = cast_utf8_len(p + i, len - i);
		if (n == 0) {
			buf_add(out, "\xef\xbf\xbd", 3);
			i++;
		} else {
			buf_add(out, p + i, n);
			i += n;
		}
	}
}

/*
 * Parse one line of JSON.  Some writers put raw bytes that are not UTF-8
 * into their strings; rather than refuse the whole recording, such bytes
 * become U+FFFD, as a terminal would show them.
 */
static json_t *
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

/* A copy of the string member key of obj, or NULL if absent or not a string. */
static char *
cast_get_string(json_t *obj, const char *key)
{
	json_t	*v = json_object_get(obj, key);

	if (!json_is_string(v))
		return NULL;
	return xstrdup(json_string_value(v));
}

/* A non-negative finite number member, or 0. */
static double
cast_get_seconds(json_t *obj, const char *key)
{
	json_t	*v = json_object_get(obj, key);
	double	 d;

	if (!json_is_number(v))
		return 0;
	d = json_number_value(v);
	return isfinite(d) && d > 0 ? d : 0;
}

/* Read a required terminal dimension into *out; -1 with a cause if bad. */
static int
cast_get_size(struct cast *c, json_t *obj, const char *where, const char *key,
    unsigned int dflt, unsigned int *out, char **cause)
{
	json_t		*v = json_object_get(obj, key);
	json_int_t	 n;

	if (v == NULL)
		return cast_fail(c, cause, "%s has no %s", where, key);
	if (!json_is_integer(v))
		return cast_fail(c, cause, "%s: %s is not an integer", where,
		    key);
	n = json_integer_value(v);
	if (n < 0 || n > CAST_SIZE_MAX)
		return cast_fail(c, cause, "%s: %s %lld is out of range",
		    where, key, (long long)n);
	/* 0 means the recorder did not know: use the usual default. */
	if (n == 0)
		n = dflt;
	*out = (unsigned int)n;
	return 0;
}

/* Read the required width and height (under the names wkey and hkey). */
static int
cast_get_dims(struct cast *c, json_t *obj, const char *where,
    const char *wkey, const char *hkey, char **cause)
{
	if (cast_get_size(c, obj, where, wkey, CAST_DEFAULT_WIDTH,
	    &c->hdr.width, cause) != 0)
		return -1;
	return cast_get_size(c, obj, where, hkey, CAST_DEFAULT_HEIGHT,
	    &c->hdr.height, cause);
}

/* Fill the header fields common to every version from the header object. */
static void
cast_header_common(struct cast *c, json_t *h)
{
	json_t	*env = json_object_get(h, "env");
	json_t	*ts = json_object_get(h, "timestamp");
	double	 d;

	if (json_is_integer(ts))
		c->hdr.timestamp = (int64_t)json_integer_value(ts);
	else if (json_is_real(ts)) {
		d = json_real_value(ts);
		/* Only values that fit; others are treated as absent. */
		if (isfinite(d) && fabs(d) < 9e18)
			c->hdr.timestamp = (int64_t)d;
	}
	c->hdr.idle_time_limit = cast_get_seconds(h, "idle_time_limit");
	c->hdr.duration = cast_get_seconds(h, "duration");
	c->hdr.command = cast_get_string(h, "command");
	c->hdr.title = cast_get_string(h, "title");
	if (json_is_object(env)) {
		if (c->hdr.term == NULL)
			c->hdr.term = cast_get_string(env, "TERM");
		c->hdr.shell = cast_get_string(env, "SHELL");
	}
}

/* Read a version 2 or 3 header object; -1 with a cause if invalid. */
static int
cast_header_v23(struct cast *c, json_t *h, char **cause)
{
	json_t	*term;

	if (c->hdr.version == 2) {
		if (cast_get_dims(c, h, "header", "width", "height",
		    cause) != 0)
			return -1;
	} else {
		term = json_object_get(h, "term");
		if (!json_is_object(term))
			return cast_fail(c, cause, "header has no term object");
		if (cast_get_dims(c, term, "header term", "cols", "rows",
		    cause) != 0)
			return -1;
		c->hdr.term = cast_get_string(term, "type");
	}
	cast_header_common(c, h);
	return 0;
}

/*
 * Read the rest of the input from byte start as one JSON document (a
 * version 1 file).  Returns the document or NULL with a cause.
 */
static json_t *
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

/* Check a version 1 document and take it over; -1 with a cause if bad. */
static int
cast_header_v1(struct cast *c, json_t *doc, char **cause)
{
	if (cast_get_dims(c, doc, "header", "width", "height", cause) != 0)
		return -1;
	if (!json_is_array(json_object_get(doc, "stdout")))
		return cast_fail(c, cause, "asciicast v1 file has no stdout "
		    "array");
	cast_header_common(c, doc);
	c->v1_doc = json_incref(doc);
	return 0;
}

/* Read and check the header, whichever version; -1 with a cause. */
static int
cast_read_header(struct cast *c, char **cause)
{
	const char	*line, *p;
	size_t		 len, n, start;
	int		 complete, r, whole = 0;
	json_t		*h = NULL, *v;
	json_error_t	 err;
	json_int_t	 version;

	/* Look at the first bytes: refuse a binary file without reading on. */
	p = cast_avail(c, &n);
	if (n == 0 && c->mem == NULL) {
		if (cast_fill(c, cause) < 0)
			return -1;
		p = cast_avail(c, &n);
	}
	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		c->off += 3;	/* a UTF-8 byte order mark */
	for (;;) {
		p = cast_avail(c, &n);
		while (n > 0 && cast_is_space(*p)) {
			p++;
			n--;
		}
		if (n > 0 && *p != '{')
			return cast_fail(c, cause, "not an asciicast file "
			    "(it does not start with a JSON object)");
		if ((r = cast_read_line(c, &line, &len, &complete, cause)) < 0)
			return -1;
		if (r == 0)
			return cast_fail(c, cause, "empty file, not an "
			    "asciicast recording");
		if (!cast_is_blank(line, len))
			break;
	}
	/* Where the header line starts, should the file be read whole. */
	start = (size_t)(line - (c->mem != NULL ? c->mem : c->in.data));

	h = cast_parse_line(line, len, &err);
	if (h == NULL && !complete) {
		return cast_fail(c, cause, "truncated header (line %lu is "
		    "incomplete)", c->line);
	}
	if (h == NULL) {
		/* Not one line of JSON: perhaps a multi-line v1 document. */
		if ((h = cast_load_whole(c, start, cause)) == NULL)
			return -1;
		whole = 1;
	}
	if (!json_is_object(h)) {
		json_decref(h);
		return cast_fail(c, cause, "not an asciicast file (the header "
		    "is not a JSON object)");
	}
	v = json_object_get(h, "version");
	if (!json_is_integer(v)) {
		json_decref(h);
		return cast_fail(c, cause, "not an asciicast file (the header "
		    "has no version)");
	}
	version = json_integer_value(v);
	if (version == 1 && !whole) {
		/* A v1 document on one line: read it whole from the start. */
		json_decref(h);
		if ((h = cast_load_whole(c, start, cause)) == NULL)
			return -1;
		whole = 1;
	}
	switch (version) {
	case 1:
		c->hdr.version = 1;
		r = cast_header_v1(c, h, cause);
		break;
	case 2:
	case 3:
		if (whole) {
			json_decref(h);
			return cast_fail(c, cause, "the asciicast v%d header "
			    "must be on the first line", (int)version);
		}
		c->hdr.version = (int)version;
		r = cast_header_v23(c, h, cause);
		break;
	default:
		r = cast_fail(c, cause, "unsupported asciicast version %lld",
		    (long long)version);
		break;
	}
	json_decref(h);
	return r;
}

/* Common part of the cast_open* functions: read the header or fail. */
static struct cast *
cast_start(struct cast *c, const char *name, char **cause)
{
	c->name = xstrdup(name != NULL ? name : "(memory)");
	if (cast_read_header(c, cause) != 0) {
		cast_free(c);
		return NULL;
	}
	c->state = CAST_READING;
	return c;
}

struct cast *
cast_open(const char *path, char **cause)
{
	struct cast	*c;
	int		 fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		cast_cause(cause, "%s: %s", path, strerror(errno));
		return NULL;
	}
	c = cast_open_fd(fd, path, cause);
	if (c == NULL) {
		close(fd);
		return NULL;
	}
	c->own_fd = 1;
	return c;
}

struct cast *
cast_open_fd(int fd, const char *name, char **cause)
{
	struct cast	*c;
	struct stat	 st;

	if (name == NULL)
		name = "(input)";
	if (fstat(fd, &st) != 0) {
		cast_cause(cause, "%s: %s", name, strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		cast_cause(cause, "%s: is a directory, not a recording", name);
		return NULL;
	}
	c = xcalloc(1, sizeof *c);
	c->fd = fd;
	return cast_start(c, name, cause);
}

struct cast *
cast_open_mem(const char *data, size_t len, const char *name, char **cause)
{
	struct cast	*c;

	c = xcalloc(1, sizeof *c);
	c->fd = -1;
	c->mem = data != NULL ? data : "";
	c->mem_len = data != NULL ? len : 0;
	return cast_start(c, name, cause);
}

void
cast_free(struct cast *c)
{
	if (c == NULL)
		return;
	if (c->own_fd)
		close(c->fd);
	json_decref(c->v1_doc);
	free(c->hdr.command);
	free(c->hdr.title);
	free(c->hdr.term);
	free(c->hdr.shell);
	free(c->name);
	free(c->error);
	free(c->warning);
	buf_free(&c->in);
	buf_free(&c->code);
	buf_free(&c->data);
	free(c);
}

const struct cast_header *
cast_header(struct cast *c)
{
	return &c->hdr;
}

const char *
cast_warning(struct cast *c)
{
	return c->warning;
}

unsigned long
cast_line(struct cast *c)
{
	return c->line;
}

/* Parse "COLSxROWS" into *cols, *rows; both 0 if malformed. */
static void
cast_parse_size(const char *s, size_t len, unsigned int *cols,
    unsigned int *rows)
{
	unsigned long	 v[2] = { 0, 0 };
	size_t		 i = 0;
	int		 k, digits;

	*cols = *rows = 0;
	for (k = 0; k < 2; k++) {
		digits = 0;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			v[k] = v[k] * 10 + (unsigned long)(s[i++] - '0');
			/* Stop before overflow: this is invalid anyway. */
			if (v[k] > CAST_SIZE_MAX)
				return;
			digits++;
		}
		if (digits == 0 || v[k] == 0)
			return;
		if (k == 0 && (i >= len || s[i++] != 'x'))
			return;
	}
	if (i != len)
		return;
	*cols = (unsigned int)v[0];
	*rows = (unsigned int)v[1];
}

/*
 * Fill *ev from a time (absolute, or an interval when relative), a code and
 * a data value; -1 with a cause (for the place where) if they are bad.
 */
static int
cast_make_event(struct cast *c, struct cast_event *ev, json_t *jt,
    const char *code, json_t *jd, int relative, const char *where,
    char **cause)
{
	double	t;

	if (!json_is_number(jt))
		return cast_fail(c, cause, "%s: the time is not a number",
		    where);
	t = json_number_value(jt);
	if (relative)
		t = c->last + (t > 0 ? t : 0);
	if (!isfinite(t))
		return cast_fail(c, cause, "%s: the time is out of range",
		    where);
	/* Time never goes backwards: players depend on it. */
	if (t < c->last)
		t = c->last;
	c->last = t;

	c->data.len = 0;
	if (json_is_string(jd))
		buf_add(&c->data, json_string_value(jd),
		    json_string_length(jd));
	else if (json_is_integer(jd))
		buf_printf(&c->data, "%lld", (long long)json_integer_value(jd));
	else
		return cast_fail(c, cause, "%s: the data is not a string",
		    where);
	c->code.len = 0;
	buf_adds(&c->code, code);

	memset(ev, 0, sizeof *ev);
	ev->time = t;
	ev->code = buf_cstr(&c->code);
	ev->type = c->code.len == 1 ? ev->code[0] : 0;
	ev->data = buf_cstr(&c->data);
	ev->len = c->data.len;
	if (ev->type == 'r')
		cast_parse_size(ev->data, ev->len, &ev->cols, &ev->rows);
	return 0;
}

/* Next frame of a version 1 document: 1, 0 at the end, -1. */
static int
cast_next_v1(struct cast *c, struct cast_event *ev, char **cause)
{
	json_t	*frames = json_object_get(c->v1_doc, "stdout");
	json_t	*f;
	char	 where[64];

	if (c->v1_next >= json_array_size(frames))
		return 0;
	f = json_array_get(frames, c->v1_next++);
	snprintf(where, sizeof where, "stdout frame %zu", c->v1_next);
	if (!json_is_array(f) || json_array_size(f) != 2)
		return cast_fail(c, cause, "%s is not a [delay, data] array",
		    where);
	if (cast_make_event(c, ev, json_array_get(f, 0), "o",
	    json_array_get(f, 1), 1, where, cause) != 0)
		return -1;
	return 1;
}

/* Next event line of a version 2 or 3 file: 1, 0 at the end, -1. */
static int
cast_next_line(struct cast *c, struct cast_event *ev, char **cause)
{
	const char	*line, *code;
	size_t		 len;
	int		 complete, r;
	json_t		*e;
	json_error_t	 err;
	char		 where[64];

	for (;;) {
		if ((r = cast_read_line(c, &line, &len, &complete, cause)) <= 0)
			return r;
		if (cast_is_blank(line, len))
			continue;
		/* v3 allows comment lines. */
		if (c->hdr.version == 3 && line[0] == '#')
			continue;
		break;
	}
	snprintf(where, sizeof where, "line %lu", c->line);
	if ((e = cast_parse_line(line, len, &err)) == NULL) {
		if (!complete) {
			/* Cut off mid-line: keep what came before. */
			free(c->warning);
			c->warning = xasprintf("%s: line %lu is incomplete "
			    "(the recording was cut off); events up to line "
			    "%lu were read", c->name, c->line, c->line - 1);
			return 0;
		}
		return cast_fail(c, cause, "%s: invalid JSON (%s)", where,
		    err.text);
	}
	if (!json_is_array(e) || json_array_size(e) != 3 ||
	    !json_is_string(json_array_get(e, 1))) {
		json_decref(e);
		return cast_fail(c, cause, "%s is not a [time, code, data] "
		    "event", where);
	}
	code = json_string_value(json_array_get(e, 1));
	r = cast_make_event(c, ev, json_array_get(e, 0), code,
	    json_array_get(e, 2), c->hdr.version == 3, where, cause);
	json_decref(e);
	return r == 0 ? 1 : -1;
}

int
cast_next(struct cast *c, struct cast_event *ev, char **cause)
{
	int	r;

	if (c->state == CAST_DONE)
		return 0;
	if (c->state == CAST_FAILED) {
		cast_cause(cause, "%s", c->error);
		return -1;
	}
	if (c->hdr.version == 1)
		r = cast_next_v1(c, ev, cause);
	else
		r = cast_next_line(c, ev, cause);
	if (r == 0)
		c->state = CAST_DONE;
	return r;
}
