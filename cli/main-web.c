/*
 * main-web.c - the entry point of ptyvisor-web, the program `ptyvisor
 * web` runs (cmd-web-start.c): the one command, cmd-web.c, with the words
 * after "web".  Hardened as the main program is.
 */
#include "cli/commands.h"
#include "cli/cli.h"

#include "sandbox/sandbox.h"

int
main(int argc, char **argv)
{
	sandbox_harden_self();
	return cmd_web_entry.exec(argc, argv);
}
