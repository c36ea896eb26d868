/*
 * statedir.c - state directory resolution and layout (see statedir.h).
 */
#include "record/statedir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

char *
statedir_path(char **cause)
{
	const char	*s;

	if ((s = getenv("PTYVISOR_STATE_DIR")) != NULL && *s != '\0')
		return xstrdup(s);
	if ((s = getenv("XDG_STATE_HOME")) != NULL && *s == '/')
		return xasprintf("%s/ptyvisor", s);
	if ((s = getenv("HOME")) != NULL && *s == '/')
		return xasprintf("%s/.local/state/ptyvisor", s);
	*cause = xstrdup("no state directory: set PTYVISOR_STATE_DIR or HOME");
	return NULL;
}

/* mkdir -p with mode 0700 for what is created. */
static int
mkdirs(const char *path, char **cause)
{
	char		*p = xstrdup(path), *slash, c;
	struct stat	 st;

	for (slash = p + 1; ; slash++) {
		if (*slash != '/' && *slash != '\0')
			continue;
		c = *slash;
		*slash = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST) {
			*cause = xasprintf("state directory %s: %s", p,
			    strerror(errno));
			free(p);
			return -1;
		}
		*slash = c;
		if (c == '\0')
			break;
	}
	free(p);
	if (stat(path, &st) != 0) {
		*cause = xasprintf("state directory %s: %s", path,
		    strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		*cause = xasprintf("state directory %s: not a directory", path);
		return -1;
	}
	return 0;
}

int
statedir_prepare(const char *dir, char **cause)
{
	char	*sessions, *probe;
	int	 fd, rc = 0;

	if (mkdirs(dir, cause) != 0)
		return -1;
	sessions = xasprintf("%s/sessions", dir);
	if (mkdirs(sessions, cause) != 0) {
		free(sessions);
		return -1;
	}
	/* access(2) lies for root; really try to create a file. */
	probe = xasprintf("%s/.probe.%ld", sessions, (long)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		*cause = xasprintf("state directory %s: %s", sessions,
		    strerror(errno));
		rc = -1;
	} else {
		close(fd);
		unlink(probe);
	}
	free(probe);
	free(sessions);
	return rc;
}

unsigned long
statedir_last_pruned_id(const char *dir)
{
	unsigned long	*ids, last = 0;
	size_t		 n;

	ids = statedir_pruned(dir, &n);
	if (n > 0)
		last = ids[n - 1];
	free(ids);
	return last;
}

unsigned long
statedir_last_id(const char *dir)
{
	char		*sessions = xasprintf("%s/sessions", dir), *end;
	DIR		*d;
	struct dirent	*de;
	unsigned long	 id, last = 0, pruned;

	if ((d = opendir(sessions)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			errno = 0;
			id = strtoul(de->d_name, &end, 10);
			if (errno == 0 && end != de->d_name &&
			    strcmp(end, ".cast") == 0 && id > last)
				last = id;
		}
		closedir(d);
	}
	free(sessions);
	if ((pruned = statedir_last_pruned_id(dir)) > last)
		last = pruned;
	return last;
}

char *
statedir_cast_path(const char *dir, unsigned long id)
{
	return xasprintf("%s/sessions/%lu.cast", dir, id);
}

/* A file beside a recording: <id><suffix> for <id>.cast. */
static char *
statedir_beside(const char *cast_path, const char *suffix)
{
	size_t	len = strlen(cast_path);

	if (len > 5 && strcmp(cast_path + len - 5, ".cast") == 0)
		len -= 5;
	return xasprintf("%.*s%s", (int)len, cast_path, suffix);
}

char *
statedir_net_log_path(const char *cast_path)
{
	return statedir_beside(cast_path, ".net.jsonl");
}

char *
statedir_exec_log_path(const char *cast_path)
{
	return statedir_beside(cast_path, ".exec.jsonl");
}

char *
statedir_history_path(const char *dir)
{
	return xasprintf("%s/history.jsonl", dir);
}

char *
statedir_pruned_path(const char *dir)
{
	return xasprintf("%s/pruned", dir);
}

/* qsort's order of session ids. */
static int
statedir_id_cmp(const void *a, const void *b)
{
	unsigned long	x = *(const unsigned long *)a;
	unsigned long	y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

unsigned long *
statedir_pruned(const char *dir, size_t *n)
{
	char		*path = statedir_pruned_path(dir), *line = NULL, *end;
	FILE		*f;
	size_t		 cap = 0, have = 0;
	unsigned long	*ids = NULL, id;

	*n = 0;
	f = fopen(path, "re");
	free(path);
	if (f == NULL)
		return NULL;
	while (getline(&line, &cap, f) > 0) {
		errno = 0;
		id = strtoul(line, &end, 10);
		if (errno != 0 || end == line || (*end != '\n' && *end != '\0'))
			continue;
		if (*n == have) {
			have = have == 0 ? 64 : have * 2;
			ids = xreallocarray(ids, have, sizeof *ids);
		}
		ids[(*n)++] = id;
	}
	free(line);
	fclose(f);
	if (*n > 0)
		qsort(ids, *n, sizeof *ids, statedir_id_cmp);
	return ids;
}

bool
statedir_pruned_has(const unsigned long *ids, size_t n, unsigned long id)
{
	return n > 0 && bsearch(&id, ids, n, sizeof *ids,
	    statedir_id_cmp) != NULL;
}

bool
statedir_recording_pruned(const unsigned long *ids, size_t n,
    unsigned long id, const char *recording)
{
	return id != 0 && recording != NULL &&
	    statedir_pruned_has(ids, n, id) && access(recording, F_OK) != 0;
}
