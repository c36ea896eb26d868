/*
 * cmd-sandbox.c - `ptyvisor sandbox`: run one command under exactly the
 * session sandbox, on the current terminal, without a PTY of its own, and
 * exit with its status; or `--explain` what the sandbox would do here.
 */
#include "cli/commands.h"
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
static volatile pid_t sandbox_cmd_pid = -1;

/*
 * Pass a signal on to the command, which decides; not what the terminal
 * sent (SI_KERNEL: a hangup reaches the command's group by itself).
 */
static void
sandbox_forward(int sig, siginfo_t *si, void *ctx)
{
	if (sandbox_cmd_pid > 0 && si->si_code != SI_KERNEL)
		kill(sandbox_cmd_pid, sig);
}

/*
 * The pre-exec hook: off a terminal's foreground the command leads a
 * process group of its own (arg's sandbox follows), so that a signal to
 * our whole group reaches it once, forwarded, and not also directly.
 */
static int
sandbox_own_group_hook(void *arg, int report_fd, const char **stage)
{
	if (setpgid(0, 0) != 0) {
		*stage = "process group";
		return -1;
	}
	return sandbox_child(arg, report_fd, stage);
}

/* The usage text. */
static void
sandbox_usage(FILE *f)
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

int
cmd_sandbox(int argc, char **argv)
{
	struct sandbox_opts	 opts;
	const struct config	*cfg;
	struct sandbox		*sb;
	struct pty_spec		 spec;
	struct pty_child	 child;
	struct pty_failure	 fail;
	struct pty_status	 st;
	struct sigaction	 sa, old_int, old_quit, old_term, old_hup;
	struct buf		 out;
	struct cli_netrules	*rules;
	const char		*rules_flag = NULL;
	char			*cause = NULL, **env, msg[512];
	bool			 explain = false;
	int			 i = 1, r, status;
	bool			 own_group;
	sigset_t		 hold, old_mask;

	/* The settings file first, so that the options override it. */
	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	sandbox_opts_init(&opts);
	if (config_apply_sandbox(cfg, &opts, &cause) != 0) {
		cli_error("sandbox", "sandbox: %s", cause);
		free(cause);
		return CLI_EXIT_ERROR;
	}
	while (i < argc) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			sandbox_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--explain") == 0) {
			explain = true;
			i++;
			continue;
		}
		r = netrules_option(argc, argv, &i, &rules_flag, &cause);
		if (r == 0)
			r = sbopts_parse(&opts, argc, argv, &i, &cause);
		if (r < 0) {
			cli_error("sandbox", "sandbox: %s", cause);
			free(cause);
			return CLI_EXIT_ERROR;
		}
		if (r == 0) {
			if (argv[i][0] != '-')
				break;
			cli_error("sandbox", "unknown option '%s' (see "
			    "'%s sandbox --help')", argv[i], cli_progname);
			return CLI_EXIT_ERROR;
		}
	}
	if (!explain && i >= argc) {
		cli_error("sandbox", "no command (see '%s sandbox --help')",
		    cli_progname);
		return CLI_EXIT_ERROR;
	}
	/* A filtered network's rules, read as the server reads them. */
	if ((rules = netrules_new(cfg, rules_flag, &opts, &cause)) == NULL) {
		cli_error("sandbox", "%s", cause);
		free(cause);
		return CLI_EXIT_ERROR;
	}
	if (explain) {
		memset(&out, 0, sizeof out);
		r = sandbox_explain(&opts, &out);
		fputs(buf_cstr(&out), stdout);
		buf_free(&out);
		netrules_free(rules);
		return r == 0 ? 0 : CLI_EXIT_ERROR;
	}

	if ((sb = sandbox_new(&opts, NULL, &cause)) == NULL) {
		cli_error("sandbox", "sandbox: %s", cause);
		free(cause);
		netrules_free(rules);
		return CLI_EXIT_ERROR;
	}
	env = sandbox_env(sb, environ, NULL);
	memset(&spec, 0, sizeof spec);
	spec.argv = argv + i;
	spec.envp = env;
	spec.no_pty = true;
	spec.pre_exec = sandbox_child;
	spec.pre_exec_arg = sb;
	own_group = !util_tty_foreground();
	if (own_group)
		spec.pre_exec = sandbox_own_group_hook;

	/*
	 * Like system(3): the terminal's ^C and ^\ are for the command, in
	 * our group.  In a group of its own it gets them from us.
	 */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGQUIT, &sa, &old_quit);
	sa.sa_handler = NULL;
	sa.sa_sigaction = sandbox_forward;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	if (own_group) {
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGQUIT, &sa, NULL);
	}

	/*
	 * Held until the command's pid is known, so that none is lost on the
	 * way (the child starts with an empty mask).
	 */
	sigemptyset(&hold);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	if (own_group) {
		sigaddset(&hold, SIGINT);
		sigaddset(&hold, SIGQUIT);
	}
	sigprocmask(SIG_BLOCK, &hold, &old_mask);
	r = pty_spawn(&spec, &child, &fail);
	if (r == 0)
		sandbox_cmd_pid = child.pid;
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	if (r != 0) {
		pty_failure_str(&fail, msg, sizeof msg);
		if (fail.status == 127)
			cli_error("sandbox", "%s: command not found",
			    argv[i]);
		else
			cli_error("sandbox", "%s", msg);
		status = fail.status;
	} else {
		if (pty_reap(child.pid, true, &st) == 1) {
			status = pty_status_exit_code(st);
			if (st.signaled && st.signal == SIGKILL &&
			    sandbox_memory_exceeded(sb))
				cli_error("sandbox", "%s: killed: %s", argv[i],
				    ENDING_MEMORY);
		} else {
			cli_error("sandbox", "wait: %s", strerror(errno));
			status = CLI_EXIT_ERROR;
		}
		sandbox_cmd_pid = -1;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	strv_free(env);
	sandbox_free(sb);
	netrules_free(rules);
	return status;
}
