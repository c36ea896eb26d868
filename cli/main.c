/*
 * main.c - the ptyvisor entry point: global options and sub-command dispatch.
 */
#include "cli/commands.h"
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/sandbox.h"

/* One sub-command: its name, entry point and one-line summary. */
struct cli_command {
	const char	*name;
	int		(*fn)(int, char **);
	const char	*summary;
};

static const struct cli_command cli_commands[] = {
	{ "run", cmd_run, "run one recorded session on this terminal" },
	{ "sandbox", cmd_sandbox, "run a command under the sandbox only "
	    "(or --explain it)" },
	{ "replay", cmd_replay, "play a recording (or print it as text)" },
	{ "history", cmd_history, "list past sessions" },
	{ "show", cmd_show, "one past session: metadata and output text" },
	{ "serve", cmd_serve, "the core without a TUI: control socket, "
	    "approvals" },
	{ "exec", cmd_exec, "the agents' shim: run a command through the "
	    "server" },
	{ "pending", cmd_pending, "list requests waiting for approval" },
	{ "approve", cmd_approve, "approve a waiting request" },
	{ "deny", cmd_deny, "deny a waiting request" },
	{ "mcp", cmd_mcp, "an MCP server on stdio for coding agents" },
	{ "hook", cmd_hook, "Claude Code's hook: its Bash tool through exec" },
	{ "attach", cmd_attach, "show a running server's console here" },
	{ "ls", cmd_ls, "list the servers and their sessions" },
	{ "kill-server", cmd_kill_server, "end a server and its sessions" },
	{ "check", cmd_check, "the verdict a command would get, without "
	    "running it" },
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
	for (i = 0; i < sizeof cli_commands / sizeof cli_commands[0]; i++)
		fprintf(f, "  %-10s %s\n", cli_commands[i].name,
		    cli_commands[i].summary);
	fprintf(f, "\nOptions:\n"
	    "  -h, --help     show this help\n"
	    "  --help-tui     the console's options\n"
	    "  -V, --version  show the version\n\n"
	    "'%s help COMMAND' or '%s COMMAND --help' describes a command.\n",
	    cli_progname, cli_progname);
}

/* Find a sub-command by name. */
static const struct cli_command *
find_command(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof cli_commands / sizeof cli_commands[0]; i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return &cli_commands[i];
	return NULL;
}

int
main(int argc, char **argv)
{
	const struct cli_command	*c;
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
		return c->fn(2, help_argv);
	}
	if ((c = find_command(argv[1])) == NULL) {
		cli_error(NULL, "unknown command '%s' (see '%s --help')",
		    argv[1], cli_progname);
		return CLI_EXIT_ERROR;
	}
	return c->fn(argc - 1, argv + 1);
}
