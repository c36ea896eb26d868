/*
 * io.c - a session's bytes through its PTY: reading with a per-turn
 * budget, recording them, passing them to the subscribers and feeding them
 * to the screen in time-bounded slices; the queue of input for the
 * program; resizing and the consoles' views that decide the size; the
 * screen drawn for a viewer that joins late; the recording's flush,
 * SESSION_FLUSH_MS after bytes wait.
 *
 * Invariants:
 * - every byte read from the PTY goes, in order, to the recorder, the
 *   subscribers and the screen's backlog (session_take), unless the
 *   session is a passthrough one, which keeps no screen;
 * - flow control: per loop turn a PTY is read once (why: at
 *   SESSION_READ_CHUNK in session-int.h), and not polled for input at all
 *   while the screen has a backlog, which is fed in slices for a bounded
 *   time (the bounds and why are in session-int.h);
 * - the feed yields to the person (keys, the watched pane) between slices;
 *   the watched session's PTY is a high-priority fd of the loop; after a
 *   key reaches a watched session, the others are not read or fed until
 *   its output comes or SESSION_ECHO_WAIT_MS passed (session_held);
 * - what the recorder holds reaches the file within SESSION_FLUSH_MS, from
 *   a timer that exists only while something waits;
 * - writes to the PTY never block; input the program does not read is
 *   dropped beyond SESSION_INPUT_MAX.
 *
 * Nothing here decides that a session ends: the PTY's poll callback
 * (session_io, in exit.c) reads through this file and finishes the session
 * once the PTY is at EOF and the child reaped.  Calls go one way, into
 * this file.
 */
#include "session/session-int.h"

#include <poll.h>
#include <stdlib.h>

#include "record/record.h"

/* Microseconds since the session started, for the recording. */
uint64_t
session_elapsed_us(const struct session *s)
{
	return util_now_us() - s->start_mono_us;
}

/*
 * The screen's events (session_screen_events): damage, the bell and
 * property changes go to the subscribers with the session; what the
 * terminal sends the program (replies, encoded keys) is its input.
 */
static void
session_screen_damage(void *user, int srow, int erow, int scol, int ecol)
{
	struct session	*s = user;

	NOTIFY(s->set, damage, s, srow, erow, scol, ecol);
}

static void
session_screen_output(void *user, const char *data, size_t len)
{
	session_write(user, data, len);
}

static void
session_screen_bell(void *user)
{
	struct session	*s = user;

	NOTIFY(s->set, bell, s);
}

static void
session_screen_props(void *user)
{
	struct session	*s = user;

	NOTIFY(s->set, props, s);
}

const struct screen_events session_screen_events = {
	.damage = session_screen_damage,
	.output = session_screen_output,
	.bell = session_screen_bell,
	.props = session_screen_props,
};

/* Whether s waits for a watched session's echo: not read, not fed. */
static bool
session_held(const struct session *s)
{
	return s->set->echo_timer != NULL && s->watchers == 0;
}

/*
 * Poll for input unless the screen has a backlog or a consumer holds the
 * output (session_stdio_hold), for output if queued.
 */
void
session_watch(struct session *s)
{
	short	want;

	if (s->eof || s->done || s->child.master < 0)
		return;
	want = (s->feed.len == 0 && !s->stdio_held && !session_held(s) ?
	    POLLIN : 0) |
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
void
session_feed(struct session *s, bool all)
{
	uint64_t	start = util_now_us(), now, asked = start;
	size_t		off = 0, n;

	if (!all && session_held(s))
		return;		/* sessions_echo_release() feeds it */
	while (s->screen != NULL && off < s->feed.len) {
		n = s->feed.len - off;
		if (n > SESSION_FEED_SLICE)
			n = SESSION_FEED_SLICE;
		screen_feed(s->screen, s->feed.data + off, n);
		off += n;
		if (all || off == s->feed.len)
			continue;
		now = util_now_us();
		if (now - start >= SESSION_FEED_BUDGET_US)
			break;
		/* The person first: keys, the watched pane, requests. */
		if (now - asked >= SESSION_YIELD_CHECK_US) {
			asked = now;
			if (loop_high_pending(s->set->loop,
			    s->child.master))
				break;
		}
	}
	buf_consume(&s->feed, off);
	if (s->screen != NULL)
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

/* The wait for an echo is over (its timer gone): everyone goes on. */
static void
sessions_echo_release(struct sessions *ss)
{
	struct session	*s;
	size_t		 i;

	for (i = 0; i < ss->n; i++) {
		s = ss->v[i];
		if (s->done)
			continue;
		if (s->feed.len > 0 && s->feed_timer == NULL)
			s->feed_timer = loop_timer_add(ss->loop, 0,
			    session_feed_timer, s);
		session_watch(s);
	}
}

/* The watched session answered: the others go on at once. */
static void
sessions_echo_done(struct sessions *ss)
{
	if (ss->echo_timer == NULL)
		return;
	loop_timer_cancel(ss->loop, ss->echo_timer);
	ss->echo_timer = NULL;
	sessions_echo_release(ss);
}

static void
sessions_echo_timer(struct loop *l, void *arg)
{
	struct sessions	*ss = arg;

	(void)l;
	ss->echo_timer = NULL;		/* fired: the loop freed it */
	sessions_echo_release(ss);
}

/*
 * Input reached a watched session: hold the others until its output
 * comes (session_read) or SESSION_ECHO_WAIT_MS passed.
 */
static void
sessions_echo_wait(struct sessions *ss)
{
	size_t	i;

	if (ss->echo_timer != NULL)
		return;
	ss->echo_timer = loop_timer_add(ss->loop, SESSION_ECHO_WAIT_MS,
	    sessions_echo_timer, ss);
	for (i = 0; i < ss->n; i++)
		if (!ss->v[i]->done)
			session_watch(ss->v[i]);
}

/* The recording has bytes to write: make sure they are flushed soon. */
void
session_flush_soon(struct session *s)
{
	if (s->flush_timer == NULL && !s->done)
		s->flush_timer = loop_timer_add(s->set->loop,
		    SESSION_FLUSH_MS, session_flush_timer, s);
}

/* Take bytes read from the PTY (or written by ptyvisor itself). */
void
session_take(struct session *s, const char *data, size_t len)
{
	s->bytes += len;
	if (s->record != NULL) {
		record_output(s->record, session_elapsed_us(s), data, len);
		session_flush_soon(s);
	}
	NOTIFY(s->set, output, s, data, len);
	if (s->screen != NULL)
		buf_add(&s->feed, data, len);
}

/*
 * Read the PTY once and feed the screen (when all, the session is ending:
 * read until the PTY is empty or at EOF, and feed all of it); marks EOF.
 * Why once a turn: session-int.h, at SESSION_READ_CHUNK.
 */
void
session_read(struct session *s, bool all)
{
	struct sessions	*ss = s->set;
	ssize_t		 n;

	if (s->feed.len > 0)
		session_feed(s, all);
	while (!s->eof && (all || s->feed.len == 0)) {
		n = pty_read(s->child.master, ss->readbuf, sizeof ss->readbuf);
		if (n == 0)
			break;
		if (n == PTY_EOF || n < 0) {
			s->eof = true;
			break;
		}
		if (s->watchers > 0)
			sessions_echo_done(ss);
		session_take(s, ss->readbuf, (size_t)n);
		session_feed(s, all);
		if (!all)
			break;
	}
}

/* Write queued input without blocking. */
void
session_pump_input(struct session *s)
{
	ssize_t	n;

	/* Typed while its sandbox is made: written once it runs. */
	if (s->starting)
		return;
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
	if (s->record_input && s->record != NULL) {
		record_input(s->record, session_elapsed_us(s), data, len);
		session_flush_soon(s);
	}
	buf_add(&s->input, data, len);
	if (!s->set->input_held || s->input.len >= SESSION_INPUT_BATCH)
		session_pump_input(s);
	if (s->watchers > 0)
		sessions_echo_wait(s->set);
}

void
sessions_input_hold(struct sessions *ss, bool hold)
{
	size_t	i;

	ss->input_held = hold;
	if (hold)
		return;
	for (i = 0; i < ss->n; i++)
		if (!ss->v[i]->done && ss->v[i]->input.len > 0)
			session_pump_input(ss->v[i]);
}

void
session_resize(struct session *s, struct pty_size size)
{
	if (size.cols < 1 || size.rows < 1)
		return;
	if (size.cols == s->size.cols && size.rows == s->size.rows)
		return;
	s->size = size;
	if (s->screen != NULL)
		screen_resize(s->screen, size.rows, size.cols);
	NOTIFY(s->set, resized, s);
	if (s->done)
		return;
	pty_resize(s->child.master, size);
	if (s->record != NULL) {
		record_resize(s->record, session_elapsed_us(s), size.cols,
		    size.rows);
		session_flush_soon(s);
	}
}

bool
session_screen_redraw(struct session *s, size_t max, struct buf *out,
    struct pty_size *size)
{
	*size = s->size;
	if (s->screen == NULL)
		return true;
	if (s->feed.len > 0)
		session_feed(s, true);
	return screen_redraw(s->screen, max, out);
}

/* The smallest rows and columns of everyone showing s. */
static void
session_view_apply(struct session *s)
{
	struct pty_size	size;
	size_t		i;

	if (s->nviews == 0)
		return;
	size = s->views[0].size;
	for (i = 1; i < s->nviews; i++) {
		if (s->views[i].size.rows < size.rows)
			size.rows = s->views[i].size.rows;
		if (s->views[i].size.cols < size.cols)
			size.cols = s->views[i].size.cols;
	}
	session_resize(s, size);
}

void
session_view(struct session *s, const void *who, struct pty_size size)
{
	size_t	i;

	if (size.cols < 1 || size.rows < 1)
		return;
	for (i = 0; i < s->nviews; i++)
		if (s->views[i].who == who)
			break;
	if (i == s->nviews) {
		s->views = xreallocarray(s->views, s->nviews + 1,
		    sizeof *s->views);
		s->views[s->nviews++].who = who;
	}
	s->views[i].size = size;
	session_view_apply(s);
}

void
session_unview(struct session *s, const void *who)
{
	size_t	i;

	for (i = 0; i < s->nviews; i++)
		if (s->views[i].who == who) {
			s->views[i] = s->views[--s->nviews];
			session_view_apply(s);
			return;
		}
}

void
session_set_watched(struct session *s, bool watched)
{
	bool	was = s->watchers > 0;

	/* Each console says it once each way: counted, not toggled. */
	if (watched)
		s->watchers++;
	else if (s->watchers > 0)
		s->watchers--;
	if ((s->watchers > 0) == was)
		return;
	if (!s->eof && !s->done && s->child.master >= 0) {
		loop_set_prio(s->set->loop, s->child.master,
		    s->watchers > 0 ? LOOP_PRIO_HIGH : LOOP_PRIO_NORMAL);
		session_watch(s);	/* held or not, while an echo waits */
	}
}

/* The recording's bytes of the last SESSION_FLUSH_MS to the file. */
void
session_flush_timer(struct loop *l, void *arg)
{
	struct session	*s = arg;
	char		*cause = NULL;

	(void)l;
	s->flush_timer = NULL;
	buf_trim(&s->feed, SESSION_FEED_KEEP);	/* a burst's room, when fed */
	if (s->record != NULL && record_flush(s->record, &cause) != 0) {
		/* The first failure is news (a full disk): say it at once. */
		if (s->error == NULL) {
			s->error = xasprintf("recording: %s", cause);
			NOTIFY(s->set, trouble, s);
		}
		free(cause);
	}
}
