/*
 * cmd-hook.c - `ptyvisor hook claude-code|codex|gemini`: the command line
 * of an agent's hook before each tool call; what it answers is
 * mcp/hook.c's, with the settings, the guarded paths and the server's
 * socket from here.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "conf/config.h"
#include "mcp/hook.h"
#include "sandbox/sandbox.h"

static void
cmd_hook_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor hook claude-code|codex|gemini [--when-absent "
	    "ask|deny|allow]\n"
	    "                     [--socket PATH | -L NAME]\n"
	    "       ptyvisor hook AGENT --print-settings\n\n"
	    "The hook an agent runs before each tool call, reading the call's "
	    "JSON\non stdin.  The agent's shell tool (Claude Code's Bash, "
	    "Codex's shell,\nGemini CLI's run_shell_command) is allowed with "
	    "its command rewritten\nto run through 'ptyvisor exec' in bash, "
	    "under ptyvisor's rules,\napproval, sandbox and recording; its "
	    "own file tools (Claude Code's\nWrite, Edit, MultiEdit, "
	    "NotebookEdit; Codex's apply_patch; Gemini\nCLI's write_file, "
	    "replace) are denied a path every sandbox keeps\nread-only or "
	    "hidden.  Other calls get no decision.\n\n"
	    "Options:\n"
	    "  --when-absent A   with no ptyvisor running: deny (default), "
	    "ask\n"
	    "                    the agent's own prompt, or allow "
	    "unsupervised\n"
	    "  --socket PATH     the server's socket (default "
	    "$PTYVISOR_SOCKET,\n"
	    "                    the settings file's, else the usual one); "
	    "the\n"
	    "                    rewritten command names it too\n"
	    "  -L NAME           the server started with -L NAME\n"
	    "  --print-settings  print the hook's entries for the agent's "
	    "settings\n"
	    "  -h, --help        show this help\n");
}

/*
 * The sandbox options whose guarded paths the file tools are held to:
 * the settings' (without them when the file is broken: what is built in
 * and ptyvisor's own paths still hold) and ptyvisor's own.
 */
static void
cmd_hook_guards(void *arg, struct sandbox_opts *opts)
{
	struct cli_guard_paths	 own;
	const struct config	*cfg;
	char			*cause = NULL;

	(void)arg;
	sandbox_opts_init(opts);
	if ((cfg = cli_config()) != NULL &&
	    config_apply_sandbox(cfg, opts, &cause) != 0) {
		cli_error("hook", "%s", cause);
		free(cause);
		cause = NULL;
	}
	memset(&own, 0, sizeof own);
	if (cli_guard_own(opts, &own, &cause) != 0) {
		cli_error("hook", "%s", cause);
		free(cause);
	}
}

/* The usual server's socket: $PTYVISOR_SOCKET, the settings', ours. */
static char *
cmd_hook_socket(void *arg)
{
	(void)arg;
	return cli_socket_path(cli_config());
}

/* Whether the settings file reads (cli_config() says why not). */
static bool
cmd_hook_settings_ok(void *arg)
{
	(void)arg;
	return cli_config() != NULL;
}

/* What hook's command line says. */
struct cmd_hook {
	const char	*absent;	/* --when-absent: ask, deny or allow */
	const char	*socket;	/* --socket; NULL: the usual one */
	const char	*name;		/* -L */
	bool		 settings;	/* --print-settings */
};

enum {
	CMD_HOOK_WHEN_ABSENT = 256,
	CMD_HOOK_SOCKET,
	CMD_HOOK_PRINT_SETTINGS,
	CMD_HOOK_NAME,
};

static const struct args_option cmd_hook_options[] = {
	{ "when-absent", 0, true, CMD_HOOK_WHEN_ABSENT },
	{ "socket", 0, true, CMD_HOOK_SOCKET },
	{ NULL, 'L', true, CMD_HOOK_NAME },
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
	case CMD_HOOK_NAME:
		c->name = value;
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
	static const struct hook_host	 host = {
		NULL, cmd_hook_settings_ok, cmd_hook_guards, cmd_hook_socket
	};
	const struct hook_agent		*a = NULL;
	struct cmd_hook			 c = { .absent = "deny" };
	struct hook_opts		 o;
	struct args_end			 end;
	char				*self, *sock = NULL;
	int				 rc;

	if ((rc = args_parse(&cmd_hook_entry, argc, argv, &c,
	    &end)) != ARGS_GO_ON)
		return rc;
	if (end.first + 1 == argc)
		a = hook_agent_find(argv[end.first]);
	if (a == NULL) {
		cli_error("hook", "usage: ptyvisor hook claude-code|codex|"
		    "gemini [OPTIONS]");
		return CLI_EXIT_ERROR;
	}
	if (c.name != NULL && c.socket != NULL) {
		cli_error("hook", "-L and --socket name the server twice");
		return CLI_EXIT_ERROR;
	}
	if (c.name != NULL && (sock = cli_socket_for(c.name, NULL)) == NULL) {
		cli_error("hook", "-L '%s': a name is letters, digits, '-', "
		    "'_' and '.' (not first), at most 64", c.name);
		return CLI_EXIT_ERROR;
	}
	self = cli_self_path();
	if (c.settings)
		rc = hook_print_settings(a, self, stdout);
	else {
		memset(&o, 0, sizeof o);
		o.self = self;
		o.socket = sock != NULL ? sock : c.socket;
		o.absent = c.absent;
		o.host = &host;
		rc = hook_answer(a, &o, stdin, stdout);
	}
	free(sock);
	free(self);
	return rc;
}

const struct cmd_entry cmd_hook_entry = {
	.name = "hook",
	.summary = "agents' hooks: their shells via exec, file tools guarded",
	.exec = cmd_hook_exec,
	.options = cmd_hook_tables,
	.flags = ARGS_SEE_HELP | ARGS_PERMUTE,
	.usage = cmd_hook_usage,
	.option = cmd_hook_option,
};
