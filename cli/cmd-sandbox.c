/*
 * cmd-sandbox.c - `ptyvisor sandbox`: run one command under exactly the
 * session sandbox, on the current terminal, without a PTY of its own, and
 * exit with its status; or `--explain` what the sandbox would do here.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/netrules.h"
#include "cli/sbopts.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pty/pty.h"
#include "record/ending.h"
#include "sandbox/sandbox.h"
#include "conf/config.h"
#include "base/util.h"

extern char **environ;

/* The running command, for signals ptyvisor itself receives. */
static volatile pid_t cmd_sandbox_pid = -1;

/* What the command line asks. */
struct cmd_sandbox_args {
	struct sandbox_opts	 opts;	/* over the settings file's */
	const char		*rules;	/* --rules */
	bool			 explain;
};

/* The dispositions of ptyvisor's signals while the command runs. */
struct cmd_sandbox_saved {
	struct sigaction	 intr;
	struct sigaction	 quit;
	struct sigaction	 term;
	struct sigaction	 hup;
};

/*
 * Pass a signal on to the command, which decides; not what the terminal
 * sent (SI_KERNEL: a hangup reaches the command's group by itself).
 */
static void
cmd_sandbox_forward(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (cmd_sandbox_pid > 0 && si->si_code != SI_KERNEL)
		kill(cmd_sandbox_pid, sig);
}

/*
 * The pre-exec hook: off a terminal's foreground the command leads a
 * process group of its own (arg's sandbox follows), so that a signal to
 * our whole group reaches it once, forwarded, and not also directly.
 */
static int
cmd_sandbox_own_group_hook(void *arg, int report_fd, const char **stage,
    void (*then)(void *, const char *), void *then_ctx)
{
	if (setpgid(0, 0) != 0) {
		*stage = "process group";
		return -1;
	}
	return sandbox_child(arg, report_fd, stage, then, then_ctx);
}

/* The usage text. */
static void
cmd_sandbox_usage(FILE *f)
{
	fprintf(f,
"usage: %s sandbox [OPTIONS] -- CMD [ARGS...]\n"
"       %s sandbox [OPTIONS] --explain\n\n"
"Run CMD under the sandbox every session gets, on this terminal, with no\n"
"PTY, no recording and no approval, and exit with its status (128+N when\n"
"it dies of signal N, 127 when it is not found, 125 when the sandbox\n"
"cannot be set up: then CMD does not run and the failed stage is shown).\n"
"The sandbox: user (unless root), mount, PID, IPC, UTS and network\n"
"namespaces with a read-only filesystem; Landlock; seccomp; no\n"
"capabilities; resource bounds; a scrubbed environment.  The [sandbox]\n"
"settings of the settings file are the defaults of the options.\n\n"
"Options:\n%s%s"
"  --explain           show the effective policy and which layers this\n"
"                      kernel puts in force, then exit\n"
"  -h, --help          show this help\n",
	    cli_progname, cli_progname, sbopts_help, netrules_help);
}

enum {
	CMD_SANDBOX_EXPLAIN = 1,
	CMD_SANDBOX_RULES,
};

static const struct args_option cmd_sandbox_options[] = {
	ARGS_HELP_OPTION,
	{ "explain", 0, false, CMD_SANDBOX_EXPLAIN },
	{ "rules", 0, true, CMD_SANDBOX_RULES },
	ARGS_END
};
static const struct args_option *const cmd_sandbox_tables[] = {
	cmd_sandbox_options, sbopts_options, NULL
};

/* Take one option into a (args_parse()). */
static int
cmd_sandbox_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_sandbox_args	*a = state;

	switch (key) {
	case CMD_SANDBOX_EXPLAIN:
		a->explain = true;
		break;
	case CMD_SANDBOX_RULES:
		a->rules = value;
		break;
	default:
		return sbopts_apply(&a->opts, key, value, cause);
	}
	return 0;
}

/*
 * Like system(3): the terminal's ^C and ^\ are for the command, in our
 * group.  In a group of its own it gets them from us.  TERM and HUP are
 * passed on.  What was there goes to saved.
 */
static void
cmd_sandbox_signals(bool own_group, struct cmd_sandbox_saved *saved)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, &saved->intr);
	sigaction(SIGQUIT, &sa, &saved->quit);
	sa.sa_handler = NULL;
	sa.sa_sigaction = cmd_sandbox_forward;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTERM, &sa, &saved->term);
	sigaction(SIGHUP, &sa, &saved->hup);
	if (own_group) {
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGQUIT, &sa, NULL);
	}
}

/* Put back the dispositions cmd_sandbox_signals() saved. */
static void
cmd_sandbox_restore(const struct cmd_sandbox_saved *saved)
{
	sigaction(SIGINT, &saved->intr, NULL);
	sigaction(SIGQUIT, &saved->quit, NULL);
	sigaction(SIGTERM, &saved->term, NULL);
	sigaction(SIGHUP, &saved->hup, NULL);
}

/*
 * Spawn spec's command, the signals it is forwarded held until its pid is
 * known, so that none is lost on the way (the child starts with an empty
 * mask).  0, or -1 with *fail.
 */
static int
cmd_sandbox_spawn(const struct pty_spec *spec, bool own_group,
    struct pty_child *child, struct pty_failure *fail)
{
	sigset_t	hold, old_mask;
	int		r;

	sigemptyset(&hold);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	if (own_group) {
		sigaddset(&hold, SIGINT);
		sigaddset(&hold, SIGQUIT);
	}
	sigprocmask(SIG_BLOCK, &hold, &old_mask);
	r = pty_spawn(spec, child, fail);
	if (r == 0)
		cmd_sandbox_pid = child->pid;
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	return r;
}

/* Wait for the command name (pid) in sb to end; its exit status. */
static int
cmd_sandbox_wait(struct sandbox *sb, pid_t pid, const char *name)
{
	struct pty_status	st;
	int			status;

	if (pty_reap(pid, true, &st) == 1) {
		status = pty_status_exit_code(st);
		if (st.signaled && st.signal == SIGKILL &&
		    sandbox_memory_exceeded(sb))
			cli_error("sandbox", "%s: killed: %s", name,
			    ENDING_MEMORY);
	} else {
		cli_error("sandbox", "wait: %s", strerror(errno));
		status = CLI_EXIT_ERROR;
	}
	cmd_sandbox_pid = -1;
	return status;
}

/* Run argv under sb on this terminal, no PTY of its own; its status. */
static int
cmd_sandbox_run(struct sandbox *sb, char **argv)
{
	struct pty_spec			 spec;
	struct pty_child		 child;
	struct pty_failure		 fail;
	struct cmd_sandbox_saved	 saved;
	char				**env, msg[512];
	bool				 own_group;
	int				 status;

	env = sandbox_env(sb, environ, NULL);
	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.envp = env;
	spec.no_pty = true;
	spec.pre_exec = sandbox_child;
	spec.pre_exec_arg = sb;
	own_group = !util_tty_foreground();
	if (own_group)
		spec.pre_exec = cmd_sandbox_own_group_hook;

	cmd_sandbox_signals(own_group, &saved);
	if (cmd_sandbox_spawn(&spec, own_group, &child, &fail) != 0) {
		pty_failure_str(&fail, msg, sizeof msg);
		if (fail.status == 127)
			cli_error("sandbox", "%s: command not found", argv[0]);
		else
			cli_error("sandbox", "%s", msg);
		status = fail.status;
	} else
		status = cmd_sandbox_wait(sb, child.pid, argv[0]);
	cmd_sandbox_restore(&saved);
	strv_free(env);
	return status;
}

/* `ptyvisor sandbox`: the command line, then --explain or the command. */
static int
cmd_sandbox_exec(int argc, char **argv)
{
	struct cmd_sandbox_args	 a;
	const struct config	*cfg;
	struct cli_netrules	*rules = NULL;
	struct sandbox		*sb = NULL;
	struct cli_guard_paths	 own;
	struct args_end		 end;
	struct buf		 out = { 0 };
	char			*cause = NULL;
	int			 rc = CLI_EXIT_ERROR;

	memset(&a, 0, sizeof a);
	/* The settings file first, so that the options override it. */
	if ((cfg = cli_config()) == NULL)
		goto out;
	sandbox_opts_init(&a.opts);
	if (config_apply_sandbox(cfg, &a.opts, &cause) != 0) {
		cli_error("sandbox", "sandbox: %s", cause);
		goto out;
	}
	if ((rc = args_parse(&cmd_sandbox_entry, argc, argv, &a,
	    &end)) != ARGS_GO_ON)
		goto out;
	rc = CLI_EXIT_ERROR;
	if (!a.explain && end.first >= argc) {
		cli_error("sandbox", "no command (see '%s sandbox --help')",
		    cli_progname);
		goto out;
	}
	/* A filtered network's rules, read as the server reads them. */
	if ((rules = netrules_new(cfg, a.rules, &a.opts, &cause)) == NULL) {
		cli_error("sandbox", "%s", cause);
		goto out;
	}
	memset(&own, 0, sizeof own);
	own.rules = a.rules;
	if (cli_guard_own(&a.opts, &own, &cause) != 0) {
		cli_error("sandbox", "sandbox: %s", cause);
		goto out;
	}
	if (a.explain) {
		rc = sandbox_explain(&a.opts, &out) == 0 ? 0 : CLI_EXIT_ERROR;
		fputs(buf_cstr(&out), stdout);
	} else if ((sb = sandbox_new(&a.opts, NULL, &cause)) == NULL)
		cli_error("sandbox", "sandbox: %s", cause);
	else
		rc = cmd_sandbox_run(sb, argv + end.first);
out:
	buf_free(&out);
	sandbox_free(sb);
	netrules_free(rules);
	free(cause);
	return rc;
}

const struct cmd_entry cmd_sandbox_entry = {
	.name = "sandbox",
	.summary = "run a command under the sandbox only (or --explain it)",
	.exec = cmd_sandbox_exec,
	.options = cmd_sandbox_tables,
	.flags = ARGS_EXACT | ARGS_SEE_HELP | ARGS_NAME_MISSING,
	.cause_prefix = "sandbox: ",
	.usage = cmd_sandbox_usage,
	.option = cmd_sandbox_option,
};
