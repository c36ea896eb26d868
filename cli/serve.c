/*
 * serve.c - `ptyvisor serve`: the core without curses (loop, sessions,
 * policy, approval queue, control socket), logging to stderr, and the
 * spawn hook that starts approved requests (shared with the TUI).
 *
 * SIGTERM, SIGINT and SIGHUP end it cleanly: every session is killed and
 * its recording flushed, clients hear the exits, the socket is removed.
 * Finished sessions are forgotten (a server runs for long).
 */
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
#include "policy/config.h"
#include "control/control.h"
#include "base/loop.h"
#include "policy/policy.h"
#include "session/session.h"
#include "record/statedir.h"
#include "base/util.h"

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
	bool			 stopping;
};

char *
cli_config_dir(void)
{
	const char	*s;

	if ((s = getenv("PTYVISOR_CONFIG")) != NULL && *s != '\0')
		return xstrdup(s);
	if ((s = getenv("XDG_CONFIG_HOME")) != NULL && *s == '/')
		return xasprintf("%s/ptyvisor", s);
	if ((s = getenv("HOME")) != NULL && *s != '\0')
		return xasprintf("%s/.config/ptyvisor", s);
	return xstrdup(".config/ptyvisor");
}

char *
cli_rules_path(void)
{
	char	*dir = cli_config_dir(), *p;

	p = xasprintf("%s/rules", dir);
	free(dir);
	return p;
}

/*
 * The environment an agent's command starts from: ours without LD_*, with
 * TERM.  The sandbox scrubs it to its allow-list; what the request sets
 * goes on top afterwards (session_opts.env_extra).
 */
static char **
cli_spawn_env(void)
{
	char	**v;
	size_t	  n = 0, i, k;

	v = xcalloc(strv_len(environ) + 2, sizeof *v);
	for (i = 0; environ[i] != NULL; i++) {
		if (strncmp(environ[i], "LD_", 3) == 0)
			continue;
		v[n++] = xstrdup(environ[i]);
	}
	for (k = 0; k < n; k++)
		if (strncmp(v[k], "TERM=", 5) == 0)
			break;
	if (k == n)
		v[n++] = xstrdup("TERM=xterm-256color");
	v[n] = NULL;
	return v;
}

struct session *
cli_spawn_request(struct sessions *ss, const struct approval_request *r,
    const struct cli_agent_opts *o, char **cause)
{
	struct session_opts	 so;
	struct sandbox_opts	 sbo;
	struct session		*s;
	char			**envp;
	size_t			  i;

	/*
	 * The sandbox the request asked for, network only if it asked; a
	 * profile we do not know fails the start (fail closed).
	 */
	if (o != NULL && o->sandbox != NULL)
		sbo = *o->sandbox;
	else
		sandbox_opts_init(&sbo);
	if (r->sandbox != NULL &&
	    sandbox_profile_parse(r->sandbox, &sbo.profile, cause) != 0)
		return NULL;
	sbo.network = r->network;
	envp = cli_spawn_env();
	memset(&so, 0, sizeof so);
	so.argv = r->argv;
	so.cwd = r->cwd;
	so.envp = envp;
	so.env_extra = r->env;
	if (o != NULL && o->cols > 0 && o->rows > 0) {
		so.size.cols = o->cols;
		so.size.rows = o->rows;
	} else {
		so.size.cols = (unsigned short)(r->cols > 0 ? r->cols : 80);
		so.size.rows = (unsigned short)(r->rows > 0 ? r->rows : 24);
	}
	so.timeout_s = (unsigned)((r->timeout_ms + 999) / 1000);
	so.sandbox = &sbo;
	so.scrollback = o != NULL ? o->scrollback : 0;
	for (i = 0; envp[i] != NULL; i++)
		if (strncmp(envp[i], "TERM=", 5) == 0)
			so.term = envp[i] + 5;
	so.decision = "approved";
	so.by = r->decided_by;
	so.agent = true;
	s = sessions_start(ss, &so, cause);
	strv_free(envp);
	return s;
}

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

static const struct session_events serve_session_events = {
	.ended = serve_ended,
};

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

static void
serve_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor serve [OPTIONS]\n\n"
	    "Run the core without a TUI: the control socket for agents\n"
	    "('ptyvisor exec'), the policy and the approval queue ('ptyvisor\n"
	    "pending', 'approve', 'deny').  Logs to stderr.  SIGTERM or SIGINT\n"
	    "stop it: running sessions are killed, recordings flushed.\n\n"
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
	struct control_hooks	 hooks = { serve_spawn, serve_log };
	struct serve		 sv;
	const struct config	*cfg;
	struct cli_server_opts	 so;
	enum sandbox_profile	 profile;
	const char		*sandbox = NULL;
	char			*state_dir = NULL, *cause = NULL;
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
			cli_error("serve", "%s '%s' (see 'ptyvisor serve "
			    "--help')", c == ':' ? "missing value for" :
			    "unknown option", argv[optind - 1]);
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
	sv.policy = policy_new(so.mode);
	if (config_apply_sandbox(cfg, &sv.sandbox, &cause) != 0)
		goto fail;
	if (policy_load_file(sv.policy, so.rules, &cause) != 0)
		goto fail;
	if ((state_dir = cli_state_dir(cfg, &cause)) == NULL)
		goto fail;
	if ((sv.loop = loop_new(&cause)) == NULL)
		goto fail;
	if ((sv.sessions = sessions_new(sv.loop, state_dir, &cause)) == NULL)
		goto fail;
	sessions_subscribe(sv.sessions, &serve_session_events, &sv);
	sv.approval = approval_new(sv.loop, sv.policy);
	approval_set_rules_path(sv.approval, so.rules);
	approval_set_notify(sv.approval, so.notify);
	if (sandbox != NULL)
		approval_set_default_sandbox(sv.approval, sandbox);
	if (loop_add_signal(sv.loop, SIGTERM, serve_signal, &sv, &cause) != 0 ||
	    loop_add_signal(sv.loop, SIGINT, serve_signal, &sv, &cause) != 0 ||
	    loop_add_signal(sv.loop, SIGHUP, serve_signal, &sv, &cause) != 0)
		goto fail;
	sv.control = control_new(sv.loop, sv.sessions, sv.approval, so.socket,
	    &hooks, &sv, &cause);
	if (sv.control == NULL)
		goto fail;
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
	/* Sessions first: their exits still reach the clients. */
	sessions_free(sv.sessions);
	sv.sessions = NULL;
	control_free(sv.control);
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
	approval_free(sv.approval);
	policy_free(sv.policy);
	loop_free(sv.loop);
	free(state_dir);
	cli_server_opts_free(&so);
	return CLI_EXIT_ERROR;
}
