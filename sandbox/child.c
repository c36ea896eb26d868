/*
 * child.c - sandbox_child(), the pre-exec hook: every stage of the sandbox
 * in order, in the forked child, each checked.
 *
 * Order: signals and fds; a parent-death signal (the relay must not
 * outlive ptyvisor) and the check that ptyvisor still lives; the session's
 * cgroups (pids, memory); namespaces (which fork a filtered network's
 * proxy outside them, then the relay and the init) and mounts; chdir;
 * resource bounds; parent-death signal, no_new_privs and capabilities;
 * Landlock; the exec checks' filter, its listener handed to the parent;
 * seccomp.  The first failure returns -1 with a stage (in the namespaces,
 * where the command is a process of its own, it goes to the pty module's
 * continuation instead), and the pty module reports it instead of running
 * the command: there is no way past a stage that did not apply.  Under
 * danger-full-access the hook does nothing.
 */
#include "sandbox/sandbox.h"
#include "sandbox/sandbox-int.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * Close every fd from 3 up but report_fd and the relay's end channel
 * (sb->end_fd, -1 if none); 0, or -1 (errno).
 */
static int
close_others(const struct sandbox *sb, int report_fd)
{
	int	keep[2], i, from = 3;

	keep[0] = report_fd < sb->end_fd ? report_fd : sb->end_fd;
	keep[1] = report_fd < sb->end_fd ? sb->end_fd : report_fd;
	for (i = 0; i < 2; i++) {
		if (keep[i] < from)
			continue;
		if (keep[i] > from &&
		    syscall(SYS_close_range, from, keep[i] - 1, 0) != 0)
			return -1;
		from = keep[i] + 1;
	}
	return syscall(SYS_close_range, from, ~0U, 0) == 0 ? 0 : -1;
}

/* Default dispositions, an empty mask, no fd above 2 but ours. */
static int
reset_process(struct sandbox *sb, int report_fd)
{
	struct sigaction	sa;
	sigset_t		none;
	int			sig;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &sa, NULL);	/* EINVAL for KILL/STOP */
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) != 0)
		goto fail;
	if (close_others(sb, report_fd) != 0)
		goto fail;
	return 0;
fail:
	sandbox_set_stage(sb, "signals and fds");
	return -1;
}

/*
 * The stages the command takes in its own process, inside the namespaces
 * (or in the hook's process without them).
 */
static int
command_stages(struct sandbox *sb, int report_fd)
{
	if (sb->in_ns && sandbox_ns_mount(sb) != 0)
		return -1;
	if (chdir(sb->cwd) != 0) {
		sandbox_set_stage(sb, "chdir: %s", sb->cwd);
		return -1;
	}
	if (sandbox_limits_apply(sb) != 0)
		return -1;
	if (sandbox_caps_apply(sb) != 0)
		return -1;
	if (sandbox_landlock_apply(sb) != 0)
		return -1;
	/* Before the main filter, which refuses a listener inside. */
	if (sandbox_exec_apply(sb, report_fd) != 0)
		return -1;
	if (sandbox_seccomp_apply(sb) != 0)
		return -1;
	return 0;
}

/* The command's process in the namespaces: its stages, then the exec. */
struct command_ctx {
	struct sandbox	*sb;
	int		 report_fd;
	void		(*then)(void *, const char *);
	void		*then_ctx;
};

/*
 * In the command's process (failed NULL): its stages, then the exec or
 * the failure; in the init's (failed set): that failure.  Never returns.
 */
static void
command_run(void *arg, const char *failed)
{
	struct command_ctx	*c = arg;

	if (failed == NULL && command_stages(c->sb, c->report_fd) != 0)
		failed = c->sb->stage;
	c->then(c->then_ctx, failed);
	_exit(125);	/* then() does not return */
}

int
sandbox_child(void *arg, int report_fd, const char **stage,
    void (*then)(void *, const char *), void *then_ctx)
{
	struct sandbox		*sb = arg;
	struct command_ctx	 c;

	sb->stage[0] = '\0';
	*stage = sb->stage;
	if (sb->opts.profile == SANDBOX_FULL_ACCESS)
		return 0;

	if (reset_process(sb, report_fd) != 0)
		return -1;
	/* The relay must not outlive ptyvisor either. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
		sandbox_set_stage(sb, "parent death signal");
		return -1;
	}
	if (getppid() != sb->parent) {
		sandbox_set_stage(sb, "parent death signal");
		errno = ESRCH;
		return -1;
	}
	if (sandbox_cgroup_join(sb) != 0)
		return -1;
	c.sb = sb;
	c.report_fd = report_fd;
	c.then = then;
	c.then_ctx = then_ctx;
	if (sandbox_ns_enter(sb, report_fd, command_run, &c) != 0)
		return -1;
	/* No namespaces (allowed): the command's stages in this process. */
	return command_stages(sb, report_fd);
}
