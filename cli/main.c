/*
 * main.c - the ptyvisor entry point: the command table, the global options
 * (--help, --version, --help-tui, help COMMAND) and dispatch to a
 * sub-command's entry (commands.h); no command at all, or an option first,
 * is the console.
 */
#include "cli/commands.h"
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/sandbox.h"

/* The command table, in the order `ptyvisor --help` lists it. */
static const struct cmd_entry *const cmd_table[] = {
	&cmd_run_entry,
	&cmd_sandbox_entry,
	&cmd_replay_entry,
	&cmd_history_entry,
	&cmd_show_entry,
	&cmd_serve_entry,
	&cmd_exec_entry,
	&cmd_pending_entry,
	&cmd_approve_entry,
	&cmd_deny_entry,
	&cmd_mcp_entry,
	&cmd_hook_entry,
	&cmd_attach_entry,
	&cmd_ls_entry,
	&cmd_kill_server_entry,
	&cmd_check_entry,
	&cmd_gc_entry,
	&cmd_web_start_entry,
};

/* The top-level usage text. */
static void
usage(FILE *f)
{
	size_t	i;

	fprintf(f, "usage: %s [OPTIONS] [-- CMD [ARGS...]]\n"
	    "       %s COMMAND [OPTIONS] [-- CMD [ARGS...]]\n\n",
	    cli_progname, cli_progname);
	fprintf(f, "With no command, %s opens the console: sessions in panes,\n"
	    "their history, and the approval prompt for agents' requests\n"
	    "('%s --help-tui' lists its options; in it, the prefix C-g then ?\n"
	    "lists its keys).\n\n", cli_progname, cli_progname);
	fprintf(f, "Commands:\n");
	for (i = 0; i < sizeof cmd_table / sizeof cmd_table[0]; i++)
		fprintf(f, "  %-10s %s\n", cmd_table[i]->name,
		    cmd_table[i]->summary);
	fprintf(f, "\nOptions:\n"
	    "  -h, --help     show this help\n"
	    "  --help-tui     the console's options\n"
	    "  -V, --version  show the version\n\n"
	    "'%s help COMMAND' or '%s COMMAND --help' describes a command.\n",
	    cli_progname, cli_progname);
}

/* Find a sub-command by name. */
static const struct cmd_entry *
find_command(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof cmd_table / sizeof cmd_table[0]; i++)
		if (strcmp(cmd_table[i]->name, name) == 0)
			return cmd_table[i];
	return NULL;
}

int
main(int argc, char **argv)
{
	const struct cmd_entry	*c;
	char				*help_argv[3];
	const char			*base;

	sandbox_harden_self();
	/* Installed as ptyvisor-sh, it is the shim taking -c STRING. */
	base = argc > 0 ? strrchr(argv[0], '/') : NULL;
	base = base != NULL ? base + 1 : argc > 0 ? argv[0] : "";
	if (strcmp(base, "ptyvisor-sh") == 0) {
		cli_progname = "ptyvisor-sh";
		return cmd_exec_sh(argc, argv);
	}
	if (argc < 2)
		return cmd_tui(argc, argv);
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", cli_progname, PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "--help-tui") == 0) {
		help_argv[0] = argv[0];
		help_argv[1] = (char *)"--help";
		help_argv[2] = NULL;
		return cmd_tui(2, help_argv);
	}
	if (argv[1][0] == '-')	/* an option of the console, or -- */
		return cmd_tui(argc, argv);
	if (strcmp(argv[1], "help") == 0) {
		if (argc < 3) {
			usage(stdout);
			return 0;
		}
		if ((c = find_command(argv[2])) == NULL) {
			cli_error(NULL, "no such command: %s", argv[2]);
			return CLI_EXIT_ERROR;
		}
		help_argv[0] = argv[2];
		help_argv[1] = (char *)"--help";
		help_argv[2] = NULL;
		return c->exec(2, help_argv);
	}
	if ((c = find_command(argv[1])) == NULL) {
		cli_error(NULL, "unknown command '%s' (see '%s --help')",
		    argv[1], cli_progname);
		return CLI_EXIT_ERROR;
	}
	return c->exec(argc - 1, argv + 1);
}
