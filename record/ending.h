/*
 * ending.h - how a session ended, in words: the one namer used by the
 * history pane, pane titles, `ptyvisor history` and `show`, and the exit
 * event agents receive.
 *
 * Names: "running", "timeout", "killed by the person", "cancelled",
 * "memory limit", "server died", "not found", "not executable", "failed
 * to start", "signal SIGKILL", "exit 3"; for a request, "pending", and
 * for one that never ran, "denied" or "never answered".
 */
#ifndef PTYVISOR_ENDING_H
#define PTYVISOR_ENDING_H

#include <stdbool.h>
#include <stddef.h>

struct history_entry;

/* What the history records of an end (all borrowed; strings may be NULL). */
struct ending {
	const char	*state;		/* history state: exited, timed_out... */
	bool		 has_code;
	int		 code;		/* exit code (or the failed start's) */
	int		 signal;	/* terminating signal, or 0 */
	const char	*error;		/* why it was killed or did not start */
};

/* Error texts a session's end records for a kill (history's "error"). */
#define ENDING_KILLED		"killed by the person"
#define ENDING_CANCELLED	"cancelled"
/* ...and for a command the kernel killed for its sandbox's memory bound. */
#define ENDING_MEMORY		"memory limit"
/* ...and for a session whose ptyvisor died under it (found at a start). */
#define ENDING_SERVER_DIED	"server died"

/* The ending of a history entry (borrowing its strings). */
void		 ending_of_entry(const struct history_entry *e,
		     struct ending *out);

/* Name an ending into buf; returns buf. */
const char	*ending_name(const struct ending *e, char *buf, size_t len);

/* Whether it ended well: exited with status 0. */
bool		 ending_is_success(const struct ending *e);

#endif
