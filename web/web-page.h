/*
 * web-page.h - what the web page is told and what it may ask, between the
 * control protocol's structs and the page's JSON messages.
 *
 * The state the page shows is made here from the server's list event:
 * every waiting request with what the console's prompt shows, each text
 * already escaped by base/quote.c (the one quoter: controls, bidi and
 * zero-width characters as \xHH, \uHHHH), so the page only ever inserts
 * text (textContent) and escapes nothing itself; and the sessions.  A
 * page's decision is read here into a decide request, its decider named
 * as "web (ADDRESS, token NAME)".  Nothing here decides: the server's
 * queue does, and its answer is passed back.  A session's live view is
 * asked for and told here too (below).  Pure: no sockets.
 */
#ifndef PTYVISOR_WEB_PAGE_H
#define PTYVISOR_WEB_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct history_list;
struct proto_event;
struct proto_request;

/*
 * Longest message a page may send over its WebSocket: a decision with an
 * edited command or rule and a reason.  Longer is refused (the connection
 * closed), so a page cannot make the front end hold much.
 */
#define WEB_PAGE_MSG_MAX	(16 * 1024)

/*
 * The recent history the page shows, newest first: enough for the last
 * hour of an agent's work at a glance, little to send on every change.
 */
#define WEB_PAGE_HISTORY	20

/*
 * The page's state from a list event and the history file as loaded:
 * {"type":"state","pending":[...],"sessions":[...],"history":[...]}, one
 * compact JSON text.  Caller frees.
 */
char	*web_page_state(const struct proto_event *list,
	    const struct history_list *history);

/*
 * Read a page's message (len bytes of JSON) as a decision on behalf of
 * peer with token token_name: *req filled (proto_request_free it) with id
 * as its id, and *tag the page's tag for its answer (caller frees; NULL
 * when none).  0, or -1 with *cause for the page.
 */
int	web_page_decide(const char *msg, size_t len, const char *id,
	    const char *peer, const char *token_name,
	    struct proto_request **req, char **tag, char **cause);

/*
 * Who decides from peer with token token_name, as the server's log and the
 * history say it: "web (ADDRESS, token NAME)", for the page's buttons and
 * the browser console alike.  Caller frees.
 */
char	*web_page_by(const char *peer, const char *token_name);

/*
 * The answer to a page's decision: {"type":"result","tag":...,"ok":...,
 * "message":...} (message NULL: none).  Caller frees.
 */
char	*web_page_result(const char *tag, int ok, const char *message);

/* A hello for a page just logged in: its role and token's name. */
char	*web_page_hello(const char *role, const char *token_name);

/*
 * A session's live view on the page.  The page asks for one by its
 * number; it gets the session's screen drawn (the server's screen event),
 * then its output as it comes, how it ended, and its entries of the
 * history; an approver's page may type into it.  Every text of the
 * server's but the terminal's own bytes (which only ever reach the page's
 * terminal, xterm.js, never its markup) goes through base/quote.c.
 */
enum web_page_op {
	WEB_PAGE_DECIDE,	/* web_page_decide() reads it */
	WEB_PAGE_VIEW,		/* show a session live */
	WEB_PAGE_UNVIEW,	/* no longer */
	WEB_PAGE_INPUT		/* keys typed into a session shown */
};

/* What a page's message asks. */
struct web_page_msg {
	enum web_page_op	 op;
	int64_t			 session;	/* view, unview, input: >= 1 */
	char			*data;		/* input: the keys, UTF-8 */
	size_t			 len;
};

/*
 * Read a page's message (len bytes of JSON): 0 with *m filled (its data
 * the caller's to free), or -1 with *cause for the page.
 */
int	web_page_message(const char *msg, size_t len, struct web_page_msg *m,
	    char **cause);

/*
 * The page's messages about a view, each one compact JSON text the caller
 * frees: the session's screen from a screen event ({"type":"screen",
 * "session","cols","rows","data","partial"}), or why there is none
 * ("error", quoted); output, len bytes of text cut where a character ends
 * ({"type":"output","session","data"}); how it ended ("ending", quoted);
 * and its entries of the history (at most WEB_PAGE_ENTRIES, the newest
 * last: what `ptyvisor show` says of each), pruned (NULL, or one flag per
 * entry of history) saying which lost their recording to the budget.
 */
char	*web_page_screen(const struct proto_event *screen);
char	*web_page_screen_error(int64_t session, const char *message);
char	*web_page_output(int64_t session, const char *data, size_t len);
char	*web_page_ended(int64_t session, const char *ending);
char	*web_page_entries(int64_t session, const struct history_list *history,
	    const bool *pruned);

/*
 * A session's entries a view shows: it has one once it ended; a bound
 * keeps a history file that names it often (ids come back after a new
 * state directory) from making the message long.
 */
#define WEB_PAGE_ENTRIES	8

#endif
