/*
 * cmd-mcp.c - `ptyvisor mcp`: its options, the settings and the socket
 * path it needs, then the MCP server of mcp/mcpd.h (or --print-config's
 * snippet).  Everything the server does is there.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"

#include <errno.h>
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
	    "  --wait S            run's default wait_s (default 30)\n"
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

/* What mcp's command line says. */
struct cmd_mcp {
	struct mcpd_opts	 o;
	const char		*sock;
	bool			 max_given;
};

enum {
	CMD_MCP_SOCKET = 256,
	CMD_MCP_MAX_BYTES,
	CMD_MCP_WAIT,
	CMD_MCP_PRINT_CONFIG,
};

static const struct args_option cmd_mcp_options[] = {
	{ "socket", 0, true, CMD_MCP_SOCKET },
	{ "max-bytes", 0, true, CMD_MCP_MAX_BYTES },
	{ "wait", 0, true, CMD_MCP_WAIT },
	{ "print-config", 0, true, CMD_MCP_PRINT_CONFIG },
	ARGS_HELP_OPTION,
	ARGS_END
};
static const struct args_option *const cmd_mcp_tables[] = {
	cmd_mcp_options, NULL
};

/* Take one option (args_parse()); --print-config is the whole command. */
static int
cmd_mcp_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_mcp	*c = state;
	long		 v;

	switch (key) {
	case CMD_MCP_SOCKET:
		c->sock = value;
		break;
	case CMD_MCP_MAX_BYTES:
		if (mcp_number(value, MCP_MAX_BYTES_MIN, MCP_MAX_BYTES_MAX,
		    &v) != 0) {
			*cause = xasprintf("--max-bytes: '%s' is not from %d "
			    "to %d", value, MCP_MAX_BYTES_MIN,
			    MCP_MAX_BYTES_MAX);
			return -1;
		}
		c->o.max_bytes = (size_t)v;
		c->max_given = true;
		break;
	case CMD_MCP_WAIT:
		if (mcp_number(value, 0, MCP_WAIT_S_MAX, &v) != 0) {
			*cause = xasprintf("--wait: '%s' is not a number of "
			    "seconds up to %d", value, MCP_WAIT_S_MAX);
			return -1;
		}
		c->o.wait_s = (double)v;
		break;
	case CMD_MCP_PRINT_CONFIG:
		return ARGS_DONE(mcp_print_config(value));
	}
	return 0;
}

static int
cmd_mcp_exec(int argc, char **argv)
{
	const struct config	*cfg;
	struct cmd_mcp		 c = { { NULL, OUTCAP_DEFAULT, MCP_WAIT_S },
				    NULL, false };
	struct mcpd_opts	*o = &c.o;
	struct args_end		 end;
	char			*path, *cause = NULL;
	int			 rc;

	if ((rc = args_parse(&cmd_mcp_entry, argc, argv, &c,
	    &end)) != ARGS_GO_ON)
		return rc;
	if (end.first < argc) {
		cli_error("mcp", "unexpected argument '%s'", argv[end.first]);
		return CLI_EXIT_ERROR;
	}
	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	if (!c.max_given && config_mcp_max_bytes(cfg) > 0)
		o->max_bytes = config_mcp_max_bytes(cfg);
	path = c.sock != NULL ? xstrdup(c.sock) : cli_socket_path(cfg);
	o->socket = path;
	if ((rc = mcpd_serve(o, &cause)) < 0) {
		cli_error("mcp", "%s", cause);
		free(cause);
		rc = CLI_EXIT_ERROR;
	}
	free(path);
	return rc;
}

const struct cmd_entry cmd_mcp_entry = {
	.name = "mcp",
	.summary = "an MCP server on stdio for coding agents",
	.exec = cmd_mcp_exec,
	.options = cmd_mcp_tables,
	.flags = ARGS_SEE_HELP,
	.usage = mcp_usage,
	.option = cmd_mcp_option,
};
