/*
 * test-util.c - base/util: the one duration format, times, buffers,
 * complete writes, string vectors compared.
 */
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/tap.h"

/* The duration format of us. */
static const char *
dur(int64_t us)
{
	static char	buf[32];

	util_format_duration(us, buf, sizeof buf);
	return buf;
}

/*
 * 1 MiB through a non-blocking pipe (64 KiB of room) to a reader that
 * starts late: every byte arrives, in order.  Then a pipe nobody reads.
 */
static void
write_all(void)
{
	enum { SIZE = 1024 * 1024 };
	static char	out[SIZE];
	int		fds[2], status;
	size_t		i;
	pid_t		pid;

	for (i = 0; i < SIZE; i++)
		out[i] = (char)(i * 7 + i / 251);
	if (pipe(fds) != 0)
		fatal("pipe");
	pid = fork();
	if (pid == 0) {
		static char	in[SIZE];
		size_t		got = 0;
		ssize_t		n;

		close(fds[1]);
		usleep(50000);
		while ((n = read(fds[0], in + got, SIZE - got)) > 0)
			got += (size_t)n;
		_exit(got == SIZE && memcmp(in, out, SIZE) == 0 ? 0 : 1);
	}
	close(fds[0]);
	fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
	ok(util_write_all(fds[1], out, SIZE) == 0,
	    "a full non-blocking pipe is waited on, not given up");
	close(fds[1]);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "the reader got every byte in order");

	signal(SIGPIPE, SIG_IGN);
	if (pipe(fds) != 0)
		fatal("pipe");
	close(fds[0]);
	errno = 0;
	ok(util_write_all(fds[1], "x", 1) == -1 && errno == EPIPE,
	    "a pipe nobody reads: -1 with errno");
	close(fds[1]);
}

/* strv_equal: the same words in the same order, NULL only NULL. */
static void
strv_compare(void)
{
	char	*ab[] = { "a", "b", NULL }, *ab2[] = { "a", "b", NULL };
	char	*a[] = { "a", NULL }, *ac[] = { "a", "c", NULL };
	char	*none[] = { NULL };

	ok(strv_equal(ab, ab2), "the same words: equal");
	ok(!strv_equal(ab, a) && !strv_equal(a, ab), "one longer: not equal");
	ok(!strv_equal(ab, ac), "one word differs: not equal");
	ok(strv_equal(none, none) && !strv_equal(none, NULL) &&
	    strv_equal(NULL, NULL), "empty is not NULL; NULL equals NULL");
}

/* util_find_program: a path or a name in $PATH, errno saying why not. */
static void
find_program(void)
{
	char	 dir[] = "/tmp/ptyvisor-test-util.XXXXXX", *path, *old;
	int	 fd;

	ok(util_find_program("sh"), "sh is found in $PATH");
	ok(util_find_program("/bin/sh"), "a path that runs is found");
	errno = 0;
	ok(!util_find_program("ptyvisor-no-such-program") && errno == ENOENT,
	    "a name in no directory of $PATH: ENOENT");
	if (mkdtemp(dir) == NULL) {
		ok(false, "mkdtemp: %s", strerror(errno));
		return;
	}
	errno = 0;
	ok(!util_find_program(dir) && errno == EISDIR,
	    "a directory: EISDIR");
	path = xasprintf("%s/plain", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	close(fd);
	errno = 0;
	ok(!util_find_program(path) && errno == EACCES,
	    "a file nobody may run: EACCES");
	chmod(path, 0755);
	ok(util_find_program(path), "once executable, found");
	old = getenv("PATH") != NULL ? xstrdup(getenv("PATH")) : NULL;
	setenv("PATH", dir, 1);
	ok(util_find_program("plain"), "a name found in a $PATH of ours");
	if (old != NULL)
		setenv("PATH", old, 1);
	free(old);
	unlink(path);
	free(path);
	rmdir(dir);
}

/*
 * util_path_has_file: a file of that name in a directory of $PATH, runnable
 * or not, as a shell finds it; a directory we may not search holds nothing.
 */
static void
path_has_file(void)
{
	char	 dir[] = "/tmp/ptyvisor-test-util.XXXXXX", *closed, *file, *old;
	int	 fd;

	ok(util_path_has_file("sh"), "sh is a file in $PATH");
	ok(!util_path_has_file("ptyvisor-no-such-program"),
	    "a name in no directory of $PATH is not");
	if (mkdtemp(dir) == NULL) {
		ok(false, "mkdtemp: %s", strerror(errno));
		return;
	}
	closed = xasprintf("%s/closed", dir);
	file = xasprintf("%s/plain", closed);
	mkdir(closed, 0700);
	fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	close(fd);
	old = getenv("PATH") != NULL ? xstrdup(getenv("PATH")) : NULL;
	setenv("PATH", closed, 1);
	ok(util_path_has_file("plain"), "a file nobody may run is found");
	setenv("PATH", dir, 1);
	ok(!util_path_has_file("closed"), "a directory is not a file");
	chmod(closed, 0);
	setenv("PATH", closed, 1);
	if (geteuid() == 0)
		tap_skip(1, "root searches every directory");
	else
		ok(!util_path_has_file("plain"),
		    "a directory we may not search holds nothing");
	chmod(closed, 0700);
	if (old != NULL)
		setenv("PATH", old, 1);
	free(old);
	unlink(file);
	rmdir(closed);
	rmdir(dir);
	free(file);
	free(closed);
}

int
main(void)
{
	struct buf	b = { 0 };
	char		t[64];

	is_str(dur(-1), "-", "a negative duration is unknown");
	is_str(dur(0), "0.0s", "zero");
	is_str(dur(400000), "0.4s", "under ten seconds: tenths");
	is_str(dur(9960000), "10.0s", "rounded at the edge");
	is_str(dur(12000000), "12s", "then whole seconds");
	is_str(dur(184000000), "3m04s", "minutes and seconds");
	is_str(dur(7500000000LL), "2h05m", "hours and minutes");
	util_format_duration(184000000, t, 4);
	is_str(t, "3m0", "a short buffer is cut, terminated");
	util_format_time(0, t, sizeof t);
	is_str(t, "1970-01-01T00:00:00.000Z", "wall time as RFC 3339 UTC");
	buf_printf(&b, "%d-%s", 7, "x");
	buf_add(&b, "yz", 2);
	is_str(buf_cstr(&b), "7-xyz", "buffer printf and add");
	buf_trim(&b, 0);
	ok(b.data != NULL && b.len == 5, "a buffer with bytes is not trimmed");
	b.len = 0;
	buf_trim(&b, b.cap);
	ok(b.data != NULL, "an empty buffer within the bound keeps its room");
	buf_trim(&b, b.cap - 1);
	ok(b.data == NULL && b.cap == 0, "an empty buffer over the bound gives it back");
	buf_add(&b, "again", 5);
	is_str(buf_cstr(&b), "again", "and takes bytes again");
	buf_free(&b);
	write_all();
	strv_compare();
	find_program();
	path_has_file();
	ok(util_is_shell("sh") && util_is_shell("bash") && util_is_shell("mksh"),
	    "sh, bash, mksh are shells whose -c runs a string");
	ok(!util_is_shell("python3") && !util_is_shell("/bin/sh") &&
	    !util_is_shell("bash5") && !util_is_shell(""),
	    "not a program of another name, nor a path (a base name only)");
	is_int(util_hex_value('7') + util_hex_value('a') + util_hex_value('F'),
	    7 + 10 + 15, "hex digits of both cases");
	is_int(util_hex_value('g'), -1, "and not another letter");
	return tap_done();
}
