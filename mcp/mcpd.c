/*
 * mcpd.c - `ptyvisor mcp` (see mcpd.h): an MCP server on stdin/stdout for
 * agents (Claude Code, Codex, Gemini CLI...).  The protocol itself is
 * mcp.c; the server carries the tools out as a client of the running
 * console or `ptyvisor serve`, so every command passes the same rules,
 * approval, sandbox, recording and history as `ptyvisor exec`, and shows
 * as an agent pane.  With no server it runs nothing: each call says how to
 * start one.
 *
 * Each command (run, session_start) is a job on its own control
 * connection: closing it kills the command, so EOF on stdin ends the
 * server and its sessions with it.  Everything runs on one event loop:
 * stdin, the jobs' sockets, the timers of waiting calls; several calls
 * are in flight at once and are answered in any order.
 *
 * A job's output is rendered as terminal text (term/textout.h, what `exec
 * --text` prints); finished lines are kept twice: capped head and tail
 * for run's answer (outcap.h), and the last MCP_LOG_MAX bytes with their
 * offsets for session_output's paging.  The tools are tools.c and the
 * tool-*.c it lists, the jobs and their waiting calls mcp-jobs.c, a job's
 * answers mcp-results.c; this file reads stdin's lines, hands each call
 * to its tool, and starts and ends the server.
 *
 * Only JSON-RPC goes to stdout; messages for people go to stderr.
 */
#include "mcp/mcpd.h"
#include "mcp/mcp-int.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "mcp/mcp.h"
#include "mcp/tools.h"

/* A tools/call from the client, handed to its tool. */
static void
mcpd_call(struct mcpd *d, struct mcp_call *mc)
{
	struct call		*c = xcalloc(1, sizeof *c), **pp;
	const struct mcp_tool	*t = mcp_tool_find(mc->tool);

	/* mcp.c hands over only the tools it lists: these. */
	assert(t != NULL);
	c->d = d;
	c->mc = mc;
	c->max = d->max;
	for (pp = &d->calls; *pp != NULL; pp = &(*pp)->next)
		;
	*pp = c;
	t->call(d, c);
}

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

/* Serve stdin until its end (see mcpd.h). */
int
mcpd_serve(const struct mcpd_opts *o, char **cause)
{
	struct mcpd	 d;
	char		*ignored = NULL;

	memset(&d, 0, sizeof d);
	d.max = o->max_bytes;
	d.wait_s = o->wait_s;
	signal(SIGPIPE, SIG_IGN);
	if ((d.loop = loop_new(cause)) == NULL)
		return -1;
	d.socket = xstrdup(o->socket);
	d.mcp = mcp_new("ptyvisor", PACKAGE_VERSION, mcp_instructions,
	    mcp_tools(o->wait_s));
	loop_add_signal(d.loop, SIGTERM, mcpd_signal, &d, &ignored);
	loop_add_signal(d.loop, SIGINT, mcpd_signal, &d, &ignored);
	loop_add_signal(d.loop, SIGHUP, mcpd_signal, &d, &ignored);
	free(ignored);
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
