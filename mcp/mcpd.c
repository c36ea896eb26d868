/*
 * mcp.c - `ptyvisor mcp`: an MCP server on stdin/stdout for agents
 * (Claude Code, Codex, Gemini CLI...).  The protocol itself is mcp/; this
 * file carries the tools out as a client of the running console or
 * `ptyvisor serve`, so every command passes the same rules, approval,
 * sandbox, recording and history as `ptyvisor exec`, and shows as an agent
 * pane.  With no server it runs nothing: each call says how to start one.
 *
 * Each command (run, session_start) is a job on its own control
 * connection: closing it kills the command, so EOF on stdin ends the
 * server and its sessions with it.  Everything runs on one event loop:
 * stdin, the jobs' sockets, the timers of waiting calls; several calls
 * are in flight at once and are answered in any order.
 *
 * A job's output is rendered as terminal text (term/textout.h, what `exec
 * --text` prints); finished lines are kept twice: capped head and tail
 * for run's answer (mcp/outcap.h), and the last MCP_LOG_MAX bytes with
 * their offsets for session_output's paging.  How arguments become a
 * request and a job becomes an answer is mcp-results.c; the tools are
 * mcp-tools.c, the jobs and their waiting calls mcp-jobs.c; this file
 * reads stdin's lines, and starts and ends the server.
 *
 * Only JSON-RPC goes to stdout; messages for people go to stderr.
 */
#include "cli/commands.h"
#include "cli/cli.h"
#include "mcp/mcp-int.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "mcp/mcp.h"
#include "mcp/outcap.h"
#include "conf/config.h"

/* One line from the client. */
static void
mcpd_line(struct mcpd *d, const char *line, size_t len)
{
	struct buf	 out = { 0 };
	struct mcp_call	*call;
	json_t		*cancelled;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len == 0)
		return;
	switch (mcp_handle(d->mcp, line, len, &out, &call, &cancelled)) {
	case MCP_NOTHING:
		break;
	case MCP_CALL:
		mcpd_flush(d, &out);
		mcpd_call(d, call);
		break;
	case MCP_CANCEL:
		mcpd_cancel(d, cancelled);
		json_decref(cancelled);
		break;
	}
	mcpd_flush(d, &out);
	buf_free(&out);
}

/*
 * stdin is readable: whole lines to the protocol, what they were read
 * from dropped once after the last (dropping each line as it went moved
 * the rest of the read every time: a read of blank lines cost its size
 * squared).
 */
static void
mcpd_readable(struct loop *loop, int fd, short revents, void *arg)
{
	struct mcpd	*d = arg;
	char		 b[MCP_READ], *nl;
	ssize_t		 n;
	size_t		 len, off = 0;

	(void)revents;
	n = read(fd, b, sizeof b);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		/* EOF: a last line without its newline still counts. */
		if (d->in.len > 0 && !d->skipping)
			mcpd_line(d, d->in.data, d->in.len);
		loop_stop(loop);
		return;
	}
	buf_add(&d->in, b, (size_t)n);
	while ((nl = memchr(d->in.data + off, '\n', d->in.len - off)) !=
	    NULL) {
		len = (size_t)(nl - (d->in.data + off));
		if (!d->skipping)
			mcpd_line(d, d->in.data + off, len);
		d->skipping = false;
		off += len + 1;
	}
	buf_consume(&d->in, off);
	if (d->in.len > MCP_LINE_MAX && !d->skipping) {
		/* Answer the over-long line now, drop it up to its end. */
		mcpd_line(d, d->in.data, d->in.len);
		d->skipping = true;
	}
	if (d->skipping)
		d->in.len = 0;
}

static void
mcpd_signal(struct loop *loop, int sig, void *arg)
{
	(void)sig;
	(void)arg;
	loop_stop(loop);
}

static void
mcpd_usage(FILE *f)
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
	struct mcpd		 d;
	const char		*sock = NULL;
	bool			 max_given = false;
	char			*cause = NULL, *end;
	long			 v;
	int			 c;

	memset(&d, 0, sizeof d);
	d.max = OUTCAP_DEFAULT;
	d.wait_s = MCP_WAIT_S;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'P':
			sock = optarg;
			break;
		case 'm':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' ||
			    v < MCP_MAX_BYTES_MIN || v > MCP_MAX_BYTES_MAX) {
				cli_error("mcp", "--max-bytes: '%s' is not "
				    "from %d to %d", optarg, MCP_MAX_BYTES_MIN,
				    MCP_MAX_BYTES_MAX);
				return CLI_EXIT_ERROR;
			}
			d.max = (size_t)v;
			max_given = true;
			break;
		case 'w':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || v < 0 ||
			    v > MCP_WAIT_S_MAX) {
				cli_error("mcp", "--wait: '%s' is not a number "
				    "of seconds up to %d", optarg,
				    MCP_WAIT_S_MAX);
				return CLI_EXIT_ERROR;
			}
			d.wait_s = (double)v;
			break;
		case 'p':
			return mcpd_print_config(optarg);
		case 'h':
			mcpd_usage(stdout);
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
		d.max = config_mcp_max_bytes(cfg);
	signal(SIGPIPE, SIG_IGN);
	if ((d.loop = loop_new(&cause)) == NULL) {
		cli_error("mcp", "%s", cause);
		free(cause);
		return CLI_EXIT_ERROR;
	}
	d.socket = sock != NULL ? xstrdup(sock) : cli_socket_path(cfg);
	d.mcp = mcp_new("ptyvisor", PACKAGE_VERSION);
	loop_add_signal(d.loop, SIGTERM, mcpd_signal, &d, &cause);
	loop_add_signal(d.loop, SIGINT, mcpd_signal, &d, &cause);
	loop_add_signal(d.loop, SIGHUP, mcpd_signal, &d, &cause);
	free(cause);
	loop_add_fd(d.loop, STDIN_FILENO, POLLIN, LOOP_PRIO_HIGH,
	    mcpd_readable, &d);
	loop_run(d.loop);

	/* Unanswered calls are dropped; closing a job kills its command. */
	while (d.calls != NULL) {
		struct call *next = d.calls->next;

		loop_timer_cancel(d.loop, d.calls->timer);
		loop_timer_cancel(d.loop, d.calls->ptimer);
		mcp_call_free(d.calls->mc);
		free(d.calls);
		d.calls = next;
	}
	while (d.jobs != NULL)
		job_free(d.jobs);
	loop_del_fd(d.loop, STDIN_FILENO);
	mcp_free(d.mcp);
	buf_free(&d.in);
	free(d.socket);
	loop_free(d.loop);
	return d.status;
}
