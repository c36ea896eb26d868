/*
 * pty.c - spawn a command on a new pseudo-terminal (see pty.h).
 *
 * Invariants: the parent keeps only the master, non-blocking and
 * close-on-exec (and, when the caller replaces some of 0-2, one slave fd,
 * close-on-exec, so the PTY never reads as hung up); the child reports any
 * failure before exec through a close-on-exec channel, so EOF on it means
 * exec succeeded.  The channel is a SOCK_SEQPACKET pair: each message is a
 * failure report or a descriptor a hook passes (SCM_RIGHTS, one byte of
 * data), never split or merged.  The process
 * is single-threaded, so the child may use ordinary libc calls before exec.
 */
#include "pty/pty.h"

#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

extern char **environ;


/* The one byte a passed descriptor travels with. */
#define PTY_PASS_BYTE 'F'

/* Close every fd from lo up except keep and keep2 (each -1 or any). */
static void
close_from(int lo, int keep, int keep2)
{
	long	max, fd;
	int	k[2], i, from = lo;

	/* The kept ones in order, each above lo or dropped. */
	k[0] = keep < keep2 ? keep : keep2;
	k[1] = keep < keep2 ? keep2 : keep;
	for (i = 0; i < 2; i++) {
		if (k[i] < from)
			continue;
		if (k[i] > from &&
		    syscall(SYS_close_range, from, k[i] - 1, 0) != 0)
			goto walk;
		from = k[i] + 1;
	}
	if (syscall(SYS_close_range, from, ~0U, 0) == 0)
		return;
walk:
	/* Kernels before 5.9 lack close_range: walk the table. */
	max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	for (fd = lo; fd < max; fd++)
		if (fd != keep && fd != keep2)
			close((int)fd);
}

/* In the child: report a failure on fd and exit; never returns. */
static void __attribute__((noreturn))
child_fail(int fd, const char *stage, int err, int status)
{
	struct pty_report	r;
	ssize_t			n;

	memset(&r, 0, sizeof r);
	r.err = err;
	r.status = status;
	snprintf(r.stage, sizeof r.stage, "%s", stage);
	do
		n = send(fd, &r, sizeof r, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	_exit(status);
}

/* What the child does after its hook (child_then). */
struct child_ctx {
	const struct pty_spec	*spec;
	int			 report;
};

/* The hook's continuation: chdir, umask and exec, or the failure. */
static void __attribute__((noreturn))
child_then(void *arg, const char *stage)
{
	struct child_ctx	*ctx = arg;
	const struct pty_spec	*spec = ctx->spec;
	char			 what[160];
	int			 err;

	if (stage != NULL)
		child_fail(ctx->report, stage, errno, 125);
	if (spec->cwd != NULL && chdir(spec->cwd) != 0) {
		snprintf(what, sizeof what, "chdir: %s", spec->cwd);
		child_fail(ctx->report, what, errno, 125);
	}
	if (spec->has_umask)
		umask(spec->umask);
	if (spec->envp != NULL)
		environ = (char **)spec->envp;
	execvp(spec->argv[0], spec->argv);
	err = errno;
	/*
	 * execvp says EACCES for a $PATH directory it may not search as for
	 * a file it may not run; a shell skips the directory, so the name is
	 * not found (127) unless some directory holds it as a file.
	 */
	if (err == EACCES && strchr(spec->argv[0], '/') == NULL &&
	    !util_path_has_file(spec->argv[0]))
		err = ENOENT;
	snprintf(what, sizeof what, "exec: %s", spec->argv[0]);
	child_fail(ctx->report, what, err,
	    err == ENOENT || err == ENOTDIR ? 127 : 126);
}

/* In the child: become the terminal's session leader and exec; never returns. */
static void __attribute__((noreturn))
child_run(const struct pty_spec *spec, const char *slave_name, int report)
{
	struct child_ctx	ctx;
	struct sigaction	sa;
	sigset_t		all;
	const char		*stage = "pre-exec";
	int			sig, fd;

	/* Default dispositions and an empty mask: the parent blocks signals. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++) {
		/*
		 * libc refuses the signals it reserves for itself (32 and 33
		 * with glibc), but an ignored one would still be inherited
		 * across exec: reset those through the kernel directly.  An
		 * all-zero kernel sigaction is SIG_DFL on every architecture.
		 */
		if (sigaction(sig, &sa, NULL) != 0 && errno == EINVAL) {
			unsigned long	ksa[8];

			memset(ksa, 0, sizeof ksa);
			syscall(SYS_rt_sigaction, sig, ksa, NULL,
			    (size_t)(NSIG / 8));
		}
	}
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);

	/* The report channel must survive the dup2s onto 0-2 below. */
	if (report <= 2 && (report = fcntl(report, F_DUPFD_CLOEXEC, 3)) < 0)
		_exit(125);
	if (slave_name == NULL)
		goto hook;
	if (setsid() < 0)
		child_fail(report, "setsid", errno, 125);
	fd = open(slave_name, O_RDWR);
	if (fd < 0)
		child_fail(report, "open terminal", errno, 125);
	if (ioctl(fd, TIOCSCTTY, 0) < 0)
		child_fail(report, "controlling terminal", errno, 125);
	if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		child_fail(report, "dup2", errno, 125);
	if (fd > 2)
		close(fd);
	/* Pipes in place of some of 0-2: the terminal stays controlling. */
	for (fd = 0; spec->stdio != NULL && fd < 3; fd++)
		if (spec->stdio[fd] >= 0 && dup2(spec->stdio[fd], fd) < 0)
			child_fail(report, "dup2", errno, 125);
hook:
	close_from(3, report, spec->keep_fd > 2 ? spec->keep_fd : -1);
	if (spec->open_files != 0) {
		struct rlimit	rl;

		if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
			child_fail(report, "getrlimit open files", errno, 125);
		rl.rlim_cur = (rlim_t)spec->open_files;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			child_fail(report, "setrlimit open files", errno, 125);
	}

	ctx.spec = spec;
	ctx.report = report;
	if (spec->pre_exec != NULL && spec->pre_exec(spec->pre_exec_arg,
	    report, &stage, child_then, &ctx) != 0)
		child_fail(report, stage, errno, 125);
	child_then(&ctx, NULL);
}

/* Fill a failure record from the parent side. */
static int
parent_fail(struct pty_failure *fail, const char *stage, int err)
{
	snprintf(fail->stage, sizeof fail->stage, "%s", stage);
	fail->err = err;
	fail->status = 125;
	return -1;
}

/* Open the master side, sized; returns its fd and the slave's name. */
static int
open_master(struct pty_size size, char *name, size_t len)
{
	struct winsize	ws;
	int		fd;

	fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	memset(&ws, 0, sizeof ws);
	ws.ws_col = size.cols ? size.cols : 80;
	ws.ws_row = size.rows ? size.rows : 24;
	if (grantpt(fd) != 0 || unlockpt(fd) != 0 ||
	    ptsname_r(fd, name, len) != 0 ||
	    ioctl(fd, TIOCSWINSZ, &ws) != 0 ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Room for one descriptor in a message, aligned as a cmsghdr. */
union pty_fd_room {
	struct cmsghdr	hdr;
	char		buf[CMSG_SPACE(sizeof(int))];
};

/* A message of one piece of data and room for one descriptor. */
static void
pty_msg(struct msghdr *msg, struct iovec *iov, void *data, size_t len,
    void *ctl, size_t ctllen)
{
	memset(msg, 0, sizeof *msg);
	memset(ctl, 0, ctllen);
	iov->iov_base = data;
	iov->iov_len = len;
	msg->msg_iov = iov;
	msg->msg_iovlen = 1;
	msg->msg_control = ctl;
	msg->msg_controllen = ctllen;
}

/*
 * One message from the report channel: a failure report (its size in
 * *got) or a passed descriptor (kept in *passed, a second one closed).
 * 0 at EOF, 1 for a message, -1 on error.
 */
static int
pty_read_report(int fd, struct pty_report *r, size_t *got, int *passed)
{
	union pty_fd_room	 ctl;
	struct msghdr		 msg;
	struct cmsghdr		*c;
	struct iovec		 iov;
	ssize_t			 n;
	int			 pfd;

	pty_msg(&msg, &iov, r, sizeof *r, ctl.buf, sizeof ctl.buf);
	do
		n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return (int)n;
	for (c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len != CMSG_LEN(sizeof(int)))
			continue;
		memcpy(&pfd, CMSG_DATA(c), sizeof pfd);
		if (*passed < 0)
			*passed = pfd;
		else
			close(pfd);
	}
	if ((size_t)n == sizeof *r)
		*got = sizeof *r;
	return 1;
}

int
pty_pass_fd(int report_fd, int fd)
{
	union pty_fd_room	 ctl;
	struct msghdr		 msg;
	struct cmsghdr		*c;
	struct iovec		 iov;
	char			 byte = PTY_PASS_BYTE;
	ssize_t			 n;

	pty_msg(&msg, &iov, &byte, 1, ctl.buf, sizeof ctl.buf);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	do
		n = sendmsg(report_fd, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

bool
pty_report_ready(int report_fd)
{
	struct pollfd	pfd;

	pfd.fd = report_fd;
	pfd.events = POLLIN;
	return poll(&pfd, 1, 0) != 0;
}

int
pty_start(const struct pty_spec *spec, struct pty_start *st,
    struct pty_failure *fail)
{
	char	name[128];
	int	pipefd[2], master, slave = -1, e, i;
	pid_t	pid;

	memset(fail, 0, sizeof *fail);
	memset(st, 0, sizeof *st);
	st->pid = -1;
	st->master = st->slave = st->report = st->passed = -1;
	if (spec->argv == NULL || spec->argv[0] == NULL)
		return parent_fail(fail, "spawn: empty command", EINVAL);
	/* A replacement fd must not be one the child's dup2s overwrite. */
	for (i = 0; spec->stdio != NULL && i < 3; i++)
		if (spec->stdio[i] >= 0 && spec->stdio[i] <= 2)
			return parent_fail(fail, "spawn: stdio fd", EINVAL);

	if (spec->no_pty)
		master = -1;
	else if ((master = open_master(spec->size, name, sizeof name)) < 0)
		return parent_fail(fail, "open pty", errno);
	if (master >= 0 && spec->stdio != NULL && (slave = open(name,
	    O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
		e = errno;
		close(master);
		return parent_fail(fail, "open terminal", e);
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0,
	    pipefd) != 0) {
		e = errno;
		if (master >= 0)
			close(master);
		if (slave >= 0)
			close(slave);
		return parent_fail(fail, "socketpair", e);
	}
	pid = fork();
	if (pid < 0) {
		e = errno;
		if (master >= 0)
			close(master);
		if (slave >= 0)
			close(slave);
		close(pipefd[0]);
		close(pipefd[1]);
		return parent_fail(fail, "fork", e);
	}
	if (pid == 0) {
		if (master >= 0)
			close(master);
		if (slave >= 0)
			close(slave);
		close(pipefd[0]);
		child_run(spec, spec->no_pty ? NULL : name, pipefd[1]);
	}
	close(pipefd[1]);
	/* pty_step() is called when it is readable, and reads no further. */
	(void)fcntl(pipefd[0], F_SETFL, fcntl(pipefd[0], F_GETFL) | O_NONBLOCK);
	st->pid = pid;
	st->master = master;
	st->slave = slave;
	st->report = pipefd[0];
	return 0;
}

int
pty_step(struct pty_start *st, struct pty_child *child,
    struct pty_failure *fail)
{
	struct pty_status	ps;
	int			n;

	memset(fail, 0, sizeof *fail);
	n = pty_read_report(st->report, &st->r, &st->got, &st->passed);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n > 0 && st->got != sizeof st->r)
		return 0;		/* a descriptor: more may come */
	close(st->report);
	st->report = -1;
	if (n > 0) {			/* a report: the child failed */
		snprintf(fail->stage, sizeof fail->stage, "%s", st->r.stage);
		fail->err = st->r.err;
		fail->status = st->r.status;
		pty_reap(st->pid, true, &ps);
		pty_start_close(st);
		return -1;
	}
	/* EOF (or an error reading it, as before): exec happened. */
	child->pid = st->pid;
	child->master = st->master;
	child->slave = st->slave;
	child->passed = st->passed;
	st->pid = -1;
	st->master = st->slave = st->passed = -1;
	return 1;
}

void
pty_start_close(struct pty_start *st)
{
	if (st->report >= 0)
		close(st->report);
	if (st->master >= 0)
		close(st->master);
	if (st->slave >= 0)
		close(st->slave);
	if (st->passed >= 0)
		close(st->passed);
	st->report = st->master = st->slave = st->passed = -1;
	st->pid = -1;
}

int
pty_spawn(const struct pty_spec *spec, struct pty_child *child,
    struct pty_failure *fail)
{
	struct pty_start	st;
	struct pollfd		pfd[2];
	int			n, r;

	child->pid = -1;
	child->master = -1;
	child->slave = -1;
	child->passed = -1;
	if (pty_start(spec, &st, fail) != 0)
		return -1;
	/* Wait for the exec or the failure, serving a passed descriptor. */
	for (;;) {
		pfd[0].fd = st.report;
		pfd[0].events = POLLIN;
		pfd[1].fd = st.passed;
		pfd[1].events = POLLIN;
		n = st.passed >= 0 && spec->passed_ready != NULL ? 2 : 1;
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			pfd[0].revents = POLLERR;	/* as EOF: exec'd */
		}
		/* The report first: what the passed fd says may come after. */
		if (pfd[0].revents != 0) {
			if ((r = pty_step(&st, child, fail)) != 0)
				return r > 0 ? 0 : -1;
			continue;
		}
		if (n == 2 && pfd[1].revents != 0)
			spec->passed_ready(spec->passed_arg, st.passed,
			    st.report);
	}
}

void
pty_failure_str(const struct pty_failure *fail, char *buf, size_t len)
{
	snprintf(buf, len, "%s: %s", fail->stage, strerror(fail->err));
}

int
pty_resize(int master, struct pty_size size)
{
	struct winsize	ws;

	memset(&ws, 0, sizeof ws);
	ws.ws_col = size.cols;
	ws.ws_row = size.rows;
	return ioctl(master, TIOCSWINSZ, &ws);
}

ssize_t
pty_read(int fd, void *buf, size_t len)
{
	ssize_t	n;

	for (;;) {
		n = read(fd, buf, len);
		if (n > 0)
			return n;
		if (n == 0)
			return PTY_EOF;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		if (errno == EIO)	/* Linux: every slave fd is closed */
			return PTY_EOF;
		return -1;
	}
}

ssize_t
pty_write(int fd, const void *buf, size_t len)
{
	ssize_t	n;

	for (;;) {
		n = write(fd, buf, len);
		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		return -1;
	}
}

struct pty_status
pty_status_decode(int wstatus)
{
	struct pty_status	st;

	memset(&st, 0, sizeof st);
	if (WIFSIGNALED(wstatus)) {
		st.signaled = true;
		st.signal = WTERMSIG(wstatus);
		st.core_dumped = WCOREDUMP(wstatus) != 0;
	} else if (WIFEXITED(wstatus))
		st.code = WEXITSTATUS(wstatus);
	return st;
}

int
pty_status_exit_code(struct pty_status st)
{
	return st.signaled ? 128 + st.signal : st.code;
}

int
pty_reap(pid_t pid, bool block, struct pty_status *st)
{
	int	wstatus;
	pid_t	r;

	do
		r = waitpid(pid, &wstatus, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -1;
	if (r == 0)
		return 0;
	*st = pty_status_decode(wstatus);
	return 1;
}

int
pty_kill_group(pid_t pid, int sig)
{
	if (pid <= 0)
		return -1;
	return kill(-pid, sig);
}
