/*
 * run.c - `ptyvisor run`: one recorded session on the current terminal.
 */
#include "cli/cli.h"

#include <stdio.h>

int
cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("run", "not yet implemented");
	return CLI_EXIT_ERROR;
}
