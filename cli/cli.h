/*
 * cli.h - sub-commands of the ptyvisor binary and their shared helpers.
 *
 * Each sub-command is one function taking its own argv (argv[0] is the
 * sub-command's name) and returning the process exit status.  The only
 * global state of the program lives in cli/.
 */
#ifndef PTYVISOR_CLI_H
#define PTYVISOR_CLI_H

#include "session/util.h"

/* Exit status for ptyvisor's own errors (bad arguments, no state dir...). */
#define CLI_EXIT_ERROR 125

/* The program name used in messages. */
extern const char *cli_progname;

/* Print "ptyvisor CMD: message" on stderr. */
void	cli_error(const char *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

int	cmd_run(int argc, char **argv);
int	cmd_tui(int argc, char **argv);
int	cmd_sandbox(int argc, char **argv);
int	cmd_replay(int argc, char **argv);
int	cmd_history(int argc, char **argv);
int	cmd_show(int argc, char **argv);

/*
 * The recording named by a command-line argument: digits only are a
 * session id of the state directory (which must have its recording),
 * anything else a path.  NULL with *cause; caller frees.
 */
char	*cli_recording_path(const char *arg, char **cause);

/*
 * Append the screen a recording shows at time at (< 0: at its end),
 * scrollback included, as plain text (screen_text).  *warning is set
 * (caller frees) when the file had a non-fatal problem.  -1 with *cause.
 */
int	 cli_cast_text(const char *path, double at, struct buf *out,
	     char **warning, char **cause);

#endif
