/*
 * ask-server.c - a host asked for over the control socket (see
 * ask-server.h), both lines built and every event decoded by the codec
 * (control/proto-client.h).
 *
 * The hello and the request go out in one write, which a fresh UNIX
 * socket's buffer always takes whole; then event lines are read on the
 * proxy's loop, never blocking it, within ASK_LINE_MAX, until the one
 * answering our id: "approved", "denied" or "error".  EOF or a broken
 * line is an answer too: no.  (control/client.c does not fit here: it
 * waits for the server's hello and polls with timeouts of its own.)
 */
#include "control/ask-server.h"

#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "control/proto-client.h"

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
ask_server_free(struct ask *a)
{
	loop_del_fd(a->loop, a->fd);
	close(a->fd);
	buf_free(&a->in);
	free(a);
}

/* Answer once and free. */
static void
ask_server_done(struct ask *a, enum ask_answer answer, const char *why)
{
	ask_fn	 fn = a->fn;
	void	*arg = a->arg;

	ask_server_free(a);
	fn(arg, answer, why);
}

/*
 * One event line: 1 when it answered (and a is freed), 0 when it was not
 * for us.
 */
static int
ask_server_line(struct ask *a, const char *line, size_t len)
{
	struct proto_event	 ev;
	json_error_t		 jerr;
	json_t			*o;
	const char		*by, *id;
	char			*cause = NULL, why[256];
	int			 r = 0;
	bool			 ours;

	/*
	 * A line that is no JSON, or an answer to our question that does not
	 * decode, is no; another event this client cannot read is not ours.
	 */
	if ((o = json_loadb(line, len, 0, &jerr)) == NULL ||
	    proto_event_decode(o, &ev, &cause) != 0) {
		free(cause);
		id = json_string_value(json_object_get(o, "id"));
		ours = o == NULL || (id != NULL && strcmp(id, "1") == 0);
		json_decref(o);
		if (!ours)
			return 0;
		ask_server_done(a, ASK_DENIED, "the server sent a broken line");
		return 1;
	}
	json_decref(o);
	by = ev.by != NULL ? ev.by : "a person";
	if (ev.id != NULL && strcmp(ev.id, "1") == 0) {
		switch (ev.kind) {
		case PROTO_EV_APPROVED:
			/* Once only when it says so; older servers kept it. */
			snprintf(why, sizeof why, "approved by %s%s%s", by,
			    ev.scope != NULL ? ", for " : "", ev.scope != NULL ?
			    ev.scope : "");
			ask_server_done(a, ev.scope != NULL && strcmp(ev.scope,
			    "once") == 0 ? ASK_ONCE : ASK_SESSION, why);
			r = 1;
			break;
		case PROTO_EV_DENIED:
			snprintf(why, sizeof why, "denied by %s%s%s%s", by,
			    ev.reason != NULL ? " (" : "", ev.reason != NULL ?
			    ev.reason : "", ev.reason != NULL ? ")" : "");
			ask_server_done(a, ASK_DENIED, why);
			r = 1;
			break;
		case PROTO_EV_ERROR:
			snprintf(why, sizeof why, "the server refused to ask: "
			    "%s", ev.message);
			ask_server_done(a, ASK_DENIED, why);
			r = 1;
			break;
		default:
			break;
		}
	}
	proto_event_free(&ev);
	return r;
}

/* Event lines arrive. */
static void
ask_server_read(struct loop *l, int fd, short revents, void *arg)
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
		ask_server_done(a, ASK_DENIED, "the server went away before "
		    "anyone answered");
		return;
	}
	buf_add(&a->in, chunk, (size_t)n);
	while ((nl = memchr(a->in.data, '\n', a->in.len)) != NULL) {
		len = (size_t)(nl - a->in.data);
		if (ask_server_line(a, a->in.data, len))
			return;
		buf_consume(&a->in, len + 1);
	}
	if (a->in.len > ASK_LINE_MAX)
		ask_server_done(a, ASK_DENIED,
		    "the server sent too long a line");
}

/* Ask the server on socket_path about host:port (struct asker's start). */
static struct ask *
ask_server_start(struct loop *l, const char *socket_path, const char *host,
    uint16_t port, const char *why, ask_fn fn, void *arg, char **cause)
{
	struct sockaddr_un	 sun;
	struct ask		*a;
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
	proto_req_hello(&out);
	proto_req_connect(&out, "1", host, port, why);
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
	loop_add_fd(l, fd, POLLIN, LOOP_PRIO_NORMAL, ask_server_read, a);
	return a;
}

/* Give up: closing the connection withdraws the question. */
static void
ask_server_cancel(struct ask *a)
{
	if (a != NULL)
		ask_server_free(a);
}

const struct asker ask_server = { ask_server_start, ask_server_cancel };
