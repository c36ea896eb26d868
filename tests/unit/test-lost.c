/*
 * test-lost.c - markers of running sessions: a marker names its owner's
 * pid, start time and PID namespace; at a start a marker whose owner is
 * gone in our namespace is recorded as lost, one of a live owner is left,
 * and one of another namespace (or one that cannot be compared) is never
 * taken for lost; a marker without the namespace (older ptyvisors) is
 * judged by pid and start time as before.
 */
#include "record/lost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "record/history.h"
#include "tests/tap.h"

static char	tmpdir[] = "/tmp/test-lost.XXXXXX";

/* The entry of a running session with this id. */
static void
entry(struct history_entry *e, unsigned long id)
{
	static char	*argv[] = { "sleep", "300", NULL };

	memset(e, 0, sizeof *e);
	e->id = id;
	e->argv = argv;
	e->cwd = "/";
	e->start_us = util_wall_us() - 1000000;
	e->state = "running";
	e->profile = "workspace-write";
}

/* The path of session id's marker; caller frees. */
static char *
marker(unsigned long id)
{
	return xasprintf("%s/sessions/%lu.running", tmpdir, id);
}

/* Write a marker for session id with its first line head. */
static void
write_marker(unsigned long id, const char *head)
{
	struct history_entry	 e;
	char			*path = marker(id), *line;
	FILE			*f;

	entry(&e, id);
	line = history_encode(&e);
	if ((f = fopen(path, "w")) == NULL)
		fatal("cannot write %s", path);
	fprintf(f, "%s\n%s", head, line);
	fclose(f);
	free(line);
	free(path);
}

/* Whether session id's marker is still there. */
static int
has_marker(unsigned long id)
{
	char	*path = marker(id);
	int	 r = access(path, F_OK) == 0;

	free(path);
	return r;
}

/* The first line of session id's marker; caller frees. */
static char *
marker_head(unsigned long id)
{
	char	*path = marker(id), buf[256] = "";
	FILE	*f = fopen(path, "r");

	if (f != NULL) {
		if (fgets(buf, sizeof buf, f) == NULL)
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	free(path);
	return xstrdup(buf);
}

/* A pid that was ours and is gone (reaped). */
static long
dead_pid(void)
{
	pid_t	pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0 || waitpid(pid, NULL, 0) != pid)
		fatal("fork");
	return (long)pid;
}

/* How many lines of the history say "lost". */
static size_t
lost_lines(void)
{
	struct history_list	 l;
	char			*path = xasprintf("%s/history.jsonl", tmpdir);
	char			*cause = NULL;
	size_t			 i, n = 0;

	if (history_load(path, &l, &cause) == 0) {
		for (i = 0; i < l.n; i++)
			if (strcmp(l.v[i].state, "lost") == 0)
				n++;
		history_list_free(&l);
	}
	free(cause);
	free(path);
	return n;
}

int
main(void)
{
	struct history_entry	 e;
	struct stat		 st;
	char			*cause = NULL, *head, *ns, *want, *s;
	long			 gone = dead_pid();

	if (mkdtemp(tmpdir) == NULL)
		fatal("mkdtemp");
	s = xasprintf("%s/sessions", tmpdir);
	mkdir(s, 0700);
	free(s);
	if (stat("/proc/self/ns/pid", &st) != 0) {
		tap_skip(1, "no /proc/self/ns/pid: the namespace cannot be read");
		return tap_done();
	}
	ns = xasprintf("pidns:%llu:%llu", (unsigned long long)st.st_dev,
	    (unsigned long long)st.st_ino);

	/* Ours: pid, start time and namespace. */
	entry(&e, 1);
	is_int(lost_mark(tmpdir, &e, &cause), 0, "a session marked");
	head = marker_head(1);
	want = xasprintf("%ld ", (long)getpid());
	ok(strncmp(head, want, strlen(want)) == 0, "the marker names our pid");
	free(want);
	s = strrchr(head, ' ');
	is_str(s != NULL ? s + 1 : NULL, ns,
	    "and our PID namespace (device and inode of /proc/self/ns/pid)");

	/* Old markers: pid and start time only. */
	want = xasprintf("%ld %s", (long)getpid(), strchr(head, ' ') + 1);
	*strrchr(want, ' ') = '\0';
	write_marker(2, want);
	free(want);
	s = xasprintf("%ld 12345", gone);
	write_marker(3, s);
	free(s);

	/* Markers of a gone pid: in ours, another, an unknown namespace. */
	s = xasprintf("%ld 12345 %s", gone, ns);
	write_marker(4, s);
	free(s);
	s = xasprintf("%ld 12345 pidns:%llu:%llu", gone,
	    (unsigned long long)st.st_dev, (unsigned long long)st.st_ino + 1);
	write_marker(5, s);
	free(s);
	s = xasprintf("%ld 12345 pidns:unknown", gone);
	write_marker(6, s);
	free(s);
	s = xasprintf("%ld 12345 something else", gone);
	write_marker(7, s);
	free(s);
	/* Ours, live, with our namespace: the start time still counts. */
	s = xasprintf("%ld 12345 %s", (long)getpid(), ns);
	write_marker(8, s);
	free(s);

	is_int(lost_recover(tmpdir), 3, "three lost sessions recorded");
	is_int(lost_lines(), 3, "three history lines say lost");
	ok(has_marker(1), "our live session's marker is left");
	ok(has_marker(2), "an old marker of a live owner is left");
	ok(!has_marker(3), "an old marker of a gone owner is claimed");
	ok(!has_marker(4), "a gone owner in our namespace: claimed");
	ok(has_marker(5), "a gone pid of another namespace: left alone");
	ok(has_marker(6), "an owner that could not tell its namespace: left");
	ok(has_marker(7), "a namespace field we cannot read: left");
	ok(!has_marker(8), "our pid with another start time: claimed");

	is_int(lost_recover(tmpdir), 0, "a second start records nothing more");
	is_int(lost_lines(), 3, "still three lines");

	lost_unmark(tmpdir, 1);
	ok(!has_marker(1), "unmark removes the marker");
	free(head);
	free(ns);
	s = xasprintf("rm -rf '%s'", tmpdir);
	if (system(s) != 0)
		diag("could not remove %s", tmpdir);
	free(s);
	return tap_done();
}
