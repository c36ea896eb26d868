/*
 * cmd-serve.c - `ptyvisor serve`: the server (server/) without a console
 * of its own, logging to stderr.
 *
 * The rules and settings files are followed: a change (or SIGHUP) reloads
 * them, and a file with an error changes nothing, with the error in the
 * log.  SIGTERM and SIGINT end it cleanly: every session is killed and
 * its recording flushed, clients hear the exits, the socket is removed.
 * Finished sessions are forgotten while no console shows them (a server
 * runs for long).
 */
#include "cli/commands.h"
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "conf/config.h"
#include "policy/policy.h"
#include "sandbox/sandbox.h"
#include "server/server.h"
#include "tui/tui.h"

#define CMD_SERVE_LOG_TAG	"ptyvisor serve"

/* SIGTERM, SIGINT: say so, then end. */
static void
cmd_serve_signal(struct loop *l, int sig, void *arg)
{
	struct server	*sv = arg;
	char		*line;

	(void)l;
	line = xasprintf("%s: shutting down", strsignal(sig));
	server_log(sv, line);
	free(line);
	server_stop(sv);
}

/* SIGHUP: read the settings and rules files again. */
static void
cmd_serve_sighup(struct loop *l, int sig, void *arg)
{
	(void)l;
	(void)sig;
	server_reload(arg);
}

static void
cmd_serve_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor serve [OPTIONS]\n\n"
	    "Run the core without a TUI: the control socket for agents\n"
	    "('ptyvisor exec'), the policy and the approval queue ('ptyvisor\n"
	    "pending', 'approve', 'deny').  Logs to stderr.  SIGTERM or SIGINT\n"
	    "stop it: running sessions are killed, recordings flushed.  The\n"
	    "rules and settings files are reloaded when they change, and on\n"
	    "SIGHUP.\n\n"
	    "Options (each overrides the settings file, $PTYVISOR_CONFIG/config\n"
	    "else $XDG_CONFIG_HOME/ptyvisor/config; see ptyvisor(1)):\n"
	    "  --approval MODE  untrusted (default), on-request or never\n"
	    "                   ([approval] mode)\n"
	    "  --rules FILE     rules file ([approval] rules, else\n"
	    "                   $PTYVISOR_CONFIG/rules, else\n"
	    "                   $XDG_CONFIG_HOME/ptyvisor/rules)\n"
	    "  --socket PATH    listen there (default $PTYVISOR_SOCKET, else\n"
	    "                   [paths] socket, else\n"
	    "                   $XDG_RUNTIME_DIR/ptyvisor/ptyvisor.sock, else\n"
	    "                   /tmp/ptyvisor-$UID/ptyvisor.sock)\n"
	    "  --sandbox P      profile when a request names none\n"
	    "                   ([sandbox] profile, else workspace-write)\n"
	    "  --notify PROG    run PROG with a JSON argument when a request\n"
	    "                   waits ([approval] notify)\n"
	    "  --keep           a client that disconnects leaves its sessions\n"
	    "                   running and its requests pending\n"
	    "  -h, --help       show this help\n");
}

/*
 * Parse serve's command line into o (flags) and *sandbox (a profile for
 * requests that name none, NULL: the file's), *keep.  0 to go on, 1 after
 * --help, else -1 (said).
 */
static int
cmd_serve_parse(int argc, char **argv, struct cli_server_opts *o,
    const char **sandbox, bool *keep)
{
	static const struct option opts[] = {
		{ "approval", required_argument, NULL, 'a' },
		{ "rules", required_argument, NULL, 'r' },
		{ "socket", required_argument, NULL, 's' },
		{ "sandbox", required_argument, NULL, 'S' },
		{ "notify", required_argument, NULL, 'n' },
		{ "keep", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	enum sandbox_profile	 profile;
	int			 c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (policy_mode_parse(optarg, &o->srv.mode) != 0) {
				cli_error("serve", "--approval: '%s' is not "
				    "untrusted, on-request or never", optarg);
				return -1;
			}
			o->srv.mode_given = true;
			break;
		case 'r':
			free(o->rules);
			o->rules = xstrdup(optarg);
			break;
		case 's':
			o->socket = optarg;
			break;
		case 'S':
			if (!sandbox_profile_lookup(optarg, &profile)) {
				cli_error("serve", "--sandbox: '%s' is not "
				    "read-only, workspace-write or "
				    "danger-full-access", optarg);
				return -1;
			}
			*sandbox = optarg;
			break;
		case 'n':
			o->srv.notify = optarg;
			break;
		case 'k':
			*keep = true;
			break;
		case 'h':
			cmd_serve_usage(stdout);
			return 1;
		default:
			cli_bad_option("serve", c, argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		cli_error("serve", "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

int
cmd_serve(int argc, char **argv)
{
	const struct config	*cfg;
	struct cli_server_opts	 so;
	struct sandbox_opts	 sbo;
	struct tui_opts		 to;
	struct server		*sv = NULL;
	const char		*sandbox = NULL;
	char			*state_dir = NULL, *cause = NULL;
	bool			 keep = false;
	int			 rc;

	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	memset(&so, 0, sizeof so);
	if ((rc = cmd_serve_parse(argc, argv, &so, &sandbox, &keep)) != 0) {
		cli_server_opts_free(&so);
		return rc > 0 ? 0 : CLI_EXIT_ERROR;
	}
	/* What the command line left open, the settings file may say. */
	cli_server_opts_defaults(cfg, &so);
	if (sandbox != NULL)
		(void)sandbox_profile_lookup(sandbox, &so.srv.profile);
	else if (!config_sandbox_profile(cfg, &so.srv.profile))
		so.srv.profile = SANDBOX_WORKSPACE_WRITE;
	signal(SIGPIPE, SIG_IGN);
	/*
	 * Agents' sessions get the file's sandbox options (writable roots,
	 * limits...), with the profile and network their request asks for.
	 */
	sandbox_opts_init(&sbo);
	if (config_apply_sandbox(cfg, &sbo, &cause) != 0)
		goto fail;
	/* Consoles may attach ('ptyvisor attach'), as to the console's server. */
	memset(&to, 0, sizeof to);
	to.sandbox = &sbo;
	to.prefix = config_prefix(cfg);
	to.mouse = config_mouse(cfg);
	to.scrollback = config_scrollback(cfg);
	so.srv.sandbox = &sbo;
	so.srv.console = &to;
	so.srv.log_fd = STDERR_FILENO;
	so.srv.log_tag = CMD_SERVE_LOG_TAG;
	so.srv.end_words = "shutting down";
	so.srv.log_console_end = true;
	so.srv.forget_ended = true;
	if ((state_dir = cli_state_dir(cfg, &cause)) == NULL)
		goto fail;
	so.srv.state_dir = state_dir;
	if ((sv = server_new(&so.srv, &cause)) == NULL)
		goto fail;
	if (loop_add_signal(server_loop(sv), SIGTERM, cmd_serve_signal, sv,
	    &cause) != 0 ||
	    loop_add_signal(server_loop(sv), SIGINT, cmd_serve_signal, sv,
	    &cause) != 0 ||
	    loop_add_signal(server_loop(sv), SIGHUP, cmd_serve_sighup, sv,
	    &cause) != 0)
		goto fail;
	server_follow(sv);
	if (server_listen(sv, so.socket, keep, &cause) != 0)
		goto fail;
	cause = xasprintf("listening on %s (approval %s, rules %s, state %s, "
	    "settings %s)", server_path(sv), policy_mode_name(so.srv.mode),
	    so.srv.rules, state_dir, config_path(cfg) != NULL ?
	    config_path(cfg) : "none");
	server_log(sv, cause);
	free(cause);
	cause = NULL;

	if (loop_run(server_loop(sv)) != 0)
		fatal("event loop: %s", strerror(errno));

	server_end_consoles(sv, "server exited");
	server_free(sv);
	server_log_line(STDERR_FILENO, CMD_SERVE_LOG_TAG, "stopped");
	rc = 0;
	goto out;

fail:
	cli_error("serve", "%s", cause != NULL ? cause : "failed");
	free(cause);
	server_free(sv);
	rc = CLI_EXIT_ERROR;
out:
	free(state_dir);
	cli_server_opts_free(&so);
	return rc;
}
