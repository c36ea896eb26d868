/*
 * term.c - raw mode for the person's terminal (see term.h).
 */
#include "cli/term.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include "base/util.h"

static struct termios	term_saved;
static bool		term_is_raw;
static void		(*term_before_restore)(void);

void
term_restore(void)
{
	if (!term_is_raw)
		return;
	if (term_before_restore != NULL)
		term_before_restore();
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &term_saved);
	term_is_raw = false;
}

int
term_raw(void (*before_restore)(void))
{
	struct termios	t;

	if (tcgetattr(STDIN_FILENO, &term_saved) != 0)
		return -1;
	t = term_saved;
	cfmakeraw(&t);
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t) != 0)
		return -1;
	term_is_raw = true;
	term_before_restore = before_restore;
	util_set_fatal_hook(term_restore);
	atexit(term_restore);
	return 0;
}

int
term_write(int fd, const void *data, size_t len)
{
	struct pollfd	 pfd = { .fd = fd, .events = POLLOUT };
	const char	*p = data;
	ssize_t		 n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
		} else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			poll(&pfd, 1, -1);
		else if (n < 0 && errno == EINTR)
			continue;
		else
			return -1;
	}
	return 0;
}
