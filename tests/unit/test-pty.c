/*
 * test-pty.c - unit tests for pty/: spawning on a terminal, exit status
 * decoding, terminal size and resize, session leadership, pre-exec hook
 * and exec failures, inherited fds and signal mask, non-blocking I/O.
 *
 * Every child is reaped by pid before the test moves on.
 */
#include "pty/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/tap.h"

/* Upper bound on waiting for a child's output, in poll rounds of 100 ms. */
#define TEST_ROUNDS 100

static char	tmpdir[] = "/tmp/test-pty.XXXXXX";

/* Spawn argv at size cols x rows; returns 0 or -1 with *fail filled. */
static int
spawn(char *const *argv, unsigned short cols, unsigned short rows,
    pty_hook_fn hook, void *arg, struct pty_child *child,
    struct pty_failure *fail)
{
	struct pty_spec	spec;

	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.size.cols = cols;
	spec.size.rows = rows;
	spec.pre_exec = hook;
	spec.pre_exec_arg = arg;
	return pty_spawn(&spec, child, fail);
}

/* Read the master until PTY_EOF (or the bound); returns a NUL-ended copy. */
static char *
read_all(int master, size_t *lenp, int *saw_eof)
{
	struct pollfd	pfd;
	char		buf[4096], *out = NULL;
	size_t		len = 0;
	ssize_t		n;
	int		rounds = 0;

	*saw_eof = 0;
	while (rounds < TEST_ROUNDS) {
		pfd.fd = master;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 100) == 0) {
			rounds++;
			continue;
		}
		n = pty_read(master, buf, sizeof buf);
		if (n == PTY_EOF) {
			*saw_eof = 1;
			break;
		}
		if (n < 0)
			break;
		out = realloc(out, len + (size_t)n + 1);
		memcpy(out + len, buf, (size_t)n);
		len += (size_t)n;
	}
	if (out == NULL)
		out = calloc(1, 1);
	out[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return out;
}

/* Run argv to completion: its output and decoded status. */
static char *
run(char *const *argv, unsigned short cols, unsigned short rows,
    struct pty_status *st)
{
	struct pty_child	child;
	struct pty_failure	fail;
	char			*out;
	int			eof;

	memset(st, 0, sizeof *st);
	if (spawn(argv, cols, rows, NULL, NULL, &child, &fail) != 0) {
		diag("spawn %s failed: %s (%d)", argv[0], fail.stage,
		    fail.err);
		return NULL;
	}
	out = read_all(child.master, NULL, &eof);
	pty_reap(child.pid, true, st);
	close(child.master);
	return out;
}

static void
test_output(void)
{
	char *const		 argv[] = { "printf", "a\\nb\\tc\\n", NULL };
	struct pty_status	 st;
	char			*out;

	out = run(argv, 80, 24, &st);
	is_str(out, "a\r\nb\tc\r\n", "printf bytes arrive, LF as CRLF");
	is_int(st.signaled, 0, "printf exited normally");
	is_int(st.code, 0, "printf exit code 0");
	free(out);
}

static void
test_exit_codes(void)
{
	char *const		 exit3[] = { "sh", "-c", "exit 3", NULL };
	char *const		 kill9[] = { "sh", "-c", "kill -9 $$", NULL };
	struct pty_status	 st;

	free(run(exit3, 80, 24, &st));
	is_int(st.signaled, 0, "exit 3: not signaled");
	is_int(st.code, 3, "exit 3: code 3");
	is_int(pty_status_exit_code(st), 3, "exit 3: shell status 3");

	free(run(kill9, 80, 24, &st));
	is_int(st.signaled, 1, "kill -9: signaled");
	is_int(st.signal, 9, "kill -9: signal 9");
	is_int(pty_status_exit_code(st), 137, "kill -9: shell status 137");

	st = pty_status_decode(0x0300);		/* exited with 3 */
	ok(!st.signaled && st.code == 3, "decode raw exit status");
	st = pty_status_decode(SIGSEGV | 0x80);	/* killed, core dumped */
	ok(st.signaled && st.signal == SIGSEGV && st.core_dumped,
	    "decode raw signal with core dump");
}

static void
test_size(void)
{
	char *const		 argv[] = { "stty", "size", NULL };
	char *const		 isatty[] = { "sh", "-c",
				    "test -t 0 && test -t 1 && test -t 2 "
				    "&& echo tty", NULL };
	struct pty_status	 st;
	char			*out;

	out = run(argv, 101, 33, &st);
	is_str(out, "33 101\r\n", "stty size sees the requested size");
	free(out);
	out = run(isatty, 80, 24, &st);
	is_str(out, "tty\r\n", "stdin, stdout and stderr are terminals");
	free(out);
}

static void
test_resize(void)
{
	char *const		 argv[] = { "sh", "-c",
				    "stty -echo; echo ready; read x; stty size",
				    NULL };
	struct pty_child	 child;
	struct pty_failure	 fail;
	struct pty_status	 st;
	struct pty_size		 size = { 120, 40 };
	struct pollfd		 pfd;
	char			 buf[256], *out;
	size_t			 len = 0;
	ssize_t			 n;
	int			 eof, rounds = 0;

	if (!ok(spawn(argv, 80, 24, NULL, NULL, &child, &fail) == 0,
	    "spawn resize child")) {
		tap_skip(2, "no child");
		return;
	}
	/* Wait for "ready" so the resize happens before stty size runs. */
	while (rounds++ < TEST_ROUNDS && strstr(buf, "ready") == NULL) {
		pfd.fd = child.master;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = pty_read(child.master, buf + len, sizeof buf - 1 - len);
		if (n > 0)
			len += (size_t)n;
		buf[len] = '\0';
	}
	is_int(pty_resize(child.master, size), 0, "pty_resize succeeds");
	pty_write(child.master, "\n", 1);
	out = read_all(child.master, NULL, &eof);
	is_str(out, "40 120\r\n", "stty size sees the new size");
	free(out);
	pty_reap(child.pid, true, &st);
	close(child.master);
}

static void
test_session_leader(void)
{
	char *const		 argv[] = { "sh", "-c",
				    "read a b c d e sid g tpgid rest "
				    "< /proc/$$/stat; "
				    "echo $$ $sid $tpgid; tty", NULL };
	struct pty_status	 st;
	char			*out, pid[32], sid[32], tpgid[32], tty[64];

	out = run(argv, 80, 24, &st);
	if (out == NULL || sscanf(out, "%31s %31s %31s\r\n%63s", pid, sid,
	    tpgid, tty) != 4) {
		ok(0, "parse leader output");
		diag("output: %s", out ? out : "(none)");
		tap_skip(3, "unparsed");
		free(out);
		return;
	}
	is_str(sid, pid, "child is its session's leader");
	is_str(tpgid, pid, "child's group is the terminal's foreground");
	ok(strncmp(tty, "/dev/pts/", 9) == 0, "controlling tty is %s", tty);
	is_int(st.code, 0, "tty exits 0 (it has a terminal)");
	free(out);
}

/* A pre-exec hook that fails with a given stage and errno. */
static int
failing_hook(void *arg, int report_fd, const char **stage,
    pty_then_fn then, void *then_ctx)
{
	(void)report_fd;
	(void)then;
	(void)then_ctx;
	*stage = arg;
	errno = EACCES;
	return -1;
}

/* A pre-exec hook that succeeds and leaves a mark in the environment. */
static int
passing_hook(void *arg, int report_fd, const char **stage,
    pty_then_fn then, void *then_ctx)
{
	(void)arg;
	(void)stage;
	(void)report_fd;
	(void)then;
	(void)then_ctx;
	return setenv("PTY_TEST_HOOK", "ran", 1);
}

/*
 * A pre-exec hook that runs the command in a process of its own, as the
 * sandbox does in a PID namespace: the child calls then() (with arg as a
 * failed stage, or NULL to exec); this process closes the report channel,
 * waits and ends with the child's exit code, and never returns.
 */
static int
own_process_hook(void *arg, int report_fd, const char **stage,
    pty_then_fn then, void *then_ctx)
{
	pid_t	pid;
	int	status;

	*stage = "fork";
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		errno = EPERM;
		then(then_ctx, arg);
	}
	close(report_fd);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		_exit(99);
	_exit(WEXITSTATUS(status));
}

static void
test_hook_own_process(void)
{
	char *const		 argv[] = { "sh", "-c", "echo own; exit 7", NULL };
	struct pty_child	 child;
	struct pty_failure	 fail;
	struct pty_status	 st;
	char			*out;
	int			 eof;

	if (spawn(argv, 80, 24, own_process_hook, NULL, &child, &fail) != 0) {
		ok(0, "own process hook: spawn (%s)", fail.stage);
		return;
	}
	out = read_all(child.master, NULL, &eof);
	is_str(out, "own\r\n", "own process hook: then() ran the command");
	ok(pty_reap(child.pid, true, &st) == 1 && !st.signaled &&
	    st.code == 7, "own process hook: its exit status came back");
	close(child.master);
	free(out);

	is_int(spawn(argv, 80, 24, own_process_hook, "own-stage", &child,
	    &fail), -1, "own process hook, failing: pty_spawn returns -1");
	is_str(fail.stage, "own-stage",
	    "own process hook, failing: then() reported the stage");
	is_int(fail.err, EPERM, "own process hook, failing: and its errno");
	is_int(fail.status, 125, "own process hook, failing: status 125");
}

static void
test_hook(void)
{
	char			 marker[256], cmd[300];
	char *const		 argv[] = { "sh", "-c", cmd, NULL };
	char *const		 env[] = { "sh", "-c", "echo $PTY_TEST_HOOK",
				    NULL };
	struct pty_child	 child;
	struct pty_failure	 fail;
	struct pty_status	 st;
	char			 msg[256], *out;
	int			 eof;

	snprintf(marker, sizeof marker, "%s/marker", tmpdir);
	snprintf(cmd, sizeof cmd, "touch '%s'", marker);
	is_int(spawn(argv, 80, 24, failing_hook, "test-stage", &child, &fail),
	    -1, "failing hook: pty_spawn returns -1");
	is_str(fail.stage, "test-stage", "failing hook: stage reported");
	is_int(fail.err, EACCES, "failing hook: errno reported");
	is_int(fail.status, 125, "failing hook: status 125");
	ok(access(marker, F_OK) != 0, "failing hook: command did not run");
	ok(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD,
	    "failing hook: the child was reaped");
	pty_failure_str(&fail, msg, sizeof msg);
	is_str(msg, "test-stage: Permission denied", "failure string");

	if (spawn(env, 80, 24, passing_hook, NULL, &child, &fail) != 0) {
		ok(0, "passing hook: spawn");
		return;
	}
	out = read_all(child.master, NULL, &eof);
	is_str(out, "ran\r\n", "passing hook ran in the child before exec");
	pty_reap(child.pid, true, &st);
	close(child.master);
	free(out);
	ok(getenv("PTY_TEST_HOOK") == NULL, "hook did not touch the parent");
}

static void
test_exec_failures(void)
{
	char			 path[256];
	char *const		 missing[] = { "no-such-command-pty-test", NULL };
	char *const		 noexec[] = { path, NULL };
	struct pty_child	 child;
	struct pty_failure	 fail;
	int			 fd;

	is_int(spawn(missing, 80, 24, NULL, NULL, &child, &fail), -1,
	    "missing command: pty_spawn returns -1");
	is_int(fail.status, 127, "missing command: status 127");
	is_int(fail.err, ENOENT, "missing command: ENOENT");
	is_str(fail.stage, "exec: no-such-command-pty-test",
	    "missing command: stage names it");

	snprintf(path, sizeof path, "%s/not-executable", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, "echo hi\n", 8) != 8)
			diag("short write");
		close(fd);
	}
	is_int(spawn(noexec, 80, 24, NULL, NULL, &child, &fail), -1,
	    "non-executable: pty_spawn returns -1");
	is_int(fail.status, 126, "non-executable: status 126");
	is_int(fail.err, EACCES, "non-executable: EACCES");
	ok(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD,
	    "exec failures leave no child behind");
}

static void
test_fds(void)
{
	char			 cmd[200];
	char *const		 argv[] = { "sh", "-c", cmd, NULL };
	struct pty_status	 st;
	char			*out;
	int			 fd, high;

	/* Deliberately not close-on-exec. */
	fd = open("/dev/null", O_RDONLY);
	high = dup2(fd, 60);
	ok(fd > 2 && high == 60 && !(fcntl(fd, F_GETFD) & FD_CLOEXEC),
	    "parent holds inheritable fds %d and %d", fd, high);
	/* No glob: listing a directory would open an fd of its own. */
	snprintf(cmd, sizeof cmd, "for f in 0 1 2 %d 60; do "
	    "[ -e /proc/$$/fd/$f ] && printf '%%s ' $f; done; echo", fd);
	out = run(argv, 80, 24, &st);
	is_str(out, "0 1 2 \r\n", "child holds only fds 0, 1 and 2");
	free(out);
	close(fd);
	close(high);
}

/* A hook that writes its fd number to the kept descriptor (arg: it). */
static int
keep_hook(void *arg, int report_fd, const char **stage, pty_then_fn then,
    void *then_ctx)
{
	int	fd = *(int *)arg;
	char	b[16];
	int	n;

	(void)report_fd;
	(void)then;
	(void)then_ctx;
	*stage = "keep";
	n = snprintf(b, sizeof b, "kept %d", fd);
	return write(fd, b, (size_t)n) == n ? 0 : -1;
}

static void
test_keep_fd(void)
{
	char			 cmd[200], buf[32];
	char *const		 argv[] = { "sh", "-c", cmd, NULL };
	struct pty_spec		 spec;
	struct pty_child	 child;
	struct pty_failure	 fail;
	struct pty_status	 st;
	char			*out, want[32];
	int			 p[2], eof;
	ssize_t			 n;

	if (pipe2(p, O_CLOEXEC) != 0 || p[1] <= 2) {
		ok(0, "pipe");
		return;
	}
	snprintf(cmd, sizeof cmd, "[ -e /proc/$$/fd/%d ] && echo leaked; "
	    "echo done", p[1]);
	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.size.cols = 80;
	spec.size.rows = 24;
	spec.pre_exec = keep_hook;
	spec.pre_exec_arg = &p[1];
	spec.keep_fd = p[1];
	if (pty_spawn(&spec, &child, &fail) != 0) {
		ok(0, "keep_fd: spawn: %s", fail.stage);
		close(p[0]);
		close(p[1]);
		return;
	}
	close(p[1]);
	n = read(p[0], buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = '\0';
	snprintf(want, sizeof want, "kept %d", p[1]);
	is_str(buf, want, "keep_fd: the hook has the kept descriptor");
	out = read_all(child.master, NULL, &eof);
	is_str(out, "done\r\n", "keep_fd: the command does not (closed at "
	    "its exec)");
	is_int((int)read(p[0], buf, sizeof buf), 0,
	    "keep_fd: and nothing else holds it: EOF");
	pty_reap(child.pid, true, &st);
	close(child.master);
	close(p[0]);
	free(out);
}

static void
test_sigmask(void)
{
	/* grep itself reads its status: a shell might reset the mask. */
	char *const		 argv[] = { "grep", "-E", "^Sig(Blk|Ign)",
				    "/proc/self/status", NULL };
	struct pty_status	 st;
	sigset_t		 set, old;
	struct sigaction	 sa, oldsa;
	char			*out;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &old);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGQUIT, &sa, &oldsa);
	out = run(argv, 80, 24, &st);
	sigaction(SIGQUIT, &oldsa, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	is_str(out, "SigBlk:\t0000000000000000\r\n"
	    "SigIgn:\t0000000000000000\r\n",
	    "child: empty signal mask, nothing ignored");
	free(out);
}

static void
test_read_write(void)
{
	char *const		 echo[] = { "printf", "xyz", NULL };
	char *const		 sleeper[] = { "sleep", "30", NULL };
	struct pty_child	 child;
	struct pty_failure	 fail;
	struct pty_status	 st;
	char			*out, chunk[4096];
	size_t			 len, total = 0;
	ssize_t			 n = 1;
	int			 eof, i;

	if (spawn(echo, 80, 24, NULL, NULL, &child, &fail) != 0) {
		ok(0, "spawn printf");
		return;
	}
	ok(fcntl(child.master, F_GETFL) & O_NONBLOCK, "master is non-blocking");
	ok(fcntl(child.master, F_GETFD) & FD_CLOEXEC, "master is close-on-exec");
	pty_reap(child.pid, true, &st);
	out = read_all(child.master, &len, &eof);
	is_str(out, "xyz", "output is still readable after the child exited");
	ok(eof, "then pty_read returns PTY_EOF");
	ok(pty_read(child.master, chunk, sizeof chunk) == PTY_EOF,
	    "and keeps returning PTY_EOF");
	free(out);
	close(child.master);

	/* A child that never reads: writes must stop, not block. */
	if (spawn(sleeper, 80, 24, NULL, NULL, &child, &fail) != 0) {
		ok(0, "spawn sleep");
		return;
	}
	memset(chunk, 'a', sizeof chunk);
	for (i = 0; i < 8192 && n > 0; i++) {
		if ((n = pty_write(child.master, chunk, sizeof chunk)) > 0)
			total += (size_t)n;
	}
	is_int(n, 0, "pty_write returns 0 when the terminal is full");
	ok(total > 0 && total < 8192 * sizeof chunk,
	    "some bytes went in before it filled (%zu)", total);
	is_int(pty_kill_group(child.pid, SIGKILL), 0, "kill the group");
	pty_reap(child.pid, true, &st);
	ok(st.signaled && st.signal == SIGKILL, "sleep died of SIGKILL");
	close(child.master);
	ok(pty_write(child.master, "x", 1) < 0, "pty_write on a bad fd is -1");
	ok(pty_read(child.master, chunk, 1) == -1, "pty_read on a bad fd is -1");
}

/*
 * A pipe in place of stdout: the command writes there exactly, its stdin
 * and stderr stay the terminal, which stays controlling; the parent holds
 * a slave so the PTY reads as hung up only once it lets go.
 */
static void
test_stdio(void)
{
	char *const		 argv[] = { "sh", "-c", "echo out; "
				    "[ -t 1 ] || echo notty1 >&2; "
				    "[ -t 0 ] && echo tty0 >/dev/tty", NULL };
	struct pty_spec		 spec;
	struct pty_child	 child;
	struct pty_failure	 fail;
	struct pty_status	 st;
	int			 p[2], stdio[3] = { -1, -1, -1 }, eof;
	char			 buf[64], *out;
	ssize_t			 n;

	if (pipe2(p, O_CLOEXEC) != 0) {
		ok(0, "pipe");
		return;
	}
	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.size.cols = 80;
	spec.size.rows = 24;
	stdio[0] = 1;
	spec.stdio = stdio;
	ok(pty_spawn(&spec, &child, &fail) != 0 && fail.err == EINVAL,
	    "a replacement among 0-2 is refused");
	stdio[0] = -1;
	stdio[1] = p[1];
	if (!ok(pty_spawn(&spec, &child, &fail) == 0, "spawn with stdout a "
	    "pipe")) {
		close(p[0]);
		close(p[1]);
		return;
	}
	close(p[1]);
	ok(child.slave >= 0, "the parent holds a slave");
	n = read(p[0], buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = '\0';
	is_str(buf, "out\n", "stdout: the pipe, exactly");
	pty_reap(child.pid, true, &st);
	close(child.slave);
	out = read_all(child.master, NULL, &eof);
	is_str(out, "notty1\r\ntty0\r\n", "stdin and stderr stay the terminal");
	ok(eof, "EOF once the parent let go of its slave");
	free(out);
	close(child.master);
	close(p[0]);
}

/* pty_start + pty_step: the exec or the failure, learnt when the report
 * channel is readable; nothing waits for the child meanwhile. */
static int
step_until(struct pty_start *st, struct pty_child *child,
    struct pty_failure *fail)
{
	struct pollfd	pfd;
	int		r, rounds = 0;

	while (rounds++ < TEST_ROUNDS) {
		pfd.fd = st->report;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if ((r = pty_step(st, child, fail)) != 0)
			return r;
	}
	return 0;
}

static void
test_start_step(void)
{
	char *const		 echo[] = { "sh", "-c", "echo started; exit 4",
				     NULL };
	char *const		 missing[] = { "no-such-command-pty-test", NULL };
	struct pty_spec		 spec;
	struct pty_start	 st;
	struct pty_child	 child;
	struct pty_failure	 fail;
	struct pty_status	 ps;
	char			*out;
	int			 eof;

	memset(&spec, 0, sizeof spec);
	spec.argv = echo;
	spec.size.cols = 80;
	spec.size.rows = 24;
	if (!ok(pty_start(&spec, &st, &fail) == 0 && st.pid > 0 &&
	    st.report >= 0 && st.master >= 0, "pty_start forks and returns"))
		return;
	ok(fcntl(st.report, F_GETFL) & O_NONBLOCK,
	    "the report channel is non-blocking");
	is_int(step_until(&st, &child, &fail), 1, "pty_step: it exec'd");
	ok(child.pid > 0 && child.master >= 0 && st.report == -1 &&
	    st.pid == -1, "the child handed over, the start emptied");
	out = read_all(child.master, NULL, &eof);
	ok(strstr(out, "started") != NULL, "its output on the PTY");
	free(out);
	pty_reap(child.pid, true, &ps);
	is_int(ps.code, 4, "its own status");
	close(child.master);

	spec.argv = missing;
	if (!ok(pty_start(&spec, &st, &fail) == 0,
	    "pty_start of a missing command forks too"))
		return;
	is_int(step_until(&st, &child, &fail), -1, "pty_step: it failed");
	is_int(fail.status, 127, "status 127");
	is_str(fail.stage, "exec: no-such-command-pty-test", "the stage");
	ok(st.report == -1 && st.master == -1 && st.pid == -1 &&
	    waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD,
	    "closed, and no child left behind");
}

int
main(void)
{
	char	path[256];

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_output();
	test_exit_codes();
	test_size();
	test_resize();
	test_session_leader();
	test_hook();
	test_hook_own_process();
	test_exec_failures();
	test_fds();
	test_keep_fd();
	test_sigmask();
	test_read_write();
	test_stdio();
	test_start_step();
	snprintf(path, sizeof path, "%s/not-executable", tmpdir);
	unlink(path);
	snprintf(path, sizeof path, "%s/marker", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	return tap_done();
}
