/*
 * cmd-pending.c - `ptyvisor pending`, `approve` and `deny`: look at and decide
 * the requests waiting on a running server, over its control socket
 * (the list and decide ops).
 */
#include "cli/commands.h"
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/quote.h"
#include "control/client.h"
#include "control/proto-client.h"
#include "policy/policy.h"
#include "base/util.h"

/* How long to wait for the server to answer. */
#define PENDING_TIMEOUT_MS	10000

/* --socket: the server's socket, else the usual one (cli_socket_path). */
static const char *pending_socket;

/*
 * Send the request line and wait for the answer with id "1" into *ev: 0,
 * or -1 after a message.
 */
static int
pending_ask(const char *cmd, const struct buf *line, struct proto_event *ev)
{
	const struct config	*cfg;
	struct client		*cl;
	char			*cause = NULL, *path;
	int			 rc;

	if ((cfg = cli_config()) == NULL)
		return -1;
	path = pending_socket != NULL ? xstrdup(pending_socket) :
	    cli_socket_path(cfg);
	cl = client_connect(path, PENDING_TIMEOUT_MS, &cause);
	free(path);
	if (cl == NULL) {
		cli_error(cmd, "%s", cause);
		free(cause);
		return -1;
	}
	if (client_send_line(cl, line, &cause) != 0 ||
	    (rc = client_wait_event(cl, "1", PENDING_TIMEOUT_MS, ev,
	    &cause)) < 0) {
		cli_error(cmd, "%s", cause);
		free(cause);
		client_free(cl);
		return -1;
	}
	client_free(cl);
	if (rc == 0) {
		cli_error(cmd, "no answer from the server");
		return -1;
	}
	return 0;
}

/*
 * Print one pending request as a line: id, command, cwd, reason, each
 * escaped for the terminal (quote.h); a fifth field warns when the agent's
 * text holds invisible characters.
 */
static void
pending_print(const struct proto_pending *p)
{
	const struct proto_exec	*x = p->exec;
	const char		*cwd = x->cwd, *why = x->why;
	const char		*hosts = x->network_allow;
	char			*cmd, *qcwd, *qwhy, *qhosts;
	char *const		 none[] = { NULL };
	char *const		*v = x->argv != NULL ? x->argv : none;
	bool			 hidden;

	cmd = quote_argv(v);
	qcwd = quote_text(cwd != NULL ? cwd : "-");
	qwhy = quote_text(why != NULL ? why : "-");
	hidden = quote_argv_has_invisible(v) ||
	    (cwd != NULL && quote_has_invisible(cwd)) ||
	    (why != NULL && quote_has_invisible(why));
	printf("%lld\t%s\t%s\t%s", (long long)p->request, cmd, qcwd, qwhy);
	/* A host asked for by a sandbox's proxy: the four answers. */
	if (p->connect)
		printf("\thost: approve --once (this connection), approve (the "
		    "session), approve --remember (a rule), deny");
	/* The hosts it asks for: the person approves them with the command. */
	if (hosts != NULL) {
		qhosts = quote_text(hosts);
		printf("\thosts: %s", qhosts);
		free(qhosts);
	}
	printf("%s\n", hidden ? "\tWARNING: invisible characters, shown as "
	    "\\uXXXX" : "");
	free(cmd);
	free(qcwd);
	free(qwhy);
}

int
cmd_pending(int argc, char **argv)
{
	struct proto_event	 ev;
	struct buf		 line = { 0 };
	size_t			 i;
	bool			 as_json = false;
	int			 a, rc;

	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--json") == 0)
			as_json = true;
		else if (strcmp(argv[a], "--socket") == 0) {
			if (++a >= argc) {
				cli_error("pending", "--socket needs a path");
				return CLI_EXIT_ERROR;
			}
			pending_socket = argv[a];
		} else if (strcmp(argv[a], "-h") == 0 ||
		    strcmp(argv[a], "--help") == 0) {
			printf("usage: ptyvisor pending [--json] [--socket "
			    "PATH]\n\n"
			    "List the requests waiting for approval on the "
			    "running server, one a line,\noldest first: id, "
			    "command, cwd and the agent's reason, separated "
			    "by tabs;\nwith --json, one JSON object a line "
			    "(as in the protocol's list event).\n"
			    "--socket PATH talks to the server on PATH "
			    "(default $PTYVISOR_SOCKET, the\nsettings file's, "
			    "else the usual one).\n");
			return 0;
		} else {
			cli_error("pending", "unknown argument '%s'", argv[a]);
			return CLI_EXIT_ERROR;
		}
	}
	proto_req_list(&line, "1");
	rc = pending_ask("pending", &line, &ev);
	buf_free(&line);
	if (rc != 0)
		return CLI_EXIT_ERROR;
	if (ev.kind != PROTO_EV_LIST) {
		cli_error("pending", "%s", ev.message != NULL ? ev.message :
		    "unexpected answer");
		proto_event_free(&ev);
		return CLI_EXIT_ERROR;
	}
	for (i = 0; i < ev.npending; i++) {
		if (as_json) {
			proto_pending_line(&line, &ev.pending[i]);
			fwrite(line.data, 1, line.len, stdout);
			buf_free(&line);
		} else
			pending_print(&ev.pending[i]);
	}
	proto_event_free(&ev);
	return 0;
}

/* Parse a request number. */
static int
pending_number(const char *cmd, const char *arg, int64_t *out)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || v < 1) {
		cli_error(cmd, "'%s' is not a request number", arg);
		return -1;
	}
	*out = (int64_t)v;
	return 0;
}

/*
 * Send a decide request; 0 when done, 1 when refused, 2 when approved but
 * the rule remembered could not be saved, 125 on error.
 */
static int
pending_decide(const char *cmd, int64_t n, bool approve, bool remember,
    bool once, const char *reason)
{
	struct proto_event	 ev;
	struct buf		 line = { 0 };
	int			 rc = 0;

	proto_req_decide(&line, "1", n, approve, remember, once, reason);
	rc = pending_ask(cmd, &line, &ev);
	buf_free(&line);
	if (rc != 0)
		return CLI_EXIT_ERROR;
	if (ev.kind != PROTO_EV_OK) {
		cli_error(cmd, "%s", ev.message != NULL ? ev.message :
		    "refused");
		rc = 1;
	} else if (ev.not_saved != NULL) {
		cli_error(cmd, "request %lld approved, but its rule is not "
		    "saved: %s (it holds until the server stops)",
		    (long long)n, ev.not_saved);
		rc = 2;
	}
	proto_event_free(&ev);
	return rc;
}

int
cmd_approve(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "remember", no_argument, NULL, 'r' },
		{ "once", no_argument, NULL, 'o' },
		{ "socket", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int64_t		n;
	bool		remember = false, once = false;
	int		c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			remember = true;
			break;
		case 'o':
			once = true;
			break;
		case 'S':
			pending_socket = optarg;
			break;
		case 'h':
			printf("usage: ptyvisor approve ID [--once|--remember] "
			    "[--socket PATH]\n\n"
			    "Approve waiting request ID (see 'ptyvisor "
			    "pending').  With --remember, also\nallow the "
			    "same command line from now on (until the server "
			    "stops).\n"
			    "A host a sandbox's proxy asks for (connect "
			    "HOST:PORT) is approved for the\nrest of that "
			    "sandbox's life; with --once for this one "
			    "connection only (the\nnext one is asked again); "
			    "with --remember as the rule 'allow connect\n"
			    "HOST:PORT' saved to the rules file, so later "
			    "sandboxes reach it unasked.\n"
			    "Exit status: 0 done, 1 no such request "
			    "waiting, 2 approved but the rule\nnot saved "
			    "(the reason on stderr), 125 no server.\n");
			return 0;
		default:
			cli_error("approve", "unknown option '%s'",
			    argv[optind - 1]);
			return CLI_EXIT_ERROR;
		}
	}
	if (optind + 1 != argc || (once && remember)) {
		cli_error("approve", "usage: ptyvisor approve ID "
		    "[--once|--remember] [--socket PATH]");
		return CLI_EXIT_ERROR;
	}
	if (pending_number("approve", argv[optind], &n) != 0)
		return CLI_EXIT_ERROR;
	return pending_decide("approve", n, true, remember, once, NULL);
}

int
cmd_deny(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "reason", required_argument, NULL, 'r' },
		{ "socket", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*reason = NULL;
	int64_t		 n;
	int		 c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			reason = optarg;
			break;
		case 'S':
			pending_socket = optarg;
			break;
		case 'h':
			printf("usage: ptyvisor deny ID [--reason TEXT] "
			    "[--socket PATH]\n\n"
			    "Deny waiting request ID; the agent's shim exits "
			    "126 and prints TEXT.\nExit status: 0 done, 1 no "
			    "such request waiting, 125 no server.\n");
			return 0;
		default:
			cli_error("deny", "%s '%s'", c == ':' ?
			    "missing value for" : "unknown option",
			    argv[optind - 1]);
			return CLI_EXIT_ERROR;
		}
	}
	if (optind + 1 != argc) {
		cli_error("deny", "usage: ptyvisor deny ID [--reason TEXT] "
		    "[--socket PATH]");
		return CLI_EXIT_ERROR;
	}
	if (pending_number("deny", argv[optind], &n) != 0)
		return CLI_EXIT_ERROR;
	return pending_decide("deny", n, false, false, false, reason);
}
