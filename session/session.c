/*
 * session.c - session lifecycle and the set of sessions (see session.h).
 *
 * Invariants:
 * - every byte read from a PTY goes, in order, to the recorder, the screen
 *   and the subscribers;
 * - a session ends only after its child is reaped AND its PTY reached EOF
 *   (or, when a leftover process holds the terminal open, after a grace
 *   period in which that process group is killed), so no output is lost;
 * - an ended session has its recording closed (fsynced) and its history
 *   line written before the `ended` event is sent.
 */
#include "session/session.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/history.h"
#include "record/record.h"
#include "record/statedir.h"
#include "base/util.h"

/*
 * Bytes read from one PTY per loop turn: large enough for throughput, small
 * enough that a flooding session leaves the loop quickly for the others.
 */
#define SESSION_READ_BUDGET	(64 * 1024)
#define SESSION_READ_CHUNK	(16 * 1024)
/*
 * The terminal emulator is the expensive part (libvterm 0.1.4 moves the
 * whole screen for every scrolled line: `yes` in a 160x48 pane costs
 * ~30 us a line), so bytes are fed to it in slices, for at most this long
 * per session per loop turn; the rest waits for the next turn and the PTY
 * is not read meanwhile.  Typing into another pane then waits at most
 * about one budget per flooding session.
 */
#define SESSION_FEED_SLICE	512
#define SESSION_FEED_BUDGET_US	3000
/* Input queued for a program that does not read it: beyond this we drop. */
#define SESSION_INPUT_MAX	(1024 * 1024)
/* The recording reaches the disk at least this often. */
#define SESSION_FLUSH_MS	1000
/* After the command exits, how long leftovers may hold the terminal. */
#define SESSION_LINGER_MS	200
/* After SIGTERM, how long before SIGKILL. */
#define SESSION_KILL_GRACE_MS	2000
/* After SIGKILL of leftovers, how long to wait for the PTY's EOF. */
#define SESSION_EOF_WAIT_MS	1000

#define SESSIONS_MAX_SUBSCRIBERS 8

struct subscriber {
	const struct session_events	*ev;
	void				*user;
};

struct session {
	struct sessions		*set;
	unsigned long		 id;
	enum session_state	 state;
	char			**argv;
	char			*cwd;
	char			*profile;
	char			*decision;
	char			*by;
	bool			 agent;
	bool			 record_input;

	struct pty_child	 child;		/* pid -1 once reaped */
	struct pty_size		 size;
	bool			 reaped;
	bool			 eof;
	bool			 done;
	bool			 timed_out;
	bool			 killed_by_user;
	bool			 group_killed;
	struct pty_status	 status;
	int			 fail_status;	/* 125-127 when FAILED */
	char			*error;
	struct sandbox		*sandbox;	/* freed once reaped */

	struct screen		*screen;
	struct record		*record;
	char			*record_path;
	uint64_t		 bytes;
	uint64_t		 start_mono_us;	/* monotonic */
	int64_t			 start_us;	/* wall clock */
	int64_t			 end_us;

	struct buf		 input;		/* queued for the PTY */
	struct buf		 feed;		/* read, not yet on the screen */
	short			 events;	/* what the loop polls for */

	struct loop_timer	*flush_timer;
	struct loop_timer	*timeout_timer;
	struct loop_timer	*kill_timer;
	struct loop_timer	*linger_timer;
	struct loop_timer	*feed_timer;
};

struct sessions {
	struct loop		*loop;
	char			*state_dir;
	char			*history_path;
	struct session		**v;
	size_t			 n;
	struct subscriber	 subs[SESSIONS_MAX_SUBSCRIBERS];
	size_t			 nsubs;
	unsigned long		 last_id;
	char			 readbuf[SESSION_READ_CHUNK];
};

/* Send an event to every subscriber. */
#define NOTIFY(ss, member, ...) do {					\
	size_t notify_i_;						\
	for (notify_i_ = 0; notify_i_ < (ss)->nsubs; notify_i_++)	\
		if ((ss)->subs[notify_i_].ev->member != NULL)		\
			(ss)->subs[notify_i_].ev->member(		\
			    (ss)->subs[notify_i_].user, __VA_ARGS__);	\
} while (0)

static void	session_finish(struct session *s);
static void	session_pump_input(struct session *s);

/* Microseconds since the session started, for the recording. */
static uint64_t
session_elapsed_us(const struct session *s)
{
	return util_now_us() - s->start_mono_us;
}

char *
session_quote_argv(char *const *argv)
{
	struct buf	b = { 0 };
	const char	*p;
	size_t		 i;

	for (i = 0; argv[i] != NULL; i++) {
		if (i > 0)
			buf_addc(&b, ' ');
		if (argv[i][0] != '\0' &&
		    strspn(argv[i], "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%^") ==
		    strlen(argv[i])) {
			buf_adds(&b, argv[i]);
			continue;
		}
		buf_addc(&b, '\'');
		for (p = argv[i]; *p != '\0'; p++) {
			if (*p == '\'')
				buf_adds(&b, "'\\''");
			else
				buf_addc(&b, *p);
		}
		buf_addc(&b, '\'');
	}
	return buf_cstr(&b);
}

/* Screen events are forwarded to subscribers with the session. */
static void
screen_damage(void *user, int srow, int erow, int scol, int ecol)
{
	struct session	*s = user;

	NOTIFY(s->set, damage, s, srow, erow, scol, ecol);
}

static void
screen_output(void *user, const char *data, size_t len)
{
	session_write(user, data, len);
}

static void
screen_bell(void *user)
{
	struct session	*s = user;

	NOTIFY(s->set, bell, s);
}

static void
screen_props(void *user)
{
	struct session	*s = user;

	NOTIFY(s->set, props, s);
}

static const struct screen_events session_screen_events = {
	.damage = screen_damage,
	.output = screen_output,
	.bell = screen_bell,
	.props = screen_props,
};

/* Poll for input unless the screen has a backlog, for output if queued. */
static void
session_watch(struct session *s)
{
	short	want;

	if (s->eof || s->done || s->child.master < 0)
		return;
	want = (s->feed.len == 0 ? POLLIN : 0) |
	    (s->input.len > 0 ? POLLOUT : 0);
	if (want != s->events) {
		s->events = want;
		loop_set_events(s->set->loop, s->child.master, want);
	}
}

static void	session_feed_timer(struct loop *, void *);

/*
 * Feed the backlog to the screen: everything when all, else for at most
 * SESSION_FEED_BUDGET_US, coming back next turn for the rest.
 */
static void
session_feed(struct session *s, bool all)
{
	uint64_t	start = util_now_us();
	size_t		off = 0, n;

	while (off < s->feed.len) {
		n = s->feed.len - off;
		if (n > SESSION_FEED_SLICE)
			n = SESSION_FEED_SLICE;
		screen_feed(s->screen, s->feed.data + off, n);
		off += n;
		if (!all && util_now_us() - start >= SESSION_FEED_BUDGET_US)
			break;
	}
	buf_consume(&s->feed, off);
	screen_flush_damage(s->screen);
	if (s->feed.len > 0 && s->feed_timer == NULL)
		s->feed_timer = loop_timer_add(s->set->loop, 0,
		    session_feed_timer, s);
	session_watch(s);
}

static void
session_feed_timer(struct loop *l, void *arg)
{
	struct session	*s = arg;

	(void)l;
	s->feed_timer = NULL;
	session_feed(s, false);
}

/* Take bytes read from the PTY (or written by ptyvisor itself). */
static void
session_take(struct session *s, const char *data, size_t len)
{
	s->bytes += len;
	if (s->record != NULL)
		record_output(s->record, session_elapsed_us(s), data, len);
	NOTIFY(s->set, output, s, data, len);
	buf_add(&s->feed, data, len);
}

/*
 * Read what the PTY has, up to budget bytes, and feed the screen (all of
 * it when all: the session is ending); marks EOF.
 */
static void
session_read(struct session *s, size_t budget, bool all)
{
	struct sessions	*ss = s->set;
	ssize_t		 n;
	size_t		 got = 0;

	if (s->feed.len > 0)
		session_feed(s, all);
	while (!s->eof && got < budget && (all || s->feed.len == 0)) {
		n = pty_read(s->child.master, ss->readbuf, sizeof ss->readbuf);
		if (n == 0)
			break;
		if (n == PTY_EOF || n < 0) {
			s->eof = true;
			break;
		}
		session_take(s, ss->readbuf, (size_t)n);
		got += (size_t)n;
		session_feed(s, all);
	}
}

/* Loop callback: the PTY master is readable or writable. */
static void
session_io(struct loop *l, int fd, short revents, void *arg)
{
	struct session	*s = arg;

	(void)l;
	(void)fd;
	if (revents & POLLOUT)
		session_pump_input(s);
	if (revents & (POLLIN | POLLHUP | POLLERR))
		session_read(s, SESSION_READ_BUDGET, false);
	if (s->eof && s->reaped)
		session_finish(s);
	else if (s->eof) {
		/* The child still runs but closed the terminal: stop polling. */
		loop_del_fd(s->set->loop, s->child.master);
	}
}

/* Write queued input without blocking. */
static void
session_pump_input(struct session *s)
{
	ssize_t	n;

	if (s->child.master < 0 || s->eof) {
		s->input.len = 0;
		return;
	}
	while (s->input.len > 0) {
		n = pty_write(s->child.master, s->input.data, s->input.len);
		if (n <= 0) {
			if (n < 0)
				s->input.len = 0;	/* EIO: gone */
			break;
		}
		buf_consume(&s->input, (size_t)n);
	}
	session_watch(s);
}

void
session_write(struct session *s, const void *data, size_t len)
{
	if (s->done || s->state != SESSION_RUNNING)
		return;
	if (s->input.len + len > SESSION_INPUT_MAX)
		return;		/* the program is not reading: drop */
	if (s->record_input && s->record != NULL)
		record_input(s->record, session_elapsed_us(s), data, len);
	buf_add(&s->input, data, len);
	session_pump_input(s);
}

void
session_resize(struct session *s, struct pty_size size)
{
	if (size.cols < 1 || size.rows < 1)
		return;
	if (size.cols == s->size.cols && size.rows == s->size.rows)
		return;
	s->size = size;
	screen_resize(s->screen, size.rows, size.cols);
	if (s->done)
		return;
	pty_resize(s->child.master, size);
	if (s->record != NULL)
		record_resize(s->record, session_elapsed_us(s), size.cols,
		    size.rows);
}

/* Periodic flush of the recording. */
static void
session_flush_timer(struct loop *l, void *arg)
{
	struct session	*s = arg;
	char		*cause = NULL;

	s->flush_timer = NULL;
	if (s->record != NULL && record_flush(s->record, &cause) != 0) {
		if (s->error == NULL)
			s->error = xasprintf("recording: %s", cause);
		free(cause);
	}
	if (!s->done)
		s->flush_timer = loop_timer_add(l, SESSION_FLUSH_MS,
		    session_flush_timer, s);
}

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
	if (s->done || s->reaped || s->child.pid <= 0)
		return;
	pty_kill_group(s->child.pid, SIGHUP);
	pty_kill_group(s->child.pid, SIGTERM);
	pty_kill_group(s->child.pid, SIGCONT);	/* a stopped group must see it */
	if (s->kill_timer == NULL)
		s->kill_timer = loop_timer_add(s->set->loop,
		    SESSION_KILL_GRACE_MS, session_kill_timer, s);
}

static void
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
	s->killed_by_user = true;
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
	session_read(s, SIZE_MAX, true);
	if (s->eof || s->group_killed) {
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
	session_read(s, SIZE_MAX, true);
	if (s->eof)
		session_finish(s);
	else
		s->linger_timer = loop_timer_add(s->set->loop,
		    SESSION_LINGER_MS, session_linger_timer, s);
}

/* SIGCHLD: reap every session's child that has ended. */
static void
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

/* Everything is read: close the recording, write history, tell everyone. */
static void
session_finish(struct session *s)
{
	struct sessions		*ss = s->set;
	struct history_entry	 e;
	char			*marker, *cause = NULL;

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
	session_feed(s, true);	/* the final screen is complete */
	sandbox_free(s->sandbox);	/* also removes its pids cgroup */
	s->sandbox = NULL;
	if (s->child.master >= 0) {
		loop_del_fd(ss->loop, s->child.master);
		close(s->child.master);
		s->child.master = -1;
	}
	buf_free(&s->input);

	marker = session_marker(s);
	if (s->record != NULL &&
	    record_close(s->record, session_elapsed_us(s), marker, &cause) != 0) {
		if (s->error == NULL)
			s->error = xasprintf("recording: %s", cause);
		free(cause);
		cause = NULL;
	}
	s->record = NULL;
	free(marker);

	memset(&e, 0, sizeof e);
	e.id = s->id;
	e.argv = s->argv;
	e.cwd = s->cwd;
	e.start_us = s->start_us;
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
	e.profile = s->profile;
	e.decision = s->decision;
	e.by = s->by;
	e.recording = s->record_path;
	e.bytes = s->bytes;
	e.error = s->error;
	e.agent = s->agent;
	if (s->killed_by_user && e.error == NULL)
		e.error = (char *)"SIGTERM by user";
	if (history_append(ss->history_path, &e, &cause) != 0) {
		if (s->error == NULL)
			s->error = xasprintf("history: %s", cause);
		free(cause);
	}
	NOTIFY(ss, ended, s);
}

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
	if (loop_add_signal(loop, SIGCHLD, sessions_sigchld, ss, cause) != 0) {
		free(ss->state_dir);
		free(ss->history_path);
		free(ss);
		return NULL;
	}
	return ss;
}

/* Free one session's memory (it must be done). */
static void
session_free(struct session *s)
{
	strv_free(s->argv);
	free(s->cwd);
	free(s->profile);
	free(s->decision);
	free(s->by);
	free(s->error);
	free(s->record_path);
	sandbox_free(s->sandbox);
	screen_free(s->screen);
	buf_free(&s->input);
	buf_free(&s->feed);
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
	struct pty_status	st;
	size_t			i;

	if (ss == NULL)
		return;
	/* Nothing a session started may outlive ptyvisor. */
	for (i = 0; i < ss->n; i++) {
		struct session *s = ss->v[i];

		if (s->done)
			continue;
		if (!s->reaped) {
			pty_kill_group(s->child.pid, SIGHUP);
			pty_kill_group(s->child.pid, SIGKILL);
			if (pty_reap(s->child.pid, true, &st) == 1) {
				s->reaped = true;
				s->status = st;
			}
			s->killed_by_user = true;
		} else
			pty_kill_group(s->child.pid, SIGKILL);
		session_read(s, SIZE_MAX, true);
		session_finish(s);
	}
	for (i = 0; i < ss->n; i++)
		session_free(ss->v[i]);
	free(ss->v);
	free(ss->state_dir);
	free(ss->history_path);
	free(ss);
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

/* Create the recording with the next free id. */
static int
session_open_record(struct session *s, const struct session_opts *o,
    char **cause)
{
	struct sessions		*ss = s->set;
	struct record_header	 h;
	char			*cmd = session_quote_argv(s->argv);
	unsigned long		 id;
	int			 tries;

	memset(&h, 0, sizeof h);
	h.cols = s->size.cols;
	h.rows = s->size.rows;
	h.timestamp = s->start_us / 1000000;
	h.command = cmd;
	h.term = o->term;
	h.shell = getenv("SHELL");
	id = statedir_last_id(ss->state_dir);
	if (id < ss->last_id)
		id = ss->last_id;
	/* Another ptyvisor may take the same id: O_EXCL decides. */
	for (tries = 0; tries < 1000; tries++) {
		id++;
		free(s->record_path);
		s->record_path = statedir_cast_path(ss->state_dir, id);
		free(*cause);
		*cause = NULL;
		s->record = record_create(s->record_path, &h, cause);
		if (s->record != NULL || errno != EEXIST)
			break;
	}
	free(cmd);
	if (s->record == NULL)
		return -1;
	s->id = id;
	ss->last_id = id;
	return 0;
}

/* The command did not start: show why on its screen and in its recording. */
static void
session_failed(struct session *s, int status, const char *what)
{
	char	*msg;

	s->state = SESSION_FAILED;
	s->fail_status = status;
	s->reaped = true;
	s->eof = true;
	s->error = xstrdup(what);
	msg = xasprintf("ptyvisor: %s\r\n", what);
	session_take(s, msg, strlen(msg));
	free(msg);
	session_finish(s);
}

/* base with each NAME=VALUE of extra set over it; caller frees. */
static char **
env_merge(char *const *base, char *const *extra)
{
	size_t	  i, j, n = 0, len;
	char	**env = xcalloc(strv_len(base) + strv_len(extra) + 1,
		    sizeof *env);

	for (i = 0; base[i] != NULL; i++) {
		for (j = 0; extra[j] != NULL; j++) {
			len = strcspn(extra[j], "=");
			if (strncmp(base[i], extra[j], len) == 0 &&
			    base[i][len] == '=')
				break;
		}
		if (extra[j] == NULL)
			env[n++] = xstrdup(base[i]);
	}
	for (j = 0; extra[j] != NULL; j++)
		if (strchr(extra[j], '=') != NULL)
			env[n++] = xstrdup(extra[j]);
	return env;
}

struct session *
sessions_start(struct sessions *ss, const struct session_opts *o,
    char **cause)
{
	struct session		*s;
	struct pty_spec		 spec;
	struct pty_failure	 fail;
	struct stat		 st;
	char			 cwd[PATH_MAX], what[256];
	char			*sbcause = NULL, **env = NULL;
	extern char		**environ;

	if (o->argv == NULL || o->argv[0] == NULL || o->argv[0][0] == '\0') {
		*cause = xstrdup("no command given");
		return NULL;
	}
	if (o->cwd != NULL) {
		if (stat(o->cwd, &st) != 0) {
			*cause = xasprintf("cwd %s: %s", o->cwd,
			    strerror(errno));
			return NULL;
		}
		if (!S_ISDIR(st.st_mode)) {
			*cause = xasprintf("cwd %s: not a directory", o->cwd);
			return NULL;
		}
		if (realpath(o->cwd, cwd) == NULL) {
			*cause = xasprintf("cwd %s: %s", o->cwd,
			    strerror(errno));
			return NULL;
		}
	} else if (getcwd(cwd, sizeof cwd) == NULL) {
		*cause = xasprintf("current directory: %s", strerror(errno));
		return NULL;
	}

	s = xcalloc(1, sizeof *s);
	s->set = ss;
	s->state = SESSION_RUNNING;
	s->argv = strv_dup(o->argv);
	s->cwd = xstrdup(cwd);
	s->profile = xstrdup(o->sandbox != NULL ?
	    sandbox_profile_name(o->sandbox->profile) : "none");
	s->decision = o->decision != NULL ? xstrdup(o->decision) : NULL;
	s->by = o->by != NULL ? xstrdup(o->by) : NULL;
	s->agent = o->agent;
	s->record_input = o->record_input;
	s->size = o->size;
	if (s->size.cols < 1)
		s->size.cols = 80;
	if (s->size.rows < 1)
		s->size.rows = 24;
	s->child.pid = -1;
	s->child.master = -1;
	s->start_mono_us = util_now_us();
	s->start_us = util_wall_us();

	if (session_open_record(s, o, cause) != 0) {
		free(s->record_path);
		s->record_path = NULL;
		session_free(s);
		return NULL;
	}
	s->screen = screen_new(s->size.rows, s->size.cols,
	    o->scrollback ? o->scrollback : SESSION_SCROLLBACK_DEFAULT,
	    &session_screen_events, s);

	ss->v = xreallocarray(ss->v, ss->n + 1, sizeof *ss->v);
	ss->v[ss->n++] = s;
	NOTIFY(ss, created, s);

	memset(&spec, 0, sizeof spec);
	spec.argv = s->argv;
	spec.cwd = s->cwd;
	spec.size = s->size;
	if (o->sandbox != NULL) {
		/* Prepared here: the child checks its parent prepared it. */
		s->sandbox = sandbox_new(o->sandbox, s->cwd, &sbcause);
		if (s->sandbox == NULL) {
			snprintf(what, sizeof what, "sandbox: %s", sbcause);
			free(sbcause);
			session_failed(s, SESSION_EXIT_ERROR, what);
			return s;
		}
		env = sandbox_env(s->sandbox, o->envp ? o->envp : environ,
		    o->env_extra);
		spec.pre_exec = sandbox_child;
		spec.pre_exec_arg = s->sandbox;
	} else {
		if (o->env_extra != NULL)
			env = env_merge(o->envp ? o->envp : environ,
			    o->env_extra);
		spec.pre_exec = o->pre_exec;
		spec.pre_exec_arg = o->pre_exec_arg;
	}
	spec.envp = env != NULL ? env : o->envp;
	if (pty_spawn(&spec, &s->child, &fail) != 0) {
		if (fail.status == SESSION_EXIT_NOTFOUND)
			snprintf(what, sizeof what, "%s: command not found",
			    s->argv[0]);
		else
			pty_failure_str(&fail, what, sizeof what);
		strv_free(env);
		session_failed(s, fail.status, what);
		return s;
	}
	strv_free(env);
	loop_add_fd(ss->loop, s->child.master, POLLIN, LOOP_PRIO_NORMAL,
	    session_io, s);
	s->events = POLLIN;
	s->flush_timer = loop_timer_add(ss->loop, SESSION_FLUSH_MS,
	    session_flush_timer, s);
	if (o->timeout_s > 0)
		s->timeout_timer = loop_timer_add(ss->loop,
		    (uint64_t)o->timeout_s * 1000, session_timeout_timer, s);
	return s;
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
	size_t	i;

	if (!s->done)
		return;
	for (i = 0; i < ss->n; i++) {
		if (ss->v[i] == s) {
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

const char *
session_state_name(enum session_state st)
{
	switch (st) {
	case SESSION_PENDING:	return "pending";
	case SESSION_DENIED:	return "denied";
	case SESSION_RUNNING:	return "running";
	case SESSION_EXITED:	return "exited";
	case SESSION_SIGNALED:	return "signaled";
	case SESSION_TIMED_OUT:	return "timed_out";
	case SESSION_FAILED:	return "failed_to_start";
	}
	return "unknown";
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

const char *
session_error(const struct session *s)
{
	return s->error;
}

bool
session_killed_by_user(const struct session *s)
{
	return s->killed_by_user;
}

void
session_label(const struct session *s, char *buf, size_t len)
{
	switch (s->state) {
	case SESSION_PENDING:
		snprintf(buf, len, "pending");
		break;
	case SESSION_DENIED:
		snprintf(buf, len, "denied");
		break;
	case SESSION_RUNNING:
		snprintf(buf, len, "running");
		break;
	case SESSION_EXITED:
		snprintf(buf, len, "%s %d", s->status.code == 0 ?
		    "\xe2\x9c\x94" : "\xe2\x9c\x98", s->status.code);
		break;
	case SESSION_SIGNALED:
		snprintf(buf, len, "SIG%d", s->status.signal);
		break;
	case SESSION_TIMED_OUT:
		snprintf(buf, len, "timeout");
		break;
	case SESSION_FAILED:
		snprintf(buf, len, "failed");
		break;
	}
}
