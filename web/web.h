/*
 * web.h - `ptyvisor web`: the browser front end, one more client of the
 * running server (like a console): HTTP and WebSocket served by
 * libwebsockets on its own loop, the control socket adopted into it.
 *
 * It serves the approval page (built into the binary: web/page/), tells
 * every page the waiting requests and sessions as the server's list says
 * them, whenever an event changes them, and passes an approver's
 * decisions to the server as decide requests naming "web (ADDRESS, token
 * NAME)".  Nothing is decided here.
 */
#ifndef PTYVISOR_WEB_H
#define PTYVISOR_WEB_H

#include <stdint.h>
#include <stdio.h>

struct web_opts {
	const char	*socket;	/* the control socket */
	const char	*addr;		/* to listen on, without brackets */
	uint16_t	 port;		/* 0: any free port */
	const char	*cert;		/* TLS, both or neither; NULL: none */
	const char	*key;
	const char	*host;		/* a name it is reached by; NULL */
	const char	*history;	/* the history file; NULL: none */
	const char	*state_dir;	/* its directory (pruned ids); NULL */
	/*
	 * Where xterm.js may be (its package's directory: lib/xterm.js,
	 * css/xterm.css), the first that has it; NULL after the last.  None:
	 * the page has no console, the rest works.
	 */
	const char *const *xterm_dirs;
};

/*
 * Serve until SIGINT, SIGTERM or SIGHUP (0), or until the server goes away
 * or something fails (-1 with *cause).  The page's address and its two
 * tokens' links are written to out once, when it listens.  Refuses an
 * address beyond loopback without cert and key.
 */
int	web_run(const struct web_opts *o, FILE *out, char **cause);

#endif
