/*
 * web-auth.h - who may use `ptyvisor web`: its two secret tokens
 * (approver, watch-only), the names a browser may reach it by (Host, for
 * DNS rebinding) and the origin a WebSocket may come from, and the bound
 * on failed logins.
 *
 * A token is 32 random bytes as 64 hex digits, made at start and printed
 * once; it is compared in constant time.  The page keeps it in its own
 * storage and sends it in a header (Authorization: Bearer, or the
 * WebSocket's Sec-WebSocket-Protocol), never in a cookie: a cookie goes to
 * every port of a host, a dev server an agent starts on localhost
 * included.  Pure: no sockets, no clock of its own (the caller's).
 */
#ifndef PTYVISOR_WEB_AUTH_H
#define PTYVISOR_WEB_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Random bytes in a token: 256 bits, beyond any guessing. */
#define WEB_TOKEN_BYTES		32
#define WEB_TOKEN_LEN		(2 * WEB_TOKEN_BYTES)

/*
 * Failed logins allowed in one window before every login is refused
 * until the window ends (429): a token cannot be guessed anyway, the bound
 * keeps a scanner from filling the log and the loop.
 */
#define WEB_AUTH_FAILS_MAX	10
#define WEB_AUTH_WINDOW_MS	60000

/*
 * Names a page is reached by: loopback's three, the address, the host,
 * each also bare where the port is the scheme's default.
 */
#define WEB_AUTH_HOSTS_MAX	12

enum web_role {
	WEB_ROLE_NONE,
	WEB_ROLE_WATCH,		/* sees everything, decides nothing */
	WEB_ROLE_APPROVER	/* decides too */
};

struct web_token {
	const char	*name;			/* "approver", "watch" */
	enum web_role	 role;
	char		 secret[WEB_TOKEN_LEN + 1];
};

/* What a login attempt came to. */
enum web_auth_result {
	WEB_AUTH_OK,
	WEB_AUTH_BAD,		/* no such token: 401 */
	WEB_AUTH_LIMITED	/* too many failures lately: 429 */
};

struct web_auth;

/*
 * Make the two tokens (from getrandom) for a page served at addr:port
 * (addr without brackets), reached also as host (NULL: none); tls says
 * whether its scheme is https.  NULL with *cause when no random bytes.
 */
struct web_auth	*web_auth_new(const char *addr, uint16_t port,
		    const char *host, bool tls, char **cause);
void		 web_auth_free(struct web_auth *wa);

/* The token of a role (WEB_ROLE_WATCH or WEB_ROLE_APPROVER). */
const struct web_token *web_auth_token(const struct web_auth *wa,
		    enum web_role role);

/*
 * Check the len bytes of secret presented (NULL: none) at now_ms: *token
 * gets the matching token on WEB_AUTH_OK.  Every token is compared in
 * full, in constant time; a failure counts towards the window's bound.
 */
enum web_auth_result web_auth_check(struct web_auth *wa, const char *secret,
		    size_t len, uint64_t now_ms, const struct web_token **token);

/*
 * The secret in an Authorization header ("Bearer SECRET") or in a
 * Sec-WebSocket-Protocol header ("ptyvisor, token.SECRET"): a pointer into
 * it and its length in *len, or NULL.
 */
const char	*web_auth_bearer(const char *header, size_t *len);
const char	*web_auth_subprotocol(const char *header, size_t *len);

/* Whether a Host header names this page (DNS rebinding refused). */
bool		 web_auth_host_ok(const struct web_auth *wa, const char *host);

/*
 * Whether a WebSocket's Origin is the page's own: its scheme and a Host
 * that web_auth_host_ok() takes, the same as the request's host.
 */
bool		 web_auth_origin_ok(const struct web_auth *wa,
		    const char *origin, const char *host);

#endif
