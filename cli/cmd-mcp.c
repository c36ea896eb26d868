/*
 * cmd-mcp.c - `ptyvisor mcp`: its options, the settings and the socket
 * path it needs, then the MCP server of mcp/mcpd.h (or --print-config's
 * snippet).  Everything the server does is there.
 */
#include "cli/commands.h"
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"
#include "conf/config.h"
#include "mcp/mcp-config.h"
#include "mcp/mcpd.h"
#include "mcp/outcap.h"

static void
mcp_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor mcp [OPTIONS]\n"
	    "       ptyvisor mcp --print-config claude|codex|gemini\n\n"
	    "An MCP server on stdin/stdout for coding agents: its tools (run,\n"
	    "session_start, session_send, session_output, session_kill,\n"
	    "session_list) ask the running ptyvisor (the console or 'serve')\n"
	    "to run commands, under its rules, approval, sandbox and\n"
	    "recording.  Speaks MCP 2026-07-28 (stateless) and 2025-11-25,\n"
	    "2025-06-18, 2025-03-26 (initialize).  See doc/agents.md.\n\n"
	    "Options:\n"
	    "  --socket PATH       the server's socket (default "
	    "$PTYVISOR_SOCKET,\n"
	    "                      the settings file's, else the usual one)\n"
	    "  --max-bytes N       cap of the text a call returns (default "
	    "[mcp]\n"
	    "                      max_bytes of the settings file, else "
	    "65536)\n"
	    "  --wait S            run's default wait_s (default 50)\n"
	    "  --print-config A    print the configuration for agent A "
	    "(claude,\n"
	    "                      codex, gemini) and exit\n"
	    "  -h, --help          show this help\n");
}

/* --print-config: the snippet for agent, with this binary's path. */
static int
mcp_print_config(const char *agent)
{
	char	*self = cli_self_path(), *cause = NULL;
	int	 rc = 0;

	if (mcp_config_print(agent, self, &cause) != 0) {
		cli_error("mcp", "%s", cause);
		free(cause);
		rc = CLI_EXIT_ERROR;
	}
	free(self);
	return rc;
}

/* A number option in [lo, hi]: 0 and *v, or -1. */
static int
mcp_number(const char *arg, long lo, long hi, long *v)
{
	char	*end;

	errno = 0;
	*v = strtol(arg, &end, 10);
	if (errno != 0 || *end != '\0' || *v < lo || *v > hi)
		return -1;
	return 0;
}

int
cmd_mcp(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 'P' },
		{ "max-bytes", required_argument, NULL, 'm' },
		{ "wait", required_argument, NULL, 'w' },
		{ "print-config", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct config	*cfg;
	struct mcpd_opts	 o = { NULL, OUTCAP_DEFAULT, MCP_WAIT_S };
	const char		*sock = NULL;
	bool			 max_given = false;
	char			*path, *cause = NULL;
	long			 v;
	int			 c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'P':
			sock = optarg;
			break;
		case 'm':
			if (mcp_number(optarg, MCP_MAX_BYTES_MIN,
			    MCP_MAX_BYTES_MAX, &v) != 0) {
				cli_error("mcp", "--max-bytes: '%s' is not "
				    "from %d to %d", optarg, MCP_MAX_BYTES_MIN,
				    MCP_MAX_BYTES_MAX);
				return CLI_EXIT_ERROR;
			}
			o.max_bytes = (size_t)v;
			max_given = true;
			break;
		case 'w':
			if (mcp_number(optarg, 0, MCP_WAIT_S_MAX, &v) != 0) {
				cli_error("mcp", "--wait: '%s' is not a number "
				    "of seconds up to %d", optarg,
				    MCP_WAIT_S_MAX);
				return CLI_EXIT_ERROR;
			}
			o.wait_s = (double)v;
			break;
		case 'p':
			return mcp_print_config(optarg);
		case 'h':
			mcp_usage(stdout);
			return 0;
		default:
			cli_bad_option("mcp", c, argv[optind - 1]);
			return CLI_EXIT_ERROR;
		}
	}
	if (optind < argc) {
		cli_error("mcp", "unexpected argument '%s'", argv[optind]);
		return CLI_EXIT_ERROR;
	}
	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	if (!max_given && config_mcp_max_bytes(cfg) > 0)
		o.max_bytes = config_mcp_max_bytes(cfg);
	path = sock != NULL ? xstrdup(sock) : cli_socket_path(cfg);
	o.socket = path;
	if ((rc = mcpd_serve(&o, &cause)) < 0) {
		cli_error("mcp", "%s", cause);
		free(cause);
		rc = CLI_EXIT_ERROR;
	}
	free(path);
	return rc;
}
