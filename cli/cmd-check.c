/*
 * cmd-check.c - `ptyvisor check`: the verdict a request would get from the
 * policy (allow, ask or deny, and what decided it), and for a shell string
 * each simple command's, without running anything.  The rules file and the
 * approval mode are found as the agents' server finds them; what the request
 * itself asks (variables, the network, no sandbox) counts as the approval
 * queue counts it (approval_raise).
 *
 * Invariants: nothing runs and nothing is written; the exit status is the
 * verdict (0 allow, 1 ask, 2 deny) or CLI_EXIT_ERROR.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/quote.h"
#include "base/util.h"
#include "control/approval.h"
#include "net/hostlist.h"
#include "policy/policy.h"
#include "sandbox/sandbox.h"

/* Exit statuses: the verdict. */
#define CMD_CHECK_EXIT_ALLOW	0
#define CMD_CHECK_EXIT_ASK		1
#define CMD_CHECK_EXIT_DENY		2

/* The parts of a shell string, as the policy told them. */
struct cmd_check_parts {
	json_t		*json;		/* --json: an array */
	struct buf	 text;		/* else: lines */
	size_t		 n;
};

/* The --help text. */
static void
cmd_check_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor check [OPTIONS] [--] CMD [ARGS...]\n"
	    "       ptyvisor check [OPTIONS] -c STRING\n\n"
	    "Print the verdict a request for CMD would get from the policy,\n"
	    "without running anything: allow, ask or deny, and the rule or the\n"
	    "built-in reason that decided it; for a shell string (sh -c STRING,\n"
	    "bash -lc STRING...) also each command's verdict in it.  The rules\n"
	    "file and the mode are the server's: the options, else the settings\n"
	    "file, else the defaults.  A request that sets variables, asks for\n"
	    "the network or for no sandbox is asked even when allowed: -e,\n"
	    "--network and --sandbox say so, as for 'ptyvisor exec'.\n\n"
	    "Options:\n"
	    "  --rules FILE     rules file ([approval] rules, else\n"
	    "                   $PTYVISOR_CONFIG/rules, else\n"
	    "                   $XDG_CONFIG_HOME/ptyvisor/rules)\n"
	    "  --approval MODE  untrusted (default), on-request or never\n"
	    "                   ([approval] mode)\n"
	    "  --cwd DIR        judge it as run in DIR (default: here); git's\n"
	    "                   configuration there counts\n"
	    "  -c STRING        check 'sh -c STRING'\n"
	    "  -e NAME=VALUE    the request sets a variable (repeatable)\n"
	    "  --network        the request asks for the network\n"
	    "  --network-allow LIST\n"
	    "                   the request asks for these hosts (asked too)\n"
	    "  --sandbox P      the request asks for profile P\n"
	    "  --json           one JSON object: decision, source, why, rule,\n"
	    "                   where, mode, argv, parts\n\n"
	    "Exit status: 0 allow, 1 ask, 2 deny, 125 an error (bad options, a\n"
	    "rules or settings file that does not parse).\n");
}

/* The name of what decided a verdict, for --json. */
static const char *
cmd_check_source_name(enum policy_source s)
{
	switch (s) {
	case POLICY_BY_RULE:
		return "rule";
	case POLICY_BY_MODE:
		return "mode";
	case POLICY_BY_KNOWN_SAFE:
		return "known-read-only";
	case POLICY_BY_SHELL:
		return "shell";
	}
	return "unknown";
}

/* A verdict as a JSON object, argv included when not NULL. */
static json_t *
cmd_check_json(char *const *argv, struct policy_verdict v)
{
	json_t	*o = json_object(), *a;
	size_t	 i;

	if (argv != NULL) {
		a = json_array();
		for (i = 0; argv[i] != NULL; i++)
			json_array_append_new(a, json_string(argv[i]));
		json_object_set_new(o, "argv", a);
	}
	json_object_set_new(o, "decision",
	    json_string(policy_decision_name(v.decision)));
	json_object_set_new(o, "source",
	    json_string(cmd_check_source_name(v.source)));
	json_object_set_new(o, "why", json_string(v.why));
	if (v.rule != NULL)
		json_object_set_new(o, "rule", json_string(v.rule));
	if (v.where != NULL)
		json_object_set_new(o, "where", json_string(v.where));
	return o;
}

/* The policy tells each part of a shell string. */
static void
cmd_check_part(void *user, char *const *argv, struct policy_verdict v)
{
	struct cmd_check_parts	*cp = user;
	char			*cmd, *why;

	cp->n++;
	if (cp->json != NULL) {
		json_array_append_new(cp->json, cmd_check_json(argv, v));
		return;
	}
	cmd = argv[0] != NULL ? quote_argv(argv) : xstrdup("(empty)");
	why = quote_text(v.why);
	buf_printf(&cp->text, "  %zu. %s: %s\n     %s\n", cp->n,
	    policy_decision_name(v.decision), cmd, why);
	free(cmd);
	free(why);
}

/* Print the verdict v of cmdv (raised: what the request itself asks). */
static void
cmd_check_print(char *const *cmdv, struct policy_verdict v, const char *raised,
    const struct policy *p, struct cmd_check_parts *parts, bool as_json)
{
	json_t	*out;
	char	*cmd, *why;

	if (as_json) {
		out = cmd_check_json(cmdv, v);
		if (raised != NULL) {
			json_object_set_new(out, "decision",
			    json_string(policy_decision_name(POLICY_ASK)));
			json_object_set_new(out, "raised", json_string(raised));
		}
		json_object_set_new(out, "mode",
		    json_string(policy_mode_name(policy_mode(p))));
		if (parts->n > 0)
			json_object_set(out, "parts", parts->json);
		cmd = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
		if (cmd == NULL)
			fatal("out of memory");
		printf("%s\n", cmd);
		free(cmd);
		json_decref(out);
		return;
	}
	cmd = quote_argv(cmdv);
	why = quote_text(v.why);
	if (raised != NULL)
		printf("ask: %s\n  %s (the policy alone: allow, %s)\n", cmd,
		    raised, why);
	else
		printf("%s: %s\n  %s\n", policy_decision_name(v.decision), cmd,
		    why);
	if (parts->n > 0)
		printf("each command in the shell string:\n%.*s",
		    (int)parts->text.len, parts->text.data);
	free(cmd);
	free(why);
}

/* What the command line asks: the request to judge and how to answer. */
struct cmd_check {
	struct cli_server_opts	 o;
	const char		*string;	/* -c */
	const char		*mode;		/* --approval */
	const char		*cwd;
	const char		*sandbox;	/* --sandbox */
	char			**env;		/* -e, borrowed from argv */
	size_t			 nenv;
	bool			 as_json;
	bool			 network;	/* --network or hosts */
};

/* The keys of the long options without a letter. */
enum {
	CMD_CHECK_RULES = 256,
	CMD_CHECK_APPROVAL,
	CMD_CHECK_CWD,
	CMD_CHECK_JSON,
	CMD_CHECK_NETWORK,
	CMD_CHECK_NETWORK_ALLOW,
	CMD_CHECK_SANDBOX,
};

static const struct args_option cmd_check_options[] = {
	{ "rules", 0, true, CMD_CHECK_RULES },
	{ "approval", 0, true, CMD_CHECK_APPROVAL },
	{ "cwd", 0, true, CMD_CHECK_CWD },
	{ "json", 0, false, CMD_CHECK_JSON },
	{ "network", 0, false, CMD_CHECK_NETWORK },
	{ "network-allow", 0, true, CMD_CHECK_NETWORK_ALLOW },
	{ "sandbox", 0, true, CMD_CHECK_SANDBOX },
	ARGS_HELP_OPTION,
	{ NULL, 'c', true, 'c' },
	{ NULL, 'e', true, 'e' },
	ARGS_END
};
static const struct args_option *const cmd_check_tables[] = {
	cmd_check_options, NULL
};

/* Take one option into c (args_parse()). */
static int
cmd_check_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_check	*c = state;
	char			*why = NULL;

	switch (key) {
	case CMD_CHECK_RULES:
		free(c->o.rules);
		c->o.rules = xstrdup(value);
		break;
	case CMD_CHECK_APPROVAL:
		c->mode = value;
		break;
	case CMD_CHECK_CWD:
		c->cwd = value;
		break;
	case CMD_CHECK_JSON:
		c->as_json = true;
		break;
	case 'c':
		c->string = value;
		break;
	case 'e':
		if (strchr(value, '=') == NULL || value[0] == '=') {
			*cause = xasprintf("-e: '%s' is not NAME=VALUE", value);
			return -1;
		}
		c->env[c->nenv++] = (char *)value;
		break;
	case CMD_CHECK_NETWORK:
		c->network = true;
		break;
	case CMD_CHECK_NETWORK_ALLOW:
		/* Hosts are a way out too, as the queue counts them. */
		if (hostlist_check(value, &why) != 0) {
			*cause = xasprintf("--network-allow: %s", why);
			free(why);
			return -1;
		}
		c->network = true;
		break;
	case CMD_CHECK_SANDBOX:
		c->sandbox = value;
		break;
	}
	return 0;
}

/*
 * What the options name, checked; and the command to judge (-c STRING as
 * sh -c STRING in sh, else the operands), NULL after a message.
 */
static char **
cmd_check_request(struct cmd_check *c, int argc, char **argv, int first,
    char **sh)
{
	enum sandbox_profile	 profile;
	char			*cause = NULL;

	if (c->mode != NULL) {
		if (policy_mode_parse(c->mode, &c->o.srv.mode) != 0) {
			cli_error("check", "--approval: '%s' is not untrusted, "
			    "on-request or never", c->mode);
			return NULL;
		}
		c->o.srv.mode_given = true;
	}
	if (c->sandbox != NULL &&
	    sandbox_profile_parse(c->sandbox, &profile, &cause) != 0) {
		cli_error("check", "--sandbox: %s", cause);
		free(cause);
		return NULL;
	}
	if ((c->string != NULL) == (first < argc)) {
		cli_error("check", c->string != NULL ? "give -c STRING or a "
		    "command, not both" : "no command to check (see 'ptyvisor "
		    "check --help')");
		return NULL;
	}
	if (c->string == NULL)
		return argv + first;
	sh[2] = (char *)c->string;
	return sh;
}

/* `ptyvisor check`: the verdict is the exit status. */
static int
cmd_check_exec(int argc, char **argv)
{
	struct cmd_check	 c;
	struct args_end		 end;
	struct policy_place	 place;
	struct policy_verdict	 v;
	struct cmd_check_parts	 parts;
	struct policy		*p = NULL;
	const struct config	*cfg;
	char			*raised = NULL;
	char			*cause = NULL;
	char			*sh[4] = { "sh", "-c", NULL, NULL };
	char			**cmdv;
	int			 rc;

	memset(&c, 0, sizeof c);
	memset(&parts, 0, sizeof parts);
	c.env = xcalloc((size_t)argc + 1, sizeof *c.env);
	if ((rc = args_parse(&cmd_check_entry, argc, argv, &c,
	    &end)) != ARGS_GO_ON)
		goto out;
	rc = CLI_EXIT_ERROR;
	if ((cmdv = cmd_check_request(&c, argc, argv, end.first, sh)) == NULL)
		goto out;

	/* A settings file that does not parse: 125, as every command. */
	if ((cfg = cli_config()) == NULL)
		goto out;
	cli_server_opts_defaults(cfg, &c.o);
	/* Checking runs no notify program: do not require one. */
	c.o.srv.notify = NULL;
	if ((p = server_policy(&c.o.srv, &cause)) == NULL) {
		cli_error("check", "%s", cause);
		goto out;
	}

	if (c.as_json)
		parts.json = json_array();
	place.cwd = c.cwd;
	place.home = getenv("HOME");
	place.system_config = NULL;
	v = policy_check_parts(p, cmdv, &place, cmd_check_part, &parts);
	raised = approval_raise(v.decision, c.network, c.sandbox, c.env);
	cmd_check_print(cmdv, v, raised, p, &parts, c.as_json);
	rc = raised != NULL || v.decision == POLICY_ASK ? CMD_CHECK_EXIT_ASK :
	    v.decision == POLICY_ALLOW ? CMD_CHECK_EXIT_ALLOW :
	    CMD_CHECK_EXIT_DENY;
out:
	json_decref(parts.json);
	buf_free(&parts.text);
	policy_free(p);
	cli_server_opts_free(&c.o);
	free(cause);
	free(c.env);
	free(raised);
	return rc;
}

const struct cmd_entry cmd_check_entry = {
	.name = "check",
	.summary = "the verdict a command would get, without running it",
	.exec = cmd_check_exec,
	.options = cmd_check_tables,
	.flags = ARGS_NAME_MISSING,
	.usage = cmd_check_usage,
	.option = cmd_check_option,
};
