/*
 * test-limits.c - where a session's cgroup v2 goes, on a made-up hierarchy
 * of plain files: our own cgroup or the nearest ancestor that hands every
 * wanted controller to its children, never above the mount, the mount's
 * root asked to hand them on and no other cgroup written to; and the
 * bounds a session's cgroup made in an ancestor keeps from the cgroups it
 * leaves behind.
 */
#include "sandbox/sandbox-int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "tests/tap.h"

static char	*top;

/* Write text and a newline to the file name of directory dir. */
static void
put(const char *dir, const char *name, const char *text)
{
	char	*file;
	FILE	*f;

	file = xasprintf("%s/%s", dir, name);
	if ((f = fopen(file, "w")) == NULL)
		fatal("%s", file);
	fprintf(f, "%s\n", text);
	fclose(f);
	free(file);
}

/* Make the cgroup path below top with its two controller files. */
static void
cgroup(const char *path, const char *controllers, const char *subtree)
{
	char	*dir;

	dir = xasprintf("%s%s", top, path);
	if (mkdir(dir, 0755) != 0)
		fatal("mkdir %s", dir);
	put(dir, "cgroup.controllers", controllers);
	put(dir, "cgroup.subtree_control", subtree);
	free(dir);
}

/* The parent found for path and controllers, relative to top, or "-". */
static char *
parent(const char *mount, const char *path, const char *a, const char *b)
{
	const char *const	 ctls[] = { a, b, NULL };
	char			*m, *dir, *rel;

	m = xasprintf("%s%s", top, mount);
	dir = sandbox_cgroup2_parent(m, path, ctls);
	free(m);
	if (dir == NULL)
		return xstrdup("-");
	rel = xstrdup(strncmp(dir, top, strlen(top)) == 0 ?
	    dir + strlen(top) : dir);
	free(dir);
	return rel[0] == '\0' ? (free(rel), xstrdup("/")) : rel;
}

/*
 * value after the bounds in file of the cgroups from path up to parent
 * (both below top's mount /r).
 */
static uint64_t
bound(const char *path, const char *parent, const char *file, uint64_t value)
{
	char		*m, *p;
	uint64_t	 v;

	m = xasprintf("%s/r", top);
	/* As sandbox_cgroup2_parent names them: the mount's root is /r. */
	p = xasprintf("%s/r%s", top, strcmp(parent, "/") == 0 ? "" : parent);
	v = sandbox_cgroup2_bound(m, path, p, file, value);
	free(m);
	free(p);
	return v;
}

/* Write text to the file name of the cgroup path below top. */
static void
set(const char *path, const char *name, const char *text)
{
	char	*dir = xasprintf("%s%s", top, path);

	put(dir, name, text);
	free(dir);
}

/* The first line of a file below top. */
static char *
line_of(const char *path)
{
	char	 buf[256] = "", *file;
	FILE	*f;

	file = xasprintf("%s%s", top, path);
	if ((f = fopen(file, "r")) != NULL) {
		if (fgets(buf, sizeof buf, f) == NULL)
			buf[0] = '\0';
		fclose(f);
	}
	free(file);
	buf[strcspn(buf, "\n")] = '\0';
	return xstrdup(buf);
}

#define IS_PARENT(mount, path, a, b, want, ...) do {			\
	char *got_ = parent(mount, path, a, b);				\
	is_str(got_, want, __VA_ARGS__);				\
	free(got_);							\
} while (0)

/* bound() of path, parent, file and value is want. */
#define IS_BOUND(path, parent, file, value, want, ...) do {		\
	uint64_t got_ = bound(path, parent, file, value);		\
	if (!ok(got_ == (uint64_t)(want), __VA_ARGS__))			\
		diag("got %llu, want %llu", (unsigned long long)got_,	\
		    (unsigned long long)(want));				\
} while (0)

int
main(void)
{
	char	 tmpl[] = "/tmp/test-limits.XXXXXX", *s, *cmd;

	if ((top = mkdtemp(tmpl)) == NULL)
		fatal("mkdtemp");
	/* The mount's root: top itself ("" below it). */
	cgroup("/r", "cpu memory pids", "memory pids");
	cgroup("/r/a", "memory pids", "memory pids");
	cgroup("/r/a/leaf", "memory pids", "");
	cgroup("/r/mo", "memory pids", "memory");
	cgroup("/r/mo/leaf", "memory pids", "");
	cgroup("/r/none", "", "");
	cgroup("/r/none/leaf", "", "");
	/* A second mount whose root hands nothing on yet. */
	cgroup("/q", "memory pids", "");
	cgroup("/q/leaf", "memory pids", "");

	IS_PARENT("/r", "/a/leaf", "memory", NULL, "/r/a",
	    "a leaf: its parent that hands memory on");
	IS_PARENT("/r", "/a/leaf", "memory", "pids", "/r/a",
	    "a leaf: its parent hands on both");
	IS_PARENT("/r", "/a", "memory", NULL, "/r/a",
	    "a cgroup that hands memory on itself");
	IS_PARENT("/r", "/", "memory", "pids", "/r",
	    "the root cgroup");
	IS_PARENT("/r", "/mo/leaf", "memory", NULL, "/r/mo",
	    "memory only: memory found in the parent");
	IS_PARENT("/r", "/mo/leaf", "pids", NULL, "/r",
	    "memory only: pids found above it");
	IS_PARENT("/r", "/mo/leaf", "memory", "pids", "/r",
	    "memory only: both found only above it");
	s = line_of("/r/mo/cgroup.subtree_control");
	is_str(s, "memory", "a cgroup below the root is never written to");
	free(s);
	IS_PARENT("/r", "/none/leaf", "memory", NULL, "-",
	    "a cgroup without the controller: none");
	IS_PARENT("/r", "/gone", "memory", NULL, "-",
	    "a cgroup that is not there: none");
	IS_PARENT("/r/a", "/leaf", "pids", NULL, "/r/a",
	    "a mount below another: its root");
	IS_PARENT("/q", "/leaf", "memory", NULL, "/q",
	    "a mount's root that does not hand memory on is asked to");
	s = line_of("/q/cgroup.subtree_control");
	is_str(s, "+memory", "it was written +memory");
	free(s);

	/* The bounds left behind (a service's, say) stay the session's. */
	cgroup("/r/a/svc", "memory pids", "");
	set("/r/a", "pids.max", "5");
	set("/r/a/svc", "pids.max", "30");
	set("/r/a/svc", "memory.max", "max");
	set("/r/a/leaf", "pids.max", "max");
	set("/r/a/leaf", "memory.max", "1048576");
	IS_BOUND("/a/svc", "/a", "pids.max", 50, 30,
	    "a cgroup left behind with pids.max 30: 50 becomes 30");
	IS_BOUND("/a/svc", "/a", "pids.max", 20, 20,
	    "... a smaller bound asked for stays");
	IS_BOUND("/a/svc", "/a", "memory.max", 1 << 30, 1 << 30,
	    "memory.max max: no bound left behind");
	IS_BOUND("/a/leaf", "/a", "memory.max", 1 << 30, 1048576,
	    "a cgroup left behind with memory.max 1 MiB: the session's too");
	IS_BOUND("/a/leaf", "/", "memory.max", 1 << 30, 1048576,
	    "two levels left behind: the smallest of their bounds");
	IS_BOUND("/a/leaf", "/", "pids.max", 50, 5,
	    "... pids.max 5 of the cgroup between them counts too");
	IS_BOUND("/a/leaf", "/a/leaf", "memory.max", 1 << 30, 1 << 30,
	    "made in our own cgroup: nothing left behind (its own bound "
	    "holds the session anyway)");
	IS_BOUND("/a", "/mo", "pids.max", 50, 50,
	    "a parent that is not an ancestor: unchanged");
	IS_BOUND("/a/svcx", "/a/svc", "pids.max", 50, 50,
	    "a name that merely starts like the parent's: not below it");
	set("/r/a/svc", "pids.max", "12abc");
	IS_BOUND("/a/svc", "/a", "pids.max", 50, 50,
	    "a file that is not a number: no bound read from it");
	set("/r/a/svc", "pids.max", "0");
	IS_BOUND("/a/svc", "/a", "pids.max", 50, 0,
	    "pids.max 0 left behind: 0");

	cmd = xasprintf("rm -rf '%s'", top);
	if (system(cmd) != 0)
		diag("could not remove %s", top);
	free(cmd);
	return tap_done();
}
