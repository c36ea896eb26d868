/*
 * client.c - control protocol client (see client.h).
 *
 * Invariants: the socket is non-blocking and close-on-exec; received bytes
 * wait in a buffer until a whole line is there; a line longer than the
 * protocol's bound closes the connection rather than growing the buffer.
 */
#include "control/client.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "control/control.h"
#include "control/proto-client.h"
#include "base/util.h"

/*
 * Longest event line accepted.  Output events carry at most one PTY read
 * (64 KiB, 4/3 larger in base64, up to 6x when escaped), lists can be long:
 * a generous bound that still stops a runaway server.
 */
#define CLIENT_LINE_MAX	(16 * 1024 * 1024)

struct client {
	int		fd;
	struct buf	in;
	char		*path;
	long		server_pid;	/* from its hello; 0: not said */
};

static int	client_read_object(struct client *cl, int timeout_ms,
		    json_t **ev, char **cause);

/* Milliseconds left until deadline (-1: forever). */
static int
client_left(uint64_t deadline, int timeout_ms)
{
	uint64_t	now;

	if (timeout_ms < 0)
		return -1;
	now = util_now_ms();
	return now >= deadline ? 0 : (int)(deadline - now);
}

struct client *
client_connect(const char *path, int timeout_ms, char **cause)
{
	return client_connect_send(path, timeout_ms, NULL, cause);
}

struct client *
client_connect_send(const char *path, int timeout_ms,
    const struct buf *first, char **cause)
{
	struct client		*cl;
	struct sockaddr_un	 sun;
	struct buf		 hello = { 0 };
	struct proto_event	 ev;
	json_t			*o = NULL;
	char			*p, *why = NULL;
	int			 fd, rc;

	p = path != NULL ? xstrdup(path) : control_socket_path();
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(p) >= sizeof sun.sun_path) {
		*cause = xasprintf("%s: socket path too long", p);
		free(p);
		return NULL;
	}
	memcpy(sun.sun_path, p, strlen(p) + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		*cause = xasprintf("socket: %s", strerror(errno));
		free(p);
		return NULL;
	}
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		if (errno == ENOENT || errno == ECONNREFUSED)
			*cause = xasprintf("no ptyvisor server at %s (start "
			    "one with 'ptyvisor serve' or the TUI)", p);
		else
			*cause = xasprintf("%s: %s", p, strerror(errno));
		close(fd);
		free(p);
		return NULL;
	}
	cl = xcalloc(1, sizeof *cl);
	cl->fd = fd;
	cl->path = p;

	proto_req_hello(&hello);
	if (first != NULL)
		buf_add(&hello, first->data, first->len);
	rc = client_send_line(cl, &hello, cause);
	buf_free(&hello);
	if (rc != 0)
		goto fail;
	rc = client_read_object(cl, timeout_ms, &o, cause);
	if (rc == 0)
		*cause = xasprintf("%s: no hello from the server", p);
	if (rc != 1)
		goto fail;
	rc = proto_event_decode(o, &ev, &why);
	json_decref(o);
	if (rc != 0 || ev.kind != PROTO_EV_HELLO) {
		*cause = xasprintf("%s: the server refused us: %s", p,
		    rc != 0 ? why : ev.message != NULL ? ev.message :
		    "no hello");
		free(why);
		proto_event_free(&ev);
		goto fail;
	}
	cl->server_pid = (long)ev.pid;
	proto_event_free(&ev);
	return cl;
fail:
	client_free(cl);
	return NULL;
}

long
client_server_pid(const struct client *cl)
{
	return cl->server_pid;
}

int
client_take_socket(struct client *cl, struct buf *rest)
{
	int	fd = cl->fd;

	buf_add(rest, cl->in.data, cl->in.len);
	cl->in.len = 0;
	cl->fd = -1;
	return fd;
}

void
client_free(struct client *cl)
{
	if (cl == NULL)
		return;
	if (cl->fd >= 0)
		close(cl->fd);
	buf_free(&cl->in);
	free(cl->path);
	free(cl);
}

int
client_fd(const struct client *cl)
{
	return cl->fd;
}

int
client_send_line(struct client *cl, const struct buf *line, char **cause)
{
	return client_send_fds(cl, line, NULL, 0, cause);
}

int
client_send_fds(struct client *cl, const struct buf *line, const int *fds,
    int nfds, char **cause)
{
	struct pollfd	 pfd = { .fd = cl->fd, .events = POLLOUT };
	const char	*s = line->data;
	size_t		 len = line->len, off = 0;
	ssize_t		 n;
	union {
		struct cmsghdr	 h;
		char		 b[CMSG_SPACE(2 * sizeof(int))];
	} cm;
	struct msghdr	 msg;
	struct iovec	 iov;

	while (off < len) {
		/* The descriptors go with the line's first byte. */
		memset(&msg, 0, sizeof msg);
		iov.iov_base = (char *)s + off;
		iov.iov_len = len - off;
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		if (off == 0 && nfds > 0 && nfds <= 2) {
			memset(&cm, 0, sizeof cm);
			msg.msg_control = cm.b;
			msg.msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int));
			CMSG_FIRSTHDR(&msg)->cmsg_level = SOL_SOCKET;
			CMSG_FIRSTHDR(&msg)->cmsg_type = SCM_RIGHTS;
			CMSG_FIRSTHDR(&msg)->cmsg_len =
			    CMSG_LEN((size_t)nfds * sizeof(int));
			memcpy(CMSG_DATA(CMSG_FIRSTHDR(&msg)), fds,
			    (size_t)nfds * sizeof(int));
		}
		n = sendmsg(cl->fd, &msg, MSG_NOSIGNAL);
		if (n > 0)
			off += (size_t)n;
		else if (n < 0 && errno == EINTR)
			continue;
		else if (n < 0 && errno == EAGAIN)
			poll(&pfd, 1, -1);
		else {
			*cause = xasprintf("%s: %s", cl->path,
			    strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * Parse one event line.  An output event's base64 digits are most of what
 * a client reads and need no JSON parsing (jansson checked them byte by
 * byte: half the shim's time relaying `exec --raw`): a line that ends in
 * ,"b64":"DIGITS"} is parsed without them and they are set back as the
 * string they are.  The rest must be a whole object without "b64" of its
 * own, so the result is what parsing the whole line gives; any other line
 * is parsed whole.
 */
static json_t *
client_parse(const char *line, size_t n)
{
	static const char	 key[] = ",\"b64\":\"";
	const size_t		 klen = sizeof key - 1;
	json_error_t		 jerr;
	json_t			*o;
	char			*rest;
	size_t			 end, start;

	if (n < klen + 2 || line[n - 1] != '}' || line[n - 2] != '"')
		return json_loadb(line, n, JSON_REJECT_DUPLICATES, &jerr);
	end = n - 2;
	for (start = end; start > 0; start--) {
		char c = line[start - 1];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '+' || c == '/' ||
		    c == '='))
			break;
	}
	if (start < klen || memcmp(line + start - klen, key, klen) != 0)
		return json_loadb(line, n, JSON_REJECT_DUPLICATES, &jerr);
	rest = xmalloc(start - klen + 1);
	memcpy(rest, line, start - klen);
	rest[start - klen] = '}';
	o = json_loadb(rest, start - klen + 1, JSON_REJECT_DUPLICATES, &jerr);
	free(rest);
	if (!json_is_object(o) || json_object_get(o, "b64") != NULL) {
		json_decref(o);
		return json_loadb(line, n, JSON_REJECT_DUPLICATES, &jerr);
	}
	json_object_set_new(o, "b64", json_stringn_nocheck(line + start,
	    end - start));
	return o;
}

/* Take one complete line from the buffer: 1 and *ev, 0 none, -1 bad. */
static int
client_take(struct client *cl, json_t **ev, char **cause)
{
	char		*nl;
	size_t		 n;

	if (cl->in.len == 0 ||
	    (nl = memchr(cl->in.data, '\n', cl->in.len)) == NULL)
		return 0;
	n = (size_t)(nl - cl->in.data);
	*ev = client_parse(cl->in.data, n);
	buf_consume(&cl->in, n + 1);
	if (*ev == NULL || !json_is_object(*ev)) {
		json_decref(*ev);
		*ev = NULL;
		*cause = xasprintf("%s: bad line from the server", cl->path);
		return -1;
	}
	return 1;
}

/*
 * The next line, parsed: 1 with *ev (caller decrefs), 0 when none came
 * within timeout_ms (-1: wait forever), -1 with *cause when the server
 * closed the connection or sent something that is not a JSON object.
 */
static int
client_read_object(struct client *cl, int timeout_ms, json_t **ev,
    char **cause)
{
	struct pollfd	pfd = { .fd = cl->fd, .events = POLLIN };
	uint64_t	deadline = util_now_ms() + (uint64_t)(timeout_ms < 0 ?
			    0 : timeout_ms);
	char		buf[65536];
	ssize_t		n;
	int		rc;

	*ev = NULL;
	for (;;) {
		if ((rc = client_take(cl, ev, cause)) != 0)
			return rc;
		if (cl->in.len > CLIENT_LINE_MAX) {
			*cause = xasprintf("%s: line from the server too "
			    "long", cl->path);
			return -1;
		}
		rc = poll(&pfd, 1, client_left(deadline, timeout_ms));
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0) {
			*cause = xasprintf("poll: %s", strerror(errno));
			return -1;
		}
		if (rc == 0)
			return 0;
		n = recv(cl->fd, buf, sizeof buf, MSG_DONTWAIT);
		if (n > 0) {
			buf_add(&cl->in, buf, (size_t)n);
			continue;
		}
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		*cause = xasprintf("the ptyvisor server closed the "
		    "connection%s%s", n < 0 ? ": " : "",
		    n < 0 ? strerror(errno) : "");
		return -1;
	}
}

int
client_read_event(struct client *cl, int timeout_ms, struct proto_event *ev,
    char **cause)
{
	json_t	*o;
	char	*why = NULL;
	int	 rc;

	memset(ev, 0, sizeof *ev);
	if ((rc = client_read_object(cl, timeout_ms, &o, cause)) != 1)
		return rc;
	rc = proto_event_decode(o, ev, &why);
	json_decref(o);
	if (rc != 0) {
		*cause = xasprintf("%s: bad event from the server: %s",
		    cl->path, why);
		free(why);
		return -1;
	}
	return 1;
}

int
client_wait_event(struct client *cl, const char *id, int timeout_ms,
    struct proto_event *ev, char **cause)
{
	uint64_t	 deadline = util_now_ms() + (uint64_t)(timeout_ms < 0 ?
			     0 : timeout_ms);
	int		 rc;

	for (;;) {
		rc = client_read_event(cl, client_left(deadline, timeout_ms),
		    ev, cause);
		if (rc != 1)
			return rc;
		if (ev->id != NULL && strcmp(ev->id, id) == 0)
			return 1;
		proto_event_free(ev);
	}
}
