/*
 * execcheck.c - exec checks: a second seccomp filter that sends every
 * execve and execveat of the sandboxed tree to ptyvisor (user
 * notification), and the supervisor's side of it: taking a waiting exec
 * (read by exec-read.c) and answering it.
 *
 * The filter is built in the parent with libseccomp and exported as a
 * BPF program, so the child loads it with flags libseccomp 2.5 cannot
 * set: SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (Linux 5.19) keeps an exec
 * that a person is being asked about from being sent again under a new
 * id whenever a signal arrives.  The child passes the listener to the
 * parent over the pty's report channel and closes its own copy before
 * anything of the command runs: nothing inside can answer for itself.
 * Only the native ABI is in the filter; any other kills.  The main filter
 * (seccomp.c) refuses a listener of the sandbox's own.  The filter also
 * sends clone with CLONE_THREAD, answered at once: the tree then knows
 * which of its processes have threads (exec-read.c reads less while none
 * has); a thread costs one round trip, an exec no longer a /proc lookup.
 *
 * Until the command's own exec has happened the parent waits in
 * pty_spawn(), so it answers the execs of that wait itself
 * (sandbox_exec_prestart): the command being started, approved already,
 * tried along PATH.  One that came after the exec is kept for the
 * session's watcher (sandbox_exec_deferred).
 *
 * What a waiting exec asks is read from the caller's memory, then the
 * notification's id checked still valid, so the pid was not reused
 * meanwhile.  Another thread sharing that memory can still change it
 * after it is read: doc/policy.md says what that leaves.
 */
#include "sandbox/sandbox.h"
#include "sandbox/sandbox-int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/util.h"
#include "pty/pty.h"

#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif
#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE (1UL << 0)
#endif
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS	_IOW('!', 4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

/*
 * The program, built by the first sandbox that wants it: it depends on
 * nothing of a sandbox's, and building it (libseccomp, a memfd) is work
 * every session start would otherwise repeat.  Never freed.
 */
static struct sandbox_bpf	*exec_built;

bool
sandbox_exec_available(char *why, size_t len)
{
	struct seccomp_notif_sizes	sizes;
	char				buf[16];
	int				scope = 0;

	if (seccomp_api_get() < 5) {
		snprintf(why, len, "libseccomp cannot use user notification "
		    "(API level %u, 5 needed)", seccomp_api_get());
		return false;
	}
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0) {
		snprintf(why, len, "this kernel has no seccomp user "
		    "notification (Linux 5.0 and later have it): %s",
		    strerror(errno));
		return false;
	}
	/* Yama: reading a sandboxed program's memory needs ptrace rights. */
	if (util_read_text("/proc/sys/kernel/yama/ptrace_scope", buf,
	    sizeof buf))
		scope = atoi(buf);
	if (scope >= 3 || (scope == 2 && geteuid() != 0)) {
		snprintf(why, len, "kernel.yama.ptrace_scope is %d: ptyvisor "
		    "may not read what a sandboxed program asks to exec", scope);
		return false;
	}
	return true;
}

/* Build the filter and export it (parent); -1 with *cause. */
static int
exec_prog_build(struct sandbox_bpf *p, char **cause)
{
	scmp_filter_ctx	 ctx;
	int		 r;

	if ((ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL) {
		*cause = xstrdup("exec checks: cannot initialise libseccomp");
		return -1;
	}
	r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS);
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY,
		    SCMP_SYS(execve), 0);
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY,
		    SCMP_SYS(execveat), 0);
	/* A thread being made: the tree learns it has one (exec-read.c). */
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(clone), 1,
		    SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
	/*
	 * clone3 hides its flags in memory, so a thread it made would go
	 * untold: libc falls back to clone.  The main filter says the same;
	 * said here too, what the tree knows does not hang on it.
	 */
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
		    SCMP_SYS(clone3), 0);
	if (r != 0) {
		*cause = xasprintf("exec checks: filter: %s", strerror(-r));
		goto fail;
	}
	if (sandbox_bpf_export(ctx, p, "exec checks", cause) != 0)
		goto fail;
	seccomp_release(ctx);
	return 0;
fail:
	seccomp_release(ctx);
	return -1;
}

int
sandbox_exec_prepare(struct sandbox *sb, char **cause)
{
	struct sandbox_bpf	*p;
	char			 why[256];

	sb->exec_why[0] = '\0';
	if (sb->opts.exec_checks == SANDBOX_EXEC_OFF)
		return 0;
	if (!sandbox_exec_available(why, sizeof why)) {
		if (sb->opts.exec_checks == SANDBOX_EXEC_REQUIRED) {
			*cause = xasprintf("exec checks: %s; the rules need "
			    "them, so the command is not run", why);
			return -1;
		}
		snprintf(sb->exec_why, sizeof sb->exec_why, "%s", why);
		return 0;
	}
	/* The same program for every sandbox: built once, kept. */
	if (exec_built == NULL) {
		p = xcalloc(1, sizeof *p);
		if (exec_prog_build(p, cause) != 0) {
			free(p);
			if (sb->opts.exec_checks == SANDBOX_EXEC_REQUIRED)
				return -1;
			snprintf(sb->exec_why, sizeof sb->exec_why, "%s",
			    *cause);
			free(*cause);
			*cause = NULL;
			return 0;
		}
		exec_built = p;
	}
	sb->exec_prog = exec_built;
	return 0;
}

void
sandbox_exec_free(struct sandbox *sb)
{
	sb->exec_prog = NULL;	/* exec_built's, kept for the next one */
	sandbox_exec_tree_free(sb->exec_tree);
	sb->exec_tree = NULL;
	if (sb->exec_deferred != NULL) {
		sandbox_exec_call_free(sb->exec_deferred);
		free(sb->exec_deferred);
		sb->exec_deferred = NULL;
	}
}

bool
sandbox_exec_checks_on(const struct sandbox *sb)
{
	return sb != NULL && sb->exec_prog != NULL &&
	    sb->opts.profile != SANDBOX_FULL_ACCESS;
}

int
sandbox_exec_apply(struct sandbox *sb, int report_fd)
{
	struct sandbox_bpf	*p = sb->exec_prog;
	struct sock_fprog	 prog;
	long			 fd;

	if (p == NULL)
		return 0;
	prog.len = p->len;
	prog.filter = p->insns;
	fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    SECCOMP_FILTER_FLAG_NEW_LISTENER |
	    SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &prog);
	/* Before Linux 5.19: a waiting exec a signal interrupts is re-sent. */
	if (fd < 0 && errno == EINVAL)
		fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		    SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (fd < 0) {
		sandbox_set_stage(sb, "exec checks: load the filter");
		return -1;
	}
	if (pty_pass_fd(report_fd, (int)fd) != 0) {
		int e = errno;

		close((int)fd);
		sandbox_set_stage(sb, "exec checks: hand over the listener");
		errno = e;
		return -1;
	}
	/* Ours must go: the command could answer its own execs with it. */
	if (close((int)fd) != 0) {
		sandbox_set_stage(sb, "exec checks: close the listener");
		return -1;
	}
	return 0;
}

struct sandbox_exec_tree *
sandbox_exec_tree(struct sandbox *sb)
{
	if (sb == NULL)
		return NULL;
	if (sb->exec_tree == NULL)
		sb->exec_tree = sandbox_exec_tree_new();
	return sb->exec_tree;
}

/* Whether req is a thread being made (else an exec). */
static bool
exec_is_thread(const struct seccomp_notif *req)
{
	static int	nr_clone = -1;

	if (nr_clone < 0)
		nr_clone = seccomp_syscall_resolve_name("clone");
	return req->data.nr == nr_clone;
}

/* Receive one notification into *req (allocated by libseccomp). */
static int
exec_recv(int fd, struct seccomp_notif **req)
{
	struct seccomp_notif_resp	*resp;
	int				 r;

	if (seccomp_notify_alloc(req, &resp) != 0)
		return -1;
	seccomp_notify_free(NULL, resp);
	if ((r = seccomp_notify_receive(fd, *req)) != 0) {
		seccomp_notify_free(*req, NULL);
		*req = NULL;
		errno = -r;
		return -1;
	}
	return 0;
}

int
sandbox_exec_receive(struct sandbox_exec_tree *t, int fd,
    struct sandbox_exec_call *c)
{
	struct seccomp_notif	*req;

	sandbox_exec_call_init(c);
	if (exec_recv(fd, &req) != 0)
		return -1;
	if (exec_is_thread(req)) {
		sandbox_exec_thread(t, req);
		sandbox_exec_answer(fd, req->id, 0);
		seccomp_notify_free(req, NULL);
		return 1;
	}
	c->id = req->id;
	sandbox_exec_read(t, fd, req, c);
	seccomp_notify_free(req, NULL);
	/* Read from a pid that may have died and been reused meanwhile. */
	if (seccomp_notify_id_valid(fd, c->id) != 0) {
		sandbox_exec_call_free(c);
		errno = ENOENT;
		return -1;
	}
	return 0;
}

void
sandbox_exec_sync_wakeups(int fd)
{
	/* Linux 6.6; older kernels refuse it and wake as before. */
	(void)ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
	    (unsigned long)SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
}

bool
sandbox_exec_answerable(int fd, uint64_t id)
{
	return seccomp_notify_id_valid(fd, id) == 0;
}

int
sandbox_exec_answer(int fd, uint64_t id, int err)
{
	struct seccomp_notif_resp	*resp;
	struct seccomp_notif		*unused;
	int				 r;

	if (seccomp_notify_alloc(&unused, &resp) != 0)
		return -1;
	seccomp_notify_free(unused, NULL);
	resp->id = id;
	resp->val = 0;
	resp->error = err != 0 ? -err : 0;
	resp->flags = err != 0 ? 0 : SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	r = seccomp_notify_respond(fd, resp);
	seccomp_notify_free(NULL, resp);
	if (r != 0) {
		errno = -r;
		return -1;
	}
	return 0;
}

void
sandbox_exec_prestart(void *arg, int fd, int report_fd)
{
	struct sandbox		*sb = arg;
	struct sandbox_exec_tree *t = sandbox_exec_tree(sb);
	struct seccomp_notif	*req;
	struct sandbox_exec_call c;

	if (exec_recv(fd, &req) != 0)
		return;
	/* A thread: noted (the command itself makes none before its exec). */
	if (exec_is_thread(req)) {
		sandbox_exec_thread(t, req);
		sandbox_exec_answer(fd, req->id, 0);
		seccomp_notify_free(req, NULL);
		return;
	}
	/*
	 * Received before the command exec'd: the command itself, tried
	 * along PATH, which was approved.  After: some program it runs,
	 * for the watcher to judge like every other.
	 */
	if (!pty_report_ready(report_fd)) {
		sandbox_exec_answer(fd, req->id, 0);
		seccomp_notify_free(req, NULL);
		return;
	}
	/* Only one can come between the exec and our read of its EOF. */
	if (sb->exec_deferred != NULL) {
		sandbox_exec_answer(fd, req->id, EACCES);
		seccomp_notify_free(req, NULL);
		return;
	}
	sandbox_exec_call_init(&c);
	c.id = req->id;
	sandbox_exec_read(t, fd, req, &c);
	seccomp_notify_free(req, NULL);
	sb->exec_deferred = xmalloc(sizeof c);
	*sb->exec_deferred = c;
}

bool
sandbox_exec_deferred(struct sandbox *sb, struct sandbox_exec_call *c)
{
	if (sb == NULL || sb->exec_deferred == NULL)
		return false;
	*c = *sb->exec_deferred;
	free(sb->exec_deferred);
	sb->exec_deferred = NULL;
	return true;
}

void
sandbox_exec_explain(const struct sandbox *sb, struct buf *out)
{
	if (sb->opts.exec_checks == SANDBOX_EXEC_OFF)
		buf_printf(out, "  exec checks     off here (sessions of the "
		    "console and of serve have them)\n");
	else if (sb->exec_prog != NULL)
		buf_printf(out, "  exec checks     every execve/execveat of "
		    "the tree sent to ptyvisor (seccomp user notification), "
		    "logged and judged [%s]\n",
		    sb->opts.exec_checks == SANDBOX_EXEC_REQUIRED ?
		    "required" : "best-effort");
	else
		buf_printf(out, "  exec checks     unavailable: %s [%s]\n",
		    sb->exec_why, sb->opts.exec_checks ==
		    SANDBOX_EXEC_REQUIRED ? "required: the command will not "
		    "run" : "best-effort: no exec log");
}
