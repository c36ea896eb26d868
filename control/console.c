/*
 * console.c - consoles on the control socket: `ptyvisor attach` sends an
 * attach request, and from the server's answer on its connection carries
 * frames instead of lines (doc/protocol.md, "Consoles"):
 *
 *   type (1 byte)  length (4 bytes, big-endian)  payload
 *
 * from the client 'k' (keys, as its terminal sent them) and 'r' (rows and
 * columns, 2 bytes each, big-endian); from the server 'o' (what the front
 * end drew) and, last, 'x' (why the console ends, text).  The front end
 * itself is the owner's (hooks.console_open): this file only moves bytes,
 * with bounds: a frame from a client is at most CONTROL_FRAME_MAX bytes,
 * and output a client leaves unread at most CONTROL_CONSOLE_OUT_MAX.
 */
#include "control/control-int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The largest frame a client may send (keys come in far smaller ones). */
#define CONTROL_FRAME_MAX	(64 * 1024)

void
control_op_attach(struct control_client *cl, struct proto_request *req)
{
	struct control	*c = cl->c;
	struct buf	 b = { 0 };
	char		*cause = NULL;
	void		*console;
	bool		 tty = false;

	if (c->hooks.console_open == NULL) {
		control_error(cl, req->id, PROTO_ERR_STATE, "this server has "
		    "no consoles (it was started by 'ptyvisor serve')");
		return;
	}
	if (cl->subscribed || cl->console != NULL) {
		control_error(cl, req->id, PROTO_ERR_STATE, "attach must be "
		    "the connection's only request after hello");
		return;
	}
	if ((console = c->hooks.console_open(c->hooks.console_user, cl, req, &tty,
	    &cause)) == NULL) {
		control_drop_fds(cl);
		control_error(cl, req->id, PROTO_ERR_STATE, cause);
		free(cause);
		return;
	}
	control_drop_fds(cl);	/* what the owner did not take */
	/* The answer is the last line: frames follow, both ways. */
	proto_ev_attached(&b, req->id, cl->serial, tty);
	control_send(cl, &b);
	buf_free(&b);
	cl->console = console;
	control_log(c, "client %lu (pid %ld) attached a console (%s, %ux%u%s%s)",
	    cl->serial, (long)cl->pid, req->term, req->cols, req->rows,
	    req->readonly ? ", read-only" : "", tty ? ", its terminal" :
	    ", frames");
	/* A front end that names who decides there: which client it is. */
	if (req->by != NULL)
		control_log(c, "client %lu (pid %ld, %s) decides in its "
		    "console for %s", cl->serial, (long)cl->pid,
		    cl->exe != NULL ? cl->exe : "?", req->by);
}

/* A client sent what no console client sends: drop it. */
static void
control_console_bad(struct control_client *cl, const char *why)
{
	control_log(cl->c, "console client %lu (pid %ld): %s, disconnecting",
	    cl->serial, (long)cl->pid, why);
	control_client_close(cl);
}

void
control_console_frames(struct control_client *cl)
{
	struct control		*c = cl->c;
	const unsigned char	*p;
	unsigned int		 rows, cols;
	uint32_t		 len;
	size_t			 off = 0;
	char			 type;

	while (!cl->dead && !cl->closing && cl->console != NULL &&
	    proto_frame_peek(cl->in.data + off, cl->in.len - off, &type,
	    &len)) {
		if (len > CONTROL_FRAME_MAX) {
			control_console_bad(cl, "frame too long");
			return;
		}
		if (cl->in.len - off < PROTO_FRAME_HEAD + len)
			break;
		p = (const unsigned char *)cl->in.data + off +
		    PROTO_FRAME_HEAD;
		off += PROTO_FRAME_HEAD + len;
		switch (type) {
		case 'k':
			if (len > 0)
				c->hooks.console_input(cl->console, p, len);
			break;
		case 'r':
			if (len != 4) {
				control_console_bad(cl, "bad resize frame");
				return;
			}
			proto_frame_size_read(p, &rows, &cols);
			if (rows < 1 || cols < 1 || rows > PROTO_SIZE_MAX ||
			    cols > PROTO_SIZE_MAX) {
				control_console_bad(cl, "bad size");
				return;
			}
			c->hooks.console_resize(cl->console, rows, cols);
			break;
		default:
			control_console_bad(cl, "unknown frame");
			return;
		}
	}
	if (!cl->dead)
		buf_consume(&cl->in, off);
}

/* Queue one frame. */
static void
control_console_frame(struct control_client *cl, char type, const void *data,
    size_t len)
{
	unsigned char	head[PROTO_FRAME_HEAD];

	proto_frame_head(head, type, (uint32_t)len);
	buf_add(&cl->out, head, sizeof head);
	buf_add(&cl->out, data, len);
}

void
control_console_write(struct control_client *cl, const void *data,
    size_t len)
{
	if (cl == NULL || cl->dead || cl->closing || len == 0)
		return;
	if (cl->out.len + len > CONTROL_CONSOLE_OUT_MAX) {
		control_log(cl->c, "console client %lu (pid %ld) is not "
		    "reading: more than %d bytes queued, detaching it",
		    cl->serial, (long)cl->pid, CONTROL_CONSOLE_OUT_MAX);
		cl->out.len = 0;
		control_client_close(cl);
		return;
	}
	control_console_frame(cl, 'o', data, len);
	control_client_flush(cl);
}

int
control_console_take_fds(struct control_client *cl, int fds[2])
{
	int	n = cl->nfds;

	fds[0] = n > 0 ? cl->fds[0] : -1;
	fds[1] = n > 1 ? cl->fds[1] : -1;
	cl->nfds = 0;
	return n;
}

size_t
control_console_queued(const struct control_client *cl)
{
	return cl->dead ? 0 : cl->out.len;
}

void
control_console_end(struct control_client *cl, const char *why)
{
	if (cl == NULL || cl->dead || cl->closing)
		return;
	cl->console = NULL;	/* the owner knows: no console_gone */
	control_console_frame(cl, 'x', why, strlen(why));
	control_client_finish(cl);
}
