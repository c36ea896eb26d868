/*
 * hostlist.c - host pattern lists and their judgement (see hostlist.h).
 *
 * Invariants: entries are checked whole before any is added; names are
 * kept lower case without a trailing dot; an address is compared as IPv4
 * when it is an IPv4-mapped or NAT64 IPv6 address, so no spelling of an
 * address escapes its range; a unix: entry is matched by no name and no
 * address.
 */
#include "net/hostlist.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/util.h"

/* An address: IPv4 in the first 4 bytes, or IPv6. */
struct hl_addr {
	int		family;		/* AF_INET or AF_INET6 */
	uint8_t		bytes[16];
};

/* One entry of a list. */
struct hl_entry {
	char		*name;		/* lower case; NULL for an address */
	bool		 wildcard;	/* "*.name": below name only */
	bool		 any;		/* "*": every name */
	struct hl_addr	 addr;		/* address entries */
	int		 prefix;	/* bits of addr that must match */
	uint16_t	 port;		/* 0: any port */
	char		*unix_path;	/* a unix: entry's path; else NULL */
	char		*text;		/* as written, for reasons */
};

struct hostlist {
	struct hl_entry	*allow;
	size_t		 nallow;
	struct hl_entry	*deny;
	size_t		 ndeny;
};

/* Longest list entry we accept: a name, a port and brackets. */
#define HL_ENTRY_MAX (HOSTLIST_NAME_MAX + 16)

struct hostlist *
hostlist_new(void)
{
	return xcalloc(1, sizeof(struct hostlist));
}

/* Free the strings of n entries and the array. */
static void
free_entries(struct hl_entry *e, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].unix_path);
		free(e[i].text);
	}
	free(e);
}

void
hostlist_free(struct hostlist *hl)
{
	if (hl == NULL)
		return;
	free_entries(hl->allow, hl->nallow);
	free_entries(hl->deny, hl->ndeny);
	free(hl);
}

bool
hostlist_is_empty(const struct hostlist *hl)
{
	return hl->nallow == 0;
}

/* Whether s is a valid host name (already lower case, no trailing dot). */
static bool
is_valid_name(const char *s)
{
	size_t	len = strlen(s), label = 0, i;

	if (len == 0 || len > HOSTLIST_NAME_MAX)
		return false;
	for (i = 0; i <= len; i++) {
		if (s[i] == '.' || s[i] == '\0') {
			/* Empty labels, or labels starting or ending in '-'. */
			if (label == 0 || label > 63 || s[i - 1] == '-' ||
			    s[i - label] == '-')
				return false;
			label = 0;
			continue;
		}
		if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			return false;
		label++;
	}
	return true;
}

/*
 * Parse an IP literal.  Besides the dotted quad, the forms inet_aton takes
 * ("127.1", "0x7f.1", "2130706433") are addresses too: resolvers take them
 * so, and a name must never stand for an address unjudged.
 */
static bool
parse_addr(const char *s, struct hl_addr *a)
{
	struct in_addr	v4;

	memset(a, 0, sizeof *a);
	if (inet_pton(AF_INET6, s, a->bytes) == 1) {
		a->family = AF_INET6;
		return true;
	}
	if (inet_aton(s, &v4) != 0) {
		a->family = AF_INET;
		memcpy(a->bytes, &v4, 4);
		return true;
	}
	return false;
}

/* An IPv6 address that carries an IPv4 one, compared as that. */
static void
unwrap_v4(struct hl_addr *a)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0xff, 0xff };
	static const uint8_t nat64[12] = { 0, 0x64, 0xff, 0x9b };

	if (a->family != AF_INET6)
		return;
	if (memcmp(a->bytes, mapped, 12) == 0 ||
	    memcmp(a->bytes, nat64, 12) == 0) {
		memmove(a->bytes, a->bytes + 12, 4);
		memset(a->bytes + 4, 0, 12);
		a->family = AF_INET;
	}
}

/* Whether a lies in net/prefix (same family). */
static bool
in_range(const struct hl_addr *a, const struct hl_addr *net, int prefix)
{
	int	full = prefix / 8, rest = prefix % 8;
	uint8_t	mask;

	if (a->family != net->family)
		return false;
	if (memcmp(a->bytes, net->bytes, (size_t)full) != 0)
		return false;
	if (rest == 0)
		return true;
	mask = (uint8_t)(0xff << (8 - rest));
	return (a->bytes[full] & mask) == (net->bytes[full] & mask);
}

/* Special ranges: never reached unless listed. */
static const struct {
	int		 family;
	const char	*net;
	int		 prefix;
} hl_special[] = {
	{ AF_INET, "0.0.0.0", 8 },		/* "this network" */
	{ AF_INET, "10.0.0.0", 8 },		/* private */
	{ AF_INET, "100.64.0.0", 10 },		/* carrier-grade NAT */
	{ AF_INET, "127.0.0.0", 8 },		/* loopback */
	{ AF_INET, "169.254.0.0", 16 },		/* link-local, cloud metadata */
	{ AF_INET, "172.16.0.0", 12 },		/* private */
	{ AF_INET, "192.0.0.0", 24 },		/* protocol assignments */
	{ AF_INET, "192.168.0.0", 16 },		/* private */
	{ AF_INET, "198.18.0.0", 15 },		/* benchmarking */
	{ AF_INET, "224.0.0.0", 4 },		/* multicast */
	{ AF_INET, "240.0.0.0", 4 },		/* reserved, broadcast */
	{ AF_INET6, "::", 96 },			/* unspecified, loopback,
						   IPv4-compatible */
	{ AF_INET6, "fc00::", 7 },		/* unique local */
	{ AF_INET6, "fe80::", 10 },		/* link-local */
	{ AF_INET6, "fec0::", 10 },		/* site-local (old) */
	{ AF_INET6, "ff00::", 8 },		/* multicast */
};

/* Whether a (unwrapped) is in a special range. */
static bool
addr_is_special(const struct hl_addr *a)
{
	struct hl_addr	net;
	size_t		i;

	for (i = 0; i < sizeof hl_special / sizeof hl_special[0]; i++) {
		memset(&net, 0, sizeof net);
		net.family = hl_special[i].family;
		inet_pton(net.family, hl_special[i].net, net.bytes);
		if (in_range(a, &net, hl_special[i].prefix))
			return true;
	}
	return false;
}

/* The address of a socket address, unwrapped; false if neither family. */
static bool
from_sockaddr(const struct sockaddr *sa, struct hl_addr *a)
{
	memset(a, 0, sizeof *a);
	if (sa->sa_family == AF_INET) {
		a->family = AF_INET;
		memcpy(a->bytes,
		    &((const struct sockaddr_in *)(const void *)sa)->sin_addr,
		    4);
	} else if (sa->sa_family == AF_INET6) {
		a->family = AF_INET6;
		memcpy(a->bytes,
		    &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr,
		    16);
	} else
		return false;
	unwrap_v4(a);
	return true;
}

bool
hostlist_is_special(const struct sockaddr *sa)
{
	struct hl_addr	a;

	return !from_sockaddr(sa, &a) || addr_is_special(&a);
}

/* Parse a port after ':'; 0 when bad. */
static uint16_t
parse_port(const char *s)
{
	char		*end;
	unsigned long	 v;

	if (*s < '0' || *s > '9')
		return 0;
	v = strtoul(s, &end, 10);
	if (*end != '\0' || v == 0 || v > 65535)
		return 0;
	return (uint16_t)v;
}

/*
 * Parse a unix: entry's path (after the prefix) into e: absolute, no
 * control character, short enough for a socket address; a trailing slash
 * dropped.  -1 with *cause.
 */
static int
parse_unix(const char *text, const char *path, struct hl_entry *e,
    char **cause)
{
	size_t	len = strlen(path), i;

	while (len > 1 && path[len - 1] == '/')
		len--;
	for (i = 0; i < len; i++)
		if ((unsigned char)path[i] < 0x20 || path[i] == 0x7f)
			break;
	if (path[0] != '/' || len < 2 || i < len ||
	    len > HOSTLIST_UNIX_PATH_MAX) {
		*cause = xasprintf("bad UNIX socket '%s' (unix: and an "
		    "absolute path of at most %d bytes)", text,
		    HOSTLIST_UNIX_PATH_MAX);
		return -1;
	}
	e->unix_path = xstrndup(path, len);
	e->text = xstrdup(text);
	return 0;
}

/* Parse one entry (NUL-terminated, trimmed) into e; -1 with *cause. */
static int
parse_entry(const char *text, struct hl_entry *e, char **cause)
{
	char	 s[HL_ENTRY_MAX + 1], *host = s, *colon, *slash, *end;
	long	 prefix;

	memset(e, 0, sizeof *e);
	/* A path keeps its case: looked at before anything is lowered. */
	if (strncmp(text, HOSTLIST_UNIX_PREFIX,
	    sizeof HOSTLIST_UNIX_PREFIX - 1) == 0)
		return parse_unix(text, text + sizeof HOSTLIST_UNIX_PREFIX - 1,
		    e, cause);
	if (strlen(text) > HL_ENTRY_MAX)
		goto bad;
	snprintf(s, sizeof s, "%s", text);
	for (end = s; *end != '\0'; end++)
		*end = (char)tolower((unsigned char)*end);
	/* [v6] or [v6]:port */
	if (*host == '[') {
		if ((end = strchr(host, ']')) == NULL)
			goto bad;
		*end++ = '\0';
		host++;
		if (!parse_addr(host, &e->addr) || e->addr.family != AF_INET6)
			goto bad;
		if (*end == ':') {
			if ((e->port = parse_port(end + 1)) == 0)
				goto bad;
		} else if (*end != '\0')
			goto bad;
	} else if ((colon = strrchr(host, ':')) != NULL &&
	    strchr(host, ':') == colon) {
		/* One colon: name:port or v4:port. */
		*colon = '\0';
		if ((e->port = parse_port(colon + 1)) == 0)
			goto bad;
	}
	/* An address range. */
	if ((slash = strchr(host, '/')) != NULL) {
		*slash++ = '\0';
		if (!parse_addr(host, &e->addr) || *slash < '0' ||
		    *slash > '9')
			goto bad;
		prefix = strtol(slash, &end, 10);
		if (*end != '\0' || prefix < 0 ||
		    prefix > (e->addr.family == AF_INET ? 32 : 128))
			goto bad;
		e->prefix = (int)prefix;
		goto address;
	}
	if (parse_addr(host, &e->addr)) {
		e->prefix = e->addr.family == AF_INET ? 32 : 128;
		goto address;
	}
	if (strcmp(host, "*") == 0) {
		e->any = true;
		goto done;
	}
	if (strncmp(host, "*.", 2) == 0) {
		e->wildcard = true;
		host += 2;
	}
	if (host[0] != '\0' && host[strlen(host) - 1] == '.')
		host[strlen(host) - 1] = '\0';
	if (!is_valid_name(host))
		goto bad;
	e->name = xstrdup(host);
	goto done;

address:
	/* An IPv4 address spelt as IPv6 is an IPv4 entry. */
	if (e->addr.family == AF_INET6 && e->prefix >= 96) {
		struct hl_addr	a = e->addr;

		unwrap_v4(&a);
		if (a.family == AF_INET) {
			e->addr = a;
			e->prefix -= 96;
		}
	}
done:
	e->text = xstrdup(text);
	return 0;
bad:
	*cause = xasprintf("bad host pattern '%s' (a name, *.name, *, an "
	    "address or ADDRESS/BITS, each with an optional :PORT)", text);
	return -1;
}

/* Split list into entries, parsed into *out (*n of them); -1 with *cause. */
static int
parse_list(const char *list, struct hl_entry **out, size_t *n, char **cause)
{
	struct hl_entry	*v = NULL;
	size_t		 nv = 0, len;
	const char	*p = list;
	char		*text;
	int		 r;

	while (*p != '\0') {
		len = strcspn(p, ", \t\n");
		if (len == 0) {
			p++;
			continue;
		}
		text = xstrndup(p, len);
		v = xreallocarray(v, nv + 1, sizeof *v);
		r = parse_entry(text, &v[nv], cause);
		free(text);
		if (r != 0) {
			free_entries(v, nv);
			return -1;
		}
		nv++;
		p += len;
	}
	*out = v;
	*n = nv;
	return 0;
}

int
hostlist_check(const char *list, char **cause)
{
	struct hl_entry	*v;
	size_t		 n;

	if (parse_list(list, &v, &n, cause) != 0)
		return -1;
	free_entries(v, n);
	return 0;
}

int
hostlist_add(struct hostlist *hl, bool deny, const char *list, char **cause)
{
	struct hl_entry	 *v, **to = deny ? &hl->deny : &hl->allow;
	size_t		  n, *nto = deny ? &hl->ndeny : &hl->nallow;

	if (parse_list(list, &v, &n, cause) != 0)
		return -1;
	if (n == 0) {
		free(v);
		return 0;
	}
	*to = xreallocarray(*to, *nto + n, sizeof **to);
	memcpy(*to + *nto, v, n * sizeof *v);
	*nto += n;
	free(v);
	return 0;
}

int
hostlist_normalize(const char *host, char *out, size_t len)
{
	char		s[HOSTLIST_NAME_MAX + 3], *p;
	struct hl_addr	a;
	size_t		n = strlen(host);

	if (n == 0 || n >= sizeof s)
		return -1;
	memcpy(s, host, n + 1);
	p = s;
	if (p[0] == '[') {
		if (p[n - 1] != ']')
			return -1;
		p[n - 1] = '\0';
		p++;
		if (inet_pton(AF_INET6, p, a.bytes) != 1)
			return -1;
	}
	for (n = 0; p[n] != '\0'; n++)
		p[n] = (char)tolower((unsigned char)p[n]);
	if (n > 1 && p[n - 1] == '.' && !parse_addr(p, &a))
		p[--n] = '\0';
	if (!parse_addr(p, &a) && !is_valid_name(p))
		return -1;
	if (n + 1 > len)
		return -1;
	memcpy(out, p, n + 1);
	return 0;
}

/* Whether name is below suffix ("a.b.c" below "b.c"). */
static bool
is_below(const char *name, const char *suffix)
{
	size_t	n = strlen(name), s = strlen(suffix);

	return n > s + 1 && name[n - s - 1] == '.' &&
	    strcmp(name + n - s, suffix) == 0;
}

/* The first entry of v matching a name and port; NULL if none. */
static const struct hl_entry *
match_name(const struct hl_entry *v, size_t n, const char *name,
    uint16_t port)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (v[i].port != 0 && v[i].port != port)
			continue;
		if (v[i].any)
			return &v[i];
		if (v[i].name == NULL)
			continue;
		if (v[i].wildcard ? is_below(name, v[i].name) :
		    strcmp(name, v[i].name) == 0)
			return &v[i];
	}
	return NULL;
}

/* The first address entry of v covering a and port; NULL if none. */
static const struct hl_entry *
match_addr(const struct hl_entry *v, size_t n, const struct hl_addr *a,
    uint16_t port)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (v[i].port != 0 && v[i].port != port)
			continue;
		if (v[i].name != NULL || v[i].any || v[i].unix_path != NULL)
			continue;
		if (in_range(a, &v[i].addr, v[i].prefix))
			return &v[i];
	}
	return NULL;
}

/*
 * Whether a name stands for this machine's loopback: localhost and the
 * names below it (RFC 6761), which resolvers answer with loopback.
 */
static bool
is_loopback_name(const char *name)
{
	return strcmp(name, "localhost") == 0 || is_below(name, "localhost");
}

void
hostlist_judge(const struct hostlist *hl, const char *host, uint16_t port,
    struct hostlist_judgement *j)
{
	const struct hl_entry	*e;
	struct hl_addr		 a;

	memset(j, 0, sizeof *j);
	if (port == 0) {
		j->verdict = HOSTLIST_DENY;
		snprintf(j->why, sizeof j->why, "port 0");
		return;
	}
	if (parse_addr(host, &a)) {
		unwrap_v4(&a);
		j->is_literal = true;
		if ((e = match_addr(hl->deny, hl->ndeny, &a, port)) != NULL) {
			j->verdict = HOSTLIST_DENY;
			snprintf(j->why, sizeof j->why, "on the deny list "
			    "(%s)", e->text);
		} else if ((e = match_addr(hl->allow, hl->nallow, &a,
		    port)) != NULL) {
			j->verdict = HOSTLIST_ALLOW;
			j->exact = true;
			snprintf(j->why, sizeof j->why, "on the allow list "
			    "(%s)", e->text);
		} else {
			j->verdict = HOSTLIST_DENY;
			snprintf(j->why, sizeof j->why, "%s not on the allow "
			    "list", addr_is_special(&a) ? "a private, loopback "
			    "or link-local address" : "an IP address");
		}
		return;
	}
	if ((e = match_name(hl->deny, hl->ndeny, host, port)) != NULL) {
		j->verdict = HOSTLIST_DENY;
		snprintf(j->why, sizeof j->why, "on the deny list (%s)",
		    e->text);
	} else if ((e = match_name(hl->allow, hl->nallow, host, port)) !=
	    NULL) {
		j->verdict = HOSTLIST_ALLOW;
		j->exact = !e->wildcard && !e->any;
		snprintf(j->why, sizeof j->why, "on the allow list (%s)",
		    e->text);
	} else if (is_loopback_name(host)) {
		/* Nothing to ask: its port is named, or it is not reached. */
		j->verdict = HOSTLIST_DENY;
		snprintf(j->why, sizeof j->why, "a loopback port not on the "
		    "allow list");
	} else {
		j->verdict = HOSTLIST_ASK;
		snprintf(j->why, sizeof j->why, "not on the allow list");
	}
}

bool
hostlist_address_ok(const struct hostlist *hl,
    const struct hostlist_judgement *j, const struct sockaddr *sa,
    uint16_t port, char *why, size_t len)
{
	const struct hl_entry	*e;
	struct hl_addr		 a;
	char			 text[INET6_ADDRSTRLEN];

	if (!from_sockaddr(sa, &a)) {
		snprintf(why, len, "not an internet address");
		return false;
	}
	inet_ntop(a.family, a.bytes, text, sizeof text);
	if ((e = match_addr(hl->deny, hl->ndeny, &a, port)) != NULL) {
		snprintf(why, len, "resolves to %s, on the deny list (%s)",
		    text, e->text);
		return false;
	}
	if (!addr_is_special(&a) || j->exact ||
	    match_addr(hl->allow, hl->nallow, &a, port) != NULL)
		return true;
	snprintf(why, len, "resolves to %s, a private, loopback or "
	    "link-local address not on the allow list", text);
	return false;
}

/* Which loopback addresses an entry names exactly, with a port. */
#define HL_LO_V4	1	/* 127.0.0.1 */
#define HL_LO_V6	2	/* ::1 */

/* The HL_LO_* an entry names (both for localhost), or 0 for none. */
static int
entry_loopback(const struct hl_entry *e)
{
	static const uint8_t	v6[16] = { [15] = 1 };
	static const uint8_t	v4[4] = { 127, 0, 0, 1 };

	if (e->port == 0 || e->any || e->unix_path != NULL)
		return 0;
	if (e->name != NULL)
		return !e->wildcard && strcmp(e->name, "localhost") == 0 ?
		    HL_LO_V4 | HL_LO_V6 : 0;
	if (e->addr.family == AF_INET && e->prefix == 32 &&
	    memcmp(e->addr.bytes, v4, 4) == 0)
		return HL_LO_V4;
	if (e->addr.family == AF_INET6 && e->prefix == 128 &&
	    memcmp(e->addr.bytes, v6, 16) == 0)
		return HL_LO_V6;
	return 0;
}

/* Whether the deny list covers an address of the loopback at port. */
static bool
loopback_denied(const struct hostlist *hl, int family, uint16_t port,
    bool by_name)
{
	struct hl_addr	a;

	memset(&a, 0, sizeof a);
	a.family = family;
	if (family == AF_INET)
		inet_pton(AF_INET, "127.0.0.1", a.bytes);
	else
		inet_pton(AF_INET6, "::1", a.bytes);
	return match_addr(hl->deny, hl->ndeny, &a, port) != NULL ||
	    (by_name && match_name(hl->deny, hl->ndeny, "localhost",
	    port) != NULL);
}

int
hostlist_loopbacks(const struct hostlist *hl, struct hostlist_loopback *out,
    int max)
{
	struct hostlist_loopback	 l;
	size_t				 i;
	int				 n = 0, k, which;

	for (i = 0; i < hl->nallow; i++) {
		if ((which = entry_loopback(&hl->allow[i])) == 0)
			continue;
		memset(&l, 0, sizeof l);
		l.port = hl->allow[i].port;
		l.by_name = which == (HL_LO_V4 | HL_LO_V6);
		l.v4 = (which & HL_LO_V4) && !loopback_denied(hl, AF_INET,
		    l.port, l.by_name);
		l.v6 = (which & HL_LO_V6) && !loopback_denied(hl, AF_INET6,
		    l.port, l.by_name);
		l.entry = hl->allow[i].text;
		if (!l.v4 && !l.v6)
			continue;
		/* One per port: a later entry adds its addresses. */
		for (k = 0; k < n && k < max; k++)
			if (out[k].port == l.port)
				break;
		if (k < n && k < max) {
			out[k].v4 |= l.v4;
			out[k].v6 |= l.v6;
			out[k].by_name |= l.by_name;
			continue;
		}
		if (n < max)
			out[n] = l;
		n++;
	}
	return n;
}

int
hostlist_unix(const struct hostlist *hl, const char **out, int max)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < hl->nallow; i++)
		if (hl->allow[i].unix_path != NULL) {
			if (n < max)
				out[n] = hl->allow[i].unix_path;
			n++;
		}
	return n;
}

bool
hostlist_unix_denied(const struct hostlist *hl, const char *path)
{
	const char	*d;
	size_t		 i, len;

	for (i = 0; i < hl->ndeny; i++) {
		if ((d = hl->deny[i].unix_path) == NULL)
			continue;
		len = strlen(d);
		if (strncmp(path, d, len) == 0 && (path[len] == '\0' ||
		    path[len] == '/'))
			return true;
	}
	return false;
}

const char *
hostlist_unix_warning(const char *list)
{
	struct hl_entry	*v;
	size_t		 n, i;
	char		*cause = NULL;
	bool		 named = false;

	if (list == NULL || parse_list(list, &v, &n, &cause) != 0) {
		free(cause);
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (v[i].unix_path != NULL)
			named = true;
	free_entries(v, n);
	return named ? "a UNIX socket lets the command do whatever the "
	    "daemon behind it lets the person do (the Docker socket is root "
	    "on the host)" : NULL;
}
