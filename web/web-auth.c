/*
 * web-auth.c - the web front end's tokens, names and login bound (see
 * web-auth.h).
 *
 * Invariants: a secret is compared with every token, each over its whole
 * length whatever the first difference, so the time taken says nothing of
 * how close a guess came; the hosts are lower case "NAME:PORT" (and the
 * bare name where the scheme's default port is the page's).
 */
#include "web/web-auth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "base/util.h"

struct web_auth {
	struct web_token	 tokens[2];	/* watch, approver */
	char			*hosts[WEB_AUTH_HOSTS_MAX];
	int			 nhosts;
	bool			 tls;
	uint64_t		 window_start;	/* of the failures counted */
	unsigned int		 fails;
};

/* Add "name:port", and the bare name when port is the scheme's default. */
static void
web_auth_add_host(struct web_auth *wa, const char *name, uint16_t port)
{
	char	*h;
	size_t	 i;

	if (wa->nhosts + 2 > WEB_AUTH_HOSTS_MAX)
		return;
	h = xasprintf("%s:%u", name, port);
	for (i = 0; h[i] != '\0'; i++)
		if (h[i] >= 'A' && h[i] <= 'Z')
			h[i] = (char)(h[i] - 'A' + 'a');
	wa->hosts[wa->nhosts++] = h;
	if (port == (wa->tls ? 443 : 80)) {
		h = xstrndup(h, strlen(h) - strlen(strrchr(h, ':')));
		wa->hosts[wa->nhosts++] = h;
	}
}

/* Fill a token's secret with fresh random bytes, as hex. */
static int
web_auth_fill(struct web_token *t, char **cause)
{
	unsigned char	 raw[WEB_TOKEN_BYTES];
	size_t		 got = 0, i;
	ssize_t		 n;

	while (got < sizeof raw) {
		n = getrandom(raw + got, sizeof raw - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*cause = xasprintf("getrandom: %s", strerror(errno));
			return -1;
		}
		got += (size_t)n;
	}
	for (i = 0; i < sizeof raw; i++)
		snprintf(t->secret + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

struct web_auth *
web_auth_new(const char *addr, uint16_t port, const char *host, bool tls,
    char **cause)
{
	struct web_auth	*wa = xcalloc(1, sizeof *wa);
	char		*bracketed;

	wa->tls = tls;
	wa->tokens[0].name = "watch";
	wa->tokens[0].role = WEB_ROLE_WATCH;
	wa->tokens[1].name = "approver";
	wa->tokens[1].role = WEB_ROLE_APPROVER;
	if (web_auth_fill(&wa->tokens[0], cause) != 0 ||
	    web_auth_fill(&wa->tokens[1], cause) != 0) {
		web_auth_free(wa);
		return NULL;
	}
	if (strcmp(addr, "0.0.0.0") == 0 || strcmp(addr, "::") == 0)
		;	/* no name of its own: loopback's and the host's */
	else if (strchr(addr, ':') != NULL) {
		bracketed = xasprintf("[%s]", addr);
		web_auth_add_host(wa, bracketed, port);
		free(bracketed);
	} else
		web_auth_add_host(wa, addr, port);
	/* Loopback's names, when it listens there (or everywhere). */
	if (strcmp(addr, "127.0.0.1") == 0 || strcmp(addr, "::1") == 0 ||
	    strcmp(addr, "0.0.0.0") == 0 || strcmp(addr, "::") == 0) {
		web_auth_add_host(wa, "localhost", port);
		web_auth_add_host(wa, "127.0.0.1", port);
		web_auth_add_host(wa, "[::1]", port);
	}
	if (host != NULL)
		web_auth_add_host(wa, host, port);
	return wa;
}

void
web_auth_free(struct web_auth *wa)
{
	int	i;

	if (wa == NULL)
		return;
	for (i = 0; i < wa->nhosts; i++)
		free(wa->hosts[i]);
	explicit_bzero(wa->tokens, sizeof wa->tokens);
	free(wa);
}

const struct web_token *
web_auth_token(const struct web_auth *wa, enum web_role role)
{
	return &wa->tokens[role == WEB_ROLE_APPROVER ? 1 : 0];
}

/* Whether the len bytes of s are t's secret, in time independent of s. */
static bool
web_auth_same(const struct web_token *t, const char *s, size_t len)
{
	unsigned char	diff = len != WEB_TOKEN_LEN;
	size_t		i;

	for (i = 0; i < WEB_TOKEN_LEN; i++)
		diff |= (unsigned char)t->secret[i] ^
		    (unsigned char)(i < len ? s[i] : 0);
	return diff == 0;
}

enum web_auth_result
web_auth_check(struct web_auth *wa, const char *secret, size_t len,
    uint64_t now_ms, const struct web_token **token)
{
	const struct web_token	*found = NULL;
	int			 i;

	*token = NULL;
	if (now_ms - wa->window_start >= WEB_AUTH_WINDOW_MS) {
		wa->window_start = now_ms;
		wa->fails = 0;
	}
	if (wa->fails >= WEB_AUTH_FAILS_MAX)
		return WEB_AUTH_LIMITED;
	for (i = 0; i < 2; i++)
		if (secret != NULL && web_auth_same(&wa->tokens[i], secret,
		    len))
			found = &wa->tokens[i];
	if (found == NULL) {
		wa->fails++;
		return WEB_AUTH_BAD;
	}
	*token = found;
	return WEB_AUTH_OK;
}

const char *
web_auth_bearer(const char *header, size_t *len)
{
	if (header == NULL || strncasecmp(header, "Bearer ", 7) != 0)
		return NULL;
	header += 7;
	*len = strcspn(header, " \t");
	return *len > 0 ? header : NULL;
}

const char *
web_auth_subprotocol(const char *header, size_t *len)
{
	const char	*p;

	if (header == NULL || (p = strstr(header, "token.")) == NULL)
		return NULL;
	p += 6;
	*len = strcspn(p, ", \t");
	return *len > 0 ? p : NULL;
}

bool
web_auth_host_ok(const struct web_auth *wa, const char *host)
{
	int	i;

	if (host == NULL)
		return false;
	for (i = 0; i < wa->nhosts; i++)
		if (strcasecmp(wa->hosts[i], host) == 0)
			return true;
	return false;
}

bool
web_auth_origin_ok(const struct web_auth *wa, const char *origin,
    const char *host)
{
	const char	*scheme = wa->tls ? "https://" : "http://";
	size_t		 n = strlen(scheme);

	if (origin == NULL || !web_auth_host_ok(wa, host) ||
	    strncasecmp(origin, scheme, n) != 0)
		return false;
	return strcasecmp(origin + n, host) == 0;
}
