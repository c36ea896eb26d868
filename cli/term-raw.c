/*
 * term-raw.c - raw mode for the person's terminal (see term-raw.h).
 */
#include "cli/term-raw.h"

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
