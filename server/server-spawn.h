/*
 * server-spawn.h - what an approved request runs with: the server's spawn
 * hook turns the request (control/proto.h's struct proto_exec, as the
 * queue holds it) into a session's options, once, and starts it.
 */
#ifndef PTYVISOR_SERVER_SPAWN_H
#define PTYVISOR_SERVER_SPAWN_H

#include <stddef.h>

struct approval_request;
struct consoles;
struct sandbox_opts;
struct session;
struct sessions;

/* Where and how agents' sessions start (a plain value, all borrowed). */
struct server_spawn {
	struct sessions			*ss;
	const struct sandbox_opts	*sandbox;	/* NULL: the defaults */
	const char			*socket;	/* hosts asked there; NULL:
							   none */
	size_t				 scrollback;	/* lines; 0: default */
	/* Their next pane's size, where one is attached; NULL: the request's. */
	struct consoles			*consoles;
};

/*
 * Start the approved request r as an agent session (the control server's
 * spawn hook): its argv, cwd, timeout and size, in the agents' sandbox
 * with the profile it asked for and the network only if it asked, its
 * environment as server-spawn.c's head comment says.  NULL with *cause
 * for ptyvisor's own problems (a FAILED session is a session).
 */
struct session	*server_spawn(const struct server_spawn *how,
		    const struct approval_request *r, char **cause);

#endif
