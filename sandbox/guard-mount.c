/*
 * guard-mount.c - the guarded paths (guard.h) put in force inside the
 * sandbox's mount namespace, and kept there while the session runs.
 *
 *   read-only  the path bound on itself, read-only (what is not under a
 *              writable root is read-only already and gets nothing);
 *   hidden     an empty file or directory of mode 0 bound on it, from a
 *              small tmpfs of the sandbox's own (the command has no
 *              capability left to read what mode 0 keeps);
 *   view       a directory with hidden entries: a read-only tmpfs on it
 *              holding each other entry, bound from the original, so
 *              that a hidden file replaced outside never shows up.
 *
 * A mount on a file goes with the file: when the person's tools replace
 * one by a rename (git, editors, an agent saving its settings, an OAuth
 * refresh), the kernel detaches the mount from the old file in every
 * namespace.  So the relay watches the directories of the guarded paths
 * (inotify, as a real-time signal it waits for anyway) and puts the mount
 * back on whatever now has the name.
 *
 * Invariants: runs in the sandbox's processes only, after the namespaces
 * exist; never allocates; a mount that fails fails the sandbox (stage
 * "mount: guard PATH"), but for a path that is gone (left out of a view
 * or a hidden directory above it).
 */
#include "sandbox/sandbox-int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* The names of the hidden stand-ins in the sandbox's own tmpfs. */
#define EMPTY_FILE	"file"
#define EMPTY_DIR	"dir"

int
sandbox_guard_source(struct sandbox *sb)
{
	int	mnt, fd;

	sb->guard_src = -1;
	if (sb->guards.n == 0)
		return 0;
	if ((mnt = sandbox_tmpfs()) < 0)
		goto fail;
	if ((fd = openat(mnt, EMPTY_FILE, O_WRONLY | O_CREAT | O_EXCL |
	    O_CLOEXEC, 0)) < 0 || mkdirat(mnt, EMPTY_DIR, 0) != 0) {
		if (fd >= 0)
			close(fd);
		close(mnt);
		goto fail;
	}
	close(fd);
	sb->guard_src = mnt;
	return 0;
fail:
	sandbox_set_stage(sb, "mount: guard: a tmpfs of its own");
	return -1;
}

/* Move the detached tree fd onto path, read-only; 0, or -1 with errno. */
static int
put_readonly(int fd, const char *path)
{
	struct mount_attr	attr;
	int			r;

	memset(&attr, 0, sizeof attr);
	attr.attr_set = MOUNT_ATTR_RDONLY;
	r = mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr,
	    sizeof attr);
	if (r == 0)
		r = move_mount(fd, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH);
	close(fd);
	return r;
}

/* Bind path on itself, read-only. */
static int
bind_readonly(const char *path)
{
	int	fd;

	fd = open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
	    AT_RECURSIVE);
	return fd < 0 ? -1 : put_readonly(fd, path);
}

/* Bind the empty stand-in of the right kind on path, read-only. */
static int
bind_hidden(const struct sandbox *sb, const char *path, bool dir)
{
	int	fd;

	fd = open_tree(sb->guard_src, dir ? EMPTY_DIR : EMPTY_FILE,
	    OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	return fd < 0 ? -1 : put_readonly(fd, path);
}

/* A view of g (see the head comment). */
static int
mount_view(const struct guard_path *g)
{
	int		 src[GUARD_VIEW_MAX], dfd, tfd = -1, fd, r = -1;
	size_t		 i, n;
	struct stat	 st;
	char		 opts[32];

	for (n = 0; g->entries[n] != NULL; n++)
		src[n] = -1;
	if ((dfd = open(g->path, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    fstat(dfd, &st) != 0)
		goto out;
	for (i = 0; i < n; i++)
		if (g->links[i] == NULL)
			src[i] = open_tree(dfd, g->entries[i], OPEN_TREE_CLONE |
			    OPEN_TREE_CLOEXEC | AT_RECURSIVE |
			    AT_SYMLINK_NOFOLLOW);
	snprintf(opts, sizeof opts, "mode=%o", (unsigned)(st.st_mode & 07777));
	if (mount("tmpfs", g->path, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0 ||
	    (tfd = open(g->path, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (g->links[i] != NULL) {
			if (symlinkat(g->links[i], tfd, g->entries[i]) != 0)
				goto out;
			continue;
		}
		if (src[i] < 0)
			continue;	/* gone since: left out */
		if (g->modes[i] == S_IFDIR) {
			if (mkdirat(tfd, g->entries[i], 0755) != 0)
				goto out;
		} else {
			if ((fd = openat(tfd, g->entries[i], O_WRONLY |
			    O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0)
				goto out;
			close(fd);
		}
		if (move_mount(src[i], "", tfd, g->entries[i],
		    MOVE_MOUNT_F_EMPTY_PATH) != 0)
			goto out;
	}
	r = bind_readonly(g->path);
out:
	for (i = 0; i < n; i++)
		if (src[i] >= 0)
			close(src[i]);
	if (dfd >= 0)
		close(dfd);
	if (tfd >= 0)
		close(tfd);
	return r;
}

/* Put g in force; 0 when done or not needed, -1 with errno. */
static int
guard_apply(const struct sandbox *sb, const struct guard_path *g)
{
	struct stat	st;

	if (g->covered)
		return 0;
	if (g->how == GUARD_READ_ONLY && !g->writable && !g->view)
		return 0;
	if (stat(g->path, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR || errno == EACCES ?
		    0 : -1;
	if (g->view)
		return mount_view(g);
	if (g->how == GUARD_HIDDEN)
		return bind_hidden(sb, g->path, S_ISDIR(st.st_mode));
	return bind_readonly(g->path);
}

/*
 * A file among 0-2 open for reading only was opened outside, through the
 * mounts as they were: reopening it by /proc/self/fd would reach it
 * writable there, past the read-only view.  Reopen it through the view
 * (same file, same offset), so that such a reopen meets what the sandbox
 * shows; one that is no longer there by its name is left as it is.
 */
static void
guard_stdio(void)
{
	struct stat	 a, b;
	char		 link[32], path[PATH_MAX];
	ssize_t		 n;
	off_t		 off;
	int		 fd, nfd, fl;

	for (fd = 0; fd <= 2; fd++) {
		if (fstat(fd, &a) != 0 || !S_ISREG(a.st_mode) ||
		    (fl = fcntl(fd, F_GETFL)) < 0 ||
		    (fl & O_ACCMODE) != O_RDONLY)
			continue;
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		if ((n = readlink(link, path, sizeof path - 1)) <= 0 ||
		    path[0] != '/')
			continue;
		path[n] = '\0';
		if ((nfd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)) < 0)
			continue;
		off = lseek(fd, 0, SEEK_CUR);
		if (fstat(nfd, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino &&
		    fcntl(nfd, F_SETFL, fl & ~O_ACCMODE) == 0 &&
		    (off < 0 || lseek(nfd, off, SEEK_SET) == off))
			dup2(nfd, fd);
		close(nfd);
	}
}

int
sandbox_guard_mount(struct sandbox *sb)
{
	size_t	i;

	for (i = 0; i < sb->guards.n; i++) {
		if (guard_apply(sb, &sb->guards.v[i]) != 0) {
			sandbox_set_stage(sb, "mount: guard %s",
			    sb->guards.v[i].path);
			return -1;
		}
	}
	guard_stdio();
	return 0;
}

int
sandbox_guard_watch(struct sandbox *sb, int sig)
{
	struct guard_path	*g;
	char			 dir[PATH_MAX];
	size_t			 i;
	int			 fd;

	if (sb->guards.n == 0 ||
	    (fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0)
		return -1;
	for (i = 0; i < sb->guards.n; i++) {
		g = &sb->guards.v[i];
		g->wd = -1;
		if (g->covered || (g->how == GUARD_READ_ONLY && !g->writable))
			continue;
		guard_parent(g->path, dir, sizeof dir);
		g->wd = inotify_add_watch(fd, dir, IN_CREATE | IN_MOVED_TO |
		    IN_ONLYDIR);
	}
	if (fcntl(fd, F_SETOWN, getpid()) != 0 ||
	    fcntl(fd, F_SETSIG, sig) != 0 ||
	    fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

void
sandbox_guard_event(struct sandbox *sb, int fd)
{
	char				 buf[4096]
	    __attribute__((aligned(__alignof__(struct inotify_event))));
	const struct inotify_event	*ev;
	struct guard_path		*g;
	const char			*base;
	ssize_t				 n, off;
	size_t				 i;

	while ((n = read(fd, buf, sizeof buf)) > 0) {
		for (off = 0; off < n; off += (ssize_t)sizeof *ev + ev->len) {
			ev = (const struct inotify_event *)(buf + off);
			if (ev->len == 0)
				continue;
			for (i = 0; i < sb->guards.n; i++) {
				g = &sb->guards.v[i];
				base = strrchr(g->path, '/') + 1;
				if (g->wd == ev->wd &&
				    strcmp(base, ev->name) == 0)
					(void)guard_apply(sb, g);
			}
		}
	}
}
