# mcp/: `ptyvisor mcp`, the MCP server on stdio: the JSON-RPC layer (both
# eras; pure), the tools, the jobs that carry them out as clients of the
# control socket, their answers, the output cap and --print-config.
# Uses base/, term/ (a job's text), conf/ (the cap's bounds) and control/
# (the client).
noinst_LIBRARIES += libmcp.a
libmcp_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libmcp_a_SOURCES = mcp/mcp.c mcp/mcp.h mcp/outcap.c mcp/outcap.h \
	mcp/tools.c mcp/tools.h mcp/tool-run.c mcp/tool-session.c \
	mcp/mcpd.c mcp/mcpd.h mcp/mcp-int.h mcp/mcp-jobs.c \
	mcp/mcp-results.c mcp/mcp-config.c mcp/mcp-config.h \
	mcp/hook.c mcp/hook.h mcp/hook-guard.c mcp/hook-guard.h
