/*
 * tui.c - `ptyvisor [OPTIONS] [-- CMD...]`: the interactive front end.
 *
 * The console is a client of a server, as tmux's are: a plain `ptyvisor`
 * attaches to the server on its socket (cli/attach.c), and when none
 * answers it first starts one, in the background, in a session of its
 * own, then attaches.  The server owns everything that must outlive a
 * terminal: the sessions, their recordings, the approval queue, the
 * agents' connections, and each console's front end (cli/consoles.c).
 * Closing the terminal, losing ssh or killing the client is a detach;
 * the server ends when a person quits it (asked when sessions run),
 * `ptyvisor kill-server`, SIGTERM, or --quit-when-done.
 *
 * --no-socket keeps the console in this process, on this terminal, with
 * no server (nobody could attach to it): closing it ends its sessions.
 *
 * The server's log goes to ptyvisor.log in the state directory.
 */
#include "cli/commands.h"
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "control/approval.h"
#include "control/client.h"
#include "conf/config.h"
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
	    "[-L NAME] [-- CMD [ARGS...]]\n\n"
	    "Open the supervisor console: sessions in tiled panes, their\n"
	    "history, scroll mode, and the agents' server: commands agents\n"
	    "submit ('ptyvisor exec') are judged by the rules, and those to\n"
	    "ask about wait in the approval prompt.  Keys: C-g then ? lists\n"
	    "them all.\n\n"
	    "The sessions live in a server: when one answers on the socket,\n"
	    "this attaches to it (as 'ptyvisor attach'; CMD, if given, opens\n"
	    "in a new pane); else it starts one, with CMD (default: $SHELL)\n"
	    "as the first session.  C-g d detaches, and so does closing the\n"
	    "terminal: everything keeps running; 'ptyvisor attach' comes\n"
	    "back, 'ptyvisor ls' lists servers, 'ptyvisor kill-server' ends\n"
	    "one.  The options below but -L, --socket and --no-socket set up\n"
	    "a new server; a running one keeps its own.\n\n"
	    "Options:\n"
	    "  --approval M      untrusted (default: ask unless a known\n"
	    "                    read-only command), on-request (ask), never\n"
	    "  --rules FILE      rules file (default $PTYVISOR_CONFIG/rules,\n"
	    "                    else $XDG_CONFIG_HOME/ptyvisor/rules)\n"
	    "  --socket PATH     the agents' socket (default $PTYVISOR_SOCKET,\n"
	    "                    else $XDG_RUNTIME_DIR/ptyvisor/ptyvisor.sock,\n"
	    "                    else /tmp/ptyvisor-$UID/ptyvisor.sock)\n"
	    "  -L NAME           the server named NAME: its socket NAME.sock\n"
	    "                    beside the default one (as tmux -L)\n"
	    "  --no-socket       no server: the console and its sessions\n"
	    "                    live in this process, agents cannot reach\n"
	    "                    it and closing the terminal ends them\n"
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
	    "ptyvisor.log (the server's log).\n",
	    sbopts_help);
}

/* The parsed command line: the console's options and a server's. */
struct tui_args {
	struct tui_opts		 o;
	struct sandbox_opts	 sbo;
	struct cli_server_opts	 so;
	char *const		*cmd;
	const char		*name;		/* -L */
	const char		*socket;	/* --socket */
	bool			 no_socket;
	bool			 server_opts;	/* any that only a new server takes */
};

/* What the server's hooks need. */
struct tui_server {
	struct loop		*loop;
	struct sessions		*ss;
	struct tui		*tui;		/* --no-socket: the console */
	struct consoles		*consoles;
	struct control		*control;
	struct cli_agent_opts	 agents;
	int			 log_fd;	/* -1: no log */
	bool			 quit_when_done;
	bool			 stop;
};

/* An approved request becomes an agent session, at its pane's size. */
static struct session *
tui_spawn(void *user, const struct approval_request *r, char **cause)
{
	struct tui_server	*sv = user;
	struct cli_agent_opts	 o = sv->agents;
	struct pty_size		 size;

	if (sv->tui != NULL || consoles_next_size(sv->consoles, &size)) {
		if (sv->tui != NULL)
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
	if (level == CLI_REPORT_NOTE)
		return;
	if (sv->tui != NULL)
		tui_status(sv->tui, line);
	consoles_status(sv->consoles, line);
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

/* Parse the command line into a; 0 to go on, else the exit status. */
static int
tui_parse(struct tui_args *a, int argc, char **argv, int *mouse)
{
	const struct config	*cfg;
	const char		*v;
	char			*cause = NULL;
	int			 i = 1, k;

	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	/* The settings file first: the command line overrides it. */
	sandbox_opts_init(&a->sbo);
	if (config_apply_sandbox(cfg, &a->sbo, &cause) != 0) {
		cli_error(NULL, "%s", cause);
		free(cause);
		return CLI_EXIT_ERROR;
	}
	a->o.sandbox = &a->sbo;
	while (i < argc && strcmp(argv[i], "--") != 0) {
		if ((k = sbopts_parse(&a->sbo, argc, argv, &i, &cause)) < 0) {
			cli_error(NULL, "%s", cause);
			free(cause);
			return CLI_EXIT_ERROR;
		}
		if (k > 0) {
			a->server_opts = true;
			continue;
		}
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			tui_usage(stdout);
			return -1;
		}
		if (strcmp(argv[i], "--quit-when-done") == 0) {
			a->o.quit_when_done = true;
			a->server_opts = true;
		} else if (strcmp(argv[i], "--mouse") == 0)
			*mouse = 1;
		else if (strcmp(argv[i], "--no-mouse") == 0)
			*mouse = 0;
		else if (strcmp(argv[i], "--no-socket") == 0)
			a->no_socket = true;
		else if (strcmp(argv[i], "-L") == 0 && i + 1 < argc)
			a->name = argv[++i];
		else if ((v = tui_value("--prefix", argc, argv, &i)) != NULL) {
			/* C-a .. C-z, as tmux names them. */
			if (strlen(v) != 3 || (v[0] != 'C' && v[0] != 'c') ||
			    v[1] != '-' || v[2] < 'a' || v[2] > 'z') {
				cli_error(NULL, "--prefix: '%s' is not C-a to "
				    "C-z", v);
				return CLI_EXIT_ERROR;
			}
			a->o.prefix = v[2];
			a->server_opts = true;
		} else if ((v = tui_value("--approval", argc, argv,
		    &i)) != NULL) {
			if (policy_mode_parse(v, &a->so.mode) != 0) {
				cli_error(NULL, "--approval: '%s' is not "
				    "untrusted, on-request or never", v);
				return CLI_EXIT_ERROR;
			}
			a->so.mode_given = true;
			a->server_opts = true;
		} else if ((v = tui_value("--rules", argc, argv, &i)) != NULL) {
			free(a->so.rules);
			a->so.rules = xstrdup(v);
			a->server_opts = true;
		} else if ((v = tui_value("--socket", argc, argv,
		    &i)) != NULL)
			a->so.socket = a->socket = v;
		else if ((v = tui_value("--notify", argc, argv, &i)) != NULL) {
			a->so.notify = v;
			a->server_opts = true;
		} else if (argv[i][0] == '-') {
			cli_error(NULL, "unknown option '%s' (see 'ptyvisor "
			    "--help')", argv[i]);
			return CLI_EXIT_ERROR;
		} else {
			cli_error(NULL, "put -- before the command (usage: "
			    "ptyvisor [OPTIONS] -- CMD [ARGS...])");
			return CLI_EXIT_ERROR;
		}
		i++;
	}
	if (i + 1 < argc)
		a->cmd = argv + i + 1;
	/* What the command line left open, the settings file may say. */
	cli_server_defaults(cfg, &a->so);
	if (a->o.prefix == 0)
		a->o.prefix = config_prefix(cfg);
	a->o.scrollback = config_scrollback(cfg);
	a->o.mouse = *mouse >= 0 ? *mouse == 1 : config_mouse(cfg);
	return 0;
}

/* The server ends (a console's quit, kill-server, a signal, done). */
static void
tui_server_end(void *arg)
{
	struct tui_server	*sv = arg;

	sv->stop = true;
	loop_stop(sv->loop);
}

static void
tui_server_signal(struct loop *l, int sig, void *arg)
{
	struct tui_server	*sv = arg;
	char			*line;

	(void)l;
	line = xasprintf("%s: ending every session", strsignal(sig));
	tui_log(sv, line);
	free(line);
	tui_server_end(sv);
}

/* --quit-when-done: the last session ended. */
static void
tui_server_ended(void *user, struct session *s)
{
	struct tui_server	*sv = user;

	(void)s;
	if (sv->quit_when_done && sessions_running(sv->ss) == 0)
		tui_server_end(sv);
}

/* A running session's recording failed: the log says it at once. */
static void
tui_server_trouble(void *user, struct session *s)
{
	char	*line = cli_trouble_line(s);

	tui_log(user, line);
	free(line);
}

static const struct session_events tui_server_events = {
	.ended = tui_server_ended,
	.trouble = tui_server_trouble,
};

static void
tui_shutdown(void *user)
{
	tui_log(user, "asked to end: ending every session");
	tui_server_end(user);
}

/* What the server and a console of its own both start from. */
struct tui_core {
	struct policy		*policy;
	struct approval		*approval;
	char			*state_dir;
	char			*history;
};

/*
 * The policy (a rules file that does not parse stops everything), the
 * state directory and its history, the loop, the sessions (which make
 * the directory) and the approval queue.  -1 with *cause.
 */
static int
tui_core_open(struct tui_args *a, struct tui_server *sv, struct tui_core *k,
    char **cause)
{
	memset(k, 0, sizeof *k);
	if ((k->policy = cli_agents_policy(&a->so, cause)) == NULL)
		return -1;
	if ((k->state_dir = cli_state_dir(cli_config(), cause)) == NULL)
		return -1;
	k->history = statedir_history_path(k->state_dir);
	a->o.history_path = k->history;
	if ((sv->loop = loop_new(cause)) == NULL)
		return -1;
	if ((sv->ss = sessions_new(sv->loop, k->state_dir, cause)) == NULL)
		return -1;
	k->approval = cli_agents_queue(sv->loop, k->policy, &a->so,
	    sandbox_profile_name(a->sbo.profile), k->history);
	a->o.approval_mode = policy_mode_name(a->so.mode);
	a->o.approval = k->approval;
	return 0;
}

/* Free what tui_core_open made (the sessions first: their exits report). */
static void
tui_core_close(struct tui_server *sv, struct tui_core *k)
{
	approval_free(k->approval);
	policy_free(k->policy);
	loop_free(sv->loop);
	free(k->history);
	free(k->state_dir);
}

/*
 * Run the server (in the background process): everything but a terminal.
 * Says "ok" on status_fd once it listens, else why not, and closes it.
 */
static int
tui_server_run(struct tui_args *a, const char *path, int status_fd)
{
	struct control_hooks	 hooks = { .spawn = tui_spawn, .log = tui_log,
				    .shutdown = tui_shutdown };
	struct tui_server	 sv;
	struct tui_core		 k;
	struct cli_follow	*follow = NULL;
	char			*cause = NULL, *logpath, *line;
	int			 rc = CLI_EXIT_ERROR;

	memset(&sv, 0, sizeof sv);
	sv.log_fd = -1;
	if (tui_core_open(a, &sv, &k, &cause) != 0)
		goto fail;
	logpath = xasprintf("%s/ptyvisor.log", k.state_dir);
	sv.log_fd = open(logpath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
	    0600);
	free(logpath);
	/* What nothing else catches (a fatal error) ends in the log too. */
	if (sv.log_fd >= 0)
		(void)dup2(sv.log_fd, STDERR_FILENO);
	sv.agents.sandbox = &a->sbo;
	sv.agents.scrollback = a->o.scrollback;
	sv.quit_when_done = a->o.quit_when_done;
	a->o.agents = true;
	sv.consoles = consoles_new(sv.loop, sv.ss, &a->o, tui_server_end, &sv);
	consoles_hooks(sv.consoles, &hooks);
	sv.control = control_new(sv.loop, sv.ss, k.approval, path, &hooks, &sv,
	    &cause);
	if (sv.control == NULL)
		goto fail;
	sv.agents.socket = control_path(sv.control);
	sessions_subscribe(sv.ss, &tui_server_events, &sv);
	follow = cli_follow_new(sv.loop, k.approval, &a->so, tui_report, &sv);
	if (loop_add_signal(sv.loop, SIGTERM, tui_server_signal, &sv,
	    &cause) != 0 ||
	    loop_add_signal(sv.loop, SIGHUP, tui_server_signal, &sv,
	    &cause) != 0 ||
	    loop_add_signal(sv.loop, SIGINT, tui_server_signal, &sv,
	    &cause) != 0)
		goto fail;
	line = xasprintf("listening on %s (approval %s, rules %s), pid %ld",
	    control_path(sv.control), policy_mode_name(a->so.mode),
	    a->so.rules, (long)getpid());
	tui_log(&sv, line);
	free(line);
	(void)util_write_all(status_fd, "ok\n", 3);
	close(status_fd);
	status_fd = -1;
	while (!sv.stop)
		if (loop_once(sv.loop, -1) != 0)
			fatal("event loop: %s", strerror(errno));
	/* Every console hears it first, then the sessions end. */
	consoles_end_all(sv.consoles, "server exited");
	control_flush_all(sv.control, 1000);
	rc = 0;
	goto out;

fail:
	line = xasprintf("%s\n", cause != NULL ? cause : "failed");
	if (status_fd >= 0)
		(void)util_write_all(status_fd, line, strlen(line));
	tui_log(&sv, line);
	free(line);
	free(cause);
out:
	if (status_fd >= 0)
		close(status_fd);
	/* Sessions first: their exits still reach the agents. */
	sessions_free(sv.ss);
	control_free(sv.control);
	cli_follow_free(follow);
	consoles_free(sv.consoles);
	tui_core_close(&sv, &k);
	if (sv.log_fd >= 0)
		close(sv.log_fd);
	return rc;
}

/*
 * Start a server on path in the background: its own session, no
 * terminal, reparented away from us.  0 once it listens, else the exit
 * status (the reason said).
 */
static int
tui_server_start(struct tui_args *a, const char *path)
{
	struct buf	 msg = { 0 };
	char		 b[512];
	pid_t		 pid;
	ssize_t		 n;
	int		 p[2], fd, status;

	if (pipe2(p, O_CLOEXEC) != 0) {
		cli_error(NULL, "pipe: %s", strerror(errno));
		return CLI_EXIT_ERROR;
	}
	fflush(NULL);
	if ((pid = fork()) < 0) {
		cli_error(NULL, "fork: %s", strerror(errno));
		return CLI_EXIT_ERROR;
	}
	if (pid == 0) {
		close(p[0]);
		if (setsid() < 0 || (pid = fork()) < 0)
			_exit(CLI_EXIT_ERROR);
		if (pid > 0)
			_exit(0);
		if ((fd = open("/dev/null", O_RDWR | O_CLOEXEC)) >= 0) {
			(void)dup2(fd, STDIN_FILENO);
			(void)dup2(fd, STDOUT_FILENO);
			(void)dup2(fd, STDERR_FILENO);
			if (fd > STDERR_FILENO)
				close(fd);
		}
		exit(tui_server_run(a, path, p[1]));
	}
	close(p[1]);
	(void)waitpid(pid, &status, 0);
	while ((n = read(p[0], b, sizeof b)) > 0 ||
	    (n < 0 && errno == EINTR))
		if (n > 0)
			buf_add(&msg, b, (size_t)n);
	close(p[0]);
	if (msg.len >= 3 && memcmp(msg.data, "ok\n", 3) == 0) {
		buf_free(&msg);
		return 0;
	}
	while (msg.len > 0 && msg.data[msg.len - 1] == '\n')
		msg.len--;
	cli_error(NULL, "the server did not start: %.*s", (int)msg.len,
	    msg.len > 0 ? msg.data : "it ended without a word");
	buf_free(&msg);
	return CLI_EXIT_ERROR;
}

/* --no-socket: the console and its sessions in this process. */
static int
tui_alone(struct tui_args *a)
{
	struct tui_server	 sv;
	struct tui_core		 k;
	struct cli_follow	*follow = NULL;
	struct tui		*t = NULL;
	char			*cause = NULL;
	int			 rc = CLI_EXIT_ERROR;

	memset(&sv, 0, sizeof sv);
	sv.log_fd = -1;
	/* A rules file that does not parse stops us before the screen. */
	if (tui_core_open(a, &sv, &k, &cause) != 0)
		goto fail;
	a->o.agents = false;
	if ((t = tui_new(sv.loop, sv.ss, &a->o, &cause)) == NULL)
		goto fail;
	sv.tui = t;
	follow = cli_follow_new(sv.loop, k.approval, &a->so, tui_report, &sv);
	if (loop_add_signal(sv.loop, SIGWINCH, tui_sigwinch, t, &cause) != 0 ||
	    loop_add_signal(sv.loop, SIGTERM, tui_sigquit, t, &cause) != 0 ||
	    loop_add_signal(sv.loop, SIGHUP, tui_sigquit, t, &cause) != 0 ||
	    loop_add_signal(sv.loop, SIGINT, tui_sigquit, t, &cause) != 0)
		goto fail;
	if (tui_new_session(t, a->cmd, &cause) != 0)
		goto fail;
	rc = tui_run(t);
	goto out;

fail:
	tui_restore_terminal();
	cli_error(NULL, "%s", cause != NULL ? cause : "failed");
	free(cause);
out:
	sessions_free(sv.ss);
	cli_follow_free(follow);
	tui_free(t);
	tui_core_close(&sv, &k);
	return rc;
}

/* Whether a server answers on path. */
static bool
tui_server_answers(const char *path)
{
	struct client	*cl;
	char		*cause = NULL;

	if ((cl = client_connect(path, 2000, &cause)) == NULL) {
		free(cause);
		return false;
	}
	client_free(cl);
	return true;
}

int
cmd_tui(int argc, char **argv)
{
	struct tui_args	 a;
	char		*path;
	int		 mouse = -1, rc;

	memset(&a, 0, sizeof a);
	if ((rc = tui_parse(&a, argc, argv, &mouse)) != 0) {
		cli_server_opts_free(&a.so);
		return rc < 0 ? 0 : rc;
	}
	setlocale(LC_ALL, "");
	signal(SIGPIPE, SIG_IGN);
	if (a.no_socket) {
		rc = tui_alone(&a);
		cli_server_opts_free(&a.so);
		return rc;
	}
	/* --socket, else -L NAME, else $PTYVISOR_SOCKET, the file, the default. */
	if ((path = cli_socket_for(a.name, a.socket != NULL || a.name ==
	    NULL ? a.so.socket : NULL)) == NULL) {
		cli_error(NULL, "-L '%s': a name is letters, digits, '-', '_' "
		    "and '.' (not first), at most 64", a.name);
		cli_server_opts_free(&a.so);
		return CLI_EXIT_ERROR;
	}
	if (tui_server_answers(path)) {
		if (a.server_opts)
			fprintf(stderr, "ptyvisor: a server runs on %s: "
			    "attaching to it (its own settings stay)\n", path);
		rc = cli_attach(path, a.cmd, a.cmd != NULL, false);
	} else if ((rc = tui_server_start(&a, path)) == 0)
		rc = cli_attach(path, a.cmd, true, false);
	free(path);
	cli_server_opts_free(&a.so);
	return rc;
}
