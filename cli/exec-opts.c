/*
 * exec-opts.c - the command line of `ptyvisor exec`: its help, its options
 * and their values checked into the request's (exec-opts.h); running it
 * is cmd-exec.c's.
 */
#include "cli/exec-opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "control/proto.h"
#include "net/hostlist.h"

void
exec_opts_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor exec [OPTIONS] -- CMD [ARGS...]\n"
	    "       ptyvisor exec [OPTIONS] -c STRING\n"
	    "       ptyvisor-sh -c STRING   (or -lc STRING)\n\n"
	    "Ask the running ptyvisor (TUI or 'serve') to run CMD: the rules\n"
	    "decide or a person approves; the output comes back here and the\n"
	    "exit status is CMD's.  -c STRING runs 'sh -c STRING'.  Like\n"
	    "sh -c, CMD gets our environment, and pipes for whichever of our\n"
	    "stdin, stdout and stderr are not terminals (one pipe for stdout\n"
	    "and stderr when they are one file, as after 2>&1; a stdin on\n"
	    "/dev/null is CMD's own).\n\n"
	    "Options:\n"
	    "  --cwd DIR       run in DIR (default: the current directory)\n"
	    "  --timeout S     kill CMD after S seconds (exit 124)\n"
	    "  --sandbox P     read-only, workspace-write or "
	    "danger-full-access\n"
	    "  --network       allow network access\n"
	    "  --network-allow LIST\n"
	    "                  reach only these hosts, through ptyvisor's\n"
	    "                  proxy (names, *.domain, ADDR/BITS, :PORT;\n"
	    "                  localhost:PORT the host's own port, unix:PATH\n"
	    "                  a socket of the host; comma-separated,\n"
	    "                  repeatable; asked)\n"
	    "  --why TEXT      the reason, shown to the person approving\n"
	    "  --socket PATH   the server's socket (default $PTYVISOR_SOCKET,\n"
	    "                  the settings file's, else the usual one)\n"
	    "  --cwd-file F    CMD being SHELL -c STRING: write the directory\n"
	    "                  it ended in to F (empty if it reported none),\n"
	    "                  for a caller that keeps it, as after cd\n"
	    "  -e NAME=VALUE   set a variable for CMD (repeatable; asked)\n"
	    "  --raw           copy the exact output bytes (the default)\n"
	    "  --text          print what a terminal shows, as plain text\n"
	    "                  (CMD's stdout is then the terminal)\n"
	    "  -h, --help      show this help\n\n"
	    "Exit status: CMD's own; 128+N if killed by signal N; 124 timed\n"
	    "out; 125 ptyvisor error (no server, bad arguments); 126 denied\n"
	    "(the reason on stderr); 127 command not found.\n");
}

enum {
	CMD_EXEC_CWD = 256,
	CMD_EXEC_TIMEOUT,
	CMD_EXEC_SANDBOX,
	CMD_EXEC_NETWORK,
	CMD_EXEC_NETWORK_ALLOW,
	CMD_EXEC_WHY,
	CMD_EXEC_SOCKET,
	CMD_EXEC_RAW,
	CMD_EXEC_TEXT,
	CMD_EXEC_CWD_FILE,
};

static const struct args_option cmd_exec_options[] = {
	{ "cwd", 0, true, CMD_EXEC_CWD },
	{ "timeout", 0, true, CMD_EXEC_TIMEOUT },
	{ "sandbox", 0, true, CMD_EXEC_SANDBOX },
	{ "network", 0, false, CMD_EXEC_NETWORK },
	{ "network-allow", 0, true, CMD_EXEC_NETWORK_ALLOW },
	{ "why", 0, true, CMD_EXEC_WHY },
	{ "socket", 0, true, CMD_EXEC_SOCKET },
	{ "raw", 0, false, CMD_EXEC_RAW },
	{ "text", 0, false, CMD_EXEC_TEXT },
	{ "cwd-file", 0, true, CMD_EXEC_CWD_FILE },
	ARGS_HELP_OPTION,
	{ NULL, 'c', true, 'c' },
	{ NULL, 'e', true, 'e' },
	ARGS_END
};
const struct args_option *const exec_opts_tables[] = {
	cmd_exec_options, NULL
};

/* Take one option into the request's values (args_parse()). */
int
exec_opts_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_exec	*o = state;
	char		*end, *why = NULL, *joined;

	switch (key) {
	case CMD_EXEC_CWD:
		o->cwd = (char *)value;
		break;
	case CMD_EXEC_TIMEOUT:
		errno = 0;
		o->timeout = strtol(value, &end, 10);
		if (errno != 0 || *end != '\0' || o->timeout < 1 ||
		    o->timeout > PROTO_TIMEOUT_MAX_S) {
			*cause = xasprintf("--timeout: '%s' is not a number "
			    "of seconds", value);
			return -1;
		}
		break;
	case CMD_EXEC_SANDBOX:
		o->sandbox = value;
		break;
	case CMD_EXEC_NETWORK:
		o->network = true;
		break;
	case CMD_EXEC_NETWORK_ALLOW:
		if (hostlist_check(value, &why) != 0) {
			*cause = xasprintf("--network-allow: %s", why);
			free(why);
			return -1;
		}
		joined = o->network_allow == NULL ? xstrdup(value) :
		    xasprintf("%s,%s", o->network_allow, value);
		free(o->network_allow);
		o->network_allow = joined;
		break;
	case CMD_EXEC_WHY:
		o->why = (char *)value;
		break;
	case CMD_EXEC_SOCKET:
		o->socket = value;
		break;
	case CMD_EXEC_RAW:
		o->mode = 'r';
		break;
	case CMD_EXEC_TEXT:
		o->mode = 't';
		break;
	case CMD_EXEC_CWD_FILE:
		o->cwd_file = value;
		break;
	case 'e':
		if (strchr(value, '=') == NULL || *value == '=') {
			*cause = xasprintf("-e: '%s' is not NAME=VALUE", value);
			return -1;
		}
		o->env = xreallocarray(o->env, o->nenv + 1, sizeof *o->env);
		o->env[o->nenv++] = (char *)value;
		break;
	case 'c':
		o->string = value;
		break;
	}
	return 0;
}

