/*
 * stdio.c - pipes in place of the PTY on some of a command's stdin,
 * stdout and stderr, for an agent that is not on a terminal: what it
 * writes to stdin reaches the command, with EOF at its end; what the
 * command writes to stdout and stderr reaches the agent exactly and
 * apart (the `stream` event; or together, stderr on stdout's pipe, when
 * the agent's two are one file) and the person as a terminal shows it (the
 * screen and the recording, "\n" as "\r\n").  The PTY stays the command's
 * controlling terminal: /dev/tty still works, and the person can type
 * into it.
 *
 * Invariants:
 * - the pipes' descriptors in the child are the command's 0-2 only; ours
 *   are non-blocking and close-on-exec;
 * - stdin is never buffered whole: at most SESSION_STDIN_MAX bytes wait,
 *   and `stdin_written` tells the agent how far the pipe has taken it
 *   and, once the command has ended, exactly how much the command read
 *   (we hold the pipe's read end too, to count what it left there);
 * - output pipes are read at the agent's pace (session_stdio_hold), never
 *   the emulator's; every byte is recorded, and the live screen skips
 *   (and says so) what would leave it more than SESSION_STDIO_SHOW_MAX
 *   behind, showing the latest lines instead (session-int.h);
 * - while a session has pipes we hold a slave fd of its PTY, so the PTY
 *   reads as hung up only after the command has ended
 *   (session_stdio_reaped lets go of it).
 *
 * Nothing here decides that a session ends: the pipes' poll callback is
 * in exit.c, as the PTY's is.
 */
#include "session/session-int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "record/record.h"

/* Close the child's ends (those that are pipes). */
static void
stdio_close_child(int child_fds[3])
{
	int	i;

	for (i = 0; i < 3; i++) {
		if (child_fds[i] >= 0)
			close(child_fds[i]);
		child_fds[i] = -1;
	}
}

int
session_stdio_open(struct session *s, const struct session_opts *o,
    int child_fds[3], char **cause)
{
	int	i, p[2], ours;

	for (i = 0; i < 3; i++)
		child_fds[i] = -1;
	/* The agent's stdin is /dev/null: so is the command's, no pipe. */
	if (o->stdin_null && !o->pipes[0]) {
		if ((child_fds[0] = open("/dev/null", O_RDONLY |
		    O_CLOEXEC)) < 0) {
			*cause = xasprintf("/dev/null: %s", strerror(errno));
			return -1;
		}
		s->has_pipes = true;
	}
	for (i = 0; i < 3; i++) {
		if (!o->pipes[i])
			continue;
		if (pipe2(p, O_CLOEXEC) != 0) {
			*cause = xasprintf("pipe: %s", strerror(errno));
			stdio_close_child(child_fds);
			session_stdio_close(s);
			return -1;
		}
		/* [0] is the child's read end for stdin, else its write end. */
		ours = i == 0 ? p[1] : p[0];
		child_fds[i] = i == 0 ? p[0] : p[1];
		if (i == 0)
			s->stdin_peek = fcntl(p[0], F_DUPFD_CLOEXEC, 3);
		(void)fcntl(ours, F_SETFL, fcntl(ours, F_GETFL) | O_NONBLOCK);
		s->pipe_fd[i] = ours;
		s->has_pipes = true;
	}
	/* 2>&1: one pipe, so the order of the two streams' writes stays. */
	if (o->err_joined && child_fds[1] >= 0 && child_fds[2] < 0 &&
	    (child_fds[2] = fcntl(child_fds[1], F_DUPFD_CLOEXEC, 3)) < 0) {
		*cause = xasprintf("dup: %s", strerror(errno));
		stdio_close_child(child_fds);
		session_stdio_close(s);
		return -1;
	}
	return 0;
}

void
session_stdio_started(struct session *s, int child_fds[3], loop_fd_fn fn)
{
	int	i;

	stdio_close_child(child_fds);
	for (i = 1; i < 3; i++)
		if (s->pipe_fd[i] >= 0)
			loop_add_fd(s->set->loop, s->pipe_fd[i],
			    s->stdio_held ? 0 : POLLIN, LOOP_PRIO_NORMAL, fn, s);
	if (s->pipe_fd[0] >= 0) {
		loop_add_fd(s->set->loop, s->pipe_fd[0], 0, LOOP_PRIO_NORMAL,
		    fn, s);
		session_stdio_pump(s);
	}
}

/* Close our end of pipe i and stop watching it. */
static void
stdio_close_one(struct session *s, int i)
{
	if (s->pipe_fd[i] < 0)
		return;
	loop_del_fd(s->set->loop, s->pipe_fd[i]);
	close(s->pipe_fd[i]);
	s->pipe_fd[i] = -1;
}

void
session_stdio_close(struct session *s)
{
	int	i;

	for (i = 0; i < 3; i++)
		stdio_close_one(s, i);
	if (s->child.slave >= 0) {
		close(s->child.slave);
		s->child.slave = -1;
	}
	if (s->stdin_peek >= 0) {
		close(s->stdin_peek);
		s->stdin_peek = -1;
	}
	buf_free(&s->stdin_q);
	loop_timer_cancel(s->set->loop, s->show_timer);
	s->show_timer = NULL;
	buf_free(&s->show_tail);
}

bool
session_stdio_drained(const struct session *s)
{
	return s->pipe_fd[1] < 0 && s->pipe_fd[2] < 0;
}

void
session_stdio_show_tail(struct session *s)
{
	const char	*nl;
	size_t		 cut = 0;
	char		 note[128];

	if (s->show_tail.len == 0 && s->show_skipped == 0)
		return;
	/* Start the tail at a line's start, unless it is one line. */
	if (s->show_skipped > 0 && (nl = memchr(s->show_tail.data, '\n',
	    s->show_tail.len)) != NULL)
		cut = (size_t)(nl + 1 - s->show_tail.data);
	s->show_skipped += cut;
	if (s->show_skipped > 0) {
		snprintf(note, sizeof note, "\r\n[ptyvisor: %llu bytes not "
		    "shown live; the recording has them]\r\n",
		    (unsigned long long)s->show_skipped);
		buf_add(&s->feed, note, strlen(note));
	}
	buf_add(&s->feed, s->show_tail.data + cut, s->show_tail.len - cut);
	s->show_tail.len = 0;
	s->show_skipped = 0;
	session_feed(s, false);
}

/* Timer: the screen may show the skipped output's tail once caught up. */
static void
stdio_show_timer(struct loop *l, void *arg)
{
	struct session	*s = arg;

	s->show_timer = NULL;
	if (s->feed.len > 0) {
		s->show_timer = loop_timer_add(l, SESSION_STDIO_SHOW_MS,
		    stdio_show_timer, s);
		return;
	}
	session_stdio_show_tail(s);
}

/*
 * Show pipe bytes on the screen and in the recording as a terminal would
 * (its "\n" becomes "\r\n", as the PTY's output processing does).
 */
static void
stdio_show(struct session *s, const char *data, size_t len)
{
	struct buf	 shown = { 0 };
	const char	*p = data, *end = data + len, *nl;
	size_t		 over;

	buf_reserve(&shown, 2 * len);
	while (p < end) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		memcpy(shown.data + shown.len, p, (size_t)(nl - p));
		shown.len += (size_t)(nl - p);
		if (nl == end)
			break;
		shown.data[shown.len++] = '\r';
		shown.data[shown.len++] = '\n';
		p = nl + 1;
	}
	if (s->record != NULL) {
		record_output(s->record, session_elapsed_us(s), shown.data,
		    shown.len);
		session_flush_soon(s);	/* on the disk within a second */
	}
	if (s->show_timer == NULL &&
	    s->feed.len + shown.len <= SESSION_STDIO_SHOW_MAX) {
		buf_add(&s->feed, shown.data, shown.len);
		buf_free(&shown);
		session_feed(s, false);
		return;
	}
	/* Behind: keep the last bytes for the next look. */
	buf_add(&s->show_tail, shown.data, shown.len);
	if (s->show_tail.len > SESSION_STDIO_TAIL) {
		over = s->show_tail.len - SESSION_STDIO_TAIL;
		s->show_skipped += over;
		buf_consume(&s->show_tail, over);
	}
	buf_free(&shown);
	if (s->show_timer == NULL)
		s->show_timer = loop_timer_add(s->set->loop,
		    SESSION_STDIO_SHOW_MS, stdio_show_timer, s);
}

void
session_stdio_read(struct session *s, int i, size_t budget)
{
	struct sessions	*ss = s->set;
	ssize_t		 n;
	size_t		 got = 0;

	while (s->pipe_fd[i] >= 0 && got < budget && !s->stdio_held) {
		n = pty_read(s->pipe_fd[i], ss->readbuf, sizeof ss->readbuf);
		if (n == 0)
			break;
		if (n < 0) {		/* EOF (or an error: the same to us) */
			stdio_close_one(s, i);
			break;
		}
		s->bytes += (size_t)n;
		NOTIFY(ss, stream, s, i, ss->readbuf, (size_t)n);
		stdio_show(s, ss->readbuf, (size_t)n);
		got += (size_t)n;
	}
}

void
session_stdio_pump(struct session *s)
{
	uint64_t	before = s->stdin_written;
	ssize_t		n;

	if (s->pipe_fd[0] < 0)
		return;
	while (s->stdin_q.len > 0) {
		n = pty_write(s->pipe_fd[0], s->stdin_q.data, s->stdin_q.len);
		if (n == 0)
			break;
		if (n < 0) {
			/* The command closed its stdin: the rest is dropped. */
			n = (ssize_t)s->stdin_q.len;
			s->stdin_end = true;
		}
		s->stdin_written += (uint64_t)n;
		buf_consume(&s->stdin_q, (size_t)n);
	}
	if (s->stdin_q.len == 0 && s->stdin_end)
		stdio_close_one(s, 0);
	else
		loop_set_events(s->set->loop, s->pipe_fd[0],
		    s->stdin_q.len > 0 ? POLLOUT : 0);
	if (s->stdin_written != before)
		NOTIFY(s->set, stdin_written, s, s->stdin_written);
}

void
session_stdio_reaped(struct session *s)
{
	int	i, left;

	if (!s->has_pipes)
		return;
	if (s->child.slave >= 0) {
		close(s->child.slave);
		s->child.slave = -1;
	}
	/*
	 * What the command read of its stdin, exactly: what the pipe took
	 * less what is still in it.  The agent can give back the rest (a
	 * seekable stdin is left where sh -c would leave it).
	 */
	if (s->stdin_peek >= 0) {
		if (ioctl(s->stdin_peek, FIONREAD, &left) == 0 && left > 0 &&
		    (uint64_t)left <= s->stdin_written)
			s->stdin_written -= (uint64_t)left;
		close(s->stdin_peek);
		s->stdin_peek = -1;
		NOTIFY(s->set, stdin_written, s, s->stdin_written);
	}
	for (i = 1; i < 3; i++)
		session_stdio_read(s, i, SIZE_MAX);
}

bool
session_has_stdin(const struct session *s)
{
	return s->pipe_fd[0] >= 0 && !s->stdin_end && !s->done;
}

int
session_stdin_write(struct session *s, const void *data, size_t len,
    bool end, char **cause)
{
	if (s->done || s->pipe_fd[0] < 0 || s->stdin_end) {
		*cause = xasprintf("session %lu has no open stdin pipe",
		    s->id);
		return -1;
	}
	if (s->stdin_q.len + len > SESSION_STDIN_MAX) {
		*cause = xasprintf("session %lu: more than %d bytes of stdin "
		    "waiting (wait for 'written')", s->id, SESSION_STDIN_MAX);
		return -1;
	}
	buf_add(&s->stdin_q, data, len);
	if (end)
		s->stdin_end = true;
	session_stdio_pump(s);
	return 0;
}

void
session_stdio_hold(struct session *s, bool hold)
{
	int	i;

	if (s->stdio_held == hold)
		return;
	s->stdio_held = hold;
	for (i = 1; i < 3; i++)
		if (s->pipe_fd[i] >= 0)
			loop_set_events(s->set->loop, s->pipe_fd[i],
			    hold ? 0 : POLLIN);
	session_watch(s);
}
