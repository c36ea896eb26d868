/*
 * cast-header.c - the asciicast header, whichever the version: the first
 * line as a JSON object for versions 2 and 3 (v3 keeps the size in a term
 * object), or for version 1 the whole file as one document whose stdout
 * array cast.c then reads frame by frame.
 *
 * Invariants: a header that is accepted has a version of 1, 2 or 3 and a
 * width and height from 1 to CAST_SIZE_MAX (0 in the file becomes the
 * default); a v2 or v3 header must be a single line; a truncated
 * header is an error, not a warning.
 */
#include "record/cast-int.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

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
int
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
