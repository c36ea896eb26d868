/*
 * server-spawn.c - what an approved request runs with: the server's spawn hook
 * turns the request (control/proto.h's struct proto_exec, as the queue
 * holds it) into a session's options, once, and starts it.
 *
 * Invariants: an approved request runs in the agents' sandbox with the
 * profile it asked for (parsed once by the protocol; the queue's default
 * when it named none) and the network only if it asked.  Its environment
 * is the agent's own when it sent it (without what a session keeps:
 * session_environ_caller), else ours without LD_*, scrubbed by the
 * sandbox; the request's variables on top (a known read-only command:
 * git's program-running settings turned off instead).  The agent's secret
 * variables were dropped when it was queued; their names go to the
 * session's history line.  Its size is an
 * attached console's next pane where the server says so, else its own.
 */
#include "server/server-spawn.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "control/approval.h"
#include "control/ask-server.h"
#include "policy/policy.h"
#include "sandbox/sandbox.h"
#include "server/consoles.h"
#include "session/session.h"

/* What agents' sessions are told they run on: ptyvisor's emulator. */
#define SERVER_AGENT_TERM	"xterm-256color"

/* The size of r's session: an attached console's next pane, or its own. */
static struct pty_size
server_spawn_size(const struct server_spawn *how, const struct proto_exec *x)
{
	struct pty_size	size;

	if (how->consoles != NULL && consoles_next_size(how->consoles, &size))
		return size;
	size.cols = (unsigned short)(x->cols > 0 ? x->cols : 80);
	size.rows = (unsigned short)(x->rows > 0 ? x->rows : 24);
	return size;
}

struct session *
server_spawn(const struct server_spawn *how, const struct approval_request *r,
    char **cause)
{
	const struct proto_exec	*x = &r->exec;
	struct session_opts	 so;
	struct sandbox_opts	 sbo;
	struct session		*s;
	char			**envp, **extra = NULL;
	char *const		 *over;

	/*
	 * The sandbox the request asked for (parsed once, by the protocol;
	 * the queue's default when it named none), network only if it asked.
	 */
	if (how->sandbox != NULL)
		sbo = *how->sandbox;
	else
		sandbox_opts_init(&sbo);
	sbo.profile = x->sandbox;
	sbo.network = x->network;
	/* A host on neither list is asked where the request came from. */
	sbo.net_ask = how->socket;
	sbo.net_asker = &ask_server;
	/* Hosts the request asked for, shown to whoever approved it. */
	if (x->network_allow != NULL &&
	    sandbox_opts_add_network(&sbo, false, x->network_allow,
	    cause) != 0)
		return NULL;
	/*
	 * Agents' commands run on our emulator, whatever our own TERM; with
	 * the agent's own environment when it sent it (nothing of ours).  A
	 * known read-only command runs with git's program-running settings
	 * turned off (it sets no variables itself: those are asked).
	 */
	memset(&so, 0, sizeof so);
	over = r->known_safe && (x->env == NULL || x->env[0] == NULL) ?
	    policy_known_safe_env() : x->env;
	if (x->environ != NULL) {
		envp = xcalloc(1, sizeof *envp);
		extra = session_environ_caller(x->environ, SERVER_AGENT_TERM,
		    over);
		so.env_extra = extra;
	} else {
		envp = session_environ(SERVER_AGENT_TERM, true);
		so.env_extra = over;
	}
	/*
	 * What the sandbox guards follows the command's own variables: an
	 * agent's HOME or $CODEX_HOME elsewhere than ours is where it reads
	 * its settings.
	 */
	sbo.environ = x->environ != NULL ? extra : envp;
	so.argv = x->argv;
	so.cwd = x->cwd;
	so.envp = envp;
	so.size = server_spawn_size(how, x);
	so.timeout_s = (unsigned)((x->timeout_ms + 999) / 1000);
	so.sandbox = &sbo;
	so.scrollback = how->scrollback;
	so.term = SERVER_AGENT_TERM;
	so.decision = "approved";
	so.by = r->decided_by;
	so.agent = true;
	so.env_dropped = x->env_dropped;
	/* Its number tells the control server whose session it is. */
	so.request = (unsigned long)r->id;
	memcpy(so.pipes, x->pipes, sizeof so.pipes);
	so.err_joined = x->err_joined;
	so.stdin_null = x->stdin_null;
	so.report_cwd = x->report_cwd;
	so.has_umask = x->has_umask;
	so.umask = (mode_t)x->umask;
	/* A hundred agents starting at once must not stop the server. */
	so.async_start = true;
	s = sessions_start(how->ss, &so, cause);
	strv_free(envp);
	strv_free(extra);
	return s;
}
