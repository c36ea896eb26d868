/*
 * watch.c - be told when a file changes (see watch.h).
 *
 * Invariants: one inotify descriptor per watch, non-blocking and
 * close-on-exec, read until EAGAIN on every wake; at most one settle timer
 * is pending, and it is cancelled when the watch is freed.
 */
#include "base/watch.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"

struct watch {
	struct loop		*loop;
	int			 fd;
	char			*dir;
	char			*name;		/* the file, in dir */
	struct loop_timer	*settle;
	void			(*changed)(void *);
	void			*user;
};

/* The settle time is over: tell the owner. */
static void
watch_settled(struct loop *l, void *arg)
{
	struct watch	*w = arg;

	(void)l;
	w->settle = NULL;
	w->changed(w->user);
}

/* inotify has events: any about our file (re)starts the settle timer. */
static void
watch_read(struct loop *l, int fd, short revents, void *arg)
{
	struct watch			*w = arg;
	const struct inotify_event	*ev;
	char				 buf[4096]
	    __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t				 n;
	size_t				 off;
	int				 hit = 0;

	(void)revents;
	for (;;) {
		n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (off = 0; off < (size_t)n;
		    off += sizeof *ev + ev->len) {
			ev = (const struct inotify_event *)(buf + off);
			if ((ev->mask & IN_Q_OVERFLOW) || (ev->len > 0 &&
			    strcmp(ev->name, w->name) == 0))
				hit = 1;
		}
	}
	if (!hit)
		return;
	loop_timer_cancel(l, w->settle);
	w->settle = loop_timer_add(l, WATCH_SETTLE_MS, watch_settled, w);
}

struct watch *
watch_new(struct loop *loop, const char *path, void (*changed)(void *user),
    void *user, char **cause)
{
	struct watch	*w;
	const char	*slash = strrchr(path, '/');

	w = xcalloc(1, sizeof *w);
	w->loop = loop;
	w->changed = changed;
	w->user = user;
	if (slash == NULL) {
		w->dir = xstrdup(".");
		w->name = xstrdup(path);
	} else {
		w->dir = slash == path ? xstrdup("/") :
		    xasprintf("%.*s", (int)(slash - path), path);
		w->name = xstrdup(slash + 1);
	}
	if ((w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0 ||
	    inotify_add_watch(w->fd, w->dir, IN_CLOSE_WRITE | IN_MOVED_TO |
	    IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB) < 0) {
		*cause = xasprintf("cannot watch %s: %s", w->dir,
		    strerror(errno));
		if (w->fd >= 0)
			close(w->fd);
		free(w->dir);
		free(w->name);
		free(w);
		return NULL;
	}
	loop_add_fd(loop, w->fd, POLLIN, LOOP_PRIO_NORMAL, watch_read, w);
	return w;
}

void
watch_free(struct watch *w)
{
	if (w == NULL)
		return;
	loop_timer_cancel(w->loop, w->settle);
	loop_del_fd(w->loop, w->fd);
	close(w->fd);
	free(w->dir);
	free(w->name);
	free(w);
}
