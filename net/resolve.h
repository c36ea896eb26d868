/*
 * resolve.h - host name lookups that never block the loop: each lookup runs
 * getaddrinfo(3) in a short-lived child process that writes the addresses
 * to a pipe the loop watches.
 *
 * For tests only, a hosts file (lines "ADDRESS NAME...", '#' comments) can
 * stand in for the system's resolver: when one is given, a name it does not
 * list is not found, and nothing else is asked.
 */
#ifndef PTYVISOR_RESOLVE_H
#define PTYVISOR_RESOLVE_H

#include <stdint.h>
#include <sys/socket.h>

struct loop;
struct resolve;

/* Most addresses kept per name (the reply fits in one atomic pipe write). */
#define RESOLVE_MAX_ADDRS 16

/*
 * Called once with the addresses (port filled in), n >= 1, or n == 0 and
 * error saying why.  The lookup is freed after the call returns.
 */
typedef void	(*resolve_fn)(void *arg, const struct sockaddr_storage *addrs,
		    int n, const char *error);

/*
 * Look name up for port on l; hosts_file (NULL: the system's resolver) as
 * above.  Returns the lookup, or NULL with *cause (fork or pipe failed).
 */
struct resolve	*resolve_start(struct loop *l, const char *name, uint16_t port,
		    const char *hosts_file, resolve_fn fn, void *arg,
		    char **cause);

/* Give up a lookup before its callback: the child is killed and reaped. */
void		 resolve_cancel(struct resolve *r);

/*
 * The lookup itself, synchronously (what the child runs): up to max
 * addresses into out.  Returns how many, or 0 with error filled.
 */
int		 resolve_now(const char *name, uint16_t port,
		    const char *hosts_file, struct sockaddr_storage *out,
		    int max, char *error, size_t len);

#endif
