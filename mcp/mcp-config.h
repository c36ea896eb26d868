/*
 * mcp-config.h - `ptyvisor mcp --print-config AGENT`: the snippet that
 * plugs this binary's MCP server into an agent's settings.
 */
#ifndef PTYVISOR_MCP_CONFIG_H
#define PTYVISOR_MCP_CONFIG_H

/*
 * Print the snippet for agent (claude, codex, gemini) that starts the
 * server at self (this binary's path): 0, or -1 with *cause for an agent
 * it does not know.
 */
int	mcp_config_print(const char *agent, const char *self, char **cause);

#endif
