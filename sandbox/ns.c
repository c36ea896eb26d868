/*
 * ns.c - the namespace layer: user (when not root), mount, PID, IPC, UTS
 * and network (unless allowed) namespaces, the read-only view of the
 * filesystem (the writable roots put back, .git dirs kept read-only, a
 * fresh /proc, a devpts of its own where the person's other terminals
 * have no name, a private /tmp when asked for, the relays of the host's
 * UNIX sockets a filtered network names), and the small init a PID
 * namespace needs.
 *
 * Three processes after sandbox_ns_enter() (a filtered network's proxy,
 * forked before it by net.c, is a fourth, outside every namespace):
 *   relay  - the pty child the session waits for; outside the namespace.
 *            Forwards signals sent to it to the init, and when the init
 *            ends, lets the proxy finish (EOF on its channel, which only
 *            the relay holds) and ends the same way as the command (exit
 *            code, or death by the same signal).
 *   init   - PID 1 inside.  Reaps orphans, forwards the relay's signals
 *            (and no other) to the command, and when the command ends
 *            kills everything left in the namespace and hands the
 *            command's wait status to the relay.
 *   command - goes on with the remaining stages and execs (next()).
 * None returns from sandbox_ns_enter(); the relay and the init close the
 * report pipe, so the session sees EOF when the command execs.  Neither
 * init nor command gets a copy of the relay's address space: the init
 * shares it (CLONE_VM; it only waits), and so does the command until its
 * exec (CLONE_VM | CLONE_VFORK, its init waiting meanwhile).  On this
 * path a fork's copy of the page tables and the pages each process then
 * writes again cost more than the rest of the work (bench/README.md).
 * Signals the terminal sends to its foreground group (SI_KERNEL) reach the
 * command directly and are not forwarded twice.  If the relay dies, the
 * init gets SIGKILL (parent-death signal) and the namespace goes with it.
 * Where the namespaces cannot be made the command runs without them only
 * when allow_no_namespaces says so, and never with a filtered network.
 */
#include "sandbox/sandbox-int.h"

#include <alloca.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

/* Signals relay and init pass on to the command. */
static const int ns_forwarded[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
	SIGWINCH, SIGCONT
};

/*
 * The relay passes a signal on to the init as a real-time signal
 * (NS_RELAY_SIG) whose value is NS_RELAYED_TAG << 8 | the signal, and the
 * init passes on only those.  The init is also in the relay's process
 * group, so a signal to that group reaches it directly too: passing that
 * on as well would reach the command twice.  And it must be another
 * signal: a standard signal is pending once at most, so the relay's
 * SIGHUP queued while the group's own SIGHUP was still pending at the
 * init was merged into it and lost, and the command lived on until the
 * session's SIGKILL (control.sh saw 137 about one run in five).
 */
#define NS_RELAY_SIG	(SIGRTMIN)
#define NS_RELAYED_TAG	0x707479

/* The relay's watch on the guarded paths announces itself so. */
#define NS_WATCH_SIG	(SIGRTMIN + 1)

/* Job-control stops: the command gets them itself; relay and init never stop. */
static const int ns_ignored[] = { SIGTSTP, SIGTTIN, SIGTTOU };

/* The namespace flags this policy asks for (user aside). */
static int
ns_flags(bool network)
{
	int	flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS;

	if (!network)
		flags |= CLONE_NEWNET;
	return flags;
}

/* Enter a user namespace where we keep our own uid and gid. */
static int
enter_userns(struct sandbox *sb)
{
	char	map[64];
	uid_t	uid = geteuid();
	gid_t	gid = getegid();
	int	r = -1;

	if (unshare(CLONE_NEWUSER) != 0)
		return -1;
	/* A non-dumpable process may not write its own maps. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	if (sandbox_write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT) {
		sandbox_set_stage(sb, "namespaces: setgroups");
		goto out;
	}
	snprintf(map, sizeof map, "%lu %lu 1\n", (unsigned long)uid,
	    (unsigned long)uid);
	if (sandbox_write_file("/proc/self/uid_map", map) != 0) {
		sandbox_set_stage(sb, "namespaces: uid map");
		goto out;
	}
	snprintf(map, sizeof map, "%lu %lu 1\n", (unsigned long)gid,
	    (unsigned long)gid);
	if (sandbox_write_file("/proc/self/gid_map", map) != 0) {
		sandbox_set_stage(sb, "namespaces: gid map");
		goto out;
	}
	r = 0;
out:
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	return r;
}

/* The signal set relay and init wait on. */
static void
wait_set(sigset_t *set)
{
	size_t	i;

	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, NS_RELAY_SIG);
	sigaddset(set, NS_WATCH_SIG);
	for (i = 0; i < sizeof ns_forwarded / sizeof ns_forwarded[0]; i++)
		sigaddset(set, ns_forwarded[i]);
	for (i = 0; i < sizeof ns_ignored / sizeof ns_ignored[0]; i++)
		sigaddset(set, ns_ignored[i]);
}

/* Whether a signal received by relay or init goes on to pid. */
static bool
is_forwarded(const siginfo_t *si)
{
	size_t	i;

	/* The terminal signals its whole foreground group itself. */
	if (si->si_code == SI_KERNEL)
		return false;
	for (i = 0; i < sizeof ns_ignored / sizeof ns_ignored[0]; i++)
		if (si->si_signo == ns_ignored[i])
			return false;
	return true;
}

/* End this process the way wstatus says the command ended. */
static void __attribute__((noreturn))
end_like(int wstatus)
{
	struct sigaction	sa;
	struct rlimit		rl = { 0, 0 };
	sigset_t		set;
	int			sig;

	if (!WIFSIGNALED(wstatus))
		_exit(WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 125);
	sig = WTERMSIG(wstatus);
	setrlimit(RLIMIT_CORE, &rl);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), sig);
	_exit(128 + sig);	/* a signal that does not kill */
}

/*
 * Let a filtered network's proxy finish: EOF on its channel, then a short
 * wait so its last log lines are written before the session ends; killed
 * if it does not go (a session must end).
 */
static void
stop_proxy(int channel, pid_t proxy)
{
	int	i;

	if (proxy <= 0)
		return;
	close(channel);
	/* 2 s in 10 ms steps: closing sockets and a few log lines. */
	for (i = 0; i < 200; i++) {
		if (waitpid(proxy, NULL, WNOHANG) != 0)
			return;
		usleep(10000);
	}
	kill(proxy, SIGKILL);
	waitpid(proxy, NULL, 0);
}

/*
 * The command's tree is gone: tell its wait status on fd (sandbox.h,
 * sandbox_set_end_fd), the terminal and the command's pipes let go of
 * first so that they read EOF already.
 */
static void
tell_end(int fd, int cmd_status)
{
	ssize_t	n;

	close(STDIN_FILENO);
	close(STDOUT_FILENO);
	close(STDERR_FILENO);
	do
		n = write(fd, &cmd_status, sizeof cmd_status);
	while (n < 0 && errno == EINTR);
}

/*
 * The relay: wait for the init, forward signals, put back the guarded
 * paths' mounts a rename outside detached, tell the end where asked
 * (tell_end), end like the command.
 */
static void __attribute__((noreturn))
run_relay(struct sandbox *sb, pid_t init, int status_fd, int watch)
{
	union sigval	val;
	siginfo_t	si;
	sigset_t	set;
	ssize_t		n;
	int		wstatus = 0, cmd_status;

	wait_set(&set);
	for (;;) {
		if (sigwaitinfo(&set, &si) < 0)
			continue;
		if (si.si_signo == SIGCHLD) {
			if (waitpid(init, &wstatus, WNOHANG) == init)
				break;
			continue;
		}
		if (si.si_signo == NS_WATCH_SIG) {
			if (watch >= 0)
				sandbox_guard_event(sb, watch);
			continue;
		}
		if (si.si_signo != NS_RELAY_SIG && is_forwarded(&si)) {
			val.sival_int = NS_RELAYED_TAG << 8 | si.si_signo;
			sigqueue(init, NS_RELAY_SIG, val);
		}
	}
	do
		n = read(status_fd, &cmd_status, sizeof cmd_status);
	while (n < 0 && errno == EINTR);
	stop_proxy(sb->proxy_channel, sb->proxy_pid);
	if (n == (ssize_t)sizeof cmd_status && sb->end_fd >= 0)
		tell_end(sb->end_fd, cmd_status);
	/* No status: the init itself was killed; pass that on. */
	end_like(n == (ssize_t)sizeof cmd_status ? cmd_status : wstatus);
}

/* The init: reap, forward, and hand over the command's status. */
static void __attribute__((noreturn))
run_init(pid_t cmd, int status_fd)
{
	siginfo_t	si;
	sigset_t	set;
	ssize_t		n;
	pid_t		pid;
	int		wstatus, cmd_status = 0;
	bool		done = false;

	wait_set(&set);
	while (!done) {
		if (sigwaitinfo(&set, &si) < 0)
			continue;
		if (si.si_signo == SIGCHLD) {
			while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0)
				if (pid == cmd) {
					cmd_status = wstatus;
					done = true;
				}
			continue;
		}
		/* Only what the relay passed on (see NS_RELAY_SIG). */
		if (si.si_signo == NS_RELAY_SIG && si.si_code == SI_QUEUE &&
		    si.si_value.sival_int >> 8 == NS_RELAYED_TAG)
			kill(cmd, si.si_value.sival_int & 0xff);
	}
	/* Nothing the command started outlives it. */
	kill(-1, SIGKILL);
	do
		n = write(status_fd, &cmd_status, sizeof cmd_status);
	while (n < 0 && errno == EINTR);
	_exit(0);
}

/*
 * Make the caller's group the foreground of its controlling terminal,
 * reached through whichever of 0-2 is on it (some may be pipes), else
 * /dev/tty.
 */
static void
take_foreground(void)
{
	int	fd;

	for (fd = 0; fd < 3; fd++)
		if (isatty(fd) && tcsetpgrp(fd, getpid()) == 0)
			return;
	if ((fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)) >= 0) {
		tcsetpgrp(fd, getpid());
		close(fd);
	}
}

/*
 * What init and command take from the relay's frame, which stays (the
 * relay never returns from sandbox_ns_enter).  Read only, once they run:
 * both share the relay's memory (ns_init_run, ns_start_command).
 */
struct ns_start {
	struct sandbox	*sb;
	int		 report_fd, watch;
	int		 life[2], status[2];	/* relay's ends: [0], [1] */
	bool		 own_tty, foreground;
	sigset_t	 mask;		/* the command's own, restored */
	void		(*next)(void *, const char *);
	void		*arg;
};

/*
 * The stacks of init and command, in the frames of their creators: the
 * command's in the init's, the init's in the relay's, unless the stack
 * limit leaves less than NS_STACK_ROOM for it there; then the init's is a
 * mapping of its own (ns_stack_here).
 */
#define NS_COMMAND_STACK	(256 * 1024)
#define NS_INIT_STACK		(NS_COMMAND_STACK + 64 * 1024)
#define NS_STACK_ROOM		(NS_INIT_STACK + 1024 * 1024)

/*
 * The command, a process of its own in the namespaces: its process group
 * and the terminal's foreground, its signal mask, then next(), which runs
 * its stages and execs or reports a failure, and never returns.
 */
static int
ns_command_run(void *arg)
{
	struct ns_start	*c = arg;

	close(c->life[0]);
	close(c->status[1]);
	/*
	 * On a terminal of its own (a session's PTY, whose leader is the
	 * relay) it leads its own process group in the terminal's
	 * foreground: the relay's group does not exist inside the PID
	 * namespace, and a shell doing job control needs one it can see.
	 * SIGTTOU is still blocked here, so tcsetpgrp() is allowed.
	 */
	if (c->own_tty && setpgid(0, 0) == 0)
		take_foreground();
	/*
	 * Off a terminal's foreground it leads its own group too, so that a
	 * signal to the relay's group reaches it once, through the relay,
	 * and not also directly.  In the foreground it stays, for ^C.
	 */
	if (!c->own_tty && !c->foreground)
		setpgid(0, 0);
	sigprocmask(SIG_SETMASK, &c->mask, NULL);
	c->next(c->arg, NULL);
	_exit(125);	/* next() does not return */
}

/*
 * Start the command from the init.  It shares the init's memory until it
 * execs (CLONE_VM | CLONE_VFORK, the way posix_spawn starts a program),
 * so no copy of the address space is made for a process about to replace
 * it; the init waits meanwhile, and its stack below this frame is the
 * command's.  A failure of the command's stages is reported by next() and
 * seen here as its exit.
 */
static pid_t
ns_start_command(struct ns_start *c)
{
	char	*stack = alloca(NS_COMMAND_STACK);

	return clone(ns_command_run, stack + NS_COMMAND_STACK, CLONE_VM |
	    CLONE_VFORK | SIGCHLD, c);
}

/*
 * The init, PID 1: die with the relay, even if it is gone already, start
 * the command, then reap until it ends (run_init).  It shares the relay's
 * memory (it only waits on signals, and writes nothing the relay reads)
 * and has a copy of its descriptors, its own to close.  A failure here is
 * reported as the command's would be (next()).
 */
static int
ns_init_run(void *arg)
{
	struct ns_start	*c = arg;
	struct sandbox	*sb = c->sb;
	struct pollfd	 pfd;
	pid_t		 pid;

	if (c->watch >= 0)
		close(c->watch);
	/* Only the relay holds the proxy's channel and tells the end. */
	if (sb->proxy_channel >= 0)
		close(sb->proxy_channel);
	if (sb->end_fd >= 0)
		close(sb->end_fd);
	close(c->life[1]);
	close(c->status[0]);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
		sandbox_set_stage(sb, "init: parent death signal");
		c->next(c->arg, sb->stage);
	}
	pfd.fd = c->life[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 0) != 0)
		_exit(125);
	if ((pid = ns_start_command(c)) < 0) {
		sandbox_set_stage(sb, "init: start the command");
		c->next(c->arg, sb->stage);
	}
	close(c->report_fd);
	close(c->life[0]);
	run_init(pid, c->status[1]);
}

/* Whether the stack limit leaves room for the init's stack on ours. */
static bool
ns_stack_here(void)
{
	struct rlimit	rl;

	return getrlimit(RLIMIT_STACK, &rl) != 0 ||
	    rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= NS_STACK_ROOM;
}

/* The init's stack where ours has no room for it (ulimit -s 256). */
static char *
ns_stack_map(void)
{
	void	*p;

	p = mmap(NULL, NS_INIT_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_STACK, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

int
sandbox_ns_enter(struct sandbox *sb, int report_fd,
    void (*next)(void *, const char *), void *arg)
{
	struct ns_start	 c;
	sigset_t	 set;
	char		*stack;
	pid_t		 pid;

	memset(&c, 0, sizeof c);
	c.sb = sb;
	c.report_fd = report_fd;
	c.own_tty = getsid(0) == getpid();
	c.foreground = util_tty_foreground();
	c.next = next;
	c.arg = arg;
	/* A filtered network's proxy, outside every namespace. */
	if (sb->hosts != NULL && sandbox_net_start_proxy(sb, report_fd) != 0)
		return -1;
	if (!sb->is_root && enter_userns(sb) != 0) {
		if (sb->stage[0] != '\0')
			return -1;
		goto unavailable;
	}
	if (unshare(ns_flags(sb->opts.network)) != 0)
		goto unavailable;
	sb->in_ns = true;
	if (sb->hosts != NULL && sandbox_net_listen(sb) != 0)
		return -1;
	if (sandbox_guard_source(sb) != 0)
		return -1;

	/* Block what relay and init wait for before the init exists. */
	wait_set(&set);
	sigprocmask(SIG_BLOCK, &set, &c.mask);
	/* Watched before the mounts: nothing replaced in between is missed. */
	c.watch = sandbox_guard_watch(sb, NS_WATCH_SIG);
	if (pipe2(c.life, O_CLOEXEC) != 0 || pipe2(c.status, O_CLOEXEC) != 0) {
		sandbox_set_stage(sb, "namespaces: pipe");
		return -1;
	}
	/*
	 * The init shares this process's memory (CLONE_VM): no copy of the
	 * address space for a process that only waits, none of its pages
	 * faulted in again; it runs on a stack in this frame (or mapped).
	 */
	stack = ns_stack_here() ? alloca(NS_INIT_STACK) : ns_stack_map();
	if (stack == NULL) {
		sandbox_set_stage(sb, "namespaces: a stack for the init");
		return -1;
	}
	if ((pid = clone(ns_init_run, stack + NS_INIT_STACK, CLONE_VM |
	    SIGCHLD, &c)) < 0) {
		sandbox_set_stage(sb, "namespaces: start init");
		return -1;
	}
	close(report_fd);
	close(c.life[0]);
	close(c.status[1]);
	run_relay(sb, pid, c.status[0], c.watch);

unavailable:
	if (sb->hosts != NULL) {
		sandbox_set_stage(sb, "namespaces (a host allow-list needs a "
		    "network namespace)");
		return -1;
	}
	if (sb->opts.allow_no_namespaces) {
		sb->stage[0] = '\0';
		return 0;
	}
	sandbox_set_stage(sb, "namespaces");
	return -1;
}

/* Clone the tree at path, detached, to put back after the remount. */
static int
clone_tree(struct sandbox *sb, const char *path)
{
	int	fd;

	fd = open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
	    AT_RECURSIVE);
	if (fd < 0)
		sandbox_set_stage(sb, "mount: clone %s", path);
	return fd;
}

/* Set or clear read-only on the tree at fd/path. */
static int
set_readonly(struct sandbox *sb, int fd, const char *path, bool on)
{
	struct mount_attr	attr;
	unsigned int		flags = AT_RECURSIVE;

	memset(&attr, 0, sizeof attr);
	if (on)
		attr.attr_set = MOUNT_ATTR_RDONLY;
	else
		attr.attr_clr = MOUNT_ATTR_RDONLY;
	if (fd >= 0)
		flags |= AT_EMPTY_PATH;
	if (mount_setattr(fd >= 0 ? fd : AT_FDCWD, fd >= 0 ? "" : path, flags,
	    &attr, sizeof attr) != 0) {
		sandbox_set_stage(sb, "mount: read-only %s", path);
		return -1;
	}
	return 0;
}

/* Create the directories of path that a fresh tmpfs lacks. */
static void
make_dirs(const char *path)
{
	char	buf[4096];
	size_t	i, len = strlen(path);

	if (len >= sizeof buf)
		return;
	memcpy(buf, path, len + 1);
	for (i = 1; i <= len; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		mkdir(buf, 0755);
		buf[i] = path[i];
	}
}

/* Mount a fresh tmpfs on dir, if dir exists. */
static int
mount_tmpfs(struct sandbox *sb, const char *dir, bool optional)
{
	struct stat	st;

	if (optional && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
		return 0;
	if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV,
	    "mode=1777") != 0) {
		sandbox_set_stage(sb, "mount: private %s", dir);
		return -1;
	}
	return 0;
}

/*
 * The session's own terminal, if a standard fd is one under /dev/pts/:
 * cloned (detached) before the fresh devpts hides the host's instance.
 */
static int
clone_own_tty(void)
{
	char	name[64];
	int	fd;

	for (fd = 0; fd <= 2; fd++)
		if (isatty(fd) && ttyname_r(fd, name, sizeof name) == 0 &&
		    strncmp(name, "/dev/pts/", 9) == 0)
			return open_tree(AT_FDCWD, name, OPEN_TREE_CLONE |
			    OPEN_TREE_CLOEXEC);
	return -1;
}

/*
 * Other terminals out of reach: a devpts instance of our own on /dev/pts
 * (the person's terminals, the console's included, live in the host's
 * instance and have no name here) and /dev/ptmx made its ptmx, so ptys
 * made inside come from it.  The session's terminal stays usable through
 * the fds the command inherits and /dev/tty (the kernel's controlling
 * terminal, not a path); it is also bound on /dev/console, where ttyname()
 * finds it by its inode.
 */
static int
fresh_devpts(struct sandbox *sb)
{
	struct stat	st;
	int		tty = clone_own_tty(), r = -1;

	if (mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
	    "newinstance,ptmxmode=0666,mode=0620") != 0) {
		sandbox_set_stage(sb, "mount: devpts");
		goto out;
	}
	if (lstat("/dev/ptmx", &st) == 0 && S_ISCHR(st.st_mode) &&
	    mount("/dev/pts/ptmx", "/dev/ptmx", NULL, MS_BIND, NULL) != 0) {
		sandbox_set_stage(sb, "mount: /dev/ptmx");
		goto out;
	}
	if (tty >= 0 && lstat("/dev/console", &st) == 0 &&
	    !S_ISDIR(st.st_mode) && move_mount(tty, "", AT_FDCWD,
	    "/dev/console", MOVE_MOUNT_F_EMPTY_PATH) != 0) {
		sandbox_set_stage(sb, "mount: the terminal on /dev/console");
		goto out;
	}
	sb->own_devpts = true;
	r = 0;
out:
	if (tty >= 0)
		close(tty);
	return r;
}

int
sandbox_ns_mount(struct sandbox *sb)
{
	int	fds[SANDBOX_MAX_ROOTS + 2], i, n = 0, r = -1;

	/* Nothing done here may propagate back to the host. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
		sandbox_set_stage(sb, "mount: make private");
		return -1;
	}
	for (n = 0; n < sb->nroots && n < (int)(sizeof fds / sizeof fds[0]);
	    n++)
		if ((fds[n] = clone_tree(sb, sb->roots[n])) < 0)
			goto out;
	if (set_readonly(sb, -1, "/", true) != 0)
		goto out;
	/* A /proc of our own PID namespace, read-only: root owns sysctls. */
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC |
	    MS_RDONLY, NULL) != 0) {
		sandbox_set_stage(sb, "mount: /proc");
		goto out;
	}
	if (fresh_devpts(sb) != 0)
		goto out;
	if (sb->opts.private_tmp && (mount_tmpfs(sb, "/tmp", false) != 0 ||
	    mount_tmpfs(sb, "/dev/shm", true) != 0))
		goto out;
	/* The writable roots go back on top, as they were. */
	for (i = 0; i < n; i++) {
		make_dirs(sb->roots[i]);
		if (move_mount(fds[i], "", AT_FDCWD, sb->roots[i],
		    MOVE_MOUNT_F_EMPTY_PATH) != 0) {
			sandbox_set_stage(sb, "mount: %s", sb->roots[i]);
			goto out;
		}
	}
	for (i = 0; i < sb->nreadonly; i++) {
		if (mount(sb->readonly[i], sb->readonly[i], NULL,
		    MS_BIND | MS_REC, NULL) != 0) {
			sandbox_set_stage(sb, "mount: %s", sb->readonly[i]);
			goto out;
		}
		if (set_readonly(sb, -1, sb->readonly[i], true) != 0)
			goto out;
	}
	/* What steers the supervision read-only, credentials hidden. */
	if (sandbox_guard_mount(sb) != 0)
		goto out;
	/* The UNIX sockets of the host a filtered network relays. */
	if (sb->unix_relays && sandbox_hostsvc_mount(sb) != 0)
		goto out;
	r = 0;
out:
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return r;
}

bool
sandbox_ns_available(bool network, char *why, size_t len)
{
	pid_t	pid;
	int	wstatus, flags = ns_flags(network);

	if ((pid = fork()) < 0) {
		snprintf(why, len, "cannot tell (fork: %s)", strerror(errno));
		return false;
	}
	if (pid == 0) {
		if (geteuid() != 0 && unshare(CLONE_NEWUSER) != 0)
			_exit(errno & 0x7f);
		_exit(unshare(flags) != 0 ? errno & 0x7f : 0);
	}
	if (waitpid(pid, &wstatus, 0) != pid || !WIFEXITED(wstatus)) {
		snprintf(why, len, "cannot tell");
		return false;
	}
	if (WEXITSTATUS(wstatus) == 0)
		return true;
	snprintf(why, len, "refused by the kernel (%s)",
	    strerror(WEXITSTATUS(wstatus)));
	return false;
}
