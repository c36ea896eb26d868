/*
 * lost.c - sessions a ptyvisor process left running when it died (see
 * lost.h).
 *
 * Marker: "<pid> <starttime> pidns:<dev>:<ino>\n" then the history line.
 * The pid and start time are as the owner's PID namespace sees them, so
 * they say whether the owner lives only to a reader in that namespace
 * (the device and inode of /proc/self/ns/pid, or "pidns:unknown" when the
 * owner could not tell its own).  A marker without the field (older
 * ptyvisors) is judged by pid and start time alone.  It is written to a
 * temporary name and renamed, so a reader sees all of it or nothing.
 */
#include "record/lost.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "record/ending.h"
#include "record/history.h"
#include "record/record.h"
#include "record/statedir.h"

/* A marker is one history line and a little: anything larger is not one. */
#define LOST_MARKER_MAX	(1024 * 1024)
/* How much of a recording's end is read to find its last event's time. */
#define LOST_TAIL_MAX	(64 * 1024)

static char *
lost_path(const char *dir, unsigned long id)
{
	return xasprintf("%s/sessions/%lu.running", dir, id);
}

/*
 * The kernel's start time of pid (field 22 of /proc/PID/stat), or 0 when
 * it is not alive.
 */
static unsigned long long
lost_starttime(long pid)
{
	char			 path[64], buf[1024], *p;
	unsigned long long	 start = 0;
	int			 field;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (!util_read_text(path, buf, sizeof buf))
		return 0;
	/* The name may hold spaces and parentheses: count after the last. */
	if ((p = strrchr(buf, ')')) == NULL)
		return 0;
	/* A zombie is dead, whoever has yet to reap it. */
	if (p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
		return 0;
	for (field = 2; *p != '\0' && field < 22; p++)
		if (*p == ' ')
			field++;
	if (field == 22)
		start = strtoull(p, NULL, 10);
	return start;
}

/*
 * Our own PID namespace, as "pidns:<dev>:<ino>"; "pidns:unknown" when it
 * cannot be read, or when /proc is not our namespace's (its "self" is not
 * our pid), so that its pids would not be ours.
 */
static char *
lost_own_pidns(void)
{
	struct stat	 st;
	char		 self[32];
	ssize_t		 n;

	n = readlink("/proc/self", self, sizeof self - 1);
	if (n <= 0 || stat("/proc/self/ns/pid", &st) != 0)
		return xstrdup("pidns:unknown");
	self[n] = '\0';
	if (strtol(self, NULL, 10) != (long)getpid())
		return xstrdup("pidns:unknown");
	return xasprintf("pidns:%llu:%llu", (unsigned long long)st.st_dev,
	    (unsigned long long)st.st_ino);
}

int
lost_mark(const char *dir, const struct history_entry *e, char **cause)
{
	char	*path = lost_path(dir, e->id), *tmp, *line, *head, *ns;
	int	 fd, rc = -1;

	tmp = xasprintf("%s.tmp", path);
	line = history_encode(e);
	ns = lost_own_pidns();
	head = xasprintf("%ld %llu %s\n", (long)getpid(),
	    lost_starttime((long)getpid()), ns);
	free(ns);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || util_write_all(fd, head, strlen(head)) != 0 ||
	    util_write_all(fd, line, strlen(line)) != 0 ||
	    close(fd) != 0 || rename(tmp, path) != 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		if (fd >= 0)
			unlink(tmp);
	} else
		rc = 0;
	if (fd >= 0 && rc != 0)
		close(fd);
	free(head);
	free(line);
	free(tmp);
	free(path);
	return rc;
}

void
lost_unmark(const char *dir, unsigned long id)
{
	char	*path = lost_path(dir, id);

	unlink(path);
	free(path);
}

/* Read a whole small file; NULL if it cannot be read or is too large. */
static char *
lost_read(const char *path)
{
	char	*data;
	ssize_t	 n;
	size_t	 len = 0;
	int	 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return NULL;
	data = xmalloc(LOST_MARKER_MAX + 1);
	while (len < LOST_MARKER_MAX &&
	    (n = read(fd, data + len, LOST_MARKER_MAX - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (len == 0 || len >= LOST_MARKER_MAX) {
		free(data);
		return NULL;
	}
	data[len] = '\0';
	return data;
}

/*
 * End the recording: drop a last event cut by the kill, then a marker
 * event at the later of the last event's time and end_us (the file's last
 * change before its tail was merged).
 */
static void
lost_end_recording(const char *path, int64_t start_us, int64_t end_us)
{
	struct stat	 st;
	char		 tail[LOST_TAIL_MAX + 1], *nl, *prev, *ev;
	double		 last = 0;
	off_t		 from, keep;
	int64_t		 t_us;
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return;
	if (fstat(fd, &st) != 0 || st.st_size == 0) {
		close(fd);
		return;
	}
	from = st.st_size > LOST_TAIL_MAX ? st.st_size - LOST_TAIL_MAX : 0;
	n = pread(fd, tail, (size_t)(st.st_size - from), from);
	if (n <= 0) {
		close(fd);
		return;
	}
	tail[n] = '\0';
	if ((nl = memrchr(tail, '\n', (size_t)n)) == NULL) {
		close(fd);	/* not even a whole header: leave it */
		return;
	}
	keep = from + (nl - tail) + 1;
	if (keep != st.st_size && ftruncate(fd, keep) != 0) {
		close(fd);
		return;
	}
	*nl = '\0';
	prev = memrchr(tail, '\n', (size_t)(nl - tail));
	ev = prev != NULL ? prev + 1 : tail;
	if (*ev == '[')
		last = strtod(ev + 1, NULL);
	t_us = end_us - start_us;
	if (t_us < (int64_t)(last * 1e6))
		t_us = (int64_t)(last * 1e6);
	if (t_us < 0)
		t_us = 0;
	ev = xasprintf("[%lld.%06lld, \"m\", \"%s\"]\n",
	    (long long)(t_us / 1000000), (long long)(t_us % 1000000),
	    ENDING_SERVER_DIED);
	if (pwrite(fd, ev, strlen(ev), keep) == (ssize_t)strlen(ev))
		(void)fsync(fd);
	free(ev);
	close(fd);
}

/*
 * Whether the owner named by a marker's first line (pid, start time, PID
 * namespace) is gone.  One of another namespace, or of one that cannot be
 * compared with ours, is never gone to us: its pid is not ours to look up.
 */
static bool
lost_owner_gone(const char *head, size_t len)
{
	unsigned long long	 start;
	long			 pid;
	char			*ns, *mine;
	int			 used = 0;
	bool			 same;

	if (sscanf(head, "%ld %llu%n", &pid, &start, &used) != 2 ||
	    pid <= 0 || (size_t)used > len)
		return false;
	if ((size_t)used < len) {
		/* " pidns:DEV:INO", compared whole with our own. */
		if (head[used] != ' ')
			return false;
		ns = xstrndup(head + used + 1, len - (size_t)used - 1);
		mine = lost_own_pidns();
		same = strcmp(ns, mine) == 0 &&
		    strcmp(mine, "pidns:unknown") != 0;
		free(mine);
		free(ns);
		if (!same)
			return false;
	}
	/* Alive and the same process (a reused pid starts later). */
	return !(lost_starttime(pid) == start && start != 0);
}

/* Record one marker's session if its owner is gone. */
static bool
lost_recover_one(const char *dir, const char *path)
{
	struct history_entry	 e;
	struct stat		 st;
	char			*data, *line, *hist, *cause = NULL;
	int64_t			 end_us;
	bool			 ok;

	if ((data = lost_read(path)) == NULL)
		return false;
	if ((line = strchr(data, '\n')) == NULL ||
	    !lost_owner_gone(data, (size_t)(line - data)) ||
	    history_decode(line + 1, &e) != 0) {
		free(data);
		return false;
	}
	free(data);
	if (unlink(path) != 0) {	/* another process took it */
		history_entry_clear(&e);
		return false;
	}
	end_us = util_wall_us();
	if (e.recording != NULL && stat(e.recording, &st) == 0)
		end_us = (int64_t)st.st_mtim.tv_sec * 1000000 +
		    st.st_mtim.tv_nsec / 1000;
	if (end_us < e.start_us)
		end_us = e.start_us;
	/* Its tail first (a recording past half its cap), then the end. */
	if (e.recording != NULL) {
		(void)record_recover_tail(e.recording, &e.recording_dropped,
		    &cause);
		free(cause);
		cause = NULL;
		lost_end_recording(e.recording, e.start_us, end_us);
	}
	free(e.state);
	e.state = xstrdup("lost");
	free(e.error);
	e.error = xstrdup(ENDING_SERVER_DIED);
	e.end_us = end_us;
	e.has_code = false;
	e.signal = 0;
	hist = statedir_history_path(dir);
	ok = history_append(hist, &e, &cause) == 0;
	free(cause);
	free(hist);
	history_entry_clear(&e);
	return ok;
}

size_t
lost_recover(const char *dir)
{
	char		*sessions = xasprintf("%s/sessions", dir), *path;
	const char	*dot;
	DIR		*d;
	struct dirent	*de;
	size_t		 count = 0;

	if ((d = opendir(sessions)) == NULL) {
		free(sessions);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		dot = strchr(de->d_name, '.');
		if (dot == NULL || strcmp(dot, ".running") != 0 ||
		    dot == de->d_name)
			continue;
		path = xasprintf("%s/%s", sessions, de->d_name);
		if (lost_recover_one(dir, path))
			count++;
		free(path);
	}
	closedir(d);
	free(sessions);
	return count;
}
