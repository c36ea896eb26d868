/*
 * seccomp.c - the seccomp layer: a deny-list on top of Landlock and the
 * namespaces, for what those do not cover (under a filtered network, no
 * socket but internet ones, and UNIX stream ones where the host's sockets
 * are relayed; without namespaces, a second filter for what the missing
 * read-only view no longer stops).
 *
 * The filter is built in the parent (libseccomp allocates), exported as
 * a BPF program once for each kind of sandbox and kept, and loaded in the
 * child with one system call.  Only the native architecture is in it; a system call made
 * through any other ABI (i386 `int 0x80`, x32) kills the process.  Denied
 * calls fail with EPERM rather than killing, so programs print a useful
 * error; clone3 fails with ENOSYS so libc falls back to clone, whose flags
 * a filter can see.  Every rule says why it is there.
 */
#include "sandbox/sandbox-int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/filter.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/util.h"

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif
#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

/* The namespace flags of clone/unshare. */
static const unsigned long seccomp_ns_flags[] = {
	CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
	CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
#ifdef CLONE_NEWTIME
	CLONE_NEWTIME,
#endif
};

/* System calls denied outright, each with its reason. */
static const struct {
	const char	*name;
	const char	*why;
} seccomp_denied[] = {
	/* io_uring performs opens, connects and more behind the filter. */
	{ "io_uring_setup", "io_uring bypasses seccomp" },
	{ "io_uring_enter", "io_uring bypasses seccomp" },
	{ "io_uring_register", "io_uring bypasses seccomp" },
	/* Reading or writing another process's memory. */
	{ "ptrace", "inspect or control other processes" },
	{ "process_vm_readv", "read another process's memory" },
	{ "process_vm_writev", "write another process's memory" },
	/* Joining namespaces could reach the host's network or mounts. */
	{ "setns", "join another namespace" },
	/* Mounts could undo the read-only view of the filesystem. */
	{ "mount", "change the filesystem view" },
	{ "umount2", "uncover what a mount hides" },
	{ "pivot_root", "change the root" },
	{ "chroot", "change the root" },
	{ "open_tree", "new mount API" },
	{ "move_mount", "new mount API" },
	{ "fsopen", "new mount API" },
	{ "fsconfig", "new mount API" },
	{ "fsmount", "new mount API" },
	{ "fspick", "new mount API" },
	{ "mount_setattr", "new mount API: could clear read-only" },
	/* The kernel keyrings hold credentials shared with the host. */
	{ "keyctl", "host keyrings" },
	{ "add_key", "host keyrings" },
	{ "request_key", "host keyrings" },
	/* Large kernel attack surface, never needed by shell commands. */
	{ "bpf", "kernel attack surface" },
	{ "perf_event_open", "kernel attack surface, side channels" },
	{ "userfaultfd", "a common aid to kernel exploits" },
	/* Opens files by handle, bypassing path-based checks. */
	{ "open_by_handle_at", "bypasses path-based checks" },
	{ "name_to_handle_at", "only useful with open_by_handle_at" },
	/* Machine-wide state. */
	{ "kexec_load", "replace the kernel" },
	{ "kexec_file_load", "replace the kernel" },
	{ "init_module", "load kernel code" },
	{ "finit_module", "load kernel code" },
	{ "delete_module", "unload kernel code" },
	{ "reboot", "reboot the machine" },
	{ "swapon", "machine-wide memory" },
	{ "swapoff", "machine-wide memory" },
	{ "acct", "machine-wide accounting" },
	{ "quotactl", "machine-wide quotas" },
	{ "syslog", "kernel log" },
};

/* Network system calls denied when the network is off. */
static const char *const seccomp_net_denied[] = {
	"connect",	/* reaches pathname UNIX listeners outside */
	"bind",		/* offers a service */
	"listen",	/* offers a service */
	"accept",	/* serves one */
	"accept4",	/* serves one */
};

/* Add one rule; on failure leave a cause naming it. */
static int
add_rule(scmp_filter_ctx ctx, uint32_t action, const char *name,
    unsigned int n, const struct scmp_arg_cmp *cmp, char **cause)
{
	int	nr, r;

	nr = seccomp_syscall_resolve_name(name);
	if (nr == __NR_SCMP_ERROR) {
		*cause = xasprintf("seccomp: unknown system call %s", name);
		return -1;
	}
	r = seccomp_rule_add_array(ctx, action, nr, n, cmp);
	if (r != 0) {
		*cause = xasprintf("seccomp: rule for %s: %s", name,
		    strerror(-r));
		return -1;
	}
	return 0;
}

/* Deny name with EPERM when its argument arg has flag set. */
static int
deny_flag(scmp_filter_ctx ctx, const char *name, unsigned int arg,
    unsigned long flag, char **cause)
{
	struct scmp_arg_cmp	cmp;

	cmp = SCMP_CMP(arg, SCMP_CMP_MASKED_EQ, flag, flag);
	return add_rule(ctx, SCMP_ACT_ERRNO(EPERM), name, 1, &cmp, cause);
}

/* Deny ioctl(fd, request) on the low 32 bits of request. */
static int
deny_ioctl(scmp_filter_ctx ctx, unsigned long request, char **cause)
{
	struct scmp_arg_cmp	cmp;

	/* The kernel truncates the request to 32 bits: so must we. */
	cmp = SCMP_CMP(1, SCMP_CMP_MASKED_EQ, 0xffffffffUL, request);
	return add_rule(ctx, SCMP_ACT_ERRNO(EPERM), "ioctl", 1, &cmp, cause);
}

/*
 * No UNIX datagram socket, not even from socketpair: a datagram socket names
 * its destination in each sendmsg/sendmmsg, inside a msghdr the filter
 * cannot read, so it would reach any named socket it may write to
 * (/dev/log, /run/systemd/notify...) past the connect rule.  Stream sockets
 * refuse a destination on send and seqpacket ones ignore it, so those stay,
 * as connected pairs only.  AF_UNIX turns SOCK_RAW into SOCK_DGRAM.
 */
static int
deny_unix_datagrams(scmp_filter_ctx ctx, char **cause)
{
	static const int	 types[] = { SOCK_DGRAM, SOCK_RAW };
	static const char *const calls[] = { "socket", "socketpair" };
	struct scmp_arg_cmp	 cmp;
	size_t			 i, j;

	for (i = 0; i < sizeof calls / sizeof calls[0]; i++)
		for (j = 0; j < sizeof types / sizeof types[0]; j++) {
			/* The low bits; SOCK_NONBLOCK and SOCK_CLOEXEC aside. */
			cmp = SCMP_CMP(1, SCMP_CMP_MASKED_EQ, 0xf,
			    (scmp_datum_t)types[j]);
			if (add_rule(ctx, SCMP_ACT_ERRNO(EPERM), calls[i], 1,
			    &cmp, cause) != 0)
				return -1;
		}
	return 0;
}

/*
 * Metadata calls a filter can refuse without seeing a path.  Without a mount
 * namespace nothing makes the files outside the writable roots read-only,
 * and Landlock does not cover modes, owners, times or extended attributes;
 * so without namespaces these are refused everywhere, in the roots too.
 * Times may still be set to now (a NULL times argument, what touch and make
 * do), never to another time.  Numbers for calls older libseccomp does not
 * name (the same on every architecture since 4.20).
 */
static const struct {
	const char	*name;
	int		 nr;		/* when libseccomp does not know it */
	int		 times_arg;	/* -1, or the times argument */
} seccomp_meta_denied[] = {
	{ "chmod", -1, -1 }, { "fchmod", -1, -1 }, { "fchmodat", -1, -1 },
	{ "fchmodat2", 452, -1 },
	{ "chown", -1, -1 }, { "fchown", -1, -1 }, { "lchown", -1, -1 },
	{ "fchownat", -1, -1 },
	{ "setxattr", -1, -1 }, { "lsetxattr", -1, -1 },
	{ "fsetxattr", -1, -1 }, { "setxattrat", 463, -1 },
	{ "removexattr", -1, -1 }, { "lremovexattr", -1, -1 },
	{ "fremovexattr", -1, -1 }, { "removexattrat", 466, -1 },
	{ "utime", -1, 1 }, { "utimes", -1, 1 }, { "futimesat", -1, 2 },
	{ "utimensat", -1, 2 },
};

/* Refuse the metadata calls above (for a sandbox without namespaces). */
static int
deny_metadata(scmp_filter_ctx ctx, char **cause)
{
	struct scmp_arg_cmp	cmp;
	size_t			i;
	int			nr, r;

	for (i = 0; i < sizeof seccomp_meta_denied /
	    sizeof seccomp_meta_denied[0]; i++) {
		nr = seccomp_syscall_resolve_name(seccomp_meta_denied[i].name);
		if (nr == __NR_SCMP_ERROR)
			nr = seccomp_meta_denied[i].nr;
		if (nr == __NR_SCMP_ERROR || nr < 0)
			continue;	/* a call this architecture lacks */
		if (seccomp_meta_denied[i].times_arg >= 0) {
			cmp = SCMP_CMP((unsigned int)
			    seccomp_meta_denied[i].times_arg, SCMP_CMP_NE, 0);
			r = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM),
			    nr, 1, &cmp);
		} else
			r = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM),
			    nr, 0, NULL);
		if (r != 0) {
			*cause = xasprintf("seccomp: rule for %s: %s",
			    seccomp_meta_denied[i].name, strerror(-r));
			return -1;
		}
	}
	return 0;
}

/*
 * A filtered network: sockets of the internet families only, reaching no
 * further than the namespace's loopback (the proxy, the relays of the
 * host's ports, or what the command serves itself).  No UNIX socket but
 * socketpairs: with connect allowed, a named one would reach any listener
 * of the host (a daemon's socket, ptyvisor's own control socket) -- but
 * where the person named UNIX sockets to relay (unix_ok), whose relays
 * Landlock alone lets the command connect to by path (landlock.c, ABI 9).
 * Netlink, packet and the other families see or touch what the namespace
 * does not hold.
 */
static int
allow_inet_only(scmp_filter_ctx ctx, bool unix_ok, char **cause)
{
	struct scmp_arg_cmp	cmp;
	int			family;

	for (family = 0; family < AF_MAX; family++) {
		if (family == AF_INET || family == AF_INET6 ||
		    (unix_ok && family == AF_UNIX))
			continue;
		cmp = SCMP_CMP(0, SCMP_CMP_EQ, (scmp_datum_t)family);
		if (add_rule(ctx, SCMP_ACT_ERRNO(EPERM), "socket", 1, &cmp,
		    cause) != 0)
			return -1;
	}
	cmp = SCMP_CMP(0, SCMP_CMP_GE, (scmp_datum_t)AF_MAX);
	return add_rule(ctx, SCMP_ACT_ERRNO(EPERM), "socket", 1, &cmp, cause);
}

static scmp_filter_ctx
seccomp_ctx_build(bool network, bool filtered, bool unix_relays,
    bool no_namespaces, char **cause)
{
	scmp_filter_ctx		ctx;
	struct scmp_arg_cmp	cmp[2];
	size_t			i;
	int			r;

	if ((ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL) {
		*cause = xstrdup("seccomp: cannot initialise libseccomp");
		return NULL;
	}
	/* Another ABI (i386 int 0x80, x32) would slip past every rule. */
	r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS);
	if (r != 0) {
		*cause = xasprintf("seccomp: bad-arch action: %s",
		    strerror(-r));
		goto fail;
	}
	/* The filter must hold even if ptyvisor was started with NNP off. */
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 1);

	for (i = 0; i < sizeof seccomp_denied / sizeof seccomp_denied[0]; i++)
		if (add_rule(ctx, SCMP_ACT_ERRNO(EPERM),
		    seccomp_denied[i].name, 0, NULL, cause) != 0)
			goto fail;

	/* clone3 hides its flags in memory: make libc fall back to clone. */
	if (add_rule(ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3", 0, NULL,
	    cause) != 0)
		goto fail;
	/* New namespaces would give back capabilities and mount rights. */
	for (i = 0; i < sizeof seccomp_ns_flags / sizeof seccomp_ns_flags[0];
	    i++) {
		if (deny_flag(ctx, "clone", 0, seccomp_ns_flags[i],
		    cause) != 0 ||
		    deny_flag(ctx, "unshare", 0, seccomp_ns_flags[i],
		    cause) != 0)
			goto fail;
	}

	/*
	 * Memory shared by two processes that both run: the exec checks read
	 * what a program asks to exec from its memory, which such a twin
	 * could change meanwhile.  Threads (CLONE_THREAD, counted) and vfork
	 * children (CLONE_VFORK: the parent waits) stay.
	 */
	cmp[0] = SCMP_CMP(0, SCMP_CMP_MASKED_EQ,
	    CLONE_VM | CLONE_THREAD | CLONE_VFORK, CLONE_VM);
	if (add_rule(ctx, SCMP_ACT_ERRNO(EPERM), "clone", 1, cmp, cause) != 0)
		goto fail;

	/*
	 * A listener of the sandbox's own could answer for the execs of its
	 * children (the exec checks' are ptyvisor's); filters without one,
	 * a browser's say, still load.
	 */
	if (deny_flag(ctx, "seccomp", 1, SECCOMP_FILTER_FLAG_NEW_LISTENER,
	    cause) != 0)
		goto fail;

	/* TIOCSTI types into the terminal the person is using. */
	if (deny_ioctl(ctx, TIOCSTI, cause) != 0)
		goto fail;
	/* TIOCLINUX can paste the console selection as input. */
	if (deny_ioctl(ctx, TIOCLINUX, cause) != 0)
		goto fail;

	/*
	 * Other personalities change the syscall ABI or memory layout: any
	 * non-zero value (64-bit compare, so high bits cannot hide one) is
	 * refused.  The query 0xffffffff answers 0, PER_LINUX, which is
	 * what the sandbox runs with since no change is allowed.
	 */
	cmp[0] = SCMP_CMP(0, SCMP_CMP_GT, PER_LINUX);
	if (add_rule(ctx, SCMP_ACT_ERRNO(EPERM), "personality", 1, cmp,
	    cause) != 0)
		goto fail;
	cmp[0] = SCMP_CMP(0, SCMP_CMP_EQ, 0xffffffffUL);
	if (add_rule(ctx, SCMP_ACT_ERRNO(0), "personality", 1, cmp,
	    cause) != 0)
		goto fail;

	/* vsock reaches the hypervisor and ignores network namespaces. */
	cmp[0] = SCMP_CMP(0, SCMP_CMP_EQ, AF_VSOCK);
	if (add_rule(ctx, SCMP_ACT_ERRNO(EPERM), "socket", 1, cmp,
	    cause) != 0)
		goto fail;

	if (!network && filtered) {
		if (allow_inet_only(ctx, unix_relays, cause) != 0 ||
		    deny_unix_datagrams(ctx, cause) != 0)
			goto fail;
	} else if (!network) {
		/* Only local, unnamed UNIX sockets without the network. */
		cmp[0] = SCMP_CMP(0, SCMP_CMP_NE, AF_UNIX);
		if (add_rule(ctx, SCMP_ACT_ERRNO(EPERM), "socket", 1, cmp,
		    cause) != 0)
			goto fail;
		for (i = 0; i < sizeof seccomp_net_denied /
		    sizeof seccomp_net_denied[0]; i++)
			if (add_rule(ctx, SCMP_ACT_ERRNO(EPERM),
			    seccomp_net_denied[i], 0, NULL, cause) != 0)
				goto fail;
		/* An address on sendto reaches a UNIX listener unconnected. */
		cmp[0] = SCMP_CMP(4, SCMP_CMP_NE, 0);
		if (add_rule(ctx, SCMP_ACT_ERRNO(EPERM), "sendto", 1, cmp,
		    cause) != 0)
			goto fail;
		if (deny_unix_datagrams(ctx, cause) != 0)
			goto fail;
	}
	if (no_namespaces && deny_metadata(ctx, cause) != 0)
		goto fail;
	return ctx;

fail:
	seccomp_release(ctx);
	return NULL;
}

int
sandbox_bpf_export(void *ctx, struct sandbox_bpf *p, const char *what,
    char **cause)
{
	struct stat	 st;
	ssize_t		 n;
	int		 fd, r = 0;

	if ((fd = memfd_create("ptyvisor-bpf", MFD_CLOEXEC)) < 0 ||
	    (r = seccomp_export_bpf(ctx, fd)) != 0 || fstat(fd, &st) != 0 ||
	    st.st_size <= 0 || st.st_size % sizeof *p->insns != 0 ||
	    st.st_size / sizeof *p->insns > BPF_MAXINSNS) {
		*cause = xasprintf("%s: export the filter: %s", what,
		    strerror(fd < 0 ? errno : r != 0 ? -r : EINVAL));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	p->len = (unsigned short)(st.st_size / sizeof *p->insns);
	p->insns = xcalloc(p->len, sizeof *p->insns);
	n = pread(fd, p->insns, (size_t)st.st_size, 0);
	close(fd);
	if (n != st.st_size) {
		*cause = xasprintf("%s: read the exported filter", what);
		free(p->insns);
		p->insns = NULL;
		return -1;
	}
	return 0;
}

/*
 * The programs, one for each kind (the four choices of the build, as bits
 * of the index), built by the first sandbox of that kind: they depend on
 * nothing else of a sandbox's.  Never freed.
 */
static struct sandbox_bpf	*seccomp_built[16];

const struct sandbox_bpf *
sandbox_seccomp_build(bool network, bool filtered, bool unix_relays,
    bool no_namespaces, char **cause)
{
	scmp_filter_ctx		 ctx;
	struct sandbox_bpf	*p;
	unsigned int		 k;

	k = (network ? 1U : 0) | (filtered ? 2U : 0) |
	    (unix_relays ? 4U : 0) | (no_namespaces ? 8U : 0);
	if (seccomp_built[k] != NULL)
		return seccomp_built[k];
	if ((ctx = seccomp_ctx_build(network, filtered, unix_relays,
	    no_namespaces, cause)) == NULL)
		return NULL;
	p = xcalloc(1, sizeof *p);
	if (sandbox_bpf_export(ctx, p, "seccomp", cause) != 0) {
		free(p);
		p = NULL;
	}
	seccomp_release(ctx);
	return seccomp_built[k] = p;
}

int
sandbox_seccomp_apply(struct sandbox *sb)
{
	const struct sandbox_bpf *p = sb->in_ns ? sb->seccomp :
				     sb->seccomp_no_ns;
	struct sock_fprog	 prog;

	/* Without namespaces only the stricter filter will do. */
	if (p == NULL) {
		sandbox_set_stage(sb, "seccomp: no filter for a sandbox "
		    "without namespaces");
		errno = EINVAL;
		return -1;
	}
	/*
	 * The filter must hold even if ptyvisor was started with NNP off
	 * (what libseccomp's load did, as its flags: none).
	 */
	prog.len = p->len;
	prog.filter = p->insns;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
		sandbox_set_stage(sb, "seccomp");
		return -1;
	}
	return 0;
}
