/*
 * session.c - the set of sessions and what a session is (see session.h);
 * starting one is in spawn.c, its bytes through the PTY in io.c, through
 * pipes in stdio.c, its end in exit.c, and what they share in
 * session-int.h.
 *
 * Invariants:
 * - every byte read from a PTY goes, in order, to the recorder, the
 *   subscribers and the screen (io.c; a passthrough session has none);
 * - a session ends only after its child is reaped AND its PTY reached EOF
 *   AND its output pipes are drained (or, when a leftover process holds
 *   the terminal open, after a grace period in which that process group
 *   is killed), so no output is lost (exit.c);
 * - an ended session has its recording's end and its history line
 *   written (every reader sees them) before the `ended` event is sent, and
 *   both fsynced right after it, in the same turn (exit.c).
 */
#include "session/session-int.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/ending.h"
#include "record/lost.h"
#include "record/prune.h"
#include "record/record.h"
#include "record/statedir.h"

struct sessions *
sessions_new(struct loop *loop, const char *state_dir, char **cause)
{
	struct sessions	*ss;

	if (statedir_prepare(state_dir, cause) != 0)
		return NULL;
	ss = xcalloc(1, sizeof *ss);
	ss->loop = loop;
	ss->state_dir = xstrdup(state_dir);
	ss->history_path = statedir_history_path(state_dir);
	ss->bounds.max_recording = RECORD_CAP_DEFAULT;
	ss->bounds.state_budget = prune_default_budget(state_dir);
	/* Sessions a dead ptyvisor left behind get their history lines. */
	lost_recover(state_dir);
	if (loop_add_signal(loop, SIGCHLD, sessions_sigchld, ss, cause) != 0) {
		free(ss->state_dir);
		free(ss->history_path);
		free(ss);
		return NULL;
	}
	return ss;
}

void
sessions_set_bounds(struct sessions *ss, const struct session_bounds *b)
{
	ss->bounds = *b;
}

void
sessions_set_child_open_files(struct sessions *ss, uint64_t n)
{
	ss->child_open_files = n;
}

/* Free one session's memory (it must be done). */
void
session_free(struct session *s)
{
	strv_free(s->argv);
	free(s->cwd);
	free(s->profile);
	free(s->decision);
	free(s->by);
	strv_free(s->env_dropped);
	free(s->error);
	free(s->kill_error);
	free(s->views);
	free(s->record_path);
	if (s->starting)
		session_start_abandon(s);
	session_exec_forget(s);
	sandbox_free(s->sandbox);
	screen_free(s->screen);
	buf_free(&s->input);
	buf_free(&s->feed);
	buf_free(&s->stdin_q);
	buf_free(&s->show_tail);
	free(s);
}

void
sessions_kill_all(struct sessions *ss)
{
	size_t	i;

	for (i = 0; i < ss->n; i++)
		session_kill(ss->v[i]);
}

void
sessions_free(struct sessions *ss)
{
	size_t			i;

	if (ss == NULL)
		return;
	sessions_end_all(ss);
	loop_timer_cancel(ss->loop, ss->echo_timer);
	for (i = 0; i < ss->n; i++)
		session_free(ss->v[i]);
	free(ss->v);
	free(ss->state_dir);
	free(ss->history_path);
	free(ss);
}

/* An async start (spawn.c) given up: the child killed and reaped. */
void
session_start_abandon(struct session *s)
{
	struct pty_status	st;
	struct loop		*l = s->set->loop;

	if (!s->starting)
		return;
	if (s->start.report >= 0)
		loop_del_fd(l, s->start.report);
	if (s->start_passed_fd >= 0)
		loop_del_fd(l, s->start_passed_fd);
	s->start_passed_fd = -1;
	if (s->start.pid > 0) {
		kill(s->start.pid, SIGKILL);
		if (pty_reap(s->start.pid, true, &st) == 1) {
			s->reaped = true;
			s->status = st;
		}
	}
	pty_start_close(&s->start);
	s->starting = false;
}

void
sessions_end_all(struct sessions *ss)
{
	struct pty_status	st;
	size_t			i;

	/* Nothing a session started may outlive ptyvisor. */
	for (i = 0; i < ss->n; i++) {
		struct session *s = ss->v[i];

		if (s->done)
			continue;
		if (s->starting)
			session_start_abandon(s);
		if (!s->reaped) {
			pty_kill_group(s->child.pid, SIGHUP);
			pty_kill_group(s->child.pid, SIGKILL);
			if (pty_reap(s->child.pid, true, &st) == 1) {
				s->reaped = true;
				s->status = st;
			}
			if (s->kill_error == NULL)
				s->kill_error = xstrdup(ENDING_KILLED);
		} else
			pty_kill_group(s->child.pid, SIGKILL);
		session_read(s, true);
		session_finish(s);
	}
}

void
sessions_subscribe(struct sessions *ss, const struct session_events *ev,
    void *user)
{
	if (ss->nsubs == SESSIONS_MAX_SUBSCRIBERS)
		fatal("too many session subscribers");
	ss->subs[ss->nsubs].ev = ev;
	ss->subs[ss->nsubs].user = user;
	ss->nsubs++;
}

size_t
sessions_count(const struct sessions *ss)
{
	return ss->n;
}

struct session *
sessions_at(const struct sessions *ss, size_t i)
{
	return i < ss->n ? ss->v[i] : NULL;
}

struct session *
sessions_find(const struct sessions *ss, unsigned long id)
{
	size_t	i;

	for (i = 0; i < ss->n; i++)
		if (ss->v[i]->id == id)
			return ss->v[i];
	return NULL;
}

size_t
sessions_running(const struct sessions *ss)
{
	size_t	i, n = 0;

	for (i = 0; i < ss->n; i++)
		if (!ss->v[i]->done)
			n++;
	return n;
}

void
sessions_forget(struct sessions *ss, struct session *s)
{
	size_t	i, k;

	if (!s->done)
		return;
	for (i = 0; i < ss->n; i++) {
		if (ss->v[i] == s) {
			for (k = 0; k < ss->nsubs; k++)
				if (ss->subs[k].ev->forgotten != NULL)
					ss->subs[k].ev->forgotten(
					    ss->subs[k].user, s);
			memmove(&ss->v[i], &ss->v[i + 1],
			    (ss->n - i - 1) * sizeof *ss->v);
			ss->n--;
			session_free(s);
			return;
		}
	}
}

unsigned long
session_id(const struct session *s)
{
	return s->id;
}

enum session_state
session_state(const struct session *s)
{
	return s->state;
}

char *const *
session_argv(const struct session *s)
{
	return s->argv;
}

const char *
session_cwd(const struct session *s)
{
	return s->cwd;
}

const char *
session_profile(const struct session *s)
{
	return s->profile;
}

bool
session_is_agent(const struct session *s)
{
	return s->agent;
}

unsigned long
session_request(const struct session *s)
{
	return s->request;
}

bool
session_is_starting(const struct session *s)
{
	return s->starting;
}

bool
session_is_done(const struct session *s)
{
	return s->done;
}

pid_t
session_pid(const struct session *s)
{
	return s->child.pid;
}

struct screen *
session_screen(const struct session *s)
{
	return s->screen;
}

const char *
session_reported_cwd(const struct session *s)
{
	return s->screen != NULL ? screen_cwd(s->screen) : NULL;
}

struct pty_size
session_size(const struct session *s)
{
	return s->size;
}

const char *
session_recording(const struct session *s)
{
	return s->record_path;
}

uint64_t
session_bytes(const struct session *s)
{
	return s->bytes;
}

int64_t
session_start_us(const struct session *s)
{
	return s->start_us;
}

int64_t
session_end_us(const struct session *s)
{
	return s->end_us;
}

struct pty_status
session_status(const struct session *s)
{
	return s->status;
}

const char *
session_error(const struct session *s)
{
	return s->error;
}

bool
session_killed_by_user(const struct session *s)
{
	return s->kill_error != NULL &&
	    strcmp(s->kill_error, ENDING_KILLED) == 0;
}
