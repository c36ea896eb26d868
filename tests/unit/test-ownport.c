/*
 * test-ownport.c - claims on ptyvisor's own TCP ports: none at first, a
 * claim seen, a second claim refused, given up when its socket closes,
 * seen from another process, one port's claim not another's.
 */
#include "net/ownport.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/tap.h"

int
main(void)
{
	uint16_t	port;
	pid_t		pid;
	int		fd, fd2, status;

	/* A port unlikely to be another test's claim at the same moment. */
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	port = (uint16_t)(20000 + rand() % 40000);
	ok(!ownport_is_claimed(port), "port %u: no claim at first", port);
	fd = ownport_claim(port);
	ok(fd >= 0, "claimed");
	ok(ownport_is_claimed(port), "the claim is seen");
	ok(ownport_is_claimed(port), "... asked again (a full backlog still "
	    "says claimed)");
	ok(!ownport_is_claimed((uint16_t)(port + 1)), "another port is not");
	fd2 = ownport_claim(port);
	ok(fd2 < 0 && errno == EADDRINUSE, "a second claim is refused "
	    "(EADDRINUSE)");
	if ((pid = fork()) == 0)
		_exit(ownport_is_claimed(port) ? 0 : 1);
	ok(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0, "another process sees the claim");
	close(fd);
	ok(!ownport_is_claimed(port), "closing its socket gives it up");
	if ((pid = fork()) == 0) {
		if (ownport_claim(port) < 0)
			_exit(1);
		pause();
		_exit(0);
	}
	while (!ownport_is_claimed(port))
		usleep(10000);
	ok(1, "a claim of another process is seen");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	ok(!ownport_is_claimed(port), "... and gone with it");
	return tap_done();
}
