/*
 * cmd-run.c - `ptyvisor run`: one recorded session on the current terminal.
 *
 * When stdin and stdout are terminals the session is transparent: the
 * terminal is put in raw mode, keys go to the session, SIGWINCH resizes
 * it, and the terminal is restored on every way out; the terminal shows
 * the output and answers the program's queries, so no screen is kept
 * (a passthrough session).  Otherwise output is copied to stdout and
 * stdin is left alone, and ptyvisor's screen answers the queries.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "conf/config.h"
#include "base/loop.h"
#include "session/session.h"
#include "base/util.h"
#include "cli/netrules.h"
#include "cli/recopts.h"
#include "cli/sbopts.h"
#include "cli/term-raw.h"

/* The form of the command line, for the usage and its messages. */
#define CMD_RUN_USAGE	"ptyvisor run [OPTIONS] -- CMD [ARGS...]"

/* The session on this terminal. */
struct cmd_run {
	struct loop	*loop;
	struct sessions	*sessions;
	struct session	*session;
	bool		 tty;		/* transparent mode */
	bool		 ended;
};

/* What the command line asks. */
struct cmd_run_args {
	struct sandbox_opts	 sbo;	/* over the settings file's */
	struct pty_size		 size;
	bool			 size_given;
	const char		*cwd;
	const char		*rules;	/* --rules */
	long			 timeout;
	bool			 verbose;
	struct recopts		 rec;
};

static void
cmd_run_output(void *user, struct session *s, const char *data, size_t len)
{
	(void)user;
	(void)s;
	/* Blocking on purpose: a slow stdout slows the session (backpressure). */
	util_write_all(STDOUT_FILENO, data, len);
}

static void
cmd_run_ended(void *user, struct session *s)
{
	struct cmd_run	*r = user;

	(void)s;
	r->ended = true;
	loop_stop(r->loop);
}

static const struct session_events cmd_run_events = {
	.output = cmd_run_output,
	.ended = cmd_run_ended,
};

/* Keys from the person's terminal go to the session. */
static void
cmd_run_stdin(struct loop *l, int fd, short revents, void *arg)
{
	struct cmd_run	*r = arg;
	char		 buf[4096];
	ssize_t		 n;

	(void)revents;
	n = read(fd, buf, sizeof buf);
	if (n > 0 && r->session != NULL)
		session_write(r->session, buf, (size_t)n);
	else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
		loop_del_fd(l, fd);
}

/* The terminal's size, or 80x24. */
static struct pty_size
cmd_run_terminal_size(void)
{
	struct winsize	ws;
	struct pty_size	size = { 80, 24 };

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 &&
	    ws.ws_row > 0) {
		size.cols = ws.ws_col;
		size.rows = ws.ws_row;
	}
	return size;
}

static void
cmd_run_sigwinch(struct loop *l, int sig, void *arg)
{
	struct cmd_run	*r = arg;

	(void)l;
	(void)sig;
	if (r->session != NULL)
		session_resize(r->session, cmd_run_terminal_size());
}

/* SIGTERM/SIGHUP/SIGINT to ptyvisor: end the session, then exit. */
static void
cmd_run_sigterm(struct loop *l, int sig, void *arg)
{
	struct cmd_run	*r = arg;

	(void)l;
	(void)sig;
	if (r->session != NULL)
		session_kill(r->session);
}

/* The --help text. */
static void
cmd_run_usage(FILE *f)
{
	fprintf(f,
	    "usage: " CMD_RUN_USAGE "\n\n"
	    "Run CMD in a recorded, sandboxed PTY session on this terminal and\n"
	    "exit with its status.  On a terminal the session is transparent (keys pass\n"
	    "through, resizes follow); otherwise its output goes to stdout.\n\n"
	    "Options:\n"
	    "  --cols N        terminal width when stdout is not a terminal (80)\n"
	    "  --rows N        terminal height when stdout is not a terminal (24)\n"
	    "  --cwd DIR       run in DIR (default: the current directory)\n"
	    "  --timeout S     kill the command after S seconds (exit 124)\n"
	    "  -v, --verbose   say where the recording went\n"
	    "  -h, --help      show this help\n"
	    "%s%s%s\n"
	    "Exit status: the command's own; 128+N if killed by signal N;\n"
	    "124 timed out; 125 ptyvisor error; 126 not executable;\n"
	    "127 command not found.\n"
	    "Files: $PTYVISOR_STATE_DIR (else state_dir of the settings file,\n"
	    "else ~/.local/state/ptyvisor) holds sessions/ID.cast (asciicast\n"
	    "v2) and history.jsonl.  The [sandbox] settings of the file\n"
	    "($PTYVISOR_CONFIG/config, else $XDG_CONFIG_HOME/ptyvisor/config) are\n"
	    "the defaults of the sandbox options.\n",
	    recopts_help, sbopts_help, netrules_help);
}

enum {
	CMD_RUN_VERBOSE = 1,
	CMD_RUN_COLS,
	CMD_RUN_ROWS,
	CMD_RUN_CWD,
	CMD_RUN_TIMEOUT,
	CMD_RUN_RULES,
};

static const struct args_option cmd_run_options[] = {
	ARGS_HELP_OPTION,
	{ "verbose", 'v', false, CMD_RUN_VERBOSE },
	{ "cols", 0, true, CMD_RUN_COLS },
	{ "rows", 0, true, CMD_RUN_ROWS },
	{ "cwd", 0, true, CMD_RUN_CWD },
	{ "timeout", 0, true, CMD_RUN_TIMEOUT },
	{ "rules", 0, true, CMD_RUN_RULES },
	ARGS_END
};
static const struct args_option *const cmd_run_tables[] = {
	cmd_run_options, recopts_options, sbopts_options, NULL
};

/* Parse a number in [lo, hi] for option name. */
static int
cmd_run_number(const char *name, const char *arg, long lo, long hi,
    long *out, char **cause)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || v < lo || v > hi) {
		*cause = xasprintf("%s: '%s' is not a number from %ld to %ld",
		    name, arg, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* Take one option into a (args_parse()). */
static int
cmd_run_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_run_args	*a = state;
	long			 v;

	switch (key) {
	case CMD_RUN_VERBOSE:
		a->verbose = true;
		break;
	case CMD_RUN_COLS:
	case CMD_RUN_ROWS:
		if (cmd_run_number(key == CMD_RUN_COLS ? "--cols" : "--rows",
		    value, 2, 1000, &v, cause) != 0)
			return -1;
		if (key == CMD_RUN_COLS)
			a->size.cols = (unsigned short)v;
		else
			a->size.rows = (unsigned short)v;
		a->size_given = true;
		break;
	case CMD_RUN_CWD:
		a->cwd = value;
		break;
	case CMD_RUN_TIMEOUT:
		return cmd_run_number("--timeout", value, 1, 86400 * 365,
		    &a->timeout, cause);
	case CMD_RUN_RULES:
		a->rules = value;
		break;
	default:
		if (key >= RECOPTS_KEY)
			return recopts_apply(&a->rec, key, value, cause);
		return sbopts_apply(&a->sbo, key, value, cause);
	}
	return 0;
}

/*
 * r's loop, its sessions (recorded in state_dir, within the bounds of a's
 * options and cfg) and the signals.
 */
static int
cmd_run_setup(struct cmd_run *r, const struct cmd_run_args *a,
    const struct config *cfg, const char *state_dir, char **cause)
{
	struct session_bounds	b;

	if ((r->loop = loop_new(cause)) == NULL)
		return -1;
	if ((r->sessions = sessions_new(r->loop, state_dir, cause)) == NULL)
		return -1;
	recopts_bounds(&a->rec, cfg, state_dir, &b);
	sessions_set_bounds(r->sessions, &b);
	sessions_subscribe(r->sessions, &cmd_run_events, r);
	if (loop_add_signal(r->loop, SIGTERM, cmd_run_sigterm, r,
	    cause) != 0 ||
	    loop_add_signal(r->loop, SIGHUP, cmd_run_sigterm, r, cause) != 0 ||
	    loop_add_signal(r->loop, SIGINT, cmd_run_sigterm, r, cause) != 0 ||
	    loop_add_signal(r->loop, SIGWINCH, cmd_run_sigwinch, r,
	    cause) != 0)
		return -1;
	return 0;
}

/* Start cmd as a asks, the terminal raw when the session is transparent. */
static int
cmd_run_start(struct cmd_run *r, const struct cmd_run_args *a, char **cmd,
    char **cause)
{
	struct session_opts	so;

	memset(&so, 0, sizeof so);
	so.argv = cmd;
	so.sandbox = &a->sbo;
	so.cwd = a->cwd;
	so.size = a->size;
	so.timeout_s = (unsigned)a->timeout;
	so.term = getenv("TERM");
	so.passthrough = r->tty;
	so.queries_only = !r->tty;
	if (r->tty && term_raw(NULL) != 0) {
		*cause = xasprintf("cannot set the terminal to raw mode: %s",
		    strerror(errno));
		return -1;
	}
	if ((r->session = sessions_start(r->sessions, &so, cause)) == NULL)
		return -1;
	if (r->tty)
		loop_add_fd(r->loop, STDIN_FILENO, POLLIN, LOOP_PRIO_HIGH,
		    cmd_run_stdin, r);
	return 0;
}

/* The session ended: what went wrong, where it was recorded; its status. */
static int
cmd_run_result(const struct cmd_run *r, bool verbose)
{
	int	rc = session_exit_code(r->session);

	if (session_state(r->session) == SESSION_FAILED &&
	    !(r->tty && isatty(STDERR_FILENO)))
		cli_error("run", "%s", session_error(r->session));
	else if (session_error(r->session) != NULL &&
	    session_state(r->session) != SESSION_FAILED)
		cli_error("run", "%s", session_error(r->session));
	if (verbose)
		cli_error("run", "recording: %s",
		    session_recording(r->session));
	return rc;
}

/* Run cmd as a asks until it ends; the exit status. */
static int
cmd_run_session(struct cmd_run_args *a, const struct config *cfg, char **cmd)
{
	struct cmd_run		 r;
	struct cli_netrules	*rules = NULL;
	char			*state_dir = NULL, *cause = NULL;
	int			 rc = CLI_EXIT_ERROR;

	memset(&r, 0, sizeof r);
	/* A filtered network's rules, read as the server reads them. */
	if ((rules = netrules_new(cfg, a->rules, &a->sbo, &cause)) == NULL)
		goto out;
	r.tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (r.tty && !a->size_given)
		a->size = cmd_run_terminal_size();
	if ((state_dir = cli_state_dir(cfg, &cause)) == NULL ||
	    cmd_run_setup(&r, a, cfg, state_dir, &cause) != 0)
		goto out;
	if (!r.tty && getenv("TERM") == NULL)
		setenv("TERM", "xterm-256color", 1);
	if (cmd_run_start(&r, a, cmd, &cause) != 0)
		goto out;
	while (!r.ended)
		if (loop_run(r.loop) != 0)
			fatal("event loop: %s", strerror(errno));
	term_restore();
	rc = cmd_run_result(&r, a->verbose);
out:
	term_restore();
	if (r.session == NULL)
		cli_error("run", "%s", cause != NULL ? cause : "failed");
	free(cause);
	sessions_free(r.sessions);
	loop_free(r.loop);
	free(state_dir);
	netrules_free(rules);
	return rc;
}

/* `ptyvisor run`: the command line, then the session. */
static int
cmd_run_exec(int argc, char **argv)
{
	struct cmd_run_args	 a;
	const struct config	*cfg;
	struct cli_guard_paths	 own;
	struct args_end		 end;
	char			*cause = NULL;
	int			 rc = CLI_EXIT_ERROR;

	memset(&a, 0, sizeof a);
	a.size.cols = 80;
	a.size.rows = 24;
	/* The settings file first, so that the options override it. */
	if ((cfg = cli_config()) == NULL)
		goto out;
	sandbox_opts_init(&a.sbo);
	if (config_apply_sandbox(cfg, &a.sbo, &cause) != 0)
		goto out;
	if ((rc = args_parse(&cmd_run_entry, argc, argv, &a,
	    &end)) != ARGS_GO_ON)
		goto out;
	rc = CLI_EXIT_ERROR;
	memset(&own, 0, sizeof own);
	if (cli_guard_own(&a.sbo, &own, &cause) != 0)
		goto out;
	if (!end.dashdash && end.first < argc)
		cause = xstrdup("put -- before the command (usage: "
		    CMD_RUN_USAGE ")");
	else if (end.first >= argc)
		cause = xstrdup("no command given (usage: " CMD_RUN_USAGE ")");
	else
		rc = cmd_run_session(&a, cfg, argv + end.first);
out:
	if (cause != NULL)
		cli_error("run", "%s", cause);
	free(cause);
	return rc;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.summary = "run one recorded session on this terminal",
	.exec = cmd_run_exec,
	.options = cmd_run_tables,
	.flags = ARGS_EXACT | ARGS_SEE_HELP | ARGS_NAME_MISSING,
	.usage = cmd_run_usage,
	.option = cmd_run_option,
};
