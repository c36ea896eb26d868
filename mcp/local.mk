# mcp/: the Model Context Protocol's JSON-RPC layer of `ptyvisor mcp` (both
# eras, the tool list, errors) and the output cap.  Pure: no I/O, no
# sockets; uses base/ only.  The runtime that carries tools out over the
# control protocol is cli/mcp.c.
noinst_LIBRARIES += libmcp.a
libmcp_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libmcp_a_SOURCES = mcp/mcp.c mcp/mcp.h mcp/tools.c \
	mcp/outcap.c mcp/outcap.h \
	mcp/mcpd.c mcp/mcp-int.h mcp/mcp-jobs.c mcp/mcp-tools.c \
	mcp/mcp-results.c mcp/mcp-config.c
