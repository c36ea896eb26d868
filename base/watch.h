/*
 * watch.h - be told when a file changes: written and closed, replaced (an
 * editor's rename), created or removed.
 *
 * The file's directory is watched (inotify), so a file that editors
 * replace rather than rewrite, or that does not exist yet, is followed
 * too.  Changes are coalesced: the callback runs once, WATCH_SETTLE_MS
 * after the last one, from the loop.
 */
#ifndef PTYVISOR_WATCH_H
#define PTYVISOR_WATCH_H

struct loop;
struct watch;

/*
 * Why a short wait: an editor saves with several events (truncate, write,
 * rename); reading the file after the first would often see it half
 * written.  Long enough for that, short enough to feel immediate.
 */
#define WATCH_SETTLE_MS	150

/*
 * Watch path (its directory must exist) on loop; changed(user) runs after
 * each settled change.  NULL with *cause.  Free with watch_free.
 */
struct watch	*watch_new(struct loop *loop, const char *path,
		    void (*changed)(void *user), void *user, char **cause);
void		 watch_free(struct watch *w);

#endif
