/*
 * guard-write.c - whether a write made outside any sandbox (an agent's
 * own file tools, judged by a hook) lands on a guarded path (guard.h).
 *
 * The target is resolved as open(2) would walk it: made absolute against
 * the caller's directory, each existing component looked at, a symlink's
 * target taken in its place (the link itself judged too: writing through
 * ~/.bashrc changes what bash reads, wherever the link points), '..' taken
 * on a path with no symlink left in it, a missing tail taken lexically.
 * The set's paths are compared as written and as they resolve, so a home
 * reached through a symlink is still the home.
 *
 * Here too: what a sandbox's options add to the list (the one
 * guard_input sandbox_new() and the hooks' set are built from), and the
 * set a sandbox of given options would keep in a directory.
 *
 * Invariants: never fails; at most GUARD_LINKS_MAX symlinks are followed
 * (the kernel's own bound, past which open(2) says ELOOP).
 */
#include "sandbox/guard.h"
#include "sandbox/sandbox-int.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

/* The kernel's bound on symlinks followed in one lookup (ELOOP). */
#define GUARD_LINKS_MAX	40

/* The paths a write goes through: each symlink, and where it ends. */
struct guard_walk {
	char	**v;
	size_t	  n;
};

/* Add p (taken) to w, when there is a w. */
static void
guard_walk_add(struct guard_walk *w, char *p)
{
	if (w == NULL) {
		free(p);
		return;
	}
	w->v = xreallocarray(w->v, w->n + 1, sizeof *w->v);
	w->v[w->n++] = p;
}

/*
 * path against cwd as open(2) walks it (lexically only when follow is
 * false), each symlink met added to w; a new string, never ending in '/'.
 */
static char *
guard_resolve(const char *cwd, const char *path, bool follow,
    struct guard_walk *w)
{
	struct stat	 st;
	char		*todo, *done, *cand, *rest, link[PATH_MAX];
	const char	*p, *end;
	size_t		 len;
	ssize_t		 n;
	int		 links = 0;
	bool		 missing = !follow;

	todo = path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", cwd, path);
	done = xstrdup("");		/* "" stands for "/" */
	for (p = todo; *p != '\0'; ) {
		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		end = strchr(p, '/');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (len == 1 && p[0] == '.') {
			p += len;
			continue;
		}
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			/* done holds no symlink: its parent is the parent. */
			if ((cand = strrchr(done, '/')) != NULL)
				*cand = '\0';
			p += len;
			if (follow)
				missing = lstat(*done == '\0' ? "/" : done,
				    &st) != 0;
			continue;
		}
		cand = xasprintf("%s/%.*s", done, (int)len, p);
		p += len;
		if (!missing && lstat(cand, &st) != 0)
			missing = true;
		else if (!missing && S_ISLNK(st.st_mode) &&
		    links++ < GUARD_LINKS_MAX &&
		    (n = readlink(cand, link, sizeof link - 1)) > 0) {
			link[n] = '\0';
			/* The rest of the walk starts at the link's target. */
			rest = xasprintf("%s%s", link, p);
			guard_walk_add(w, cand);
			if (link[0] == '/')
				done[0] = '\0';
			free(todo);
			todo = rest;
			p = todo;
			continue;
		}
		free(done);
		done = cand;
	}
	free(todo);
	if (*done == '\0') {
		free(done);
		done = xstrdup("/");
	}
	return done;
}

/* The entry of set that holds one of w's paths, the deepest; or NULL. */
static const struct guard_path *
guard_walk_find(const struct guard_set *set, const struct guard_walk *w)
{
	const struct guard_path	*found = NULL;
	char			*real;
	size_t			 i, k;

	for (i = 0; i < set->n; i++) {
		real = guard_resolve("/", set->v[i].path, true, NULL);
		for (k = 0; k < w->n; k++)
			if (guard_path_under(w->v[k], set->v[i].path) ||
			    guard_path_under(w->v[k], real)) {
				found = &set->v[i];
				break;
			}
		free(real);
	}
	return found;
}

const struct guard_path *
guard_find_write(const struct guard_set *set, const char *cwd,
    const char *path, char **target)
{
	const struct guard_path	*g;
	struct guard_walk	 w = { 0 };
	size_t			 i;

	*target = guard_resolve(cwd, path, false, NULL);
	guard_walk_add(&w, xstrdup(*target));
	guard_walk_add(&w, guard_resolve(cwd, path, true, &w));
	g = guard_walk_find(set, &w);
	for (i = 0; i < w.n; i++)
		free(w.v[i]);
	free(w.v);
	return g;
}

/* What opts add to the list, and the home (sandbox-int.h). */
void
sandbox_guard_input(const struct sandbox_opts *opts, struct guard_input *in)
{
	const char	*home = getenv("HOME");
	char *const	*v;

	memset(in, 0, sizeof *in);
	in->home = home != NULL && home[0] == '/' ? home : NULL;
	in->environ = opts->environ;
	for (v = opts->environ; v != NULL && *v != NULL; v++)
		if (strncmp(*v, "HOME=/", 6) == 0 && (in->home == NULL ||
		    strcmp(*v + 5, in->home) != 0))
			in->agent_home = *v + 5;
	in->protect = opts->protect;
	in->protect_why = opts->protect_why;
	in->nprotect = opts->nprotect;
	in->hide = opts->hide;
	in->hide_why = opts->hide_why;
	in->nhide = opts->nhide;
	in->expose = opts->expose;
	in->nexpose = opts->nexpose;
}

void
sandbox_opts_guards(const struct sandbox_opts *opts, const char *cwd,
    const char *project, struct guard_set *set)
{
	struct guard_input	 in;
	char			*dir = realpath(cwd, NULL), *pdir = NULL;
	const char		*roots[2];

	roots[0] = dir != NULL ? dir : cwd;
	sandbox_guard_input(opts, &in);
	in.roots = roots;
	in.nroots = 1;
	if (project != NULL && project[0] == '/') {
		pdir = realpath(project, NULL);
		roots[1] = pdir != NULL ? pdir : project;
		if (strcmp(roots[1], roots[0]) != 0)
			in.nroots = 2;
	}
	in.projects = roots;
	in.nprojects = in.nroots;
	in.other_homes = geteuid() == 0;
	guard_expand(&in, set);
	free(dir);
	free(pdir);
}
