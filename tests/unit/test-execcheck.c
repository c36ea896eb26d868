/*
 * test-execcheck.c - the supervisor's side of exec checks
 * (sandbox/execcheck.c, sandbox/exec-read.c): /proc/PID/stat fields,
 * paths made absolute, and, with a real listener on a real child, what a waiting
 * exec asks read from its memory (words with spaces, empty ones, long
 * ones across pages, too many of them), the file for a relative path and
 * for execveat on a descriptor, a file that is not there (its words not
 * read), its directory and parent (for an absolute path, read after the
 * answer), a thread being made (noted, let go; the next exec of its
 * process then shared), and the answer: refused with an errno, or let go.
 */
#include "sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "pty/pty.h"
#include "tests/tap.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

extern char **environ;

/* A thread that waits until its process execs (or ends). */
static void *
idle_thread(void *arg)
{
	char	c;

	(void)read(*(int *)arg, &c, 1);
	return NULL;
}

/* The child: a listener handed over on fd, then six execs. */
static void __attribute__((noreturn))
child(int fd, const char *dir)
{
	scmp_filter_ctx	 ctx;
	pthread_t	 th;
	char		*many[300], *big, *one[] = { "one", "", "with space",
			    NULL, NULL };
	int		 lfd, refused = 0, i, tfd, p[2];

	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if ((ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL ||
	    seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(execve), 0) != 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(execveat), 0) != 0
	    || seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(clone), 1,
	    SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)) != 0
	    || seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3),
	    0) != 0 || seccomp_load(ctx) != 0 || (lfd = seccomp_notify_fd(ctx)) < 0)
		_exit(100);
	if (pty_pass_fd(fd, lfd) != 0)
		_exit(101);
	close(lfd);
	close(fd);
	if (chdir(dir) != 0 || pipe(p) != 0)
		_exit(102);
	/* A long word: across a page boundary, read in pieces. */
	big = xmalloc(9000);
	memset(big, 'b', 8999);
	big[8999] = '\0';
	one[3] = big;
	execve("./nothere", one, environ);
	refused += errno == ENOENT;
	execve("./there", one, environ);
	refused += errno == EACCES;
	for (i = 0; i < 299; i++)
		many[i] = (char *)"w";
	many[299] = NULL;
	execve("/bin/true", many, environ);
	refused += errno == EACCES;
	tfd = open("/bin/true", O_RDONLY | O_CLOEXEC);
	syscall(SYS_execveat, tfd, "", one, environ, AT_EMPTY_PATH);
	refused += errno == EACCES;
	if (pthread_create(&th, NULL, idle_thread, &p[0]) != 0)
		_exit(103);
	execve("/bin/true", one, environ);
	refused += errno == EACCES;
	/* Let go: true runs, its status is 0 and says nothing; refused
	 * counts show in the exit status only when the exec fails. */
	if (refused != 5)
		_exit(110 + refused);
	execve("/bin/true", one, environ);
	_exit(120);
}

/* Receive the listener the child passes. */
static int
take_fd(int sock)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int))];
	}			 ctl;
	struct msghdr		 msg;
	struct iovec		 iov;
	struct cmsghdr		*c;
	char			 byte;
	int			 fd = -1;

	memset(&msg, 0, sizeof msg);
	iov.iov_base = &byte;
	iov.iov_len = 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof ctl.buf;
	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (c != NULL && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof fd);
	return fd;
}

static void
test_live(void)
{
	struct sandbox_exec_call	 c;
	struct sandbox_exec_tree	*t;
	char				 dir[] = "/tmp/pv-execchk.XXXXXX";
	char				 why[256], *want, *there;
	int				 sv[2], lfd, st, fd;
	pid_t				 pid;

	if (!sandbox_exec_available(why, sizeof why)) {
		char	*msg = xasprintf("exec checks unavailable here: %s",
			    why);

		tap_skip(26, msg);
		free(msg);
		return;
	}
	if (mkdtemp(dir) == NULL ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		fatal("test setup");
	there = xasprintf("%s/there", dir);
	if ((fd = open(there, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) < 0)
		fatal("test setup: %s", there);
	close(fd);
	t = sandbox_exec_tree_new();
	if ((pid = fork()) == 0) {
		close(sv[0]);
		child(sv[1], dir);
	}
	close(sv[1]);
	lfd = take_fd(sv[0]);
	ok(lfd >= 0, "the child handed over its listener");

	/* 1: a relative path, not there: its words not even read. */
	ok(sandbox_exec_receive(t, lfd, &c) == 0, "first exec received");
	is_int(c.pid, pid, "its pid, in our namespace");
	is_str(c.cwd, dir, "its directory, read for a relative path");
	want = xasprintf("%s/nothere", dir);
	is_str(c.path, want, "a relative path made absolute");
	free(want);
	ok(!c.has_st && c.st_errno == ENOENT && c.argv == NULL &&
	    c.error == NULL, "a file that is not there, its words not read");
	ok(sandbox_exec_answer(lfd, c.id, ENOENT) == 0, "answered ENOENT");
	sandbox_exec_call_free(&c);

	/* 2: odd words, a long one. */
	ok(sandbox_exec_receive(t, lfd, &c) == 0, "second exec received");
	ok(c.has_st && c.size == 0, "./there is there");
	ok(c.argv != NULL && strv_len(c.argv) == 4 &&
	    strcmp(c.argv[0], "one") == 0 && strcmp(c.argv[1], "") == 0 &&
	    strcmp(c.argv[2], "with space") == 0 &&
	    strlen(c.argv[3]) == 8999 && c.error == NULL && !c.argv_cut,
	    "its words, empty, spaced and long, exactly");
	ok(!c.shared, "no thread in the tree: not shared");
	sandbox_exec_complete(&c);
	is_int(c.ppid, getpid(), "its parent");
	ok(sandbox_exec_answerable(lfd, c.id), "it waits for an answer");
	ok(sandbox_exec_answer(lfd, c.id, EACCES) == 0, "refused");
	ok(!sandbox_exec_answerable(lfd, c.id), "and waits no more");
	sandbox_exec_call_free(&c);

	/* 3: too many words; an absolute path. */
	ok(sandbox_exec_receive(t, lfd, &c) == 0, "third exec received");
	ok(c.argv_cut && strv_len(c.argv) == 256,
	    "299 words: the first 256 read, and said to be cut");
	ok(c.has_st && c.size > 0 && c.file_fd >= 0,
	    "/bin/true is there, found from the tree's root");
	ok(c.cwd == NULL && c.ppid == 0 && !c.complete,
	    "an absolute path: directory and parent not read before the "
	    "answer");
	sandbox_exec_answer(lfd, c.id, EACCES);
	sandbox_exec_complete(&c);
	ok(c.complete && c.ppid == getpid() && c.cwd != NULL &&
	    strcmp(c.cwd, dir) == 0, "and read after it");
	sandbox_exec_call_free(&c);

	/* 4: execveat on a descriptor. */
	ok(sandbox_exec_receive(t, lfd, &c) == 0 && c.at,
	    "execveat received");
	want = realpath("/bin/true", NULL);
	is_str(c.path, want, "the descriptor's file");
	free(want);
	sandbox_exec_answer(lfd, c.id, EACCES);
	sandbox_exec_call_free(&c);

	/* 5: a thread, then an exec its memory is shared with. */
	is_int(sandbox_exec_receive(t, lfd, &c), 1,
	    "a thread being made: noted and let go");
	ok(sandbox_exec_receive(t, lfd, &c) == 0 && c.shared &&
	    c.pidfd >= 0 && c.ppid == getpid(),
	    "the next exec of its process: shared, read in full");
	sandbox_exec_answer(lfd, c.id, EACCES);
	sandbox_exec_call_free(&c);

	/* 6: let go. */
	ok(sandbox_exec_receive(t, lfd, &c) == 0, "last exec received");
	sandbox_exec_answer(lfd, c.id, 0);
	sandbox_exec_call_free(&c);
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "the refusals reached the child as EACCES, the last one ran "
	    "(status %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	close(lfd);
	close(sv[0]);
	sandbox_exec_tree_free(t);
	unlink(there);
	free(there);
	rmdir(dir);
}

int
main(void)
{
	static const int	 f4[] = { 4 }, f4_20[] = { 4, 20 };
	unsigned long		 v[2] = { 0, 0 };
	char			*p;

	ok(sandbox_exec_stat_parse("123 (sh) S 45 123 123 0", f4, v, 1) &&
	    v[0] == 45, "stat: the parent");
	ok(sandbox_exec_stat_parse("7 (a) b) (c) R 9 1", f4, v, 1) &&
	    v[0] == 9, "stat: a name with parentheses and spaces");
	ok(!sandbox_exec_stat_parse("7 (a", f4, v, 1), "stat: malformed");
	ok(sandbox_exec_stat_parse("5 (x y) S 1 5 5 0 -1 4194560 0 0 0 0 0 0 "
	    "0 0 20 0 3 0", f4_20, v, 2) && v[0] == 1 && v[1] == 3,
	    "stat: the parent and the threads");
	ok(!sandbox_exec_stat_parse("5 (x) S 1 5", f4_20, v, 2),
	    "stat: a line short of a field");
	p = sandbox_exec_join("/w", "x/y");
	is_str(p, "/w/x/y", "join: relative");
	free(p);
	p = sandbox_exec_join("/", "x");
	is_str(p, "/x", "join: from the root");
	free(p);
	p = sandbox_exec_join("/w", "././/x");
	is_str(p, "/w/x", "join: ./ dropped");
	free(p);
	p = sandbox_exec_join("/w", "../x");
	is_str(p, "/w/../x", "join: .. kept");
	free(p);
	p = sandbox_exec_join("/w", "/abs");
	is_str(p, "/abs", "join: absolute stays");
	free(p);
	test_live();
	return tap_done();
}
