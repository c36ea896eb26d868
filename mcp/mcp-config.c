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

/* --print-config: the snippet for an agent's configuration. */
int
mcp_config_print(const char *agent, const char *self, char **cause)
{
	struct buf	 b = { 0 };
	json_t		*o;
	int		 rc = 0;
	size_t		 i;

	buf_adds(&b, "ptyvisor mcp speaks MCP");
	for (i = 0; mcp_versions[i] != NULL; i++)
		buf_printf(&b, "%s %s", i == 0 ? "" : ",", mcp_versions[i]);
	if (strcmp(agent, "codex") == 0) {
		/* TOML: the path as a basic string, escaped as JSON is. */
		printf("# ~/.codex/config.toml (%s)\n[mcp_servers.ptyvisor]\n"
		    "command = ", buf_cstr(&b));
		o = json_string(self);
		json_dumpf(o, stdout, JSON_ENCODE_ANY);
		json_decref(o);
		printf("\nargs = [\"mcp\"]\n# run returns after wait_s (50 s) "
		    "with the session still running: within this\n"
		    "tool_timeout_sec = 120\n");
	} else if (strcmp(agent, "claude") == 0 ||
	    strcmp(agent, "gemini") == 0) {
		o = json_pack("{s:{s:{s:s, s:[s]}}}", "mcpServers", "ptyvisor",
		    "command", self, "args", "mcp");
		if (strcmp(agent, "claude") == 0)
			json_object_set_new(json_object_get(json_object_get(o,
			    "mcpServers"), "ptyvisor"), "type",
			    json_string("stdio"));
		else
			json_object_set_new(json_object_get(json_object_get(o,
			    "mcpServers"), "ptyvisor"), "timeout",
			    json_integer(120000));
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		printf("\n");
		json_decref(o);
		fprintf(stderr, "# %s for %s; %s\n", strcmp(agent, "claude") ==
		    0 ? ".mcp.json" : "~/.gemini/settings.json", agent,
		    buf_cstr(&b));
	} else {
		*cause = xasprintf("--print-config: '%s' is not claude, codex "
		    "or gemini", agent);
		rc = -1;
	}
	buf_free(&b);
	return rc;
}
