/*
 * test-cast.c - the asciicast reader: every version, every event type, JSON
 * escapes, and hostile input (truncation at every byte, byte flips, random
 * garbage, files that are not recordings).  Deterministic: the random
 * inputs come from a fixed seed.
 */
#include "record/cast.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "tests/tap.h"

#define MAX_EVENTS 64

/* What reading a whole recording gave. */
struct result {
	int		 opened;	/* cast_open* succeeded */
	int		 status;	/* last cast_next: 0 end, -1 error */
	char		*cause;		/* open or read error */
	char		*warning;
	struct cast_header hdr;		/* strings not kept */
	size_t		 n;		/* events counted (MAX_EVENTS kept) */
	int		 monotonic;	/* times never decreased */
	struct {
		double		 time;
		char		 type;
		char		 code[16];
		char		*data;
		size_t		 len;
		unsigned int	 cols, rows;
	} ev[MAX_EVENTS];
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

/* xorshift64: a fixed sequence, so every run tests the same inputs. */
static uint32_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

static void
result_clear(struct result *r)
{
	size_t	i;

	for (i = 0; i < r->n && i < MAX_EVENTS; i++)
		free(r->ev[i].data);
	free(r->cause);
	free(r->warning);
	memset(r, 0, sizeof *r);
}

/* Read every event of an open reader into r, then free the reader. */
static void
drain(struct cast *c, struct result *r)
{
	struct cast_event	 ev;
	double			 last = 0;
	const char		*w;
	size_t			 k;

	r->opened = 1;
	r->monotonic = 1;
	r->hdr = *cast_header(c);
	r->hdr.command = r->hdr.title = r->hdr.term = r->hdr.shell = NULL;
	while ((r->status = cast_next(c, &ev, &r->cause)) == 1) {
		if (ev.time < last || ev.time < 0)
			r->monotonic = 0;
		last = ev.time;
		if (r->n < MAX_EVENTS) {
			k = r->n;
			r->ev[k].time = ev.time;
			r->ev[k].type = ev.type;
			snprintf(r->ev[k].code, sizeof r->ev[k].code, "%s",
			    ev.code);
			r->ev[k].data = xmalloc(ev.len + 1);
			memcpy(r->ev[k].data, ev.data, ev.len + 1);
			r->ev[k].len = ev.len;
			r->ev[k].cols = ev.cols;
			r->ev[k].rows = ev.rows;
		}
		r->n++;
	}
	if ((w = cast_warning(c)) != NULL)
		r->warning = xstrdup(w);
	cast_free(c);
}

/* Read a recording held in memory. */
static void
read_mem(const char *data, size_t len, struct result *r)
{
	struct cast	*c;

	memset(r, 0, sizeof *r);
	if ((c = cast_open_mem(data, len, "test.cast", &r->cause)) != NULL)
		drain(c, r);
}

static void
read_str(const char *s, struct result *r)
{
	read_mem(s, strlen(s), r);
}

/* Read a recording from a file. */
static void
read_path(const char *path, struct result *r)
{
	struct cast	*c;

	memset(r, 0, sizeof *r);
	if ((c = cast_open(path, &r->cause)) != NULL)
		drain(c, r);
}

/* Does the cause mention text? */
static int
cause_has(const struct result *r, const char *text)
{
	if (r->cause == NULL || strstr(r->cause, text) == NULL) {
		diag("cause: %s", r->cause ? r->cause : "(none)");
		return 0;
	}
	return 1;
}

static int
near(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

/* Read a whole file into memory (test data). */
static char *
slurp(const char *path, size_t *len)
{
	struct buf	 b = { 0 };
	char		 tmp[4096];
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	while ((n = read(fd, tmp, sizeof tmp)) > 0)
		buf_add(&b, tmp, (size_t)n);
	close(fd);
	*len = b.len;
	return buf_cstr(&b);
}

static void
write_file(const char *path, const void *data, size_t len)
{
	int	fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		fatal("cannot write %s: %s", path, strerror(errno));
	close(fd);
}

static const char v2_all[] =
    "{\"version\": 2, \"width\": 100, \"height\": 30, "
    "\"timestamp\": 1700000000, \"idle_time_limit\": 1.5, "
    "\"command\": \"make test\", \"title\": \"A title\", "
    "\"env\": {\"TERM\": \"xterm-256color\", \"SHELL\": \"/bin/bash\"}}\n"
    "[0.5, \"o\", \"hello\"]\n"
    "[0.75, \"i\", \"y\\r\"]\n"
    "\n"
    "[1.0, \"r\", \"120x40\"]\n"
    "[1.25, \"m\", \"exit 3\"]\n"
    "[1.5, \"zz\", \"future\"]\n"
    "[2, \"q\", \"\"]\n";

static void
test_v2_events(void)
{
	struct result	r;

	read_str(v2_all, &r);
	ok(r.opened, "v2: opens");
	is_int(r.hdr.version, 2, "v2: version");
	is_int(r.hdr.width, 100, "v2: width");
	is_int(r.hdr.height, 30, "v2: height");
	is_int(r.hdr.timestamp, 1700000000, "v2: timestamp");
	ok(near(r.hdr.idle_time_limit, 1.5), "v2: idle_time_limit");
	is_int(r.status, 0, "v2: ends cleanly");
	ok(r.warning == NULL, "v2: no warning");
	is_int(r.n, 6, "v2: six events (blank line skipped)");
	ok(r.ev[0].type == 'o' && near(r.ev[0].time, 0.5) &&
	    strcmp(r.ev[0].data, "hello") == 0, "v2: output event");
	ok(r.ev[1].type == 'i' && strcmp(r.ev[1].data, "y\r") == 0,
	    "v2: input event");
	ok(r.ev[2].type == 'r' && r.ev[2].cols == 120 && r.ev[2].rows == 40,
	    "v2: resize event parsed");
	ok(r.ev[3].type == 'm' && strcmp(r.ev[3].data, "exit 3") == 0,
	    "v2: marker event");
	ok(r.ev[4].type == 0 && strcmp(r.ev[4].code, "zz") == 0 &&
	    strcmp(r.ev[4].data, "future") == 0,
	    "v2: unknown long code returned with its code");
	ok(r.ev[5].type == 'q' && near(r.ev[5].time, 2) && r.ev[5].len == 0,
	    "v2: unknown one-letter type, integer time");
	result_clear(&r);
}

/* The header strings need a live reader: check them separately. */
static void
test_v2_header_strings(void)
{
	const struct cast_header	*h;
	struct cast			*c;
	char				*cause = NULL;

	c = cast_open_mem(v2_all, strlen(v2_all), NULL, &cause);
	if (!ok(c != NULL, "header strings: opens"))
		return;
	h = cast_header(c);
	is_str(h->command, "make test", "header: command");
	is_str(h->title, "A title", "header: title");
	is_str(h->term, "xterm-256color", "header: env.TERM");
	is_str(h->shell, "/bin/bash", "header: env.SHELL");
	cast_free(c);

	c = cast_open_mem("{\"version\":2,\"width\":0,\"height\":0}\n", 35,
	    NULL, &cause);
	ok(c != NULL && cast_header(c)->width == CAST_DEFAULT_WIDTH &&
	    cast_header(c)->height == CAST_DEFAULT_HEIGHT &&
	    cast_header(c)->title == NULL && cast_header(c)->timestamp == 0,
	    "header: size 0 means the default, absent fields empty");
	cast_free(c);
	cast_free(NULL);
	ok(1, "cast_free(NULL) is a no-op");
}

static void
test_crlf(void)
{
	struct result	r;

	read_str("{\"version\": 2, \"width\": 80, \"height\": 24}\r\n"
	    "[0.1, \"o\", \"a\"]\r\n"
	    "[0.2, \"o\", \"b\"]\r\n", &r);
	ok(r.opened && r.n == 2 && r.status == 0 &&
	    strcmp(r.ev[1].data, "b") == 0, "CRLF line endings");
	result_clear(&r);
}

static void
test_escapes(void)
{
	struct result	r;

	read_str("{\"version\": 2, \"width\": 80, \"height\": 24}\n"
	    "[0.1, \"o\", \"caf\\u00e9\"]\n"
	    "[0.2, \"o\", \"\\ud83d\\ude00\"]\n"
	    "[0.3, \"o\", \"\\u001b[1mB\\u001b[0m\"]\n"
	    "[0.4, \"o\", \"a\\u0000b\"]\n"
	    "[0.5, \"o\", \"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]\n"
	    "[0.6, \"o\", \"raw caf\xc3\xa9\"]\n"
	    "[0.7, \"o\", \"bad \xff\xfe utf8\"]\n", &r);
	is_int(r.n, 7, "escapes: seven events");
	is_str(r.ev[0].data, "caf\xc3\xa9", "escapes: \\u00e9 is UTF-8");
	is_str(r.ev[1].data, "\xf0\x9f\x98\x80",
	    "escapes: surrogate pair is one 4-byte emoji");
	is_str(r.ev[2].data, "\x1b[1mB\x1b[0m", "escapes: \\u001b is ESC");
	ok(r.ev[3].len == 3 && memcmp(r.ev[3].data, "a\0b", 3) == 0,
	    "escapes: \\u0000 kept, length counts it");
	is_str(r.ev[4].data, "\"\\/\b\f\n\r\t", "escapes: short escapes");
	is_str(r.ev[5].data, "raw caf\xc3\xa9", "escapes: raw UTF-8 kept");
	is_str(r.ev[6].data, "bad \xef\xbf\xbd\xef\xbf\xbd utf8",
	    "escapes: invalid UTF-8 bytes become U+FFFD");
	is_int(r.status, 0, "escapes: ends cleanly");
	result_clear(&r);

	read_str("{\"version\": 2, \"width\": 80, \"height\": 24}\n"
	    "[0.1, \"o\", \"\\ud83d\"]\n", &r);
	ok(r.status == -1 && cause_has(&r, "line 2"),
	    "escapes: a lone surrogate is an error naming the line");
	result_clear(&r);
}

static void
test_resize(void)
{
	static const struct {
		const char	*s;
		unsigned int	 cols, rows;
	} cases[] = {
		{ "80x24", 80, 24 },
		{ "1x1", 1, 1 },
		{ "10000x10000", 10000, 10000 },
		{ "10001x24", 0, 0 },
		{ "0x24", 0, 0 },
		{ "80x0", 0, 0 },
		{ "80x", 0, 0 },
		{ "x24", 0, 0 },
		{ "80X24", 0, 0 },
		{ "80x24x", 0, 0 },
		{ " 80x24", 0, 0 },
		{ "-80x24", 0, 0 },
		{ "99999999999999999999x1", 0, 0 },
		{ "", 0, 0 },
	};
	struct result	r;
	char		*s;
	size_t		 i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = xasprintf("{\"version\":2,\"width\":80,\"height\":24}\n"
		    "[1, \"r\", \"%s\"]\n", cases[i].s);
		read_str(s, &r);
		ok(r.n == 1 && r.ev[0].type == 'r' &&
		    r.ev[0].cols == cases[i].cols &&
		    r.ev[0].rows == cases[i].rows,
		    "resize \"%s\" -> %ux%u", cases[i].s, cases[i].cols,
		    cases[i].rows);
		result_clear(&r);
		free(s);
	}
}

static void
test_times(void)
{
	struct result	r;

	read_str("{\"version\":2,\"width\":80,\"height\":24}\n"
	    "[-1, \"o\", \"a\"]\n"
	    "[2.5, \"o\", \"b\"]\n"
	    "[1.0, \"o\", \"c\"]\n"
	    "[3, \"o\", \"d\"]\n", &r);
	ok(r.n == 4 && near(r.ev[0].time, 0) && near(r.ev[1].time, 2.5) &&
	    near(r.ev[2].time, 2.5) && near(r.ev[3].time, 3),
	    "times: negative and backward times are clamped");
	is_int(r.status, 0, "times: clamping is not an error");
	result_clear(&r);

	read_str("{\"version\":2,\"width\":80,\"height\":24}\n"
	    "[\"1\", \"o\", \"a\"]\n", &r);
	ok(r.status == -1 && cause_has(&r, "line 2") &&
	    cause_has(&r, "not a number"), "times: a string time is an error");
	result_clear(&r);
}

static const char v1_doc[] =
    "{\n"
    "  \"version\": 1,\n"
    "  \"width\": 90,\n"
    "  \"height\": 20,\n"
    "  \"duration\": 1.75,\n"
    "  \"command\": \"/bin/zsh\",\n"
    "  \"title\": \"old\",\n"
    "  \"env\": {\"TERM\": \"screen\", \"SHELL\": \"/bin/zsh\"},\n"
    "  \"stdout\": [\n"
    "    [0.5, \"one\\r\\n\"],\n"
    "    [1.0, \"\\u001b[1mtwo\"],\n"
    "    [0.25, \"three\"]\n"
    "  ]\n"
    "}\n";

static void
test_v1(void)
{
	struct result	 r;
	struct cast	*c;
	char		*cause = NULL;

	read_str(v1_doc, &r);
	ok(r.opened && r.hdr.version == 1 && r.hdr.width == 90 &&
	    r.hdr.height == 20 && near(r.hdr.duration, 1.75),
	    "v1: multi-line document, header read");
	ok(r.n == 3 && r.ev[0].type == 'o' && r.ev[2].type == 'o',
	    "v1: three output events");
	ok(near(r.ev[0].time, 0.5) && near(r.ev[1].time, 1.5) &&
	    near(r.ev[2].time, 1.75), "v1: relative delays become absolute");
	is_str(r.ev[1].data, "\x1b[1mtwo", "v1: data decoded");
	is_int(r.status, 0, "v1: ends cleanly");
	result_clear(&r);

	c = cast_open_mem(v1_doc, strlen(v1_doc), NULL, &cause);
	ok(c != NULL && strcmp(cast_header(c)->title, "old") == 0 &&
	    strcmp(cast_header(c)->term, "screen") == 0,
	    "v1: title and env");
	cast_free(c);

	read_str("{\"version\":1,\"width\":80,\"height\":24,\"stdout\":"
	    "[[0.1,\"a\"],[0.2,\"b\"]]}", &r);
	ok(r.n == 2 && near(r.ev[1].time, 0.3 ) && r.status == 0,
	    "v1: one-line document without a final newline");
	result_clear(&r);

	read_str("{\"version\":1,\"width\":80,\"height\":24,\"stdout\":"
	    "[[0.1,\"a\"],[0.2]]}\n", &r);
	ok(r.n == 1 && r.status == -1 && cause_has(&r, "stdout frame 2"),
	    "v1: a bad frame is an error naming it");
	result_clear(&r);

	read_str("{\"version\":1,\"width\":80,\"height\":24}\n", &r);
	ok(!r.opened && cause_has(&r, "no stdout"), "v1: stdout required");
	result_clear(&r);

	read_str("{\n  \"version\": 1,\n  \"width\": 80,\n", &r);
	ok(!r.opened && cause_has(&r, "not an asciicast file"),
	    "v1: a truncated document is refused");
	result_clear(&r);
}

static void
test_v3(void)
{
	struct result	 r;
	struct cast	*c;
	char		*cause = NULL;
	static const char v3[] =
	    "{\"version\": 3, \"term\": {\"cols\": 132, \"rows\": 43, "
	    "\"type\": \"xterm-kitty\"}, \"timestamp\": 1504467315, "
	    "\"idle_time_limit\": 2, \"env\": {\"SHELL\": \"/bin/fish\"}}\n"
	    "# a comment\n"
	    "[0.25, \"o\", \"a\"]\n"
	    "[1.0, \"o\", \"b\"]\n"
	    "[-0.5, \"m\", \"\"]\n"
	    "# resized\n"
	    "[0.25, \"r\", \"90x30\"]\n"
	    "[0.5, \"x\", \"0\"]\n";

	read_str(v3, &r);
	ok(r.opened && r.hdr.version == 3 && r.hdr.width == 132 &&
	    r.hdr.height == 43 && near(r.hdr.idle_time_limit, 2),
	    "v3: header from term");
	is_int(r.n, 5, "v3: five events, comments skipped");
	ok(near(r.ev[0].time, 0.25) && near(r.ev[1].time, 1.25) &&
	    near(r.ev[2].time, 1.25) && near(r.ev[3].time, 1.5) &&
	    near(r.ev[4].time, 2.0),
	    "v3: intervals summed, negative interval is no pause");
	ok(r.ev[3].cols == 90 && r.ev[3].rows == 30, "v3: resize");
	ok(r.ev[4].type == 'x' && strcmp(r.ev[4].data, "0") == 0,
	    "v3: exit event");
	result_clear(&r);

	c = cast_open_mem(v3, strlen(v3), NULL, &cause);
	ok(c != NULL && strcmp(cast_header(c)->term, "xterm-kitty") == 0 &&
	    strcmp(cast_header(c)->shell, "/bin/fish") == 0,
	    "v3: term.type is TERM");
	cast_free(c);

	read_str("{\"version\": 3, \"term\": {\"cols\": 80, \"rows\": 24}}\n"
	    "[0.5, \"x\", 2]\n", &r);
	ok(r.n == 1 && strcmp(r.ev[0].data, "2") == 0,
	    "v3: numeric exit status accepted");
	result_clear(&r);

	read_str("{\"version\": 3, \"width\": 80, \"height\": 24}\n", &r);
	ok(!r.opened && cause_has(&r, "no term"), "v3: term required");
	result_clear(&r);

	read_str("{\"version\": 2, \"width\": 80, \"height\": 24}\n"
	    "# not allowed in v2\n", &r);
	ok(r.status == -1 && cause_has(&r, "line 2"),
	    "v2: comment lines are errors");
	result_clear(&r);
}

static void
test_bad_headers(void)
{
	static const struct {
		const char	*in;
		const char	*cause;
	} cases[] = {
		{ "", "empty file" },
		{ "\n\n  \n", "empty file" },
		{ "{\"version\": 4, \"width\": 80, \"height\": 24}\n",
		  "unsupported asciicast version 4" },
		{ "{\"version\": 0}\n", "unsupported asciicast version 0" },
		{ "{\"width\": 80, \"height\": 24}\n", "has no version" },
		{ "{\"version\": \"2\"}\n", "has no version" },
		{ "{\"version\": 2, \"height\": 24}\n", "has no width" },
		{ "{\"version\": 2, \"width\": 80}\n", "has no height" },
		{ "{\"version\": 2, \"width\": -3, \"height\": 24}\n",
		  "out of range" },
		{ "{\"version\": 2, \"width\": 1e3, \"height\": 24}\n",
		  "not an integer" },
		{ "{\"version\": 2, \"width\": 80, \"height\": 24",
		  "truncated header" },
		{ "[0.5, \"o\", \"x\"]\n", "does not start with a JSON" },
		{ "hello world\n", "does not start with a JSON" },
		{ "\x7f" "ELF\x02\x01\x01", "does not start with a JSON" },
		{ "{\n\"version\": 2,\n\"width\": 80, \"height\": 24}\n",
		  "must be on the first line" },
		{ "{\"a\": 1}\n{\"b\": 2}\n", "not an asciicast file" },
	};
	struct result	r;
	size_t		i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		read_str(cases[i].in, &r);
		ok(!r.opened && cause_has(&r, cases[i].cause) &&
		    strncmp(r.cause, "test.cast: ", 11) == 0 &&
		    strchr(r.cause, '\n') == NULL,
		    "bad header %zu: \"%s\"", i, cases[i].cause);
		result_clear(&r);
	}

	read_str("\xef\xbb\xbf{\"version\": 2, \"width\": 80, \"height\": 24}\n"
	    "[1, \"o\", \"x\"]\n", &r);
	ok(r.opened && r.n == 1, "a UTF-8 byte order mark is skipped");
	result_clear(&r);
}

static void
test_bad_events(void)
{
	static const struct {
		const char	*line;
		const char	*cause;
	} cases[] = {
		{ "[1, \"o\"]", "is not a [time, code, data] event" },
		{ "[1, \"o\", \"a\", 4]", "is not a [time, code, data] event" },
		{ "{\"t\": 1}", "is not a [time, code, data] event" },
		{ "[1, 2, \"a\"]", "is not a [time, code, data] event" },
		{ "[1, \"o\", null]", "the data is not a string" },
		{ "[null, \"o\", \"a\"]", "the time is not a number" },
		{ "[1, \"o\", \"a\"", "invalid JSON" },
		{ "garbage", "invalid JSON" },
		{ "[1e999, \"o\", \"a\"]", "invalid JSON" },
	};
	struct result	r;
	char		*s;
	size_t		 i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = xasprintf("{\"version\":2,\"width\":80,\"height\":24}\n"
		    "[0.5, \"o\", \"before\"]\n%s\n[2, \"o\", \"after\"]\n",
		    cases[i].line);
		read_str(s, &r);
		ok(r.opened && r.n == 1 && r.status == -1 &&
		    cause_has(&r, "line 3") && cause_has(&r, cases[i].cause),
		    "corrupt middle line %zu: %s", i, cases[i].cause);
		result_clear(&r);
		free(s);
	}

	/* Errors are sticky. */
	{
		struct cast		*c;
		struct cast_event	 ev;
		char			*cause = NULL, *cause2 = NULL;
		static const char	 in[] =
		    "{\"version\":2,\"width\":80,\"height\":24}\nxx\n";

		c = cast_open_mem(in, strlen(in), NULL, &cause);
		ok(cast_next(c, &ev, &cause) == -1 &&
		    cast_next(c, &ev, &cause2) == -1 && cause2 != NULL &&
		    strcmp(cause, cause2) == 0, "an error is sticky");
		free(cause);
		free(cause2);
		cast_free(c);
	}
}

/* Truncate the sample at every offset, in memory and through a file. */
static void
test_truncation(const char *data, size_t len, const char *dir)
{
	struct result	 full, r;
	size_t		 k, i, header_end, expect, bad = 0, bad_fd = 0;
	size_t		 line_start;
	char		*path;
	int		 partial;

	read_mem(data, len, &full);
	if (!ok(full.status == 0 && full.n > 0, "truncation: sample reads"))
		return;
	header_end = (size_t)((const char *)memchr(data, '\n', len) - data);
	path = xasprintf("%s/cut.cast", dir);

	for (k = 0; k <= len; k++) {
		/* Events expected: complete lines, plus a line that lost only
		 * its newline (still valid JSON). */
		expect = 0;
		line_start = header_end + 1;
		partial = 0;
		for (i = header_end + 1; i < k; i++) {
			if (data[i] == '\n') {
				expect++;
				line_start = i + 1;
			}
		}
		if (k > line_start && k < len && data[k] == '\n')
			expect++;
		else if (k > line_start)
			partial = 1;

		read_mem(data, k, &r);
		if (k < header_end) {
			if (r.opened || r.cause == NULL)
				bad++;
		} else if (!r.opened || r.status != 0 || r.n != expect ||
		    (partial != (r.warning != NULL)) || !r.monotonic)
			bad++;
		else {
			for (i = 0; i < r.n; i++) {
				if (r.ev[i].len != full.ev[i].len ||
				    memcmp(r.ev[i].data, full.ev[i].data,
				    r.ev[i].len) != 0)
					bad++;
			}
		}
		if (bad == 1 && r.cause != NULL)
			diag("offset %zu: %s", k, r.cause);
		result_clear(&r);

		write_file(path, data, k);
		read_path(path, &r);
		if (k < header_end ? r.opened : (r.status != 0 ||
		    r.n != expect || partial != (r.warning != NULL)))
			bad_fd++;
		result_clear(&r);
	}
	is_int(bad, 0, "truncation at each of %zu offsets (memory)", len + 1);
	is_int(bad_fd, 0, "truncation at each of %zu offsets (file)", len + 1);

	read_mem(data, len - 3, &r);
	ok(r.warning != NULL && strstr(r.warning, "incomplete") != NULL &&
	    strstr(r.warning, "line 5") != NULL,
	    "truncation: the warning names the incomplete line");
	diag("warning: %s", r.warning ? r.warning : "(none)");
	result_clear(&r);
	result_clear(&full);
	unlink(path);
	free(path);
}

/* Flip random bytes of the sample, and feed random garbage. */
static void
test_fuzz(const char *data, size_t len)
{
	struct result	 r;
	char		*copy, garbage[600];
	size_t		 i, j, n, opened = 0, ended = 0, failed = 0, bad = 0;
	int		 iter;

	copy = xmalloc(len);
	for (iter = 0; iter < 3000; iter++) {
		memcpy(copy, data, len);
		n = 1 + rng() % 4;
		for (j = 0; j < n; j++)
			copy[rng() % len] ^= (char)(1 << (rng() % 8));
		read_mem(copy, len, &r);
		if (r.opened) {
			opened++;
			if (r.status == 0)
				ended++;
			else if (r.cause != NULL)
				failed++;
			else
				bad++;
			if (!r.monotonic)
				bad++;
		} else if (r.cause == NULL)
			bad++;
		result_clear(&r);
	}
	diag("byte flips: %zu opened (%zu to the end, %zu with an error), "
	    "%zu refused", opened, ended, failed, (size_t)3000 - opened);
	is_int(bad, 0, "3000 files with flipped bytes: each a result or a "
	    "cause");

	bad = 0;
	for (iter = 0; iter < 3000; iter++) {
		n = rng() % sizeof garbage;
		for (i = 0; i < n; i++)
			garbage[i] = (char)rng();
		/* Half of them look like a recording at first glance. */
		if (iter % 2 == 0 && n > 0) {
			n = (n % 100) + (size_t)snprintf(garbage,
			    sizeof garbage, "{\"version\":%d,\"width\":80,"
			    "\"height\":24,\"term\":{\"cols\":8,\"rows\":2}}"
			    "\n[",
			    1 + iter % 3);
		}
		read_mem(garbage, n, &r);
		if (r.opened ? (r.status != 0 && r.cause == NULL) ||
		    !r.monotonic : r.cause == NULL)
			bad++;
		result_clear(&r);
	}
	is_int(bad, 0, "3000 random inputs: each a result or a cause");
	free(copy);
}

static void
test_files(const char *dir)
{
	struct result	 r;
	char		*path, *big;
	size_t		 n;
	int		 fds[2];
	struct cast	*c;
	char		*cause = NULL;
	const char	*hdr = "{\"version\":2,\"width\":80,\"height\":24}\n";

	read_path(dir, &r);
	ok(!r.opened && cause_has(&r, "is a directory"), "a directory");
	result_clear(&r);

	path = xasprintf("%s/missing.cast", dir);
	read_path(path, &r);
	ok(!r.opened && cause_has(&r, "No such file or directory") &&
	    strncmp(r.cause, path, strlen(path)) == 0, "a missing file");
	result_clear(&r);
	free(path);

	path = xasprintf("%s/empty.cast", dir);
	write_file(path, "", 0);
	read_path(path, &r);
	ok(!r.opened && cause_has(&r, "empty file"), "an empty file");
	result_clear(&r);

	if (geteuid() == 0)
		tap_skip(1, "root reads files whatever their mode");
	else {
		write_file(path, hdr, strlen(hdr));
		chmod(path, 0);
		read_path(path, &r);
		ok(!r.opened && cause_has(&r, "Permission denied"),
		    "an unreadable file");
		result_clear(&r);
	}
	unlink(path);
	free(path);

	/* One line over the limit, through the fd reader and in memory. */
	n = strlen(hdr) + CAST_LINE_MAX + 16;
	big = xmalloc(n);
	memcpy(big, hdr, strlen(hdr));
	memset(big + strlen(hdr), 'a', n - strlen(hdr));
	big[strlen(hdr)] = '[';
	big[n - 1] = '\n';
	path = xasprintf("%s/long.cast", dir);
	write_file(path, big, n);
	read_path(path, &r);
	ok(r.opened && r.status == -1 && cause_has(&r, "line 2 is longer "
	    "than 16 MiB"), "an over-long line (file)");
	result_clear(&r);
	read_mem(big, n, &r);
	ok(r.opened && r.status == -1 && cause_has(&r, "longer than"),
	    "an over-long line (memory)");
	result_clear(&r);
	/* Over the limit with no newline at all: same answer. */
	write_file(path, big, n - 1);
	read_path(path, &r);
	ok(r.opened && r.status == -1 && cause_has(&r, "longer than"),
	    "an over-long unterminated line (file)");
	result_clear(&r);
	/* A binary file of that size is refused at its first byte. */
	memset(big, 0, n);
	write_file(path, big, n);
	read_path(path, &r);
	ok(!r.opened && cause_has(&r, "not an asciicast file"),
	    "a large binary file");
	result_clear(&r);
	unlink(path);
	free(path);
	free(big);

	/* v1 through the fd reader: after a BOM and a blank line, and one
	 * larger than a read chunk. */
	{
		struct buf	 doc = { 0 };
		int		 i;

		buf_adds(&doc, "\xef\xbb\xbf\n");
		buf_adds(&doc, v1_doc);
		path = xasprintf("%s/v1.cast", dir);
		write_file(path, doc.data, doc.len);
		read_path(path, &r);
		ok(r.opened && r.hdr.version == 1 && r.n == 3 &&
		    near(r.ev[2].time, 1.75) && r.status == 0,
		    "v1 file after a BOM and a blank line");
		result_clear(&r);

		doc.len = 0;
		buf_adds(&doc, "{\"version\": 1, \"width\": 80, "
		    "\"height\": 24, \"stdout\": [\n");
		for (i = 0; i < 5000; i++)
			buf_printf(&doc, "%s[0.5, \"frame %d of the v1 file\"]",
			    i == 0 ? "" : ",\n", i);
		buf_adds(&doc, "]}\n");
		write_file(path, doc.data, doc.len);
		read_path(path, &r);
		ok(r.opened && r.n == 5000 && r.status == 0 &&
		    strcmp(r.ev[1].data, "frame 1 of the v1 file") == 0,
		    "v1 file of %zu bytes (several reads)", doc.len);
		result_clear(&r);
		unlink(path);
		free(path);
		buf_free(&doc);
	}

	/* A pipe, read through cast_open_fd. */
	if (pipe(fds) != 0)
		fatal("pipe: %s", strerror(errno));
	if (write(fds[1], hdr, strlen(hdr)) < 0 ||
	    write(fds[1], "[1, \"o\", \"p\"]\n", 14) < 0)
		fatal("write: %s", strerror(errno));
	close(fds[1]);
	memset(&r, 0, sizeof r);
	c = cast_open_fd(fds[0], "<pipe>", &cause);
	if (c != NULL)
		drain(c, &r);
	ok(r.opened && r.n == 1 && strcmp(r.ev[0].data, "p") == 0 &&
	    r.status == 0, "a pipe via cast_open_fd");
	result_clear(&r);
	ok(fcntl(fds[0], F_GETFD) != -1, "cast_free leaves the caller's fd");
	close(fds[0]);
	free(cause);
}

/* The recording made with asciinema rec. */
static void
test_asciinema(const char *data, size_t len, const char *path)
{
	struct result	 r;
	struct cast	*c;
	char		*cause = NULL;

	read_path(path, &r);
	ok(r.opened && r.status == 0 && r.warning == NULL,
	    "asciinema rec: reads to the end");
	ok(r.hdr.version == 2 && r.hdr.width == 80 && r.hdr.height == 24 &&
	    r.hdr.timestamp == 1700000000, "asciinema rec: header");
	is_int(r.n, 4, "asciinema rec: four events");
	ok(r.ev[0].type == 'o' && strstr(r.ev[0].data,
	    "\x1b[1;31mred\x1b[0m") != NULL && strstr(r.ev[0].data,
	    "caf\xc3\xa9 \xf0\x9f\x98\x80\r\n") != NULL,
	    "asciinema rec: colours, accent and emoji decoded");
	ok(near(r.ev[3].time, 2.307423), "asciinema rec: last time");
	result_clear(&r);

	c = cast_open_mem(data, len, NULL, &cause);
	ok(c != NULL && strcmp(cast_header(c)->title, "demo") == 0,
	    "asciinema rec: title");
	cast_free(c);
	free(cause);
}

int
main(void)
{
	const char	*srcdir = getenv("top_srcdir");
	char		*sample_path, *sample, dir[] = "/tmp/test-cast.XXXXXX";
	size_t		 sample_len;

	if (srcdir == NULL)
		srcdir = ".";
	sample_path = xasprintf("%s/tests/data/asciinema-rec.cast", srcdir);
	sample = slurp(sample_path, &sample_len);
	if (mkdtemp(dir) == NULL)
		fatal("mkdtemp: %s", strerror(errno));

	test_v2_events();
	test_v2_header_strings();
	test_crlf();
	test_escapes();
	test_resize();
	test_times();
	test_v1();
	test_v3();
	test_bad_headers();
	test_bad_events();
	test_files(dir);
	if (ok(sample != NULL, "sample %s readable", sample_path)) {
		test_asciinema(sample, sample_len, sample_path);
		test_truncation(sample, sample_len, dir);
		test_fuzz(sample, sample_len);
	}
	rmdir(dir);
	free(sample);
	free(sample_path);
	return tap_done();
}
