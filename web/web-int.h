/*
 * web-int.h - what web/'s files share: the front end's state, a page's
 * WebSocket, the bounds, and the helpers every request goes through
 * (web.c); the browser console's relay (web-console.c).  Not for use
 * outside web/.
 */
#ifndef PTYVISOR_WEB_INT_H
#define PTYVISOR_WEB_INT_H

#include <libwebsockets.h>
#include <stdbool.h>

#include "base/util.h"
#include "web/web-auth.h"
#include "web/web-page.h"

struct history_list;
struct proto_event;

/*
 * Pages connected at once: a person has a phone and a laptop or two; more
 * is someone else, and each costs the state sent on every change.
 */
#define WEB_WS_MAX		16
/*
 * Descriptors the loop may hold: the WebSockets, HTTP requests beside
 * them, the listener, the control socket and the signalfd.  A flood of
 * connections is refused by libwebsockets past this, the rest unharmed.
 */
#define WEB_FDS_MAX		64
/*
 * Messages waiting for one page besides its state (decisions' answers): a
 * page that does not read them is closed rather than grown without end.
 */
#define WEB_CONN_QUEUE		16
/* Decisions sent to the server and not yet answered, all pages together. */
#define WEB_DECIDES_MAX		64
/*
 * Browser consoles at once: each is a console of the server, drawn for
 * it by the server; a person needs one or two.
 */
#define WEB_CONSOLES_MAX	4
/*
 * What a browser console may have waiting for its page before the
 * console's socket is read no more (the server then holds its frames, and
 * redraws whole once the page caught up), and what its keys may have
 * waiting for the server before the page is closed.
 */
#define WEB_CONSOLE_BEHIND	(1024 * 1024)
#define WEB_CONSOLE_KEYS_MAX	(256 * 1024)
/*
 * The tail of the history file read on every change: the page shows its
 * last WEB_PAGE_HISTORY lines, which take a few KiB each at most; the
 * whole file grows without end and would make every change slower.
 */
#define WEB_HISTORY_TAIL	(256 * 1024)
/*
 * Sessions one page shows live at once: a person watches one or two;
 * each costs a screen drawn by the server and its output kept here until
 * the page takes it.
 */
#define WEB_VIEWS_MAX		4
/*
 * Output of a live view waiting for its page past which the view is
 * drawn anew instead (the server's screen, then what follows): a page
 * that cannot keep up with a flood sees its screen, not every byte, and
 * costs no more than this.
 */
#define WEB_VIEW_BEHIND		(256 * 1024)
/* Output sent to a page in messages at most this big (then the next). */
#define WEB_VIEW_CHUNK		(64 * 1024)
/* The largest xterm.js file read (its script is about 500 KiB). */
#define WEB_FILE_MAX		(4 * 1024 * 1024)
/* How long the server may take to answer the hello. */
#define WEB_CONNECT_MS		10000
/* Longest header read (Host, Origin, Authorization, the subprotocols). */
#define WEB_HEADER_MAX		512

/*
 * A session a page shows live (web-view.c): its screen asked for, then
 * its output as it comes, how it ended and its history entries, each
 * waiting here until the page takes it.
 */
struct web_view {
	int64_t			 session;	/* 0: a free slot */
	char			 id[32];	/* the screen asked; "": none */
	bool			 live;		/* its screen came: output
						   continues it */
	bool			 over;		/* it ended */
	char			*screen;	/* to send: its screen */
	struct buf		 out;		/* to send: its output */
	char			*ended;		/* to send: how it ended */
	char			*entries;	/* to send: its history */
	char			*entries_sent;	/* the last sent */
};

/* One page's WebSocket (libwebsockets' per-session data, zeroed). */
struct web_conn {
	struct web		*w;
	struct lws		*wsi;
	const struct web_token	*token;
	char			 peer[64];
	struct buf		 in;		/* a message being received */
	bool			 state_due;	/* the state is to be sent */
	char			*queue[WEB_CONN_QUEUE];
	int			 nqueue;
	struct web_view		 views[WEB_VIEWS_MAX];
	int			 next_view;	/* the next to send, in turn */
	struct web_conn		*next;
};

/* A decision in flight: the request's id, the page and its tag. */
struct web_decide {
	char			 id[32];
	struct web_conn		*conn;		/* NULL: the page left */
	char			*tag;
};

/* A file read from disk at start (xterm.js's), served as it is. */
struct web_file {
	const char	*path;		/* "/xterm/xterm.js" */
	const char	*type;
	struct buf	 data;		/* empty: not found */
};

struct web {
	struct lws_context	*ctx;
	struct lws_vhost	*vh;
	const char		*socket;	/* the control socket */
	const char		*history;	/* its file; NULL: none */
	const char		*state_dir;	/* its directory (pruned ids); NULL */
	struct web_file		 files[2];	/* xterm.js, xterm.css */
	int			 nconsoles;
	struct client		*cl;
	struct web_auth		*wa;
	char			*state;		/* the page's state, JSON */
	bool			 list_asked;	/* a list is awaited */
	bool			 list_again;	/* and another after it */
	unsigned long		 serial;	/* request ids */
	struct web_decide	 decides[WEB_DECIDES_MAX];
	struct web_conn		*conns;
	int			 nconns;
	bool			 stop;
	char			*cause;		/* why it stopped; NULL: asked */
};

/* One browser console (the WebSocket's per-session data, zeroed). */
struct web_console {
	struct web	*w;
	struct lws	*wsi;		/* the page's WebSocket */
	struct lws	*raw;		/* the console's socket; NULL: gone */
	const struct web_token *token;
	char		 peer[64];
	struct buf	 in;		/* from the server: frames not whole */
	struct buf	 out;		/* to the page: drawn, not yet sent */
	struct buf	 keys;		/* to the server: frames not written */
	char		*end;		/* the server's last word; NULL */
	bool		 counted;
	bool		 paused;	/* the socket is not read */
};

/* web.c: queue message s (taken) for page c; a page far behind is closed. */
void		 web_conn_send(struct web_conn *c, char *s);
/* web.c: send line to the server; the loop stops when it cannot. */
void		 web_send(struct web *w, struct buf *line);
/* web.c: ask the server for its list again (the history read again). */
void		 web_refresh(struct web *w);

/*
 * web-view.c: the sessions a page shows live.  A page's message about one
 * (view, unview, input: web-page.h); the server's events for them
 * (screen, output, resized, exit, a screen's error); their history entries
 * from the history as just read; the next message a page is due (NULL:
 * none; caller frees) and whether one is; a page that leaves.
 */
void		 web_view_message(struct web *w, struct web_conn *c,
		    const struct web_page_msg *m);
void		 web_view_event(struct web *w, const struct proto_event *ev);
void		 web_view_entries(struct web *w,
		    const struct history_list *history);
char		*web_view_next(struct web_conn *c);
bool		 web_view_due(const struct web_conn *c);
void		 web_view_close_all(struct web_conn *c);

/* web-gate.c: the web front end of a wsi's context. */
struct web	*web_of(struct lws *wsi);
/* Stop the loop, keeping the first cause (NULL: a signal asked). */
void		 web_stop(struct web *w, const char *cause);
/* web-gate.c: header h of wsi into buf (size WEB_HEADER_MAX): buf, or
 * NULL. */
const char	*web_header(struct lws *wsi, enum lws_token_indexes h,
		    char buf[WEB_HEADER_MAX]);
/*
 * web-gate.c: the token a request presents in header h (Authorization or
 * the WebSocket's subprotocols), checked: 0 with *t, or the HTTP status
 * that refuses it (401, 429).
 */
unsigned int	 web_login(struct web *w, struct lws *wsi,
		    enum lws_token_indexes h, const struct web_token **t);
/*
 * web-gate.c: whether a WebSocket may open: the page's own host and
 * origin, a token in its subprotocols, room for one more page; *t and peer
 * (its address) set.
 */
bool		 web_ws_allowed(struct web *w, struct lws *wsi,
		    const struct web_token **t, char peer[64]);

/*
 * web-console.c: the browser console.  web_console_files() reads
 * xterm.js's files from the first directory of dirs that has them (NULL
 * after the last); the page works without them.
 */
void		 web_console_files(struct web *w, const char *const *dirs);
void		 web_console_files_free(struct web *w);
int		 web_console_cb(struct lws *wsi,
		    enum lws_callback_reasons reason, void *user, void *in,
		    size_t len);
int		 web_frames_cb(struct lws *wsi,
		    enum lws_callback_reasons reason, void *user, void *in,
		    size_t len);

#endif
