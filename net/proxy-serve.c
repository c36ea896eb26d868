/*
 * proxy-serve.c - the proxy as a process of its own (see proxy.h): a loop
 * that takes listening sockets over a UNIX socket channel (SCM_RIGHTS, one
 * byte and one fd a message: the byte says whose the socket is, the
 * proxy's port or a relay's) and serves them until the channel ends or
 * SIGTERM arrives; then every connection is closed and logged.
 */
#include "net/proxy.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>

#include "base/loop.h"

/*
 * The byte a listening socket comes with: the proxy's own port, else the
 * index of the relay it serves (below PROXY_MAX_RELAYS).
 */
#define PROXY_TAG_LISTENER	'L'

_Static_assert(PROXY_MAX_RELAYS <= PROXY_TAG_LISTENER,
    "a relay's index must not read as the proxy's listener");

/* A message of one byte with room for one fd, to send or receive. */
struct fd_message {
	struct msghdr	msg;
	struct iovec	iov;
	char		byte;
	union {
		char		buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr	align;
	} u;
};

/* Point m's header at its own byte and control buffer. */
static void
fd_message_init(struct fd_message *m)
{
	memset(m, 0, sizeof *m);
	m->byte = 'L';
	m->iov.iov_base = &m->byte;
	m->iov.iov_len = 1;
	m->msg.msg_iov = &m->iov;
	m->msg.msg_iovlen = 1;
	m->msg.msg_control = m->u.buf;
	m->msg.msg_controllen = sizeof m->u.buf;
}

/* Send a listening socket with its tag over channel; 0 or -1. */
static int
proxy_send_fd(int channel, int fd, char tag)
{
	struct fd_message	 m;
	struct msghdr		 msg;
	struct cmsghdr		*cmsg;

	fd_message_init(&m);
	m.byte = tag;
	msg = m.msg;
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof fd);
	return sendmsg(channel, &msg, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

int
proxy_send_listener(int channel, int fd)
{
	return proxy_send_fd(channel, fd, PROXY_TAG_LISTENER);
}

int
proxy_send_relay(int channel, int fd, int relay)
{
	if (relay < 0 || relay >= PROXY_MAX_RELAYS)
		return -1;
	return proxy_send_fd(channel, fd, (char)relay);
}

/* State of proxy_serve's loop. */
struct proxy_server {
	struct proxy	*proxy;
	int		 channel;
};

/* A listener arrives on the channel, or the channel ends. */
static void
serve_on_channel(struct loop *l, int fd, short revents, void *arg)
{
	struct proxy_server	*s = arg;
	struct fd_message	 m;
	struct msghdr		 msg;
	struct cmsghdr		*cmsg;
	ssize_t			 n;
	int			 lfd;

	(void)revents;
	fd_message_init(&m);
	msg = m.msg;
	n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		loop_del_fd(l, fd);
		loop_stop(l);
		return;
	}
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg != NULL;
	    cmsg = CMSG_NXTHDR(&msg, cmsg))
		if (cmsg->cmsg_level == SOL_SOCKET &&
		    cmsg->cmsg_type == SCM_RIGHTS &&
		    cmsg->cmsg_len == CMSG_LEN(sizeof(int))) {
			memcpy(&lfd, CMSG_DATA(cmsg), sizeof lfd);
			if (m.byte == PROXY_TAG_LISTENER)
				proxy_add_listener(s->proxy, lfd);
			else
				proxy_add_relay(s->proxy, lfd,
				    (unsigned char)m.byte);
		}
}

/* SIGTERM: end the proxy. */
static void
serve_on_term(struct loop *l, int sig, void *arg)
{
	(void)sig;
	(void)arg;
	loop_stop(l);
}

int
proxy_serve(int channel, const struct proxy_opts *opts, char **cause)
{
	struct proxy_server	 s;
	struct loop		*l;

	signal(SIGPIPE, SIG_IGN);
	if ((l = loop_new(cause)) == NULL)
		return -1;
	if (loop_add_signal(l, SIGTERM, serve_on_term, NULL, cause) != 0) {
		loop_free(l);
		return -1;
	}
	s.proxy = proxy_new(l, opts);
	s.channel = channel;
	loop_add_fd(l, channel, POLLIN, LOOP_PRIO_HIGH, serve_on_channel, &s);
	loop_run(l);
	loop_del_fd(l, channel);
	proxy_free(s.proxy);
	loop_free(l);
	return 0;
}
