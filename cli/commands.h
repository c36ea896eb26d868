/*
 * commands.h - the sub-commands of the ptyvisor binary, one file each in
 * cli/, dispatched by main.c.
 *
 * Each sub-command is one function taking its own argv (argv[0] is the
 * sub-command's name) and returning the process exit status.  Sub-commands
 * use the helpers of cli/cli.h, never each other.
 */
#ifndef PTYVISOR_COMMANDS_H
#define PTYVISOR_COMMANDS_H

int	cmd_run(int argc, char **argv);
int	cmd_tui(int argc, char **argv);
int	cmd_sandbox(int argc, char **argv);
int	cmd_replay(int argc, char **argv);
int	cmd_history(int argc, char **argv);
int	cmd_show(int argc, char **argv);
int	cmd_serve(int argc, char **argv);
int	cmd_exec(int argc, char **argv);
int	cmd_pending(int argc, char **argv);
int	cmd_approve(int argc, char **argv);
int	cmd_deny(int argc, char **argv);
int	cmd_mcp(int argc, char **argv);
int	cmd_hook(int argc, char **argv);
int	cmd_check(int argc, char **argv);
/* `ptyvisor-sh -c STRING`: the shim under a shell's name. */
int	cmd_exec_sh(int argc, char **argv);
int	cmd_attach(int argc, char **argv);
int	cmd_ls(int argc, char **argv);
int	cmd_kill_server(int argc, char **argv);

#endif
