/*
 * hook.c - `ptyvisor hook AGENT`: one core, each agent's wire format in
 * a table (hook.h).
 *
 * A shell call becomes, in the tool's own input, the command line
 *
 *	SELF exec [--socket PATH] [--why DESCRIPTION] -- SHELL -c COMMAND
 *
 * quoted so that the agent's shell hands exec exactly the original bytes,
 * SHELL being the one the agent's tool runs (bash).  The agent then runs that line as it would have run the
 * command: exec waits for ptyvisor's rules or the person, and its output,
 * exit status and a denial's reason (126, on stderr) are what the agent
 * reads.  The server is checked first: with none, --when-absent decides
 * (deny by default, saying how to start one), so no command runs
 * unsupervised by accident.
 *
 * Invariants: a call we do not handle gets no decision (exit 0, nothing
 * printed), so the agent goes on as without the hook; a call we cannot
 * read, or a shell call while the settings file does not read, is
 * blocked (exit 2, the reason on stderr) rather than let run unsupervised.
 */
#include "mcp/hook.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/quote.h"
#include "base/sha256.h"
#include "base/util.h"
#include "control/client.h"
#include "mcp/hook-guard.h"
#include "sandbox/guard.h"

/* How long to wait for the server's hello when checking it is there. */
#define HOOK_CONNECT_MS	3000

/* The answer's shape: the agent's hook protocol. */
enum hook_wire {
	HOOK_PRE_TOOL_USE,	/* Claude Code, Codex: hookSpecificOutput
				   with permissionDecision, updatedInput */
	HOOK_BEFORE_TOOL,	/* Gemini CLI: decision, reason;
				   hookSpecificOutput.tool_input */
};

struct hook_agent;

/*
 * Print an agent's settings entries (the hook's command line given) to
 * out: each agent's own file format and extras.
 */
typedef void	hook_settings_fn(const struct hook_agent *, const char *self,
		    const char *command, FILE *out);
static hook_settings_fn	hook_settings_claude, hook_settings_codex,
			hook_settings_gemini;

/* An agent the hook speaks for. */
struct hook_agent {
	const char	*name;		/* on the command line */
	enum hook_wire	 wire;
	const char	*event;		/* the hook's event in its settings */
	const char	*shell_tools[3]; /* its shell tools, NULL-ended */
	const char	*command_key;	/* the shell tool's command */
	const char	*why_key;	/* its description, or NULL */
	const char	*shell;		/* what runs the command: the shell
					   and its option, as the tool's */
	bool		 carry_cwd;	/* the tool keeps the directory a
					   command ends in (after cd) */
	bool		 asks;		/* "ask" makes it ask its person (the
					   others run the call: told "deny") */
	const char	*matchers[2];	/* the settings' matchers: shell,
					   files */
	const char	*settings;	/* where the entries go */
	hook_settings_fn *print_settings;
};

/*
 * Claude Code's Bash runs `bash -c` and keeps its directory; Codex's
 * exec_command reaches its hook as Bash and runs `bash -lc`, whose login
 * start-up has run (outside) by the time exec passes its environment on,
 * so the command runs in `bash -c` as in the others; Gemini CLI's
 * run_shell_command runs `bash -c` in the project's directory each time.
 */
static const struct hook_agent hook_agents[] = {
	{ "claude-code", HOOK_PRE_TOOL_USE, "PreToolUse", { "Bash", NULL },
	  "command", "description", "bash -c", true, true,
	  { "Bash", "Write|Edit|MultiEdit|NotebookEdit" },
	  "~/.claude/settings.json", hook_settings_claude },
	{ "codex", HOOK_PRE_TOOL_USE, "PreToolUse", { "Bash", NULL },
	  "command", NULL, "bash -c", false, false,
	  { "^Bash$", "apply_patch" },
	  "~/.codex/config.toml", hook_settings_codex },
	{ "gemini", HOOK_BEFORE_TOOL, "BeforeTool",
	  { "run_shell_command", NULL }, "command", "description", "bash -c",
	  false, false, { "^run_shell_command$", "write_file|replace" },
	  "~/.gemini/settings.json", hook_settings_gemini },
};

#define HOOK_NAGENTS	(sizeof hook_agents / sizeof hook_agents[0])

const struct hook_agent *
hook_agent_find(const char *name)
{
	size_t	i;

	for (i = 0; i < HOOK_NAGENTS; i++)
		if (strcmp(hook_agents[i].name, name) == 0)
			return &hook_agents[i];
	return NULL;
}

/* Whether tool is one of a's shell tools. */
static bool
hook_is_shell(const struct hook_agent *a, const char *tool)
{
	size_t	i;

	for (i = 0; i < 3 && a->shell_tools[i] != NULL; i++)
		if (strcmp(a->shell_tools[i], tool) == 0)
			return true;
	return false;
}

/*
 * Print the answer in a's format: decision "allow", "deny" or "ask", its
 * reason (or NULL), the tool's new input (or NULL).  An agent that would
 * run the call on "ask" (it asks no person) is told "deny".
 */
static void
hook_print(const struct hook_agent *a, FILE *out, const char *decision,
    const char *reason, json_t *input)
{
	json_t	*o, *h;

	if (strcmp(decision, "ask") == 0 && !a->asks)
		decision = "deny";
	if (a->wire == HOOK_BEFORE_TOOL && input != NULL)
		/* Gemini CLI runs the call with this input in place of its. */
		o = json_pack("{s:{s:s, s:O}}", "hookSpecificOutput",
		    "hookEventName", a->event, "tool_input", input);
	else if (a->wire == HOOK_BEFORE_TOOL) {
		o = json_pack("{s:s}", "decision", decision);
		if (reason != NULL)
			json_object_set_new(o, "reason", json_string(reason));
	} else {
		h = json_pack("{s:s, s:s}", "hookEventName", a->event,
		    "permissionDecision", decision);
		if (reason != NULL)
			json_object_set_new(h, "permissionDecisionReason",
			    json_string(reason));
		if (input != NULL)
			json_object_set(h, "updatedInput", input);
		o = json_pack("{s:o}", "hookSpecificOutput", h);
	}
	json_dumpf(o, out, JSON_COMPACT);
	fprintf(out, "\n");
	json_decref(o);
}

/* The start of every rewritten command line: this binary's exec. */
static void
hook_exec_word(struct buf *b, const char *self)
{
	quote_word(b, self);
	buf_adds(b, " exec");
}

/*
 * The command line that runs cmd through ptyvisor exec.  For a tool that
 * keeps the directory a command ends in, exec writes it to a file of the
 * agent's shell (--cwd-file, made by mktemp), which that shell then goes
 * to, so a cd carries over to the next call as without ptyvisor; the exit
 * status stays the command's.  Caller frees.
 */
static char *
hook_rewrite(const struct hook_agent *a, const struct hook_opts *o,
    const char *cmd, const char *why)
{
	struct buf	 b = { 0 };

	if (a->carry_cwd)
		buf_adds(&b, "__ptyvisor_cwd=$(mktemp) && { ");
	hook_exec_word(&b, o->self);
	if (a->carry_cwd)
		buf_adds(&b, " --cwd-file \"$__ptyvisor_cwd\"");
	if (o->socket != NULL) {
		buf_adds(&b, " --socket ");
		quote_word(&b, o->socket);
	}
	if (why != NULL && *why != '\0') {
		buf_adds(&b, " --why ");
		quote_word(&b, why);
	}
	buf_printf(&b, " -- %s ", a->shell);
	quote_word(&b, cmd);
	if (a->carry_cwd)
		buf_adds(&b, "; __ptyvisor_status=$?; cd -- \"$(cat -- "
		    "\"$__ptyvisor_cwd\")\" 2> /dev/null; rm -f -- "
		    "\"$__ptyvisor_cwd\"; (exit \"$__ptyvisor_status\"); }");
	return buf_cstr(&b);
}

/* A shell call: allowed through exec, or what --when-absent says. */
static int
hook_shell(const struct hook_agent *a, const struct hook_opts *o,
    json_t *input, const char *cmd, FILE *out)
{
	struct client	*cl;
	json_t		*why, *copy;
	char		*cause = NULL, *line, *msg, *sock;

	if (!o->host->settings_ok(o->host->arg))
		return 2;	/* no decision would let it run unsupervised */
	sock = o->socket != NULL ? xstrdup(o->socket) :
	    o->host->socket(o->host->arg);
	cl = client_connect(sock, HOOK_CONNECT_MS, &cause);
	free(sock);
	if (cl == NULL) {
		msg = xasprintf("%s; this command would run unsupervised.  "
		    "Start ptyvisor ('ptyvisor' for the console, or 'ptyvisor "
		    "serve') and try again.  " GUARD_SUMMARY, cause);
		if (strcmp(o->absent, "allow") == 0)
			hook_print(a, out, "allow", "ptyvisor is not running; "
			    "allowed unsupervised (--when-absent allow)", NULL);
		else
			hook_print(a, out, o->absent, msg, NULL);
		free(msg);
		free(cause);
		return 0;
	}
	client_free(cl);
	why = a->why_key != NULL ? json_object_get(input, a->why_key) : NULL;
	line = hook_rewrite(a, o, cmd, json_is_string(why) ?
	    json_string_value(why) : NULL);
	copy = json_deep_copy(input);
	json_object_set_new(copy, a->command_key, json_string(line));
	hook_print(a, out, "allow", "runs under ptyvisor's supervision", copy);
	json_decref(copy);
	free(line);
	return 0;
}

int
hook_answer(const struct hook_agent *a, const struct hook_opts *o, FILE *in,
    FILE *out)
{
	json_error_t	 err;
	json_t		*call, *input, *cmd, *tool, *cwd;
	const char	*name;
	char		*msg;
	int		 rc = 0;

	call = json_loadf(in, JSON_REJECT_DUPLICATES, &err);
	if (!json_is_object(call)) {
		fprintf(stderr, "ptyvisor hook: the hook's input is not a JSON "
		    "object: %s\n", call == NULL ? err.text :
		    "another JSON value");
		json_decref(call);
		return 2;	/* blocks the call: what it is, we cannot tell */
	}
	input = json_object_get(call, "tool_input");
	tool = json_object_get(call, "tool_name");
	name = json_is_string(tool) ? json_string_value(tool) : "";
	if (hook_guard_is_file_tool(a->name, name)) {
		cwd = json_object_get(call, "cwd");
		/* Claude Code keeps its project's settings where it started,
		   whatever a cd since: it names that directory to hooks. */
		msg = hook_guard_judge(name, input, json_is_string(cwd) ?
		    json_string_value(cwd) : NULL,
		    getenv("CLAUDE_PROJECT_DIR"), o->host->guards,
		    o->host->arg);
		if (msg != NULL)
			hook_print(a, out, "deny", msg, NULL);
		free(msg);
	} else if (hook_is_shell(a, name) && json_is_object(input) &&
	    json_is_string(cmd = json_object_get(input, a->command_key)))
		rc = hook_shell(a, o, input, json_string_value(cmd), out);
	json_decref(call);
	return rc;
}

/* The hook's command line in the agent's settings.  Caller frees. */
static char *
hook_command(const struct hook_agent *a, const char *self)
{
	struct buf	b = { 0 };

	quote_word(&b, self);
	buf_printf(&b, " hook %s", a->name);
	return buf_cstr(&b);
}

/*
 * The fingerprint Codex trusts a hook of its config.toml by (its
 * [hooks.state] trusted_hash): SHA-256 of the group as compact JSON with
 * sorted keys, the handler's default timeout (600) in.
 */
static void
hook_codex_hash(const char *matcher, const char *command, char out[65])
{
	json_t	*o;
	char	*s;

	o = json_pack("{s:s, s:[{s:b, s:s, s:i, s:s}], s:s}", "event_name",
	    "pre_tool_use", "hooks", "async", 0, "command", command, "timeout",
	    600, "type", "command", "matcher", matcher);
	s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	sha256_hex(s, strlen(s), out);
	free(s);
	json_decref(o);
}

/* A TOML basic string (JSON's escapes are TOML's). */
static void
hook_toml_string(FILE *out, const char *s)
{
	json_t	*o = json_string(s);

	json_dumpf(o, out, JSON_ENCODE_ANY);
	json_decref(o);
}

/*
 * Codex's config.toml: its own sandbox off (it forbids the rewritten
 * command ptyvisor's socket; ptyvisor's sandbox takes its place), the two
 * hooks, and the trust Codex wants before it runs a hook of the user's
 * (their fingerprints, keyed by the file's path and the groups' places:
 * these must be the file's first PreToolUse groups).
 */
static void
hook_settings_codex(const struct hook_agent *a, const char *self,
    const char *command, FILE *out)
{
	const char	*home = getenv("CODEX_HOME"), *h = getenv("HOME");
	char		*dir, *file, *key, hash[65], real[PATH_MAX];
	size_t		 i;

	(void)self;
	if (home != NULL && *home != '\0')
		dir = xstrdup(realpath(home, real) != NULL ? real : home);
	else
		dir = xasprintf("%s/.codex", h != NULL ? h : "");
	file = xasprintf("%s/config.toml", dir);
	fprintf(out, "# %s, at its top (sandbox_mode belongs before any "
	    "table).\n# Codex's sandbox would keep the rewritten command from "
	    "ptyvisor's socket;\n# every command runs in ptyvisor's sandbox "
	    "instead.\nsandbox_mode = \"danger-full-access\"\n", file);
	for (i = 0; i < 2; i++) {
		fprintf(out, "\n[[hooks.%s]]\nmatcher = ", a->event);
		hook_toml_string(out, a->matchers[i]);
		fprintf(out, "\n[[hooks.%s.hooks]]\ntype = \"command\"\n"
		    "command = ", a->event);
		hook_toml_string(out, command);
		fprintf(out, "\n");
	}
	fprintf(out, "\n# Codex runs a hook of yours once trusted: these are "
	    "its fingerprints.\n");
	for (i = 0; i < 2; i++) {
		hook_codex_hash(a->matchers[i], command, hash);
		key = xasprintf("%s:pre_tool_use:%zu:0", file, i);
		fprintf(out, "[hooks.state.");
		hook_toml_string(out, key);
		fprintf(out, "]\ntrusted_hash = \"sha256:%s\"\n", hash);
		free(key);
	}
	free(file);
	free(dir);
}

/* The hooks entries as settings.json holds them: one group a matcher. */
static json_t *
hook_settings_json(const struct hook_agent *a, const char *command)
{
	json_t	*list = json_array();
	size_t	 i;

	for (i = 0; i < 2; i++)
		json_array_append_new(list, json_pack("{s:s, s:[{s:s, s:s}]}",
		    "matcher", a->matchers[i], "hooks", "type", "command",
		    "command", command));
	return json_pack("{s:{s:o}}", "hooks", a->event, list);
}

/* Print a's settings.json object o (consumed), where it goes on stderr. */
static void
hook_settings_dump(const struct hook_agent *a, json_t *o, FILE *out)
{
	json_dumpf(o, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fprintf(out, "\n");
	fprintf(stderr, "# the hooks of %s, for %s\n", a->name, a->settings);
	json_decref(o);
}

/*
 * Claude Code's settings.json: the hooks, and ptyvisor's MCP server and
 * tools let in without a second prompt (ptyvisor is the approver).
 */
static void
hook_settings_claude(const struct hook_agent *a, const char *self,
    const char *command, FILE *out)
{
	json_t	*o = hook_settings_json(a, command);

	(void)self;
	json_object_set_new(o, "permissions", json_pack("{s:[s]}", "allow",
	    "mcp__ptyvisor"));
	json_object_set_new(o, "enabledMcpjsonServers", json_pack("[s]",
	    "ptyvisor"));
	hook_settings_dump(a, o, out);
}

/*
 * Gemini CLI's settings.json: the hooks, and its shell let run nothing but
 * the rewritten commands, should the hook not run.
 */
static void
hook_settings_gemini(const struct hook_agent *a, const char *self,
    const char *command, FILE *out)
{
	struct buf	 b = { 0 };
	json_t		*o = hook_settings_json(a, command);

	hook_exec_word(&b, self);
	json_object_set_new(o, "tools", json_pack("{s:[s++]}", "allowed",
	    "run_shell_command(", buf_cstr(&b), ")"));
	hook_settings_dump(a, o, out);
	buf_free(&b);
}

int
hook_print_settings(const struct hook_agent *a, const char *self, FILE *out)
{
	char	*command = hook_command(a, self);

	a->print_settings(a, self, command, out);
	free(command);
	return 0;
}
