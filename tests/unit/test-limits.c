/*
 * test-limits.c - where a session's cgroup v2 goes, on a made-up hierarchy
 * of plain files: our own cgroup or the nearest ancestor that hands every
 * wanted controller to its children, never above the mount, the mount's
 * root asked to hand them on and no other cgroup written to.
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

	cmd = xasprintf("rm -rf '%s'", top);
	if (system(cmd) != 0)
		diag("could not remove %s", top);
	free(cmd);
	return tap_done();
}
