/*
 * ask.c - a host asked for over the control socket (see ask.h).
 *
 * The hello and the request go out in one write, which a fresh UNIX
 * socket's buffer always takes whole; then event lines are read, within
 * ASK_LINE_MAX, until the one answering our id: "approved", "denied" or
 * "error".  EOF or a broken line is an answer too: no.
 */
#include "net/ask.h"

#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"

/*
 * Longest event line we read: the server sends us its hello, our queued
 * event (which echoes the host) and the answer, each far below this.
 */
#define ASK_LINE_MAX 65536

struct ask {
	struct loop	*loop;
	int		 fd;
	struct buf	 in;
	ask_fn		 fn;
	void		*arg;
};

/* Close and free. */
static void
ask_free(struct ask *a)
{
	loop_del_fd(a->loop, a->fd);
	close(a->fd);
	buf_free(&a->in);
	free(a);
}

/* Answer once and free. */
static void
ask_done(struct ask *a, enum ask_answer answer, const char *why)
{
	ask_fn	 fn = a->fn;
	void	*arg = a->arg;

	ask_free(a);
	fn(arg, answer, why);
}

/*
 * One event line: 1 when it answered (and a is freed), 0 when it was not
 * for us.
 */
static int
ask_line(struct ask *a, const char *line, size_t len)
{
	json_error_t	 jerr;
	json_t		*o;
	const char	*ev, *id, *by, *reason, *msg, *scope;
	char		 why[256];
	int		 r = 0;

	if ((o = json_loadb(line, len, 0, &jerr)) == NULL) {
		ask_done(a, ASK_DENIED, "the server sent a broken line");
		return 1;
	}
	ev = json_string_value(json_object_get(o, "event"));
	id = json_string_value(json_object_get(o, "id"));
	if (ev != NULL && id != NULL && strcmp(id, "1") == 0) {
		by = json_string_value(json_object_get(o, "by"));
		reason = json_string_value(json_object_get(o, "reason"));
		msg = json_string_value(json_object_get(o, "message"));
		scope = json_string_value(json_object_get(o, "scope"));
		if (strcmp(ev, "approved") == 0) {
			/* Once only when it says so; older servers kept it. */
			snprintf(why, sizeof why, "approved by %s%s%s",
			    by != NULL ? by : "a person", scope != NULL ?
			    ", for " : "", scope != NULL ? scope : "");
			ask_done(a, scope != NULL && strcmp(scope, "once") ==
			    0 ? ASK_ONCE : ASK_SESSION, why);
			r = 1;
		} else if (strcmp(ev, "denied") == 0) {
			snprintf(why, sizeof why, "denied by %s%s%s%s",
			    by != NULL ? by : "a person",
			    reason != NULL ? " (" : "",
			    reason != NULL ? reason : "",
			    reason != NULL ? ")" : "");
			ask_done(a, ASK_DENIED, why);
			r = 1;
		} else if (strcmp(ev, "error") == 0) {
			snprintf(why, sizeof why, "the server refused to ask: "
			    "%s", msg != NULL ? msg : "?");
			ask_done(a, ASK_DENIED, why);
			r = 1;
		}
	}
	json_decref(o);
	return r;
}

/* Event lines arrive. */
static void
ask_on_read(struct loop *l, int fd, short revents, void *arg)
{
	struct ask	*a = arg;
	char		 chunk[4096], *nl;
	ssize_t		 n;
	size_t		 len;

	(void)l;
	(void)revents;
	n = read(fd, chunk, sizeof chunk);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		ask_done(a, ASK_DENIED, "the server went away before anyone "
		    "answered");
		return;
	}
	buf_add(&a->in, chunk, (size_t)n);
	while ((nl = memchr(a->in.data, '\n', a->in.len)) != NULL) {
		len = (size_t)(nl - a->in.data);
		if (ask_line(a, a->in.data, len))
			return;
		buf_consume(&a->in, len + 1);
	}
	if (a->in.len > ASK_LINE_MAX)
		ask_done(a, ASK_DENIED, "the server sent too long a line");
}

struct ask *
ask_start(struct loop *l, const char *socket_path, const char *host,
    uint16_t port, const char *why, ask_fn fn, void *arg, char **cause)
{
	struct sockaddr_un	 sun;
	struct ask		*a;
	json_t			*o;
	char			*line;
	struct buf		 out = { 0 };
	int			 fd;
	ssize_t			 n;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(socket_path) >= sizeof sun.sun_path) {
		*cause = xstrdup("the control socket's path is too long");
		return NULL;
	}
	memcpy(sun.sun_path, socket_path, strlen(socket_path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		*cause = xasprintf("no server to ask (%s)", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	o = json_pack("{s:s, s:s, s:s, s:i}", "op", "connect", "id", "1",
	    "host", host, "port", (int)port);
	if (why != NULL)
		json_object_set_new(o, "why", json_string(why));
	line = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	buf_adds(&out, "{\"op\":\"hello\",\"version\":1}\n");
	buf_adds(&out, line);
	buf_adds(&out, "\n");
	free(line);
	n = send(fd, out.data, out.len, MSG_NOSIGNAL);
	if (n != (ssize_t)out.len) {
		*cause = xasprintf("cannot ask the server (%s)", n < 0 ?
		    strerror(errno) : "short write");
		buf_free(&out);
		close(fd);
		return NULL;
	}
	buf_free(&out);
	a = xcalloc(1, sizeof *a);
	a->loop = l;
	a->fd = fd;
	a->fn = fn;
	a->arg = arg;
	loop_add_fd(l, fd, POLLIN, LOOP_PRIO_NORMAL, ask_on_read, a);
	return a;
}

void
ask_cancel(struct ask *a)
{
	if (a != NULL)
		ask_free(a);
}
