/*
 * hook-guard.h - an agent's own file tools judged against the guarded
 * paths (sandbox/guard.h), for `ptyvisor hook`: which paths a tool call
 * writes, and the refusal naming the first one that is guarded.
 */
#ifndef PTYVISOR_HOOK_GUARD_H
#define PTYVISOR_HOOK_GUARD_H

#include <stdbool.h>

#include <jansson.h>

struct sandbox_opts;

/*
 * Whether tool is one of agent's file-writing tools ("claude-code":
 * Write, Edit, MultiEdit, NotebookEdit; "codex": apply_patch; "gemini":
 * write_file, replace).
 */
bool	hook_guard_is_file_tool(const char *agent, const char *tool);

/*
 * Judge one call of a file tool (its tool_input, the hook input's cwd or
 * NULL for ours; the agent's project, where it reads its settings from
 * whatever its cwd now, or NULL) against what every sandbox keeps
 * read-only or hidden:
 * the built-in list and what opts_fn(arg, opts) puts in the sandbox
 * options it is given (ptyvisor's own paths, the settings' protect, hide
 * and expose), asked only when the call names a path.  NULL when no path
 * it writes is guarded (or it names none), else the refusal for the
 * agent (allocated), naming the path and why.
 */
char	*hook_guard_judge(const char *tool, json_t *input, const char *cwd,
	    const char *project, void (*opts_fn)(void *, struct sandbox_opts *),
	    void *arg);

#endif
