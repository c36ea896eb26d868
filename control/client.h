/*
 * client.h - the client side of the control protocol, for the small
 * commands (pending, approve, deny, ls, kill-server), the console's
 * client (attach), the agents' shim (exec) and the MCP server.
 *
 * client_connect() connects and exchanges hellos; then requests are sent
 * as lines built by the codec (control/proto-client.h) and events read
 * one line at a time, each with a timeout, decoded into a struct
 * proto_event.  The fd can be polled by the caller along with its own
 * fds; client_read_event() with a zero timeout then takes what has
 * arrived.
 */
#ifndef PTYVISOR_CLIENT_H
#define PTYVISOR_CLIENT_H

/* For its users' sake (cli/hook.c): nothing here takes a JSON value. */
#include <jansson.h>

struct buf;
struct client;
struct proto_event;

/*
 * Connect to the server at path (NULL: control_socket_path()) and do the
 * hello handshake within timeout_ms.  NULL with *cause ("no ptyvisor
 * server at PATH" when nothing listens).
 */
struct client	*client_connect(const char *path, int timeout_ms,
		    char **cause);
/*
 * client_connect(), with first (request lines, newline included; NULL:
 * none) sent in the hello's own write, before the server's hello is read:
 * one round trip fewer for a client that knows its request.  The server
 * takes a connection's lines in order, the hello first.
 */
struct client	*client_connect_send(const char *path, int timeout_ms,
		    const struct buf *first, char **cause);
void		 client_free(struct client *cl);
int		 client_fd(const struct client *cl);

/* Send one request line (proto_req_*, newline included).  -1 with *cause. */
int		 client_send_line(struct client *cl, const struct buf *line,
		    char **cause);

/*
 * The same, passing up to 2 descriptors with the line (SCM_RIGHTS): a
 * console's terminal.  They arrive only on a local socket (not through
 * a socket ssh forwards).
 */
int		 client_send_fds(struct client *cl, const struct buf *line,
		    const int *fds, int nfds, char **cause);

/*
 * The next event, decoded: 1 with *ev (proto_event_free it), 0 when none
 * came within timeout_ms (-1: wait forever), -1 with *cause when the
 * server closed the connection or sent something that is not an event.
 */
int		 client_read_event(struct client *cl, int timeout_ms,
		     struct proto_event *ev, char **cause);

/*
 * Read events until one whose "id" is id arrives (others are dropped):
 * 1 with *ev, 0 on timeout, -1 with *cause.
 */
int		 client_wait_event(struct client *cl, const char *id,
		     int timeout_ms, struct proto_event *ev, char **cause);

/* The server's pid, as its hello said (0: it did not). */
long		 client_server_pid(const struct client *cl);

/*
 * Take the socket (the client keeps it no longer) and append to rest what
 * was read past the last line: a console's first frames.
 */
int		 client_take_socket(struct client *cl, struct buf *rest);

#endif
