/*
 * cmd-pending.c - `ptyvisor pending`, `approve` and `deny`: look at and
 * decide the requests waiting on a running server, over its control socket
 * (the list and decide ops).
 *
 * Each reads its words by its entry (args.h): pending whole words only, as
 * it always has (ARGS_BARE: a word that is no option is refused here as an
 * unknown argument); approve and deny by getopt_long(), options anywhere.
 * Nothing is sent before the whole command line is read; one request, one
 * answer awaited (CMD_PENDING_TIMEOUT_MS), one connection per command.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/quote.h"
#include "control/client.h"
#include "control/proto-client.h"
#include "net/hostlist.h"
#include "policy/policy.h"
#include "base/util.h"

/* How long to wait for the server to answer. */
#define CMD_PENDING_TIMEOUT_MS	10000

/* What the command lines of pending, approve and deny say. */
struct cmd_pending {
	const char	*socket;	/* --socket; NULL: cli_socket_path() */
	const char	*reason;	/* deny --reason */
	bool		 as_json;	/* pending --json */
	bool		 remember;	/* approve --remember */
	bool		 once;		/* approve --once */
};

enum {
	CMD_PENDING_SOCKET = 256,
	CMD_PENDING_JSON,
	CMD_PENDING_REMEMBER,
	CMD_PENDING_ONCE,
	CMD_PENDING_REASON,
};

/* --socket and --help, in all three. */
static const struct args_option cmd_pending_common[] = {
	{ "socket", 0, true, CMD_PENDING_SOCKET },
	ARGS_HELP_OPTION,
	ARGS_END
};
static const struct args_option cmd_pending_list_options[] = {
	{ "json", 0, false, CMD_PENDING_JSON },
	ARGS_END
};
static const struct args_option cmd_pending_approve_options[] = {
	{ "remember", 0, false, CMD_PENDING_REMEMBER },
	{ "once", 0, false, CMD_PENDING_ONCE },
	ARGS_END
};
static const struct args_option cmd_pending_deny_options[] = {
	{ "reason", 0, true, CMD_PENDING_REASON },
	ARGS_END
};
static const struct args_option *const cmd_pending_list_tables[] = {
	cmd_pending_list_options, cmd_pending_common, NULL
};
static const struct args_option *const cmd_pending_approve_tables[] = {
	cmd_pending_approve_options, cmd_pending_common, NULL
};
static const struct args_option *const cmd_pending_deny_tables[] = {
	cmd_pending_deny_options, cmd_pending_common, NULL
};

/* Take one option of any of the three (args_parse()). */
static int
cmd_pending_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_pending	*c = state;

	(void)cause;
	switch (key) {
	case CMD_PENDING_SOCKET:
		c->socket = value;
		break;
	case CMD_PENDING_JSON:
		c->as_json = true;
		break;
	case CMD_PENDING_REMEMBER:
		c->remember = true;
		break;
	case CMD_PENDING_ONCE:
		c->once = true;
		break;
	case CMD_PENDING_REASON:
		c->reason = value;
		break;
	}
	return 0;
}

/*
 * Send the request line to the server on socket (NULL: the usual one) and
 * wait for the answer with id "1" into *ev: 0, or -1 after a message.
 */
static int
cmd_pending_ask(const char *cmd, const char *socket, const struct buf *line,
    struct proto_event *ev)
{
	const struct config	*cfg;
	struct client		*cl = NULL;
	char			*cause = NULL, *path;
	int			 rc = -1;

	if ((cfg = cli_config()) == NULL)
		return -1;
	path = socket != NULL ? xstrdup(socket) : cli_socket_path(cfg);
	cl = client_connect(path, CMD_PENDING_TIMEOUT_MS, &cause);
	free(path);
	if (cl == NULL || client_send_line(cl, line, &cause) != 0 ||
	    (rc = client_wait_event(cl, "1", CMD_PENDING_TIMEOUT_MS, ev,
	    &cause)) < 0) {
		cli_error(cmd, "%s", cause);
		rc = -1;
	} else if (rc == 0) {
		cli_error(cmd, "no answer from the server");
		rc = -1;
	} else
		rc = 0;
	free(cause);
	client_free(cl);
	return rc;
}

/* --json: one waiting request as the list carried it, on a line. */
static void
cmd_pending_json(json_t *item)
{
	char	*s = json_dumps(item, JSON_COMPACT | JSON_PRESERVE_ORDER);

	if (s != NULL)
		printf("%s\n", s);
	free(s);
}

/*
 * Print one pending request as a line: id, command, cwd, reason, each
 * escaped for the terminal (quote.h); a fifth field warns when the agent's
 * text holds invisible characters.
 */
static void
cmd_pending_print(const struct proto_pending *p)
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
	/* A program's exec inside a session: where it comes from. */
	if (p->check_session > 0) {
		qhosts = quote_text(p->check_chain != NULL ? p->check_chain :
		    "-");
		printf("	exec in session %lld: %s", (long long)
		    p->check_session, qhosts);
		free(qhosts);
		qhosts = quote_text(p->check_path != NULL ? p->check_path :
		    "-");
		printf("	file: %s", qhosts);
		free(qhosts);
		if (p->by != NULL) {
			qhosts = quote_text(p->by);
			printf("	asked by: %s", qhosts);
			free(qhosts);
		}
	}
	/* The hosts it asks for: the person approves them with the command. */
	if (hosts != NULL) {
		qhosts = quote_text(hosts);
		printf("\thosts: %s", qhosts);
		free(qhosts);
		if (hostlist_unix_warning(hosts) != NULL)
			printf("\tWARNING: %s", hostlist_unix_warning(hosts));
	}
	/* Secret variables of the agent's environment, dropped: names. */
	if (x->env_dropped != NULL) {
		qhosts = quote_argv(x->env_dropped);
		printf("\tenv dropped: %s", qhosts);
		free(qhosts);
	}
	printf("%s\n", hidden ? "\tWARNING: invisible characters, shown as "
	    "\\uXXXX" : "");
	free(cmd);
	free(qcwd);
	free(qwhy);
}

/* The --help text of pending. */
static void
cmd_pending_list_usage(FILE *f)
{
	fprintf(f, "usage: ptyvisor pending [--json] [--socket PATH]\n\n"
	    "List the requests waiting for approval on the running server, "
	    "one a line,\noldest first: id, command, cwd and the agent's "
	    "reason, separated by tabs;\nwith --json, one JSON object a line "
	    "(as in the protocol's list event).\n"
	    "--socket PATH talks to the server on PATH (default "
	    "$PTYVISOR_SOCKET, the\nsettings file's, else the usual one).\n");
}

/* `ptyvisor pending`: the waiting requests, one a line. */
static int
cmd_pending_list_exec(int argc, char **argv)
{
	struct cmd_pending	 c;
	struct args_end		 end;
	struct proto_event	 ev;
	struct buf		 line = { 0 };
	size_t			 i;
	int			 rc;

	memset(&c, 0, sizeof c);
	memset(&ev, 0, sizeof ev);
	if ((rc = args_parse(&cmd_pending_entry, argc, argv, &c,
	    &end)) != ARGS_GO_ON)
		goto out;
	rc = CLI_EXIT_ERROR;
	if (end.first < argc) {
		cli_error("pending", "unknown argument '%s'", argv[end.first]);
		goto out;
	}
	proto_req_list(&line, "1");
	if (cmd_pending_ask("pending", c.socket, &line, &ev) != 0)
		goto out;
	if (ev.kind != PROTO_EV_LIST) {
		cli_error("pending", "%s", ev.message != NULL ? ev.message :
		    "unexpected answer");
		goto out;
	}
	for (i = 0; i < ev.npending; i++) {
		if (c.as_json)
			cmd_pending_json(json_array_get(json_object_get(ev.json,
			    "pending"), i));
		else
			cmd_pending_print(&ev.pending[i]);
	}
	rc = 0;
out:
	buf_free(&line);
	proto_event_free(&ev);
	return rc;
}

/* Parse a request number. */
static int
cmd_pending_number(const char *cmd, const char *arg, int64_t *out)
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
 * Decide request n as c says (approve: c->once, c->remember; deny:
 * c->reason); 0 when done, 1 when refused, 2 when approved but the rule
 * remembered could not be saved, 125 on error.
 */
static int
cmd_pending_decide(const char *cmd, int64_t n, bool approve,
    const struct cmd_pending *c)
{
	struct proto_event	 ev;
	struct proto_request	 req;
	struct buf		 line = { 0 };
	int			 rc = 0;

	memset(&req, 0, sizeof req);
	req.id = (char *)"1";
	req.request = n;
	req.approve = approve;
	req.remember = c->remember;
	req.once = c->once;
	req.reason = (char *)c->reason;
	proto_req_decide(&line, &req);
	rc = cmd_pending_ask(cmd, c->socket, &line, &ev);
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

/*
 * approve and deny: one request number after the options (and, for
 * approve, not --once with --remember), else usage; then the decision.
 */
static int
cmd_pending_decide_exec(const struct cmd_entry *e, const char *usage,
    int argc, char **argv)
{
	struct cmd_pending	 c;
	struct args_end		 end;
	int64_t			 n;
	int			 rc;

	memset(&c, 0, sizeof c);
	if ((rc = args_parse(e, argc, argv, &c, &end)) != ARGS_GO_ON)
		return rc;
	if (end.first + 1 != argc || (c.once && c.remember)) {
		cli_error(e->name, "usage: %s", usage);
		return CLI_EXIT_ERROR;
	}
	if (cmd_pending_number(e->name, argv[end.first], &n) != 0)
		return CLI_EXIT_ERROR;
	return cmd_pending_decide(e->name, n, e == &cmd_approve_entry, &c);
}

/* The --help text of approve. */
static void
cmd_pending_approve_usage(FILE *f)
{
	fprintf(f, "usage: ptyvisor approve ID [--once|--remember] "
	    "[--socket PATH]\n\n"
	    "Approve waiting request ID (see 'ptyvisor pending').  With "
	    "--remember, also\nallow the same command line from now on "
	    "(until the server stops).\n"
	    "A host a sandbox's proxy asks for (connect HOST:PORT) is "
	    "approved for the\nrest of that sandbox's life; with --once for "
	    "this one connection only (the\nnext one is asked again); with "
	    "--remember as the rule 'allow connect\nHOST:PORT' saved to the "
	    "rules file, so later sandboxes reach it unasked.\n"
	    "Exit status: 0 done, 1 no such request waiting, 2 approved but "
	    "the rule\nnot saved (the reason on stderr), 125 no server.\n");
}

/* `ptyvisor approve ID`. */
static int
cmd_pending_approve_exec(int argc, char **argv)
{
	return cmd_pending_decide_exec(&cmd_approve_entry, "ptyvisor approve "
	    "ID [--once|--remember] [--socket PATH]", argc, argv);
}

/* The --help text of deny. */
static void
cmd_pending_deny_usage(FILE *f)
{
	fprintf(f, "usage: ptyvisor deny ID [--reason TEXT] [--socket PATH]"
	    "\n\n"
	    "Deny waiting request ID; the agent's shim exits 126 and prints "
	    "TEXT.\nExit status: 0 done, 1 no such request waiting, 125 no "
	    "server.\n");
}

/* `ptyvisor deny ID`. */
static int
cmd_pending_deny_exec(int argc, char **argv)
{
	return cmd_pending_decide_exec(&cmd_deny_entry, "ptyvisor deny ID "
	    "[--reason TEXT] [--socket PATH]", argc, argv);
}

const struct cmd_entry cmd_pending_entry = {
	.name = "pending",
	.summary = "list requests waiting for approval",
	.exec = cmd_pending_list_exec,
	.options = cmd_pending_list_tables,
	.flags = ARGS_EXACT | ARGS_BARE | ARGS_NAME_MISSING,
	.needs = "a path",
	.usage = cmd_pending_list_usage,
	.option = cmd_pending_option,
};

const struct cmd_entry cmd_approve_entry = {
	.name = "approve",
	.summary = "approve a waiting request",
	.exec = cmd_pending_approve_exec,
	.options = cmd_pending_approve_tables,
	.flags = ARGS_PERMUTE,
	.usage = cmd_pending_approve_usage,
	.option = cmd_pending_option,
};

const struct cmd_entry cmd_deny_entry = {
	.name = "deny",
	.summary = "deny a waiting request",
	.exec = cmd_pending_deny_exec,
	.options = cmd_pending_deny_tables,
	.flags = ARGS_PERMUTE,
	.usage = cmd_pending_deny_usage,
	.option = cmd_pending_option,
};
