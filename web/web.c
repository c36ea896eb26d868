/*
 * web.c - `ptyvisor web`'s loop: libwebsockets serves HTTP and the page's
 * WebSockets; the control socket and a signalfd are adopted into the same
 * loop as raw descriptors (libwebsockets 4.1 has no external poll to hand
 * ours to), so one poll(2) serves everything.
 *
 * Invariants: every request is checked for its Host (DNS rebinding) before
 * anything else; the API and every WebSocket need a token, sent in a
 * header (a WebSocket's in its Sec-WebSocket-Protocol, since a browser
 * cannot set other headers on one) and an Origin that is the page's own;
 * the state a page sees is the server's last list, asked for again on
 * every event that changes it; a decision goes to the server as it is and
 * its answer back to the page that made it.  Every bound below has its
 * why.  Nothing is decided here.
 */
#include "web/web.h"

#include <errno.h>
#include <fcntl.h>
#include <libwebsockets.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "base/util.h"
#include "control/client.h"
#include "control/proto-client.h"
#include "net/ownport.h"
#include "record/history.h"
#include "web/assets.h"
#include "web/web-int.h"
#include "web/web-auth.h"
#include "web/web-page.h"

/* A decision's answer from the server, back to the page that made it. */
static void
web_decided(struct web *w, const struct proto_event *ev)
{
	struct web_decide	*d;
	int			 i;

	for (i = 0; i < WEB_DECIDES_MAX; i++) {
		d = &w->decides[i];
		if (d->id[0] == '\0' || strcmp(d->id, ev->id) != 0)
			continue;
		if (d->conn != NULL)
			web_conn_send(d->conn, web_page_result(d->tag,
			    ev->kind == PROTO_EV_OK, ev->kind == PROTO_EV_OK ?
			    ev->not_saved : ev->message));
		free(d->tag);
		memset(d, 0, sizeof *d);
		return;
	}
}

/* One event from the server. */
static void
web_on_event(struct web *w, struct proto_event *ev)
{
	struct web_conn		*c;
	struct history_list	 hl;
	char			*cause = NULL;

	switch (ev->kind) {
	case PROTO_EV_LIST:
		if (ev->id == NULL || ev->id[0] != 'L')
			return;
		/* The history as it is now: what just ended is in it. */
		if (w->history == NULL || history_load_tail(w->history,
		    WEB_HISTORY_TAIL, &hl, &cause) != 0) {
			free(cause);
			memset(&hl, 0, sizeof hl);
		}
		free(w->state);
		w->state = web_page_state(ev, &hl);
		web_view_entries(w, &hl);
		history_list_free(&hl);
		for (c = w->conns; c != NULL; c = c->next) {
			c->state_due = true;
			lws_callback_on_writable(c->wsi);
		}
		w->list_asked = false;
		if (w->list_again) {
			w->list_again = false;
			web_refresh(w);
		}
		return;
	case PROTO_EV_EXIT:
		web_view_event(w, ev);
		/* FALLTHROUGH */
	case PROTO_EV_QUEUED:
	case PROTO_EV_APPROVED:
	case PROTO_EV_DENIED:
	case PROTO_EV_WITHDRAWN:
	case PROTO_EV_STARTED:
		web_refresh(w);
		return;
	case PROTO_EV_OUTPUT:
	case PROTO_EV_RESIZED:
	case PROTO_EV_SKIPPED:
	case PROTO_EV_SCREEN:
		web_view_event(w, ev);
		return;
	case PROTO_EV_OK:
	case PROTO_EV_ERROR:
		if (ev->id != NULL && ev->id[0] == 'd')
			web_decided(w, ev);
		else if (ev->id != NULL && ev->id[0] == 'v')
			web_view_event(w, ev);
		return;
	default:
		return;
	}
}

/* The control socket is readable: take every event that has come. */
static int
web_control_cb(struct lws *wsi, enum lws_callback_reasons reason,
    void *user, void *in, size_t len)
{
	struct web		*w = web_of(wsi);
	struct proto_event	 ev;
	char			*cause = NULL;
	int			 rc;

	switch (reason) {
	case LWS_CALLBACK_RAW_RX_FILE:
		while ((rc = client_read_event(w->cl, 0, &ev, &cause)) == 1) {
			web_on_event(w, &ev);
			proto_event_free(&ev);
		}
		if (rc < 0) {
			web_stop(w, cause);
			free(cause);
			return -1;
		}
		return 0;
	case LWS_CALLBACK_RAW_CLOSE_FILE:
		web_stop(w, "the server closed the connection");
		return 0;
	default:
		return 0;
	}
}

/* SIGINT, SIGTERM or SIGHUP came (the signalfd is readable). */
static int
web_signal_cb(struct lws *wsi, enum lws_callback_reasons reason,
    void *user, void *in, size_t len)
{
	struct signalfd_siginfo	 si;
	int			 fd;

	if (reason != LWS_CALLBACK_RAW_RX_FILE)
		return 0;
	fd = lws_get_socket_fd(wsi);
	if (read(fd, &si, sizeof si) > 0)
		web_stop(web_of(wsi), NULL);
	return 0;
}

/*
 * Answer an HTTP request with status, a body of len bytes of type and the
 * headers every answer carries: no framing, no sniffing, no referrer, no
 * cache, scripts and connections only from the page's own origin.
 */
static int
web_http_reply(struct lws *wsi, unsigned int status, const char *type,
    const void *body, size_t len)
{
	static const char *const hdrs[][2] = {
		/*
		 * xterm.js writes its colours into a <style> of its own:
		 * styles may be inline, scripts never.
		 */
		{ "content-security-policy:", "default-src 'none'; "
		  "script-src 'self'; style-src 'self' 'unsafe-inline'; "
		  "img-src 'self'; "
		  "connect-src 'self'; base-uri 'none'; form-action 'none'; "
		  "frame-ancestors 'none'" },
		{ "x-content-type-options:", "nosniff" },
		{ "x-frame-options:", "DENY" },
		{ "referrer-policy:", "no-referrer" },
		{ "cache-control:", "no-store" },
	};
	unsigned char	 head[LWS_PRE + 2048], *start = head + LWS_PRE;
	unsigned char	*p = start, *end = head + sizeof head - 1, *out;
	size_t		 i;
	int		 rc;

	if (lws_add_http_common_headers(wsi, status, type, len, &p, end) != 0)
		return -1;
	for (i = 0; i < sizeof hdrs / sizeof hdrs[0]; i++)
		if (lws_add_http_header_by_name(wsi, (const unsigned char *)
		    hdrs[i][0], (const unsigned char *)hdrs[i][1],
		    (int)strlen(hdrs[i][1]), &p, end) != 0)
			return -1;
	if (status == HTTP_STATUS_UNAUTHORIZED && lws_add_http_header_by_name(
	    wsi, (const unsigned char *)"www-authenticate:",
	    (const unsigned char *)"Bearer", 6, &p, end) != 0)
		return -1;
	if (lws_finalize_write_http_header(wsi, start, &p, end) != 0)
		return -1;
	out = xmalloc(LWS_PRE + len + 1);
	memcpy(out + LWS_PRE, body, len);
	rc = lws_write(wsi, out + LWS_PRE, len, LWS_WRITE_HTTP_FINAL);
	free(out);
	if (rc < 0)
		return -1;
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* A short text answer. */
static int
web_http_text(struct lws *wsi, unsigned int status, const char *text)
{
	return web_http_reply(wsi, status, "text/plain; charset=utf-8", text,
	    strlen(text));
}

/* An HTTP request for path: the page's files, or the API. */
static int
web_http(struct web *w, struct lws *wsi, const char *path)
{
	const struct web_asset	*a;
	const struct web_token	*t;
	char			 buf[WEB_HEADER_MAX], *s;
	unsigned int		 status;
	int			 rc, i;

	if (!web_auth_host_ok(w->wa, web_header(wsi, WSI_TOKEN_HOST, buf)))
		return web_http_text(wsi, 421, "unknown host: this page "
		    "answers only to the names it was started with\n");
	if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0)
		return web_http_text(wsi, 405, "only GET\n");
	for (a = web_assets; a->path != NULL; a++)
		if (strcmp(a->path, path) == 0)
			return web_http_reply(wsi, HTTP_STATUS_OK, a->type,
			    a->data, a->len);
	for (i = 0; i < 2; i++)
		if (w->files[i].data.len > 0 && strcmp(w->files[i].path,
		    path) == 0)
			return web_http_reply(wsi, HTTP_STATUS_OK,
			    w->files[i].type, w->files[i].data.data,
			    w->files[i].data.len);
	if (strcmp(path, "/api/whoami") != 0 && strcmp(path,
	    "/api/state") != 0)
		return web_http_text(wsi, HTTP_STATUS_NOT_FOUND,
		    "not found\n");
	if ((status = web_login(w, wsi, WSI_TOKEN_HTTP_AUTHORIZATION,
	    &t)) != 0)
		return web_http_text(wsi, status, status == 429 ? "too many "
		    "failed logins: wait a minute\n" : "a token is needed "
		    "(Authorization: Bearer TOKEN)\n");
	if (strcmp(path, "/api/whoami") == 0)
		s = web_page_hello(t->role == WEB_ROLE_APPROVER ? "approver" :
		    "watch", t->name);
	else
		s = xstrdup(w->state != NULL ? w->state : "{}");
	rc = web_http_reply(wsi, HTTP_STATUS_OK, "application/json", s,
	    strlen(s));
	free(s);
	return rc;
}

/* HTTP, and a WebSocket asked for without our protocol (refused). */
static int
web_http_cb(struct lws *wsi, enum lws_callback_reasons reason, void *user,
    void *in, size_t len)
{
	switch (reason) {
	case LWS_CALLBACK_HTTP:
		return web_http(web_of(wsi), wsi, in);
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		return -1;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

/* A page's decision, sent on if its token is an approver's. */
static void
web_ws_decide(struct web *w, struct web_conn *c)
{
	struct proto_request	*req = NULL;
	struct web_decide	*d = NULL;
	struct buf		 line = { 0 };
	char			 id[32], *tag = NULL, *cause = NULL;
	int			 i;

	for (i = 0; i < WEB_DECIDES_MAX && d == NULL; i++)
		if (w->decides[i].id[0] == '\0')
			d = &w->decides[i];
	snprintf(id, sizeof id, "d%lu", ++w->serial);
	if (web_page_decide(c->in.data, c->in.len, id, c->peer,
	    c->token->name, &req, &tag, &cause) != 0)
		;
	else if (c->token->role != WEB_ROLE_APPROVER)
		cause = xasprintf("token %s watches only: it cannot decide",
		    c->token->name);
	else if (d == NULL)
		cause = xstrdup("too many decisions waiting for the server");
	else {
		proto_req_decide(&line, req);
		if (client_send_line(w->cl, &line, &cause) == 0) {
			snprintf(d->id, sizeof d->id, "%s", id);
			d->conn = c;
			d->tag = tag;
			tag = NULL;
		}
	}
	if (cause != NULL)
		web_conn_send(c, web_page_result(tag, 0, cause));
	free(cause);
	free(tag);
	buf_free(&line);
	proto_request_free(req);
}

/* A page's message: a decision, or about a session it shows live. */
static void
web_ws_message(struct web *w, struct web_conn *c)
{
	struct web_page_msg	 m;
	char			*cause = NULL;

	if (web_page_message(c->in.data, c->in.len, &m, &cause) != 0) {
		web_conn_send(c, web_page_result(NULL, 0, cause));
		free(cause);
	} else if (m.op == WEB_PAGE_DECIDE)
		web_ws_decide(w, c);
	else
		web_view_message(w, c, &m);
	free(m.data);
}

/*
 * Write the next message a page is due: its answers first, then state,
 * then what its live views are due.
 */
static int
web_ws_write(struct web *w, struct web_conn *c)
{
	unsigned char	*out;
	char		*s;
	size_t		 len;
	int		 rc;

	if (c->nqueue > 0) {
		s = c->queue[0];
		memmove(c->queue, c->queue + 1, (size_t)(--c->nqueue) *
		    sizeof *c->queue);
	} else if (c->state_due && w->state != NULL) {
		s = xstrdup(w->state);
		c->state_due = false;
	} else if ((s = web_view_next(c)) == NULL)
		return 0;
	len = strlen(s);
	out = xmalloc(LWS_PRE + len);
	memcpy(out + LWS_PRE, s, len);
	rc = lws_write(c->wsi, out + LWS_PRE, len, LWS_WRITE_TEXT);
	free(out);
	free(s);
	if (rc < (int)len)
		return -1;
	if (c->nqueue > 0 || c->state_due || web_view_due(c))
		lws_callback_on_writable(c->wsi);
	return 0;
}

/* A page leaves: out of the list, its decisions answered to nobody. */
static void
web_ws_closed(struct web *w, struct web_conn *c)
{
	struct web_conn	**pp;
	int		  i;

	for (pp = &w->conns; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			w->nconns--;
			break;
		}
	for (i = 0; i < WEB_DECIDES_MAX; i++)
		if (w->decides[i].conn == c)
			w->decides[i].conn = NULL;
	for (i = 0; i < c->nqueue; i++)
		free(c->queue[i]);
	c->nqueue = 0;
	web_view_close_all(c);
	buf_free(&c->in);
}

/* The page's WebSocket. */
static int
web_ws_cb(struct lws *wsi, enum lws_callback_reasons reason, void *user,
    void *in, size_t len)
{
	struct web	*w = web_of(wsi);
	struct web_conn	*c = user;

	switch (reason) {
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		return c != NULL && web_ws_allowed(w, wsi, &c->token,
		    c->peer) ? 0 : -1;
	case LWS_CALLBACK_ESTABLISHED:
		if (c->token == NULL)
			return -1;
		c->w = w;
		c->wsi = wsi;
		c->next = w->conns;
		w->conns = c;
		w->nconns++;
		web_conn_send(c, web_page_hello(c->token->role ==
		    WEB_ROLE_APPROVER ? "approver" : "watch", c->token->name));
		c->state_due = true;
		return 0;
	case LWS_CALLBACK_RECEIVE:
		if (c->in.len + len > WEB_PAGE_MSG_MAX)
			return -1;
		buf_add(&c->in, in, len);
		if (lws_is_final_fragment(wsi) &&
		    lws_remaining_packet_payload(wsi) == 0) {
			web_ws_message(w, c);
			c->in.len = 0;
		}
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return web_ws_write(w, c);
	case LWS_CALLBACK_CLOSED:
		if (c->wsi != NULL)
			web_ws_closed(w, c);
		return 0;
	default:
		return 0;
	}
}

static const struct lws_protocols web_protocols[] = {
	{ .name = "http", .callback = web_http_cb },
	/* Frames arrive in pieces this big; a message is WEB_PAGE_MSG_MAX. */
	{ .name = "ptyvisor", .callback = web_ws_cb,
	  .per_session_data_size = sizeof(struct web_conn),
	  .rx_buffer_size = 4096 },
	/* Keys and sizes from a browser console, in pieces this big. */
	{ .name = "ptyvisor-console", .callback = web_console_cb,
	  .per_session_data_size = sizeof(struct web_console),
	  .rx_buffer_size = 4096 },
	{ .name = "ptyvisor-frames", .callback = web_frames_cb },
	{ .name = "ptyvisor-control", .callback = web_control_cb },
	{ .name = "ptyvisor-signal", .callback = web_signal_cb },
	{ .name = NULL }
};

/* Whether addr is a loopback address (127.0.0.0/8 or ::1). */
static bool
web_is_loopback(const char *addr)
{
	return strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0;
}

/* Whether addr is every address of the host (0.0.0.0 or ::). */
static bool
web_is_any(const char *addr)
{
	return strcmp(addr, "0.0.0.0") == 0 || strcmp(addr, "::") == 0;
}

/* Adopt fd into the loop as a raw descriptor served by protocol. */
static int
web_adopt(struct lws_vhost *vh, int fd, const char *protocol, char **cause)
{
	lws_sock_file_fd_type	u;

	u.filefd = fd;
	if (lws_adopt_descriptor_vhost(vh, LWS_ADOPT_RAW_FILE_DESC, u,
	    protocol, NULL) == NULL) {
		*cause = xasprintf("cannot watch the %s descriptor", protocol);
		return -1;
	}
	return 0;
}

/* Write the page's address and the two tokens' links, once. */
static void
web_announce(struct web *w, const struct web_opts *o, uint16_t port,
    FILE *out)
{
	const char	*scheme = o->cert != NULL ? "https" : "http";
	const char	*name = o->host != NULL ? o->host : o->addr;
	bool		 v6 = o->host == NULL && strchr(name, ':') != NULL;
	char		*base;

	base = xasprintf("%s://%s%s%s:%u/", scheme, v6 ? "[" : "", name,
	    v6 ? "]" : "", port);
	fprintf(out, "ptyvisor web: %s (its link for notifications: no "
	    "token in it)\n", base);
	fprintf(out, "approver:   %s#token=%s\n", base, web_auth_token(w->wa,
	    WEB_ROLE_APPROVER)->secret);
	fprintf(out, "watch-only: %s#token=%s\n", base, web_auth_token(w->wa,
	    WEB_ROLE_WATCH)->secret);
	fflush(out);
	free(base);
}

/* Connect to the server, subscribe, and ask for the first list. */
static int
web_connect(struct web *w, const char *socket, char **cause)
{
	struct buf	line = { 0 };
	int		rc;

	if ((w->cl = client_connect(socket, WEB_CONNECT_MS, cause)) == NULL)
		return -1;
	proto_req_subscribe(&line, "s");
	rc = client_send_line(w->cl, &line, cause);
	buf_free(&line);
	if (rc != 0)
		return -1;
	web_refresh(w);
	return w->stop ? -1 : 0;
}

/* The signals that end the loop, blocked and read from a signalfd. */
static int
web_signals(sigset_t *old, char **cause)
{
	sigset_t	set;
	int		fd;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, old);
	signal(SIGPIPE, SIG_IGN);
	if ((fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0)
		*cause = xasprintf("signalfd: %s", strerror(errno));
	return fd;
}

int
web_run(const struct web_opts *o, FILE *out, char **cause)
{
	struct lws_context_creation_info	 info;
	struct lws_vhost			*vh;
	struct web				 w;
	sigset_t				 old;
	bool					 blocked = false;
	uint16_t				 port = o->port;
	int					 claim = -1, sigfd = -1;
	int					 rc = -1, i;

	memset(&w, 0, sizeof w);
	w.socket = o->socket;
	w.history = o->history;
	w.state_dir = o->state_dir;
	if (!web_is_loopback(o->addr) && (o->cert == NULL || o->key == NULL)) {
		*cause = xasprintf("refusing to listen on %s beyond loopback "
		    "without TLS ([web] cert and key); to reach the page from "
		    "another machine, keep it on 127.0.0.1 and forward it: "
		    "ssh -L %u:127.0.0.1:%u HOST", o->addr, o->port, o->port);
		return -1;
	}
	if ((o->cert == NULL) != (o->key == NULL)) {
		*cause = xstrdup("[web] cert and key go together");
		return -1;
	}
	/* Every address: the page needs the name it is reached by. */
	if (web_is_any(o->addr) && o->host == NULL) {
		*cause = xasprintf("listening on %s needs [web] host: the name "
		    "the page is reached by (its certificate's), which it "
		    "answers to", o->addr);
		return -1;
	}
	/* Claimed before it listens, so no sandbox's relay ever reaches it. */
	if (port != 0 && (claim = ownport_claim(port)) < 0) {
		*cause = xasprintf("port %u: %s", port, strerror(errno));
		return -1;
	}
	if (web_connect(&w, o->socket, cause) != 0)
		goto out;
	blocked = true;
	if ((sigfd = web_signals(&old, cause)) < 0)
		goto out;
	lws_set_log_level(LLL_ERR, NULL);
	memset(&info, 0, sizeof info);
	info.port = port;
	info.iface = o->addr;
	info.protocols = web_protocols;
	info.user = &w;
	info.fd_limit_per_thread = WEB_FDS_MAX;
	info.options = LWS_SERVER_OPTION_VALIDATE_UTF8;
	if (o->cert != NULL) {
		/*
		 * HTTP/1.1 only: HTTP/2 has no Host header (:authority
		 * instead) and carries WebSockets otherwise; one way to
		 * check them is one way to get them right.
		 */
		info.alpn = "http/1.1";
		info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
		info.ssl_cert_filepath = o->cert;
		info.ssl_private_key_filepath = o->key;
	}
	if ((w.ctx = lws_create_context(&info)) == NULL) {
		*cause = xasprintf("cannot listen on %s:%u", o->addr, port);
		goto out;
	}
	vh = lws_get_vhost_by_name(w.ctx, "default");
	w.vh = vh;
	if (vh == NULL || (port = (uint16_t)lws_get_vhost_listen_port(vh)) ==
	    0) {
		*cause = xasprintf("cannot listen on %s:%u", o->addr, o->port);
		goto out;
	}
	if (claim < 0 && (claim = ownport_claim(port)) < 0) {
		*cause = xasprintf("port %u: %s", port, strerror(errno));
		goto out;
	}
	if (o->xterm_dirs != NULL)
		web_console_files(&w, o->xterm_dirs);
	if ((w.wa = web_auth_new(o->addr, port, o->host, o->cert != NULL,
	    cause)) == NULL)
		goto out;
	/* The loop polls a copy: the client keeps and closes its own. */
	if (web_adopt(vh, fcntl(client_fd(w.cl), F_DUPFD_CLOEXEC, 0),
	    "ptyvisor-control", cause) != 0 ||
	    web_adopt(vh, sigfd, "ptyvisor-signal", cause) != 0)
		goto out;
	sigfd = -1;
	web_announce(&w, o, port, out);
	while (!w.stop && lws_service(w.ctx, 0) >= 0)
		;
	if (w.cause != NULL) {
		*cause = w.cause;
		w.cause = NULL;
	} else
		rc = 0;
out:
	if (w.ctx != NULL)
		lws_context_destroy(w.ctx);
	for (i = 0; i < WEB_DECIDES_MAX; i++)
		free(w.decides[i].tag);
	if (sigfd >= 0)
		close(sigfd);
	if (blocked)
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (claim >= 0)
		close(claim);
	web_auth_free(w.wa);
	web_console_files_free(&w);
	client_free(w.cl);
	free(w.state);
	free(w.cause);
	return rc;
}
