/*
 * hook.h - `ptyvisor hook AGENT`: one core for the hooks each agent runs
 * before a tool call, three wire formats (Claude Code's and Codex's
 * PreToolUse, Gemini CLI's BeforeTool).
 *
 * An agent's own shell tool is allowed with its command rewritten to run
 * through `ptyvisor exec` (in the shell the tool would have used), so the
 * command passes ptyvisor's rules, approval, sandbox and recording, and
 * its output, exit status and any denial reach the agent as they would
 * without ptyvisor.  Its own file tools are denied a guarded path
 * (hook-guard.h).  Every other call gets no decision.
 */
#ifndef PTYVISOR_HOOK_H
#define PTYVISOR_HOOK_H

#include <stdbool.h>
#include <stdio.h>

struct sandbox_opts;
struct hook_agent;

/* What the caller knows of this ptyvisor, asked only when a call needs it. */
struct hook_host {
	void		*arg;
	/* Whether the settings file reads (false blocks a shell call). */
	bool		 (*settings_ok)(void *arg);
	/* The sandbox options whose guarded paths file tools are held to. */
	void		 (*guards)(void *arg, struct sandbox_opts *opts);
	/* The usual server's socket (allocated), when none was named. */
	char		*(*socket)(void *arg);
};

struct hook_opts {
	const char	*self;		/* this binary, absolute */
	const char	*socket;	/* named by --socket or -L (the
					   rewritten exec names it too), or
					   NULL: the host's */
	const char	*absent;	/* no server: "deny", "ask", "allow" */
	const struct hook_host *host;
};

/* The agent named name ("claude-code", "codex", "gemini"), or NULL. */
const struct hook_agent	*hook_agent_find(const char *name);

/*
 * Answer the one call whose JSON is on in, on out: 0; 2 to block the call,
 * the reason on stderr (an input that is not a JSON object, settings that
 * do not read): each agent refuses a call whose hook exits 2.
 */
int	hook_answer(const struct hook_agent *a, const struct hook_opts *o,
	    FILE *in, FILE *out);

/* Print the hook's entries for the agent's settings file: 0. */
int	hook_print_settings(const struct hook_agent *a, const char *self,
	    FILE *out);

#endif
