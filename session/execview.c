/*
 * execview.c - what a person sees of a session's programs on the
 * console's key (session_exec_view): the live process tree under the
 * session, read from /proc, and the execs decided last (kept by
 * execwatch.c).  Reads the session, changes nothing; calls no other file
 * of session/.
 */
#include "session/session-int.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/quote.h"

/* Processes listed at most; a tree larger than this is cut. */
#define VIEW_MAX_PROCS	200
/* Nesting shown at most. */
#define VIEW_MAX_DEPTH	12

struct view_proc {
	pid_t	pid;
	pid_t	ppid;
};

/* Every process of the system and its parent (allocated, *n of them). */
static struct view_proc *
view_procs(size_t *n)
{
	struct view_proc	*v = NULL;
	struct dirent		*d;
	size_t			 cap = 0;
	pid_t			 pid;
	DIR			*dir;

	*n = 0;
	if ((dir = opendir("/proc")) == NULL)
		return NULL;
	while ((d = readdir(dir)) != NULL) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		pid = (pid_t)atoi(d->d_name);
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[*n].pid = pid;
		v[*n].ppid = sandbox_exec_parent_of(pid);
		(*n)++;
	}
	closedir(dir);
	return v;
}

/* Whether pid runs ptyvisor itself (the sandbox's relay and init). */
static bool
view_is_ours(pid_t pid)
{
	char	path[64], a[4096], b[4096];
	ssize_t	n, m;

	snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
	if ((n = readlink(path, a, sizeof a)) <= 0 ||
	    (m = readlink("/proc/self/exe", b, sizeof b)) <= 0)
		return false;
	return n == m && memcmp(a, b, (size_t)n) == 0;
}

/* A process's words, from /proc/PID/cmdline, quoted; its name else. */
static char *
view_words(pid_t pid)
{
	char	 path[64], buf[4096];
	char	*argv[64];
	size_t	 n = 0, i = 0, len;
	FILE	*f;

	if (view_is_ours(pid))
		return xstrdup("ptyvisor (the sandbox's relay and init)");

	snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return xstrdup("?");
	len = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[len] = '\0';
	while (i < len && n < sizeof argv / sizeof argv[0] - 1) {
		argv[n++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[n] = NULL;
	if (n == 0) {
		snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
		if (!util_read_text(path, buf, sizeof buf))
			return xstrdup("?");
		buf[strcspn(buf, "\n")] = '\0';
		return xasprintf("[%s]", buf);
	}
	return quote_argv(argv);
}

/* The processes under pid, depth first, one indented line each. */
static void
view_tree(struct buf *b, const struct view_proc *v, size_t n, pid_t pid,
    int depth, int *shown)
{
	char	*words;
	size_t	 i;

	if (*shown >= VIEW_MAX_PROCS)
		return;
	words = view_words(pid);
	buf_printf(b, "  %*s%d  %s\n", depth * 2, "", (int)pid, words);
	free(words);
	(*shown)++;
	if (depth >= VIEW_MAX_DEPTH)
		return;
	for (i = 0; i < n; i++)
		if (v[i].ppid == pid && v[i].pid != pid)
			view_tree(b, v, n, v[i].pid, depth + 1, shown);
}

char *
session_exec_view(const struct session *s)
{
	struct buf		 b = { 0 };
	struct view_proc	*v;
	size_t			 n, i, k;
	int			 shown = 0;

	buf_printf(&b, "processes of session %lu:\n", s->id);
	if (s->done || s->child.pid <= 0)
		buf_adds(&b, "  (it has ended)\n");
	else {
		v = view_procs(&n);
		view_tree(&b, v, n, s->child.pid, 0, &shown);
		free(v);
		if (shown >= VIEW_MAX_PROCS)
			buf_printf(&b, "  (more than %d: cut)\n",
			    VIEW_MAX_PROCS);
	}
	buf_adds(&b, "\n");
	if (!s->exec_on) {
		buf_adds(&b, "execs: not checked in this session\n");
		return buf_cstr(&b);
	}
	buf_printf(&b, "execs: %lu checked, %lu denied%s; the last ones:\n",
	    s->execs, s->execs_denied, s->nexec_wait > 0 ?
	    ", some waiting for a person" : "");
	k = s->exec_recent_n < SESSION_EXEC_RECENT ? 0 :
	    s->exec_recent_next % SESSION_EXEC_RECENT;
	for (i = 0; i < s->exec_recent_n && i < SESSION_EXEC_RECENT; i++)
		buf_printf(&b, "  %s\n",
		    s->exec_recent[(k + i) % SESSION_EXEC_RECENT]);
	if (s->exec_recent_n == 0)
		buf_adds(&b, "  (none yet)\n");
	return buf_cstr(&b);
}
