/*
 * cast.c - streaming asciicast reader (see cast.h): opening a recording and
 * reading its events.  The header is read by cast-header.c, the input (an
 * fd through a small buffered line reader, or memory) by cast-input.c.
 *
 * Invariants: event times handed out never decrease; once cast_next has
 * returned 0 or -1 it keeps returning that.  Only the last line of a file
 * may be incomplete without that being an error: a writer that crashes
 * leaves exactly that.
 */
#include "record/cast-int.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
