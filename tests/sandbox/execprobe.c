/*
 * execprobe.c - try every way a program could run another one past the
 * exec checks, one line each.
 *
 * Usage: execprobe NAME[=ARG]...  Prints "NAME[=ARG] allowed" when the
 * program ran, "NAME[=ARG] denied ERRNO" when it was refused (a process
 * killed by seccomp counts as EPERM), "NAME[=ARG] error WHY" when the
 * probe could not be set up.  The tests run it unsandboxed (everything
 * allowed: proof the probe works) and inside a session whose rules deny
 * the target program (everything denied but "filter").
 *
 *   execve=P      execve(P)
 *   exec_a=P      execve(P) with argv[0] "innocent"
 *   execveat=P    execveat(fd of P, "", AT_EMPTY_PATH)
 *   copy=P        a copy of P named renamed-copy in the current directory
 *   loader=LD,P   the dynamic loader LD told to run P
 *   vfork=P       vfork, then execve in the child
 *   spawn=P       posix_spawn (clone with CLONE_VM|CLONE_VFORK)
 *   thread=P      execve from a second thread while the first one runs
 *   int80=P       execve through the i386 entry (int 0x80)
 *   race=P,Q      a second thread swaps the path between Q and P while the
 *                 first execs it, until P runs (Q allowed, P denied):
 *                 "allowed" when P ran to its end, "denied EKEYREJECTED"
 *                 when every P that ran was killed; P runs "P 3"
 *   clone_vm      a child sharing our memory that runs beside us
 *                 (CLONE_VM without CLONE_VFORK or CLONE_THREAD)
 *   listener      a seccomp filter with a listener of its own
 *   filter        a seccomp filter without one (a browser's)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

extern char **environ;

#define PROBE_ERROR (-1)
static char probe_why[256];

/* A probe that could not be set up. */
static int
broken(const char *what)
{
	snprintf(probe_why, sizeof probe_why, "%s: %s", what,
	    strerror(errno));
	return PROBE_ERROR;
}

/*
 * Run fn(arg) in a child whose stdout and stderr go to /dev/null; the
 * child reports a failed exec's errno on a close-on-exec pipe.  0: the
 * program ran; an errno: refused; SIGSYS counts as EPERM.
 */
static int
in_child(void (*fn)(const char *, int), const char *arg)
{
	int	p[2], err = 0, st, null;
	pid_t	pid;
	ssize_t	n;

	if (pipe2(p, O_CLOEXEC) != 0)
		return broken("pipe");
	if ((pid = fork()) < 0)
		return broken("fork");
	if (pid == 0) {
		close(p[0]);
		if ((null = open("/dev/null", O_WRONLY)) >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		fn(arg, p[1]);
		_exit(126);
	}
	close(p[1]);
	n = read(p[0], &err, sizeof err);
	close(p[0]);
	if (waitpid(pid, &st, 0) != pid)
		return broken("waitpid");
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS)
		return EPERM;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) {
		snprintf(probe_why, sizeof probe_why, "SIGSEGV (no IA32 "
		    "emulation in this kernel?)");
		return PROBE_ERROR;
	}
	if (n == (ssize_t)sizeof err)
		return err;
	return 0;
}

/* Tell the parent why the exec failed, and end. */
static void __attribute__((noreturn))
report(int fd, int err)
{
	if (write(fd, &err, sizeof err) != (ssize_t)sizeof err)
		_exit(125);
	_exit(127);
}

static void
c_execve(const char *path, int fd)
{
	char	*argv[] = { (char *)path, (char *)"--version", NULL };

	execve(path, argv, environ);
	report(fd, errno);
}

static void
c_exec_a(const char *path, int fd)
{
	char	*argv[] = { (char *)"innocent", (char *)"--version", NULL };

	execve(path, argv, environ);
	report(fd, errno);
}

static void
c_execveat(const char *path, int fd)
{
	char	*argv[] = { (char *)"innocent", (char *)"--version", NULL };
	int	 pfd = open(path, O_RDONLY | O_CLOEXEC);

	if (pfd < 0)
		report(fd, errno);
	syscall(SYS_execveat, pfd, "", argv, environ, AT_EMPTY_PATH);
	report(fd, errno);
}

static void
c_copy(const char *path, int fd)
{
	char	 buf[65536];
	char	*argv[] = { (char *)"./renamed-copy", (char *)"--version",
		    NULL };
	ssize_t	 n;
	int	 in, out;

	unlink("renamed-copy");
	if ((in = open(path, O_RDONLY)) < 0 || (out = open("renamed-copy",
	    O_WRONLY | O_CREAT | O_EXCL, 0755)) < 0)
		report(fd, errno);
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			report(fd, errno);
	close(in);
	close(out);
	execve("./renamed-copy", argv, environ);
	report(fd, errno);
}

static void
c_loader(const char *arg, int fd)
{
	char	 ld[4096], *comma, *argv[4];

	snprintf(ld, sizeof ld, "%s", arg);
	if ((comma = strchr(ld, ',')) == NULL)
		report(fd, EINVAL);
	*comma = '\0';
	argv[0] = ld;
	argv[1] = comma + 1;
	argv[2] = (char *)"--version";
	argv[3] = NULL;
	execve(ld, argv, environ);
	report(fd, errno);
}

static void
c_vfork(const char *path, int fd)
{
	char		*argv[] = { (char *)path, (char *)"--version", NULL };
	volatile int	 err = 0;
	pid_t		 pid;
	int		 st;

	pid = vfork();
	if (pid == 0) {
		execve(path, argv, environ);
		err = errno;
		_exit(127);
	}
	if (pid < 0)
		report(fd, errno);
	waitpid(pid, &st, 0);
	if (err != 0)
		report(fd, err);
	_exit(0);
}

static void
c_spawn(const char *path, int fd)
{
	char	*argv[] = { (char *)path, (char *)"--version", NULL };
	pid_t	 pid;
	int	 r, st;

	if ((r = posix_spawn(&pid, path, NULL, NULL, argv, environ)) != 0)
		report(fd, r);
	waitpid(pid, &st, 0);
	/* glibc reports the exec's failure as a 127 exit, not r. */
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		report(fd, EACCES);
	_exit(0);
}

/* The second thread of c_thread: execs while the first one spins. */
static void *
thread_exec(void *arg)
{
	const char	**a = arg;
	char		*argv[] = { (char *)a[0], (char *)"--version", NULL };

	execve(a[0], argv, environ);
	report((int)(intptr_t)a[1], errno);
	return NULL;
}

static void
c_thread(const char *path, int fd)
{
	const char	*a[2] = { path, (const char *)(intptr_t)fd };
	pthread_t	 t;
	volatile long	 spin = 0;

	if (pthread_create(&t, NULL, thread_exec, a) != 0)
		report(fd, EAGAIN);
	for (;;)
		spin++;
}

static void
c_int80(const char *path, int fd)
{
#if defined(__x86_64__)
	/* The i386 ABI wants 32-bit pointers: strings in the low 4 GiB. */
	char		*low;
	uint32_t	*argv;
	long		 r;
	size_t		 len = strlen(path) + 1;
	/* The kernel's sigaction, SIG_DFL: a sanitizer's handler would
	 * turn a kernel without IA32 emulation's SIGSEGV into an abort. */
	struct {
		void		*handler;
		unsigned long	 flags;
		void		*restorer;
		unsigned long	 mask;
	}		 dfl = { NULL, 0, NULL, 0 };

	syscall(SYS_rt_sigaction, SIGSEGV, &dfl, NULL, sizeof dfl.mask);
	low = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (low == MAP_FAILED || len > 2048)
		report(fd, ENOMEM);
	memcpy(low, path, len);
	argv = (uint32_t *)(low + 2048);
	argv[0] = (uint32_t)(uintptr_t)low;
	argv[1] = 0;
	__asm__ volatile ("int $0x80" : "=a"(r) : "a"(11L),
	    "b"((long)(uintptr_t)low), "c"((long)(uintptr_t)argv), "d"(0L) :
	    "memory");
	report(fd, (int)-r);
#else
	(void)path;
	report(fd, ENOSYS);
#endif
}

/*
 * Under a sanitizer build the probe must behave as in a plain one: the leak
 * checker stops the world with ptrace, which the sandbox rightly denies.
 */
int	__lsan_is_turned_off(void);

int
__lsan_is_turned_off(void)
{
	return 1;
}

/* The path the two threads of c_race share, and the two it swaps. */
static char		 race_path[256];
static char		 race_p[256], race_q[256];
static volatile unsigned long race_swaps;

/* The swapping thread: Q, P, Q, P... as fast as it can. */
static void *
race_swap(void *arg)
{
	(void)arg;
	for (;;) {
		/* The barriers keep either copy from being optimised away. */
		memcpy(race_path, race_q, sizeof race_path);
		__asm__ volatile ("" ::: "memory");
		memcpy(race_path, race_p, sizeof race_path);
		__asm__ volatile ("" ::: "memory");
		race_swaps++;
	}
	return NULL;
}

/* One attempt: exec the shared path until something runs. */
static void
c_race_once(const char *arg, int fd)
{
	char		*argv[] = { race_path, (char *)"3", NULL };
	pthread_t	 t;

	(void)arg;
	memcpy(race_path, race_q, sizeof race_path);
	if (pthread_create(&t, NULL, race_swap, NULL) != 0)
		report(fd, EAGAIN);
	while (race_swaps < 1000)
		;
	for (;;)
		execve(race_path, argv, environ);
}

/*
 * Race until P has run (its status: 0 after its 3 s, or killed): P ran to
 * its end is a way past the checks; P killed every time is the checks
 * holding.  Q (an allowed program ending at once) running just means
 * another try.
 */
static int
p_race(const char *arg)
{
	char	*comma;
	int	 tries, st, killed = 0;
	pid_t	 pid;
	int64_t	 t0;
	struct timespec ts;

	if ((comma = strchr(arg, ',')) == NULL || comma - arg >= 255 ||
	    strlen(comma + 1) >= 255) {
		errno = EINVAL;
		return broken("race=P,Q");
	}
	memset(race_p, 0, sizeof race_p);
	memset(race_q, 0, sizeof race_q);
	memcpy(race_p, arg, (size_t)(comma - arg));
	strcpy(race_q, comma + 1);
	for (tries = 0; tries < 300; tries++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t0 = ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
		if ((pid = fork()) < 0)
			return broken("fork");
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			dup2(null, 2);
			c_race_once(NULL, -1);
		}
		waitpid(pid, &st, 0);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		/* Q ends at once; P sleeps 3 s unless killed. */
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			killed++;
		else if (ts.tv_sec * 1000 + ts.tv_nsec / 1000000 - t0 >= 2500)
			return 0;
		if (killed >= 3)
			return EKEYREJECTED;
	}
	if (killed > 0)
		return EKEYREJECTED;
	snprintf(probe_why, sizeof probe_why, "no race won in %d tries",
	    tries);
	return PROBE_ERROR;
}

/* The child of p_clone_vm: it only ends. */
static int
clone_vm_child(void *arg)
{
	(void)arg;
	return 0;
}

/* A process sharing our memory without waiting for it (not a thread). */
static int
p_clone_vm(void)
{
	char	*stack = malloc(65536);
	pid_t	 pid;
	int	 st;

	if (stack == NULL)
		return broken("malloc");
	pid = clone(clone_vm_child, stack + 65536, CLONE_VM | SIGCHLD, NULL);
	if (pid < 0) {
		free(stack);
		return errno;
	}
	waitpid(pid, &st, 0);
	free(stack);
	return 0;
}

/* Load a filter that allows everything, with or without a listener. */
static int
p_filter(bool listener)
{
	struct sock_filter	 allow = BPF_STMT(BPF_RET | BPF_K,
				    SECCOMP_RET_ALLOW);
	struct sock_fprog	 prog = { 1, &allow };
	pid_t			 pid;
	int			 p[2], err = 0, st;
	long			 r;

	if (pipe(p) != 0)
		return broken("pipe");
	if ((pid = fork()) < 0)
		return broken("fork");
	if (pid == 0) {
		close(p[0]);
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, listener ?
		    SECCOMP_FILTER_FLAG_NEW_LISTENER : 0, &prog);
		err = r < 0 ? errno : 0;
		if (write(p[1], &err, sizeof err) != (ssize_t)sizeof err)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &err, sizeof err) != (ssize_t)sizeof err)
		err = -1;
	close(p[0]);
	waitpid(pid, &st, 0);
	if (err < 0) {
		snprintf(probe_why, sizeof probe_why, "no answer from the "
		    "child");
		return PROBE_ERROR;
	}
	return err;
}

static const struct {
	const char	*name;
	void		(*fn)(const char *, int);
} probes[] = {
	{ "execve", c_execve }, { "exec_a", c_exec_a },
	{ "execveat", c_execveat }, { "copy", c_copy },
	{ "loader", c_loader }, { "vfork", c_vfork }, { "spawn", c_spawn },
	{ "thread", c_thread }, { "int80", c_int80 },
};

int
main(int argc, char **argv)
{
	char	 name[64];
	size_t	 i, len;
	int	 a, r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (a = 1; a < argc; a++) {
		len = strcspn(argv[a], "=");
		snprintf(name, sizeof name, "%.*s", (int)len, argv[a]);
		probe_why[0] = '\0';
		if (strcmp(name, "listener") == 0)
			r = p_filter(true);
		else if (strcmp(name, "race") == 0 && argv[a][len] == '=')
			r = p_race(argv[a] + len + 1);
		else if (strcmp(name, "filter") == 0)
			r = p_filter(false);
		else if (strcmp(name, "clone_vm") == 0)
			r = p_clone_vm();
		else {
			for (i = 0; i < sizeof probes / sizeof probes[0]; i++)
				if (strcmp(probes[i].name, name) == 0)
					break;
			if (i == sizeof probes / sizeof probes[0] ||
			    argv[a][len] != '=') {
				printf("%s error unknown probe\n", argv[a]);
				continue;
			}
			r = in_child(probes[i].fn, argv[a] + len + 1);
		}
		if (r == 0)
			printf("%s allowed\n", argv[a]);
		else if (r == PROBE_ERROR)
			printf("%s error %s\n", argv[a], probe_why);
		else
			printf("%s denied %s\n", argv[a], strerrorname_np(r) ?
			    strerrorname_np(r) : "?");
	}
	return 0;
}
