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
/* The largest xterm.js file read (its script is about 500 KiB). */
#define WEB_FILE_MAX		(4 * 1024 * 1024)
/* How long the server may take to answer the hello. */
#define WEB_CONNECT_MS		10000
/* Longest header read (Host, Origin, Authorization, the subprotocols). */
#define WEB_HEADER_MAX		512

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
