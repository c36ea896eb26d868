/*
 * cmd-console.c - `ptyvisor [OPTIONS] [-- CMD...]`: the interactive front
 * end.
 *
 * The console is a client of a server, as tmux's are: a plain `ptyvisor`
 * attaches to the server on its socket (cli/cmd-attach.c), and when none
 * answers it first starts one, in the background, in a session of its
 * own, then attaches.  The server owns everything that must outlive a
 * terminal: the sessions, their recordings, the approval queue, the
 * agents' connections, and each console's front end (server/).
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

#include "base/loop.h"
#include "base/util.h"
#include "cli/recopts.h"
#include "cli/sbopts.h"
#include "conf/config.h"
#include "control/client.h"
#include "policy/policy.h"
#include "server/server.h"
#include "tui/tui.h"

static void
cmd_console_usage(FILE *f)
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
	    "%s"
	    "  -h, --help        show this help\n"
	    "Every session is sandboxed (agents' ones too, with the profile\n"
	    "they ask for); the sandbox options:\n%s\n"
	    "Sessions see TERM=xterm-256color.  Files: $PTYVISOR_STATE_DIR\n"
	    "(default ~/.local/state/ptyvisor) holds recordings, history and\n"
	    "ptyvisor.log (the server's log).\n",
	    recopts_help, sbopts_help);
}

/* The parsed command line: the console's options and a server's. */
struct cmd_console_args {
	struct tui_opts		 o;
	struct sandbox_opts	 sbo;
	struct cli_server_opts	 so;
	struct recopts		 rec;
	char *const		*cmd;
	const char		*name;		/* -L */
	const char		*socket;	/* --socket */
	bool			 no_socket;
	bool			 server_opts;	/* any that only a new server takes */
};

/* The tag of the server's lines in its log (ptyvisor.log). */
#define CMD_CONSOLE_LOG_TAG	"ptyvisor"

/* Signal handlers run from the loop. */
static void
cmd_console_sigwinch(struct loop *l, int sig, void *arg)
{
	(void)l;
	(void)sig;
	tui_resize(arg);
}

static void
cmd_console_sigquit(struct loop *l, int sig, void *arg)
{
	(void)l;
	(void)sig;
	tui_quit(arg);
}

/* The value of option argv[*i] (--name VALUE or --name=VALUE), or NULL. */
static const char *
cmd_console_value(const char *name, int argc, char **argv, int *i)
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
cmd_console_parse(struct cmd_console_args *a, int argc, char **argv, int *mouse)
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
		if ((k = sbopts_parse(&a->sbo, argc, argv, &i, &cause)) < 0 ||
		    (k == 0 && (k = recopts_parse(&a->rec, argc, argv, &i,
		    &cause)) < 0)) {
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
			cmd_console_usage(stdout);
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
		else if ((v = cmd_console_value("--prefix", argc, argv, &i)) != NULL) {
			/* C-a .. C-z, as tmux names them. */
			if (strlen(v) != 3 || (v[0] != 'C' && v[0] != 'c') ||
			    v[1] != '-' || v[2] < 'a' || v[2] > 'z') {
				cli_error(NULL, "--prefix: '%s' is not C-a to "
				    "C-z", v);
				return CLI_EXIT_ERROR;
			}
			a->o.prefix = v[2];
			a->server_opts = true;
		} else if ((v = cmd_console_value("--approval", argc, argv,
		    &i)) != NULL) {
			if (policy_mode_parse(v, &a->so.srv.mode) != 0) {
				cli_error(NULL, "--approval: '%s' is not "
				    "untrusted, on-request or never", v);
				return CLI_EXIT_ERROR;
			}
			a->so.srv.mode_given = true;
			a->server_opts = true;
		} else if ((v = cmd_console_value("--rules", argc, argv, &i)) != NULL) {
			free(a->so.rules);
			a->so.rules = xstrdup(v);
			a->server_opts = true;
		} else if ((v = cmd_console_value("--socket", argc, argv,
		    &i)) != NULL)
			a->so.socket = a->socket = v;
		else if ((v = cmd_console_value("--notify", argc, argv, &i)) != NULL) {
			a->so.srv.notify = v;
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
	cli_server_opts_defaults(cfg, &a->so);
	if (a->o.prefix == 0)
		a->o.prefix = config_prefix(cfg);
	a->o.scrollback = config_scrollback(cfg);
	a->o.mouse = *mouse >= 0 ? *mouse == 1 : config_mouse(cfg);
	return 0;
}

/* SIGTERM, SIGHUP, SIGINT: say so, then end every session. */
static void
cmd_console_server_signal(struct loop *l, int sig, void *arg)
{
	struct server	*sv = arg;
	char		*line;

	(void)l;
	line = xasprintf("%s: ending every session", strsignal(sig));
	server_log(sv, line);
	free(line);
	server_stop(sv);
}

/*
 * What the server and a console of its own both start from: the settings
 * and flags in a's server options, the state directory.  -1 with *cause.
 */
static int
cmd_console_server_opts(struct cmd_console_args *a, char **state_dir,
    char **cause)
{
	struct server_opts	*o = &a->so.srv;
	struct cli_guard_paths	 own;

	o->sandbox = &a->sbo;
	o->profile = a->sbo.profile;
	o->console = &a->o;
	o->log_fd = -1;
	o->log_tag = CMD_CONSOLE_LOG_TAG;
	o->end_words = "ending every session";
	if ((*state_dir = cli_state_dir(cli_config(), cause)) == NULL)
		return -1;
	o->state_dir = *state_dir;
	recopts_bounds(&a->rec, cli_config(), *state_dir, &o->bounds);
	own.settings = a->so.settings;
	own.rules = o->rules;
	own.socket = a->so.socket;
	own.state_dir = *state_dir;
	own.notify = o->notify;
	return cli_guard_own(&a->sbo, &own, cause);
}

/* The server's log: ptyvisor.log in its state directory, or -1. */
static int
cmd_console_server_log_open(const char *state_dir)
{
	char	*path = xasprintf("%s/ptyvisor.log", state_dir);
	int	 fd;

	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	free(path);
	return fd;
}

/*
 * Run the server (in the background process): everything but a terminal.
 * Says "ok" on status_fd once it listens, else why not, and closes it.
 */
static int
cmd_console_server_run(struct cmd_console_args *a, const char *path,
    int status_fd)
{
	struct server	*sv = NULL;
	struct loop	*loop;
	char		*cause = NULL, *line, *state_dir = NULL;
	int		 rc = CLI_EXIT_ERROR, log_fd = -1;

	a->so.srv.status_reports = true;
	a->so.srv.pane_size = true;
	a->so.srv.quit_when_done = a->o.quit_when_done;
	/* A rules file that does not parse stops us before the log opens. */
	if (cmd_console_server_opts(a, &state_dir, &cause) != 0 ||
	    (sv = server_new(&a->so.srv, &cause)) == NULL)
		goto fail;
	log_fd = cmd_console_server_log_open(state_dir);
	/* What nothing else catches (a fatal error) ends in the log too. */
	if (log_fd >= 0)
		(void)dup2(log_fd, STDERR_FILENO);
	server_set_log(sv, log_fd);
	loop = server_loop(sv);
	if (server_listen(sv, path, false, &cause) != 0)
		goto fail;
	server_follow(sv);
	if (loop_add_signal(loop, SIGTERM, cmd_console_server_signal, sv,
	    &cause) != 0 ||
	    loop_add_signal(loop, SIGHUP, cmd_console_server_signal, sv,
	    &cause) != 0 ||
	    loop_add_signal(loop, SIGINT, cmd_console_server_signal, sv,
	    &cause) != 0)
		goto fail;
	line = xasprintf("listening on %s (approval %s, rules %s), pid %ld",
	    server_path(sv), policy_mode_name(a->so.srv.mode),
	    a->so.srv.rules, (long)getpid());
	server_log(sv, line);
	free(line);
	(void)util_write_all(status_fd, "ok\n", 3);
	close(status_fd);
	status_fd = -1;
	while (!server_stopping(sv))
		if (loop_once(loop, -1) != 0)
			fatal("event loop: %s", strerror(errno));
	/* Every console hears it first, then the sessions end. */
	server_end_consoles(sv, "server exited");
	rc = 0;
	goto out;

fail:
	line = xasprintf("%s\n", cause != NULL ? cause : "failed");
	if (status_fd >= 0)
		(void)util_write_all(status_fd, line, strlen(line));
	server_log_line(log_fd, CMD_CONSOLE_LOG_TAG, line);
	free(line);
	free(cause);
out:
	if (status_fd >= 0)
		close(status_fd);
	server_free(sv);
	if (log_fd >= 0)
		close(log_fd);
	free(state_dir);
	return rc;
}

/*
 * Start a server on path in the background: its own session, no
 * terminal, reparented away from us.  0 once it listens, else the exit
 * status (the reason said).
 */
static int
cmd_console_server_start(struct cmd_console_args *a, const char *path)
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
		exit(cmd_console_server_run(a, path, p[1]));
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
cmd_console_alone(struct cmd_console_args *a)
{
	struct server	*sv = NULL;
	struct loop	*loop;
	struct tui	*t = NULL;
	char		*cause = NULL, *state_dir = NULL;
	int		 rc = CLI_EXIT_ERROR;

	/* A rules file that does not parse stops us before the screen. */
	if (cmd_console_server_opts(a, &state_dir, &cause) != 0)
		goto fail;
	a->so.srv.status_reports = true;
	if ((sv = server_new(&a->so.srv, &cause)) == NULL)
		goto fail;
	loop = server_loop(sv);
	a->o.agents = false;
	if ((t = tui_new(loop, server_sessions(sv), &a->o, &cause)) == NULL)
		goto fail;
	server_set_tui(sv, t);
	server_follow(sv);
	if (loop_add_signal(loop, SIGWINCH, cmd_console_sigwinch, t, &cause) != 0 ||
	    loop_add_signal(loop, SIGTERM, cmd_console_sigquit, t, &cause) != 0 ||
	    loop_add_signal(loop, SIGHUP, cmd_console_sigquit, t, &cause) != 0 ||
	    loop_add_signal(loop, SIGINT, cmd_console_sigquit, t, &cause) != 0)
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
	/* The sessions end before the front end that shows them (its). */
	server_free(sv);
	free(state_dir);
	return rc;
}

/* Whether a server answers on path. */
static bool
cmd_console_server_answers(const char *path)
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
	struct cmd_console_args	 a;
	char		*path;
	int		 mouse = -1, rc;

	memset(&a, 0, sizeof a);
	if ((rc = cmd_console_parse(&a, argc, argv, &mouse)) != 0) {
		cli_server_opts_free(&a.so);
		return rc < 0 ? 0 : rc;
	}
	setlocale(LC_ALL, "");
	signal(SIGPIPE, SIG_IGN);
	if (a.no_socket) {
		rc = cmd_console_alone(&a);
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
	if (cmd_console_server_answers(path)) {
		if (a.server_opts)
			fprintf(stderr, "ptyvisor: a server runs on %s: "
			    "attaching to it (its own settings stay)\n", path);
		rc = cli_attach(path, a.cmd, a.cmd != NULL, false);
	} else if ((rc = cmd_console_server_start(&a, path)) == 0)
		rc = cli_attach(path, a.cmd, true, false);
	free(path);
	cli_server_opts_free(&a.so);
	return rc;
}
