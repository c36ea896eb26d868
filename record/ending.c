/*
 * ending.c - how a session ended, in words (see ending.h).
 *
 * Invariants: the order of the checks is the order of causes: a session
 * that timed out or was killed also died of a signal, and is named by the
 * cause, not the signal; a failed start is named by its exec status (127:
 * not found, 126: not executable).  Older history files wrote "SIGTERM by
 * user" for a kill: still named "killed by the person".
 */
#include "record/ending.h"

#include <stdio.h>
#include <string.h>

#include "record/history.h"

/* The exec statuses of a command that could not be started (as sh's). */
#define ENDING_NOT_EXECUTABLE	126
#define ENDING_NOT_FOUND	127

void
ending_of_entry(const struct history_entry *e, struct ending *out)
{
	out->state = e->state;
	out->has_code = e->has_code;
	out->code = e->code;
	out->signal = e->signal;
	out->error = e->error;
}

/* Whether s is the error of a kill of that kind ("cancelled: why"). */
static bool
ending_error_is(const char *s, const char *kind)
{
	size_t	n = strlen(kind);

	return s != NULL && strncmp(s, kind, n) == 0 &&
	    (s[n] == '\0' || s[n] == ':');
}

const char *
ending_name(const struct ending *e, char *buf, size_t len)
{
	const char	*st = e->state != NULL ? e->state : "";
	const char	*abbrev;

	if (strcmp(st, "running") == 0 || strcmp(st, "pending") == 0 ||
	    strcmp(st, "denied") == 0)
		snprintf(buf, len, "%s", st);
	else if (strcmp(st, "withdrawn") == 0)
		snprintf(buf, len, "never answered");
	else if (strcmp(st, "timed_out") == 0)
		snprintf(buf, len, "timeout");
	else if (ending_error_is(e->error, ENDING_CANCELLED))
		snprintf(buf, len, "cancelled");
	else if (ending_error_is(e->error, ENDING_MEMORY))
		snprintf(buf, len, "memory limit");
	else if (ending_error_is(e->error, ENDING_SERVER_DIED))
		snprintf(buf, len, "server died");
	else if (ending_error_is(e->error, ENDING_KILLED) ||
	    ending_error_is(e->error, "SIGTERM by user"))
		snprintf(buf, len, "killed by the person");
	else if (strcmp(st, "failed_to_start") == 0 || strcmp(st, "failed") == 0)
		snprintf(buf, len, "%s", e->has_code &&
		    e->code == ENDING_NOT_FOUND ? "not found" : e->has_code &&
		    e->code == ENDING_NOT_EXECUTABLE ? "not executable" :
		    "failed to start");
	else if (e->signal != 0) {
		abbrev = sigabbrev_np(e->signal);
		if (abbrev != NULL)
			snprintf(buf, len, "signal SIG%s", abbrev);
		else
			snprintf(buf, len, "signal %d", e->signal);
	} else if (e->has_code)
		snprintf(buf, len, "exit %d", e->code);
	else
		snprintf(buf, len, "%s", *st != '\0' ? st : "unknown");
	return buf;
}

bool
ending_is_success(const struct ending *e)
{
	return e->state != NULL && strcmp(e->state, "exited") == 0 &&
	    e->has_code && e->code == 0 && e->signal == 0;
}
