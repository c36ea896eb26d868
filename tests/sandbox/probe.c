/*
 * probe.c - try things a sandbox should allow or forbid, one line each.
 *
 * Usage: probe NAME[=ARG]...  For each argument, attempts the named
 * action and prints "NAME[=ARG] allowed" or "NAME[=ARG] denied ERRNO"
 * (or "... error WHY" when the probe itself could not be set up).  The
 * tests run it unsandboxed (where most actions must be allowed: proof the
 * probe works) and under `ptyvisor sandbox`, and compare verdicts.
 * Everything a probe starts it stops; the bombs have a hard cap.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/perf_event.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

/* Result of a probe: 0 allowed, an errno denied, PROBE_ERROR broken. */
#define PROBE_ERROR (-1)

static char probe_why[256];

/* Mark the probe as broken, with a reason. */
static int
broken(const char *fmt, const char *arg)
{
	snprintf(probe_why, sizeof probe_why, fmt, arg != NULL ? arg : "");
	return PROBE_ERROR;
}

/* The errno of a failed call, never 0. */
static int
err(void)
{
	return errno != 0 ? errno : EIO;
}

/* A file name inside dir. */
static const char *
path_in(const char *dir, const char *name)
{
	static char	buf[4096];

	snprintf(buf, sizeof buf, "%s/%s", dir, name);
	return buf;
}

/* read /etc/passwd. */
static int
p_read(const char *arg)
{
	char	b[64];
	int	fd = open(arg != NULL ? arg : "/etc/passwd", O_RDONLY);

	if (fd < 0)
		return err();
	if (read(fd, b, sizeof b) <= 0) {
		close(fd);
		return err();
	}
	close(fd);
	return 0;
}

/* Create, write and delete a file in a directory (default: cwd). */
static int
p_create(const char *arg)
{
	const char	*p = path_in(arg != NULL ? arg : ".", "probe-new");
	int		 fd;

	fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return err();
	if (write(fd, "x", 1) != 1) {
		close(fd);
		unlink(p);
		return err();
	}
	close(fd);
	if (unlink(p) != 0)
		return err();
	return 0;
}

/* Write to /dev/null. */
static int
p_devnull(const char *arg)
{
	int	fd = open("/dev/null", O_WRONLY);

	if (fd < 0)
		return err();
	if (write(fd, "x", 1) != 1) {
		close(fd);
		return err();
	}
	close(fd);
	return 0;
}

/* Run a shell command; allowed when it exits 0. */
static int
run_shell(const char *cmd)
{
	int	st = system(cmd);

	if (st == -1)
		return err();
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	return EACCES;
}

/* A shell pipeline. */
static int
p_pipeline(const char *arg)
{
	return run_shell("echo probe | cat | grep -q probe");
}

/* fork and exec /bin/true. */
static int
p_fork_exec(const char *arg)
{
	pid_t	pid;
	int	st;

	if ((pid = fork()) < 0)
		return err();
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return err();
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : ENOEXEC;
}

/* An AF_UNIX socketpair that carries a byte. */
static int
p_socketpair(const char *arg)
{
	int	sv[2];
	char	c;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return err();
	if (write(sv[0], "x", 1) != 1 || read(sv[1], &c, 1) != 1) {
		close(sv[0]);
		close(sv[1]);
		return err();
	}
	close(sv[0]);
	close(sv[1]);
	return 0;
}

/* mkdir (and rmdir) in a directory. */
static int
p_mkdir(const char *arg)
{
	const char	*p = path_in(arg, "probe-dir");

	if (mkdir(p, 0755) != 0)
		return err();
	rmdir(p);
	return 0;
}

/* Append to an existing file. */
static int
p_append(const char *arg)
{
	int	fd = open(arg, O_WRONLY | O_APPEND);

	if (fd < 0)
		return err();
	if (write(fd, "", 0) != 0) {
		close(fd);
		return err();
	}
	close(fd);
	return 0;
}

/* Truncate an existing file to its own size (changes nothing). */
static int
p_truncate(const char *arg)
{
	struct stat	st;

	if (stat(arg, &st) != 0)
		return err();
	return truncate(arg, st.st_size) == 0 ? 0 : err();
}

/* chmod an existing file to its own mode. */
static int
p_chmod(const char *arg)
{
	struct stat	st;

	if (stat(arg, &st) != 0)
		return err();
	return chmod(arg, st.st_mode & 07777) == 0 ? 0 : err();
}

/* chown an existing file to its own owner. */
static int
p_chown(const char *arg)
{
	struct stat	st;

	if (stat(arg, &st) != 0)
		return err();
	return chown(arg, st.st_uid, st.st_gid) == 0 ? 0 : err();
}

/* Set an existing file's times. */
static int
p_utimes(const char *arg)
{
	return utimes(arg, NULL) == 0 ? 0 : err();
}

/* Set an existing file's times to the past (hiding a change). */
static int
p_utimes_past(const char *arg)
{
	struct timeval	tv[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

	return utimes(arg, tv) == 0 ? 0 : err();
}

/* Set a user extended attribute. */
static int
p_setxattr(const char *arg)
{
	if (setxattr(arg, "user.probe", "1", 1, 0) != 0)
		return err();
	removexattr(arg, "user.probe");
	return 0;
}

/* Make a FIFO in a directory. */
static int
p_mknod(const char *arg)
{
	const char	*p = path_in(arg, "probe-fifo");

	if (mknod(p, S_IFIFO | 0644, 0) != 0)
		return err();
	unlink(p);
	return 0;
}

/* Delete a file (the test makes a fresh one). */
static int
p_unlink(const char *arg)
{
	return unlink(arg) == 0 ? 0 : err();
}

/* Write FILE through a symlink made in the cwd. */
static int
p_symlink_write(const char *arg)
{
	int	fd, e;

	unlink("probe-link");
	if (symlink(arg, "probe-link") != 0)
		return broken("symlink in cwd failed%s", "");
	fd = open("probe-link", O_WRONLY | O_APPEND);
	e = fd < 0 ? err() : 0;
	if (fd >= 0)
		close(fd);
	unlink("probe-link");
	return e;
}

/* Hard-link FILE into the cwd, then write it. */
static int
p_hardlink_write(const char *arg)
{
	int	fd, e;

	unlink("probe-hard");
	if (link(arg, "probe-hard") != 0)
		return err();
	fd = open("probe-hard", O_WRONLY | O_APPEND);
	e = fd < 0 ? err() : 0;
	if (fd >= 0)
		close(fd);
	unlink("probe-hard");
	return e;
}

/* Rename FILE into the cwd (and back). */
static int
p_rename_in(const char *arg)
{
	if (rename(arg, "probe-moved") != 0)
		return err();
	rename("probe-moved", arg);
	return 0;
}

/* Rename a file of the cwd out to DIR. */
static int
p_rename_out(const char *arg)
{
	int	fd;

	if ((fd = open("probe-out", O_WRONLY | O_CREAT, 0644)) < 0)
		return broken("cannot create in cwd%s", "");
	close(fd);
	if (rename("probe-out", path_in(arg, "probe-out")) != 0) {
		unlink("probe-out");
		return err();
	}
	unlink(path_in(arg, "probe-out"));
	return 0;
}

/* Create a file through /proc/PID/cwd. */
static int
p_proc_cwd(const char *arg)
{
	char	p[128];
	int	fd;

	snprintf(p, sizeof p, "/proc/%s/cwd/probe-proc", arg);
	if ((fd = open(p, O_WRONLY | O_CREAT, 0644)) < 0)
		return err();
	close(fd);
	unlink(p);
	return 0;
}

/* open_by_handle_at on a handle for /. */
static int
p_open_by_handle(const char *arg)
{
	struct {
		struct file_handle	fh;
		unsigned char		buf[MAX_HANDLE_SZ];
	} h;
	int	mount_id, fd;

	h.fh.handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, "/", &h.fh, &mount_id, 0) != 0)
		return err();
	fd = open_by_handle_at(AT_FDCWD, &h.fh, O_RDONLY);
	if (fd < 0)
		return err();
	close(fd);
	return 0;
}

/* Mount a tmpfs on DIR (and take it away again). */
static int
p_mount(const char *arg)
{
	if (mount("probe", arg, "tmpfs", 0, NULL) != 0)
		return err();
	umount2(arg, MNT_DETACH);
	return 0;
}

/* Connect a TCP socket to a loopback port and exchange a byte. */
static int
tcp_connect(int family, const char *port)
{
	struct sockaddr_in	 a4;
	struct sockaddr_in6	 a6;
	struct timeval		 tv = { 2, 0 };
	int			 fd, r;

	if ((fd = socket(family, SOCK_STREAM, 0)) < 0)
		return err();
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	if (family == AF_INET) {
		memset(&a4, 0, sizeof a4);
		a4.sin_family = AF_INET;
		a4.sin_port = htons((uint16_t)atoi(port));
		a4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		r = connect(fd, (struct sockaddr *)&a4, sizeof a4);
	} else {
		memset(&a6, 0, sizeof a6);
		a6.sin6_family = AF_INET6;
		a6.sin6_port = htons((uint16_t)atoi(port));
		a6.sin6_addr = in6addr_loopback;
		r = connect(fd, (struct sockaddr *)&a6, sizeof a6);
	}
	r = r == 0 ? 0 : err();
	close(fd);
	return r;
}

static int
p_tcp4(const char *arg)
{
	return tcp_connect(AF_INET, arg);
}

static int
p_tcp6(const char *arg)
{
	return tcp_connect(AF_INET6, arg);
}

/* Send a UDP datagram to a loopback echo and wait for the reply. */
static int
p_udp(const char *arg)
{
	struct sockaddr_in	a;
	struct timeval		tv = { 2, 0 };
	char			b[8];
	int			fd, r = 0;

	if ((fd = socket(AF_INET, SOCK_DGRAM, 0)) < 0)
		return err();
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)atoi(arg));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (sendto(fd, "x", 1, 0, (struct sockaddr *)&a, sizeof a) != 1 ||
	    recv(fd, b, sizeof b, 0) <= 0)
		r = err();
	close(fd);
	return r;
}

/* bash's /dev/tcp to a loopback port. */
static int
p_devtcp(const char *arg)
{
	char	cmd[256];

	snprintf(cmd, sizeof cmd, "exec 2>/dev/null; bash -c "
	    "'echo x > /dev/tcp/127.0.0.1/%s'", arg);
	return run_shell(cmd);
}

/* Open a socket of a family and type; allowed when it opens. */
static int
try_socket(int family, int type, int proto)
{
	int	fd = socket(family, type, proto);

	if (fd < 0)
		return err();
	close(fd);
	return 0;
}

static int
p_icmp(const char *arg)
{
	return try_socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
}

static int
p_packet(const char *arg)
{
	return try_socket(AF_PACKET, SOCK_RAW, htons(3 /* ETH_P_ALL */));
}

static int
p_netlink(const char *arg)
{
	return try_socket(AF_NETLINK, SOCK_RAW, 0 /* NETLINK_ROUTE */);
}

static int
p_vsock(const char *arg)
{
	return try_socket(AF_VSOCK, SOCK_STREAM, 0);
}

/* Fill a sockaddr_un with a pathname (or "@abstract"); returns its length. */
static socklen_t
unix_addr(struct sockaddr_un *a, const char *arg)
{
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	strncpy(a->sun_path, arg, sizeof a->sun_path - 1);
	if (arg[0] == '@') {
		a->sun_path[0] = '\0';
		return (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
		    strlen(arg));
	}
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
	    strlen(arg) + 1);
}

/* Connect to a UNIX listener at a path, or "@name" for abstract. */
static int
p_unix(const char *arg)
{
	struct sockaddr_un	a;
	socklen_t		len = unix_addr(&a, arg);
	int			fd, r;

	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
		return err();
	r = connect(fd, (struct sockaddr *)&a, len) == 0 ? 0 : err();
	close(fd);
	return r;
}

/*
 * A datagram to a named UNIX socket without connect: how, naming the
 * destination in each message, "sendto", "sendmsg" (the name inside the
 * msghdr) or "pair" (sendmsg from one end of a datagram socketpair).
 */
static int
unix_datagram(const char *how, const char *arg)
{
	struct sockaddr_un	a;
	struct msghdr		m;
	struct iovec		iov = { (void *)"probe", 5 };
	socklen_t		len = unix_addr(&a, arg);
	int			fd, sv[2], r;

	if (strcmp(how, "pair") == 0) {
		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) != 0)
			return err();
		close(sv[1]);
		fd = sv[0];
	} else if ((fd = socket(AF_UNIX, SOCK_DGRAM, 0)) < 0)
		return err();
	if (strcmp(how, "sendto") == 0)
		r = sendto(fd, "probe", 5, 0, (struct sockaddr *)&a, len) == 5 ?
		    0 : err();
	else {
		memset(&m, 0, sizeof m);
		m.msg_name = &a;
		m.msg_namelen = len;
		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		r = sendmsg(fd, &m, 0) == 5 ? 0 : err();
	}
	close(fd);
	return r;
}

static int
p_unix_sendto(const char *arg)
{
	return unix_datagram("sendto", arg);
}

static int
p_unix_sendmsg(const char *arg)
{
	return unix_datagram("sendmsg", arg);
}

static int
p_unix_pair_sendmsg(const char *arg)
{
	return unix_datagram("pair", arg);
}

/* io_uring_setup alone. */
static int
p_io_uring(const char *arg)
{
	struct io_uring_params	p;
	int			fd;

	memset(&p, 0, sizeof p);
	fd = (int)syscall(SYS_io_uring_setup, 4, &p);
	if (fd < 0)
		return err();
	close(fd);
	return 0;
}

/* Open a TCP socket through an io_uring IORING_OP_SOCKET request. */
static int
p_io_uring_socket(const char *arg)
{
	struct io_uring_params	 p;
	struct io_uring_sqe	*sqes;
	struct io_uring_cqe	*cqe;
	unsigned char		*sq, *cq;
	size_t			 sqsz, cqsz;
	unsigned int		*tail, *array, *ctail, *chead, idx;
	int			 fd, r;

	memset(&p, 0, sizeof p);
	if ((fd = (int)syscall(SYS_io_uring_setup, 4, &p)) < 0)
		return err();
	sqsz = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cqsz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	sq = mmap(NULL, sqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
	    fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, cqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
	    fd, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof *sqes, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		close(fd);
		return broken("io_uring mmap failed%s", "");
	}
	tail = (unsigned int *)(sq + p.sq_off.tail);
	array = (unsigned int *)(sq + p.sq_off.array);
	idx = *tail & *(unsigned int *)(sq + p.sq_off.ring_mask);
	memset(&sqes[idx], 0, sizeof sqes[idx]);
	sqes[idx].opcode = IORING_OP_SOCKET;
	sqes[idx].fd = AF_INET;
	sqes[idx].off = SOCK_STREAM;
	array[idx] = idx;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS,
	    NULL, 0) < 0) {
		close(fd);
		return err();
	}
	chead = (unsigned int *)(cq + p.cq_off.head);
	ctail = (unsigned int *)(cq + p.cq_off.tail);
	if (*chead == __atomic_load_n(ctail, __ATOMIC_ACQUIRE)) {
		close(fd);
		return broken("no io_uring completion%s", "");
	}
	cqe = (struct io_uring_cqe *)(cq + p.cq_off.cqes) +
	    (*chead & *(unsigned int *)(cq + p.cq_off.ring_mask));
	r = cqe->res;
	if (r >= 0)
		close(r);
	close(fd);
	return r >= 0 ? 0 : -r;
}

/* The i386 system call entry: getpid through int 0x80, in a child. */
static int
p_int80(const char *arg)
{
	pid_t	pid;
	int	st;

	if ((pid = fork()) < 0)
		return err();
	if (pid == 0) {
#if defined(__x86_64__)
		/* The kernel's own sigaction layout, SIG_DFL and no flags. */
		struct {
			void		*handler;
			unsigned long	 flags;
			void		*restorer;
			unsigned long	 mask;
		}	dfl = { NULL, 0, NULL, 0 };
		long	r;

		/*
		 * A sanitizer's SIGSEGV handler would turn the fault of a
		 * kernel without IA32 emulation into an abort: restore the
		 * default with the raw call, which no interceptor sees.
		 */
		syscall(SYS_rt_sigaction, SIGSEGV, &dfl, NULL, sizeof dfl.mask);
		__asm__ volatile ("int $0x80" : "=a"(r) : "a"(20L) : "memory");
		_exit(r > 0 ? 0 : 1);
#else
		_exit(2);
#endif
	}
	if (waitpid(pid, &st, 0) != pid)
		return err();
	/*
	 * SIGSYS: seccomp stopped it.  SIGSEGV: the kernel has no IA32
	 * emulation (ia32_emulation=0, or built without it), so int 0x80
	 * faults before any filter sees it: a host fact, not a verdict.
	 */
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV)
		return broken("no IA32 emulation in this kernel%s", "");
	if (WIFSIGNALED(st))
		return WTERMSIG(st) == SIGSYS ? EPERM : EINTR;
	if (WEXITSTATUS(st) == 2)
		return broken("not x86_64%s", "");
	return WEXITSTATUS(st) == 0 ? 0 : ENOSYS;
}

/* setns into the network namespace of process PID. */
static int
p_setns(const char *arg)
{
	char	p[128];
	int	fd, r;

	snprintf(p, sizeof p, "/proc/%s/ns/net", arg);
	if ((fd = open(p, O_RDONLY)) < 0)
		return err();
	r = setns(fd, CLONE_NEWNET) == 0 ? 0 : err();
	close(fd);
	return r;
}

/* Use an fd inherited from whoever started us. */
static int
p_inherited(const char *arg)
{
	int	fd = atoi(arg);

	if (fcntl(fd, F_GETFD) < 0)
		return err();
	return write(fd, "x", 1) == 1 ? 0 : err();
}

/* Send a harmless signal (SIGWINCH) to PID. */
static int
p_kill(const char *arg)
{
	return kill(atoi(arg), SIGWINCH) == 0 ? 0 : err();
}

/* kill(PID, 0): can we even see it? */
static int
p_kill0(const char *arg)
{
	return kill(atoi(arg), 0) == 0 ? 0 : err();
}

/* PTRACE_SEIZE PID (and detach). */
static int
p_ptrace(const char *arg)
{
	pid_t	pid = atoi(arg);

	if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) != 0)
		return err();
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	return 0;
}

/* process_vm_readv on PID: EFAULT means the permission check passed. */
static int
p_vm_readv(const char *arg)
{
	struct iovec	local, remote;
	char		b[1];

	local.iov_base = b;
	local.iov_len = 1;
	remote.iov_base = (void *)0x1000;
	remote.iov_len = 1;
	if (process_vm_readv(atoi(arg), &local, 1, &remote, 1, 0) >= 0 ||
	    errno == EFAULT)
		return 0;
	return err();
}

/* Open /proc/PID/mem. */
static int
p_proc_mem(const char *arg)
{
	char	p[128];
	int	fd;

	snprintf(p, sizeof p, "/proc/%s/mem", arg);
	if ((fd = open(p, O_RDONLY)) < 0)
		return err();
	close(fd);
	return 0;
}

/* Read API_KEY out of /proc/PID/environ. */
static int
p_proc_environ(const char *arg)
{
	char	p[128], b[65536];
	ssize_t	n, i;
	int	fd;

	snprintf(p, sizeof p, "/proc/%s/environ", arg);
	if ((fd = open(p, O_RDONLY)) < 0)
		return err();
	n = read(fd, b, sizeof b - 1);
	close(fd);
	if (n < 0)
		return err();
	for (i = 0; i < n; i++)
		if (strncmp(b + i, "API_KEY=", 8) == 0)
			return 0;
	return ENOENT;
}

/* Is API_KEY in our own environment? */
static int
p_env_secret(const char *arg)
{
	return getenv("API_KEY") != NULL ? 0 : ENOENT;
}

/* Start a daemon (double fork, setsid) that says "alive" after a while. */
static int
p_daemon(const char *arg)
{
	struct timespec	ts = { 0, 400 * 1000 * 1000 };
	pid_t		pid;

	fflush(stdout);
	if ((pid = fork()) < 0)
		return err();
	if (pid == 0) {
		setsid();
		if (fork() != 0)
			_exit(0);
		nanosleep(&ts, NULL);
		printf("daemon alive\n");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	return 0;
}

/* Any capability in any set? */
static int
p_caps(const char *arg)
{
	char	line[256];
	FILE	*f = fopen("/proc/self/status", "r");
	int	any = 0;

	if (f == NULL)
		return broken("no /proc/self/status%s", "");
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, "Cap", 3) == 0 && strncmp(line, "CapInh", 6)
		    != 0 && strtoull(strchr(line, ':') + 1, NULL, 16) != 0)
			any = 1;
	fclose(f);
	return any ? 0 : EPERM;
}

/* Exec a setuid binary (this probe, setuid) and see what it gained. */
static int
p_setuid(const char *arg)
{
	char	*argv[] = { (char *)arg, (char *)"gained", NULL };
	char	 uid[32];
	pid_t	 pid;
	int	 st;

	snprintf(uid, sizeof uid, "PROBE_UID=%lu", (unsigned long)geteuid());
	if ((pid = fork()) < 0)
		return err();
	if (pid == 0) {
		char	*envp[] = { uid, NULL };

		execve(arg, argv, envp);
		_exit(126);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return broken("setuid child failed%s", "");
	if (WEXITSTATUS(st) == 126)
		return broken("cannot exec %s", arg);
	return WEXITSTATUS(st) == 0 ? 0 : EPERM;
}

/* Helper run as the setuid binary: exit 0 if it gained uid 0 or caps. */
static int
p_gained(void)
{
	const char	*was = getenv("PROBE_UID");

	if (was != NULL && geteuid() != (uid_t)atol(was))
		return 0;
	return p_caps(NULL) == 0 ? 0 : 1;
}

/* unshare a user and mount namespace, then mount a tmpfs. */
static int
p_userns_mount(const char *arg)
{
	pid_t	pid;
	int	st;

	if ((pid = fork()) < 0)
		return err();
	if (pid == 0) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
			_exit(errno & 0x7f);
		if (mount("probe", "/tmp", "tmpfs", 0, NULL) != 0)
			_exit(errno & 0x7f);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return broken("unshare child failed%s", "");
	return WEXITSTATUS(st);
}

/* Reach the host's user keyring. */
static int
p_keyring(const char *arg)
{
	long	id;

	id = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID,
	    KEY_SPEC_USER_KEYRING, 0);
	return id >= 0 ? 0 : err();
}

/* Create a BPF array map. */
static int
p_bpf(const char *arg)
{
	union bpf_attr	a;
	int		fd;

	memset(&a, 0, sizeof a);
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 4;
	a.max_entries = 1;
	fd = (int)syscall(SYS_bpf, BPF_MAP_CREATE, &a, sizeof a);
	if (fd < 0)
		return err();
	close(fd);
	return 0;
}

/* A software perf event on ourselves. */
static int
p_perf(const char *arg)
{
	struct perf_event_attr	a;
	int			fd;

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return err();
	close(fd);
	return 0;
}

/* Type a character into our terminal with TIOCSTI (ARG: "high" bits). */
static int
p_tiocsti(const char *arg)
{
	unsigned long	req = TIOCSTI;
	char		c = '~';

	if (arg != NULL && strcmp(arg, "high") == 0)
		req |= 0xdead00000000UL;
	return syscall(SYS_ioctl, 0, req, &c) == 0 ? 0 : err();
}

/* TIOCLINUX paste-selection on our terminal. */
static int
p_tioclinux(const char *arg)
{
	char	sub = 3;	/* TIOCL_PASTESEL */

	return ioctl(0, TIOCLINUX, &sub) == 0 ? 0 : err();
}

/* Write to a terminal by its path. */
static int
p_tty_write(const char *arg)
{
	int	fd = open(arg, O_WRONLY | O_NOCTTY);

	if (fd < 0)
		return err();
	if (write(fd, "INJECTED\n", 9) != 9) {
		close(fd);
		return err();
	}
	close(fd);
	return 0;
}

/* Open another terminal for reading: its keystrokes could be stolen. */
static int
p_tty_read(const char *arg)
{
	int	fd = open(arg, O_RDONLY | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return err();
	close(fd);
	return 0;
}

/*
 * Count the deliveries of signal ARG: block it, say "ready" (a file in the
 * cwd), take each one as it comes until none for 1.5 s, print "received N".
 */
static int
p_sigcount(const char *arg)
{
	struct timespec	ts = { 1, 500 * 1000 * 1000 };
	sigset_t	set;
	int		sig = arg != NULL ? atoi(arg) : 0, n = 0, fd;

	if (sig <= 0 || sig >= NSIG)
		return broken("bad signal%s", "");
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if ((fd = open("ready", O_WRONLY | O_CREAT, 0600)) < 0)
		return err();
	close(fd);
	while (sigtimedwait(&set, NULL, &ts) == sig)
		n++;
	printf("received %d\n", n);
	return 0;
}

/* kill(0, SIGURG): reaches our whole process group. */
static int
p_kill_group(const char *arg)
{
	return kill(0, SIGURG) == 0 ? 0 : err();
}

/* Fork up to ARG processes; denied when a fork fails before that. */
static int
p_forkbomb(const char *arg)
{
	int	cap = arg != NULL ? atoi(arg) : 200, n, i, r = 0;
	pid_t	*pids;

	if (cap <= 0 || cap > 4000)
		return broken("bad cap%s", "");
	pids = calloc((size_t)cap, sizeof *pids);
	if (pids == NULL)
		return broken("no memory%s", "");
	for (n = 0; n < cap; n++) {
		if ((pids[n] = fork()) < 0) {
			r = err();
			break;
		}
		if (pids[n] == 0) {
			pause();
			_exit(0);
		}
	}
	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	free(pids);
	return r;
}

/* Allocate and touch up to ARG MiB; denied when allocation fails first. */
static int
p_membomb(const char *arg)
{
	int	cap = arg != NULL ? atoi(arg) : 256, i;
	char	*chunks[4096];
	int	n = 0, r = 0;

	if (cap <= 0 || cap > 4096)
		return broken("bad cap%s", "");
	for (i = 0; i < cap; i++) {
		chunks[n] = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (chunks[n] == MAP_FAILED) {
			r = err();
			break;
		}
		memset(chunks[n], 1, 1 << 20);
		n++;
	}
	for (i = 0; i < n; i++)
		munmap(chunks[i], 1 << 20);
	return r;
}

/*
 * Write one byte ARG MiB into a new file of the cwd (sparse: no disk used),
 * with SIGXFSZ ignored so that RLIMIT_FSIZE shows as EFBIG.
 */
static int
p_fsize(const char *arg)
{
	long	mib = arg != NULL ? atol(arg) : 0;
	int	fd, r = 0;

	if (mib <= 0)
		return broken("bad size%s", "");
	signal(SIGXFSZ, SIG_IGN);
	if ((fd = open("probe-fsize", O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0)
		return err();
	if (pwrite(fd, "x", 1, (off_t)mib << 20) != 1)
		r = err();
	close(fd);
	unlink("probe-fsize");
	return r;
}

/* Exit with a code, or die of a signal ("exit=N", "signal=N"). */
static int
p_exit(const char *arg)
{
	fflush(stdout);
	exit(atoi(arg));
}

static int
p_signal(const char *arg)
{
	fflush(stdout);
	signal(atoi(arg), SIG_DFL);
	raise(atoi(arg));
	return EINTR;
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

/* "allowed" when built with AddressSanitizer (it reserves terabytes). */
static int
p_asan(const char *arg)
{
#if defined(__SANITIZE_ADDRESS__)
	return 0;
#else
	return ENOENT;
#endif
}

/* Every probe by name. */
static const struct {
	const char	*name;
	int		(*fn)(const char *);
} probes[] = {
	{ "read", p_read }, { "create", p_create }, { "devnull", p_devnull },
	{ "pipeline", p_pipeline }, { "fork_exec", p_fork_exec },
	{ "socketpair", p_socketpair }, { "mkdir", p_mkdir },
	{ "append", p_append }, { "truncate", p_truncate },
	{ "chmod", p_chmod }, { "chown", p_chown }, { "utimes", p_utimes },
	{ "utimes_past", p_utimes_past },
	{ "setxattr", p_setxattr }, { "mknod", p_mknod },
	{ "unlink", p_unlink }, { "symlink_write", p_symlink_write },
	{ "hardlink_write", p_hardlink_write }, { "rename_in", p_rename_in },
	{ "rename_out", p_rename_out }, { "proc_cwd", p_proc_cwd },
	{ "open_by_handle", p_open_by_handle }, { "mount", p_mount },
	{ "tcp4", p_tcp4 }, { "tcp6", p_tcp6 }, { "udp", p_udp },
	{ "devtcp", p_devtcp }, { "icmp", p_icmp }, { "packet", p_packet },
	{ "netlink", p_netlink }, { "vsock", p_vsock }, { "unix", p_unix },
	{ "unix_sendto", p_unix_sendto }, { "unix_sendmsg", p_unix_sendmsg },
	{ "unix_pair_sendmsg", p_unix_pair_sendmsg },
	{ "io_uring", p_io_uring }, { "io_uring_socket", p_io_uring_socket },
	{ "int80", p_int80 }, { "setns", p_setns },
	{ "inherited", p_inherited }, { "kill", p_kill }, { "kill0", p_kill0 },
	{ "ptrace", p_ptrace }, { "vm_readv", p_vm_readv },
	{ "proc_mem", p_proc_mem }, { "proc_environ", p_proc_environ },
	{ "env_secret", p_env_secret }, { "daemon", p_daemon },
	{ "caps", p_caps }, { "setuid", p_setuid },
	{ "userns_mount", p_userns_mount }, { "keyring", p_keyring },
	{ "bpf", p_bpf }, { "perf", p_perf }, { "tiocsti", p_tiocsti },
	{ "tioclinux", p_tioclinux }, { "tty_write", p_tty_write },
	{ "tty_read", p_tty_read }, { "sigcount", p_sigcount },
	{ "kill_group", p_kill_group }, { "forkbomb", p_forkbomb },
	{ "membomb", p_membomb }, { "fsize", p_fsize }, { "exit", p_exit }, { "signal", p_signal },
	{ "asan", p_asan },
};

int
main(int argc, char **argv)
{
	char		 name[64];
	const char	*arg;
	size_t		 i, len;
	int		 a, r;

	if (argc == 2 && strcmp(argv[1], "gained") == 0)
		return p_gained();
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (a = 1; a < argc; a++) {
		len = strcspn(argv[a], "=");
		arg = argv[a][len] == '=' ? argv[a] + len + 1 : NULL;
		snprintf(name, sizeof name, "%.*s", (int)len, argv[a]);
		for (i = 0; i < sizeof probes / sizeof probes[0]; i++)
			if (strcmp(probes[i].name, name) == 0)
				break;
		if (i == sizeof probes / sizeof probes[0]) {
			printf("%s error unknown probe\n", argv[a]);
			continue;
		}
		probe_why[0] = '\0';
		errno = 0;
		r = probes[i].fn(arg);
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
