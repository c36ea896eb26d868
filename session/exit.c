/*
 * exit.c - how a session ends: the poll callbacks of the PTY and of the
 * command's pipes (stdio.c), which notice EOF; its child reaped on
 * SIGCHLD; its timeout, the person's kill and an agent's cancel (SIGHUP
 * and SIGTERM, SIGKILL after a grace); leftover processes holding the
 * terminal after the command exited; then session_finish, which closes
 * the recording with its exit marker, writes the history line and tells
 * the subscribers; and how an end is named (state name, exit code, label).
 *
 * Invariants:
 * - a running session finishes only once its child is reaped AND its PTY
 *   read to EOF AND its output pipes drained, or after the linger grace in
 *   which the leftovers' group is killed (an agent slow to take the
 *   pipes' output is waited for, not killed; a failed start and
 *   sessions_free finish at once);
 * - session_finish runs once: it feeds the whole backlog to the screen,
 *   cancels every timer and closes the PTY, then closes the recording and
 *   writes the history line, and only then sends `ended`.
 */
#include "session/session-int.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/ending.h"
#include "record/history.h"
#include "record/lost.h"
#include "record/prune.h"
#include "record/record.h"
#include "record/statedir.h"

/* Grace over: the group did not end on SIGTERM; SIGKILL it. */
static void
session_kill_timer(struct loop *l, void *arg)
{
	struct session	*s = arg;

	(void)l;
	s->kill_timer = NULL;
	if (!s->reaped)
		pty_kill_group(s->child.pid, SIGKILL);
}

/* Ask the group to end: SIGHUP and SIGTERM now, SIGKILL after a grace. */
static void
session_terminate(struct session *s)
{
	/* Still setting up: nothing ran yet, no grace is owed. */
	if (s->starting) {
		if (s->start.pid > 0)
			kill(s->start.pid, SIGKILL);
		return;
	}
	if (s->done || s->reaped || s->child.pid <= 0)
		return;
	pty_kill_group(s->child.pid, SIGHUP);
	pty_kill_group(s->child.pid, SIGTERM);
	pty_kill_group(s->child.pid, SIGCONT);	/* a stopped group must see it */
	if (s->kill_timer == NULL)
		s->kill_timer = loop_timer_add(s->set->loop,
		    SESSION_KILL_GRACE_MS, session_kill_timer, s);
}

void
session_timeout_timer(struct loop *l, void *arg)
{
	struct session	*s = arg;

	(void)l;
	s->timeout_timer = NULL;
	if (s->done || s->reaped)
		return;
	s->timed_out = true;
	session_terminate(s);
}

void
session_kill(struct session *s)
{
	if (s->done || s->reaped)
		return;
	free(s->kill_error);
	s->kill_error = xstrdup(ENDING_KILLED);
	session_terminate(s);
}

void
session_cancel(struct session *s, const char *why)
{
	if (s->done || s->reaped)
		return;
	free(s->kill_error);
	s->kill_error = xasprintf("%s: %s", ENDING_CANCELLED, why);
	session_terminate(s);
}

/*
 * The command has ended but the terminal has not reached EOF: something it
 * left behind holds it open.  First round: kill that process group and wait
 * a little longer; second round: finish with what was read.
 */
static void
session_linger_timer(struct loop *l, void *arg)
{
	struct session	*s = arg;

	s->linger_timer = NULL;
	session_read(s, true);
	session_stdio_reaped(s);
	if (s->stdio_held && !session_stdio_drained(s)) {
		/* Output waits for a slow agent, not for leftovers. */
		s->linger_timer = loop_timer_add(l, SESSION_LINGER_MS,
		    session_linger_timer, s);
		return;
	}
	if ((s->eof && session_stdio_drained(s)) || s->group_killed) {
		session_finish(s);
		return;
	}
	pty_kill_group(s->child.pid, SIGKILL);
	s->group_killed = true;
	s->linger_timer = loop_timer_add(l, SESSION_EOF_WAIT_MS,
	    session_linger_timer, s);
}

/* The child was reaped with status st. */
static void
session_reaped(struct session *s, struct pty_status st)
{
	s->reaped = true;
	s->status = st;
	loop_timer_cancel(s->set->loop, s->timeout_timer);
	s->timeout_timer = NULL;
	loop_timer_cancel(s->set->loop, s->kill_timer);
	s->kill_timer = NULL;
	/* Whatever it wrote before exiting is in the PTY's buffer. */
	session_stdio_reaped(s);
	session_read(s, true);
	if (s->eof && session_stdio_drained(s))
		session_finish(s);
	else
		s->linger_timer = loop_timer_add(s->set->loop,
		    SESSION_LINGER_MS, session_linger_timer, s);
}

/* The relay told the command's end: reaped with it, the relay left. */
static void
session_end_told(struct session *s)
{
	s->relay_left = true;
	session_reaped(s, pty_status_decode(s->end_status));
}

void
session_end_io(struct loop *l, int fd, short revents, void *arg)
{
	struct session	*s = arg;
	ssize_t		 n;
	int		 wstatus;

	(void)revents;
	n = recv(fd, &wstatus, sizeof wstatus, 0);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	loop_del_fd(l, fd);
	close(fd);
	s->end_fd = -1;
	/* Nothing told: no relay (it exec'd), or it ended before. */
	if (n != (ssize_t)sizeof wstatus || s->reaped || s->done)
		return;
	s->end_told = true;
	s->end_status = wstatus;
	/* Still starting: its exec (or failure) is seen first (spawn.c). */
	if (!s->starting)
		session_end_told(s);
}

/*
 * The relay that told the end: reaped now, before its cgroups go.  It ends
 * on its own right after telling; killed first all the same, so that one
 * stopped from outside meanwhile does not hold the server (its own status
 * is not needed).
 */
static void
session_relay_end(struct session *s)
{
	struct pty_status	st;

	if (s->end_fd >= 0) {
		loop_del_fd(s->set->loop, s->end_fd);
		close(s->end_fd);
		s->end_fd = -1;
	}
	if (!s->relay_left)
		return;
	s->relay_left = false;
	kill(s->child.pid, SIGKILL);
	pty_reap(s->child.pid, true, &st);
}

void
session_reap_now(struct session *s)
{
	struct pty_status	st;

	if (!s->reaped && !s->done && s->child.pid > 0 &&
	    pty_reap(s->child.pid, false, &st) == 1)
		session_reaped(s, st);
	else if (s->end_told && !s->reaped && !s->done)
		session_end_told(s);
}

/* SIGCHLD: reap every session's child that has ended. */
void
sessions_sigchld(struct loop *l, int sig, void *arg)
{
	struct sessions		*ss = arg;
	struct pty_status	 st;
	size_t			 i;

	(void)l;
	(void)sig;
	for (i = 0; i < ss->n; i++) {
		struct session *s = ss->v[i];

		if (s->reaped || s->done || s->child.pid <= 0)
			continue;
		if (pty_reap(s->child.pid, false, &st) == 1)
			session_reaped(s, st);
	}
}

/* The marker written at the end of the recording. */
static char *
session_marker(const struct session *s)
{
	if (s->state == SESSION_FAILED)
		return xasprintf("failed %d", s->fail_status);
	if (s->state == SESSION_TIMED_OUT)
		return xasprintf("timeout %d", s->status.signaled ?
		    s->status.signal : s->status.code);
	if (s->status.signaled)
		return xasprintf("signal %d", s->status.signal);
	return xasprintf("exit %d", s->status.code);
}

/*
 * Loop callback: the PTY master is readable or writable.  Input is
 * written and output read through io.c; at EOF the session finishes if
 * its child is reaped, else the PTY is no longer polled.
 */
void
session_io(struct loop *l, int fd, short revents, void *arg)
{
	struct session	*s = arg;

	(void)l;
	(void)fd;
	if (revents & POLLOUT)
		session_pump_input(s);
	if (revents & (POLLIN | POLLHUP | POLLERR))
		session_read(s, false);
	if (s->eof && s->reaped && session_stdio_drained(s))
		session_finish(s);
	else if (s->eof) {
		/* The child still runs but closed the terminal: stop polling. */
		loop_del_fd(s->set->loop, s->child.master);
	}
}

/*
 * Loop callback for the command's pipes (stdio.c): stdin takes more, an
 * output pipe has bytes or EOF.  The session finishes when the last pipe
 * reaches EOF after the PTY did and the child was reaped.
 */
void
session_stdio_io(struct loop *l, int fd, short revents, void *arg)
{
	struct session	*s = arg;
	int		 i;

	(void)l;
	for (i = 0; i < 3; i++)
		if (s->pipe_fd[i] == fd)
			break;
	if (i == 0 && (revents & (POLLOUT | POLLERR | POLLHUP)))
		session_stdio_pump(s);
	else if (i < 3 && (revents & (POLLIN | POLLHUP | POLLERR)))
		session_stdio_read(s, i, SESSION_READ_BUDGET);
	if (s->eof && s->reaped && session_stdio_drained(s))
		session_finish(s);
}

void
session_history_entry(const struct session *s, struct history_entry *e)
{
	memset(e, 0, sizeof *e);
	e->id = s->id;
	e->argv = s->argv;
	e->cwd = s->cwd;
	e->start_us = s->start_us;
	e->end_us = s->start_us;
	e->profile = s->profile;
	e->decision = s->decision;
	e->by = s->by;
	e->env_dropped = s->env_dropped;
	e->recording = s->record_path;
	e->agent = s->agent;
	e->request = s->request;
}

/* The size of the regular file at path, or 0. */
static uint64_t
session_file_size(const char *path)
{
	struct stat	st;

	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/*
 * Keep the state directory within its budget once s has ended: the bytes
 * it left are added to what the last scan counted, and past the budget
 * (or every SESSION_PRUNE_RESCAN sessions, or at the first) a scan prunes
 * the oldest finished sessions down to PRUNE_TARGET (record/prune.h).  A failure is left for
 * the next scan and `ptyvisor gc`, which says what it is: it is no
 * problem of this session's.
 */
static void
session_keep_budget(struct session *s)
{
	struct sessions		*ss = s->set;
	struct prune_result	 r;
	char			*cause = NULL, *path;
	bool			 over;

	if (ss->bounds.state_budget == 0)
		return;
	if (s->record_path != NULL) {
		ss->state_usage += session_file_size(s->record_path);
		path = statedir_exec_log_path(s->record_path);
		ss->state_usage += session_file_size(path);
		free(path);
		path = statedir_net_log_path(s->record_path);
		ss->state_usage += session_file_size(path);
		free(path);
	}
	/*
	 * Past the budget, and grown by a tenth of it since a scan that could
	 * not get under (what is left may not go: it runs, or it is history):
	 * scanning again at every end would only read the history again.
	 */
	over = ss->state_usage > ss->bounds.state_budget &&
	    ss->state_usage > ss->state_stuck + ss->bounds.state_budget / 10;
	if (ss->state_scanned && !over && ++ss->since_scan < SESSION_PRUNE_RESCAN)
		return;
	(void)prune_run(ss->state_dir, ss->bounds.state_budget,
	    PRUNE_TARGET(ss->bounds.state_budget), false, &r, &cause);
	ss->state_usage = r.after;
	ss->state_stuck = r.after > PRUNE_TARGET(ss->bounds.state_budget) ?
	    r.after : 0;
	ss->state_scanned = true;
	ss->since_scan = 0;
	prune_result_free(&r);
	free(cause);
}

/* Everything is read: close the recording, write history, tell everyone. */
void
session_finish(struct session *s)
{
	struct sessions		*ss = s->set;
	struct history_entry	 e;
	struct sandbox		*sb = s->sandbox;
	char			*marker, *prev, *cause = NULL;
	int			 sync[2] = { -1, -1 }, error;

	if (s->done)
		return;
	s->done = true;
	s->end_us = util_wall_us();
	if (s->state == SESSION_RUNNING) {
		if (s->timed_out)
			s->state = SESSION_TIMED_OUT;
		else if (s->status.signaled)
			s->state = SESSION_SIGNALED;
		else
			s->state = SESSION_EXITED;
	}
	loop_timer_cancel(ss->loop, s->flush_timer);
	loop_timer_cancel(ss->loop, s->timeout_timer);
	loop_timer_cancel(ss->loop, s->kill_timer);
	loop_timer_cancel(ss->loop, s->linger_timer);
	loop_timer_cancel(ss->loop, s->feed_timer);
	s->flush_timer = s->timeout_timer = s->kill_timer = NULL;
	s->linger_timer = s->feed_timer = NULL;
	session_stdio_show_tail(s);	/* what pipes wrote last, shown */
	session_feed(s, true);	/* the final screen is complete */
	/*
	 * The tail's own feed may have asked for another turn (over its
	 * budget, under load) before the whole feed above took the rest:
	 * that turn must not come to a session forgotten meanwhile.
	 */
	loop_timer_cancel(ss->loop, s->feed_timer);
	s->feed_timer = NULL;
	/* Killed by the kernel for its memory bound: say so. */
	if (s->kill_error == NULL && s->status.signaled &&
	    s->status.signal == SIGKILL && sandbox_memory_exceeded(s->sandbox))
		s->kill_error = xstrdup(ENDING_MEMORY);
	/* An exec still waiting fails now; the log is complete. */
	session_exec_free(s);
	/* Its cgroups and placeholders go once the end is told (below). */
	s->sandbox = NULL;
	if (s->child.master >= 0) {
		loop_del_fd(ss->loop, s->child.master);
		close(s->child.master);
		s->child.master = -1;
	}
	buf_free(&s->input);
	session_stdio_close(s);

	marker = session_marker(s);
	if (s->record != NULL)
		s->record_dropped = record_dropped(s->record);
	if (s->record != NULL && record_end(s->record, session_elapsed_us(s),
	    marker, &sync[0], &cause) != 0) {
		if (s->error == NULL)
			s->error = xasprintf("recording: %s", cause);
		free(cause);
		cause = NULL;
	}
	s->record = NULL;
	free(marker);

	session_history_entry(s, &e);
	e.end_us = s->end_us;
	e.state = (char *)session_state_name(s->state);
	if (s->state == SESSION_FAILED) {
		e.has_code = true;
		e.code = s->fail_status;
	} else if (s->status.signaled)
		e.signal = s->status.signal;
	else {
		e.has_code = true;
		e.code = s->status.code;
	}
	e.bytes = s->bytes;
	e.recording_dropped = s->record_dropped;
	e.error = s->error;
	if (s->kill_error != NULL && e.error == NULL)
		e.error = s->kill_error;
	/* The proxy has ended with the sandbox: its log is whole. */
	if (s->record_path != NULL) {
		char	*net_log = statedir_net_log_path(s->record_path);

		e.has_net = history_net_sum(net_log, &e.net) == 0;
		free(net_log);
	}
	e.has_execs = s->exec_on;
	e.execs = s->execs;
	e.execs_denied = s->execs_denied;
	if (history_append_end(ss->history_path, &e, &sync[1], &cause) != 0) {
		/* Both the recording and the history may fail (a full disk). */
		prev = s->error;
		s->error = prev == NULL ? xasprintf("history: %s", cause) :
		    xasprintf("%s; history: %s", prev, cause);
		free(prev);
		free(cause);
	}
	/*
	 * Told first, durable right after: the recording and the history
	 * line are written (every reader sees them) when the end is told,
	 * and fsynced before anything else runs, the crash marker removed
	 * only then; the sandbox's cgroups and placeholders go last, in the
	 * same turn, before the server reads another request.  Waiting for
	 * the fsyncs before telling put them on every command's round trip;
	 * telling first risks a line an OS crash in between may lose, and
	 * the crash marker, still there, stands for it then
	 * (doc/architecture.md, "Durability").  The session is not freed by
	 * those told (sessions_forget() comes from a timer).  The state
	 * directory's budget is kept after that too: its scan (every
	 * SESSION_PRUNE_RESCAN ends) reads the whole history, and no end
	 * waits for it to be told.
	 */
	NOTIFY(ss, ended, s);
	error = util_sync_close(sync[0]);
	if (error != 0 && s->error == NULL)
		s->error = xasprintf("recording: %s: %s", s->record_path,
		    strerror(error));
	if ((error = util_sync_close(sync[1])) != 0 && s->error == NULL)
		s->error = xasprintf("history: %s: %s", ss->history_path,
		    strerror(error));
	if (s->marked)
		lost_unmark(ss->state_dir, s->id);
	session_keep_budget(s);
	session_relay_end(s);
	sandbox_free(sb);	/* also removes its cgroups, its placeholders */
}

const char *
session_state_name(enum session_state st)
{
	switch (st) {
	case SESSION_RUNNING:	return "running";
	case SESSION_EXITED:	return "exited";
	case SESSION_SIGNALED:	return "signaled";
	case SESSION_TIMED_OUT:	return "timed_out";
	case SESSION_FAILED:	return "failed_to_start";
	}
	return "unknown";
}

int
session_exit_code(const struct session *s)
{
	switch (s->state) {
	case SESSION_FAILED:
		return s->fail_status;
	case SESSION_TIMED_OUT:
		return SESSION_EXIT_TIMEOUT;
	case SESSION_EXITED:
	case SESSION_SIGNALED:
		return pty_status_exit_code(s->status);
	default:
		return SESSION_EXIT_ERROR;
	}
}

void
session_ending(const struct session *s, struct ending *out)
{
	memset(out, 0, sizeof *out);
	out->state = session_state_name(s->state);
	out->error = s->kill_error != NULL ? s->kill_error : s->error;
	if (s->state == SESSION_FAILED) {
		out->has_code = true;
		out->code = s->fail_status;
	} else if (s->status.signaled)
		out->signal = s->status.signal;
	else {
		out->has_code = true;
		out->code = s->status.code;
	}
}

void
session_label(const struct session *s, char *buf, size_t len)
{
	struct ending	e;
	char		name[64];

	if (s->state == SESSION_RUNNING) {
		snprintf(buf, len, "%s", session_state_name(s->state));
		return;
	}
	session_ending(s, &e);
	snprintf(buf, len, "%s %s", ending_is_success(&e) ? "\xe2\x9c\x94" :
	    "\xe2\x9c\x98", ending_name(&e, name, sizeof name));
}
