/*
 * test-record.c - unit tests for the asciicast v2 recorder: header, lossless
 * output events under any chunking, U+FFFD for invalid bytes, resize and
 * marker events, monotonic times, file mode, O_EXCL, large output, JSON
 * escaping.  Recordings are read back with jansson.
 */
#include "record/record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "base/util.h"
#include "tests/tap.h"

static char	tmpdir[] = "/tmp/test-record.XXXXXX";
static int	nfiles;

/* A recording read back: header, events, concatenated data per type. */
struct cast {
	json_t		*header;
	json_t		*events;	/* array of [t, type, data] */
	struct buf	 out;		/* "o" data concatenated */
	size_t		 bad_lines;	/* lines that did not parse */
	int		 times_ok;	/* non-decreasing */
};

/* A fresh path in the temp dir. */
static char *
new_path(void)
{
	return xasprintf("%s/r%d.cast", tmpdir, nfiles++);
}

static void
cast_free(struct cast *c)
{
	json_decref(c->header);
	json_decref(c->events);
	buf_free(&c->out);
}

/* Parse path into c; -1 if it cannot be read. */
static int
cast_load(const char *path, struct cast *c)
{
	FILE		*f;
	char		*line = NULL;
	size_t		 cap = 0;
	ssize_t		 n;
	json_t		*v;
	double		 last = -1;

	memset(c, 0, sizeof *c);
	c->events = json_array();
	c->times_ok = 1;
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while ((n = getline(&line, &cap, f)) != -1) {
		v = json_loadb(line, (size_t)n, JSON_ALLOW_NUL, NULL);
		if (v == NULL) {
			c->bad_lines++;
			continue;
		}
		if (c->header == NULL && json_is_object(v)) {
			c->header = v;
			continue;
		}
		if (!json_is_array(v) || json_array_size(v) != 3 ||
		    !json_is_number(json_array_get(v, 0)) ||
		    !json_is_string(json_array_get(v, 1)) ||
		    !json_is_string(json_array_get(v, 2))) {
			c->bad_lines++;
			json_decref(v);
			continue;
		}
		if (json_number_value(json_array_get(v, 0)) < last)
			c->times_ok = 0;
		last = json_number_value(json_array_get(v, 0));
		if (strcmp(json_string_value(json_array_get(v, 1)), "o") == 0)
			buf_add(&c->out, json_string_value(json_array_get(v, 2)),
			    json_string_length(json_array_get(v, 2)));
		json_array_append_new(c->events, v);
	}
	free(line);
	fclose(f);
	return 0;
}

/* The type of event i, or "". */
static const char *
ev_type(const struct cast *c, size_t i)
{
	const char *s = json_string_value(json_array_get(
	    json_array_get(c->events, i), 1));

	return s ? s : "";
}

/* The data of event i, or "". */
static const char *
ev_data(const struct cast *c, size_t i)
{
	const char *s = json_string_value(json_array_get(
	    json_array_get(c->events, i), 2));

	return s ? s : "";
}

/* A recording at path whose file is capped at max bytes (0: none). */
static struct record *
create_capped(const char *path, uint64_t max)
{
	struct record_header	 h;
	struct record		*r;
	char			*cause = NULL;

	memset(&h, 0, sizeof h);
	h.cols = 100;
	h.rows = 30;
	h.timestamp = 1700000000;
	h.command = "printf 'a \"b\"'";
	h.title = "a title";
	h.term = "xterm-256color";
	h.shell = "/bin/sh";
	h.max_bytes = max;
	r = record_create(path, &h, &cause);
	if (r == NULL) {
		diag("record_create %s: %s", path, cause);
		free(cause);
	}
	return r;
}

/* A recording at path without a cap. */
static struct record *
create(const char *path)
{
	return create_capped(path, 0);
}

static int
close_ok(struct record *r, uint64_t t, const char *marker)
{
	char	*cause = NULL;
	int	 rc = record_close(r, t, marker, &cause);

	if (rc != 0) {
		diag("record_close: %s", cause);
		free(cause);
	}
	return rc == 0;
}

static void
test_header_and_mode(void)
{
	char		*path = new_path(), *cause = NULL;
	struct record	*r, *r2;
	struct cast	 c;
	struct stat	 st;
	json_t		*env;
	mode_t		 old;
	int		 e;

	old = umask(0);		/* the mode must come from the recorder */
	r = create(path);
	umask(old);
	if (!ok(r != NULL, "record_create succeeds")) {
		free(path);
		return;
	}
	if (stat(path, &st) != 0)
		st.st_mode = 0;
	is_int(st.st_mode & 07777, 0600, "file mode is 0600");

	r2 = record_create(path, &(struct record_header){ .cols = 1 }, &cause);
	e = errno;
	ok(r2 == NULL, "second create of the same path fails");
	is_int(e, EEXIST, "with errno EEXIST");
	ok(cause != NULL && strstr(cause, path) != NULL,
	    "cause names the path: %s", cause ? cause : "(null)");
	free(cause);

	record_output(r, 1000, "hi", 2);
	ok(close_ok(r, 2000, "exit 0"), "record_close succeeds");
	cast_load(path, &c);
	ok(c.header != NULL && c.bad_lines == 0, "every line parses");
	is_int(json_integer_value(json_object_get(c.header, "version")), 2,
	    "header version 2");
	is_int(json_integer_value(json_object_get(c.header, "width")), 100,
	    "header width");
	is_int(json_integer_value(json_object_get(c.header, "height")), 30,
	    "header height");
	is_int(json_integer_value(json_object_get(c.header, "timestamp")),
	    1700000000, "header timestamp");
	is_str(json_string_value(json_object_get(c.header, "command")),
	    "printf 'a \"b\"'", "header command (quotes survive)");
	is_str(json_string_value(json_object_get(c.header, "title")),
	    "a title", "header title");
	env = json_object_get(c.header, "env");
	is_str(json_string_value(json_object_get(env, "TERM")),
	    "xterm-256color", "header env TERM");
	is_str(json_string_value(json_object_get(env, "SHELL")), "/bin/sh",
	    "header env SHELL");
	is_str(c.out.data != NULL ? buf_cstr(&c.out) : NULL, "hi",
	    "output event data");
	cast_free(&c);
	free(path);
}

/* Random valid UTF-8 text, no control bytes other than \r \n \t ESC. */
static void
random_text(struct buf *b, size_t n)
{
	static const char *const pool[] = {
		"a", "Z", " ", "\r\n", "\t", "\x1b[1m", "\xc3\xa9", "\xc2\xa0",
		"\xe2\x82\xac", "\xe4\xb8\xad", "\xef\xbf\xbd",
		"\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xdf\xbf",
	};

	while (b->len < n)
		buf_adds(b, pool[rand() % (int)(sizeof pool / sizeof pool[0])]);
}

static void
test_lossless(void)
{
	char		*path = new_path();
	struct record	*r = create(path);
	struct buf	 in = { 0 };
	struct cast	 c;
	size_t		 off = 0, n;
	uint64_t	 t = 0;

	if (r == NULL) {
		ok(0, "create");
		free(path);
		return;
	}
	srand(7);
	random_text(&in, 200000);
	while (off < in.len) {
		n = 1 + (size_t)rand() % 37;
		if (n > in.len - off)
			n = in.len - off;
		record_output(r, t, in.data + off, n);
		t += (uint64_t)(rand() % 1000);
		off += n;
	}
	is_int(record_bytes(r), in.len, "record_bytes counts every byte");
	ok(close_ok(r, t, "exit 0"), "close");
	cast_load(path, &c);
	is_int(c.bad_lines, 0, "every event parses (none broken)");
	ok(c.out.len == in.len && memcmp(c.out.data, in.data, in.len) == 0,
	    "output events concatenated == input (%zu bytes, random splits)",
	    in.len);
	ok(c.times_ok, "event times never decrease");
	cast_free(&c);
	buf_free(&in);
	free(path);
}

static void
test_emoji_bytewise(void)
{
	const char	*emoji = "\xf0\x9f\x98\x80";
	char		*path = new_path();
	struct record	*r = create(path);
	struct cast	 c;
	size_t		 i, n_o = 0;
	int		 intact = 0;

	if (r == NULL) {
		ok(0, "create");
		free(path);
		return;
	}
	for (i = 0; i < 4; i++)
		record_output(r, 1000 * (i + 1), emoji + i, 1);
	ok(close_ok(r, 9000, "exit 0"), "close");
	cast_load(path, &c);
	for (i = 0; i < json_array_size(c.events); i++) {
		if (strcmp(ev_type(&c, i), "o") != 0)
			continue;
		n_o++;
		if (strcmp(ev_data(&c, i), emoji) == 0)
			intact++;
	}
	is_int(c.bad_lines, 0, "no broken event");
	is_int(n_o, 1, "one output event");
	is_int(intact, 1, "holding the intact emoji");
	ok(strstr(c.out.data ? buf_cstr(&c.out) : "", "\xef\xbf\xbd") == NULL,
	    "no U+FFFD");
	cast_free(&c);
	free(path);
}

static void
test_invalid_and_events(void)
{
	char		*path = new_path();
	struct record	*r = create(path);
	struct cast	 c;
	size_t		 i, last;
	int		 saw_r = 0;

	if (r == NULL) {
		ok(0, "create");
		free(path);
		return;
	}
	record_output(r, 1000, "a\xff" "b\xc0\x80" "c", 6);
	record_resize(r, 2000, 120, 40);
	/* A clock stepping back must not make times go back. */
	record_output(r, 1500, "\xe2\x82", 2);
	record_output(r, 3000, "\xac", 1);
	record_output(r, 4000, "\xf0\x9f", 2);	/* left incomplete */
	is_int(record_bytes(r), 11, "record_bytes counts raw bytes");
	ok(close_ok(r, 5000000, "exit 3"), "close");
	cast_load(path, &c);
	is_str(c.out.data ? buf_cstr(&c.out) : NULL,
	    "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd" "c\xe2\x82\xac"
	    "\xef\xbf\xbd\xef\xbf\xbd",
	    "invalid bytes and an unfinished tail become U+FFFD, nothing else");
	for (i = 0; i < json_array_size(c.events); i++)
		if (strcmp(ev_type(&c, i), "r") == 0) {
			saw_r++;
			is_str(ev_data(&c, i), "120x40", "resize event COLSxROWS");
		}
	is_int(saw_r, 1, "one resize event");
	last = json_array_size(c.events) - 1;
	is_str(ev_type(&c, last), "m", "last event is the marker");
	is_str(ev_data(&c, last), "exit 3", "marker data");
	ok(json_real_value(json_array_get(json_array_get(c.events, last), 0))
	    == 5.0, "marker time 5.0 s");
	ok(c.times_ok, "times non-decreasing even when the caller's go back");
	cast_free(&c);
	free(path);
}

static void
test_escapes(void)
{
	const char	 data[] = "\x1b[31mred\x1b[0m\r\n\"q\" back\\slash "
			    "nul\0ctl\x01\x1f\x7f tab\t";
	size_t		 len = sizeof data - 1;
	char		*path = new_path(), *raw = NULL;
	struct record	*r = create(path);
	struct cast	 c;
	FILE		*f;
	size_t		 cap = 0;

	if (r == NULL) {
		ok(0, "create");
		free(path);
		return;
	}
	record_output(r, 1, data, len);
	ok(close_ok(r, 2, NULL), "close without marker");
	cast_load(path, &c);
	ok(c.out.len == len && memcmp(c.out.data, data, len) == 0,
	    "control chars, quotes, backslash and NUL decode back exactly");
	is_str(ev_type(&c, json_array_size(c.events) - 1), "o",
	    "no marker when none given");
	f = fopen(path, "re");
	if (f != NULL) {
		if (getdelim(&raw, &cap, '\0', f) < 0)
			diag("cannot read %s", path);
		fclose(f);
	}
	ok(raw != NULL && strstr(raw, "\\u001b[31m") != NULL &&
	    strstr(raw, "\\r\\n") != NULL && strstr(raw, "\\u0000") != NULL,
	    "written as JSON escapes");
	ok(raw != NULL && strchr(raw, '\x1b') == NULL,
	    "no raw ESC in the file");
	free(raw);
	cast_free(&c);
	free(path);
}

static void
test_large(void)
{
	char		*path = new_path(), *cause = NULL;
	struct record	*r = create(path);
	struct buf	 in = { 0 };
	struct cast	 c;
	struct stat	 st;
	size_t		 off, n;

	if (r == NULL) {
		ok(0, "create");
		free(path);
		return;
	}
	srand(11);
	random_text(&in, 5 * 1024 * 1024);
	for (off = 0; off < in.len; off += n) {
		n = in.len - off < 16384 ? in.len - off : 16384;
		record_output(r, off, in.data + off, n);
		if (off == 1024 * 1024) {
			is_int(record_flush(r, &cause), 0, "record_flush");
			ok(stat(path, &st) == 0 && st.st_size > 1024 * 1024,
			    "flush put data in the file");
		}
	}
	ok(close_ok(r, off, "exit 0"), "close after 5 MB");
	cast_load(path, &c);
	ok(c.out.len == in.len && memcmp(c.out.data, in.data, in.len) == 0,
	    "all 5 MB present after record_close (%zu bytes)", c.out.len);
	is_int(c.bad_lines, 0, "no broken line");
	cast_free(&c);
	buf_free(&in);
	free(path);
}

static void
test_input_stream(void)
{
	char		*path = new_path();
	struct record	*r = create(path);
	struct cast	 c;
	size_t		 i;
	struct buf	 inp = { 0 };

	if (r == NULL) {
		ok(0, "create");
		free(path);
		return;
	}
	/* Input and output carries are separate: neither breaks the other. */
	record_output(r, 1, "\xc3", 1);
	record_input(r, 2, "\xe2\x82", 2);
	record_output(r, 3, "\xa9", 1);
	record_input(r, 4, "\xac", 1);
	is_int(record_bytes(r), 2, "input does not count as output bytes");
	ok(close_ok(r, 5, NULL), "close");
	cast_load(path, &c);
	for (i = 0; i < json_array_size(c.events); i++)
		if (strcmp(ev_type(&c, i), "i") == 0)
			buf_adds(&inp, ev_data(&c, i));
	is_str(c.out.data ? buf_cstr(&c.out) : NULL, "\xc3\xa9",
	    "output sequence intact across interleaved input");
	is_str(inp.data ? buf_cstr(&inp) : NULL, "\xe2\x82\xac",
	    "input sequence intact across interleaved output");
	buf_free(&inp);
	cast_free(&c);
	free(path);
}

/* The size of the file at path, or -1. */
static long long
file_size(const char *path)
{
	struct stat	st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/*
 * Write len bytes of in to a recording capped at cap in random pieces and
 * close it; c gets the file read back.  Returns the bytes it says were
 * dropped, or -1 when a step failed.
 */
static long long
capped_run(const char *path, uint64_t cap, const struct buf *in,
    struct cast *c)
{
	struct record	*r = create_capped(path, cap);
	size_t		 off = 0, n;
	uint64_t	 t = 0;
	long long	 dropped;
	char		*tail = record_tail_path(path);
	int		 tail_seen = 0, resized = 0;

	if (r == NULL) {
		free(tail);
		return -1;
	}
	while (off < in->len) {
		n = 1 + (size_t)rand() % 9000;
		if (n > in->len - off)
			n = in->len - off;
		/* A resize a third of the way: in the gap of a long stream. */
		if (off > in->len / 3 && !resized++)
			record_resize(r, t, 120, 40);
		record_output(r, t, in->data + off, n);
		t += 1000;
		off += n;
		if (off > in->len / 2 && !tail_seen) {
			char *cause = NULL;

			if (record_flush(r, &cause) != 0) {
				diag("flush: %s", cause);
				free(cause);
			}
			tail_seen = file_size(tail) >= 0 ? 1 : 2;
		}
	}
	dropped = (long long)record_dropped(r);
	if (!close_ok(r, t, "exit 0"))
		dropped = -1;
	if (tail_seen == 1 && file_size(tail) >= 0)
		dropped = -1;	/* the tail file was left behind */
	free(tail);
	cast_load(path, c);
	return dropped;
}

/* The type and data of the event after c's gap marker: "TYPE DATA". */
static char *
after_gap(const struct cast *c)
{
	size_t	i;

	for (i = 0; i + 1 < json_array_size(c->events); i++)
		if (strcmp(ev_type(c, i), "m") == 0 &&
		    strstr(ev_data(c, i), "not recorded") != NULL)
			return xasprintf("%s %s", ev_type(c, i + 1),
			    ev_data(c, i + 1));
	return xstrdup("");
}

/* Whether the cast's output is a head of in, the gap, and a tail of in. */
static int
head_gap_tail(const struct cast *c, const struct buf *in, long long dropped)
{
	size_t		i, head = 0, gaps = 0, n;
	struct buf	tail = { 0 };
	const char	*t, *d;
	char		want[160];
	int		ok_ = 1;

	record_gap_text(want, sizeof want, (uint64_t)dropped, 64 * 1024);
	for (i = 0; i < json_array_size(c->events); i++) {
		t = ev_type(c, i);
		d = ev_data(c, i);
		n = json_string_length(json_array_get(json_array_get(c->events,
		    i), 2));
		if (strcmp(t, "m") == 0 && strstr(d, "not recorded") != NULL) {
			gaps++;
			if (strcmp(d, want) != 0) {
				diag("gap marker '%s', wanted '%s'", d, want);
				ok_ = 0;
			}
		} else if (strcmp(t, "o") == 0 && gaps == 0) {
			if (head + n > in->len ||
			    memcmp(in->data + head, d, n) != 0)
				ok_ = 0;
			head += n;
		} else if (strcmp(t, "o") == 0)
			buf_add(&tail, d, n);
	}
	if (gaps != 1 || head + tail.len + (size_t)dropped != in->len ||
	    memcmp(in->data + in->len - tail.len, tail.data, tail.len) != 0) {
		diag("gaps %zu head %zu tail %zu dropped %lld of %zu", gaps,
		    head, tail.len, dropped, in->len);
		ok_ = 0;
	}
	buf_free(&tail);
	return ok_;
}

/* A cap: the head and the tail kept, the gap counted exactly, a bound. */
static void
test_cap(void)
{
	char		*path = new_path(), *path2 = new_path();
	char		*path3 = new_path();
	struct buf	 in = { 0 }, esc = { 0 };
	struct cast	 c;
	long long	 dropped;
	size_t		 i;
	char		*s;

	srand(11);
	random_text(&in, 1000000);
	dropped = capped_run(path, 64 * 1024, &in, &c);
	ok(dropped > 0, "a 1 MB stream under a 64 KiB cap drops bytes "
	    "(%lld), the tail file gone after close", dropped);
	ok(file_size(path) > 48 * 1024 && file_size(path) <= 64 * 1024,
	    "the file stays within the cap (%lld bytes)", file_size(path));
	is_int(c.bad_lines, 0, "every line of it parses");
	ok(c.times_ok, "times never decrease across the gap");
	ok(head_gap_tail(&c, &in, dropped), "head, one gap marker with the "
	    "exact count, tail: together the whole stream");
	s = after_gap(&c);
	is_str(s, "r 120x40", "a resize left out with the gap: the size "
	    "the tail starts with, after the marker");
	free(s);
	is_str(ev_type(&c, json_array_size(c.events) - 1), "m",
	    "the exit marker is last");
	is_str(ev_data(&c, json_array_size(c.events) - 1), "exit 0",
	    "and says how it ended");
	cast_free(&c);

	/* Escapes grow sixfold in JSON: events still fit their segments. */
	for (i = 0; i < 300000; i++)
		buf_addc(&esc, (char)(i % 7 == 0 ? '\n' : 0x1b));
	dropped = capped_run(path2, 64 * 1024, &esc, &c);
	ok(dropped > 0 && file_size(path2) <= 64 * 1024 && c.bad_lines == 0,
	    "control bytes (six bytes each in JSON) stay within the cap "
	    "(%lld bytes)", file_size(path2));
	ok(head_gap_tail(&c, &esc, dropped), "and keep head and tail exactly");
	cast_free(&c);

	/* Past the head but under the cap: nothing is lost, no marker. */
	in.len = 0;
	random_text(&in, 40000);
	dropped = capped_run(path3, 64 * 1024, &in, &c);
	is_int(dropped, 0, "under the cap nothing is dropped");
	ok(c.out.len == in.len && memcmp(c.out.data, in.data, in.len) == 0,
	    "the head and the tail file make the stream whole again");
	is_int(json_array_size(c.events) > 0 ? strcmp(ev_data(&c,
	    json_array_size(c.events) - 1), "exit 0") : 1, 0,
	    "one marker, the exit");
	cast_free(&c);
	buf_free(&in);
	buf_free(&esc);
	free(path);
	free(path2);
	free(path3);
}

/*
 * A writer that dies past its head (no record_close): the next one
 * finishes the file from the tail file's index, also after a merge the
 * death cut short.
 */
static void
test_recover(void)
{
	char		*path = new_path(), *tail = record_tail_path(path);
	char		*cause = NULL;
	struct buf	 in = { 0 };
	struct record	*r;
	struct cast	 c;
	uint64_t	 dropped = 0, again = 1;
	size_t		 off, n;
	char		*s;
	pid_t		 pid;
	FILE		*f;
	int		 rc;

	srand(13);
	random_text(&in, 1000000);
	if ((pid = fork()) == 0) {
		if ((r = create_capped(path, 64 * 1024)) == NULL)
			_exit(1);
		for (off = 0; off < in.len; off += n) {
			n = in.len - off < 5000 ? in.len - off : 5000;
			if (off == 500000)
				record_resize(r, off, 132, 43);
			record_output(r, off, in.data + off, n);
		}
		_exit(record_flush(r, &cause) == 0 ? 0 : 1);
	}
	ok(pid > 0 && waitpid(pid, &rc, 0) == pid && WIFEXITED(rc) &&
	    WEXITSTATUS(rc) == 0, "a writer died past its head, flushed");
	ok(file_size(tail) > 0, "its tail file is left beside the recording");
	/* As if its merge had begun: half a line after the head. */
	if ((f = fopen(path, "ae")) != NULL) {
		fputs("[0.5, \"m\", \"ptyvisor: 12", f);
		fclose(f);
	}
	rc = record_recover_tail(path, &dropped, &cause);
	if (rc != 0) {
		diag("%s", cause);
		free(cause);
	}
	ok(rc == 0 && dropped > 0, "recovered: %llu bytes left out",
	    (unsigned long long)dropped);
	ok(file_size(tail) < 0, "the tail file is gone");
	ok(file_size(path) <= 64 * 1024, "the file within the cap (%lld)",
	    file_size(path));
	cast_load(path, &c);
	is_int(c.bad_lines, 0, "every line parses (the cut merge undone)");
	ok(head_gap_tail(&c, &in, (long long)dropped), "head, gap and tail "
	    "as the writer left them: the whole stream");
	s = after_gap(&c);
	is_str(s, "r 132x43", "the size the tail starts with, from the index");
	free(s);
	cast_free(&c);
	ok(record_recover_tail(path, &again, &cause) == 0 && again == 0,
	    "nothing more to do the second time");
	buf_free(&in);
	free(tail);
	free(path);
}

/*
 * A file that cannot grow past a size (RLIMIT_FSIZE, as a full disk): a
 * write cut short is cut back to whole events and the exit marker goes
 * right after them, with no hole; with a cap the same when the tail
 * cannot be merged whole (what went stays: the head, the gap's marker,
 * the oldest segments).  In a child, whose limit it is.
 */
static void
test_file_limit(uint64_t cap, const char *what)
{
	char		*path = new_path();
	struct buf	 in = { 0 };
	struct cast	 c;
	struct rlimit	 rl = { 100000, 100000 };
	struct record	*r;
	char		*cause = NULL;
	size_t		 off;
	pid_t		 pid;
	int		 st;

	srand(17);
	random_text(&in, 200000);
	if ((pid = fork()) == 0) {
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl) != 0 ||
		    (r = create_capped(path, cap)) == NULL)
			_exit(2);
		for (off = 0; off < in.len; off += 3000)
			record_output(r, off, in.data + off,
			    in.len - off < 3000 ? in.len - off : 3000);
		_exit(record_close(r, in.len, "exit 0", &cause) == 0 ? 1 : 0);
	}
	ok(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0, "%s: the file cannot grow: close says so",
	    what);
	cast_load(path, &c);
	ok(file_size(path) > 0 && file_size(path) <= 100000 &&
	    c.bad_lines == 0, "%s: whole events only, no hole (%lld bytes)",
	    what, file_size(path));
	is_str(ev_data(&c, json_array_size(c.events) - 1), "exit 0",
	    "%s: the exit marker right after them", what);
	/* Without a cap a prefix; with one, the head is (then a gap). */
	ok(c.out.len > 0 && c.out.len <= in.len &&
	    memcmp(c.out.data, in.data, cap == 0 ? c.out.len : 1000) == 0,
	    "%s: what is there starts as the output does", what);
	cast_free(&c);
	buf_free(&in);
	free(path);
}

/*
 * record_end: the recording is complete (its end marker there) before the
 * fsync, and the descriptor handed back is the file's.
 */
static void
test_end_before_sync(void)
{
	char		*path = new_path(), *cause = NULL;
	struct record	*r = create(path);
	struct cast	 c;
	struct stat	 a, b;
	json_t		*last;
	int		 fd = -2;

	if (!ok(r != NULL, "record_create succeeds (record_end)")) {
		free(path);
		return;
	}
	record_output(r, 1000, "bye", 3);
	ok(record_end(r, 2000, "exit 4", &fd, &cause) == 0 && fd >= 0,
	    "record_end hands back a descriptor");
	cast_load(path, &c);
	last = json_array_get(c.events, json_array_size(c.events) - 1);
	ok(c.bad_lines == 0 && c.out.len == 3 &&
	    memcmp(c.out.data, "bye", 3) == 0 && last != NULL && strcmp(json_string_value(
	    json_array_get(last, 2)) ? json_string_value(json_array_get(last,
	    2)) : "", "exit 4") == 0,
	    "the output and the end marker are read back before the fsync");
	cast_free(&c);
	ok(fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_ino == b.st_ino,
	    "the descriptor is the recording's");
	is_int(util_sync_close(fd), 0, "and util_sync_close() closes it");
	free(path);
}

int
main(void)
{
	char	*p;
	int	 i;

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_header_and_mode();
	test_end_before_sync();
	test_lossless();
	test_emoji_bytewise();
	test_invalid_and_events();
	test_escapes();
	test_large();
	test_input_stream();
	test_cap();
	test_recover();
	test_file_limit(0, "no cap");
	test_file_limit(128 * 1024, "a cap past the limit");
	for (i = 0; i < nfiles; i++) {
		p = xasprintf("%s/r%d.cast", tmpdir, i);
		unlink(p);
		free(p);
	}
	rmdir(tmpdir);
	return tap_done();
}
