/*
 * control.c - the control socket server (see control.h): the private
 * directory and the listening socket, accepting clients and checking each
 * peer, reading their request lines, and control_new/control_free.
 * Answers are in requests.c, a console's frames in console.c, events from
 * sessions and the approval queue in forward.c, each client's output and
 * close in conn.c; control-int.h holds what they share.
 *
 * Invariants:
 * - every fd is non-blocking and close-on-exec; the listening socket and
 *   clients are served at high priority, before any PTY;
 * - a client's partial input never exceeds one line (PROTO_LINE_MAX) plus
 *   one read; its unread output is bounded in conn.c;
 * - at most CONTROL_CLIENTS_MAX clients, each of our own uid, and none
 *   holds a slot without saying hello within CONTROL_HELLO_MS.
 */
#include "control/control.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "control/control-int.h"
#include "control/proto.h"
#include "base/util.h"
#include "sandbox/sandbox.h"
#include "session/session.h"

/* Bytes read from one client per loop turn, so none can hog the loop. */
#define CONTROL_READ_BUDGET	(64 * 1024)
/* Clients at once: each holds an fd and buffers; refuse more. */
#define CONTROL_CLIENTS_MAX	256
/* Connections accepted in one turn of the loop at most. */
#define CONTROL_ACCEPT_BATCH	64
/*
 * A client that has not said hello by then is closed: a half-open
 * connection must not hold one of the slots for ever.  (After hello a
 * client may wait for hours: an approval, a long command.)
 */
#define CONTROL_HELLO_MS	30000
/* After accept() fails for lack of fds, wait before trying again. */
#define CONTROL_ACCEPT_PAUSE_MS	100

char *
control_socket_path(void)
{
	const char	*s;

	if ((s = getenv("PTYVISOR_SOCKET")) != NULL && *s != '\0')
		return xstrdup(s);
	if ((s = getenv("XDG_RUNTIME_DIR")) != NULL && *s == '/')
		return xasprintf("%s/ptyvisor/ptyvisor.sock", s);
	return xasprintf("/tmp/ptyvisor-%u/ptyvisor.sock",
	    (unsigned)geteuid());
}

char *
control_socket_named(const char *name)
{
	const char	*s;

	if ((s = getenv("XDG_RUNTIME_DIR")) != NULL && *s == '/')
		return xasprintf("%s/ptyvisor/%s.sock", s, name);
	return xasprintf("/tmp/ptyvisor-%u/%s.sock", (unsigned)geteuid(),
	    name);
}

char *
control_socket_dir(void)
{
	char	*p = control_socket_named("x"), *slash = strrchr(p, '/');

	*slash = '\0';
	return p;
}

/* Make sure the socket's directory exists, is ours and is private. */
static int
control_prepare_dir(const char *path, char **cause)
{
	char		*dir = xstrdup(path), *slash;
	struct stat	 st;
	int		 rc = -1;

	slash = strrchr(dir, '/');
	if (slash == NULL) {
		free(dir);
		dir = xstrdup(".");
	} else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		goto out;
	}
	if (lstat(dir, &st) != 0) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode))
		*cause = xasprintf("%s: not a directory", dir);
	else if (st.st_uid != geteuid())
		*cause = xasprintf("%s: owned by uid %u, not by us", dir,
		    (unsigned)st.st_uid);
	else if ((st.st_mode & 022) != 0)
		*cause = xasprintf("%s: writable by others (mode %03o); make "
		    "it 0700", dir, (unsigned)(st.st_mode & 0777));
	else
		rc = 0;
out:
	free(dir);
	return rc;
}

/* Fill a sockaddr_un for path; -1 with *cause when it does not fit. */
static int
control_addr(const char *path, struct sockaddr_un *sun, char **cause)
{
	memset(sun, 0, sizeof *sun);
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun->sun_path) {
		*cause = xasprintf("%s: socket path too long", path);
		return -1;
	}
	memcpy(sun->sun_path, path, strlen(path) + 1);
	return 0;
}

/*
 * A socket already at path: another live server (refuse), a stale one
 * (remove it) or something else (refuse).
 */
static int
control_clear_stale(const char *path, char **cause)
{
	struct sockaddr_un	sun;
	struct stat		st;
	int			fd, rc;

	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : (*cause = xasprintf("%s: %s",
		    path, strerror(errno)), -1);
	if (!S_ISSOCK(st.st_mode)) {
		*cause = xasprintf("%s exists and is not a socket", path);
		return -1;
	}
	if (control_addr(path, &sun, cause) != 0)
		return -1;
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		*cause = xasprintf("socket: %s", strerror(errno));
		return -1;
	}
	rc = connect(fd, (struct sockaddr *)&sun, sizeof sun);
	close(fd);
	if (rc == 0) {
		*cause = xasprintf("another ptyvisor is already serving on %s",
		    path);
		return -1;
	}
	if (errno != ECONNREFUSED) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (unlink(path) != 0 && errno != ENOENT) {
		*cause = xasprintf("%s: stale socket: %s", path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* Split what was read into lines; bound what waits for a newline. */
static void
control_lines(struct control_client *cl)
{
	char	*nl;
	size_t	 off = 0, n;

	while (!cl->dead && !cl->closing && off < cl->in.len) {
		/* After attach the bytes are a console's frames. */
		if (cl->console != NULL) {
			buf_consume(&cl->in, off);
			control_console_frames(cl);
			return;
		}
		nl = memchr(cl->in.data + off, '\n', cl->in.len - off);
		if (nl == NULL)
			break;
		n = (size_t)(nl - (cl->in.data + off));
		if (n > 0 && cl->in.data[off + n - 1] == '\r')
			n--;
		if (n > 0)
			control_line(cl, cl->in.data + off, n);
		off = (size_t)(nl - cl->in.data) + 1;
	}
	if (cl->dead)
		return;
	buf_consume(&cl->in, off);
	/* A line longer than the bound is refused without reading it all. */
	if (!cl->closing && cl->in.len > PROTO_LINE_MAX + 1) {
		cl->in.len = 0;
		control_error(cl, NULL, PROTO_ERR_TOO_LONG,
		    "line longer than 1 MiB");
		control_client_finish(cl);
	}
}

/*
 * Read what the client sent, keeping descriptors passed with it (a
 * console's terminal, SCM_RIGHTS): at most two, the last ones sent.
 */
static ssize_t
control_recv(struct control_client *cl, char *buf, size_t len)
{
	union {
		struct cmsghdr	 h;
		char		 b[CMSG_SPACE(4 * sizeof(int))];
	} cm;
	struct msghdr	 msg;
	struct iovec	 iov = { .iov_base = buf, .iov_len = len };
	struct cmsghdr	*h;
	ssize_t		 n;
	int		 fds[4];
	size_t		 i, k;

	memset(&msg, 0, sizeof msg);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cm.b;
	msg.msg_controllen = sizeof cm.b;
	n = recvmsg(cl->fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0)
		return n;
	for (h = CMSG_FIRSTHDR(&msg); h != NULL; h = CMSG_NXTHDR(&msg, h)) {
		if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
			continue;
		k = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		if (k > 4)
			k = 4;
		memcpy(fds, CMSG_DATA(h), k * sizeof(int));
		control_drop_fds(cl);
		for (i = 0; i < k; i++) {
			if (i < 2)
				cl->fds[cl->nfds++] = fds[i];
			else
				close(fds[i]);
		}
	}
	return n;
}

/* A client's socket is readable or writable. */
static void
control_client_io(struct loop *l, int fd, short revents, void *arg)
{
	struct control_client	*cl = arg;
	char			 buf[16384];
	size_t			 total = 0;
	ssize_t			 n;

	(void)l;
	(void)fd;
	if (cl->dead)
		return;
	if (revents & POLLOUT)
		control_client_flush(cl);
	if (cl->dead || cl->closing)
		return;
	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	while (total < CONTROL_READ_BUDGET && !cl->dead && !cl->closing) {
		n = control_recv(cl, buf, sizeof buf);
		if (n > 0) {
			buf_add(&cl->in, buf, (size_t)n);
			total += (size_t)n;
			control_lines(cl);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		/* EOF or error: the client has gone. */
		if (cl->in.len > 0)
			control_log(cl->c, "client %lu (pid %ld) left in the "
			    "middle of a line", cl->serial, (long)cl->pid);
		control_client_close(cl);
		return;
	}
}

/* The peer's executable, from /proc; NULL when unknown. */
static char *
control_peer_exe(pid_t pid)
{
	char	 path[64], exe[PATH_MAX];
	ssize_t	 n;

	snprintf(path, sizeof path, "/proc/%ld/exe", (long)pid);
	if ((n = readlink(path, exe, sizeof exe - 1)) <= 0)
		return NULL;
	exe[n] = '\0';
	return xstrdup(exe);
}

/* Whether /proc/<pid>/status says no_new_privs: every sandboxed process. */
static bool
control_peer_nnp(pid_t pid)
{
	char	 path[64], line[128];
	FILE	*f;
	bool	 on = false;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	if ((f = fopen(path, "re")) == NULL)
		return false;
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, "NoNewPrivs:", 11) == 0)
			on = atoi(line + 11) != 0;
	fclose(f);
	return on;
}

/* The parent of pid, from /proc/<pid>/stat; 0 when unknown. */
static pid_t
control_peer_parent(pid_t pid)
{
	char	 path[64], buf[512], *p;
	FILE	*f;
	long	 ppid = 0;
	size_t	 n;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) state ppid": comm may hold anything but the last ')'. */
	if ((p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 1, " %*c %ld", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

/*
 * The sandboxed session pid runs in, or NULL: a process with no_new_privs
 * (what a sandbox's command always has; its network proxy, ptyvisor's
 * own, has not) below a session with a sandbox, found by its ancestry.
 */
static struct session *
control_peer_session(const struct control *c, pid_t pid)
{
	struct session	*s;
	size_t		 i, n = sessions_count(c->ss);
	int		 hops;

	if (pid <= 1 || n == 0 || !control_peer_nnp(pid))
		return NULL;
	for (hops = 0; hops < 64 && pid > 1; hops++) {
		for (i = 0; i < n; i++) {
			s = sessions_at(c->ss, i);
			if (session_pid(s) == pid && !session_is_done(s) &&
			    strcmp(session_profile(s), "none") != 0 &&
			    strcmp(session_profile(s), sandbox_profile_name(
			    SANDBOX_FULL_ACCESS)) != 0)
				return s;
		}
		pid = control_peer_parent(pid);
	}
	return NULL;
}

static void	control_accept(struct loop *l, int fd, short revents,
		    void *arg);

/* No hello in time: close the connection. */
static void
control_hello_timer(struct loop *l, void *arg)
{
	struct control_client	*cl = arg;

	(void)l;
	cl->hello_timer = NULL;
	if (cl->dead || cl->hello)
		return;
	control_log(cl->c, "client %lu (pid %ld) said no hello in %d s: "
	    "closed", cl->serial, (long)cl->pid, CONTROL_HELLO_MS / 1000);
	control_client_close(cl);
}

/* Accepting again after running out of fds. */
static void
control_accept_timer(struct loop *l, void *arg)
{
	struct control	*c = arg;

	(void)l;
	c->accept_timer = NULL;
	loop_set_events(c->loop, c->fd, POLLIN);
}

/* One new connection: check the peer, say hello.  -1: none (any more). */
static int
control_accept_one(struct control *c, struct loop *l, int fd)
{
	struct control_client	*cl;
	struct session		*s;
	struct ucred		 cred;
	socklen_t		 len = sizeof cred;
	struct buf		 b = { 0 };
	int			 cfd;

	cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM) {
			control_log(c, "accept: %s", strerror(errno));
			loop_set_events(l, c->fd, 0);
			c->accept_timer = loop_timer_add(l,
			    CONTROL_ACCEPT_PAUSE_MS, control_accept_timer, c);
		}
		return -1;
	}
	if (getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
	    cred.uid != geteuid()) {
		control_log(c, "refused a client of uid %ld (pid %ld)",
		    (long)cred.uid, (long)cred.pid);
		close(cfd);
		return 0;
	}
	/* Out of every sandbox's reach, whatever its network. */
	if ((s = control_peer_session(c, cred.pid)) != NULL) {
		proto_ev_error(&b, NULL, PROTO_ERR_INTERNAL, "refused: a "
		    "sandboxed command may not use the control socket");
		(void)!send(cfd, b.data, b.len, MSG_NOSIGNAL | MSG_DONTWAIT);
		buf_free(&b);
		control_log(c, "refused pid %ld: it runs in session %lu's "
		    "sandbox", (long)cred.pid, session_id(s));
		close(cfd);
		return 0;
	}
	if (c->nclients >= CONTROL_CLIENTS_MAX) {
		proto_ev_error(&b, NULL, PROTO_ERR_INTERNAL,
		    "too many clients");
		(void)!send(cfd, b.data, b.len, MSG_NOSIGNAL | MSG_DONTWAIT);
		buf_free(&b);
		control_log(c, "refused pid %ld: too many clients",
		    (long)cred.pid);
		close(cfd);
		return 0;
	}
	cl = xcalloc(1, sizeof *cl);
	cl->c = c;
	cl->serial = ++c->serial;
	cl->fd = cfd;
	cl->pid = cred.pid;
	cl->exe = control_peer_exe(cred.pid);
	c->clients = xreallocarray(c->clients, c->nclients + 1,
	    sizeof *c->clients);
	c->clients[c->nclients++] = cl;
	loop_add_fd(l, cfd, POLLIN, LOOP_PRIO_HIGH, control_client_io, cl);
	cl->hello_timer = loop_timer_add(l, CONTROL_HELLO_MS,
	    control_hello_timer, cl);
	proto_ev_hello(&b);
	control_send(cl, &b);
	buf_free(&b);
	return 0;
}

/*
 * New connections: as many as wait, up to CONTROL_ACCEPT_BATCH a turn.
 * One a turn kept a hundred agents connecting at once waiting for as many
 * turns, each as long as the busy sessions make it: seconds, past their
 * hello's time.
 */
static void
control_accept(struct loop *l, int fd, short revents, void *arg)
{
	struct control	*c = arg;
	int		 i;

	(void)revents;
	for (i = 0; i < CONTROL_ACCEPT_BATCH; i++)
		if (control_accept_one(c, l, fd) != 0)
			break;
}

struct control *
control_new(struct loop *loop, struct sessions *ss, struct approval *a,
    const char *path, const struct control_hooks *hooks, void *user,
    char **cause)
{
	struct control		*c;
	struct sockaddr_un	 sun;
	struct stat		 st;
	mode_t			 mask;
	int			 fd;
	char			*p;

	p = path != NULL ? xstrdup(path) : control_socket_path();
	if (control_prepare_dir(p, cause) != 0 ||
	    control_addr(p, &sun, cause) != 0 ||
	    control_clear_stale(p, cause) != 0) {
		free(p);
		return NULL;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		*cause = xasprintf("socket: %s", strerror(errno));
		free(p);
		return NULL;
	}
	mask = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		umask(mask);
		*cause = xasprintf("%s: %s", p, strerror(errno));
		close(fd);
		free(p);
		return NULL;
	}
	umask(mask);
	if (chmod(p, 0600) != 0 || stat(p, &st) != 0 ||
	    listen(fd, 64) != 0) {
		*cause = xasprintf("%s: %s", p, strerror(errno));
		unlink(p);
		close(fd);
		free(p);
		return NULL;
	}

	c = xcalloc(1, sizeof *c);
	c->loop = loop;
	c->ss = ss;
	c->a = a;
	c->hooks = *hooks;
	c->user = user;
	c->path = p;
	c->fd = fd;
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	loop_add_fd(loop, fd, POLLIN, LOOP_PRIO_HIGH, control_accept, c);
	sessions_subscribe(ss, &control_session_events, c);
	approval_subscribe(a, &control_approval_events, c);
	return c;
}

void
control_free(struct control *c)
{
	struct stat	st;
	size_t		i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nclients; i++)
		control_client_close(c->clients[i]);
	loop_timer_cancel(c->loop, c->reap_timer);
	control_reap(c->loop, c);
	loop_timer_cancel(c->loop, c->accept_timer);
	loop_del_fd(c->loop, c->fd);
	close(c->fd);
	/* Only remove the socket if it is still ours. */
	if (stat(c->path, &st) == 0 && st.st_dev == c->dev &&
	    st.st_ino == c->ino)
		unlink(c->path);
	while (c->nreqs > 0)
		control_req_remove(c, c->reqs[0]);
	free(c->reqs);
	for (i = 0; i < c->nsess; i++) {
		free(c->sess[i]->req_id);
		free(c->sess[i]);
	}
	free(c->sess);
	free(c->clients);
	free(c->path);
	free(c);
}

void
control_set_keep_on_disconnect(struct control *c, bool keep)
{
	c->keep = keep;
}

const char *
control_path(const struct control *c)
{
	return c->path;
}

size_t
control_clients(const struct control *c)
{
	size_t	i, n = 0;

	for (i = 0; i < c->nclients; i++)
		if (!c->clients[i]->dead)
			n++;
	return n;
}
