/*
 * ownport.c - claims on the TCP ports ptyvisor's own processes listen on
 * (see ownport.h): an abstract UNIX stream socket "ptyvisor-own-tcp-PORT"
 * listening for as long as the claim holds.  Asking is a non-blocking
 * connect: refused means no claim; anything else (connected, or a full
 * backlog) means one.
 */
#include "net/ownport.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* The abstract address of port's claim into *sun; its length. */
static socklen_t
ownport_address(uint16_t port, struct sockaddr_un *sun)
{
	int	n;

	memset(sun, 0, sizeof *sun);
	sun->sun_family = AF_UNIX;
	/* sun_path[0] stays NUL: an abstract name, no file anywhere. */
	n = snprintf(sun->sun_path + 1, sizeof sun->sun_path - 1,
	    "ptyvisor-own-tcp-%u", (unsigned)port);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
	    (size_t)n);
}

int
ownport_claim(uint16_t port)
{
	struct sockaddr_un	sun;
	socklen_t		len = ownport_address(port, &sun);
	int			fd, e;

	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
	    SOCK_NONBLOCK, 0)) < 0)
		return -1;
	/* A backlog of one: nobody is ever accepted, only refused or not. */
	if (bind(fd, (struct sockaddr *)&sun, len) != 0 ||
	    listen(fd, 1) != 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

bool
ownport_is_claimed(uint16_t port)
{
	struct sockaddr_un	sun;
	socklen_t		len = ownport_address(port, &sun);
	bool			claimed;
	int			fd;

	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
	    SOCK_NONBLOCK, 0)) < 0)
		return true;	/* cannot tell: not relayed */
	claimed = connect(fd, (struct sockaddr *)&sun, len) == 0 ||
	    errno != ECONNREFUSED;
	close(fd);
	return claimed;
}
