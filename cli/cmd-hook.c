/*
 * cmd-hook.c - `ptyvisor hook claude-code|codex|gemini`: an agent's hook
 * before each tool call, reading the hook's JSON on stdin.
 *
 * Claude Code's Bash tool is allowed with its command rewritten to run
 * through `ptyvisor exec`, so the command passes ptyvisor's rules,
 * approval, sandbox and recording, its output and exit status reach
 * Claude unchanged, and Claude does not ask a second time.  ptyvisor is
 * named by the absolute path of this binary.  With no ptyvisor serving,
 * --when-absent decides (deny by default, with the way to start one as
 * the reason); a settings file that cannot be read blocks the call
 * (exit 2, the error on stderr).
 *
 * Each agent's own file tools (hook-guard.c), which write outside any
 * sandbox, are denied in the agent's own format when they would write a
 * path every sandbox keeps read-only or hidden; no server is needed.
 * Every other call gets no decision: exit 0 and no output.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/hook-guard.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/quote.h"
#include "base/util.h"
#include "control/client.h"
#include "sandbox/guard.h"

/* How long to wait for the server's hello when checking it is there. */
#define CMD_HOOK_CONNECT_MS	3000
/* The hook's input is small; a bound for a broken caller. */
#define CMD_HOOK_INPUT_MAX	(16 * 1024 * 1024)

/* The command line that runs cmd through ptyvisor exec.  Caller frees. */
static char *
cmd_hook_rewrite(const char *self, const char *cmd, const char *why)
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
cmd_hook_answer(const char *decision, const char *reason, json_t *input)
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

/* Deny in the shape Claude Code and Codex read (hookSpecificOutput). */
static void
cmd_hook_deny_claude(const char *reason)
{
	cmd_hook_answer("deny", reason, NULL);
}

/* Deny in the shape Gemini CLI's BeforeTool hooks answer. */
static void
cmd_hook_deny_gemini(const char *reason)
{
	json_t	*o;

	o = json_pack("{s:s, s:s}", "decision", "deny", "reason", reason);
	json_dumpf(o, stdout, JSON_COMPACT);
	printf("\n");
	json_decref(o);
}

/* An agent the hook speaks for. */
struct cmd_hook_agent {
	const char	*name;		/* on the command line */
	const char	*shell;		/* its shell tool, rewritten through
					   exec; NULL: left alone */
	const char	*event;		/* the hook's event in its settings */
	const char	*matchers[2];	/* the settings' matchers (shell,
					   files), NULL for none */
	void		(*deny)(const char *reason);
};

static const struct cmd_hook_agent cmd_hook_agents[] = {
	{ "claude-code", "Bash", "PreToolUse",
	  { "Bash", "Write|Edit|MultiEdit|NotebookEdit" },
	  cmd_hook_deny_claude },
	{ "codex", NULL, "PreToolUse", { "apply_patch", NULL },
	  cmd_hook_deny_claude },
	{ "gemini", NULL, "BeforeTool", { "write_file|replace", NULL },
	  cmd_hook_deny_gemini },
};

static void
cmd_hook_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor hook claude-code [--when-absent ask|deny|allow] "
	    "[--socket PATH]\n"
	    "       ptyvisor hook codex|gemini\n"
	    "       ptyvisor hook AGENT --print-settings\n\n"
	    "Claude Code's PreToolUse hook for its Bash tool: reads the\n"
	    "hook's JSON on stdin and allows the command rewritten to run "
	    "through\n"
	    "'ptyvisor exec', under ptyvisor's rules, approval, sandbox and\n"
	    "recording.  For each agent, its own file tools (Claude Code's\n"
	    "Write, Edit, MultiEdit, NotebookEdit; Codex's apply_patch; "
	    "Gemini\n"
	    "CLI's write_file, replace) are denied a path every sandbox "
	    "keeps\n"
	    "read-only or hidden.\n\n"
	    "Options:\n"
	    "  --when-absent A   with no ptyvisor running: deny (default), "
	    "ask\n"
	    "                    Claude Code's own prompt, or allow "
	    "unsupervised\n"
	    "  --socket PATH     the server's socket (default "
	    "$PTYVISOR_SOCKET,\n"
	    "                    the settings file's, else the usual one)\n"
	    "  --print-settings  print the hook's entry for the agent's "
	    "settings\n"
	    "  -h, --help        show this help\n");
}

/*
 * --print-settings: the hooks entry of the agent's settings, as JSON
 * (Claude Code's and Gemini CLI's settings.json) or TOML (Codex's
 * config.toml, the command a basic string escaped as JSON is).
 */
static int
cmd_hook_settings(const struct cmd_hook_agent *a, const char *self)
{
	struct buf	 b = { 0 };
	json_t		*o, *list, *s;
	size_t		 i;

	quote_word(&b, self);
	buf_printf(&b, " hook %s", a->name);
	s = json_string(buf_cstr(&b));
	if (strcmp(a->name, "codex") == 0) {
		printf("# ~/.codex/config.toml\n");
		for (i = 0; i < 2 && a->matchers[i] != NULL; i++) {
			printf("[[hooks.%s]]\nmatcher = \"%s\"\n"
			    "[[hooks.%s.hooks]]\ntype = \"command\"\n"
			    "command = ", a->event, a->matchers[i], a->event);
			json_dumpf(s, stdout, JSON_ENCODE_ANY);
			printf("\n");
		}
	} else {
		list = json_array();
		for (i = 0; i < 2 && a->matchers[i] != NULL; i++)
			json_array_append_new(list, json_pack("{s:s, s:[{s:s, "
			    "s:O}]}", "matcher", a->matchers[i], "hooks",
			    "type", "command", "command", s));
		o = json_pack("{s:{s:o}}", "hooks", a->event, list);
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		printf("\n");
		json_decref(o);
	}
	json_decref(s);
	buf_free(&b);
	return 0;
}

/* Answer one hook call read from stdin: 0, or 1 for an input not JSON. */
static int
cmd_hook_answer_call(const struct cmd_hook_agent *a, const char *self,
    const char *absent, const char *sock)
{
	const struct config	*cfg;
	json_error_t		 err;
	json_t			*in, *input, *cmd, *why, *tool, *cwd;
	struct client		*cl;
	char			*path, *cause = NULL, *line = NULL, *msg;
	int			 rc = 0;

	in = json_loadf(stdin, JSON_REJECT_DUPLICATES, &err);
	input = json_object_get(in, "tool_input");
	cmd = json_object_get(input, "command");
	tool = json_object_get(in, "tool_name");
	if (!json_is_object(in)) {
		cli_error("hook", "the hook's input is not a JSON object: %s",
		    in == NULL ? err.text : "another JSON value");
		rc = 1;		/* a non-blocking error for Claude Code */
		goto out;
	}
	if (json_is_string(tool) && hook_guard_is_file_tool(a->name,
	    json_string_value(tool))) {
		cwd = json_object_get(in, "cwd");
		msg = hook_guard_judge(json_string_value(tool), input,
		    json_is_string(cwd) ? json_string_value(cwd) : NULL);
		if (msg != NULL)
			a->deny(msg);
		free(msg);
		goto out;	/* a path not guarded: no decision */
	}
	if (a->shell == NULL || !json_is_string(tool) ||
	    strcmp(json_string_value(tool), a->shell) != 0 ||
	    !json_is_string(cmd))
		goto out;	/* not ours: no decision */
	if ((cfg = cli_config()) == NULL) {
		rc = 2;		/* blocks the call: no decision would let
				   Claude Code run it unsupervised */
		goto out;
	}
	path = sock != NULL ? xstrdup(sock) : cli_socket_path(cfg);
	cl = client_connect(path, CMD_HOOK_CONNECT_MS, &cause);
	free(path);
	if (cl == NULL) {
		msg = xasprintf("%s; this command would run unsupervised.  "
		    "Start ptyvisor ('ptyvisor' for the console, or 'ptyvisor "
		    "serve') and try again.  " GUARD_SUMMARY, cause);
		if (strcmp(absent, "allow") == 0)
			cmd_hook_answer("allow", "ptyvisor is not running; "
			    "allowed unsupervised (--when-absent allow)", NULL);
		else
			cmd_hook_answer(absent, msg, NULL);
		free(msg);
		goto out;
	}
	client_free(cl);
	why = json_object_get(input, "description");
	line = cmd_hook_rewrite(self, json_string_value(cmd),
	    json_is_string(why) ? json_string_value(why) : NULL);
	input = json_deep_copy(input);
	json_object_set_new(input, "command", json_string(line));
	cmd_hook_answer("allow", "runs under ptyvisor's supervision", input);
	json_decref(input);
out:
	free(cause);
	free(line);
	json_decref(in);
	return rc;
}

/* What hook's command line says. */
struct cmd_hook {
	const char	*absent;	/* --when-absent: ask, deny or allow */
	const char	*socket;	/* --socket; NULL: the usual one */
	bool		 settings;	/* --print-settings */
};

enum {
	CMD_HOOK_WHEN_ABSENT = 256,
	CMD_HOOK_SOCKET,
	CMD_HOOK_PRINT_SETTINGS,
};

static const struct args_option cmd_hook_options[] = {
	{ "when-absent", 0, true, CMD_HOOK_WHEN_ABSENT },
	{ "socket", 0, true, CMD_HOOK_SOCKET },
	{ "print-settings", 0, false, CMD_HOOK_PRINT_SETTINGS },
	ARGS_HELP_OPTION,
	ARGS_END
};
static const struct args_option *const cmd_hook_tables[] = {
	cmd_hook_options, NULL
};

/* Take one option into the command line's values (args_parse()). */
static int
cmd_hook_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_hook	*c = state;

	switch (key) {
	case CMD_HOOK_WHEN_ABSENT:
		if (strcmp(value, "ask") != 0 && strcmp(value, "deny") != 0 &&
		    strcmp(value, "allow") != 0) {
			*cause = xasprintf("--when-absent: '%s' is not ask, "
			    "deny or allow", value);
			return -1;
		}
		c->absent = value;
		break;
	case CMD_HOOK_SOCKET:
		c->socket = value;
		break;
	case CMD_HOOK_PRINT_SETTINGS:
		c->settings = true;
		break;
	}
	return 0;
}

/* `ptyvisor hook AGENT`: claude-code, codex or gemini. */
static int
cmd_hook_exec(int argc, char **argv)
{
	const struct cmd_hook_agent	*a = NULL;
	struct cmd_hook			 c = { .absent = "deny" };
	struct args_end			 end;
	char				*self;
	size_t				 i;
	int				 rc;

	if ((rc = args_parse(&cmd_hook_entry, argc, argv, &c,
	    &end)) != ARGS_GO_ON)
		return rc;
	for (i = 0; end.first + 1 == argc && i < sizeof cmd_hook_agents /
	    sizeof cmd_hook_agents[0]; i++)
		if (strcmp(argv[end.first], cmd_hook_agents[i].name) == 0)
			a = &cmd_hook_agents[i];
	if (a == NULL) {
		cli_error("hook", "usage: ptyvisor hook claude-code|codex|"
		    "gemini [OPTIONS]");
		return CLI_EXIT_ERROR;
	}
	self = cli_self_path();
	rc = c.settings ? cmd_hook_settings(a, self) :
	    cmd_hook_answer_call(a, self, c.absent, c.socket);
	free(self);
	return rc;
}

const struct cmd_entry cmd_hook_entry = {
	.name = "hook",
	.summary = "agents' hooks: Claude's Bash via exec, file tools guarded",
	.exec = cmd_hook_exec,
	.options = cmd_hook_tables,
	.flags = ARGS_SEE_HELP | ARGS_PERMUTE,
	.usage = cmd_hook_usage,
	.option = cmd_hook_option,
};
