/*
 * test-history.c - unit tests for history.jsonl: every field round-trips,
 * entries stay in order, damaged lines are skipped and counted, a missing
 * file is an empty history, the file is private.
 */
#include "record/history.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "tests/tap.h"

static char	tmpdir[] = "/tmp/test-history.XXXXXX";

/* Append e to path, reporting a failure as a diagnostic. */
static int
append(const char *path, const struct history_entry *e)
{
	char	*cause = NULL;
	int	 rc = history_append(path, e, &cause);

	if (rc != 0) {
		diag("history_append: %s", cause);
		free(cause);
	}
	return rc;
}

/* Append raw bytes to path. */
static void
append_raw(const char *path, const char *s)
{
	FILE	*f = fopen(path, "ae");

	if (f == NULL)
		return;
	fputs(s, f);
	fclose(f);
}

static void
test_round_trip(const char *path)
{
	char *const		 argv[] = { "say", "it's \"quoted\"",
				    "caf\xc3\xa9 \xf0\x9f\x98\x80", "back\\slash",
				    "tab\there", "", NULL };
	struct history_entry	 e, e2;
	struct history_list	 l;
	struct stat		 st;
	char			*cause = NULL;
	mode_t			 old;
	size_t			 i;
	int			 same = 1;

	memset(&e, 0, sizeof e);
	e.id = 42;
	e.argv = (char **)argv;
	e.cwd = "/tmp/w d";
	e.start_us = 1700000000123000;
	e.end_us = e.start_us + 4567000;
	e.state = "exited";
	e.has_code = true;
	e.code = 3;
	e.profile = "workspace-write";
	e.decision = "approve";
	e.by = "user";
	e.recording = "/tmp/sessions/42.cast";
	e.bytes = 123456789012ULL;
	e.recording_dropped = 98765432101ULL;
	e.error = "an \"error\" text";
	e.agent = true;
	e.env_dropped = (char **)(char *const[]){ "OPENAI_API_KEY",
	    "GitHub_Token", NULL };

	memset(&e2, 0, sizeof e2);
	e2.id = 43;
	e2.argv = (char **)(char *const[]){ "sleep", "30", NULL };
	e2.start_us = 1700000001000000;
	e2.end_us = 1700000002000000;
	e2.state = "signaled";
	e2.signal = 9;

	old = umask(0);		/* the mode must come from history_append */
	is_int(append(path, &e), 0, "append first entry");
	umask(old);
	if (stat(path, &st) != 0)
		st.st_mode = 0;
	is_int(st.st_mode & 07777, 0600, "history file mode is 0600");
	is_int(append(path, &e2), 0, "append second entry");

	if (!ok(history_load(path, &l, &cause) == 0, "history_load")) {
		diag("%s", cause);
		free(cause);
		return;
	}
	is_int(l.n, 2, "two entries");
	is_int(l.skipped, 0, "nothing skipped");
	if (l.n != 2) {
		history_list_free(&l);
		return;
	}
	is_int(l.v[0].id, 42, "entries in order: first id");
	is_int(l.v[1].id, 43, "entries in order: second id");
	for (i = 0; argv[i] != NULL; i++)
		if (l.v[0].argv[i] == NULL || strcmp(l.v[0].argv[i], argv[i]))
			same = 0;
	ok(same && l.v[0].argv[i] == NULL,
	    "argv with quotes, UTF-8, backslash, tab and empty word survives");
	is_str(l.v[0].cwd, e.cwd, "cwd");
	is_int(l.v[0].start_us, e.start_us, "start time");
	is_int(l.v[0].end_us, e.end_us, "end time");
	is_str(l.v[0].state, "exited", "state");
	ok(l.v[0].has_code && l.v[0].code == 3, "code 3");
	is_int(l.v[0].signal, 0, "no signal");
	is_str(l.v[0].profile, e.profile, "profile");
	is_str(l.v[0].decision, e.decision, "decision");
	is_str(l.v[0].by, e.by, "by");
	is_str(l.v[0].recording, e.recording, "recording");
	is_int(l.v[0].bytes, e.bytes, "bytes (beyond 32 bits)");
	is_int(l.v[0].recording_dropped, e.recording_dropped,
	    "bytes the recording's cap left out");
	is_int(l.v[1].recording_dropped, 0, "none when the cap was not hit");
	is_str(l.v[0].error, e.error, "error");
	ok(l.v[0].agent, "agent flag");
	ok(l.v[0].env_dropped != NULL &&
	    strcmp(l.v[0].env_dropped[0], "OPENAI_API_KEY") == 0 &&
	    l.v[0].env_dropped[1] != NULL &&
	    strcmp(l.v[0].env_dropped[1], "GitHub_Token") == 0 &&
	    l.v[0].env_dropped[2] == NULL, "dropped variables' names");

	ok(!l.v[1].has_code, "signaled entry has no code");
	is_int(l.v[1].signal, 9, "signal 9");
	is_str(l.v[1].state, "signaled", "second state");
	ok(l.v[1].cwd == NULL && l.v[1].decision == NULL &&
	    l.v[1].by == NULL && l.v[1].recording == NULL &&
	    l.v[1].error == NULL && l.v[1].env_dropped == NULL,
	    "absent fields stay absent");
	ok(!l.v[1].agent, "agent flag false");
	history_list_free(&l);
	ok(l.v == NULL && l.n == 0, "history_list_free empties the list");
}

static void
test_damaged(const char *path)
{
	struct history_list	 l;
	struct history_entry	 e;
	char			*cause = NULL;

	append_raw(path, "this is not json\n");
	append_raw(path, "[1, 2, 3]\n");
	append_raw(path, "\n");
	memset(&e, 0, sizeof e);
	e.id = 44;
	e.argv = (char **)(char *const[]){ "true", NULL };
	e.state = "exited";
	e.has_code = true;
	append(path, &e);
	/* A crash mid-write: the last line is cut short. */
	append_raw(path, "{\"id\": 45, \"argv\": [\"tr");

	if (history_load(path, &l, &cause) != 0) {
		ok(0, "history_load: %s", cause);
		free(cause);
		return;
	}
	is_int(l.n, 3, "the three good entries load");
	is_int(l.skipped, 3, "garbage, non-object and truncated lines skipped");
	if (l.n == 3)
		is_int(l.v[2].id, 44, "the entry after garbage loads");
	history_list_free(&l);
}

/* The tail: whole lines within the last bytes, the newest last. */
static void
test_tail(const char *path)
{
	struct history_entry	 e;
	struct history_list	 l;
	char			*cause = NULL;
	unsigned long		 i;
	int			 fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	close(fd);
	memset(&e, 0, sizeof e);
	e.argv = (char **)(char *const[]){ "true", NULL };
	e.state = "exited";
	for (i = 1; i <= 100; i++) {
		e.id = i;
		append(path, &e);
	}
	ok(history_load_tail(path, 1000, &l, &cause) == 0 && l.n > 0 &&
	    l.n < 100 && l.skipped == 0 && l.v[l.n - 1].id == 100 &&
	    l.v[0].id == 101 - l.n, "the tail: the last whole lines");
	history_list_free(&l);
	ok(history_load_tail(path, 1 << 20, &l, &cause) == 0 && l.n == 100 &&
	    l.v[0].id == 1, "a tail longer than the file is all of it");
	history_list_free(&l);
	ok(history_load_tail("/nonexistent/history.jsonl", 100, &l,
	    &cause) == 0 && l.n == 0, "no file: no entries");
}

static void
test_missing(void)
{
	struct history_list	 l;
	char			*cause = NULL, *path;

	path = xasprintf("%s/missing.jsonl", tmpdir);
	is_int(history_load(path, &l, &cause), 0, "missing file loads");
	ok(l.n == 0 && l.skipped == 0, "as an empty history");
	free(cause);
	history_list_free(&l);
	free(path);

	path = xasprintf("%s/no-dir/history.jsonl", tmpdir);
	cause = NULL;
	is_int(history_append(path, &(struct history_entry){ .id = 1 },
	    &cause), -1, "append to an impossible path fails");
	ok(cause != NULL && strstr(cause, path) != NULL,
	    "and the cause names the path");
	free(cause);
	free(path);
}

static void
test_decode(void)
{
	struct history_entry	 e;
	char			*line;

	is_int(history_decode("{\"argv\": []}", &e), -1, "no id: rejected");
	is_int(history_decode("{\"id\": 1}", &e), -1, "no argv: rejected");
	is_int(history_decode("{\"id\": -1, \"argv\": []}", &e), -1,
	    "negative id: rejected");
	memset(&e, 0, sizeof e);
	e.id = 5;
	e.argv = (char **)(char *const[]){ "x", NULL };
	line = history_encode(&e);
	ok(strchr(line, '\n') == line + strlen(line) - 1,
	    "encoded entry is exactly one line");
	ok(strstr(line, "\"request\"") == NULL, "no request: no field");
	free(line);

	/* A request that never ran: id 0, its request number. */
	e.id = 0;
	e.request = 7;
	e.state = (char *)"denied";
	line = history_encode(&e);
	memset(&e, 0, sizeof e);
	ok(history_decode(line, &e) == 0 && e.id == 0 && e.request == 7 &&
	    strcmp(e.state, "denied") == 0, "id 0 and request 7 round trip");
	history_entry_clear(&e);
	free(line);
}

/*
 * A filtered network's log summed for the history line: allowed, denied,
 * asked, bytes each way; damaged lines not counted; round trip; no log,
 * no summary.
 */
static void
test_net(void)
{
	struct history_entry	 e;
	struct history_net	 n;
	char			*log = xasprintf("%s/1.net.jsonl", tmpdir);
	char			*line;
	FILE			*f;

	ok(history_net_sum(log, &n) == -1, "no log: no summary");
	if ((f = fopen(log, "w")) == NULL)
		fatal("%s", log);
	fputs("{\"host\":\"a.test\",\"decision\":\"allow\",\"why\":\"listed\","
	    "\"sent\":10,\"received\":2000}\n"
	    "{\"host\":\"b.test\",\"decision\":\"allow\",\"why\":\"approved\","
	    "\"asked\":true,\"sent\":5,\"received\":7}\n"
	    "{\"host\":\"c.test\",\"decision\":\"deny\",\"asked\":true,"
	    "\"sent\":0,\"received\":0}\n"
	    "{\"host\":\"d.test\",\"decision\":\"deny\",\"sent\":0}\n"
	    "{\"host\":\"e.test\",\"decision\":\"error\",\"sent\":1,"
	    "\"received\":-4}\n"
	    "{broken\n", f);
	fclose(f);
	ok(history_net_sum(log, &n) == 0 && n.connections == 5 &&
	    n.allowed == 2 && n.denied == 2 && n.asked == 2 && n.sent == 16 &&
	    n.received == 2007, "summed: 5 connections, 2 allowed, 2 denied, "
	    "2 asked, 16 sent, 2007 received (a damaged line not counted)");

	memset(&e, 0, sizeof e);
	e.id = 9;
	e.argv = (char **)(char *const[]){ "x", NULL };
	e.has_net = true;
	e.net = n;
	line = history_encode(&e);
	ok(strstr(line, "\"network\":{\"connections\":5,\"allowed\":2,"
	    "\"denied\":2,\"asked\":2,\"sent\":16,\"received\":2007}") !=
	    NULL, "the history line's network object: %s", line);
	memset(&e, 0, sizeof e);
	ok(history_decode(line, &e) == 0 && e.has_net &&
	    memcmp(&e.net, &n, sizeof n) == 0, "... read back");
	history_entry_clear(&e);
	free(line);
	memset(&e, 0, sizeof e);
	e.id = 9;
	e.argv = (char **)(char *const[]){ "x", NULL };
	line = history_encode(&e);
	ok(strstr(line, "network") == NULL, "no filtered network: no field");
	free(line);
	/* A capped log: its last lines count what it did not list. */
	if ((f = fopen(log, "a")) == NULL)
		fatal("%s", log);
	fputs("{\"log_full\":true}\n{\"not_logged\":40}\n", f);
	fclose(f);
	ok(history_net_sum(log, &n) == 0 && n.connections == 45 &&
	    n.allowed == 2 && n.denied == 2 && n.sent == 16,
	    "a full log: the connections not listed counted (45), the rest "
	    "as listed");
	unlink(log);
	free(log);
}

/*
 * history_append_end: the line is there for readers before the fsync, the
 * descriptor handed back is the file's, and util_sync_close() closes it.
 */
static void
test_append_end(void)
{
	struct history_list	 l;
	struct stat		 a, b;
	char			*path = xasprintf("%s/end.jsonl", tmpdir);
	char			*cause = NULL;
	int			 fd = -2, rc;

	rc = history_append_end(path, &(struct history_entry){ .id = 7,
	    .state = (char *)"exited", .has_code = true, .code = 3 }, &fd,
	    &cause);
	ok(rc == 0 && fd >= 0, "history_append_end hands back a descriptor");
	ok(history_load(path, &l, &cause) == 0 && l.n == 1 && l.v[0].id == 7 &&
	    l.v[0].code == 3, "the line is read back before its fsync");
	history_list_free(&l);
	ok(fd >= 0 && fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	    a.st_ino == b.st_ino, "the descriptor is the history file's");
	is_int(util_sync_close(fd), 0, "util_sync_close: fsynced and closed");
	ok(fcntl(fd, F_GETFD) < 0 && errno == EBADF, "the descriptor is closed");
	rc = history_append_end("/nonexistent/dir/h.jsonl",
	    &(struct history_entry){ .id = 8 }, &fd, &cause);
	ok(rc != 0 && fd == -1 && cause != NULL &&
	    strstr(cause, "/nonexistent/dir/h.jsonl") != NULL,
	    "a file that cannot be opened: -1, no descriptor, the path said");
	free(cause);
	is_int(util_sync_close(-1), 0, "util_sync_close(-1) does nothing");
	unlink(path);
	free(path);
}

int
main(void)
{
	char	*path;

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	path = xasprintf("%s/history.jsonl", tmpdir);
	test_round_trip(path);
	test_damaged(path);
	test_tail(path);
	test_missing();
	test_decode();
	test_net();
	test_append_end();
	unlink(path);
	free(path);
	rmdir(tmpdir);
	return tap_done();
}
