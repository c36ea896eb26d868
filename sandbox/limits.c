/*
 * limits.c - resource bounds: rlimits, the session's pids and memory
 * cgroups (made, joined, swept and removed), and ptyvisor's own start-up
 * hardening (not dumpable, no core).
 *
 * RLIMIT_NPROC does not bind uid 0, so for root the process count comes
 * from a pids cgroup (cgroup v2: below ours or the nearest ancestor that
 * hands pids to its children; else the v1 pids hierarchy).  The cgroup is
 * made and removed in the parent; the child only writes its pid into it.
 * On v2 a process is in one cgroup only: where memory is bounded too, the
 * session has one cgroup holding both bounds.  For other users RLIMIT_NPROC
 * is set after the user namespace exists, where it counts the sandbox's
 * processes only.
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

/* Our cgroup v2 path (the "0::PATH" line of /proc/self/cgroup), or NULL. */
static char *
cgroup2_own_path(void)
{
	FILE	*f;
	char	 line[1024], *path = NULL;

	if ((f = fopen("/proc/self/cgroup", "re")) == NULL)
		return NULL;
	while (path == NULL && fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "0::", 3) == 0)
			path = xstrdup(line + 3);
	}
	fclose(f);
	return path;
}

/*
 * The cgroup v2 directory to make a session's cgroup in, handing on every
 * controller of ctls, tried below each place the unified hierarchy is
 * mounted (alone, or beside v1 in a hybrid); NULL where none.  Where one
 * is found, *bound is lowered to the bounds in file of the cgroups left
 * behind between ours and it (sandbox_cgroup2_bound).
 */
static char *
cgroup2_parent_any(const char *const *ctls, const char *file,
    uint64_t *bound)
{
	static const char *const mounts[] = {
		"/sys/fs/cgroup", "/sys/fs/cgroup/unified"
	};
	char	*path, *dir = NULL;
	size_t	 i;

	if ((path = cgroup2_own_path()) == NULL)
		return NULL;
	for (i = 0; dir == NULL && i < sizeof mounts / sizeof mounts[0]; i++)
		if ((dir = sandbox_cgroup2_parent(mounts[i], path, ctls)) !=
		    NULL)
			*bound = sandbox_cgroup2_bound(mounts[i], path, dir,
			    file, *bound);
	free(path);
	return dir;
}

uint64_t
sandbox_cgroup2_bound(const char *mount, const char *path, const char *parent,
    const char *file, uint64_t value)
{
	char			*dir, *name, *slash, *end, buf[64];
	size_t			 plen = strlen(parent);
	unsigned long long	 n;
	FILE			*f;

	dir = xasprintf("%s%s", mount, strcmp(path, "/") == 0 ? "" : path);
	/* Only from below parent (or parent itself: nothing left behind). */
	if (strncmp(dir, parent, plen) != 0 ||
	    (dir[plen] != '/' && dir[plen] != '\0')) {
		free(dir);
		return value;
	}
	while (strlen(dir) > plen) {
		name = xasprintf("%s/%s", dir, file);
		if ((f = fopen(name, "re")) != NULL) {
			/* A number, or "max" (none). */
			if (fgets(buf, sizeof buf, f) != NULL) {
				errno = 0;
				n = strtoull(buf, &end, 10);
				if (end != buf && (*end == '\n' ||
				    *end == '\0') && errno == 0 && n < value)
					value = n;
			}
			fclose(f);
		}
		free(name);
		if ((slash = strrchr(dir, '/')) == NULL)
			break;
		*slash = '\0';
	}
	free(dir);
	return value;
}

/*
 * The directory to make the pids cgroup in.  On cgroup v2, where a memory
 * bound is wanted, the one the memory cgroup goes in (the nearest that
 * hands on memory), if it hands on pids too: a process is in one v2 cgroup
 * only, so both bounds are the same cgroup's, and one higher up would take
 * the sandbox out of the memory bounds of those between; without a memory
 * bound, the nearest that hands on pids.  Else the v1 pids hierarchy's own
 * cgroup.  *v2 says which; NULL with why where none.
 */
static char *
cgroup_own_dir(bool with_memory, bool *v2, uint64_t *procs, char *why,
    size_t len)
{
	static const char *const memory[] = { "memory", NULL };
	static const char *const pids[] = { "pids", NULL };
	FILE		*f;
	char		 line[1024], *dir = NULL, *ctl, *file;
	uint64_t	 bound = *procs;

	snprintf(why, len, "no pids cgroup found");
	if (with_memory && (dir = cgroup2_parent_any(memory, "pids.max",
	    &bound)) != NULL) {
		file = xasprintf("%s/cgroup.subtree_control", dir);
		if (!file_has_word(file, "pids")) {
			snprintf(why, len, "cgroup v2: %s, where the memory "
			    "cgroup goes, does not hand on pids", dir);
			free(dir);
			dir = NULL;
		}
		free(file);
	} else
		dir = cgroup2_parent_any(pids, "pids.max", &bound);
	/* Made beside ours: still within the bounds of those left. */
	if ((*v2 = dir != NULL)) {
		*procs = bound;
		return dir;
	}
	/* The v1 pids hierarchy is another one: no conflict with v2's. */
	if ((f = fopen("/proc/self/cgroup", "re")) == NULL)
		return NULL;
	while (dir == NULL && fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((ctl = strstr(line, ":pids:")) != NULL)
			dir = xasprintf("/sys/fs/cgroup/pids%s",
			    strcmp(ctl + 6, "/") == 0 ? "" : ctl + 6);
	}
	fclose(f);
	return dir;
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
	uint64_t		 procs = sb->opts.limits.processes;
	bool			 v2;

	if ((own = cgroup_own_dir(sb->opts.limits.memory != 0, &v2, &procs,
	    why, len)) == NULL)
		return -1;
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
	snprintf(value, sizeof value, "%llu", (unsigned long long)procs);
	if (sandbox_write_file(max, value) != 0) {
		snprintf(why, len, "%s: %s", max, strerror(errno));
		free(max);
		rmdir(dir);
		free(dir);
		return -1;
	}
	free(max);
	sb->cgroup = dir;
	sb->cgroup_v2 = v2;
	sb->cgroup_max = procs;
	sb->cgroup_procs = xasprintf("%s/cgroup.procs", dir);
	return 0;
}

/*
 * Whether the cgroup v2 directory dir hands controller ctl to its children;
 * at the mount's root (which has no "no internal process" rule) after
 * asking it to, where we may.
 */
static bool
cgroup2_hands_on(const char *dir, bool mount_root, const char *ctl)
{
	char	*file, *add;
	bool	 ok;

	file = xasprintf("%s/cgroup.subtree_control", dir);
	ok = file_has_word(file, ctl);
	if (!ok && mount_root) {
		add = xasprintf("+%s", ctl);
		ok = sandbox_write_file(file, add) == 0;
		free(add);
	}
	free(file);
	return ok;
}

char *
sandbox_cgroup2_parent(const char *mount, const char *path,
    const char *const *ctls)
{
	char	*dir, *file, *slash;
	size_t	 i;
	bool	 ok = true;

	dir = xasprintf("%s%s", mount, strcmp(path, "/") == 0 ? "" : path);
	file = xasprintf("%s/cgroup.controllers", dir);
	for (i = 0; ok && ctls[i] != NULL; i++)
		ok = file_has_word(file, ctls[i]);
	free(file);
	while (ok) {
		for (i = 0; ok && ctls[i] != NULL; i++)
			ok = cgroup2_hands_on(dir, strcmp(dir, mount) == 0,
			    ctls[i]);
		if (ok)
			return dir;
		/* Up one, never above the mount. */
		if (strcmp(dir, mount) == 0 ||
		    (slash = strrchr(dir, '/')) == NULL)
			break;
		*slash = '\0';
		ok = true;
	}
	free(dir);
	return NULL;
}

/*
 * Our memory cgroup's directory: v2 if usable (*bound lowered to the
 * memory.max of the cgroups it leaves behind), else v1; NULL if none.
 */
static char *
memcg_own_dir(int *version, uint64_t *bound)
{
	static const char *const memory[] = { "memory", NULL };
	FILE	*f;
	char	 line[1024], *v1 = NULL, *ctl, *path;

	if ((v1 = cgroup2_parent_any(memory, "memory.max", bound)) != NULL) {
		*version = 2;
		return v1;
	}
	if ((f = fopen("/proc/self/cgroup", "re")) == NULL)
		return NULL;
	while (v1 == NULL && fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		/* v1: "N:controller[,controller...]:path" */
		if ((ctl = strchr(line, ':')) == NULL ||
		    (path = strchr(ctl + 1, ':')) == NULL)
			continue;
		*path++ = '\0';
		if (strcmp(ctl + 1, "memory") == 0 ||
		    strstr(ctl + 1, "memory,") != NULL ||
		    strstr(ctl + 1, ",memory") != NULL)
			v1 = xasprintf("/sys/fs/cgroup/memory%s",
			    strcmp(path, "/") == 0 ? "" : path);
	}
	fclose(f);
	*version = 1;
	return v1;
}

int
sandbox_memcg_create(struct sandbox *sb, char *why, size_t len)
{
	static unsigned int	 counter;
	struct timespec		 ts;
	char			*own, *dir, *file, value[32], *parent;
	uint64_t		 bound = sb->opts.limits.memory;
	bool			 shared = false;
	int			 version;

	if ((own = memcg_own_dir(&version, &bound)) == NULL) {
		snprintf(why, len, "no memory cgroup we may make children in "
		    "(cgroup v2 memory not delegated to ours, no v1 memory "
		    "hierarchy)");
		return -1;
	}
	/* v2: the pids cgroup made below the same one holds both. */
	if (version == 2 && sb->cgroup != NULL && sb->cgroup_v2 &&
	    (parent = strrchr(sb->cgroup, '/')) != NULL &&
	    (size_t)(parent - sb->cgroup) == strlen(own) &&
	    strncmp(sb->cgroup, own, strlen(own)) == 0) {
		dir = xstrdup(sb->cgroup);
		shared = true;
	} else if (version == 2 && sb->cgroup != NULL && sb->cgroup_v2) {
		/* Its own would take the sandbox out of the pids one. */
		snprintf(why, len, "cgroup v2: the pids cgroup %s is not "
		    "below %s, where the memory cgroup goes", sb->cgroup, own);
		free(own);
		return -1;
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
	snprintf(value, sizeof value, "%llu", (unsigned long long)bound);
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
	sb->memcg_max = bound;
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
