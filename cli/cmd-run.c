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
#include "cli/sbopts.h"
#include "cli/term-raw.h"

struct run {
	struct loop	*loop;
	struct sessions	*sessions;
	struct session	*session;
	bool		 tty;		/* transparent mode */
	bool		 ended;
};

static void
run_output(void *user, struct session *s, const char *data, size_t len)
{
	(void)user;
	(void)s;
	/* Blocking on purpose: a slow stdout slows the session (backpressure). */
	util_write_all(STDOUT_FILENO, data, len);
}

static void
run_ended(void *user, struct session *s)
{
	struct run	*r = user;

	(void)s;
	r->ended = true;
	loop_stop(r->loop);
}

static const struct session_events run_events = {
	.output = run_output,
	.ended = run_ended,
};

/* Keys from the person's terminal go to the session. */
static void
run_stdin(struct loop *l, int fd, short revents, void *arg)
{
	struct run	*r = arg;
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
run_terminal_size(void)
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
run_sigwinch(struct loop *l, int sig, void *arg)
{
	struct run	*r = arg;

	(void)l;
	(void)sig;
	if (r->session != NULL)
		session_resize(r->session, run_terminal_size());
}

/* SIGTERM/SIGHUP/SIGINT to ptyvisor: end the session, then exit. */
static void
run_sigterm(struct loop *l, int sig, void *arg)
{
	struct run	*r = arg;

	(void)l;
	(void)sig;
	if (r->session != NULL)
		session_kill(r->session);
}

static void
run_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor run [OPTIONS] -- CMD [ARGS...]\n\n"
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
	    "%s%s\n"
	    "Exit status: the command's own; 128+N if killed by signal N;\n"
	    "124 timed out; 125 ptyvisor error; 126 not executable;\n"
	    "127 command not found.\n"
	    "Files: $PTYVISOR_STATE_DIR (else state_dir of the settings file,\n"
	    "else ~/.local/state/ptyvisor) holds sessions/ID.cast (asciicast\n"
	    "v2) and history.jsonl.  The [sandbox] settings of the file\n"
	    "($PTYVISOR_CONFIG/config, else $XDG_CONFIG_HOME/ptyvisor/config) are\n"
	    "the defaults of the sandbox options.\n",
	    sbopts_help, netrules_help);
}

/* Parse a number in [lo, hi] for option name. */
static int
parse_num(const char *name, const char *arg, long lo, long hi, long *out)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || v < lo || v > hi) {
		cli_error("run", "%s: '%s' is not a number from %ld to %ld",
		    name, arg, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/*
 * If argv[*i] is option name (as "--name VALUE" or "--name=VALUE"), set
 * *value, advance *i past it and return 1; 0 if it is another word; -1
 * when the value is missing.
 */
static int
option_value(int argc, char **argv, int *i, const char *name,
    const char **value)
{
	size_t	len = strlen(name);

	if (strncmp(argv[*i], name, len) != 0)
		return 0;
	if (argv[*i][len] == '=') {
		*value = argv[*i] + len + 1;
		(*i)++;
		return 1;
	}
	if (argv[*i][len] != '\0')
		return 0;
	if (*i + 1 >= argc) {
		cli_error("run", "%s needs a value", name);
		return -1;
	}
	*value = argv[*i + 1];
	*i += 2;
	return 1;
}

int
cmd_run(int argc, char **argv)
{
	struct session_opts	 so;
	struct sandbox_opts	 sbo;
	const struct config	*cfg;
	struct run		 r;
	struct pty_size		 size = { 80, 24 };
	struct cli_netrules	*rules = NULL;
	const char		*cwd = NULL, *val, *rules_flag = NULL;
	char			*state_dir = NULL, *cause = NULL;
	long			 v, timeout = 0;
	bool			 verbose = false, size_given = false;
	int			 i = 1, k, rc;

	/* The settings file first, so that the options override it. */
	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	sandbox_opts_init(&sbo);
	if (config_apply_sandbox(cfg, &sbo, &cause) != 0) {
		cli_error("run", "%s", cause);
		free(cause);
		return CLI_EXIT_ERROR;
	}
	while (i < argc && strcmp(argv[i], "--") != 0) {
		if ((k = netrules_option(argc, argv, &i, &rules_flag,
		    &cause)) == 0)
			k = sbopts_parse(&sbo, argc, argv, &i, &cause);
		if (k < 0) {
			cli_error("run", "%s", cause);
			free(cause);
			return CLI_EXIT_ERROR;
		}
		if (k > 0)
			continue;
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			run_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "-v") == 0 ||
		    strcmp(argv[i], "--verbose") == 0) {
			verbose = true;
			i++;
			continue;
		}
		if ((k = option_value(argc, argv, &i, "--cols", &val)) != 0) {
			if (k < 0 || parse_num("--cols", val, 2, 1000, &v) != 0)
				return CLI_EXIT_ERROR;
			size.cols = (unsigned short)v;
			size_given = true;
		} else if ((k = option_value(argc, argv, &i, "--rows",
		    &val)) != 0) {
			if (k < 0 || parse_num("--rows", val, 2, 1000, &v) != 0)
				return CLI_EXIT_ERROR;
			size.rows = (unsigned short)v;
			size_given = true;
		} else if ((k = option_value(argc, argv, &i, "--cwd",
		    &val)) != 0) {
			if (k < 0)
				return CLI_EXIT_ERROR;
			cwd = val;
		} else if ((k = option_value(argc, argv, &i, "--timeout",
		    &val)) != 0) {
			if (k < 0 || parse_num("--timeout", val, 1,
			    86400 * 365, &timeout) != 0)
				return CLI_EXIT_ERROR;
		} else if (argv[i][0] == '-') {
			cli_error("run", "unknown option '%s' (see 'ptyvisor "
			    "run --help')", argv[i]);
			return CLI_EXIT_ERROR;
		} else {
			cli_error("run", "put -- before the command (usage: "
			    "ptyvisor run [OPTIONS] -- CMD [ARGS...])");
			return CLI_EXIT_ERROR;
		}
	}
	if (i + 1 >= argc) {
		cli_error("run", "no command given (usage: ptyvisor run "
		    "[OPTIONS] -- CMD [ARGS...])");
		return CLI_EXIT_ERROR;
	}
	i++;	/* past -- */
	/* A filtered network's rules, read as the server reads them. */
	if ((rules = netrules_new(cfg, rules_flag, &sbo, &cause)) == NULL) {
		cli_error("run", "%s", cause);
		free(cause);
		return CLI_EXIT_ERROR;
	}

	memset(&r, 0, sizeof r);
	r.tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (r.tty && !size_given)
		size = run_terminal_size();
	if ((state_dir = cli_state_dir(cfg, &cause)) == NULL)
		goto fail;
	if ((r.loop = loop_new(&cause)) == NULL)
		goto fail;
	if ((r.sessions = sessions_new(r.loop, state_dir, &cause)) == NULL)
		goto fail;
	sessions_subscribe(r.sessions, &run_events, &r);
	if (loop_add_signal(r.loop, SIGTERM, run_sigterm, &r, &cause) != 0 ||
	    loop_add_signal(r.loop, SIGHUP, run_sigterm, &r, &cause) != 0 ||
	    loop_add_signal(r.loop, SIGINT, run_sigterm, &r, &cause) != 0 ||
	    loop_add_signal(r.loop, SIGWINCH, run_sigwinch, &r, &cause) != 0)
		goto fail;
	if (!r.tty && getenv("TERM") == NULL)
		setenv("TERM", "xterm-256color", 1);

	memset(&so, 0, sizeof so);
	so.argv = argv + i;
	so.sandbox = &sbo;
	so.cwd = cwd;
	so.size = size;
	so.timeout_s = (unsigned)timeout;
	so.term = getenv("TERM");
	so.passthrough = r.tty;
	so.queries_only = !r.tty;
	if (r.tty && term_raw(NULL) != 0) {
		cause = xasprintf("cannot set the terminal to raw mode: %s",
		    strerror(errno));
		goto fail;
	}
	r.session = sessions_start(r.sessions, &so, &cause);
	if (r.session == NULL)
		goto fail;
	if (r.tty)
		loop_add_fd(r.loop, STDIN_FILENO, POLLIN, LOOP_PRIO_HIGH,
		    run_stdin, &r);
	while (!r.ended)
		if (loop_run(r.loop) != 0)
			fatal("event loop: %s", strerror(errno));

	term_restore();
	rc = session_exit_code(r.session);
	if (session_state(r.session) == SESSION_FAILED &&
	    !(r.tty && isatty(STDERR_FILENO)))
		cli_error("run", "%s", session_error(r.session));
	else if (session_error(r.session) != NULL &&
	    session_state(r.session) != SESSION_FAILED)
		cli_error("run", "%s", session_error(r.session));
	if (verbose)
		cli_error("run", "recording: %s",
		    session_recording(r.session));
	sessions_free(r.sessions);
	loop_free(r.loop);
	free(state_dir);
	netrules_free(rules);
	return rc;

fail:
	term_restore();
	cli_error("run", "%s", cause != NULL ? cause : "failed");
	free(cause);
	sessions_free(r.sessions);
	loop_free(r.loop);
	free(state_dir);
	netrules_free(rules);
	return CLI_EXIT_ERROR;
}
