/*
 * prune.c - the state directory's budget (see prune.h).
 *
 * One pass over dir and dir/sessions sums the regular files' sizes and
 * groups what sessions/ holds by session id; the history says which ids
 * have finished.  The finished ones go oldest first (the smallest id: ids
 * grow with time) until the sum fits.  Sizes are the files' lengths
 * (st_size), what a person sees in ls.
 *
 * Invariants: a file is removed only when it is a session's recording or
 * log (<id>.cast, <id>.exec.jsonl, <id>.net.jsonl) and that session has a
 * history line, no running marker and no tail file; its id reaches
 * dir/pruned once its files are gone.
 */
#include "record/prune.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/util.h"
#include "record/history.h"
#include "record/statedir.h"

/* What sessions/ holds of one session. */
struct prune_session {
	unsigned long	id;
	uint64_t	bytes;		/* its files that may go */
	bool		live;		/* running marker or tail file */
	bool		finished;	/* it has a history line */
};

/* The files of a session that may go, by their suffix after "<id>". */
static const char *const prune_suffixes[] = {
	".cast", ".exec.jsonl", ".net.jsonl"
};
#define PRUNE_NSUFFIXES (sizeof prune_suffixes / sizeof prune_suffixes[0])

/* What marks a session as not finished: a marker, a recording's tail. */
static const char *const prune_live[] = { ".running", ".cast.tail" };
#define PRUNE_NLIVE (sizeof prune_live / sizeof prune_live[0])

uint64_t
prune_default_budget(const char *dir)
{
	struct statvfs	sv;
	uint64_t	tenth;

	if (statvfs(dir, &sv) != 0)
		return PRUNE_BUDGET_MAX_DEFAULT;
	tenth = (uint64_t)sv.f_blocks * sv.f_frsize / 10;
	return tenth < PRUNE_BUDGET_MAX_DEFAULT ? tenth :
	    PRUNE_BUDGET_MAX_DEFAULT;
}

/* Whether suffix is one of the n in list. */
static bool
prune_is_one_of(const char *suffix, const char *const *list, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(suffix, list[i]) == 0)
			return true;
	return false;
}

/* The size of the regular file name in dirfd, or 0. */
static uint64_t
prune_file_size(int dirfd, const char *name)
{
	struct stat	st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISREG(st.st_mode))
		return 0;
	return (uint64_t)st.st_size;
}

/* The sum of the sizes of the regular files directly in path. */
static uint64_t
prune_dir_bytes(const char *path)
{
	DIR		*d;
	struct dirent	*de;
	uint64_t	 sum = 0;

	if ((d = opendir(path)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
		sum += prune_file_size(dirfd(d), de->d_name);
	closedir(d);
	return sum;
}

/* Find or add id's entry in *v (*n of them, room for *cap). */
static struct prune_session *
prune_session_of(struct prune_session **v, size_t *n, size_t *cap,
    unsigned long id)
{
	/* Files of one session are usually next to each other: look back. */
	if (*n > 0 && (*v)[*n - 1].id == id)
		return &(*v)[*n - 1];
	if (*n == *cap) {
		*cap = *cap == 0 ? 64 : *cap * 2;
		*v = xreallocarray(*v, *cap, sizeof **v);
	}
	memset(&(*v)[*n], 0, sizeof **v);
	(*v)[*n].id = id;
	return &(*v)[(*n)++];
}

/* qsort's order: by id. */
static int
prune_session_cmp(const void *a, const void *b)
{
	const struct prune_session	*x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Read dir/sessions: *total gets every regular file's size, *v one entry
 * per session id (merged, ascending).
 */
static void
prune_scan(const char *dir, struct prune_session **v, size_t *n,
    uint64_t *total)
{
	char			*path = xasprintf("%s/sessions", dir), *end;
	DIR			*d;
	struct dirent		*de;
	struct prune_session	*s;
	size_t			 cap = 0, i, j;
	unsigned long		 id;
	uint64_t		 size;

	*v = NULL;
	*n = 0;
	if ((d = opendir(path)) == NULL) {
		free(path);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		size = prune_file_size(dirfd(d), de->d_name);
		*total += size;
		errno = 0;
		id = strtoul(de->d_name, &end, 10);
		if (errno != 0 || end == de->d_name || *de->d_name < '0' ||
		    *de->d_name > '9')
			continue;
		if (prune_is_one_of(end, prune_suffixes, PRUNE_NSUFFIXES))
			prune_session_of(v, n, &cap, id)->bytes += size;
		else if (prune_is_one_of(end, prune_live, PRUNE_NLIVE))
			prune_session_of(v, n, &cap, id)->live = true;
	}
	closedir(d);
	free(path);
	if (*n == 0)
		return;
	qsort(*v, *n, sizeof **v, prune_session_cmp);
	for (i = 0, j = 1; j < *n; j++) {
		s = &(*v)[i];
		if ((*v)[j].id == s->id) {
			s->bytes += (*v)[j].bytes;
			s->live = s->live || (*v)[j].live;
		} else
			(*v)[++i] = (*v)[j];
	}
	*n = i + 1;
}

/* Mark the sessions of v that have a history line as finished. */
static int
prune_mark_finished(const char *dir, struct prune_session *v, size_t n,
    char **cause)
{
	struct history_list	 l = { 0 };
	struct prune_session	 key, *s;
	char			*path = statedir_history_path(dir);
	size_t			 i;
	int			 rc;

	rc = history_load(path, &l, cause);
	free(path);
	for (i = 0; rc == 0 && n > 0 && i < l.n; i++) {
		key.id = l.v[i].id;
		if (key.id != 0 && (s = bsearch(&key, v, n, sizeof *v,
		    prune_session_cmp)) != NULL)
			s->finished = true;
	}
	history_list_free(&l);
	return rc;
}

/* Remove session id's files from dir and note it in dir/pruned. */
static int
prune_remove(const char *dir, unsigned long id, char **cause)
{
	char	*cast = statedir_cast_path(dir, id), *paths[PRUNE_NSUFFIXES];
	char	*pruned, line[32];
	size_t	 i;
	int	 fd, rc = 0, len;

	paths[0] = cast;
	paths[1] = statedir_exec_log_path(cast);
	paths[2] = statedir_net_log_path(cast);
	for (i = 0; i < PRUNE_NSUFFIXES; i++) {
		if (rc == 0 && unlink(paths[i]) != 0 && errno != ENOENT) {
			*cause = xasprintf("%s: %s", paths[i], strerror(errno));
			rc = -1;
		}
	}
	for (i = 0; i < PRUNE_NSUFFIXES; i++)
		free(paths[i]);
	if (rc != 0)
		return -1;
	/* After the removal: on a full disk the room is there by now. */
	pruned = statedir_pruned_path(dir);
	len = snprintf(line, sizeof line, "%lu\n", id);
	fd = open(pruned, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
	    O_NOFOLLOW, 0600);
	if (fd < 0 || util_write_all(fd, line, (size_t)len) != 0) {
		*cause = xasprintf("%s: %s", pruned, strerror(errno));
		rc = -1;
	}
	if (fd >= 0)
		close(fd);
	free(pruned);
	return rc;
}

int
prune_run(const char *dir, uint64_t budget, uint64_t target, bool dry_run,
    struct prune_result *out, char **cause)
{
	struct prune_session	*v;
	size_t			 n, i;
	int			 rc = 0;

	memset(out, 0, sizeof *out);
	out->usage = prune_dir_bytes(dir);
	prune_scan(dir, &v, &n, &out->usage);
	out->after = out->usage;
	if (out->usage > budget && n > 0)
		rc = prune_mark_finished(dir, v, n, cause);
	for (i = 0; rc == 0 && out->usage > budget && i < n &&
	    out->after > target; i++) {
		if (!v[i].finished || v[i].live || v[i].bytes == 0)
			continue;
		if (!dry_run && prune_remove(dir, v[i].id, cause) != 0)
			rc = -1;
		else {
			out->v = xreallocarray(out->v, out->n + 1,
			    sizeof *out->v);
			out->v[out->n].id = v[i].id;
			out->v[out->n++].bytes = v[i].bytes;
			out->after -= v[i].bytes;
		}
	}
	free(v);
	return rc;
}

void
prune_result_free(struct prune_result *r)
{
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
