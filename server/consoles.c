/*
 * consoles.c - the consoles of a server: `ptyvisor attach` (and a plain
 * `ptyvisor` that finds a server) gets a front end (tui/) drawn in memory
 * and sent over its control connection; keys and sizes come back.
 *
 * A console that detaches (PREFIX d, its terminal closed, its client
 * killed, its ssh gone) keeps its front end here: panes, focus, zoom,
 * views, a half-typed prompt.  The next attach takes the most recently
 * detached one back, exactly as it was; a new front end is made only when
 * every kept one is in use.  At most CONSOLES_MAX consoles exist.
 *
 * A local client passes its terminal with the attach request: the server
 * then reads the keys and writes the frames there itself, through a file
 * description of its own (the same terminal opened again, non-blocking),
 * as tmux does, and the client only waits; through a socket ssh forwards
 * no descriptor arrives, and keys and frames travel over the connection.
 *
 * Output: every turn of the loop (just before it waits) what each front
 * end drew goes to its terminal or its client.  A client that falls
 * behind (more than CONSOLES_BEHIND bytes unread: a slow ssh, a stopped
 * terminal) gets no frames until fewer than CONSOLES_CAUGHT_UP are left,
 * then one whole frame from a clear screen: the server never waits for a
 * console, and a console never shows half a frame.
 */
#include "server/consoles.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "control/control.h"
#include "control/proto.h"
#include "session/session.h"
#include "tui/tui.h"

#define CONSOLES_MAX		8
#define CONSOLES_BEHIND		(1024 * 1024)
#define CONSOLES_CAUGHT_UP	(64 * 1024)

struct console {
	struct consoles		*cs;
	struct tui		*t;
	struct control_client	*cl;		/* NULL: detached */
	unsigned long		 number;	/* "console N" */
	uint64_t		 detached_ms;	/* when it last left */
	bool			 behind;
	int			 tty;		/* its terminal, or -1: frames */
	struct buf		 pend;		/* drawn, not yet taken by it */
};

struct consoles {
	struct loop		*loop;
	struct sessions		*ss;
	struct tui_opts		 opts;
	void			(*end)(void *arg);	/* end the server */
	void			*end_arg;
	struct console		*v[CONSOLES_MAX];
	size_t			 n;
	unsigned long		 numbers;
	struct loop_timer	*end_timer;
	struct buf		 out;		/* one console's frame */
};

static void	consoles_tty_io(struct loop *l, int fd, short revents,
		    void *arg);
static void	consoles_leave(struct console *c, const char *why);

/*
 * The client's terminal, passed as fds (checked: a terminal), opened
 * again by its name so that non-blocking is ours alone; -1 when not.
 */
static int
consoles_tty_open(const int fds[2])
{
	struct stat	a, b;
	char		link[64], path[256];
	ssize_t		n;
	int		fd;

	if (fds[0] < 0 || fds[1] < 0 || !isatty(fds[0]) || !isatty(fds[1]) ||
	    fstat(fds[0], &a) != 0 || fstat(fds[1], &b) != 0 ||
	    a.st_rdev != b.st_rdev)
		return -1;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fds[1]);
	if ((n = readlink(link, path, sizeof path - 1)) <= 0)
		return -1;
	path[n] = '\0';
	fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &b) != 0 || b.st_rdev != a.st_rdev ||
	    !isatty(fd)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Write what waits for c's terminal; watch it until it takes the rest. */
static void
consoles_tty_flush(struct console *c)
{
	ssize_t	n;

	while (c->pend.len > 0) {
		n = write(c->tty, c->pend.data, c->pend.len);
		if (n > 0) {
			buf_consume(&c->pend, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		c->pend.len = 0;	/* the terminal is gone */
		break;
	}
	loop_set_events(c->cs->loop, c->tty,
	    POLLIN | (c->pend.len > 0 ? POLLOUT : 0));
}

/* c's terminal: keys, room to write, or its end (a detach). */
static void
consoles_tty_io(struct loop *l, int fd, short revents, void *arg)
{
	struct console	*c = arg;
	char		 buf[4096];
	ssize_t		 n;

	(void)l;
	if (revents & POLLOUT)
		consoles_tty_flush(c);
	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	n = read(fd, buf, sizeof buf);
	if (n > 0) {
		tui_console_input(c->t, buf, (size_t)n);
		return;
	}
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	consoles_leave(c, "gone");	/* hung up: the terminal closed */
}

/* Stop using c's terminal. */
static void
consoles_tty_close(struct console *c)
{
	if (c->tty < 0)
		return;
	loop_del_fd(c->cs->loop, c->tty);
	close(c->tty);
	c->tty = -1;
	c->pend.len = 0;
}

/* Send what c's front end drew, unless its client is behind. */
static void
consoles_send(struct console *c)
{
	struct consoles	*cs = c->cs;
	size_t		 queued;

	if (c->cl == NULL)
		return;
	cs->out.len = 0;
	tui_console_output(c->t, &cs->out);
	queued = c->tty >= 0 ? c->pend.len : control_console_queued(c->cl);
	if (c->behind && queued < CONSOLES_CAUGHT_UP) {
		/* Caught up: what was skipped is drawn again, whole. */
		c->behind = false;
		cs->out.len = 0;
		tui_console_redraw(c->t);
		return;		/* drawn at once, sent next turn */
	}
	if (c->behind || cs->out.len == 0)
		return;
	if (queued > CONSOLES_BEHIND) {
		c->behind = true;
		return;
	}
	if (c->tty >= 0) {
		buf_add(&c->pend, cs->out.data, cs->out.len);
		consoles_tty_flush(c);
	} else
		control_console_write(c->cl, cs->out.data, cs->out.len);
}

/* Every turn, before the loop waits. */
static void
consoles_prepare(struct loop *l, void *arg)
{
	struct consoles	*cs = arg;
	size_t		 i;

	(void)l;
	for (i = 0; i < cs->n; i++)
		consoles_send(cs->v[i]);
}

/* Give c's terminal back and tell its client why. */
static void
consoles_leave(struct console *c, const char *why)
{
	struct control_client	*cl = c->cl;

	/* What was drawn, then curses leaves: the terminal's modes back. */
	c->cs->out.len = 0;
	tui_console_output(c->t, &c->cs->out);
	tui_detach(c->t, &c->cs->out);
	c->detached_ms = util_now_ms();
	c->behind = false;
	if (c->tty >= 0) {
		/* The terminal's modes back before the client speaks. */
		buf_add(&c->pend, c->cs->out.data, c->cs->out.len);
		(void)util_write_all(c->tty, c->pend.data, c->pend.len);
		consoles_tty_close(c);
	} else if (cl != NULL)
		control_console_write(cl, c->cs->out.data, c->cs->out.len);
	if (cl == NULL)
		return;
	control_console_end(cl, why);
	c->cl = NULL;
}

static void
consoles_end_timer(struct loop *l, void *arg)
{
	struct consoles	*cs = arg;

	(void)l;
	cs->end_timer = NULL;
	cs->end(cs->end_arg);
}

/* Front end hooks. */
static void
consoles_detach(void *arg)
{
	consoles_leave(arg, "detached");
}

static void
consoles_quit(void *arg, bool end)
{
	struct console	*c = arg;
	struct consoles	*cs = c->cs;
	size_t		 i, others = 0;

	for (i = 0; i < cs->n; i++)
		if (cs->v[i] != c && cs->v[i]->cl != NULL)
			others++;
	/* Quitting beside other consoles, with nothing to end: leave. */
	if (!end && others > 0) {
		consoles_leave(c, "exited");
		return;
	}
	/* Ended outside the front end's callback, which still runs. */
	if (cs->end_timer == NULL)
		cs->end_timer = loop_timer_add(cs->loop, 0,
		    consoles_end_timer, cs);
}

static const struct tui_console_hooks consoles_tui_hooks = {
	.detach = consoles_detach,
	.quit = consoles_quit,
};

/* The console a new client gets: the last one to leave, or a new one. */
static struct console *
consoles_pick(struct consoles *cs)
{
	struct console	*best = NULL;
	size_t		 i;

	for (i = 0; i < cs->n; i++)
		if (cs->v[i]->cl == NULL && (best == NULL ||
		    cs->v[i]->detached_ms > best->detached_ms))
			best = cs->v[i];
	return best;
}

static void *
consoles_open(void *user, struct control_client *cl,
    const struct proto_request *req, bool *tty, char **cause)
{
	struct consoles		*cs = user;
	struct console		*c;
	struct tui_console	 tc;
	char			*name;
	int			 fds[2];

	memset(&tc, 0, sizeof tc);
	tc.term = req->term;
	tc.rows = (int)req->rows;
	tc.cols = (int)req->cols;
	tc.readonly = req->readonly;
	tc.by = req->by;
	if ((c = consoles_pick(cs)) == NULL && cs->n == CONSOLES_MAX) {
		*cause = xasprintf("%d consoles are attached already",
		    CONSOLES_MAX);
		return NULL;
	}
	/* "console 2, pts/4": who answered, in the history. */
	name = xasprintf("console %lu%s%s", c != NULL ? c->number :
	    cs->numbers + 1, req->tty != NULL ? ", " : "",
	    req->tty != NULL ? req->tty : "");
	tc.name = name;
	if (c != NULL) {
		if (tui_attach(c->t, &tc, cause) != 0) {
			free(name);
			return NULL;
		}
	} else {
		c = xcalloc(1, sizeof *c);
		c->cs = cs;
		c->tty = -1;
		c->t = tui_new_console(cs->loop, cs->ss, &cs->opts, &tc,
		    &consoles_tui_hooks, c, cause);
		if (c->t == NULL) {
			free(c);
			free(name);
			return NULL;
		}
		c->number = ++cs->numbers;
		cs->v[cs->n++] = c;
	}
	free(name);
	c->cl = cl;
	c->behind = false;
	c->tty = -1;
	if (req->pass_tty && control_console_take_fds(cl, fds) == 2) {
		c->tty = consoles_tty_open(fds);
		close(fds[0]);
		close(fds[1]);
	}
	if (c->tty >= 0)
		loop_add_fd(cs->loop, c->tty, POLLIN, LOOP_PRIO_HIGH,
		    consoles_tty_io, c);
	*tty = c->tty >= 0;
	if (req->new_session &&
	    tui_new_session_at(c->t, req->exec.argv, req->exec.cwd,
	    cause) != 0) {
		char *m = xasprintf("cannot start %s: %s", req->exec.argv !=
		    NULL ? req->exec.argv[0] : "a shell", *cause);

		tui_status(c->t, m);
		free(m);
		free(*cause);
		*cause = NULL;
	}
	return c;
}

static void
consoles_input(void *console, const void *data, size_t len)
{
	struct console	*c = console;

	tui_console_input(c->t, data, len);
}

static void
consoles_resize(void *console, unsigned int rows, unsigned int cols)
{
	struct console	*c = console;

	tui_console_resize(c->t, (int)rows, (int)cols);
}

/* The client went away without a word: a detach. */
static void
consoles_gone(void *console)
{
	struct console	*c = console;

	c->cl = NULL;
	consoles_leave(c, "gone");
}

struct consoles *
consoles_new(struct loop *loop, struct sessions *ss,
    const struct tui_opts *o, void (*end)(void *), void *end_arg)
{
	struct consoles	*cs = xcalloc(1, sizeof *cs);

	cs->loop = loop;
	cs->ss = ss;
	cs->opts = *o;
	cs->opts.quit_when_done = false;	/* the server's to decide */
	cs->opts.notice = NULL;
	cs->end = end;
	cs->end_arg = end_arg;
	loop_add_prepare(loop, consoles_prepare, cs);
	return cs;
}

void
consoles_hooks(struct consoles *cs, struct control_hooks *h)
{
	h->console_open = consoles_open;
	h->console_user = cs;
	h->console_input = consoles_input;
	h->console_resize = consoles_resize;
	h->console_gone = consoles_gone;
}

bool
consoles_next_size(const struct consoles *cs, struct pty_size *size)
{
	size_t	i;

	for (i = 0; cs != NULL && i < cs->n; i++)
		if (cs->v[i]->cl != NULL) {
			*size = tui_next_size(cs->v[i]->t);
			return true;
		}
	return false;
}

size_t
consoles_count(const struct consoles *cs)
{
	return cs != NULL ? cs->n : 0;
}

size_t
consoles_attached(const struct consoles *cs)
{
	size_t	i, n = 0;

	for (i = 0; cs != NULL && i < cs->n; i++)
		if (cs->v[i]->cl != NULL)
			n++;
	return n;
}

void
consoles_status(struct consoles *cs, const char *line)
{
	size_t	i;

	for (i = 0; cs != NULL && i < cs->n; i++)
		tui_status(cs->v[i]->t, line);
}

void
consoles_end_all(struct consoles *cs, const char *why)
{
	size_t	i;

	for (i = 0; cs != NULL && i < cs->n; i++)
		consoles_leave(cs->v[i], why);
}

void
consoles_free(struct consoles *cs)
{
	size_t	i;

	if (cs == NULL)
		return;
	loop_del_prepare(cs->loop, consoles_prepare, cs);
	loop_timer_cancel(cs->loop, cs->end_timer);
	for (i = 0; i < cs->n; i++) {
		tui_free(cs->v[i]->t);
		consoles_tty_close(cs->v[i]);
		buf_free(&cs->v[i]->pend);
		free(cs->v[i]);
	}
	buf_free(&cs->out);
	free(cs);
}
