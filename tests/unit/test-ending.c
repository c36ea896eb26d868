/*
 * test-ending.c - how a session's end is named: every name, and that the
 * cause wins over the signal it was carried out with (a timeout, a kill by
 * the person, a cancellation all end by a signal too).
 */
#include "record/ending.h"

#include <signal.h>
#include <stdbool.h>

#include "record/history.h"
#include "tests/tap.h"

/* The name of an ending made of these fields. */
static const char *
name(const char *state, bool has_code, int code, int sig, const char *error)
{
	static char	buf[64];
	struct ending	e = { state, has_code, code, sig, error };

	return ending_name(&e, buf, sizeof buf);
}

int
main(void)
{
	struct history_entry	h = { 0 };
	struct ending		e;
	char			buf[64];

	is_str(name("exited", true, 0, 0, NULL), "exit 0", "exit 0");
	is_str(name("exited", true, 3, 0, NULL), "exit 3", "exit 3");
	is_str(name("signaled", false, 0, SIGKILL, NULL), "signal SIGKILL",
	    "a signal by its name");
	is_str(name("signaled", false, 0, 77, NULL), "signal 77",
	    "a signal without a name by its number");
	is_str(name("timed_out", false, 0, SIGHUP, NULL), "timeout",
	    "a timeout, not the SIGHUP that ended it");
	is_str(name("signaled", false, 0, SIGHUP, ENDING_KILLED),
	    "killed by the person", "a kill by the person, not its signal");
	is_str(name("signaled", false, 0, SIGTERM, "SIGTERM by user"),
	    "killed by the person", "... as older history files wrote it");
	is_str(name("signaled", false, 0, SIGHUP,
	    "cancelled: the agent went away"), "cancelled",
	    "the agent went away: cancelled");
	is_str(name("signaled", false, 0, SIGKILL, ENDING_MEMORY),
	    "memory limit", "killed for the sandbox's memory: memory limit");
	is_str(name("lost", false, 0, 0, ENDING_SERVER_DIED), "server died",
	    "a session its ptyvisor died under: server died");
	is_str(name("failed_to_start", true, 127, 0, "exec: No such file"),
	    "not found", "127 at start: not found");
	is_str(name("failed_to_start", true, 126, 0, NULL), "not executable",
	    "126 at start: not executable");
	is_str(name("failed_to_start", true, 125, 0, "sandbox: mount"),
	    "failed to start", "anything else at start: failed to start");
	is_str(name("running", false, 0, 0, NULL), "running", "running");
	is_str(name("denied", false, 0, 0, "not now"), "denied",
	    "a request that was refused: denied");
	is_str(name("withdrawn", false, 0, 0, NULL), "never answered",
	    "one whose agent went away first: never answered");
	is_str(name(NULL, false, 0, 0, NULL), "unknown", "nothing known");
	is_str(name("exited", true, 0, 0, "cancelledx"), "exit 0",
	    "only a whole word 'cancelled' counts");

	h.state = "exited";
	h.has_code = true;
	h.code = 0;
	ending_of_entry(&h, &e);
	ok(ending_is_success(&e), "exit 0 is a success");
	is_str(ending_name(&e, buf, sizeof buf), "exit 0",
	    "a history entry's ending");
	h.code = 1;
	ending_of_entry(&h, &e);
	ok(!ending_is_success(&e), "exit 1 is not");
	h.state = "timed_out";
	h.code = 0;
	ending_of_entry(&h, &e);
	ok(!ending_is_success(&e), "a timeout is not, even with code 0");
	ending_name(&e, buf, 5);
	is_str(buf, "time", "a short buffer is cut, terminated");
	return tap_done();
}
