/*
 * cmd-serve.c - `ptyvisor serve`: the server (server/) without a console
 * of its own, logging to stderr.
 *
 * The rules and settings files are followed: a change (or SIGHUP) reloads
 * them, and a file with an error changes nothing, with the error in the
 * log.  SIGTERM and SIGINT end it cleanly: every session is killed and
 * its recording flushed, clients hear the exits, the socket is removed.
 * Finished sessions are forgotten while the server keeps no console (a
 * server runs for long).
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "cli/recopts.h"
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
	    "%s"
	    "  -h, --help       show this help\n", recopts_help);
}

/* What serve's command line says. */
struct cmd_serve {
	struct cli_server_opts	 o;
	const char		*sandbox;	/* --sandbox; NULL: the file's */
	bool			 keep;
	struct recopts		 rec;
};

enum {
	CMD_SERVE_APPROVAL = 256,
	CMD_SERVE_RULES,
	CMD_SERVE_SOCKET,
	CMD_SERVE_SANDBOX,
	CMD_SERVE_NOTIFY,
	CMD_SERVE_KEEP,
};

static const struct args_option cmd_serve_options[] = {
	{ "approval", 0, true, CMD_SERVE_APPROVAL },
	{ "rules", 0, true, CMD_SERVE_RULES },
	{ "socket", 0, true, CMD_SERVE_SOCKET },
	{ "sandbox", 0, true, CMD_SERVE_SANDBOX },
	{ "notify", 0, true, CMD_SERVE_NOTIFY },
	{ "keep", 0, false, CMD_SERVE_KEEP },
	ARGS_HELP_OPTION,
	ARGS_END
};
static const struct args_option *const cmd_serve_tables[] = {
	cmd_serve_options, recopts_options, NULL
};

/* Take one option into the command line's values (args_parse()). */
static int
cmd_serve_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_serve	*c = state;
	enum sandbox_profile	 profile;

	switch (key) {
	case CMD_SERVE_APPROVAL:
		if (policy_mode_parse(value, &c->o.srv.mode) != 0) {
			*cause = xasprintf("--approval: '%s' is not "
			    "untrusted, on-request or never", value);
			return -1;
		}
		c->o.srv.mode_given = true;
		break;
	case CMD_SERVE_RULES:
		free(c->o.rules);
		c->o.rules = xstrdup(value);
		break;
	case CMD_SERVE_SOCKET:
		c->o.socket = value;
		break;
	case CMD_SERVE_SANDBOX:
		if (!sandbox_profile_lookup(value, &profile)) {
			*cause = xasprintf("--sandbox: '%s' is not read-only, "
			    "workspace-write or danger-full-access", value);
			return -1;
		}
		c->sandbox = value;
		break;
	case CMD_SERVE_NOTIFY:
		c->o.srv.notify = value;
		break;
	case CMD_SERVE_KEEP:
		c->keep = true;
		break;
	default:
		return recopts_apply(&c->rec, key, value, cause);
	}
	return 0;
}

static int
cmd_serve_exec(int argc, char **argv)
{
	const struct config	*cfg;
	struct cmd_serve	 c;
	struct args_end		 end;
	struct sandbox_opts	 sbo;
	struct cli_guard_paths	 own;
	struct tui_opts		 to;
	struct server		*sv = NULL;
	struct cli_server_opts	*so = &c.o;
	char			*state_dir = NULL, *cause = NULL;
	int			 rc;

	memset(&c, 0, sizeof c);
	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	if ((rc = args_parse(&cmd_serve_entry, argc, argv, &c,
	    &end)) != ARGS_GO_ON)
		goto out;
	if (end.first < argc) {
		cli_error("serve", "unexpected argument '%s'",
		    argv[end.first]);
		rc = CLI_EXIT_ERROR;
		goto out;
	}
	/* What the command line left open, the settings file may say. */
	cli_server_opts_defaults(cfg, so);
	if (c.sandbox != NULL)
		(void)sandbox_profile_lookup(c.sandbox, &so->srv.profile);
	else if (!config_sandbox_profile(cfg, &so->srv.profile))
		so->srv.profile = SANDBOX_WORKSPACE_WRITE;
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
	so->srv.sandbox = &sbo;
	so->srv.console = &to;
	so->srv.log_fd = STDERR_FILENO;
	so->srv.log_tag = CMD_SERVE_LOG_TAG;
	so->srv.end_words = "shutting down";
	so->srv.log_console_end = true;
	so->srv.forget_ended = true;
	if ((state_dir = cli_state_dir(cfg, &cause)) == NULL)
		goto fail;
	so->srv.state_dir = state_dir;
	recopts_bounds(&c.rec, cfg, state_dir, &so->srv.bounds);
	own.settings = so->settings;
	own.rules = so->srv.rules;
	own.socket = so->socket;
	own.state_dir = state_dir;
	own.notify = so->srv.notify;
	if (cli_guard_own(&sbo, &own, &cause) != 0)
		goto fail;
	if ((sv = server_new(&so->srv, &cause)) == NULL)
		goto fail;
	if (loop_add_signal(server_loop(sv), SIGTERM, cmd_serve_signal, sv,
	    &cause) != 0 ||
	    loop_add_signal(server_loop(sv), SIGINT, cmd_serve_signal, sv,
	    &cause) != 0 ||
	    loop_add_signal(server_loop(sv), SIGHUP, cmd_serve_sighup, sv,
	    &cause) != 0)
		goto fail;
	server_follow(sv);
	if (server_listen(sv, so->socket, c.keep, &cause) != 0)
		goto fail;
	cause = xasprintf("listening on %s (approval %s, rules %s, state %s, "
	    "settings %s)", server_path(sv), policy_mode_name(so->srv.mode),
	    so->srv.rules, state_dir, config_path(cfg) != NULL ?
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
	cli_server_opts_free(so);
	return rc;
}

const struct cmd_entry cmd_serve_entry = {
	.name = "serve",
	.summary = "the core without a TUI: control socket, approvals",
	.exec = cmd_serve_exec,
	.options = cmd_serve_tables,
	.flags = ARGS_SEE_HELP,
	.usage = cmd_serve_usage,
	.option = cmd_serve_option,
};
