/*
 * cmd-hook.c - `ptyvisor hook claude-code`: Claude Code's PreToolUse hook for
 * its Bash tool.  It reads the hook's JSON on stdin and allows the call
 * with its command rewritten to run through `ptyvisor exec`, so the
 * command passes ptyvisor's rules, approval, sandbox and recording, its
 * output and exit status reach Claude unchanged, and Claude does not ask
 * a second time.  ptyvisor is named by the absolute path of this binary.
 * With no ptyvisor serving, --when-absent decides (deny by default, with
 * the way to start one as the reason).
 */
#include "cli/commands.h"
#include "cli/cli.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/quote.h"
#include "base/util.h"
#include "control/client.h"

/* How long to wait for the server's hello when checking it is there. */
#define HOOK_CONNECT_MS	3000
/* The hook's input is small; a bound for a broken caller. */
#define HOOK_INPUT_MAX	(16 * 1024 * 1024)

/* The command line that runs cmd through ptyvisor exec.  Caller frees. */
static char *
hook_rewrite(const char *self, const char *cmd, const char *why)
{
	struct buf	b = { 0 };

	quote_word(&b, self);
	buf_adds(&b, " exec");
	if (why != NULL && *why != '\0') {
		buf_adds(&b, " --why ");
		quote_word(&b, why);
	}
	buf_adds(&b, " -- sh -c ");
	quote_word(&b, cmd);
	return buf_cstr(&b);
}

/* Print the hook's answer: a decision, its reason, the new input. */
static void
hook_answer(const char *decision, const char *reason, json_t *input)
{
	json_t	*o, *h;

	h = json_pack("{s:s, s:s}", "hookEventName", "PreToolUse",
	    "permissionDecision", decision);
	if (reason != NULL)
		json_object_set_new(h, "permissionDecisionReason",
		    json_string(reason));
	if (input != NULL)
		json_object_set(h, "updatedInput", input);
	o = json_pack("{s:o}", "hookSpecificOutput", h);
	json_dumpf(o, stdout, JSON_COMPACT);
	printf("\n");
	json_decref(o);
}

static void
hook_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor hook claude-code [--when-absent ask|deny|allow] "
	    "[--socket PATH]\n"
	    "       ptyvisor hook claude-code --print-settings\n\n"
	    "Claude Code's PreToolUse hook for its Bash tool: reads the\n"
	    "hook's JSON on stdin and allows the command rewritten to run "
	    "through\n"
	    "'ptyvisor exec', under ptyvisor's rules, approval, sandbox and\n"
	    "recording.\n\n"
	    "Options:\n"
	    "  --when-absent A   with no ptyvisor running: deny (default), "
	    "ask\n"
	    "                    Claude Code's own prompt, or allow "
	    "unsupervised\n"
	    "  --socket PATH     the server's socket (default "
	    "$PTYVISOR_SOCKET,\n"
	    "                    the settings file's, else the usual one)\n"
	    "  --print-settings  print the settings JSON for Claude Code\n"
	    "  -h, --help        show this help\n");
}

/* --print-settings: the hooks entry of Claude Code's settings.json. */
static int
hook_settings(const char *self)
{
	struct buf	 b = { 0 };
	json_t		*o;

	quote_word(&b, self);
	buf_adds(&b, " hook claude-code");
	o = json_pack("{s:{s:[{s:s, s:[{s:s, s:s}]}]}}", "hooks", "PreToolUse",
	    "matcher", "Bash", "hooks", "type", "command", "command",
	    buf_cstr(&b));
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	printf("\n");
	json_decref(o);
	buf_free(&b);
	return 0;
}

/* Answer one hook call read from stdin. */
static int
hook_claude(const char *self, const char *absent, const char *sock)
{
	const struct config	*cfg;
	json_error_t		 err;
	json_t			*in, *input, *cmd, *why;
	struct client		*cl;
	char			*path, *cause = NULL, *line, *msg;

	in = json_loadf(stdin, JSON_REJECT_DUPLICATES, &err);
	if (!json_is_object(in)) {
		cli_error("hook", "the hook's input is not a JSON object: %s",
		    in == NULL ? err.text : "another JSON value");
		json_decref(in);
		return 1;	/* a non-blocking error for Claude Code */
	}
	input = json_object_get(in, "tool_input");
	cmd = json_object_get(input, "command");
	if (!json_is_string(json_object_get(in, "tool_name")) ||
	    strcmp(json_string_value(json_object_get(in, "tool_name")),
	    "Bash") != 0 || !json_is_string(cmd)) {
		json_decref(in);
		return 0;	/* not ours: no decision */
	}
	if ((cfg = cli_config()) == NULL) {
		json_decref(in);
		return 1;
	}
	path = sock != NULL ? xstrdup(sock) : cli_socket_path(cfg);
	cl = client_connect(path, HOOK_CONNECT_MS, &cause);
	free(path);
	if (cl == NULL) {
		msg = xasprintf("%s; this command would run unsupervised.  "
		    "Start ptyvisor ('ptyvisor' for the console, or 'ptyvisor "
		    "serve') and try again.", cause);
		if (strcmp(absent, "allow") == 0)
			hook_answer("allow", "ptyvisor is not running; allowed "
			    "unsupervised (--when-absent allow)", NULL);
		else
			hook_answer(absent, msg, NULL);
		free(msg);
		free(cause);
		json_decref(in);
		return 0;
	}
	client_free(cl);
	why = json_object_get(input, "description");
	line = hook_rewrite(self, json_string_value(cmd),
	    json_is_string(why) ? json_string_value(why) : NULL);
	input = json_deep_copy(input);
	json_object_set_new(input, "command", json_string(line));
	hook_answer("allow", "runs under ptyvisor's supervision", input);
	json_decref(input);
	json_decref(in);
	free(line);
	return 0;
}

int
cmd_hook(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "when-absent", required_argument, NULL, 'a' },
		{ "socket", required_argument, NULL, 'P' },
		{ "print-settings", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*absent = "deny", *sock = NULL;
	char		*self;
	bool		 settings = false;
	int		 c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (strcmp(optarg, "ask") != 0 &&
			    strcmp(optarg, "deny") != 0 &&
			    strcmp(optarg, "allow") != 0) {
				cli_error("hook", "--when-absent: '%s' is not "
				    "ask, deny or allow", optarg);
				return CLI_EXIT_ERROR;
			}
			absent = optarg;
			break;
		case 'P':
			sock = optarg;
			break;
		case 's':
			settings = true;
			break;
		case 'h':
			hook_usage(stdout);
			return 0;
		default:
			cli_bad_option("hook", c, argv[optind - 1]);
			return CLI_EXIT_ERROR;
		}
	}
	if (optind >= argc || strcmp(argv[optind], "claude-code") != 0 ||
	    optind + 1 < argc) {
		cli_error("hook", "usage: ptyvisor hook claude-code [OPTIONS] "
		    "(the one agent with hooks so far)");
		return CLI_EXIT_ERROR;
	}
	self = cli_self_path();
	rc = settings ? hook_settings(self) : hook_claude(self, absent, sock);
	free(self);
	return rc;
}
