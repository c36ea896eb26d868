/*
 * stage.c - what every layer of the sandbox shares: naming the stage that
 * failed (in the child), writing a short value to a kernel file (in the
 * child, and in the parent for the session's cgroups), and a small tmpfs
 * of the sandbox's own, mounted nowhere (in the child, in its namespaces).
 *
 * Invariants: none allocates, so each may run between fork and exec;
 * a stage set here is a terminated string that starts with "sandbox: ".
 * Every layer (ns, net, landlock, seccomp, limits, caps, child) calls down
 * to this file and nothing here calls back up.
 */
#include "sandbox/sandbox-int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

/* Fill sb->stage with "sandbox: " and the formatted stage name. */
void
sandbox_set_stage(struct sandbox *sb, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	n = snprintf(sb->stage, sizeof sb->stage, "sandbox: ");
	va_start(ap, fmt);
	vsnprintf(sb->stage + n, sizeof sb->stage - (size_t)n, fmt, ap);
	va_end(ap);
}

/* Write s to path in one write(2) (/proc, cgroupfs); 0 or -1 with errno. */
int
sandbox_write_file(const char *path, const char *s)
{
	ssize_t	n;
	int	fd, e;

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -1;
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* A detached tmpfs (mode 0755, nosuid, nodev, noexec); its fd, or -1. */
int
sandbox_tmpfs(void)
{
	int	fs, mnt;

	if ((fs = fsopen("tmpfs", FSOPEN_CLOEXEC)) < 0)
		return -1;
	if (fsconfig(fs, FSCONFIG_SET_STRING, "mode", "0755", 0) != 0 ||
	    fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) != 0)
		mnt = -1;
	else
		mnt = fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID |
		    MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	close(fs);
	return mnt;
}
