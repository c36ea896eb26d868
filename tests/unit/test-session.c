/*
 * test-session.c - unit tests for sessions with a real loop and a private
 * state directory: exit, signal, timeout, missing command, a leftover
 * daemon holding the terminal, input, and sessions_free killing what still
 * runs.  Every process is checked gone by pid or process group.
 */
#include "session/session.h"
#include "term/screen.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/loop.h"
#include "record/history.h"
#include "base/util.h"
#include "tests/tap.h"

/* Loop turns (each at most 100 ms) to wait for a session to end. */
#define TEST_TURNS 200

static char		 tmpdir[] = "/tmp/test-session.XXXXXX";
static struct loop	*loop;
static struct sessions	*ss;
static struct buf	 output;
static int		 ended;
static bool		 passthrough;	/* for the next start() */
static bool		 async_start;	/* for the next start() */

static void
on_output(void *user, struct session *s, const char *data, size_t len)
{
	(void)user;
	(void)s;
	buf_add(&output, data, len);
}

static void
on_ended(void *user, struct session *s)
{
	(void)user;
	(void)s;
	ended++;
}

static int		 started;
static pid_t		 started_pid;

static void
on_started(void *user, struct session *s)
{
	(void)user;
	started++;
	started_pid = session_pid(s);
}

/* What the pipes of a session gave: stdout, stderr, stdin taken. */
static struct buf	 piped[3];
static uint64_t		 stdin_taken;

static void
on_stream(void *user, struct session *s, int fd, const char *data,
    size_t len)
{
	(void)user;
	(void)s;
	if (fd == 1 || fd == 2)
		buf_add(&piped[fd], data, len);
}

static void
on_stdin_written(void *user, struct session *s, uint64_t total)
{
	(void)user;
	(void)s;
	stdin_taken = total;
}

static struct session	*forgotten_s;
static int		 nforgotten;

static void
on_forgotten(void *user, struct session *s)
{
	(void)user;
	forgotten_s = s;
	nforgotten++;
}

static const struct session_events events = {
	.forgotten = on_forgotten,
	.output = on_output,
	.ended = on_ended,
	.started = on_started,
	.stream = on_stream,
	.stdin_written = on_stdin_written,
};

/* Start argv; NULL on failure (reported). */
static struct session *
start(char *const *argv, unsigned timeout_s)
{
	struct session_opts	 o;
	struct session		*s;
	char			*cause = NULL;

	memset(&o, 0, sizeof o);
	o.argv = argv;
	o.cwd = tmpdir;
	o.size.cols = 80;
	o.size.rows = 24;
	o.timeout_s = timeout_s;
	o.term = "xterm";
	o.passthrough = passthrough;
	o.async_start = async_start;
	output.len = 0;
	ended = 0;
	s = sessions_start(ss, &o, &cause);
	if (s == NULL) {
		diag("sessions_start: %s", cause);
		free(cause);
	}
	return s;
}

/* Run the loop until s is done; returns the turns taken, -1 if never. */
static int
run_until_done(struct session *s)
{
	int	turns = 0;

	while (!session_is_done(s)) {
		if (turns++ >= TEST_TURNS)
			return -1;
		loop_once(loop, 100);
	}
	return turns;
}

/* Run the loop until output contains want. */
static int
run_until_output(const char *want)
{
	int	turns = 0;

	while (turns++ < TEST_TURNS) {
		if (output.len > 0 && strstr(buf_cstr(&output), want) != NULL)
			return 1;
		loop_once(loop, 100);
	}
	return 0;
}

/* The whole file at path, NUL-terminated; NULL if unreadable. */
static char *
slurp(const char *path)
{
	FILE		*f = fopen(path, "re");
	struct buf	 b = { 0 };
	char		 chunk[4096];
	size_t		 n;

	if (f == NULL)
		return NULL;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	return buf_cstr(&b);
}

/* Load the history of the state dir. */
static void
load_history(struct history_list *l)
{
	char	*path = xasprintf("%s/history.jsonl", tmpdir), *cause = NULL;

	if (history_load(path, l, &cause) != 0) {
		diag("history_load: %s", cause);
		free(cause);
	}
	free(path);
}

/* True when process group pgid has no member left. */
static int
group_gone(pid_t pgid)
{
	return kill(-pgid, 0) == -1 && errno == ESRCH;
}

static void
test_exit(void)
{
	char *const		 argv[] = { "sh", "-c", "printf hello; exit 7",
				    NULL };
	struct session		*s = start(argv, 0);
	struct history_list	 h;
	struct stat		 st;
	char			*cast;

	if (!ok(s != NULL, "start sh -c 'printf hello; exit 7'"))
		return;
	ok(run_until_done(s) >= 0, "the session ends");
	is_int(ended, 1, "one ended event");
	is_int(session_state(s), SESSION_EXITED, "state EXITED");
	is_int(session_exit_code(s), 7, "exit code 7");
	is_int(session_bytes(s), 5, "5 bytes of output");
	ok(output.len == 5 && memcmp(output.data, "hello", 5) == 0,
	    "subscribers saw the output");
	ok(session_recording(s) != NULL &&
	    stat(session_recording(s), &st) == 0 &&
	    (st.st_mode & 0777) == 0600, "recording exists, mode 0600");
	cast = session_recording(s) ? slurp(session_recording(s)) : NULL;
	ok(cast != NULL && strstr(cast, "\"o\", \"hello\"") != NULL &&
	    strstr(cast, "\"m\", \"exit 7\"") != NULL,
	    "recording holds the output and the exit marker");
	free(cast);
	load_history(&h);
	is_int(h.n, 1, "history has one line");
	if (h.n == 1) {
		ok(h.v[0].has_code && h.v[0].code == 7, "history code 7");
		is_int(h.v[0].bytes, 5, "history bytes 5");
		is_str(h.v[0].state, "exited", "history state");
		is_int(h.v[0].id, session_id(s), "history id");
	}
	history_list_free(&h);
	sessions_forget(ss, s);
}

static void
test_signal(void)
{
	char *const	 argv[] = { "sh", "-c", "kill -9 $$", NULL };
	struct session	*s = start(argv, 0);

	if (!ok(s != NULL, "start sh -c 'kill -9 $$'"))
		return;
	run_until_done(s);
	is_int(session_state(s), SESSION_SIGNALED, "state SIGNALED");
	is_int(session_exit_code(s), 137, "exit code 137");
	is_int(session_status(s).signal, 9, "signal 9");
	sessions_forget(ss, s);
}

static void
test_timeout(void)
{
	char *const	 argv[] = { "sleep", "30", NULL };
	struct session	*s = start(argv, 1);
	pid_t		 pid;

	if (!ok(s != NULL, "start sleep 30 with a 1 s timeout"))
		return;
	pid = session_pid(s);
	ok(run_until_done(s) >= 0, "the session ends");
	is_int(session_state(s), SESSION_TIMED_OUT, "state TIMED_OUT");
	is_int(session_exit_code(s), 124, "exit code 124");
	ok(pid > 0 && group_gone(pid), "its process group is gone");
	sessions_forget(ss, s);
}

static void
test_missing(void)
{
	char *const	 argv[] = { "no-such-command-session-test", NULL };
	struct session	*s = start(argv, 0);
	char		*cast;

	if (!ok(s != NULL, "a missing command still makes a session"))
		return;
	ok(session_is_done(s), "done at once");
	is_int(session_state(s), SESSION_FAILED, "state FAILED");
	is_int(session_exit_code(s), 127, "exit code 127");
	ok(session_error(s) != NULL &&
	    strstr(session_error(s), "command not found") != NULL,
	    "error says command not found: %s",
	    session_error(s) ? session_error(s) : "(null)");
	cast = session_recording(s) ? slurp(session_recording(s)) : NULL;
	ok(cast != NULL && strstr(cast, "command not found") != NULL,
	    "the recording says it too");
	is_int(ended, 1, "ended event sent");
	free(cast);
	sessions_forget(ss, s);
}

static void
test_daemon(void)
{
	/* The background sleep ignores SIGHUP and keeps the terminal open. */
	char *const	 argv[] = { "sh", "-c",
			    "trap '' HUP; sleep 30 & echo bg=$!", NULL };
	struct session	*s = start(argv, 0);
	const char	*p;
	pid_t		 pid, bg = -1;
	int		 turns, wstatus = 0;

	if (!ok(s != NULL, "start a command leaving a daemon behind"))
		return;
	pid = session_pid(s);
	turns = run_until_done(s);
	ok(turns >= 0 && turns < 100,
	    "the session ends within a bounded number of turns (%d)", turns);
	is_int(session_state(s), SESSION_EXITED, "state EXITED");
	is_int(session_exit_code(s), 0, "exit code 0 (the shell's)");
	p = output.len > 0 ? strstr(buf_cstr(&output), "bg=") : NULL;
	if (p != NULL)
		bg = (pid_t)atoi(p + 3);
	ok(bg > 0, "the daemon's pid was printed");
	/*
	 * We are a subreaper: the orphaned sleep is our child to reap.  The
	 * session ended on the terminal's EOF, so the daemon is dead by now.
	 */
	ok(bg > 0 && waitpid(bg, &wstatus, WNOHANG) == bg &&
	    WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL,
	    "the daemon was killed");
	if (bg > 0 && kill(bg, 0) == 0) {	/* not reaped: clean up */
		kill(bg, SIGKILL);
		waitpid(bg, NULL, 0);
	}
	ok(group_gone(pid), "the daemon's process group is gone");
	sessions_forget(ss, s);
}

static void
test_input(void)
{
	char *const	 argv[] = { "cat", NULL };
	struct session	*s = start(argv, 0);

	if (!ok(s != NULL, "start cat"))
		return;
	session_write(s, "ping\n", 5);
	ok(run_until_output("ping\r\nping\r\n"),
	    "session_write reaches cat and its echo comes back");
	session_kill(s);
	ok(run_until_done(s) >= 0, "session_kill ends it");
	is_int(session_state(s), SESSION_SIGNALED, "state SIGNALED");
	ok(session_killed_by_user(s), "killed by the user");
	sessions_forget(ss, s);
}

/*
 * A session with pipes for 0-2: stdin with its EOF, stdout and stderr
 * apart and exact, no terminal on them, the PTY still the controlling
 * terminal, the umask given; the screen and recording show both.
 */
static void
test_pipes(void)
{
	char *const	 argv[] = { "sh", "-c", "cat; printf 'x\\0y'; "
			    "echo err >&2; [ -t 0 ] || [ -t 1 ] || [ -t 2 ] || "
			    "echo notty; umask; echo tty >/dev/tty; exit 5",
			    NULL };
	struct session_opts	 o;
	struct session		*s;
	char			*cause = NULL, *cast, *path;
	struct buf		 screen = { 0 };

	memset(&o, 0, sizeof o);
	o.argv = argv;
	o.cwd = tmpdir;
	o.size.cols = 80;
	o.size.rows = 24;
	o.term = "xterm";
	o.pipes[0] = o.pipes[1] = o.pipes[2] = true;
	o.has_umask = true;
	o.umask = 027;
	output.len = piped[1].len = piped[2].len = 0;
	stdin_taken = 0;
	s = sessions_start(ss, &o, &cause);
	if (!ok(s != NULL, "start with pipes")) {
		diag("%s", cause);
		free(cause);
		return;
	}
	ok(session_has_stdin(s), "it has a stdin pipe");
	ok(session_stdin_write(s, "in\0put\n", 7, false, &cause) == 0,
	    "stdin takes bytes");
	ok(session_stdin_write(s, "end", 3, true, &cause) == 0,
	    "and its end");
	ok(session_stdin_write(s, "more", 4, false, &cause) != 0 &&
	    cause != NULL, "nothing after the end (%s)", cause);
	free(cause);
	ok(run_until_done(s) >= 0, "the command reads to EOF and ends");
	is_int(session_exit_code(s), 5, "its own status");
	ok(piped[1].len == 24 && memcmp(piped[1].data,
	    "in\0put\nendx\0ynotty\n0027\n", 24) == 0,
	    "stdout: exact bytes, no terminal on 0-2, the umask given (%zu "
	    "bytes)", piped[1].len);
	is_str(buf_cstr(&piped[2]), "err\n", "stderr apart");
	is_int(stdin_taken, 10, "stdin_written told all 10 bytes taken");
	ok(output.len > 0 && strstr(buf_cstr(&output), "tty") != NULL &&
	    strstr(buf_cstr(&output), "err") == NULL,
	    "/dev/tty is the session's terminal; the pipes are not its output");
	screen_text(session_screen(s), false, &screen);
	ok(strstr(buf_cstr(&screen), "err") != NULL &&
	    strstr(buf_cstr(&screen), "notty") != NULL,
	    "the screen shows both streams");
	path = xasprintf("%s/sessions/%lu.cast", tmpdir, session_id(s));
	cast = slurp(path);
	ok(cast != NULL && strstr(cast, "err\\r\\n") != NULL,
	    "the recording has stderr's line as a terminal shows it");
	free(cast);
	free(path);
	buf_free(&screen);
	sessions_forget(ss, s);
}

/*
 * A watched session's PTY is a high-priority fd: its output is what
 * loop_high_pending reports, and only while it is watched.  A passthrough
 * session keeps no screen, and its output still reaches the subscribers.
 */
static void
test_watched(void)
{
	char *const	 argv[] = { "cat", NULL };
	struct session	*s = start(argv, 0);
	int		 tries = 0;
	bool		 pending = false;

	if (!ok(s != NULL, "start cat"))
		return;
	session_set_watched(s, true);
	session_write(s, "w\n", 2);	/* echoed by the PTY at once */
	while (!(pending = loop_high_pending(loop, -1)) && tries++ < 200)
		usleep(10000);
	ok(pending, "a watched session's output is input served first");
	/* Two consoles watch it; one looks away: still watched. */
	session_set_watched(s, true);
	session_set_watched(s, false);
	ok(loop_high_pending(loop, -1), "watched by two, one looks away: still "
	    "served first");
	session_set_watched(s, false);
	ok(!loop_high_pending(loop, -1), "an unwatched session's output is not");
	ok(session_screen(s) != NULL, "a session keeps a screen");
	session_kill(s);
	run_until_done(s);
	sessions_forget(ss, s);

	passthrough = true;
	s = start(argv, 0);
	passthrough = false;
	if (!ok(s != NULL, "start cat, passthrough"))
		return;
	ok(session_screen(s) == NULL, "a passthrough session keeps no screen");
	session_write(s, "pass\n", 5);
	ok(run_until_output("pass\r\npass\r\n"),
	    "and its output reaches the subscribers");
	session_resize(s, (struct pty_size){ 100, 30 });
	session_kill(s);
	ok(run_until_done(s) >= 0, "it ends as any other");
	sessions_forget(ss, s);
}

/*
 * A key sent to a watched session holds the other sessions (neither read
 * nor fed) until it answers or a few milliseconds passed, so the echo gets
 * the CPU: the other's output, ready before the key, is not read in the
 * turns right after it, and is read once the wait is over.
 */
static void
test_echo_wait(void)
{
	char *const	 a_argv[] = { "sh", "-c",
	    "stty -echo; echo ready-a; read x; echo other-$x; sleep 5", NULL };
	char *const	 b_argv[] = { "sh", "-c",
	    "stty -echo; echo ready-b; read x; sleep 5", NULL };
	struct session	*a, *b;
	uint64_t	 t0, took;
	int		 i, tries = 0;
	bool		 held;

	a = start(a_argv, 0);
	if (!ok(a != NULL && run_until_output("ready-a"), "start a session"))
		return;
	b = start(b_argv, 0);
	if (!ok(b != NULL && run_until_output("ready-b"), "and a watched one"))
		return;
	session_set_watched(b, true);
	/* a's answer is in its PTY (watched for a moment, to see it). */
	session_write(a, "go\n", 3);
	session_set_watched(a, true);
	while (!loop_high_pending(loop, -1) && tries++ < 200)
		usleep(10000);
	session_set_watched(a, false);
	output.len = 0;
	t0 = util_now_us();
	session_write(b, "k", 1);	/* b does not answer */
	for (i = 0; i < 3; i++)
		loop_once(loop, 0);
	held = output.len == 0;
	took = util_now_us() - t0;
	if (took < 2000)
		ok(held, "right after a key to the watched session, the other "
		    "session's ready output waits (%d bytes read)",
		    (int)output.len);
	else
		tap_skip(1, "this machine took over 2 ms for three loop turns, "
		    "past the wait");
	ok(run_until_output("other-go"), "and is read once the wait is over");
	session_kill(a);
	session_kill(b);
	run_until_done(a);
	run_until_done(b);
	sessions_forget(ss, a);
	sessions_forget(ss, b);
}

/*
 * Several consoles show one session: it takes the smallest rows and the
 * smallest columns of those showing it; one leaving lets the others
 * decide; nobody left keeps the size.  Forgetting a finished session
 * tells the subscribers first.
 */
static void
test_views(void)
{
	char *const	 argv[] = { "cat", NULL };
	struct session	*s = start(argv, 0);
	struct screen	*scr;
	int		 a, b;

	if (!ok(s != NULL, "start cat for the views"))
		return;
	scr = session_screen(s);
	session_view(s, &a, (struct pty_size){ 120, 40 });
	ok(screen_cols(scr) == 120 && screen_rows(scr) == 40,
	    "one console: its pane's size (120x40)");
	session_view(s, &b, (struct pty_size){ 100, 50 });
	ok(screen_cols(scr) == 100 && screen_rows(scr) == 40,
	    "two: the smallest columns and the smallest rows (100x40)");
	session_view(s, &a, (struct pty_size){ 90, 60 });
	ok(screen_cols(scr) == 90 && screen_rows(scr) == 50,
	    "a console's pane changes: 90x50");
	session_unview(s, &a);
	ok(screen_cols(scr) == 100 && screen_rows(scr) == 50,
	    "one leaves: the other's size (100x50)");
	session_unview(s, &b);
	ok(screen_cols(scr) == 100 && screen_rows(scr) == 50,
	    "nobody left: the size stays");
	session_unview(s, &b);
	ok(screen_cols(scr) == 100, "leaving twice changes nothing");
	session_kill(s);
	run_until_done(s);
	nforgotten = 0;
	sessions_forget(ss, s);
	ok(nforgotten == 1 && forgotten_s == s,
	    "forgetting a finished session tells the subscribers");
}

static void
test_free_kills(void)
{
	char *const		 argv[] = { "sleep", "30", NULL };
	struct session		*s = start(argv, 0);
	struct history_list	 h;
	pid_t			 pid;
	size_t			 i, found = 0;

	if (!ok(s != NULL, "start sleep 30"))
		return;
	pid = session_pid(s);
	loop_once(loop, 0);
	sessions_free(ss);
	ss = NULL;
	ok(group_gone(pid), "sessions_free killed the running sleep");
	load_history(&h);
	for (i = 0; i < h.n; i++)
		if (h.v[i].argv[0] != NULL && strcmp(h.v[i].argv[0], "sleep")
		    == 0 && h.v[i].argv[1] != NULL &&
		    strcmp(h.v[i].argv[1], "30") == 0 &&
		    strcmp(h.v[i].state, "signaled") == 0 && h.v[i].signal != 0)
			found++;
	/* One from the timeout test is timed_out; this one is signaled. */
	is_int(found, 1, "and wrote its history line (signaled)");
	history_list_free(&h);
}

/* Remove the state dir's files. */
static void
cleanup(void)
{
	char	*p;
	int	 i;

	for (i = 1; i < 32; i++) {
		p = xasprintf("%s/sessions/%d.cast", tmpdir, i);
		unlink(p);
		free(p);
	}
	p = xasprintf("%s/sessions", tmpdir);
	rmdir(p);
	free(p);
	p = xasprintf("%s/history.jsonl", tmpdir);
	unlink(p);
	free(p);
	rmdir(tmpdir);
}

/* Create tmpdir/rel (empty), or append line to it; false on failure. */
static bool
touch_line(const char *rel, const char *line)
{
	char	 path[PATH_MAX];
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
	if ((f = fopen(path, "a")) == NULL)
		return false;
	if (line != NULL)
		fprintf(f, "%s\n", line);
	return fclose(f) == 0;
}

/*
 * Ids: the state directory is read once, then each start takes the next
 * id; one another ptyvisor took (its recording there) makes the directory
 * read again, so the id comes after the largest there; one pruned
 * meanwhile is never given again.
 */
static void
test_ids(void)
{
	char *const	 argv[] = { "true", NULL };
	struct session	*s;
	unsigned long	 base;
	char		 name[64];

	if ((s = start(argv, 0)) == NULL || run_until_done(s) < 0) {
		ok(false, "a session to count ids from");
		return;
	}
	base = session_id(s);
	sessions_forget(ss, s);
	s = start(argv, 0);
	ok(s != NULL && session_id(s) == base + 1, "the next start: the "
	    "next id (%lu)", s != NULL ? session_id(s) : 0);
	if (s != NULL && run_until_done(s) >= 0)
		sessions_forget(ss, s);
	snprintf(name, sizeof name, "sessions/%lu.cast", base + 2);
	ok(touch_line(name, NULL), "another ptyvisor's recording, next id");
	snprintf(name, sizeof name, "sessions/%lu.cast", base + 7);
	ok(touch_line(name, NULL), "... and a later one of its");
	s = start(argv, 0);
	ok(s != NULL && session_id(s) == base + 8, "an id taken: the "
	    "directory read again, the id after its largest (%lu, want %lu)",
	    s != NULL ? session_id(s) : 0, base + 8);
	if (s != NULL && run_until_done(s) >= 0)
		sessions_forget(ss, s);
	snprintf(name, sizeof name, "%lu", base + 20);
	ok(touch_line("pruned", name), "an id pruned meanwhile");
	s = start(argv, 0);
	ok(s != NULL && session_id(s) == base + 21, "is never given again "
	    "(%lu, want %lu)", s != NULL ? session_id(s) : 0, base + 21);
	if (s != NULL && run_until_done(s) >= 0)
		sessions_forget(ss, s);
}

/*
 * Keys typed while an async start makes the sandbox are written once the
 * command runs, not dropped: the command reads them.
 */
static void
test_async_typed(void)
{
	char *const	 argv[] = { "sh", "-c",
	    "read line; echo got:$line; exit 3", NULL };
	struct session	*s;

	s = start(argv, 10);
	if (!ok(s != NULL, "an async start of a command that reads"))
		return;
	ok(session_is_starting(s), "still starting when keys are typed");
	session_write(s, "typed-early\r", 12);
	ok(run_until_done(s) >= 0, "it reads them and ends");
	is_int(session_exit_code(s), 3, "its own status, not the timeout's");
	ok(strstr(buf_cstr(&output), "got:typed-early") != NULL,
	    "what was typed while starting reached it");
	sessions_forget(ss, s);
}

/*
 * async_start: sessions_start() returns before the child exec'd; the
 * loop learns it (`started`, the pid known) or its failure (FAILED, 127,
 * the same words as at once).
 */
static void
test_async_start(void)
{
	char *const	 argv[] = { "sh", "-c", "echo async-out; exit 6", NULL };
	char *const	 missing[] = { "no-such-command-session-test", NULL };
	struct session	*s;

	async_start = true;
	started = 0;
	s = start(argv, 0);
	if (!ok(s != NULL, "an async start returns a session")) {
		async_start = false;
		return;
	}
	ok(session_is_starting(s) && session_pid(s) <= 0 && started == 0,
	    "starting: no pid yet, no started event");
	ok(run_until_done(s) >= 0, "the loop runs it to its end");
	ok(started == 1 && started_pid > 0, "one started event, with the pid");
	is_int(session_state(s), SESSION_EXITED, "state EXITED");
	is_int(session_exit_code(s), 6, "its own status");
	ok(strstr(buf_cstr(&output), "async-out") != NULL, "its output");
	sessions_forget(ss, s);

	started = 0;
	s = start(missing, 0);
	if (ok(s != NULL, "an async start of a missing command")) {
		ok(!session_is_done(s), "not done at once: it is learnt later");
		ok(run_until_done(s) >= 0, "the loop learns it");
		is_int(session_state(s), SESSION_FAILED, "state FAILED");
		is_int(session_exit_code(s), 127, "exit code 127");
		ok(session_error(s) != NULL && strstr(session_error(s),
		    "command not found") != NULL, "the same words: %s",
		    session_error(s) ? session_error(s) : "(null)");
		is_int(started, 0, "no started event for it");
		sessions_forget(ss, s);
	}
	test_async_typed();
	async_start = false;
}

int
main(void)
{
	char	*cause = NULL;

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	/* Orphans of the sessions come to us, so we can check their end. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	loop = loop_new(&cause);
	ss = loop != NULL ? sessions_new(loop, tmpdir, &cause) : NULL;
	if (!ok(ss != NULL, "sessions_new")) {
		diag("%s", cause);
		free(cause);
		return tap_done();
	}
	sessions_subscribe(ss, &events, NULL);
	test_exit();
	test_signal();
	test_timeout();
	test_missing();
	test_async_start();
	test_ids();
	test_daemon();
	test_input();
	test_pipes();
	test_watched();
	test_echo_wait();
	test_views();
	test_free_kills();
	sessions_free(ss);
	loop_free(loop);
	buf_free(&output);
	buf_free(&piped[1]);
	buf_free(&piped[2]);
	cleanup();
	return tap_done();
}
