/*
 * resolve.c - lookups in a child process, read back on the loop (see
 * resolve.h).
 *
 * Invariants: the child writes its whole answer with one write(2) no larger
 * than PIPE_BUF, so the parent sees all of it or nothing; every child is
 * reaped, by the answer's end or by resolve_cancel().
 */
#include "net/resolve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"

/* The child's answer: a count, then addresses, or 0 and an error. */
struct resolve_reply {
	int			n;
	char			error[120];
	struct sockaddr_storage	addrs[RESOLVE_MAX_ADDRS];
};

/* One write of the whole reply must be atomic on a pipe. */
_Static_assert(sizeof(struct resolve_reply) <= PIPE_BUF,
    "a resolver reply must fit in one atomic pipe write");

struct resolve {
	struct loop		*loop;
	pid_t			 pid;
	int			 fd;
	struct resolve_reply	 reply;
	size_t			 got;
	resolve_fn		 fn;
	void			*arg;
};

/* Set the port of an address. */
static void
set_port(struct sockaddr_storage *ss, uint16_t port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

/* Parse one address of a hosts file into ss. */
static int
parse_host_addr(const char *s, struct sockaddr_storage *ss)
{
	struct sockaddr_in	*in = (struct sockaddr_in *)ss;
	struct sockaddr_in6	*in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof *ss);
	if (inet_pton(AF_INET, s, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		return 0;
	}
	return -1;
}

/* Look name up in a hosts file. */
static int
from_hosts_file(const char *name, const char *path,
    struct sockaddr_storage *out, int max, char *error, size_t len)
{
	FILE	*f;
	char	 line[1024], *addr, *word, *save;
	int	 n = 0;

	if ((f = fopen(path, "re")) == NULL) {
		snprintf(error, len, "hosts file %s: %s", path,
		    strerror(errno));
		return 0;
	}
	while (n < max && fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "#\n")] = '\0';
		if ((addr = strtok_r(line, " \t", &save)) == NULL)
			continue;
		while ((word = strtok_r(NULL, " \t", &save)) != NULL)
			if (strcasecmp(word, name) == 0 &&
			    parse_host_addr(addr, &out[n]) == 0) {
				n++;
				break;
			}
	}
	fclose(f);
	if (n == 0)
		snprintf(error, len, "no such host (test hosts file)");
	return n;
}

/* Whether name is an address (inet_aton's spellings included). */
static bool
is_literal(const char *name)
{
	struct in6_addr	a6;
	struct in_addr	a4;

	return inet_pton(AF_INET6, name, &a6) == 1 || inet_aton(name, &a4) != 0;
}

int
resolve_now(const char *name, uint16_t port, const char *hosts_file,
    struct sockaddr_storage *out, int max, char *error, size_t len)
{
	struct addrinfo	 hints, *res, *ai;
	int		 n = 0, i, r;

	if (hosts_file != NULL)
		n = from_hosts_file(name, hosts_file, out, max, error, len);
	else {
		memset(&hints, 0, sizeof hints);
		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = SOCK_STREAM;
		hints.ai_flags = AI_ADDRCONFIG;
		/* An address is never looked up as a name. */
		if (is_literal(name))
			hints.ai_flags |= AI_NUMERICHOST;
		if ((r = getaddrinfo(name, NULL, &hints, &res)) != 0) {
			snprintf(error, len, "%s", gai_strerror(r));
			return 0;
		}
		for (ai = res; ai != NULL && n < max; ai = ai->ai_next) {
			if ((ai->ai_family != AF_INET &&
			    ai->ai_family != AF_INET6) ||
			    ai->ai_addrlen > sizeof out[n])
				continue;
			memset(&out[n], 0, sizeof out[n]);
			memcpy(&out[n], ai->ai_addr, ai->ai_addrlen);
			n++;
		}
		freeaddrinfo(res);
		if (n == 0)
			snprintf(error, len, "no internet address");
	}
	for (i = 0; i < n; i++)
		set_port(&out[i], port);
	return n;
}

/* The child: look up, write the reply once, exit. */
static void __attribute__((noreturn))
run_child(int fd, const char *name, uint16_t port, const char *hosts_file)
{
	struct resolve_reply	reply;

	memset(&reply, 0, sizeof reply);
	reply.n = resolve_now(name, port, hosts_file, reply.addrs,
	    RESOLVE_MAX_ADDRS, reply.error, sizeof reply.error);
	(void)!write(fd, &reply, sizeof reply);
	_exit(0);
}

/* Reap the child and release the lookup. */
static void
finish(struct resolve *r, bool kill_it)
{
	loop_del_fd(r->loop, r->fd);
	close(r->fd);
	if (kill_it)
		kill(r->pid, SIGKILL);
	while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
		;
	free(r);
}

/* The answer arrives (or the child died without one). */
static void
on_reply(struct loop *l, int fd, short revents, void *arg)
{
	struct resolve	*r = arg;
	resolve_fn	 fn = r->fn;
	void		*fnarg = r->arg;
	ssize_t		 n;
	int		 count;
	char		 error[sizeof r->reply.error];

	(void)l;
	(void)revents;
	n = read(fd, (char *)&r->reply + r->got, sizeof r->reply - r->got);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0) {
		r->got += (size_t)n;
		if (r->got < sizeof r->reply)
			return;
	}
	if (r->got == sizeof r->reply && r->reply.n > 0 &&
	    r->reply.n <= RESOLVE_MAX_ADDRS) {
		struct sockaddr_storage	addrs[RESOLVE_MAX_ADDRS];

		count = r->reply.n;
		memcpy(addrs, r->reply.addrs, sizeof addrs);
		finish(r, false);
		fn(fnarg, addrs, count, NULL);
		return;
	}
	if (r->got == sizeof r->reply) {
		r->reply.error[sizeof r->reply.error - 1] = '\0';
		snprintf(error, sizeof error, "%s", r->reply.error);
	} else
		snprintf(error, sizeof error, "the resolver failed");
	finish(r, false);
	fn(fnarg, NULL, 0, error);
}

struct resolve *
resolve_start(struct loop *l, const char *name, uint16_t port,
    const char *hosts_file, resolve_fn fn, void *arg, char **cause)
{
	struct resolve	*r;
	int		 fds[2];

	if (pipe2(fds, O_CLOEXEC) != 0) {
		*cause = xasprintf("pipe: %s", strerror(errno));
		return NULL;
	}
	r = xcalloc(1, sizeof *r);
	if ((r->pid = fork()) < 0) {
		*cause = xasprintf("fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(r);
		return NULL;
	}
	if (r->pid == 0) {
		close(fds[0]);
		run_child(fds[1], name, port, hosts_file);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	r->loop = l;
	r->fd = fds[0];
	r->fn = fn;
	r->arg = arg;
	loop_add_fd(l, r->fd, POLLIN, LOOP_PRIO_NORMAL, on_reply, r);
	return r;
}

void
resolve_cancel(struct resolve *r)
{
	if (r != NULL)
		finish(r, true);
}
