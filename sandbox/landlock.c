/*
 * landlock.c - the Landlock layer: read and execute everywhere, write only
 * in the writable roots (the shared /tmp is one under workspace-write), a
 * private /tmp when asked for, /dev/null and the session's own terminal;
 * no other terminal even for reading (no keystrokes read from the person's
 * terminals, no ioctl on them); no TCP unless network or a filtered
 * network (whose namespace holds only loopback, its way out the proxy);
 * abstract UNIX sockets and signals scoped to the sandbox; where the
 * host's UNIX sockets are relayed, connects by path to those relays and
 * to the sandbox's own sockets only (ABI 9).
 *
 * Best effort across ABI versions: start from every right the newest ABI we
 * know handles and drop what the running kernel lacks (--explain says
 * which).  The system headers may predate the kernel, so the constants of
 * ABI 3 and later are spelled out here.
 */
#include "sandbox/sandbox-int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/util.h"
#include "net/proxy.h"

/* Rights and attributes newer than the oldest supported headers. */
#define LL_FS_TRUNCATE		(1ULL << 14)	/* ABI 3 */
#define LL_FS_IOCTL_DEV		(1ULL << 15)	/* ABI 5 */
#define LL_NET_BIND_TCP		(1ULL << 0)	/* ABI 4 */
#define LL_NET_CONNECT_TCP	(1ULL << 1)	/* ABI 4 */
#define LL_SCOPE_ABSTRACT_UNIX	(1ULL << 0)	/* ABI 6 */
#define LL_SCOPE_SIGNAL		(1ULL << 1)	/* ABI 6 */
#define LL_FS_RESOLVE_UNIX	(1ULL << 16)	/* ABI 9 */

/* The ruleset attribute as of ABI 6; older kernels get a shorter size. */
struct ll_ruleset_attr {
	uint64_t	handled_access_fs;
	uint64_t	handled_access_net;
	uint64_t	scoped;
};

/* Rights of a file (not directory) rule. */
#define LL_FILE_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | \
	LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
	LL_FS_TRUNCATE | LL_FS_IOCTL_DEV | LL_FS_RESOLVE_UNIX)

/* Read and execute: what the whole filesystem gets. */
#define LL_READ_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | \
	LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)

int
sandbox_landlock_abi(void)
{
	long	abi;

	abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
	    LANDLOCK_CREATE_RULESET_VERSION);
	return abi < 0 ? 0 : (int)abi;
}

/* Every filesystem right the given ABI knows. */
static uint64_t
fs_rights(int abi)
{
	uint64_t	r = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1 */

	if (abi >= 2)
		r |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		r |= LL_FS_TRUNCATE;
	if (abi >= 5)
		r |= LL_FS_IOCTL_DEV;
	return r;
}

/*
 * Allow rights (masked to what the ruleset handles) beneath path.  A file
 * gets only file rights.  Missing optional paths are skipped.
 */
static int
allow_path(struct sandbox *sb, int ruleset, const char *path,
    uint64_t rights, uint64_t handled, bool optional)
{
	struct landlock_path_beneath_attr	pb;
	struct stat				st;
	int					fd, e;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		if (optional && (errno == ENOENT || errno == ENOTDIR ||
		    errno == EACCES))
			return 0;
		sandbox_set_stage(sb, "landlock: %s", path);
		return -1;
	}
	if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
		rights &= LL_FILE_RIGHTS;
	memset(&pb, 0, sizeof pb);
	pb.allowed_access = rights & handled;
	pb.parent_fd = fd;
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
	    &pb, 0) != 0) {
		e = errno;
		close(fd);
		sandbox_set_stage(sb, "landlock: rule for %s", path);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

/* Allow the terminal on fd (the session's pty), if it is one. */
static int
allow_tty(struct sandbox *sb, int ruleset, int fd, uint64_t handled)
{
	const uint64_t	rights = LANDLOCK_ACCESS_FS_READ_FILE |
	    LANDLOCK_ACCESS_FS_WRITE_FILE | LL_FS_IOCTL_DEV;
	struct stat	st, con;
	char		name[128];

	if (!isatty(fd))
		return 0;
	/* Under a devpts of our own, it is bound on /dev/console (ns.c). */
	if (sb->own_devpts) {
		if (fstat(fd, &st) != 0 || stat("/dev/console", &con) != 0 ||
		    st.st_dev != con.st_dev || st.st_ino != con.st_ino)
			return 0;
		return allow_path(sb, ruleset, "/dev/console", rights,
		    handled, true);
	}
	if (ttyname_r(fd, name, sizeof name) != 0)
		return 0;
	if (strncmp(name, "/dev/", 5) != 0)
		return 0;
	return allow_path(sb, ruleset, name, rights, handled, true);
}

/*
 * Whether a device under /dev is a terminal or shows one: the virtual
 * consoles and serial lines (major 4), /dev/console (5,1), the screen
 * memory of the consoles (7) and pty slaves (136-143).  /dev/tty (5,0) and
 * /dev/ptmx (5,2) are not: they reach only the caller's own terminal or a
 * new pty.
 */
static bool
is_terminal_dev(const struct stat *st)
{
	unsigned int	maj, min;

	if (!S_ISCHR(st->st_mode))
		return false;
	maj = major(st->st_rdev);
	min = minor(st->st_rdev);
	return maj == 4 || maj == 7 || (maj >= 136 && maj <= 143) ||
	    (maj == 5 && min != 0 && min != 2);
}

/*
 * Read rights for every entry of dir (an absolute path), but /dev/pts and
 * terminals when skip_ttys; read in the child without malloc (getdents64
 * into the stack).
 */
static int
allow_entries(struct sandbox *sb, int ruleset, const char *dir,
    bool skip_ttys, uint64_t handled)
{
	char		 buf[4096], path[PATH_MAX];
	struct stat	 st;
	long		 n, off;
	int		 fd, r = 0;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		sandbox_set_stage(sb, "landlock: %s", dir);
		return -1;
	}
	while (r == 0 && (n = syscall(SYS_getdents64, fd, buf,
	    sizeof buf)) > 0) {
		for (off = 0; r == 0 && off < n; ) {
			struct {
				uint64_t	ino;
				int64_t		off;
				unsigned short	reclen;
				unsigned char	type;
				char		name[];
			} *d = (void *)(buf + off);

			off += d->reclen;
			if (strcmp(d->name, ".") == 0 ||
			    strcmp(d->name, "..") == 0)
				continue;
			if (snprintf(path, sizeof path, "%s/%s",
			    strcmp(dir, "/") == 0 ? "" : dir, d->name) >=
			    (int)sizeof path)
				continue;
			/*
			 * In /dev: not pts, no terminal, no symlink (fd/,
			 * stdin...: what they name is ruled elsewhere).
			 */
			if (skip_ttys && (strcmp(path, "/dev/pts") == 0 ||
			    lstat(path, &st) != 0 || S_ISLNK(st.st_mode) ||
			    is_terminal_dev(&st)))
				continue;
			/* /dev's own entries; everything beneath the rest. */
			if (strcmp(path, "/dev") == 0)
				r = allow_entries(sb, ruleset, "/dev", true,
				    handled);
			else
				r = allow_path(sb, ruleset, path,
				    LL_READ_RIGHTS, handled, true);
		}
	}
	close(fd);
	return r;
}

/*
 * Everything is readable and executable, but the person's terminals: a
 * rule on "/" would cover /dev/pts, so the rules go on each entry of "/"
 * and of /dev instead.  "/" and /dev may still be listed.
 */
static int
allow_reading(struct sandbox *sb, int ruleset, uint64_t handled)
{
	if (allow_path(sb, ruleset, "/", LANDLOCK_ACCESS_FS_READ_DIR,
	    handled, false) != 0)
		return -1;
	return allow_entries(sb, ruleset, "/", false, handled);
}

/* Connecting to the relays of the host's UNIX sockets, at their paths. */
static int
allow_relays(struct sandbox *sb, int ruleset, uint64_t handled)
{
	const char	*paths[PROXY_MAX_RELAYS];
	int		 n, i;

	n = sandbox_hostsvc_paths(sb, paths, PROXY_MAX_RELAYS);
	for (i = 0; i < n; i++)
		if (allow_path(sb, ruleset, paths[i], LL_FS_RESOLVE_UNIX,
		    handled, false) != 0)
			return -1;
	return 0;
}

int
sandbox_landlock_apply(struct sandbox *sb)
{
	struct ll_ruleset_attr	attr;
	size_t			size;
	uint64_t		fs, rw;
	int			abi = sb->landlock_abi, ruleset, i, e, fd;

	if (abi == 0) {
		if (sb->opts.allow_no_landlock)
			return 0;
		sandbox_set_stage(sb, "landlock");
		errno = ENOSYS;
		return -1;
	}
	memset(&attr, 0, sizeof attr);
	fs = fs_rights(abi);
	attr.handled_access_fs = fs;
	size = sizeof attr.handled_access_fs;
	if (abi >= 4) {
		size = offsetof(struct ll_ruleset_attr, scoped);
		/* A filtered network's namespace holds only loopback. */
		if (!sb->opts.network && sb->hosts == NULL)
			attr.handled_access_net = LL_NET_BIND_TCP |
			    LL_NET_CONNECT_TCP;
	}
	if (abi >= 6) {
		size = sizeof attr;
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
	}
	/*
	 * UNIX sockets of the host relayed (hostsvc.c, which refuses them
	 * below ABI 9): connecting by path only to the relays and to what
	 * the command binds itself, never the host's other sockets.  Only
	 * then: elsewhere the seccomp filter says which sockets there are.
	 */
	if (sb->unix_relays)
		attr.handled_access_fs |= LL_FS_RESOLVE_UNIX;
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (ruleset < 0) {
		sandbox_set_stage(sb, "landlock: create ruleset");
		return -1;
	}
	if (sb->unix_relays && allow_relays(sb, ruleset,
	    attr.handled_access_fs) != 0)
		goto fail;

	/* Everything is readable and executable, the device ioctls aside. */
	rw = fs & ~LL_FS_IOCTL_DEV;
	if (allow_reading(sb, ruleset, fs) != 0)
		goto fail;
	for (i = 0; i < sb->nroots; i++)
		if (allow_path(sb, ruleset, sb->roots[i], rw, fs, false) != 0)
			goto fail;
	if (sb->in_ns && sb->opts.private_tmp) {
		if (allow_path(sb, ruleset, "/tmp", rw, fs, false) != 0 ||
		    allow_path(sb, ruleset, "/dev/shm", rw, fs, true) != 0)
			goto fail;
	}
	if (allow_path(sb, ruleset, "/dev/null", rw, fs, false) != 0 ||
	    allow_path(sb, ruleset, "/dev/zero", rw, fs, true) != 0 ||
	    allow_path(sb, ruleset, "/dev/full", rw, fs, true) != 0 ||
	    allow_path(sb, ruleset, "/dev/tty", LANDLOCK_ACCESS_FS_READ_FILE |
	    LANDLOCK_ACCESS_FS_WRITE_FILE | LL_FS_IOCTL_DEV, fs, true) != 0)
		goto fail;
	for (fd = 0; fd <= 2; fd++)
		if (allow_tty(sb, ruleset, fd, fs) != 0)
			goto fail;
	/* Our own devpts holds only the ptys made inside: theirs to use. */
	if (sb->own_devpts && (allow_path(sb, ruleset, "/dev/pts",
	    rw | LL_FS_IOCTL_DEV, fs, false) != 0 || allow_path(sb, ruleset,
	    "/dev/ptmx", rw | LL_FS_IOCTL_DEV, fs, true) != 0))
		goto fail;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		sandbox_set_stage(sb, "landlock: no_new_privs");
		goto fail;
	}
	if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
		sandbox_set_stage(sb, "landlock: restrict");
		goto fail;
	}
	close(ruleset);
	return 0;

fail:
	e = errno;
	close(ruleset);
	errno = e;
	return -1;
}

void
sandbox_landlock_explain(int abi, bool network, struct buf *out)
{
	static const struct {
		int		 abi;
		const char	*what;
	} features[] = {
		{ 1, "filesystem: writes only under the writable roots, no "
		  "terminal but the session's" },
		{ 2, "refer: no link/rename out of the roots" },
		{ 3, "truncate" },
		{ 4, "TCP bind/connect" },
		{ 5, "device ioctls (only the session's terminal)" },
		{ 6, "scopes: abstract UNIX sockets and signals" },
	};
	size_t	i;

	for (i = 0; i < sizeof features / sizeof features[0]; i++) {
		if (features[i].abi == 4 && network)
			buf_printf(out, "    %-9s %s: not used (network "
			    "allowed, or filtered by its own namespace)\n", "",
			    features[i].what);
		else
			buf_printf(out, "    %-9s %s (ABI %d)\n",
			    abi >= features[i].abi ? "in force" : "MISSING",
			    features[i].what, features[i].abi);
	}
}
