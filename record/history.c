/*
 * history.c - history.jsonl writer and reader, and the sum of a filtered
 * network's log that goes into a session's line (see history.h).
 */
#include "record/history.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "base/util.h"

/* Add key: s to o unless s is NULL. */
static void
set_str(json_t *o, const char *key, const char *s)
{
	if (s != NULL)
		json_object_set_new(o, key, json_string(s));
}

/* A count in a JSON value: a non-negative integer, else 0. */
static uint64_t
history_uint(json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) > 0 ?
	    (uint64_t)json_integer_value(v) : 0;
}

/* The "network" object of a history line. */
static void
history_net_decode(json_t *v, struct history_net *n)
{
	n->connections = history_uint(json_object_get(v, "connections"));
	n->allowed = history_uint(json_object_get(v, "allowed"));
	n->denied = history_uint(json_object_get(v, "denied"));
	n->asked = history_uint(json_object_get(v, "asked"));
	n->sent = history_uint(json_object_get(v, "sent"));
	n->received = history_uint(json_object_get(v, "received"));
}

char *
history_encode(const struct history_entry *e)
{
	json_t	*o = json_object(), *argv = json_array();
	char	 t[40], *s, *line;
	size_t	 i;

	for (i = 0; e->argv != NULL && e->argv[i] != NULL; i++)
		json_array_append_new(argv, json_string(e->argv[i]));
	json_object_set_new(o, "id", json_integer((json_int_t)e->id));
	if (e->request != 0)
		json_object_set_new(o, "request",
		    json_integer((json_int_t)e->request));
	json_object_set_new(o, "argv", argv);
	set_str(o, "cwd", e->cwd);
	util_format_time(e->start_us, t, sizeof t);
	json_object_set_new(o, "start", json_string(t));
	util_format_time(e->end_us, t, sizeof t);
	json_object_set_new(o, "end", json_string(t));
	json_object_set_new(o, "duration_ms",
	    json_integer((e->end_us - e->start_us) / 1000));
	set_str(o, "state", e->state);
	json_object_set_new(o, "code",
	    e->has_code ? json_integer(e->code) : json_null());
	json_object_set_new(o, "signal",
	    e->signal ? json_integer(e->signal) : json_null());
	set_str(o, "profile", e->profile);
	set_str(o, "decision", e->decision);
	set_str(o, "by", e->by);
	set_str(o, "recording", e->recording);
	json_object_set_new(o, "bytes", json_integer((json_int_t)e->bytes));
	if (e->recording_dropped != 0)
		json_object_set_new(o, "recording_dropped",
		    json_integer((json_int_t)e->recording_dropped));
	set_str(o, "error", e->error);
	if (e->agent)
		json_object_set_new(o, "agent", json_true());
	if (e->env_dropped != NULL && e->env_dropped[0] != NULL) {
		argv = json_array();
		for (i = 0; e->env_dropped[i] != NULL; i++)
			json_array_append_new(argv,
			    json_string(e->env_dropped[i]));
		json_object_set_new(o, "env_dropped", argv);
	}
	if (e->has_net)
		json_object_set_new(o, "network", json_pack("{s:I, s:I, s:I, "
		    "s:I, s:I, s:I}", "connections",
		    (json_int_t)e->net.connections, "allowed",
		    (json_int_t)e->net.allowed, "denied",
		    (json_int_t)e->net.denied, "asked",
		    (json_int_t)e->net.asked, "sent", (json_int_t)e->net.sent,
		    "received", (json_int_t)e->net.received));
	if (e->has_execs)
		json_object_set_new(o, "execs", json_pack("{s:I, s:I}",
		    "checked", (json_int_t)e->execs, "denied",
		    (json_int_t)e->execs_denied));
	/* Raw UTF-8 out; invalid strings were already refused by jansson. */
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (s == NULL)
		fatal("cannot encode a history entry");
	line = xasprintf("%s\n", s);
	free(s);
	return line;
}

int
history_append_end(const char *path, const struct history_entry *e,
    int *sync_fd, char **cause)
{
	char		*line = history_encode(e);
	size_t		 len = strlen(line);
	struct stat	 st;
	ssize_t		 n;
	int		 fd;

	*sync_fd = -1;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		free(line);
		return -1;
	}
	/* One write: O_APPEND makes it atomic against other appenders. */
	do
		n = write(fd, line, len);
	while (n < 0 && errno == EINTR);
	free(line);
	if (n == (ssize_t)len) {
		*sync_fd = fd;
		return 0;
	}
	*cause = xasprintf("%s: %s", path,
	    n < 0 ? strerror(errno) : "short write (disk full?)");
	/*
	 * Half a line would glue the next one to it: cut it off (it is at the
	 * end unless another process appended since).
	 */
	if (n > 0 && fstat(fd, &st) == 0 && st.st_size >= n &&
	    ftruncate(fd, st.st_size - n) != 0) {
		free(*cause);
		*cause = xasprintf("%s: a half line is left: %s", path,
		    strerror(errno));
	}
	close(fd);
	return -1;
}

int
history_append(const char *path, const struct history_entry *e, char **cause)
{
	int	fd, error;

	if (history_append_end(path, e, &fd, cause) != 0)
		return -1;
	if ((error = util_sync_close(fd)) != 0) {
		*cause = xasprintf("%s: %s", path, strerror(error));
		return -1;
	}
	return 0;
}

/* A copy of o[key] if it is a string, else NULL. */
static char *
get_str(json_t *o, const char *key)
{
	json_t	*v = json_object_get(o, key);

	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

/* Parse an RFC 3339 UTC time as written by util_format_time. */
static int64_t
parse_time(json_t *o, const char *key)
{
	json_t		*v = json_object_get(o, key);
	struct tm	 tm;
	const char	*s, *rest;
	int		 ms = 0;

	if (!json_is_string(v))
		return 0;
	s = json_string_value(v);
	memset(&tm, 0, sizeof tm);
	rest = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (rest == NULL)
		return 0;
	if (*rest == '.')
		ms = atoi(rest + 1);
	return (int64_t)timegm(&tm) * 1000000 + (int64_t)ms * 1000;
}

/* The strings of o's array key into *out (NULL when absent or empty). */
static void
history_decode_names(json_t *o, const char *key, char ***out)
{
	json_t	*a = json_object_get(o, key), *v;
	size_t	 i, n = 0;

	*out = NULL;
	if (!json_is_array(a) || json_array_size(a) == 0)
		return;
	*out = xcalloc(json_array_size(a) + 1, sizeof **out);
	json_array_foreach(a, i, v)
		if (json_is_string(v))
			(*out)[n++] = xstrdup(json_string_value(v));
}

int
history_decode(const char *line, struct history_entry *e)
{
	json_t		*o, *argv, *v;
	json_error_t	 err;
	size_t		 i;

	memset(e, 0, sizeof *e);
	o = json_loads(line, JSON_REJECT_DUPLICATES, &err);
	if (o == NULL)
		return -1;
	argv = json_object_get(o, "argv");
	v = json_object_get(o, "id");
	if (!json_is_object(o) || !json_is_integer(v) ||
	    json_integer_value(v) < 0 || !json_is_array(argv)) {
		json_decref(o);
		return -1;
	}
	e->id = (unsigned long)json_integer_value(v);
	v = json_object_get(o, "request");
	if (json_is_integer(v) && json_integer_value(v) > 0)
		e->request = (unsigned long)json_integer_value(v);
	e->argv = xcalloc(json_array_size(argv) + 1, sizeof *e->argv);
	for (i = 0; i < json_array_size(argv); i++) {
		v = json_array_get(argv, i);
		e->argv[i] = xstrdup(json_is_string(v) ?
		    json_string_value(v) : "?");
	}
	e->cwd = get_str(o, "cwd");
	e->start_us = parse_time(o, "start");
	e->end_us = parse_time(o, "end");
	v = json_object_get(o, "duration_ms");
	if (json_is_integer(v))	/* more precise than the end time's ms */
		e->end_us = e->start_us + json_integer_value(v) * 1000;
	e->state = get_str(o, "state");
	v = json_object_get(o, "code");
	if ((e->has_code = json_is_integer(v)))
		e->code = (int)json_integer_value(v);
	v = json_object_get(o, "signal");
	e->signal = json_is_integer(v) ? (int)json_integer_value(v) : 0;
	e->profile = get_str(o, "profile");
	e->decision = get_str(o, "decision");
	e->by = get_str(o, "by");
	e->recording = get_str(o, "recording");
	v = json_object_get(o, "bytes");
	e->bytes = json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
	e->recording_dropped = history_uint(json_object_get(o,
	    "recording_dropped"));
	e->error = get_str(o, "error");
	e->agent = json_is_true(json_object_get(o, "agent"));
	history_decode_names(o, "env_dropped", &e->env_dropped);
	if ((v = json_object_get(o, "network")) != NULL && json_is_object(v)) {
		e->has_net = true;
		history_net_decode(v, &e->net);
	}
	if ((v = json_object_get(o, "execs")) != NULL && json_is_object(v)) {
		e->has_execs = true;
		e->execs = (unsigned long)json_integer_value(
		    json_object_get(v, "checked"));
		e->execs_denied = (unsigned long)json_integer_value(
		    json_object_get(v, "denied"));
	}
	json_decref(o);
	return 0;
}

int
history_net_sum(const char *path, struct history_net *out)
{
	json_error_t	 err;
	json_t		*o;
	const char	*d;
	FILE		*f;
	char		*line = NULL;
	size_t		 cap = 0;

	memset(out, 0, sizeof *out);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		if ((o = json_loads(line, 0, &err)) == NULL ||
		    !json_is_object(o)) {
			json_decref(o);
			continue;
		}
		/* A capped log's last lines: none, or those not listed. */
		if (json_object_get(o, "log_full") != NULL ||
		    json_object_get(o, "not_logged") != NULL) {
			out->connections += history_uint(json_object_get(o,
			    "not_logged"));
			json_decref(o);
			continue;
		}
		out->connections++;
		d = json_string_value(json_object_get(o, "decision"));
		if (d != NULL && strcmp(d, "allow") == 0)
			out->allowed++;
		else if (d != NULL && strcmp(d, "deny") == 0)
			out->denied++;
		if (json_is_true(json_object_get(o, "asked")))
			out->asked++;
		out->sent += history_uint(json_object_get(o, "sent"));
		out->received += history_uint(json_object_get(o, "received"));
		json_decref(o);
	}
	free(line);
	fclose(f);
	return 0;
}

void
history_entry_clear(struct history_entry *e)
{
	strv_free(e->argv);
	free(e->cwd);
	free(e->state);
	free(e->profile);
	free(e->decision);
	free(e->by);
	free(e->recording);
	free(e->error);
	strv_free(e->env_dropped);
	memset(e, 0, sizeof *e);
}

int
history_load(const char *path, struct history_list *out, char **cause)
{
	FILE	*f;
	char	*line = NULL;
	size_t	 cap = 0, alloc = 0;
	ssize_t	 n;

	memset(out, 0, sizeof *out);
	if ((f = fopen(path, "re")) == NULL) {
		if (errno == ENOENT)
			return 0;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) != -1) {
		if (n == 0 || (n == 1 && line[0] == '\n'))
			continue;
		if (out->n == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			out->v = xreallocarray(out->v, alloc, sizeof *out->v);
		}
		if (history_decode(line, &out->v[out->n]) == 0)
			out->n++;
		else
			out->skipped++;
	}
	free(line);
	if (ferror(f)) {
		*cause = xasprintf("%s: read error", path);
		fclose(f);
		history_list_free(out);
		return -1;
	}
	fclose(f);
	return 0;
}

int
history_load_tail(const char *path, size_t max, struct history_list *out,
    char **cause)
{
	struct stat	 st;
	char		*data, *p, *nl;
	off_t		 from;
	ssize_t		 n;
	size_t		 got = 0;
	int		 fd;

	memset(out, 0, sizeof *out);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return 0;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	from = st.st_size > (off_t)max ? st.st_size - (off_t)max : 0;
	data = xmalloc(max + 1);
	while (got < max && (n = pread(fd, data + got, max - got,
	    from + (off_t)got)) > 0)
		got += (size_t)n;
	close(fd);
	data[got] = '\0';
	p = data;
	/* A line the bound cut: not whole, not shown. */
	if (from > 0 && (p = strchr(data, '\n')) != NULL)
		p++;
	while (p != NULL && *p != '\0' && (nl = strchr(p, '\n')) != NULL) {
		*nl = '\0';
		out->v = xreallocarray(out->v, out->n + 1, sizeof *out->v);
		if (nl > p && history_decode(p, &out->v[out->n]) == 0)
			out->n++;
		else if (nl > p)
			out->skipped++;
		p = nl + 1;
	}
	free(data);
	return 0;
}

void
history_list_free(struct history_list *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		history_entry_clear(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}
