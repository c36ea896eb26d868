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
 * Names match without case and without a trailing dot.  The deny list
 * wins.  IP literals, and names that resolve to private, loopback,
 * link-local, multicast or otherwise special addresses, are refused unless
 * an address entry covers them; a name listed exactly (no wildcard) may
 * resolve to such an address, since the person named that very host.
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

#endif
