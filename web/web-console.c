/*
 * web-console.c - the console in a browser terminal: a page's WebSocket
 * ("ptyvisor-console") becomes one more console of the server, attached
 * on a connection of its own; the frames the server draws go to the page
 * as they are (xterm.js renders them), the page's keys and size come back
 * as frames (doc/protocol.md §5b).  Nothing is emulated or drawn here.
 *
 * Invariants: the console's socket is adopted into the loop (libwebsockets
 * closes it), the two halves point at each other until one goes, and the
 * other then follows; a watch-only token attaches a read-only console and
 * its keys go nowhere; output the page has not taken stops the reading of
 * the console's socket past WEB_CONSOLE_BEHIND (the server then holds its
 * frames and later draws the whole screen again), keys the server has not
 * taken close the page past WEB_CONSOLE_KEYS_MAX.
 */
#include "web/web-int.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control/client.h"
#include "control/proto-client.h"
#include "web/web-page.h"

/* How long the server may take to answer the attach. */
#define WEB_CONSOLE_ATTACH_MS	5000
/*
 * What is read or sent at once: a console's frames to the page in
 * messages this big (a page gets the screen as it comes, not in one
 * lump), and the page's reading resumed once its backlog is below it
 * (the server's own resume mark for a console, doc/protocol.md §5b).
 */
#define WEB_CONSOLE_CHUNK	(64 * 1024)

/* Read xterm.js's two files from dir: 0 when both are there. */
static int
web_console_dir(struct web *w, const char *dir)
{
	static const char *const names[2][3] = {
		{ "/xterm/xterm.js", "lib/xterm.js",
		  "text/javascript; charset=utf-8" },
		{ "/xterm/xterm.css", "css/xterm.css",
		  "text/css; charset=utf-8" },
	};
	struct web_file	*f;
	char		*path, chunk[WEB_CONSOLE_CHUNK];
	ssize_t		 n;
	int		 i, fd;

	for (i = 0; i < 2; i++) {
		f = &w->files[i];
		f->path = names[i][0];
		f->type = names[i][2];
		f->data.len = 0;
		path = xasprintf("%s/%s", dir, names[i][1]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		free(path);
		if (fd < 0)
			return -1;
		while ((n = read(fd, chunk, sizeof chunk)) > 0 &&
		    f->data.len + (size_t)n <= WEB_FILE_MAX)
			buf_add(&f->data, chunk, (size_t)n);
		close(fd);
		if (n != 0 || f->data.len == 0) {
			f->data.len = 0;
			return -1;
		}
	}
	return 0;
}

void
web_console_files(struct web *w, const char *const *dirs)
{
	for (; *dirs != NULL; dirs++)
		if (web_console_dir(w, *dirs) == 0)
			return;
	w->files[0].data.len = w->files[1].data.len = 0;
}

void
web_console_files_free(struct web *w)
{
	buf_free(&w->files[0].data);
	buf_free(&w->files[1].data);
}

/* Queue a frame for the server and have it written when it can be. */
static void
web_console_frame(struct web_console *c, char type, const void *p,
    size_t len)
{
	unsigned char	head[PROTO_FRAME_HEAD];

	if (c->raw == NULL)
		return;
	if (c->keys.len + len + sizeof head > WEB_CONSOLE_KEYS_MAX) {
		lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND,
		    LWS_TO_KILL_ASYNC);
		return;
	}
	proto_frame_head(head, type, (uint32_t)len);
	buf_add(&c->keys, head, sizeof head);
	buf_add(&c->keys, p, len);
	lws_callback_on_writable(c->raw);
}

/*
 * Attach a console for page c on a connection of its own: the socket, its
 * first frames in c->in, or -1 with *cause.
 */
static int
web_console_attach(struct web_console *c, char **cause)
{
	struct client		*cl;
	struct proto_request	 req;
	struct proto_event	 ev;
	struct buf		 line = { 0 };
	char			 tty[96], *by;
	int			 rc, fd = -1;

	if ((cl = client_connect(c->w->socket, WEB_CONSOLE_ATTACH_MS,
	    cause)) == NULL)
		return -1;
	/*
	 * Its terminal's name, and who decides in it: the page's own words
	 * (doc/web.md says why the server takes them).
	 */
	snprintf(tty, sizeof tty, "web:%s:%s", c->peer, c->token->name);
	by = web_page_by(c->peer, c->token->name);
	memset(&req, 0, sizeof req);
	req.id = (char *)"a";
	req.term = (char *)"xterm-256color";
	req.cols = 80;
	req.rows = 24;
	req.readonly = c->token->role != WEB_ROLE_APPROVER;
	req.tty = tty;
	req.by = by;
	proto_req_attach(&line, &req);
	rc = client_send_line(cl, &line, cause);
	buf_free(&line);
	free(by);
	if (rc == 0 && (rc = client_wait_event(cl, "a",
	    WEB_CONSOLE_ATTACH_MS, &ev, cause)) == 1) {
		if (ev.kind == PROTO_EV_ATTACHED)
			fd = client_take_socket(cl, &c->in);
		else
			*cause = xstrdup(ev.message != NULL ? ev.message :
			    "the server refused a console");
		proto_event_free(&ev);
	} else if (rc == 0)
		*cause = xstrdup("the server did not answer the attach");
	client_free(cl);
	return fd;
}

/* The frames read so far: drawn output to the page; the last word. */
static int
web_console_frames(struct web_console *c)
{
	size_t		off = 0;
	uint32_t	len;
	char		type;

	while (c->end == NULL && proto_frame_peek(c->in.data + off,
	    c->in.len - off, &type, &len)) {
		if (c->in.len - off < PROTO_FRAME_HEAD + (size_t)len)
			break;
		off += PROTO_FRAME_HEAD;
		if (type == 'o')
			buf_add(&c->out, c->in.data + off, len);
		else if (type == 'x')
			c->end = xstrndup(c->in.data + off, len);
		else
			return -1;
		off += len;
	}
	if (off > 0) {
		memmove(c->in.data, c->in.data + off, c->in.len - off);
		c->in.len -= off;
	}
	if (c->out.len > 0 || c->end != NULL)
		lws_callback_on_writable(c->wsi);
	if (c->out.len > WEB_CONSOLE_BEHIND && !c->paused) {
		c->paused = true;
		lws_rx_flow_control(c->raw, 0);
	}
	return 0;
}

/* Write what the page is due: drawn output, then the last word. */
static int
web_console_write(struct web_console *c)
{
	unsigned char	*p;
	size_t		 n = c->out.len;
	int		 rc;

	if (n > 0) {
		if (n > WEB_CONSOLE_CHUNK)
			n = WEB_CONSOLE_CHUNK;
		p = xmalloc(LWS_PRE + n);
		memcpy(p + LWS_PRE, c->out.data, n);
		rc = lws_write(c->wsi, p + LWS_PRE, n, LWS_WRITE_BINARY);
		free(p);
		if (rc < (int)n)
			return -1;
		memmove(c->out.data, c->out.data + n, c->out.len - n);
		c->out.len -= n;
		if (c->paused && c->out.len < WEB_CONSOLE_CHUNK &&
		    c->raw != NULL) {
			c->paused = false;
			lws_rx_flow_control(c->raw, 1);
		}
	} else if (c->end != NULL) {
		n = strlen(c->end);
		p = xmalloc(LWS_PRE + n + 1);
		memcpy(p + LWS_PRE, c->end, n);
		rc = lws_write(c->wsi, p + LWS_PRE, n, LWS_WRITE_TEXT);
		free(p);
		lws_close_reason(c->wsi, LWS_CLOSE_STATUS_NORMAL, NULL, 0);
		return -1;
	}
	if (c->out.len > 0 || c->end != NULL)
		lws_callback_on_writable(c->wsi);
	return 0;
}

/*
 * A message from the page: its size as JSON text ({"cols":C,"rows":R}),
 * or keys as bytes (dropped for a read-only console).
 */
static void
web_console_message(struct web_console *c, const void *in, size_t len,
    bool binary)
{
	json_t		*o;
	json_int_t	 cols, rows;
	unsigned char	 size[4];

	if (binary) {
		if (c->token->role == WEB_ROLE_APPROVER)
			web_console_frame(c, 'k', in, len);
		return;
	}
	if ((o = json_loadb(in, len, 0, NULL)) == NULL)
		return;
	cols = json_integer_value(json_object_get(o, "cols"));
	rows = json_integer_value(json_object_get(o, "rows"));
	json_decref(o);
	if (cols < 1 || cols > PROTO_SIZE_MAX || rows < 1 ||
	    rows > PROTO_SIZE_MAX)
		return;
	proto_frame_size(size, (unsigned int)rows, (unsigned int)cols);
	web_console_frame(c, 'r', size, sizeof size);
}

/* Open the console of a page just connected; -1 closes the page. */
static int
web_console_open(struct web_console *c, struct web *w, struct lws *wsi)
{
	lws_adopt_desc_t	 info;
	char			*cause = NULL;
	int			 fd;

	c->w = w;
	c->wsi = wsi;
	c->counted = true;
	w->nconsoles++;
	if ((fd = web_console_attach(c, &cause)) < 0) {
		c->end = xasprintf("no console: %s", cause);
		free(cause);
		lws_callback_on_writable(wsi);
		return 0;
	}
	memset(&info, 0, sizeof info);
	info.vh = w->vh;
	info.type = LWS_ADOPT_RAW_FILE_DESC;
	info.fd.filefd = fd;
	info.vh_prot_name = "ptyvisor-frames";
	info.opaque = c;
	if ((c->raw = lws_adopt_descriptor_vhost_via_info(&info)) == NULL) {
		close(fd);
		return -1;
	}
	return web_console_frames(c);
}

int
web_console_cb(struct lws *wsi, enum lws_callback_reasons reason,
    void *user, void *in, size_t len)
{
	struct web		*w = web_of(wsi);
	struct web_console	*c = user;

	switch (reason) {
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		if (c == NULL || w->nconsoles >= WEB_CONSOLES_MAX ||
		    w->files[0].data.len == 0)
			return -1;
		return web_ws_allowed(w, wsi, &c->token, c->peer) ? 0 : -1;
	case LWS_CALLBACK_ESTABLISHED:
		if (c->token == NULL)
			return -1;
		return web_console_open(c, w, wsi);
	case LWS_CALLBACK_RECEIVE:
		if (len > WEB_CONSOLE_KEYS_MAX)
			return -1;
		web_console_message(c, in, len, lws_frame_is_binary(wsi));
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return web_console_write(c);
	case LWS_CALLBACK_CLOSED:
		if (c->raw != NULL) {
			lws_set_opaque_user_data(c->raw, NULL);
			lws_set_timeout(c->raw, PENDING_TIMEOUT_CLOSE_SEND,
			    LWS_TO_KILL_ASYNC);
		}
		if (c->counted)
			w->nconsoles--;
		buf_free(&c->in);
		buf_free(&c->out);
		buf_free(&c->keys);
		free(c->end);
		return 0;
	default:
		return 0;
	}
}

int
web_frames_cb(struct lws *wsi, enum lws_callback_reasons reason, void *user,
    void *in, size_t len)
{
	struct web_console	*c = lws_get_opaque_user_data(wsi);
	char			 chunk[WEB_CONSOLE_CHUNK];
	ssize_t			 n;

	switch (reason) {
	case LWS_CALLBACK_RAW_RX_FILE:
		if (c == NULL)
			return -1;
		n = read(lws_get_socket_fd(wsi), chunk, sizeof chunk);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n <= 0) {
			if (c->end == NULL)
				c->end = xstrdup("the server closed the "
				    "console");
			lws_callback_on_writable(c->wsi);
			return -1;
		}
		buf_add(&c->in, chunk, (size_t)n);
		return web_console_frames(c);
	case LWS_CALLBACK_RAW_WRITEABLE_FILE:
		if (c == NULL || c->keys.len == 0)
			return 0;
		n = write(lws_get_socket_fd(wsi), c->keys.data, c->keys.len);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		if (n > 0) {
			memmove(c->keys.data, c->keys.data + n,
			    c->keys.len - (size_t)n);
			c->keys.len -= (size_t)n;
		}
		if (c->keys.len > 0)
			lws_callback_on_writable(wsi);
		return 0;
	case LWS_CALLBACK_RAW_CLOSE_FILE:
		if (c != NULL) {
			c->raw = NULL;
			if (c->end == NULL)
				c->end = xstrdup("the console ended");
			lws_callback_on_writable(c->wsi);
		}
		return 0;
	default:
		return 0;
	}
}
