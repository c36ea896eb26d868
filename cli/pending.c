/*
 * pending.c - `ptyvisor pending`, `approve` and `deny`: look at and decide
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
#include "policy/policy.h"
#include "base/util.h"

/* How long to wait for the server to answer. */
#define PENDING_TIMEOUT_MS	10000

/* --socket: the server's socket, else the usual one (cli_socket_path). */
static const char *pending_socket;

/* Send req and wait for the answer with id "1"; NULL after a message. */
static json_t *
pending_ask(const char *cmd, json_t *req)
{
	const struct config	*cfg;
	struct client		*cl;
	json_t			*ev = NULL;
	char			*cause = NULL, *path;
	int			 rc;

	if ((cfg = cli_config()) == NULL)
		return NULL;
	path = pending_socket != NULL ? xstrdup(pending_socket) :
	    cli_socket_path(cfg);
	cl = client_connect(path, PENDING_TIMEOUT_MS, &cause);
	free(path);
	if (cl == NULL) {
		cli_error(cmd, "%s", cause);
		free(cause);
		return NULL;
	}
	if (client_send(cl, req, &cause) != 0 ||
	    (rc = client_wait_id(cl, "1", PENDING_TIMEOUT_MS, &ev,
	    &cause)) < 0) {
		cli_error(cmd, "%s", cause);
		free(cause);
		client_free(cl);
		return NULL;
	}
	client_free(cl);
	if (rc == 0) {
		cli_error(cmd, "no answer from the server");
		return NULL;
	}
	return ev;
}

/*
 * Print one pending request as a line: id, command, cwd, reason, each
 * escaped for the terminal (quote.h); a fifth field warns when the agent's
 * text holds invisible characters.
 */
static void
pending_print(json_t *p)
{
	json_t		*argv = json_object_get(p, "argv"), *w;
	const char	*cwd = client_str(p, "cwd"), *why = client_str(p, "why");
	const char	*hosts = client_str(p, "network_allow");
	char		**v, *cmd, *qcwd, *qwhy, *qhosts;
	size_t		  i, n = json_array_size(argv);
	bool		  hidden;

	v = xcalloc(n + 1, sizeof *v);
	json_array_foreach(argv, i, w)
		v[i] = xstrdup(json_is_string(w) ? json_string_value(w) : "");
	cmd = quote_argv(v);
	qcwd = quote_text(cwd != NULL ? cwd : "-");
	qwhy = quote_text(why != NULL ? why : "-");
	hidden = quote_argv_has_invisible(v) ||
	    (cwd != NULL && quote_has_invisible(cwd)) ||
	    (why != NULL && quote_has_invisible(why));
	printf("%" JSON_INTEGER_FORMAT "\t%s\t%s\t%s",
	    json_integer_value(json_object_get(p, "request")), cmd, qcwd, qwhy);
	/* A host asked for by a sandbox's proxy: the four answers. */
	if (json_is_true(json_object_get(p, "connect")))
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
	strv_free(v);
}

int
cmd_pending(int argc, char **argv)
{
	json_t	*req, *ev, *list, *p;
	char	*s;
	size_t	 i;
	bool	 as_json = false;
	int	 a;

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
	req = json_pack("{s:s, s:s}", "op", "list", "id", "1");
	ev = pending_ask("pending", req);
	json_decref(req);
	if (ev == NULL)
		return CLI_EXIT_ERROR;
	if ((list = json_object_get(ev, "pending")) == NULL) {
		cli_error("pending", "%s", client_str(ev, "message") != NULL ?
		    client_str(ev, "message") : "unexpected answer");
		json_decref(ev);
		return CLI_EXIT_ERROR;
	}
	json_array_foreach(list, i, p) {
		if (as_json) {
			s = json_dumps(p, JSON_COMPACT | JSON_PRESERVE_ORDER);
			if (s != NULL)
				printf("%s\n", s);
			free(s);
		} else
			pending_print(p);
	}
	json_decref(ev);
	return 0;
}

/* Parse a request number. */
static int
pending_number(const char *cmd, const char *arg, json_int_t *out)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || v < 1) {
		cli_error(cmd, "'%s' is not a request number", arg);
		return -1;
	}
	*out = (json_int_t)v;
	return 0;
}

/*
 * Send a decide request; 0 when done, 1 when refused, 2 when approved but
 * the rule remembered could not be saved, 125 on error.
 */
static int
pending_decide(const char *cmd, json_int_t n, bool approve, bool remember,
    bool once, const char *reason)
{
	json_t	*req, *ev;
	int	 rc = 0;

	req = json_pack("{s:s, s:s, s:I, s:s, s:b}", "op", "decide", "id",
	    "1", "request", n, "decision", approve ? "approve" : "deny",
	    "remember", remember);
	if (once)
		json_object_set_new(req, "once", json_true());
	if (reason != NULL)
		json_object_set_new(req, "reason", json_string(reason));
	ev = pending_ask(cmd, req);
	json_decref(req);
	if (ev == NULL)
		return CLI_EXIT_ERROR;
	if (client_str(ev, "event") == NULL ||
	    strcmp(client_str(ev, "event"), "ok") != 0) {
		cli_error(cmd, "%s", client_str(ev, "message") != NULL ?
		    client_str(ev, "message") : "refused");
		rc = 1;
	} else if (client_str(ev, "not_saved") != NULL) {
		cli_error(cmd, "request %lld approved, but its rule is not "
		    "saved: %s (it holds until the server stops)",
		    (long long)n, client_str(ev, "not_saved"));
		rc = 2;
	}
	json_decref(ev);
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
	json_int_t	n;
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
	json_int_t	 n;
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
