/*
 * hook-guard.c - an agent's own file tools, which write outside any
 * sandbox, held to what every sandbox keeps read-only or hidden
 * (sandbox/guard.h): the paths a call writes (Claude Code's file_path or
 * notebook_path, Gemini CLI's file_path or absolute_path, the file lines
 * of a Codex patch), each resolved against the hook input's directory
 * and judged with guard_find_write(); the first guarded one refuses the
 * whole call.
 *
 * The guarded set is the one a sandbox started there would keep: the
 * sandbox options the caller gives (the settings' protect, hide and
 * expose, and ptyvisor's own paths), expanded by sandbox_opts_guards().
 */
#include "mcp/hook-guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "sandbox/sandbox.h"

/* A list of paths. */
struct hook_guard_paths {
	char	**v;
	size_t	  n;
};

/* Add the len bytes at p to v. */
static void
hook_guard_add(struct hook_guard_paths *v, const char *p, size_t len)
{
	v->v = xreallocarray(v->v, v->n + 1, sizeof *v->v);
	v->v[v->n++] = xstrndup(p, len);
}

/* The file-writing tools of each agent the hook speaks for. */
static const struct {
	const char	*agent;
	const char	*tool;
} hook_guard_tools[] = {
	{ "claude-code", "Write" },
	{ "claude-code", "Edit" },
	{ "claude-code", "MultiEdit" },
	{ "claude-code", "NotebookEdit" },
	{ "codex", "apply_patch" },
	{ "gemini", "write_file" },
	{ "gemini", "replace" },
};

bool
hook_guard_is_file_tool(const char *agent, const char *tool)
{
	size_t	i;

	for (i = 0; i < sizeof hook_guard_tools / sizeof hook_guard_tools[0];
	    i++)
		if (strcmp(hook_guard_tools[i].agent, agent) == 0 &&
		    strcmp(hook_guard_tools[i].tool, tool) == 0)
			return true;
	return false;
}

/*
 * Add the paths a Codex patch (its envelope's "*** Add File: P", "***
 * Update File: P", "*** Delete File: P" and "*** Move to: P" lines) names
 * to v.
 */
static void
hook_guard_patch(const char *patch, struct hook_guard_paths *v)
{
	static const char *const heads[] = { "*** Add File: ",
	    "*** Update File: ", "*** Delete File: ", "*** Move to: " };
	const char	*line, *end, *p;
	size_t		 i, len;

	for (line = patch; *line != '\0'; line = *end == '\0' ? end : end + 1) {
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		for (i = 0; i < sizeof heads / sizeof heads[0]; i++) {
			len = strlen(heads[i]);
			if ((size_t)(end - line) <= len ||
			    strncmp(line, heads[i], len) != 0)
				continue;
			p = line + len;
			len = (size_t)(end - p);
			while (len > 0 && (p[len - 1] == '\r' ||
			    p[len - 1] == ' ' || p[len - 1] == '\t'))
				len--;
			if (len > 0)
				hook_guard_add(v, p, len);
		}
	}
}

/* The paths one call of tool writes, into v. */
static void
hook_guard_targets(const char *tool, json_t *input, struct hook_guard_paths *v)
{
	static const char *const keys[] = { "file_path", "notebook_path",
	    "absolute_path" };
	json_t	*cmd, *s;
	size_t	 i;

	if (strcmp(tool, "apply_patch") == 0) {
		/* The patch as text, or as the words apply_patch ran with. */
		cmd = json_object_get(input, "command");
		if (json_is_string(cmd))
			hook_guard_patch(json_string_value(cmd), v);
		json_array_foreach(cmd, i, s)
			if (json_is_string(s))
				hook_guard_patch(json_string_value(s), v);
		return;
	}
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (json_is_string(s = json_object_get(input, keys[i])) &&
		    *json_string_value(s) != '\0')
			hook_guard_add(v, json_string_value(s),
			    strlen(json_string_value(s)));
}

/* How g is kept, and what an agent may not do to it, in words. */
#define HOOK_GUARD_HOW(g)	((g)->how == GUARD_HIDDEN ? "hidden" : \
				    "protected")
#define HOOK_GUARD_VERB(g)	((g)->how == GUARD_HIDDEN ? "write" : \
				    "change")

char *
hook_guard_judge(const char *tool, json_t *input, const char *cwd,
    const char *project, void (*opts_fn)(void *, struct sandbox_opts *),
    void *arg)
{
	const struct guard_path	*g = NULL;
	struct sandbox_opts	 opts;
	struct guard_set	 set;
	struct hook_guard_paths	 v = { 0 };
	char			*here = NULL, *target = NULL, *refusal = NULL;
	size_t			 i;

	hook_guard_targets(tool, input, &v);
	if (v.n == 0)
		return NULL;
	if (cwd == NULL || cwd[0] != '/')
		cwd = here = getcwd(NULL, 0);
	if (cwd == NULL)
		cwd = "/";
	opts_fn(arg, &opts);
	sandbox_opts_guards(&opts, cwd, project, &set);
	for (i = 0; g == NULL && i < v.n; i++) {
		free(target);
		g = guard_find_write(&set, cwd, v.v[i], &target);
	}
	if (g != NULL && guard_path_under(target, g->path))
		refusal = xasprintf("ptyvisor: %s is %s (%s): an agent may "
		    "not %s it.  %s", target, HOOK_GUARD_HOW(g), g->why,
		    HOOK_GUARD_VERB(g), GUARD_SUMMARY);
	else if (g != NULL)
		refusal = xasprintf("ptyvisor: %s leads to %s, which is %s "
		    "(%s): an agent may not %s it.  %s", target, g->path,
		    HOOK_GUARD_HOW(g), g->why, HOOK_GUARD_VERB(g),
		    GUARD_SUMMARY);
	free(target);
	guard_set_free(&set);
	for (i = 0; i < v.n; i++)
		free(v.v[i]);
	free(v.v);
	free(here);
	return refusal;
}
