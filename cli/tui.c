/*
 * tui.c - `ptyvisor [OPTIONS] [-- CMD...]`: the interactive front end.
 *
 * Wires the event loop, the sessions, the policy, the approval queue, the
 * control socket and the curses front end together, routes signals
 * (SIGWINCH resizes, SIGTERM/SIGHUP/SIGINT quit), and on the way out gives
 * the terminal back before killing and flushing every session.
 *
 * The console is also the agents' server: it listens on the control
 * socket unless another ptyvisor already does (then it says so and runs
 * without), and agents' sessions get the console's sandbox options with
 * the profile and network they asked for.  The server's log goes to
 * ptyvisor.log in the state directory (the terminal belongs to curses).
 */
#include "cli/commands.h"
#include "cli/cli.h"

#include <fcntl.h>
#include <locale.h>
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
#include "tui/tui.h"
#include "cli/sbopts.h"

static void
tui_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor [--sandbox P] [--approval M] [--quit-when-done] "
	    "[-- CMD [ARGS...]]\n\n"
	    "Open the supervisor console: sessions in tiled panes, their\n"
	    "history, scroll mode, and the agents' server: commands agents\n"
	    "submit ('ptyvisor exec') are judged by the rules, and those to\n"
	    "ask about wait in the approval prompt.  CMD (default: $SHELL)\n"
	    "is the first session.  Keys: C-g then ? lists them all.\n\n"
	    "Options:\n"
	    "  --approval M      untrusted (default: ask unless a known\n"
	    "                    read-only command), on-request (ask), never\n"
	    "  --rules FILE      rules file (default $PTYVISOR_CONFIG/rules,\n"
	    "                    else $XDG_CONFIG_HOME/ptyvisor/rules)\n"
	    "  --socket PATH     the agents' socket (default $PTYVISOR_SOCKET,\n"
	    "                    else $XDG_RUNTIME_DIR/ptyvisor/ptyvisor.sock,\n"
	    "                    else /tmp/ptyvisor-$UID/ptyvisor.sock)\n"
	    "  --no-socket       do not serve agents\n"
	    "  --notify PROG     run PROG with a JSON argument when a request\n"
	    "                    waits\n"
	    "  --quit-when-done  quit (status 0) once every session has ended\n"
	    "  --prefix C-x      the prefix key, C-a to C-z (default C-g)\n"
	    "  --mouse           take the mouse over the panes too: a click\n"
	    "                    focuses a pane, the wheel scrolls it ([tui]\n"
	    "                    mouse; off by default, as the terminal's own\n"
	    "                    selection then needs Shift)\n"
	    "  --no-mouse        leave the mouse to the terminal\n"
	    "  -h, --help        show this help\n"
	    "Every session is sandboxed (agents' ones too, with the profile\n"
	    "they ask for); the sandbox options:\n%s\n"
	    "Sessions see TERM=xterm-256color.  Files: $PTYVISOR_STATE_DIR\n"
	    "(default ~/.local/state/ptyvisor) holds recordings, history and\n"
	    "ptyvisor.log (the agents' server's log).\n",
	    sbopts_help);
}

/* What the control server's hooks need. */
struct tui_server {
	struct sessions		*ss;
	struct tui		*tui;
	struct cli_agent_opts	 agents;
	int			 log_fd;	/* -1: no log */
};

/* An approved request becomes an agent session, at its pane's size. */
static struct session *
tui_spawn(void *user, const struct approval_request *r, char **cause)
{
	struct tui_server	*sv = user;
	struct cli_agent_opts	 o = sv->agents;
	struct pty_size		 size;

	if (sv->tui != NULL) {
		size = tui_next_size(sv->tui);
		o.cols = size.cols;
		o.rows = size.rows;
	}
	return cli_spawn_request(sv->ss, r, &o, cause);
}

/* A line of the server's log, with a UTC timestamp, into ptyvisor.log. */
static void
tui_log(void *user, const char *line)
{
	struct tui_server	*sv = user;
	char			 when[64], *s;
	ssize_t			 n;

	if (sv->log_fd < 0)
		return;
	util_format_time(util_wall_us(), when, sizeof when);
	s = xasprintf("%s ptyvisor: %s\n", when, line);
	n = write(sv->log_fd, s, strlen(s));
	(void)n;	/* a full disk must not stop the console */
	free(s);
}

/*
 * What became of the rules or settings file: the log; changes and errors
 * on the status line too.
 */
static void
tui_report(void *user, enum cli_report level, const char *line)
{
	struct tui_server	*sv = user;

	tui_log(sv, line);
	if (sv->tui != NULL && level != CLI_REPORT_NOTE)
		tui_status(sv->tui, line);
}

/* Signal handlers run from the loop. */
static void
tui_sigwinch(struct loop *l, int sig, void *arg)
{
	(void)l;
	(void)sig;
	tui_resize(arg);
}

static void
tui_sigquit(struct loop *l, int sig, void *arg)
{
	(void)l;
	(void)sig;
	tui_quit(arg);
}

/* The value of option argv[*i] (--name VALUE or --name=VALUE), or NULL. */
static const char *
tui_value(const char *name, int argc, char **argv, int *i)
{
	size_t	len = strlen(name);

	if (strncmp(argv[*i], name, len) != 0)
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		cli_error(NULL, "%s needs a value", name);
		exit(CLI_EXIT_ERROR);
	}
	return argv[++*i];
}

int
cmd_tui(int argc, char **argv)
{
	int			 mouse = -1;	/* --mouse, --no-mouse; -1: file */
	struct tui_opts		 o;
	struct sandbox_opts	 sbo;
	struct control_hooks	 hooks = { tui_spawn, tui_log };
	struct tui_server	 sv;
	const struct config	*cfg;
	struct loop		*loop = NULL;
	struct sessions		*ss = NULL;
	struct policy		*policy = NULL;
	struct approval		*approval = NULL;
	struct control		*control = NULL;
	struct cli_follow	*follow = NULL;
	struct tui		*t = NULL;
	struct cli_server_opts	 so;
	const char		*v;
	char			*state_dir = NULL, *cause = NULL, *history = NULL;
	char			*logpath, *notice = NULL;
	char *const		*cmd = NULL;
	bool			 no_socket = false;
	int			 i = 1, k, rc = CLI_EXIT_ERROR;

	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	memset(&o, 0, sizeof o);
	memset(&so, 0, sizeof so);
	memset(&sv, 0, sizeof sv);
	sv.log_fd = -1;
	/* The settings file first: the command line overrides it. */
	sandbox_opts_init(&sbo);
	if (config_apply_sandbox(cfg, &sbo, &cause) != 0) {
		cli_error(NULL, "%s", cause);
		free(cause);
		return CLI_EXIT_ERROR;
	}
	o.sandbox = &sbo;
	while (i < argc && strcmp(argv[i], "--") != 0) {
		if ((k = sbopts_parse(&sbo, argc, argv, &i, &cause)) < 0) {
			cli_error(NULL, "%s", cause);
			free(cause);
			cli_server_opts_free(&so);
			return CLI_EXIT_ERROR;
		}
		if (k > 0)
			continue;
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			tui_usage(stdout);
			cli_server_opts_free(&so);
			return 0;
		}
		if (strcmp(argv[i], "--quit-when-done") == 0)
			o.quit_when_done = true;
		else if (strcmp(argv[i], "--mouse") == 0)
			mouse = 1;
		else if (strcmp(argv[i], "--no-mouse") == 0)
			mouse = 0;
		else if (strcmp(argv[i], "--no-socket") == 0)
			no_socket = true;
		else if ((v = tui_value("--prefix", argc, argv, &i)) != NULL) {
			/* C-a .. C-z, as tmux names them. */
			if (strlen(v) != 3 || (v[0] != 'C' && v[0] != 'c') ||
			    v[1] != '-' || v[2] < 'a' || v[2] > 'z') {
				cli_error(NULL, "--prefix: '%s' is not C-a to "
				    "C-z", v);
				cli_server_opts_free(&so);
				return CLI_EXIT_ERROR;
			}
			o.prefix = v[2];
		} else if ((v = tui_value("--approval", argc, argv,
		    &i)) != NULL) {
			if (policy_mode_parse(v, &so.mode) != 0) {
				cli_error(NULL, "--approval: '%s' is not "
				    "untrusted, on-request or never", v);
				cli_server_opts_free(&so);
				return CLI_EXIT_ERROR;
			}
			so.mode_given = true;
		} else if ((v = tui_value("--rules", argc, argv, &i)) != NULL) {
			free(so.rules);
			so.rules = xstrdup(v);
		} else if ((v = tui_value("--socket", argc, argv,
		    &i)) != NULL)
			so.socket = v;
		else if ((v = tui_value("--notify", argc, argv, &i)) != NULL)
			so.notify = v;
		else if (argv[i][0] == '-') {
			cli_error(NULL, "unknown option '%s' (see 'ptyvisor "
			    "--help')", argv[i]);
			cli_server_opts_free(&so);
			return CLI_EXIT_ERROR;
		} else {
			cli_error(NULL, "put -- before the command (usage: "
			    "ptyvisor [OPTIONS] -- CMD [ARGS...])");
			cli_server_opts_free(&so);
			return CLI_EXIT_ERROR;
		}
		i++;
	}
	if (i + 1 < argc)
		cmd = argv + i + 1;
	/* What the command line left open, the settings file may say. */
	cli_server_defaults(cfg, &so);
	if (o.prefix == 0)
		o.prefix = config_prefix(cfg);
	o.scrollback = config_scrollback(cfg);
	o.mouse = mouse >= 0 ? mouse == 1 : config_mouse(cfg);

	setlocale(LC_ALL, "");
	signal(SIGPIPE, SIG_IGN);
	/* A rules file that does not parse stops us before the screen. */
	if ((policy = cli_agents_policy(&so, &cause)) == NULL)
		goto fail;
	if ((state_dir = cli_state_dir(cfg, &cause)) == NULL)
		goto fail;
	history = statedir_history_path(state_dir);
	o.history_path = history;
	if ((loop = loop_new(&cause)) == NULL)
		goto fail;
	if ((ss = sessions_new(loop, state_dir, &cause)) == NULL)
		goto fail;
	approval = cli_agents_queue(loop, policy, &so,
	    sandbox_profile_name(sbo.profile), history);
	sv.ss = ss;
	sv.agents.sandbox = &sbo;
	sv.agents.scrollback = o.scrollback;
	if (!no_socket) {
		logpath = xasprintf("%s/ptyvisor.log", state_dir);
		sv.log_fd = open(logpath, O_WRONLY | O_APPEND | O_CREAT |
		    O_CLOEXEC, 0600);
		free(logpath);
		control = control_new(loop, ss, approval, so.socket, &hooks,
		    &sv, &cause);
		if (control == NULL) {
			/* The console still works; agents go elsewhere. */
			notice = xasprintf("agents off: %s", cause);
			tui_log(&sv, notice);
			free(cause);
			cause = NULL;
		} else {
			sv.agents.socket = control_path(control);
			cause = xasprintf("listening on %s (approval %s, rules "
			    "%s)", control_path(control),
			    policy_mode_name(so.mode), so.rules);
			tui_log(&sv, cause);
			free(cause);
			cause = NULL;
		}
	}
	o.approval_mode = policy_mode_name(so.mode);
	o.approval = approval;
	o.agents = control != NULL;
	o.notice = notice;
	if ((t = tui_new(loop, ss, &o, &cause)) == NULL)
		goto fail;
	sv.tui = t;
	follow = cli_follow_new(loop, approval, &so, tui_report, &sv);
	if (loop_add_signal(loop, SIGWINCH, tui_sigwinch, t, &cause) != 0 ||
	    loop_add_signal(loop, SIGTERM, tui_sigquit, t, &cause) != 0 ||
	    loop_add_signal(loop, SIGHUP, tui_sigquit, t, &cause) != 0 ||
	    loop_add_signal(loop, SIGINT, tui_sigquit, t, &cause) != 0)
		goto fail;
	if (tui_new_session(t, cmd, &cause) != 0)
		goto fail;
	rc = tui_run(t);
	goto out;

fail:
	tui_restore_terminal();
	cli_error(NULL, "%s", cause != NULL ? cause : "failed");
	free(cause);
out:
	/* Sessions first: their exits still reach the agents. */
	sessions_free(ss);
	control_free(control);
	cli_follow_free(follow);
	tui_free(t);
	approval_free(approval);
	policy_free(policy);
	loop_free(loop);
	if (sv.log_fd >= 0)
		close(sv.log_fd);
	free(notice);
	cli_server_opts_free(&so);
	free(history);
	free(state_dir);
	return rc;
}
