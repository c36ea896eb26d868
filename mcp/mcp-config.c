/*
 * mcp-config.c - `ptyvisor mcp --print-config claude|codex|gemini`: the
 * snippet an agent's settings need to start this binary's MCP server, in
 * the agent's own format (JSON, TOML), with the revisions it speaks.
 */
#include "mcp/mcp-config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/util.h"
#include "mcp/mcp.h"
#include "mcp/mcpd.h"

/*
 * How long an agent gives one tool call, in the recipes: past run's
 * wait_s (the command is then followed with session_output), with room
 * for a person's decision; a call still waiting when it runs out is
 * cancelled, and with it the request (doc/agents.md).
 */
#define MCP_CONFIG_TIMEOUT_S	600

/*
 * The variables Codex must hand ptyvisor mcp (it passes on a fixed few,
 * HOME and PATH among them): where the server's socket, settings and
 * state are.
 */
static const char *const mcp_config_codex_env[] = {
	"PTYVISOR_SOCKET", "PTYVISOR_CONFIG", "PTYVISOR_STATE_DIR",
	"XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", NULL
};

/* Codex's config.toml: the server, its variables, no second prompt. */
static void
mcp_config_codex(const char *self, const char *versions)
{
	json_t	*o;
	size_t	 i;

	printf("# ~/.codex/config.toml (%s)\n[mcp_servers.ptyvisor]\n"
	    "command = ", versions);
	o = json_string(self);
	json_dumpf(o, stdout, JSON_ENCODE_ANY);	/* a TOML basic string */
	json_decref(o);
	printf("\nargs = [\"mcp\"]\n# Codex passes on only a few variables: "
	    "these say where ptyvisor is\nenv_vars = [");
	for (i = 0; mcp_config_codex_env[i] != NULL; i++)
		printf("%s\"%s\"", i == 0 ? "" : ", ", mcp_config_codex_env[i]);
	printf("]\n# ptyvisor asks the person: Codex need not ask again (and "
	    "under\n# codex exec could not)\ndefault_tools_approval_mode = "
	    "\"approve\"\n# run returns after wait_s (%d s) with the command "
	    "still running;\n# a call may also wait for the person's decision\n"
	    "tool_timeout_sec = %d\n", MCP_WAIT_S, MCP_CONFIG_TIMEOUT_S);
}

/* --print-config: the snippet for an agent's configuration. */
int
mcp_config_print(const char *agent, const char *self, char **cause)
{
	struct buf	 b = { 0 };
	json_t		*o, *srv;
	int		 rc = 0;
	size_t		 i;

	buf_adds(&b, "ptyvisor mcp speaks MCP");
	for (i = 0; mcp_versions[i] != NULL; i++)
		buf_printf(&b, "%s %s", i == 0 ? "" : ",", mcp_versions[i]);
	if (strcmp(agent, "codex") == 0)
		mcp_config_codex(self, buf_cstr(&b));
	else if (strcmp(agent, "claude") == 0 ||
	    strcmp(agent, "gemini") == 0) {
		o = json_pack("{s:{s:{s:s, s:[s]}}}", "mcpServers", "ptyvisor",
		    "command", self, "args", "mcp");
		srv = json_object_get(json_object_get(o, "mcpServers"),
		    "ptyvisor");
		json_object_set_new(srv, "timeout",
		    json_integer(MCP_CONFIG_TIMEOUT_S * 1000));
		if (strcmp(agent, "claude") == 0)
			json_object_set_new(srv, "type", json_string("stdio"));
		else
			/* Gemini CLI offers a server's tools without asking,
			   non-interactive, only when it is trusted. */
			json_object_set_new(srv, "trust", json_true());
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		printf("\n");
		json_decref(o);
		fprintf(stderr, "# %s for %s; %s\n", strcmp(agent, "claude") ==
		    0 ? ".mcp.json (with the settings 'ptyvisor hook "
		    "claude-code --print-settings' prints)" :
		    "~/.gemini/settings.json", agent, buf_cstr(&b));
	} else {
		*cause = xasprintf("--print-config: '%s' is not claude, codex "
		    "or gemini", agent);
		rc = -1;
	}
	buf_free(&b);
	return rc;
}
