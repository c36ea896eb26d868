/*
 * hostlist.h - which hosts a sandboxed command may reach: an allow list and
 * a deny list of host patterns, and the judgement of a host name, an IP
 * literal or a resolved address against them.  Pure: no I/O, no lookups.
 *
 * A list is comma- (or space-) separated entries:
 *   pypi.org            that name, any port
 *   *.pythonhosted.org  any name below it (not the name itself)
 *   *                   any name (IP literals still need an entry)
 *   github.com:443      that name, port 443 only
 *   203.0.113.7         that address (IPv4 or IPv6, [v6]:port with a port)
 *   10.0.0.0/8          an address range
 *   unix:/run/x.sock    a UNIX socket of the host (or each socket of a
 *                       directory), by its absolute path
 * Names match without case and without a trailing dot.  The deny list
 * wins.  IP literals, and names that resolve to private, loopback,
 * link-local, multicast or otherwise special addresses, are refused unless
 * an address entry covers them; a name listed exactly (no wildcard) may
 * resolve to such an address, since the person named that very host.
 * Loopback names (localhost, *.localhost) on neither list are refused at
 * once, never asked: the host's own services are reached only when an
 * entry names them.  An allow entry naming a port of the loopback
 * (localhost:PORT, 127.0.0.1:PORT, [::1]:PORT) and a unix: entry are
 * what a sandbox relays to its own loopback or its own view of the path
 * (hostlist_loopbacks, hostlist_unix); the judgement ignores unix: entries.
 */
#ifndef PTYVISOR_HOSTLIST_H
#define PTYVISOR_HOSTLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sockaddr;
struct hostlist;

/* Longest host name (RFC 1035, without the trailing dot). */
#define HOSTLIST_NAME_MAX 253

/* What starts an entry naming a UNIX socket by its path. */
#define HOSTLIST_UNIX_PREFIX "unix:"

/*
 * Longest path of a unix: entry: what a socket address holds (sun_path,
 * 108 bytes with its NUL).
 */
#define HOSTLIST_UNIX_PATH_MAX 107

/* A verdict on a host before it is resolved. */
enum hostlist_verdict {
	HOSTLIST_ALLOW,		/* on the allow list */
	HOSTLIST_DENY,		/* on the deny list, or refused outright */
	HOSTLIST_ASK		/* on neither list: a person decides */
};

/* What hostlist_judge() found, for the log and the refusal message. */
struct hostlist_judgement {
	enum hostlist_verdict	 verdict;
	bool			 is_literal;	/* host is an IP address */
	bool			 exact;		/* allowed by a listed name,
						   not a wildcard */
	char			 why[160];	/* the reason, in words */
};

/* A new, empty pair of lists.  Free with hostlist_free(). */
struct hostlist	*hostlist_new(void);
void		 hostlist_free(struct hostlist *hl);

/*
 * Add the entries of list (see above) to the allow or the deny list.
 * Returns 0, or -1 with *cause naming the bad entry; nothing is added
 * then.
 */
int	hostlist_add(struct hostlist *hl, bool deny, const char *list,
	    char **cause);

/* Whether a list was checked and would be accepted (for option parsing). */
int	hostlist_check(const char *list, char **cause);

/* Whether the allow list has no entry. */
bool	hostlist_is_empty(const struct hostlist *hl);

/*
 * Normalize a host as a client sent it (a name, an IPv4 or IPv6 literal,
 * with or without brackets) into out (lower case, no trailing dot, no
 * brackets).  Returns 0, or -1 when it is no valid host.
 */
int	hostlist_normalize(const char *host, char *out, size_t len);

/* Judge a normalized host and port. */
void	hostlist_judge(const struct hostlist *hl, const char *host,
	    uint16_t port, struct hostlist_judgement *j);

/*
 * Whether a name judged allowed (j) may be reached at the address it
 * resolved to.  Returns true, or false with why filled.
 */
bool	hostlist_address_ok(const struct hostlist *hl,
	    const struct hostlist_judgement *j, const struct sockaddr *sa,
	    uint16_t port, char *why, size_t len);

/*
 * Rules of the caller's, consulted for a host on neither list before a
 * person is asked (the rules file's "connect" rules): true when one
 * decides, with j's verdict (HOSTLIST_ALLOW or HOSTLIST_DENY) and why
 * set; false, j untouched, when none does.
 */
typedef bool	(*hostlist_rules_fn)(void *arg, const char *host,
		    uint16_t port, struct hostlist_judgement *j);

/* Whether an address is private, loopback, link-local or special. */
bool	hostlist_is_special(const struct sockaddr *sa);

/*
 * A port of the host's loopback that the allow list names with that port
 * and the deny list leaves alone: the addresses it is named by (localhost
 * is both), for a sandbox to listen on at its own loopback and relay.
 */
struct hostlist_loopback {
	uint16_t	 port;
	bool		 v4;		/* 127.0.0.1 */
	bool		 v6;		/* ::1 */
	bool		 by_name;	/* named localhost: either address of
					   the host answers for it */
	const char	*entry;		/* the first entry naming it, as
					   written (the list's own string) */
};

/*
 * The loopback ports hl's allow list names (localhost:PORT,
 * 127.0.0.1:PORT, [::1]:PORT; one per port, in the order of the list; an
 * address denied for it left out, a port with none left dropped), at most
 * max of them into out.  Returns how many there are, which may be more.
 */
int	hostlist_loopbacks(const struct hostlist *hl,
	    struct hostlist_loopback *out, int max);

/*
 * The paths of hl's unix: allow entries, as written without a trailing
 * slash, at most max into out (the list's own strings).  Returns how many
 * there are, which may be more.
 */
int	hostlist_unix(const struct hostlist *hl, const char **out, int max);

/* Whether a unix: deny entry names path, or a directory above it. */
bool	hostlist_unix_denied(const struct hostlist *hl, const char *path);

/*
 * What a list (as a request carries it) grants beyond hosts, for whoever
 * approves it: a static sentence when it names a UNIX socket, else NULL.
 */
const char *hostlist_unix_warning(const char *list);

#endif
