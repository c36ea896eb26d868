/*
 * hostsvc.c - the host's own services a filtered network reaches at their
 * own address: a port of the host's loopback an allow entry names with
 * that port (localhost:PORT, 127.0.0.1:PORT, [::1]:PORT), and a UNIX
 * socket a unix: entry names (or each socket of a directory it names).
 *
 * The command's network namespace has a loopback of its own, so the
 * host's 127.0.0.1 is not there.  For each such port the sandbox listens
 * on the same address and port in its namespace (both 127.0.0.1 and ::1
 * for localhost) and hands the socket to the proxy, which relays each
 * connection to the host's port from outside (net/proxy.h): any TCP
 * client, no proxy settings.  Nothing listens on the other ports, so a
 * connection to one is refused at once; the command's own servers work
 * on its own loopback, but on a relayed port, which the relay holds.
 * The proxy's own port and the ports ptyvisor's processes claim
 * (net/ownport.h: its web front end) are never relayed.
 *
 * For a UNIX socket the sandbox binds a socket of its own in a small
 * tmpfs of its own, hands it to the proxy (which connects to the host's
 * socket from outside), and mounts it on the socket's path in its mount
 * namespace, so the command connects to the path it knows.  The command
 * gets UNIX sockets (seccomp) only then, and Landlock lets it connect to
 * nothing by path but those relays (and sockets made inside): without
 * Landlock's control of UNIX connects (ABI 9) the sandbox does not run.
 * A path the guarded list hides (ptyvisor's control socket, an agent of
 * keys) is never relayed.
 *
 * Invariants: everything is resolved and checked in the parent; the child
 * only binds, listens, sends and mounts, and never allocates.
 */
#include "sandbox/sandbox-int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/util.h"
#include "net/hostlist.h"
#include "net/ownport.h"
#include "net/proxy.h"

/* Where a relay listens inside (sb->relay_at). */
#define HOSTSVC_V4	1	/* 127.0.0.1:port */
#define HOSTSVC_V6	2	/* [::1]:port */
#define HOSTSVC_V6_BEST	4	/* [::1]:port where the namespace has IPv6 */
#define HOSTSVC_UNIX	8	/* the socket's path */

/* The first Landlock ABI that controls UNIX socket connects by path. */
#define HOSTSVC_LANDLOCK_UNIX	9

/* Add a relay of target to sb, listened on at where; -1 when full. */
static int
add_relay(struct sandbox *sb, const struct proxy_relay *target, int where,
    char **cause)
{
	if (sb->nrelays == PROXY_MAX_RELAYS) {
		*cause = xasprintf("too many services of the host relayed (at "
		    "most %d ports and UNIX sockets)", PROXY_MAX_RELAYS);
		return -1;
	}
	sb->relays = xreallocarray(sb->relays, sb->nrelays + 1,
	    sizeof *sb->relays);
	sb->relay_at = xreallocarray(sb->relay_at, sb->nrelays + 1,
	    sizeof *sb->relay_at);
	sb->relays[sb->nrelays] = *target;
	sb->relay_at[sb->nrelays++] = (unsigned char)where;
	return 0;
}

/* The loopback ports of the allow list, each checked, as relays. */
static int
prepare_ports(struct sandbox *sb, char **cause)
{
	struct hostlist_loopback	lo[PROXY_MAX_RELAYS];
	struct proxy_relay		r;
	int				n, i, where;

	n = hostlist_loopbacks(sb->hosts, lo, PROXY_MAX_RELAYS);
	if (n > PROXY_MAX_RELAYS) {
		*cause = xasprintf("too many loopback ports relayed (at most "
		    "%d)", PROXY_MAX_RELAYS);
		return -1;
	}
	for (i = 0; i < n; i++) {
		/* Inside, that port is where the command reaches the proxy. */
		if (lo[i].port == SANDBOX_PROXY_PORT) {
			*cause = xasprintf("%s: port %d is the proxy's own in "
			    "the sandbox, never relayed", lo[i].entry,
			    SANDBOX_PROXY_PORT);
			return -1;
		}
		if (ownport_is_claimed(lo[i].port)) {
			*cause = xasprintf("%s: a port of ptyvisor's own "
			    "(claimed by its process), never relayed",
			    lo[i].entry);
			return -1;
		}
		memset(&r, 0, sizeof r);
		/* localhost: either address, the client's family first. */
		snprintf(r.host, sizeof r.host, "%s", lo[i].v4 && lo[i].v6 ?
		    "localhost" : lo[i].v4 ? "127.0.0.1" : "::1");
		r.port = lo[i].port;
		snprintf(r.why, sizeof r.why, "on the allow list (%s), "
		    "relayed from the sandbox's loopback", lo[i].entry);
		where = (lo[i].v4 ? HOSTSVC_V4 : 0) | (!lo[i].v6 ? 0 :
		    lo[i].by_name ? HOSTSVC_V6_BEST : HOSTSVC_V6);
		if (add_relay(sb, &r, where, cause) != 0)
			return -1;
	}
	return 0;
}

/*
 * Whether path may be relayed: not what the guarded list hides (the
 * control socket, ptyvisor's sockets' directory, an agent of keys), not
 * the control socket the proxy asks through; -1 with *cause when not.
 */
static int
check_socket(struct sandbox *sb, const char *entry, const char *path,
    const struct stat *st, char **cause)
{
	const struct guard_path	*g;
	struct stat		 ask;

	if ((g = guard_find(&sb->guards, path)) != NULL &&
	    g->how == GUARD_HIDDEN) {
		*cause = xasprintf("%s: %s is hidden from every sandbox (%s), "
		    "never relayed", entry, path, g->why);
		return -1;
	}
	if (sb->net_ask != NULL && stat(sb->net_ask, &ask) == 0 &&
	    ask.st_dev == st->st_dev && ask.st_ino == st->st_ino) {
		*cause = xasprintf("%s: ptyvisor's control socket, never "
		    "relayed", entry);
		return -1;
	}
	if (strlen(path) > HOSTLIST_UNIX_PATH_MAX) {
		*cause = xasprintf("%s: %s: the path is too long for a "
		    "socket", entry, path);
		return -1;
	}
	return 0;
}

/* A relay of the socket at path (resolved), checked. */
static int
add_socket(struct sandbox *sb, const char *entry, const char *path,
    const struct stat *st, char **cause)
{
	struct proxy_relay	r;

	if (hostlist_unix_denied(sb->hosts, path))
		return 0;
	if (check_socket(sb, entry, path, st, cause) != 0)
		return -1;
	memset(&r, 0, sizeof r);
	snprintf(r.host, sizeof r.host, "%s", path);
	snprintf(r.why, sizeof r.why, "on the allow list (%s), relayed at "
	    "its path", entry);
	return add_relay(sb, &r, HOSTSVC_UNIX, cause);
}

/* The sockets of directory dir (resolved), each a relay; how many. */
static int
add_directory(struct sandbox *sb, const char *entry, const char *dir,
    int *found, char **cause)
{
	struct dirent	*d;
	struct stat	 st;
	DIR		*dp;
	char		*path;
	int		 r = 0;

	if ((dp = opendir(dir)) == NULL) {
		*cause = xasprintf("%s: %s", entry, strerror(errno));
		return -1;
	}
	while (r == 0 && (d = readdir(dp)) != NULL) {
		path = xasprintf("%s/%s", dir, d->d_name);
		if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
			r = add_socket(sb, entry, path, &st, cause);
			(*found)++;
		}
		free(path);
	}
	closedir(dp);
	return r;
}

/* The unix: entries of the allow list, each resolved and checked. */
static int
prepare_sockets(struct sandbox *sb, char **cause)
{
	const char	*paths[PROXY_MAX_RELAYS];
	char		*entry, *real;
	struct stat	 st;
	int		 n, i, found, r;

	n = hostlist_unix(sb->hosts, paths, PROXY_MAX_RELAYS);
	for (i = 0; i < n && i < PROXY_MAX_RELAYS; i++) {
		entry = xasprintf("%s%s", HOSTLIST_UNIX_PREFIX, paths[i]);
		found = 0;
		if ((real = realpath(paths[i], NULL)) == NULL ||
		    stat(real, &st) != 0) {
			*cause = xasprintf("%s: %s", entry, strerror(errno));
			r = -1;
		} else if (S_ISSOCK(st.st_mode))
			r = add_socket(sb, entry, real, &st, cause);
		else if (!S_ISDIR(st.st_mode)) {
			*cause = xasprintf("%s: neither a socket nor a "
			    "directory of sockets", entry);
			r = -1;
		} else if ((r = add_directory(sb, entry, real, &found,
		    cause)) == 0 && found == 0) {
			*cause = xasprintf("%s: no socket in that directory",
			    entry);
			r = -1;
		}
		free(real);
		free(entry);
		if (r != 0)
			return -1;
	}
	return 0;
}

/* Whether sb relays a UNIX socket. */
static bool
has_sockets(const struct sandbox *sb)
{
	int	i;

	for (i = 0; i < sb->nrelays; i++)
		if (sb->relay_at[i] & HOSTSVC_UNIX)
			return true;
	return false;
}

int
sandbox_hostsvc_prepare(struct sandbox *sb, char **cause)
{
	sb->relay_src = -1;
	if (prepare_ports(sb, cause) != 0 || prepare_sockets(sb, cause) != 0)
		return -1;
	sb->unix_relays = has_sockets(sb);
	/* Without it the command would reach every socket it can see. */
	if (sb->unix_relays && sb->landlock_abi < HOSTSVC_LANDLOCK_UNIX) {
		*cause = xasprintf("a UNIX socket relay needs Landlock's "
		    "control of UNIX socket connects (ABI %d, Linux 7.1), and "
		    "this kernel has ABI %d, so the command is not run; reach "
		    "the service over TCP (localhost:PORT) where it offers "
		    "that", HOSTSVC_LANDLOCK_UNIX, sb->landlock_abi);
		return -1;
	}
	return 0;
}

void
sandbox_hostsvc_free(struct sandbox *sb)
{
	free(sb->relays);
	sb->relays = NULL;
	free(sb->relay_at);
	sb->relay_at = NULL;
	sb->nrelays = 0;
}

/* Listen on the namespace's loopback at family:port; the fd, or -1. */
static int
listen_loopback(int family, uint16_t port)
{
	struct sockaddr_in	sin;
	struct sockaddr_in6	sin6;
	int			fd, one = 1, e;

	if ((fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (family == AF_INET) {
		memset(&sin, 0, sizeof sin);
		sin.sin_family = AF_INET;
		sin.sin_port = htons(port);
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		e = bind(fd, (struct sockaddr *)&sin, sizeof sin);
	} else {
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
		memset(&sin6, 0, sizeof sin6);
		sin6.sin6_family = AF_INET6;
		sin6.sin6_port = htons(port);
		sin6.sin6_addr = in6addr_loopback;
		e = bind(fd, (struct sockaddr *)&sin6, sizeof sin6);
	}
	if (e != 0 || listen(fd, SOMAXCONN) != 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Hand a relay's listening socket to the proxy, and close it here. */
static int
send_relay(struct sandbox *sb, int fd, int i)
{
	int	r = proxy_send_relay(sb->proxy_channel, fd, i);

	close(fd);
	if (r != 0)
		sandbox_set_stage(sb, "network: hand a relay to the proxy");
	return r;
}

/* Relay i's listeners on the loopback, handed to the proxy. */
static int
listen_port(struct sandbox *sb, int i)
{
	uint16_t	port = sb->relays[i].port;
	int		at = sb->relay_at[i], fd;

	if (at & HOSTSVC_V4) {
		if ((fd = listen_loopback(AF_INET, port)) < 0) {
			sandbox_set_stage(sb, "network: listen on "
			    "127.0.0.1:%u for the host's port", port);
			return -1;
		}
		if (send_relay(sb, fd, i) != 0)
			return -1;
	}
	if (at & (HOSTSVC_V6 | HOSTSVC_V6_BEST)) {
		fd = listen_loopback(AF_INET6, port);
		/* localhost's ::1, where the namespace has no IPv6: v4 does. */
		if (fd < 0 && (at & HOSTSVC_V6_BEST) && (at & HOSTSVC_V4) &&
		    (errno == EADDRNOTAVAIL || errno == EAFNOSUPPORT))
			return 0;
		if (fd < 0) {
			sandbox_set_stage(sb, "network: listen on [::1]:%u "
			    "for the host's port", port);
			return -1;
		}
		if (send_relay(sb, fd, i) != 0)
			return -1;
	}
	return 0;
}

/* A tmpfs of the sandbox's own, detached, for the sockets' relays. */
static int
socket_source(struct sandbox *sb)
{
	if ((sb->relay_src = sandbox_tmpfs()) >= 0)
		return 0;
	sandbox_set_stage(sb, "network: a tmpfs for the sockets' relays");
	return -1;
}

/*
 * Relay i's socket, bound as "<i>" in the relays' tmpfs (from inside it:
 * no path of the host names it) and handed to the proxy.
 */
static int
listen_socket(struct sandbox *sb, int i)
{
	struct sockaddr_un	sun;
	int			fd = -1, here, r = -1;

	if ((here = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		goto out;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof sun.sun_path, "%d", i);
	if (fchdir(sb->relay_src) != 0)
		goto out;
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) >= 0 &&
	    bind(fd, (struct sockaddr *)&sun, sizeof sun) == 0 &&
	    listen(fd, SOMAXCONN) == 0)
		r = 0;
	if (fchdir(here) != 0)
		r = -1;
out:
	if (here >= 0)
		close(here);
	if (r != 0) {
		if (fd >= 0)
			close(fd);
		sandbox_set_stage(sb, "network: the relay of %s",
		    sb->relays[i].host);
		return -1;
	}
	return send_relay(sb, fd, i);
}

int
sandbox_hostsvc_listen(struct sandbox *sb)
{
	int	i;

	if (sb->unix_relays && socket_source(sb) != 0)
		return -1;
	for (i = 0; i < sb->nrelays; i++)
		if (sb->relay_at[i] & HOSTSVC_UNIX ? listen_socket(sb, i) != 0 :
		    listen_port(sb, i) != 0)
			return -1;
	return 0;
}

int
sandbox_hostsvc_mount(struct sandbox *sb)
{
	char	name[16];
	int	i, fd;

	for (i = 0; i < sb->nrelays; i++) {
		if (!(sb->relay_at[i] & HOSTSVC_UNIX))
			continue;
		snprintf(name, sizeof name, "%d", i);
		fd = open_tree(sb->relay_src, name, OPEN_TREE_CLONE |
		    OPEN_TREE_CLOEXEC);
		if (fd < 0 || move_mount(fd, "", AT_FDCWD, sb->relays[i].host,
		    MOVE_MOUNT_F_EMPTY_PATH) != 0) {
			if (fd >= 0)
				close(fd);
			sandbox_set_stage(sb, "mount: the relay on %s",
			    sb->relays[i].host);
			return -1;
		}
		close(fd);
	}
	return 0;
}

int
sandbox_hostsvc_paths(const struct sandbox *sb, const char **out, int max)
{
	int	i, n = 0;

	for (i = 0; i < sb->nrelays && n < max; i++)
		if (sb->relay_at[i] & HOSTSVC_UNIX)
			out[n++] = sb->relays[i].host;
	return n;
}

/* The lines of --explain for the loopback ports of hl. */
static void
explain_ports(const struct hostlist *hl, struct buf *out)
{
	struct hostlist_loopback	lo[PROXY_MAX_RELAYS];
	int				n, i;

	n = hostlist_loopbacks(hl, lo, PROXY_MAX_RELAYS);
	buf_adds(out, "  the host's loopback: reached only at the ports the "
	    "allow list names with their port (localhost:PORT, "
	    "127.0.0.1:PORT, [::1]:PORT), at the same address inside, by "
	    "any client, with no proxy settings:");
	if (n == 0)
		buf_adds(out, " none");
	buf_adds(out, "\n");
	for (i = 0; i < n && i < PROXY_MAX_RELAYS; i++) {
		buf_printf(out, "    %s: listened on inside at", lo[i].entry);
		if (lo[i].v4)
			buf_printf(out, " 127.0.0.1:%u", (unsigned)lo[i].port);
		if (lo[i].v6)
			buf_printf(out, "%s [::1]:%u%s", lo[i].v4 ? " and" : "",
			    (unsigned)lo[i].port, lo[i].by_name && lo[i].v4 ?
			    " (where the namespace has IPv6)" : "");
		buf_printf(out, ", relayed by the proxy to the host's %s "
		    "(logged)%s\n", lo[i].v4 && lo[i].v6 ?
		    "127.0.0.1 or ::1" : lo[i].v4 ? "127.0.0.1" : "::1",
		    lo[i].port == SANDBOX_PROXY_PORT ? "; REFUSED: the "
		    "proxy's own port, the command will not run" : "");
	}
	buf_printf(out, "    any other loopback port: refused at once "
	    "(nothing listens there), never asked; the command's own "
	    "servers on its loopback work, but on a relayed port, which "
	    "the relay holds: binding it fails (EADDRINUSE)\n");
	buf_printf(out, "    never relayed: port %d (the proxy's) and the "
	    "ports ptyvisor's own processes claim (its web front end)\n",
	    SANDBOX_PROXY_PORT);
}

/* The lines of --explain for the unix: entries of hl. */
static void
explain_sockets(const struct hostlist *hl, int abi, struct buf *out)
{
	const char	*paths[PROXY_MAX_RELAYS];
	int		 n, i;

	n = hostlist_unix(hl, paths, PROXY_MAX_RELAYS);
	buf_adds(out, "  UNIX sockets of the host: reached only those a "
	    "unix: entry names (a socket, or each socket of a directory), "
	    "through a relay at the same path inside:");
	if (n == 0)
		buf_adds(out, " none");
	buf_adds(out, "\n");
	for (i = 0; i < n && i < PROXY_MAX_RELAYS; i++)
		buf_printf(out, "    unix:%s%s: WARNING: the command may do "
		    "whatever the daemon behind it lets its user do (the "
		    "Docker socket is root on the host)\n", paths[i],
		    hostlist_unix_denied(hl, paths[i]) ? " (denied: not "
		    "relayed)" : "");
	if (n > 0)
		buf_printf(out, "    the command gets UNIX stream sockets, and "
		    "Landlock lets it connect by path to those relays and to "
		    "sockets made inside only (ABI %d): %s\n",
		    HOSTSVC_LANDLOCK_UNIX, abi >= HOSTSVC_LANDLOCK_UNIX ?
		    "in force" : "MISSING here, so the command will not run");
	buf_adds(out, "    never relayed: what the guarded paths hide "
	    "(ptyvisor's control socket, an agent holding keys)\n");
}

void
sandbox_hostsvc_explain(const struct sandbox_opts *opts, int landlock_abi,
    struct buf *out)
{
	struct hostlist	*hl = hostlist_new();
	char		*cause = NULL;
	int		 i;

	/* The lists were checked when they were added. */
	for (i = 0; i < opts->nnet_allow; i++)
		if (hostlist_add(hl, false, opts->net_allow[i], &cause) != 0)
			free(cause);
	for (i = 0; i < opts->nnet_deny; i++)
		if (hostlist_add(hl, true, opts->net_deny[i], &cause) != 0)
			free(cause);
	explain_ports(hl, out);
	explain_sockets(hl, landlock_abi, out);
	hostlist_free(hl);
}
