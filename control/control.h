/*
 * control.h - the control socket server: agents submit commands, follow
 * their output and exit, a filtered network's proxy asks for hosts, people
 * decide requests and consoles attach (doc/protocol.md).
 *
 * One UNIX stream socket in a private directory (0700, owned by us, not
 * group or world writable), the socket itself 0600, every peer checked
 * with SO_PEERCRED (same uid only).  Each side first sends a hello line;
 * then the client sends requests, one JSON object a line, and the server
 * answers with events.  Output to each client is buffered up to a bound: a
 * client that stops reading is disconnected, the loop never blocks on it.
 * Bad input gets an error event (or a clean close) and a log line, and
 * never harms the server or another client.  When a client goes away its
 * running sessions are killed and its pending requests withdrawn, unless
 * control_set_keep_on_disconnect() says otherwise.
 *
 * Sessions are started through the spawn hook, so the caller decides how
 * (sandbox, environment); the server only routes requests, decisions and
 * events.
 */
#ifndef PTYVISOR_CONTROL_H
#define PTYVISOR_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

#include "control/approval.h"
#include "base/loop.h"
#include "session/session.h"

/* What the server asks of its owner. */
struct control_client;
struct proto_request;

struct control_hooks {
	/*
	 * Start the approved request r (r->exec: argv, cwd, env, timeout,
	 * sandbox, network, size; the server's is server/server-spawn.c)
	 * with session_opts.request set to r->id, which tells this server
	 * whose session it is; returns the session (a FAILED one included)
	 * or NULL with *cause for ptyvisor's own problems.
	 */
	struct session	*(*spawn)(void *user, const struct approval_request *r,
			    char **cause);
	/* One log line, without a newline: errors, decisions, clients. */
	void		 (*log)(void *user, const char *line);

	/*
	 * Consoles (attach; all NULL: this server has none), called with
	 * console_user, not user.  console_open makes the front end of
	 * client cl from the attach request and returns it (NULL with
	 * *cause: refused), *tty true when it took the client's terminal
	 * (control_console_take_fds) and draws on it itself; the others get
	 * that value.  Keys and sizes come from the client, console_gone
	 * when it left (a detach: the front end stays the owner's).
	 */
	void		*(*console_open)(void *user, struct control_client *cl,
			    const struct proto_request *req, bool *tty,
			    char **cause);
	void		 (*console_input)(void *console, const void *data,
			    size_t len);
	void		 (*console_resize)(void *console, unsigned int rows,
			    unsigned int cols);
	void		 (*console_gone)(void *console);
	void		*console_user;
	/* shutdown (kill-server): end every session, then the server. */
	void		 (*shutdown)(void *user);
};

struct control;

/*
 * A console's drawn bytes to its client, in order.  A client that stops
 * reading is dropped (console_gone) past CONTROL_CONSOLE_OUT_MAX queued:
 * the server never waits for a console.
 */
#define CONTROL_CONSOLE_OUT_MAX	(8 * 1024 * 1024)
void		 control_console_write(struct control_client *cl,
		    const void *data, size_t len);

/*
 * The descriptors the client passed with its attach line (its terminal's
 * input and output; -1 for none); the caller owns them.  Returns how many.
 */
int		 control_console_take_fds(struct control_client *cl, int fds[2]);

/* What a console's client has not read yet (to stop drawing for it). */
size_t		 control_console_queued(const struct control_client *cl);

/*
 * Tell the console's client why it ends ("detached", "server exited"),
 * send what is queued, close.  console_gone is not called.
 */
void		 control_console_end(struct control_client *cl,
		    const char *why);

/*
 * The socket path (doc/protocol.md): $PTYVISOR_SOCKET, else
 * $XDG_RUNTIME_DIR/ptyvisor/ptyvisor.sock, else
 * /tmp/ptyvisor-$UID/ptyvisor.sock.  Caller frees.
 */
char		*control_socket_path(void);

/*
 * The socket of the server named name (-L NAME): NAME.sock in the default
 * socket's directory (without $PTYVISOR_SOCKET), as tmux names its
 * servers.  control_socket_dir() is that directory.  Caller frees.
 */
char		*control_socket_named(const char *name);
char		*control_socket_dir(void);

/*
 * Listen on path (NULL: control_socket_path()).  Creates the directory
 * 0700 when missing; refuses one owned by someone else or writable by
 * others; removes a stale socket nobody answers on; refuses to start when
 * another server answers.  Serves through loop, routes requests to
 * approval and sessions (both borrowed).  NULL with *cause.
 */
struct control	*control_new(struct loop *loop, struct sessions *ss,
		    struct approval *a, const char *path,
		    const struct control_hooks *hooks, void *user,
		    char **cause);

/* Disconnect every client, close and unlink the socket, free. */
void		 control_free(struct control *c);

/*
 * When keep is true, a client that disconnects leaves its sessions
 * running and its requests pending.  Default false.
 */
void		 control_set_keep_on_disconnect(struct control *c, bool keep);

const char	*control_path(const struct control *c);

/* Connected clients. */
size_t		 control_clients(const struct control *c);

/*
 * Send what every client has queued (a console's last frames), waiting up
 * to timeout_ms in all: for a server about to end.
 */
void		 control_flush_all(struct control *c, int timeout_ms);

#endif
