/*
 * web-gate.c - who may come in: a request's headers read, the token it
 * presents (the API's Authorization, a WebSocket's subprotocols) checked
 * by web-auth.c, and whether a WebSocket may open (the page's own host
 * and origin, a token, room for one more page).  Shared by the page's
 * loop (web.c) and the browser console (web-console.c); calls neither.
 */
#include "web/web.h"

#include <libwebsockets.h>
#include <string.h>

#include "base/util.h"
#include "web/web-int.h"
#include "web/web-auth.h"

/* The web front end of a wsi's context. */
struct web *
web_of(struct lws *wsi)
{
	return lws_context_user(lws_get_context(wsi));
}

/* Header h of wsi into buf (size WEB_HEADER_MAX): buf, or NULL. */
const char *
web_header(struct lws *wsi, enum lws_token_indexes h,
    char buf[WEB_HEADER_MAX])
{
	if (lws_hdr_total_length(wsi, h) <= 0 ||
	    lws_hdr_total_length(wsi, h) >= WEB_HEADER_MAX ||
	    lws_hdr_copy(wsi, buf, WEB_HEADER_MAX, h) < 0)
		return NULL;
	return buf;
}

/*
 * The token an HTTP request or WebSocket presents in header h, checked:
 * 0 with *t, or the HTTP status that refuses it (401, 429).
 */
unsigned int
web_login(struct web *w, struct lws *wsi, enum lws_token_indexes h,
    const struct web_token **t)
{
	char		 buf[WEB_HEADER_MAX];
	const char	*v = web_header(wsi, h, buf), *secret;
	size_t		 len = 0;

	secret = h == WSI_TOKEN_HTTP_AUTHORIZATION ?
	    web_auth_bearer(v, &len) : web_auth_subprotocol(v, &len);
	switch (web_auth_check(w->wa, secret, len, util_now_ms(), t)) {
	case WEB_AUTH_OK:
		return 0;
	case WEB_AUTH_LIMITED:
		return 429;
	default:
		return HTTP_STATUS_UNAUTHORIZED;
	}
}

/* Whether a WebSocket may open; *t and peer (its address) set. */
bool
web_ws_allowed(struct web *w, struct lws *wsi, const struct web_token **t,
    char peer[64])
{
	char		 host[WEB_HEADER_MAX], origin[WEB_HEADER_MAX];
	const char	*h = web_header(wsi, WSI_TOKEN_HOST, host);

	*t = NULL;
	if (!web_auth_origin_ok(w->wa, web_header(wsi, WSI_TOKEN_ORIGIN,
	    origin), h) || w->nconns >= WEB_WS_MAX)
		return false;
	if (web_login(w, wsi, WSI_TOKEN_PROTOCOL, t) != 0)
		return false;
	lws_get_peer_simple(wsi, peer, 64);
	/* An IPv4 peer of a dual-stack socket, said as IPv4. */
	if (strncmp(peer, "::ffff:", 7) == 0 && strchr(peer + 7, ':') == NULL)
		memmove(peer, peer + 7, strlen(peer + 7) + 1);
	return true;
}
