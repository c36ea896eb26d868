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
#include "cli/cli.h"

#include <getopt.h>
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
#define CHECK_EXIT_ALLOW	0
#define CHECK_EXIT_ASK		1
#define CHECK_EXIT_DENY		2

/* The parts of a shell string, as the policy told them. */
struct check_parts {
	json_t		*json;		/* --json: an array */
	struct buf	 text;		/* else: lines */
	size_t		 n;
};

static void
check_usage(FILE *f)
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
check_source_name(enum policy_source s)
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
check_json(char *const *argv, struct policy_verdict v)
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
	    json_string(check_source_name(v.source)));
	json_object_set_new(o, "why", json_string(v.why));
	if (v.rule != NULL)
		json_object_set_new(o, "rule", json_string(v.rule));
	if (v.where != NULL)
		json_object_set_new(o, "where", json_string(v.where));
	return o;
}

/* The policy tells each part of a shell string. */
static void
check_part(void *user, char *const *argv, struct policy_verdict v)
{
	struct check_parts	*cp = user;
	char			*cmd, *why;

	cp->n++;
	if (cp->json != NULL) {
		json_array_append_new(cp->json, check_json(argv, v));
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
check_print(char *const *cmdv, struct policy_verdict v, const char *raised,
    const struct policy *p, struct check_parts *parts, bool as_json)
{
	json_t	*out;
	char	*cmd, *why;

	if (as_json) {
		out = check_json(cmdv, v);
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

int
cmd_check(int argc, char **argv)
{
	static const struct option	 longs[] = {
		{ "rules", required_argument, NULL, 'r' },
		{ "approval", required_argument, NULL, 'a' },
		{ "cwd", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "network", no_argument, NULL, 'N' },
		{ "network-allow", required_argument, NULL, 'A' },
		{ "sandbox", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli_server_opts		 o;
	struct policy_place		 place;
	struct policy_verdict		 v;
	struct check_parts		 parts;
	struct policy			*p = NULL;
	const struct config		*cfg;
	enum sandbox_profile		 profile;
	const char			*string = NULL, *mode = NULL;
	const char			*cwd = NULL, *sandbox = NULL, *raised;
	char				*cause = NULL;
	char				*sh[4] = { "sh", "-c", NULL, NULL };
	char				**cmdv, **env;
	size_t				 nenv = 0;
	bool				 as_json = false, network = false;
	int				 c, rc = CLI_EXIT_ERROR;

	memset(&o, 0, sizeof o);
	memset(&parts, 0, sizeof parts);
	env = xcalloc((size_t)argc + 1, sizeof *env);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+hc:e:", longs, NULL)) != -1) {
		switch (c) {
		case 'r':
			free(o.rules);
			o.rules = xstrdup(optarg);
			break;
		case 'a':
			mode = optarg;
			break;
		case 'd':
			cwd = optarg;
			break;
		case 'j':
			as_json = true;
			break;
		case 'c':
			string = optarg;
			break;
		case 'e':
			if (strchr(optarg, '=') == NULL || optarg[0] == '=') {
				cli_error("check", "-e: '%s' is not NAME=VALUE",
				    optarg);
				goto out;
			}
			env[nenv++] = optarg;
			break;
		case 'N':
			network = true;
			break;
		case 'A':
			/* Hosts are a way out too, as the queue counts them. */
			if (hostlist_check(optarg, &cause) != 0) {
				cli_error("check", "--network-allow: %s", cause);
				free(cause);
				cause = NULL;
				goto out;
			}
			network = true;
			break;
		case 'S':
			sandbox = optarg;
			break;
		case 'h':
			check_usage(stdout);
			rc = 0;
			goto out;
		default:
			if (optopt == 'c' || optopt == 'e')
				cli_error("check", "-%c needs a value", optopt);
			else if (optopt != 0 && optopt != '?')
				cli_error("check", "--%s needs a value",
				    optopt == 'r' ? "rules" : optopt == 'a' ?
				    "approval" : optopt == 'S' ? "sandbox" :
				    "cwd");
			else
				cli_error("check", "unknown option '%s'",
				    argv[optind - 1]);
			goto out;
		}
	}
	if (mode != NULL) {
		if (policy_mode_parse(mode, &o.mode) != 0) {
			cli_error("check", "--approval: '%s' is not untrusted, "
			    "on-request or never", mode);
			goto out;
		}
		o.mode_given = true;
	}
	if (sandbox != NULL &&
	    sandbox_profile_parse(sandbox, &profile, &cause) != 0) {
		cli_error("check", "--sandbox: %s", cause);
		goto out;
	}
	if ((string != NULL) == (optind < argc)) {
		cli_error("check", string != NULL ? "give -c STRING or a "
		    "command, not both" : "no command to check (see 'ptyvisor "
		    "check --help')");
		goto out;
	}
	if (string != NULL) {
		sh[2] = (char *)string;
		cmdv = sh;
	} else
		cmdv = argv + optind;

	/* A settings file that does not parse: 125, as every command. */
	if ((cfg = cli_config()) == NULL)
		goto out;
	cli_server_defaults(cfg, &o);
	/* Checking runs no notify program: do not require one. */
	o.notify = NULL;
	if ((p = cli_agents_policy(&o, &cause)) == NULL) {
		cli_error("check", "%s", cause);
		goto out;
	}

	if (as_json)
		parts.json = json_array();
	place.cwd = cwd;
	place.home = getenv("HOME");
	place.system_config = NULL;
	v = policy_check_parts(p, cmdv, &place, check_part, &parts);
	raised = approval_raise(v.decision, network, sandbox, env);
	check_print(cmdv, v, raised, p, &parts, as_json);
	rc = raised != NULL || v.decision == POLICY_ASK ? CHECK_EXIT_ASK :
	    v.decision == POLICY_ALLOW ? CHECK_EXIT_ALLOW : CHECK_EXIT_DENY;
out:
	json_decref(parts.json);
	buf_free(&parts.text);
	policy_free(p);
	cli_server_opts_free(&o);
	free(cause);
	free(env);
	return rc;
}
