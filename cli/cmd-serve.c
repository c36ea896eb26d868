/*
 * serve.c - `ptyvisor serve`: the core without curses (loop, sessions,
 * policy, approval queue, control socket), logging to stderr, and the
 * approved requests it starts as agent sessions (cli/agents.c).
 *
 * The rules and settings files are followed: a change (or SIGHUP) reloads
 * them, and a file with an error changes nothing, with the error in the
 * log.
 * SIGTERM and SIGINT end it cleanly: every session is killed and
 * its recording flushed, clients hear the exits, the socket is removed.
 * Finished sessions are forgotten (a server runs for long).
 */
#include "cli/commands.h"
#include "cli/cli.h"
#include "sandbox/sandbox.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control/approval.h"
#include "conf/config.h"
#include "control/control.h"
#include "base/loop.h"
#include "policy/policy.h"
#include "session/session.h"
#include "record/statedir.h"
#include "base/util.h"
#include "tui/tui.h"

extern char **environ;

struct serve {
	struct loop		*loop;
	struct sessions		*sessions;
	struct policy		*policy;
	struct approval		*approval;
	struct control		*control;
	struct loop_timer	*forget_timer;
	struct sandbox_opts	 sandbox;	/* the settings file's */
	struct cli_agent_opts	 agents;
	struct cli_follow	*follow;
	struct consoles		*consoles;	/* ptyvisor attach */
	bool			 stopping;
};

/* The log: one line on stderr with a UTC timestamp. */
static void
serve_log(void *user, const char *line)
{
	char	when[64];

	(void)user;
	util_format_time(util_wall_us(), when, sizeof when);
	fprintf(stderr, "%s ptyvisor serve: %s\n", when, line);
}

static struct session *
serve_spawn(void *user, const struct approval_request *r, char **cause)
{
	struct serve	*sv = user;

	return cli_spawn_request(sv->sessions, r, &sv->agents, cause);
}

/* Forget finished sessions, from a timer (never inside their events). */
static void
serve_forget(struct loop *l, void *arg)
{
	struct serve	*sv = arg;
	size_t		 i = 0;

	(void)l;
	sv->forget_timer = NULL;
	/* A console shows ended sessions until its person closes them. */
	if (sv->consoles != NULL && consoles_count(sv->consoles) > 0)
		return;
	while (i < sessions_count(sv->sessions)) {
		struct session *s = sessions_at(sv->sessions, i);

		if (session_is_done(s))
			sessions_forget(sv->sessions, s);
		else
			i++;
	}
}

static void
serve_ended(void *user, struct session *s)
{
	struct serve	*sv = user;

	(void)s;
	if (!sv->stopping && sv->forget_timer == NULL)
		sv->forget_timer = loop_timer_add(sv->loop, 0, serve_forget,
		    sv);
}

/* A running session's recording failed: the log says it at once. */
static void
serve_trouble(void *user, struct session *s)
{
	char	*line = cli_trouble_line(s);

	serve_log(user, line);
	free(line);
}

static const struct session_events serve_session_events = {
	.ended = serve_ended,
	.trouble = serve_trouble,
};

/* A console's person quit it and chose to end the server, or kill-server. */
static void
serve_end(void *user)
{
	struct serve	*sv = user;

	serve_log(sv, "asked to end: shutting down");
	loop_stop(sv->loop);
}

static void
serve_signal(struct loop *l, int sig, void *arg)
{
	struct serve	*sv = arg;
	char		*line;

	line = xasprintf("%s: shutting down", strsignal(sig));
	serve_log(sv, line);
	free(line);
	loop_stop(l);
}

/* SIGHUP: read the settings and rules files again. */
static void
serve_sighup(struct loop *l, int sig, void *arg)
{
	struct serve	*sv = arg;

	(void)l;
	(void)sig;
	cli_follow_reload(sv->follow);
}

/* What became of the rules or settings file, into the log. */
static void
serve_report(void *user, enum cli_report level, const char *line)
{
	(void)level;
	serve_log(user, line);
}

static void
serve_usage(FILE *f)
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

int
cmd_serve(int argc, char **argv)
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
	struct control_hooks	 hooks = { .spawn = serve_spawn,
				    .log = serve_log, .shutdown = serve_end };
	struct tui_opts		 to;
	struct serve		 sv;
	const struct config	*cfg;
	struct cli_server_opts	 so;
	enum sandbox_profile	 profile;
	const char		*sandbox = NULL;
	char			*state_dir = NULL, *cause = NULL, *history;
	bool			 keep = false;
	int			 c;

	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	memset(&so, 0, sizeof so);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (policy_mode_parse(optarg, &so.mode) != 0) {
				cli_error("serve", "--approval: '%s' is not "
				    "untrusted, on-request or never", optarg);
				cli_server_opts_free(&so);
				return CLI_EXIT_ERROR;
			}
			so.mode_given = true;
			break;
		case 'r':
			free(so.rules);
			so.rules = xstrdup(optarg);
			break;
		case 's':
			so.socket = optarg;
			break;
		case 'S':
			if (strcmp(optarg, "read-only") != 0 &&
			    strcmp(optarg, "workspace-write") != 0 &&
			    strcmp(optarg, "danger-full-access") != 0) {
				cli_error("serve", "--sandbox: '%s' is not "
				    "read-only, workspace-write or "
				    "danger-full-access", optarg);
				cli_server_opts_free(&so);
				return CLI_EXIT_ERROR;
			}
			sandbox = optarg;
			break;
		case 'n':
			so.notify = optarg;
			break;
		case 'k':
			keep = true;
			break;
		case 'h':
			serve_usage(stdout);
			cli_server_opts_free(&so);
			return 0;
		default:
			cli_bad_option("serve", c, argv[optind - 1]);
			cli_server_opts_free(&so);
			return CLI_EXIT_ERROR;
		}
	}
	if (optind < argc) {
		cli_error("serve", "unexpected argument '%s'", argv[optind]);
		cli_server_opts_free(&so);
		return CLI_EXIT_ERROR;
	}
	/* What the command line left open, the settings file may say. */
	cli_server_defaults(cfg, &so);
	if (sandbox == NULL && config_sandbox_profile(cfg, &profile))
		sandbox = sandbox_profile_name(profile);

	memset(&sv, 0, sizeof sv);
	signal(SIGPIPE, SIG_IGN);
	/*
	 * Agents' sessions get the file's sandbox options (writable roots,
	 * limits...), with the profile and network their request asks for.
	 */
	sandbox_opts_init(&sv.sandbox);
	sv.agents.sandbox = &sv.sandbox;
	sv.agents.scrollback = config_scrollback(cfg);
	if (config_apply_sandbox(cfg, &sv.sandbox, &cause) != 0)
		goto fail;
	if ((sv.policy = cli_agents_policy(&so, &cause)) == NULL)
		goto fail;
	if ((state_dir = cli_state_dir(cfg, &cause)) == NULL)
		goto fail;
	if ((sv.loop = loop_new(&cause)) == NULL)
		goto fail;
	if ((sv.sessions = sessions_new(sv.loop, state_dir, &cause)) == NULL)
		goto fail;
	sessions_subscribe(sv.sessions, &serve_session_events, &sv);
	history = statedir_history_path(state_dir);
	sv.approval = cli_agents_queue(sv.loop, sv.policy, &so, sandbox,
	    history);
	free(history);
	if (loop_add_signal(sv.loop, SIGTERM, serve_signal, &sv, &cause) != 0 ||
	    loop_add_signal(sv.loop, SIGINT, serve_signal, &sv, &cause) != 0 ||
	    loop_add_signal(sv.loop, SIGHUP, serve_sighup, &sv, &cause) != 0)
		goto fail;
	sv.follow = cli_follow_new(sv.loop, sv.approval, &so, serve_report,
	    &sv);
	/* Consoles may attach ('ptyvisor attach'), as to the console's server. */
	memset(&to, 0, sizeof to);
	to.sandbox = &sv.sandbox;
	to.approval_mode = policy_mode_name(so.mode);
	to.approval = sv.approval;
	to.agents = true;
	to.prefix = config_prefix(cfg);
	to.mouse = config_mouse(cfg);
	to.scrollback = config_scrollback(cfg);
	history = statedir_history_path(state_dir);
	to.history_path = history;
	sv.consoles = consoles_new(sv.loop, sv.sessions, &to, serve_end, &sv);
	free(history);
	consoles_hooks(sv.consoles, &hooks);
	sv.control = control_new(sv.loop, sv.sessions, sv.approval, so.socket,
	    &hooks, &sv, &cause);
	if (sv.control == NULL)
		goto fail;
	sv.agents.socket = control_path(sv.control);
	control_set_keep_on_disconnect(sv.control, keep);
	cause = xasprintf("listening on %s (approval %s, rules %s, state %s, "
	    "settings %s)", control_path(sv.control), policy_mode_name(so.mode),
	    so.rules, state_dir, config_path(cfg) != NULL ? config_path(cfg) :
	    "none");
	serve_log(&sv, cause);
	free(cause);
	cause = NULL;

	if (loop_run(sv.loop) != 0)
		fatal("event loop: %s", strerror(errno));

	sv.stopping = true;
	consoles_end_all(sv.consoles, "server exited");
	control_flush_all(sv.control, 1000);
	/* Sessions first: their exits still reach the clients. */
	sessions_free(sv.sessions);
	sv.sessions = NULL;
	control_free(sv.control);
	consoles_free(sv.consoles);
	cli_follow_free(sv.follow);
	approval_free(sv.approval);
	policy_free(sv.policy);
	loop_free(sv.loop);
	serve_log(&sv, "stopped");
	free(state_dir);
	cli_server_opts_free(&so);
	return 0;

fail:
	cli_error("serve", "%s", cause != NULL ? cause : "failed");
	free(cause);
	control_free(sv.control);
	sessions_free(sv.sessions);
	consoles_free(sv.consoles);
	cli_follow_free(sv.follow);
	approval_free(sv.approval);
	policy_free(sv.policy);
	loop_free(sv.loop);
	free(state_dir);
	cli_server_opts_free(&so);
	return CLI_EXIT_ERROR;
}
