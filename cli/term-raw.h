/*
 * term-raw.h - the person's terminal: raw mode, restored on every way out.
 *
 * One saved state for the process: term_raw() saves the settings of stdin
 * and makes it raw; term_restore() puts them back (idempotent).  The
 * restore also runs at exit and from fatal(), after the caller's own
 * cleanup hook (e.g. resetting terminal modes it turned on).
 */
#ifndef PTYVISOR_TERM_RAW_H
#define PTYVISOR_TERM_RAW_H

#include <stddef.h>

/*
 * Save stdin's settings and make it raw.  before_restore (may be NULL)
 * runs first whenever the terminal is restored.  -1 with errno.
 */
int	term_raw(void (*before_restore)(void));

/* Restore the saved settings, if raw. */
void	term_restore(void);

#endif
