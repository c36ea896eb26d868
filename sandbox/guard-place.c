/*
 * guard-place.c - the placeholders that keep a missing protected path
 * from being created while a sandbox runs (guard.h): an empty file or
 * directory made in the parent before the child mounts it read-only, and
 * removed when the sandbox is freed.
 *
 * Invariants: a placeholder is removed only while it is still the empty
 * file or directory made here (same device and inode; a file of at most
 * the 3 bytes of "{}\n"), and only by the last sandbox of this process
 * that holds it: the sandboxes of one process (a server starts many, each
 * setting up in its child after the server went on) share the ones they
 * find already made, so that one ending does not take a placeholder away
 * under another that is mounting it or running with it.
 */
#include "sandbox/guard.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

/* A placeholder this process made, and how many sandboxes hold it. */
struct guard_held {
	char	*path;
	dev_t	 dev;
	ino_t	 ino;
	char	*top;		/* the first directory made for it, or NULL */
	int	 refs;
};
static struct guard_held	*guard_held;
static size_t			 guard_nheld;

/* The placeholder made at path still held, or NULL. */
static struct guard_held *
guard_held_find(const char *path)
{
	size_t	i;

	for (i = 0; i < guard_nheld; i++)
		if (strcmp(guard_held[i].path, path) == 0)
			return &guard_held[i];
	return NULL;
}

/* The last holder has gone: forget h. */
static void
guard_held_drop(struct guard_held *h)
{
	free(h->path);
	free(h->top);
	*h = guard_held[--guard_nheld];
	if (guard_nheld == 0) {
		free(guard_held);
		guard_held = NULL;
	}
}

/*
 * Make directory path and the missing ones above it (mode 0755); the
 * first one made into *top (allocated), or NULL when none could be.
 */
static char *
guard_mkdirs(const char *path)
{
	struct stat	 st;
	char		*p = xstrdup(path), *top = NULL;
	size_t		 i, len = strlen(p);

	for (i = 1; i <= len; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (lstat(p, &st) != 0) {
			if (mkdir(p, 0755) != 0)
				break;
			if (top == NULL)
				top = xstrdup(p);
		} else if (!S_ISDIR(st.st_mode))
			break;
		p[i] = path[i];
	}
	if (i <= len && top != NULL) {
		/* Half made: take it back. */
		free(top);
		top = NULL;
	}
	free(p);
	return top;
}

/*
 * The mode of a file placeholder: unreadable where its mere existence
 * would hide another file from bash (a login shell reads the first of
 * .bash_profile, .bash_login, .profile that is readable), else readable
 * and empty, as a missing start-up file is.
 */
static mode_t
guard_file_mode(const char *path)
{
	const char	*base = strrchr(path, '/') + 1;

	if (strcmp(base, ".bash_profile") == 0 ||
	    strcmp(base, ".bash_login") == 0)
		return 0;
	return 0444;
}

/* Whether a read-only directory of set holds g already. */
static bool
guard_inside_read_only(const struct guard_set *set,
    const struct guard_path *g)
{
	size_t	i;

	for (i = 0; i < set->n; i++)
		if (&set->v[i] != g && set->v[i].how == GUARD_READ_ONLY &&
		    set->v[i].dir && guard_path_under(g->path, set->v[i].path))
			return true;
	return false;
}

void
guard_placeholders_make(struct guard_set *set)
{
	struct guard_path	*g;
	struct guard_held	*h;
	struct stat		 st;
	size_t			 i;
	int			 fd;

	for (i = 0; i < set->n; i++) {
		g = &set->v[i];
		/* Made for another sandbox of ours, still as made: share it. */
		if (g->exists && (h = guard_held_find(g->path)) != NULL &&
		    lstat(g->path, &st) == 0 && st.st_dev == h->dev &&
		    st.st_ino == h->ino) {
			h->refs++;
			g->placeholder = true;
			g->ph_dev = h->dev;
			g->ph_ino = h->ino;
			continue;
		}
		if (!guard_creatable(g) || guard_inside_read_only(set, g))
			continue;
		if (g->dir) {
			if ((g->ph_top = guard_mkdirs(g->path)) == NULL)
				continue;
		} else {
			fd = open(g->path, O_WRONLY | O_CREAT | O_EXCL |
			    O_CLOEXEC | O_NOFOLLOW, guard_file_mode(g->path));
			if (fd < 0)
				continue;
			/* A JSON file holds an empty object, as agents read. */
			if (strlen(g->path) > 5 &&
			    strcmp(g->path + strlen(g->path) - 5, ".json") == 0)
				(void)!write(fd, "{}\n", 3);
			fchmod(fd, guard_file_mode(g->path));
			close(fd);
		}
		if (lstat(g->path, &st) != 0)
			continue;
		g->placeholder = true;
		g->exists = true;
		g->ph_dev = st.st_dev;
		g->ph_ino = st.st_ino;
		guard_held = xreallocarray(guard_held, guard_nheld + 1,
		    sizeof *guard_held);
		h = &guard_held[guard_nheld++];
		h->path = xstrdup(g->path);
		h->dev = st.st_dev;
		h->ino = st.st_ino;
		h->top = g->ph_top != NULL ? xstrdup(g->ph_top) : NULL;
		h->refs = 1;
	}
}

/* Remove path and the directories above it up to top, while empty. */
static void
guard_rmdirs(const char *path, const char *top)
{
	char	*p = xstrdup(path), *slash;

	while (rmdir(p) == 0 && top != NULL && strcmp(p, top) != 0 &&
	    (slash = strrchr(p, '/')) != NULL && slash != p)
		*slash = '\0';
	free(p);
}

void
guard_placeholders_remove(struct guard_set *set)
{
	struct guard_path	*g;
	struct guard_held	*h;
	struct stat		 st;
	size_t			 i;
	char			*top;

	/* Children first: a placeholder may sit in another. */
	for (i = set->n; i-- > 0; ) {
		g = &set->v[i];
		if (!g->placeholder)
			continue;
		g->placeholder = false;
		/* Another sandbox of ours still holds it: it stays. */
		if ((h = guard_held_find(g->path)) != NULL && --h->refs > 0)
			continue;
		top = h != NULL ? h->top : NULL;
		if (h != NULL) {
			h->top = NULL;
			guard_held_drop(h);
		}
		if (lstat(g->path, &st) == 0 && st.st_dev == g->ph_dev &&
		    st.st_ino == g->ph_ino) {
			if (S_ISDIR(st.st_mode))
				guard_rmdirs(g->path, top != NULL ? top :
				    g->ph_top);
			else if (S_ISREG(st.st_mode) && st.st_size <= 3)
				unlink(g->path);
		}
		free(top);
		free(g->ph_top);
		g->ph_top = NULL;
	}
}
