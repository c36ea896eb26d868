/*
 * lost.h - sessions a ptyvisor process left running when it died.
 *
 * While a session runs, a marker sessions/<id>.running holds its owner
 * (pid and the kernel's start time of that pid, so a reused pid is not
 * taken for the owner, and the owner's PID namespace) and its history
 * entry as known at the start.  The marker goes when the session's history
 * line is written.  A marker whose owner is gone is a session lost with
 * its process (SIGKILL, a crash, a power cut): lost_recover() ends its
 * recording with a marker event and writes its history line, ending
 * "server died".  A marker of another PID namespace (a ptyvisor in a
 * container sharing the state directory), or of one that cannot be
 * compared with ours, is never taken for lost: its pid means nothing here.
 */
#ifndef PTYVISOR_LOST_H
#define PTYVISOR_LOST_H

#include <stddef.h>

struct history_entry;

/* Mark e (its id and fields) as running in dir, owned by this process. */
int	lost_mark(const char *dir, const struct history_entry *e,
	    char **cause);

/* Remove the marker of session id (its history line is written). */
void	lost_unmark(const char *dir, unsigned long id);

/*
 * Record every session of dir whose owner is gone: the recording gets its
 * end, the history its line.  Returns how many lines were written; each marker is claimed by
 * removing it first, so two processes starting at once record it once.
 */
size_t	lost_recover(const char *dir);

#endif
