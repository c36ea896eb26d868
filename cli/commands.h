/*
 * commands.h - the sub-commands of the ptyvisor binary and the entry that
 * describes each in main.c's command table: its name, its line in
 * `ptyvisor --help`, its entry point and how its words are read.
 *
 * A sub-command lives in cli/cmd-<name>.c (history and show share one;
 * pending, approve and deny one; attach, ls and kill-server one), which
 * defines its entry, cmd_<name>_entry; its entry point takes its own argv
 * (argv[0] is the sub-command's name) and returns the process exit status.
 * One with options reads them with args_parse() (args.h), which takes them
 * from the entry.  The functions declared below read their words
 * themselves: the console (cmd_tui, in no entry: main.c runs it when no
 * command is named) and the shim under a shell's name (cmd_exec_sh, read
 * as sh reads them).  Sub-commands use the helpers of cli/cli.h, never
 * each other.
 */
#ifndef PTYVISOR_COMMANDS_H
#define PTYVISOR_COMMANDS_H

#include <stdio.h>

struct args_option;

/* One sub-command. */
struct cmd_entry {
	const char	*name;
	const char	*summary;	/* its line in `ptyvisor --help` */
	int		(*exec)(int argc, char **argv);

	/*
	 * Its options, for args_parse(): tables (each ending in ARGS_END),
	 * NULL after the last; the flags ARGS_*; what comes before the
	 * messages about values ("sandbox: "; NULL: nothing); what a
	 * missing value is called ("--socket needs a path"; NULL: "a
	 * value"); its --help text; what takes each option: 0, or -1 with
	 * *cause (caller frees) to stop, or ARGS_DONE(status) when the
	 * option was the whole command.  No options: the command reads its
	 * words itself.
	 */
	const struct args_option *const *options;
	int		 flags;
	const char	*cause_prefix;
	const char	*needs;
	void		(*usage)(FILE *f);
	int		(*option)(void *state, int key, const char *value,
			    char **cause);
};

extern const struct cmd_entry	cmd_run_entry;
extern const struct cmd_entry	cmd_sandbox_entry;
extern const struct cmd_entry	cmd_replay_entry;
extern const struct cmd_entry	cmd_history_entry;
extern const struct cmd_entry	cmd_show_entry;
extern const struct cmd_entry	cmd_check_entry;
extern const struct cmd_entry	cmd_serve_entry;
extern const struct cmd_entry	cmd_exec_entry;
extern const struct cmd_entry	cmd_pending_entry;
extern const struct cmd_entry	cmd_approve_entry;
extern const struct cmd_entry	cmd_deny_entry;
extern const struct cmd_entry	cmd_hook_entry;
extern const struct cmd_entry	cmd_attach_entry;
extern const struct cmd_entry	cmd_ls_entry;
extern const struct cmd_entry	cmd_kill_server_entry;
extern const struct cmd_entry	cmd_mcp_entry;
extern const struct cmd_entry	cmd_gc_entry;
extern const struct cmd_entry	cmd_web_entry;	/* ptyvisor-web's */
extern const struct cmd_entry	cmd_web_start_entry;

int	cmd_tui(int argc, char **argv);
/* `ptyvisor-sh -c STRING`: the shim under a shell's name. */
int	cmd_exec_sh(int argc, char **argv);

#endif
