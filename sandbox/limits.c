/*
 * limits.c - resource bounds: rlimits, the pids cgroup, and ptyvisor's own
 * start-up hardening.
 *
 * RLIMIT_NPROC does not bind uid 0, so for root the process count comes
 * from a pids cgroup made below ptyvisor's own (cgroup v2, or the v1 pids
 * hierarchy).  The cgroup is made and removed in the parent; the child only
 * writes its pid into it.  For other users RLIMIT_NPROC is set after the
 * user namespace exists, where it counts the sandbox's processes only.
 *
 * Memory is bounded for the sandbox as a whole by a memory cgroup, never by
 * RLIMIT_AS (address space is not memory: it breaks AddressSanitizer, Go
 * and JVMs, which reserve far more than they use): cgroup v2 memory.max with
 * memory.swap.max 0 below the nearest of our cgroup and its ancestors that
 * hands the memory controller to its children (for root any; for others a
 * delegated one, such as a systemd user slice), else the v1 hierarchy's
 * memory.limit_in_bytes and memory.memsw.limit_in_bytes.  Where neither
 * can be made the memory is not bounded, and --explain says why.  The
 * cgroup's oom_kill count tells a session killed for its memory.
 *
 * A cgroup is made and removed by the ptyvisor that runs the sandbox; the
 * empty ones a ptyvisor killed with SIGKILL left behind are removed by the
 * next one that makes a cgroup in the same place.
 */
#include "sandbox/sandbox-int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
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

/*
 * Remove the empty cgroups a ptyvisor that no longer runs left in dir
 * ("ptyvisor-PID-..."): one killed with SIGKILL never removed its own.  A
 * cgroup still in use is not empty, and rmdir refuses it.
 */
static void
cgroup_sweep(const char *dir)
{
	struct dirent	*de;
	DIR		*d;
	char		*path, *end;
	long		 pid;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "ptyvisor-", 9) != 0)
			continue;
		pid = strtol(de->d_name + 9, &end, 10);
		if (pid <= 0 || *end != '-' || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		rmdir(path);
		free(path);
	}
	closedir(d);
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
	cgroup_sweep(own);
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

/* Whether the small file at path holds word among its blank-separated words. */
static bool
file_has_word(const char *path, const char *word)
{
	char	buf[512], *tok, *save;
	ssize_t	n;
	int	fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (tok = strtok_r(buf, " \t\n", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t\n", &save))
		if (strcmp(tok, word) == 0)
			return true;
	return false;
}

/*
 * The cgroup v2 directory to make the memory cgroup in: the nearest of ours
 * and its ancestors that hands the memory controller to its children (a
 * process's own cgroup is usually a leaf, such as a systemd scope, and its
 * parent slice the one that does: delegated to the user, or any for root).
 * The root cgroup may be asked to (it has no "no internal process" rule).
 */
static char *
memcg_own_v2(const char *path)
{
	static const char *const mounts[] = {
		"/sys/fs/cgroup", "/sys/fs/cgroup/unified"
	};
	char	*dir, *file, *slash;
	size_t	 i;
	bool	 ok;

	for (i = 0; i < sizeof mounts / sizeof mounts[0]; i++) {
		dir = xasprintf("%s%s", mounts[i],
		    strcmp(path, "/") == 0 ? "" : path);
		file = xasprintf("%s/cgroup.controllers", dir);
		ok = file_has_word(file, "memory");
		free(file);
		while (ok) {
			file = xasprintf("%s/cgroup.subtree_control", dir);
			ok = file_has_word(file, "memory") ||
			    (strcmp(dir, mounts[i]) == 0 &&
			    sandbox_write_file(file, "+memory") == 0);
			free(file);
			if (ok)
				return dir;
			/* Up one, never above the mount. */
			if (strcmp(dir, mounts[i]) == 0 ||
			    (slash = strrchr(dir, '/')) == NULL)
				break;
			*slash = '\0';
			ok = true;
		}
		free(dir);
	}
	return NULL;
}

/* Our memory cgroup's directory: v2 if usable, else v1; NULL if none. */
static char *
memcg_own_dir(int *version)
{
	FILE	*f;
	char	 line[1024], *v1 = NULL, *v2 = NULL, *ctl, *path;
	size_t	 len;

	if ((f = fopen("/proc/self/cgroup", "re")) == NULL)
		return NULL;
	while (fgets(line, sizeof line, f) != NULL) {
		len = strcspn(line, "\n");
		line[len] = '\0';
		if (strncmp(line, "0::", 3) == 0) {
			if (v2 == NULL)
				v2 = memcg_own_v2(line + 3);
			continue;
		}
		/* v1: "N:controller[,controller...]:path" */
		if ((ctl = strchr(line, ':')) == NULL ||
		    (path = strchr(ctl + 1, ':')) == NULL)
			continue;
		*path++ = '\0';
		if (v1 == NULL && (strcmp(ctl + 1, "memory") == 0 ||
		    strstr(ctl + 1, "memory,") != NULL ||
		    strstr(ctl + 1, ",memory") != NULL))
			v1 = xasprintf("/sys/fs/cgroup/memory%s",
			    strcmp(path, "/") == 0 ? "" : path);
	}
	fclose(f);
	if (v2 != NULL) {
		free(v1);
		*version = 2;
		return v2;
	}
	*version = 1;
	return v1;
}

int
sandbox_memcg_create(struct sandbox *sb, char *why, size_t len)
{
	static unsigned int	 counter;
	struct timespec		 ts;
	char			*own, *dir, *file, value[32], *parent;
	bool			 shared = false;
	int			 version;

	if ((own = memcg_own_dir(&version)) == NULL) {
		snprintf(why, len, "no memory cgroup we may make children in "
		    "(cgroup v2 memory not delegated to ours, no v1 memory "
		    "hierarchy)");
		return -1;
	}
	/* v2: the pids cgroup made below the same one holds both. */
	if (version == 2 && sb->cgroup != NULL &&
	    (parent = strrchr(sb->cgroup, '/')) != NULL &&
	    (size_t)(parent - sb->cgroup) == strlen(own) &&
	    strncmp(sb->cgroup, own, strlen(own)) == 0) {
		dir = xstrdup(sb->cgroup);
		shared = true;
	} else {
		cgroup_sweep(own);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		dir = xasprintf("%s/ptyvisor-%ld-%u-%ld-mem", own,
		    (long)getpid(), counter++, (long)ts.tv_nsec);
		if (mkdir(dir, 0755) != 0) {
			snprintf(why, len, "%s: %s", dir, strerror(errno));
			free(dir);
			free(own);
			return -1;
		}
	}
	free(own);
	snprintf(value, sizeof value, "%llu",
	    (unsigned long long)sb->opts.limits.memory);
	file = xasprintf("%s/%s", dir, version == 2 ? "memory.max" :
	    "memory.limit_in_bytes");
	if (sandbox_write_file(file, value) != 0)
		goto fail;
	free(file);
	/* No swap on top (absent where the kernel does not count swap). */
	file = xasprintf("%s/%s", dir, version == 2 ? "memory.swap.max" :
	    "memory.memsw.limit_in_bytes");
	if (sandbox_write_file(file, version == 2 ? "0" : value) != 0 &&
	    errno != ENOENT)
		goto fail;
	free(file);
	sb->memcg = dir;
	sb->memcg_procs = shared ? NULL : xasprintf("%s/cgroup.procs", dir);
	sb->memcg_events = xasprintf("%s/%s", dir, version == 2 ?
	    "memory.events" : "memory.oom_control");
	sb->memcg_version = version;
	return 0;
fail:
	snprintf(why, len, "%s: %s", file, strerror(errno));
	free(file);
	if (!shared)
		rmdir(dir);
	free(dir);
	return -1;
}

bool
sandbox_memory_exceeded(const struct sandbox *sb)
{
	char		 line[128];
	unsigned long	 n;
	FILE		*f;
	bool		 killed = false;

	if (sb == NULL || sb->memcg_events == NULL ||
	    (f = fopen(sb->memcg_events, "re")) == NULL)
		return false;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "oom_kill %lu", &n) == 1 && n > 0)
			killed = true;
	fclose(f);
	return killed;
}

int
sandbox_cgroup_join(struct sandbox *sb)
{
	if (sb->cgroup_procs != NULL &&
	    sandbox_write_file(sb->cgroup_procs, "0") != 0) {
		sandbox_set_stage(sb, "pids cgroup");
		return -1;
	}
	if (sb->memcg_procs != NULL &&
	    sandbox_write_file(sb->memcg_procs, "0") != 0) {
		sandbox_set_stage(sb, "memory cgroup");
		return -1;
	}
	return 0;
}

/* Remove a cgroup directory once its exiting tasks are gone. */
static void
cgroup_rmdir(const char *dir)
{
	struct timespec	ts = { 0, 2 * 1000 * 1000 };
	int		tries;

	/* Exiting tasks may linger a moment after their parent reaped them. */
	for (tries = 0; tries < 50; tries++) {
		if (rmdir(dir) == 0 || errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
}

void
sandbox_cgroup_remove(struct sandbox *sb)
{
	if (sb->memcg != NULL && (sb->cgroup == NULL ||
	    strcmp(sb->memcg, sb->cgroup) != 0))
		cgroup_rmdir(sb->memcg);
	if (sb->cgroup != NULL)
		cgroup_rmdir(sb->cgroup);
	free(sb->memcg);
	free(sb->memcg_procs);
	free(sb->memcg_events);
	sb->memcg = sb->memcg_procs = sb->memcg_events = NULL;
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
	if (l->file_size != 0 &&
	    set_limit(sb, RLIMIT_FSIZE, "file size", l->file_size) != 0)
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
