/*
 * exec-tree.c - the process tree one exec-check listener watches (see
 * sandbox.h): its root, opened once from the first exec read, and the
 * thread groups in it that made threads, each held by a pidfd (so one
 * that ended is known, and a reused pid is never mistaken for it) and
 * forgotten once it has ended.  The filter tells every thread being made
 * (clone with CLONE_THREAD; clone3 is refused, so libc uses clone); while
 * no group of the tree has a thread, no exec's words can be changed by
 * another thread after they are read, and exec-read.c reads nothing more
 * of it from /proc before the answer.  Where a group cannot be told, the
 * tree says so for good (every exec read in full: slower, never unsound).
 */
#include "sandbox/sandbox.h"
#include "sandbox/sandbox-int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/util.h"

pid_t
sandbox_exec_tgid(pid_t pid)
{
	char	 path[64], buf[2048], *p;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if (!util_read_text(path, buf, sizeof buf) ||
	    (p = strstr(buf, "\nTgid:")) == NULL)
		return 0;
	return (pid_t)strtol(p + 6, NULL, 10);
}

/*
 * Thread groups that made threads, kept per tree: past this many live
 * ones every exec is read in full (the tree counts as unknown).
 */
#define EXEC_THREADED_MAX	256

/*
 * Kept only if id still waits (the pid was not reused meanwhile).  Every
 * process of a tree has one root: none can chroot or enter another mount
 * namespace (no capabilities; seccomp).
 */
void
sandbox_exec_tree_root(struct sandbox_exec_tree *t, int fd, pid_t pid,
    uint64_t id)
{
	char	path[64];

	if (t->root >= 0)
		return;
	snprintf(path, sizeof path, "/proc/%d/root", (int)pid);
	t->root = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (t->root >= 0 && seccomp_notify_id_valid(fd, id) != 0) {
		close(t->root);
		t->root = -1;
	}
}

/* Forget the thread groups that have ended (their pidfds readable). */
static void
exec_tree_prune(struct sandbox_exec_tree *t)
{
	struct pollfd	*pfd;
	size_t		 i, k = 0;

	pfd = xcalloc(t->nthreaded, sizeof *pfd);
	for (i = 0; i < t->nthreaded; i++) {
		pfd[i].fd = t->threaded[i];
		pfd[i].events = POLLIN;
	}
	if (poll(pfd, t->nthreaded, 0) < 0) {
		free(pfd);
		return;
	}
	for (i = 0; i < t->nthreaded; i++) {
		if (pfd[i].revents != 0) {
			close(t->threaded[i]);
			continue;
		}
		t->threaded[k] = t->threaded[i];
		t->threaded_pid[k++] = t->threaded_pid[i];
	}
	t->nthreaded = k;
	free(pfd);
}

bool
sandbox_exec_tree_quiet(struct sandbox_exec_tree *t)
{
	if (t->unknown)
		return false;
	if (t->nthreaded > 0)
		exec_tree_prune(t);
	return t->nthreaded == 0;
}

void
sandbox_exec_thread(struct sandbox_exec_tree *t,
    const struct seccomp_notif *req)
{
	pid_t	 pid = (pid_t)req->pid;
	size_t	 i;
	long	 pfd;

	for (i = 0; i < t->nthreaded; i++)
		if (t->threaded_pid[i] == pid)
			return;
	/* A thread that is not its group's leader: the group's pidfd. */
	pfd = syscall(SYS_pidfd_open, pid, 0);
	if (pfd < 0 && errno == EINVAL) {
		pid = sandbox_exec_tgid(pid);
		for (i = 0; pid > 0 && i < t->nthreaded; i++)
			if (t->threaded_pid[i] == pid)
				return;
		pfd = pid > 0 ? syscall(SYS_pidfd_open, pid, 0) : -1;
	}
	if (pfd >= 0 && t->nthreaded == EXEC_THREADED_MAX)
		exec_tree_prune(t);
	if (pfd < 0 || t->nthreaded == EXEC_THREADED_MAX) {
		/* Not told: every exec of the tree read in full from now. */
		if (pfd >= 0)
			close((int)pfd);
		t->unknown = true;
		return;
	}
	t->threaded = xreallocarray(t->threaded, t->nthreaded + 1,
	    sizeof *t->threaded);
	t->threaded_pid = xreallocarray(t->threaded_pid, t->nthreaded + 1,
	    sizeof *t->threaded_pid);
	t->threaded[t->nthreaded] = (int)pfd;
	t->threaded_pid[t->nthreaded++] = pid;
}

struct sandbox_exec_tree *
sandbox_exec_tree_new(void)
{
	struct sandbox_exec_tree	*t = xcalloc(1, sizeof *t);

	t->root = -1;
	return t;
}

void
sandbox_exec_tree_free(struct sandbox_exec_tree *t)
{
	size_t	i;

	if (t == NULL)
		return;
	if (t->root >= 0)
		close(t->root);
	for (i = 0; i < t->nthreaded; i++)
		close(t->threaded[i]);
	free(t->threaded);
	free(t->threaded_pid);
	free(t);
}

