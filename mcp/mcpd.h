/*
 * mcpd.h - `ptyvisor mcp`, the MCP server on stdin/stdout that carries its
 * tools out as a client of the running console or `ptyvisor serve`: the
 * entry the command calls with plain options.
 *
 * The server owns stdin and stdout while it runs: only JSON-RPC goes to
 * stdout; messages for people go to stderr.  It returns at end of input
 * or on SIGTERM, SIGINT, SIGHUP, with every command it started killed.
 */
#ifndef PTYVISOR_MCPD_H
#define PTYVISOR_MCPD_H

#include <stddef.h>

#include "conf/config.h"

/* run returns after this many seconds of running, unless told. */
#define MCP_WAIT_S		30
#define MCP_WAIT_S_MAX		3600
/* The bounds of a call's text cap: the settings file's. */
#define MCP_MAX_BYTES_MIN	CONFIG_CAP_MIN
#define MCP_MAX_BYTES_MAX	CONFIG_CAP_MAX

/* What the command decided before the server starts. */
struct mcpd_opts {
	const char	*socket;	/* the running server's control socket */
	size_t		 max_bytes;	/* a call's text cap unless told */
	double		 wait_s;	/* run's wait_s unless told */
};

/*
 * Serve stdin until its end: the exit status, or -1 with *cause when the
 * server cannot start.
 */
int	mcpd_serve(const struct mcpd_opts *o, char **cause);

#endif
