/*
 * caps.c - parent-death signal, no_new_privs and the capability drop.
 *
 * After sandbox_caps_apply() the process holds no capability in any set
 * (effective, permitted, inheritable, ambient, bounding), so not even root
 * regains one at exec, and no setuid or file-capability binary can raise
 * it (no_new_privs).  Dropping the bounding set needs CAP_SETPCAP: a
 * process that lacks it but also holds no capability at all is fine.
 */
#include "sandbox/sandbox-int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int
sandbox_caps_last(void)
{
	char	buf[16];
	ssize_t	n;
	int	fd, last = CAP_LAST_CAP;

	fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 63;	/* drop every bit a 64-bit set can hold */
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n > 0) {
		buf[n] = '\0';
		last = atoi(buf);
	}
	return last > 0 && last < 64 ? last : 63;
}

/* Whether this process holds any capability at all. */
static int
has_any_cap(bool *any)
{
	struct __user_cap_header_struct	hdr;
	struct __user_cap_data_struct	data[2];

	memset(&hdr, 0, sizeof hdr);
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	if (syscall(SYS_capget, &hdr, data) != 0)
		return -1;
	*any = (data[0].permitted | data[1].permitted |
	    data[0].effective | data[1].effective) != 0;
	return 0;
}

int
sandbox_caps_apply(struct sandbox *sb)
{
	struct __user_cap_header_struct	hdr;
	struct __user_cap_data_struct	data[2];
	bool				any;
	int				cap;

	/* The sandbox dies with whoever waits for it... */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
		sandbox_set_stage(sb, "parent death signal");
		return -1;
	}
	/* ...and if that was already gone, do not run at all. */
	if (getppid() != (sb->in_ns ? 1 : sb->parent)) {
		sandbox_set_stage(sb, "parent death signal");
		errno = ESRCH;
		return -1;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		sandbox_set_stage(sb, "no_new_privs");
		return -1;
	}

	for (cap = 0; cap <= sb->cap_last; cap++) {
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0 ||
		    errno == EINVAL)
			continue;
		if (errno != EPERM || has_any_cap(&any) != 0 || any) {
			sandbox_set_stage(sb, "capabilities: bounding set");
			return -1;
		}
		break;	/* no CAP_SETPCAP and nothing to lose */
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 &&
	    errno != EINVAL) {
		sandbox_set_stage(sb, "capabilities: ambient set");
		return -1;
	}
	memset(&hdr, 0, sizeof hdr);
	memset(data, 0, sizeof data);
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	if (syscall(SYS_capset, &hdr, data) != 0) {
		sandbox_set_stage(sb, "capabilities");
		return -1;
	}
	if (has_any_cap(&any) != 0 || any) {
		sandbox_set_stage(sb, "capabilities: still held");
		errno = EPERM;
		return -1;
	}
	return 0;
}
