/*
 * cli.h - sub-commands of the ptyvisor binary and their shared helpers.
 *
 * Each sub-command is one function taking its own argv (argv[0] is the
 * sub-command's name) and returning the process exit status.  The only
 * global state of the program lives in cli/.
 */
#ifndef PTYVISOR_CLI_H
#define PTYVISOR_CLI_H

/* Exit status for ptyvisor's own errors (bad arguments, no state dir...). */
#define CLI_EXIT_ERROR 125

/* The program name used in messages. */
extern const char *cli_progname;

/* Print "ptyvisor CMD: message" on stderr. */
void	cli_error(const char *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

int	cmd_run(int argc, char **argv);
int	cmd_tui(int argc, char **argv);

#endif
