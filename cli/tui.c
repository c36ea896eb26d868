/*
 * tui.c - `ptyvisor [OPTIONS] [-- CMD...]`: the interactive front end.
 *
 * Wires the event loop, the sessions and the curses front end together,
 * routes signals (SIGWINCH resizes, SIGTERM/SIGHUP/SIGINT quit), and on
 * the way out gives the terminal back before killing and flushing every
 * session.
 */
#include "cli/cli.h"

#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/loop.h"
#include "session/session.h"
#include "session/statedir.h"
#include "session/util.h"
#include "tui/tui.h"
#include "cli/sbopts.h"

static void
tui_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor [--sandbox P] [--approval M] [--quit-when-done] "
	    "[-- CMD [ARGS...]]\n\n"
	    "Open the supervisor console: sessions in tiled panes, their\n"
	    "history, scroll mode.  CMD (default: $SHELL) is the first\n"
	    "session.  Keys: C-g then ? lists them all.\n\n"
	    "Options:\n"
	    "  --approval M      approval mode (untrusted, on-request, never);\n"
	    "                    shown in the status line only for now\n"
	    "  --quit-when-done  quit (status 0) once every session has ended\n"
	    "  --prefix C-x      the prefix key, C-a to C-z (default C-g)\n"
	    "  -h, --help        show this help\n"
	    "Every session is sandboxed; the sandbox options:\n%s\n"
	    "Sessions see TERM=xterm-256color.  Files: $PTYVISOR_STATE_DIR\n"
	    "(default ~/.local/state/ptyvisor) holds recordings and history.\n",
	    sbopts_help);
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

int
cmd_tui(int argc, char **argv)
{
	struct tui_opts		 o;
	struct sandbox_opts	 sbo;
	struct loop		*loop = NULL;
	struct sessions		*ss = NULL;
	struct tui		*t = NULL;
	char			*state_dir = NULL, *cause = NULL, *history = NULL;
	char *const		*cmd = NULL;
	int			 i = 1, k, rc;

	memset(&o, 0, sizeof o);
	sandbox_opts_init(&sbo);
	o.sandbox = &sbo;
	while (i < argc && strcmp(argv[i], "--") != 0) {
		if ((k = sbopts_parse(&sbo, argc, argv, &i, &cause)) < 0) {
			cli_error(NULL, "%s", cause);
			free(cause);
			return CLI_EXIT_ERROR;
		}
		if (k > 0)
			continue;
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			tui_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--quit-when-done") == 0) {
			o.quit_when_done = true;
			i++;
		} else if (strcmp(argv[i], "--prefix") == 0 ||
		    strncmp(argv[i], "--prefix=", 9) == 0) {
			const char *v = argv[i][8] == '=' ? argv[i] + 9 :
			    i + 1 < argc ? argv[++i] : "";

			/* C-a .. C-z, as tmux names them. */
			if (strlen(v) != 3 || (v[0] != 'C' && v[0] != 'c') ||
			    v[1] != '-' || v[2] < 'a' || v[2] > 'z') {
				cli_error(NULL, "--prefix: '%s' is not C-a to "
				    "C-z", v);
				return CLI_EXIT_ERROR;
			}
			o.prefix = v[2];
			i++;
		} else if (strncmp(argv[i], "--approval=", 11) == 0) {
			o.approval = argv[i] + 11;
			i++;
		} else if (strcmp(argv[i], "--approval") == 0) {
			if (i + 1 >= argc) {
				cli_error(NULL, "--approval needs a value");
				return CLI_EXIT_ERROR;
			}
			o.approval = argv[i + 1];
			i += 2;
		} else if (argv[i][0] == '-') {
			cli_error(NULL, "unknown option '%s' (see 'ptyvisor "
			    "--help-tui')", argv[i]);
			return CLI_EXIT_ERROR;
		} else {
			cli_error(NULL, "put -- before the command (usage: "
			    "ptyvisor [OPTIONS] -- CMD [ARGS...])");
			return CLI_EXIT_ERROR;
		}
	}
	if (i + 1 < argc)
		cmd = argv + i + 1;

	setlocale(LC_ALL, "");
	if ((state_dir = statedir_path(&cause)) == NULL)
		goto fail;
	history = statedir_history_path(state_dir);
	o.history_path = history;
	if ((loop = loop_new(&cause)) == NULL)
		goto fail;
	if ((ss = sessions_new(loop, state_dir, &cause)) == NULL)
		goto fail;
	if ((t = tui_new(loop, ss, &o, &cause)) == NULL)
		goto fail;
	if (loop_add_signal(loop, SIGWINCH, tui_sigwinch, t, &cause) != 0 ||
	    loop_add_signal(loop, SIGTERM, tui_sigquit, t, &cause) != 0 ||
	    loop_add_signal(loop, SIGHUP, tui_sigquit, t, &cause) != 0 ||
	    loop_add_signal(loop, SIGINT, tui_sigquit, t, &cause) != 0)
		goto fail;
	if (tui_new_session(t, cmd, &cause) != 0)
		goto fail;
	rc = tui_run(t);
	sessions_free(ss);
	tui_free(t);
	loop_free(loop);
	free(history);
	free(state_dir);
	return rc;

fail:
	tui_restore_terminal();
	cli_error(NULL, "%s", cause != NULL ? cause : "failed");
	free(cause);
	sessions_free(ss);
	tui_free(t);
	loop_free(loop);
	free(history);
	free(state_dir);
	return CLI_EXIT_ERROR;
}
