/*
 * limits.c - resource bounds: rlimits, the pids cgroup, and ptyvisor's own
 * start-up hardening.
 *
 * RLIMIT_NPROC does not bind uid 0, so for root the process count comes
 * from a pids cgroup made below ptyvisor's own (cgroup v2, or the v1 pids
 * hierarchy).  The cgroup is made and removed in the parent; the child only
 * writes its pid into it.  For other users RLIMIT_NPROC is set after the
 * user namespace exists, where it counts the sandbox's processes only.
 */
#include "sandbox/sandbox-int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

/*
 * Find the directory of our own pids cgroup: the v2 unified one when it
 * offers the pids controller, else the v1 pids hierarchy.
 */
static char *
cgroup_own_dir(void)
{
	FILE	*f;
	char	 line[1024], *path, *dir = NULL, *ctl;
	size_t	 len;

	if ((f = fopen("/proc/self/cgroup", "re")) == NULL)
		return NULL;
	while (dir == NULL && fgets(line, sizeof line, f) != NULL) {
		len = strcspn(line, "\n");
		line[len] = '\0';
		if (strncmp(line, "0::", 3) == 0) {
			/* v2: the mount is usually /sys/fs/cgroup itself. */
			path = xasprintf("/sys/fs/cgroup%s/cgroup.controllers",
			    line + 3);
			if (access(path, R_OK) == 0) {
				ctl = xasprintf("/sys/fs/cgroup%s",
				    strcmp(line + 3, "/") == 0 ? "" : line + 3);
				free(path);
				path = xasprintf("%s/pids.max", ctl);
				if (access(path, F_OK) == 0 ||
				    strcmp(line + 3, "/") == 0)
					dir = ctl;
				else
					free(ctl);
			}
			free(path);
		} else if ((ctl = strstr(line, ":pids:")) != NULL)
			dir = xasprintf("/sys/fs/cgroup/pids%s",
			    strcmp(ctl + 6, "/") == 0 ? "" : ctl + 6);
	}
	fclose(f);
	return dir;
}

int
sandbox_cgroup_create(struct sandbox *sb, char *why, size_t len)
{
	static unsigned int	 counter;
	struct timespec		 ts;
	char			*own, *dir, *max, value[32];

	if ((own = cgroup_own_dir()) == NULL) {
		snprintf(why, len, "no pids cgroup found");
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	dir = xasprintf("%s/ptyvisor-%ld-%u-%ld", own, (long)getpid(),
	    counter++, (long)ts.tv_nsec);
	free(own);
	if (mkdir(dir, 0755) != 0) {
		snprintf(why, len, "%s: %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	max = xasprintf("%s/pids.max", dir);
	snprintf(value, sizeof value, "%llu",
	    (unsigned long long)sb->opts.limits.processes);
	if (sandbox_write_file(max, value) != 0) {
		snprintf(why, len, "%s: %s", max, strerror(errno));
		free(max);
		rmdir(dir);
		free(dir);
		return -1;
	}
	free(max);
	sb->cgroup = dir;
	sb->cgroup_procs = xasprintf("%s/cgroup.procs", dir);
	return 0;
}

int
sandbox_cgroup_join(struct sandbox *sb)
{
	if (sb->cgroup_procs == NULL)
		return 0;
	if (sandbox_write_file(sb->cgroup_procs, "0") != 0) {
		sandbox_set_stage(sb, "pids cgroup");
		return -1;
	}
	return 0;
}

void
sandbox_cgroup_remove(struct sandbox *sb)
{
	struct timespec	ts = { 0, 2 * 1000 * 1000 };
	int		tries;

	if (sb->cgroup == NULL)
		return;
	/* Exiting tasks may linger a moment after their parent reaped them. */
	for (tries = 0; tries < 50; tries++) {
		if (rmdir(sb->cgroup) == 0 || errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	free(sb->cgroup);
	free(sb->cgroup_procs);
	sb->cgroup = sb->cgroup_procs = NULL;
}

/* Lower one limit to value (both soft and hard, never raising). */
static int
set_limit(struct sandbox *sb, int resource, const char *name, uint64_t value)
{
	struct rlimit	rl;

	if (getrlimit(resource, &rl) != 0)
		goto fail;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < value)
		value = rl.rlim_max;
	rl.rlim_cur = rl.rlim_max = value;
	if (setrlimit(resource, &rl) == 0)
		return 0;
fail:
	sandbox_set_stage(sb, "limits: %s", name);
	return -1;
}

int
sandbox_limits_apply(struct sandbox *sb)
{
	const struct sandbox_limits	*l = &sb->opts.limits;

	if (set_limit(sb, RLIMIT_CORE, "core", 0) != 0)
		return -1;
	if (l->address_space != 0 &&
	    set_limit(sb, RLIMIT_AS, "address space", l->address_space) != 0)
		return -1;
	if (l->open_files != 0 &&
	    set_limit(sb, RLIMIT_NOFILE, "open files", l->open_files) != 0)
		return -1;
	/* Root is exempt from RLIMIT_NPROC: the cgroup bounds it instead. */
	if (l->processes != 0 && !sb->is_root &&
	    set_limit(sb, RLIMIT_NPROC, "processes", l->processes) != 0)
		return -1;
	return 0;
}

void
sandbox_harden_self(void)
{
	struct rlimit	rl = { 0, 0 };

	/* Nobody of the same uid may ptrace us or read our memory... */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* ...and no core file will hold our secrets. */
	setrlimit(RLIMIT_CORE, &rl);
}
