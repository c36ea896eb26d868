/*
 * errors.c - the program's name and the one way every sub-command reports
 * a problem to the person: "ptyvisor CMD: message" on stderr.
 *
 * cli_progname is set once by main() (ptyvisor, or ptyvisor-sh for the
 * shim); where the program's other global state lives: cli.h.
 */
#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>

const char *cli_progname = "ptyvisor";

/* Print "ptyvisor CMD: message" (or "ptyvisor: message") on stderr. */
void
cli_error(const char *cmd, const char *fmt, ...)
{
	va_list	ap;

	if (cmd != NULL)
		fprintf(stderr, "%s %s: ", cli_progname, cmd);
	else
		fprintf(stderr, "%s: ", cli_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
