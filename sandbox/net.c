/*
 * net.c - a filtered network: the command's own network namespace holds
 * only loopback, and its one way out is ptyvisor's proxy (net/proxy.h).
 *
 * The proxy runs as a process of its own, forked by the sandbox's child
 * before it enters any namespace, so it stays in the host's network (and
 * user) namespace; it leaves the session (setsid) and holds none of its
 * terminal.  Once the child has made the new network namespace, it brings
 * loopback up there (with large segments where the kernel has them, and a
 * congestion control that does not pace), listens on
 * 127.0.0.1:SANDBOX_PROXY_PORT and hands the listening socket to the proxy
 * over a socketpair (SCM_RIGHTS): the proxy accepts connections made inside
 * the namespace and connects out from outside.  No path of the host is
 * bridged in, no forwarder runs inside, and every byte crosses one process.
 * The host's own services the lists name (a loopback port, a UNIX socket)
 * are listened for at their own address inside and handed to the proxy
 * the same way (hostsvc.c).
 * A host on neither list is judged by the rules the caller passes
 * (opts.net_rules: run's and sandbox's rules file), else asked by
 * opts.net_asker of the server on opts.net_ask (an agent's request's, or
 * whichever runs on the control socket).  The relay holds its end of the
 * socketpair; when the sandbox ends the proxy sees EOF, logs what was still
 * open and exits, and the relay waits for that (see ns.c).  Also here: the
 * proxy variables the command gets, and the network lines of --explain.
 */
#include "sandbox/sandbox-int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/util.h"
#include "net/hostlist.h"
#include "net/proxy.h"

int
sandbox_net_prepare(struct sandbox *sb, const struct sandbox_opts *opts,
    char **cause)
{
	const char	*hosts_file;
	int		 i, fd;

	sb->hosts = hostlist_new();
	for (i = 0; i < opts->nnet_allow; i++)
		if (hostlist_add(sb->hosts, false, opts->net_allow[i],
		    cause) != 0)
			return -1;
	for (i = 0; i < opts->nnet_deny; i++)
		if (hostlist_add(sb->hosts, true, opts->net_deny[i],
		    cause) != 0)
			return -1;
	/* A log that cannot be written is found now, not lost later. */
	if (opts->net_log != NULL) {
		if ((fd = open(opts->net_log, O_WRONLY | O_APPEND | O_CREAT |
		    O_CLOEXEC | O_NOFOLLOW, 0600)) < 0) {
			*cause = xasprintf("network log: %s: %s",
			    opts->net_log, strerror(errno));
			return -1;
		}
		close(fd);
		sb->net_log = xstrdup(opts->net_log);
	}
	if (opts->net_ask != NULL)
		sb->net_ask = xstrdup(opts->net_ask);
	if (opts->net_rules_file != NULL)
		sb->net_rules_file = xstrdup(opts->net_rules_file);
	/* For tests only: names mapped without the system's resolver. */
	if ((hosts_file = getenv("PTYVISOR_TEST_HOSTS")) != NULL &&
	    *hosts_file != '\0')
		sb->hosts_file = xstrdup(hosts_file);
	/* The host's own services it names, relayed (hostsvc.c). */
	return sandbox_hostsvc_prepare(sb, cause);
}

void
sandbox_net_free(struct sandbox *sb)
{
	hostlist_free(sb->hosts);
	sb->hosts = NULL;
	sandbox_hostsvc_free(sb);
	free(sb->hosts_file);
	free(sb->net_log);
	free(sb->net_ask);
	free(sb->net_rules_file);
}

char **
sandbox_net_env(const struct sandbox *sb)
{
	static const char *const names[] = {
		"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
		"http_proxy", "https_proxy", "all_proxy", "no_proxy"
	};
	char	**env;
	size_t	  i;

	if (sb->hosts == NULL)
		return NULL;
	env = xcalloc(sizeof names / sizeof names[0] + 1, sizeof *env);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strcasecmp(names[i], "ALL_PROXY") == 0)
			/* socks5h: the proxy resolves the name. */
			env[i] = xasprintf("%s=socks5h://127.0.0.1:%d",
			    names[i], SANDBOX_PROXY_PORT);
		else if (strcasecmp(names[i], "NO_PROXY") == 0)
			/* What the command serves itself stays direct. */
			env[i] = xasprintf("%s=localhost,127.0.0.1,::1",
			    names[i]);
		else
			env[i] = xasprintf("%s=http://127.0.0.1:%d", names[i],
			    SANDBOX_PROXY_PORT);
	}
	return env;
}

/* Print one kind of list, its entries as given. */
static void
explain_lists(struct buf *out, const char *what, const char *const *v,
    int n)
{
	int	i;

	buf_printf(out, "  %s", what);
	if (n == 0)
		buf_adds(out, " (none)");
	for (i = 0; i < n; i++)
		buf_printf(out, "%s%s", i == 0 ? " " : ", ", v[i]);
	buf_adds(out, "\n");
}

void
sandbox_net_explain(const struct sandbox_opts *opts, int landlock_abi,
    struct buf *out)
{
	buf_printf(out, "network: filtered by host name, through ptyvisor's "
	    "proxy only\n");
	explain_lists(out, "allow:", opts->net_allow, opts->nnet_allow);
	explain_lists(out, "deny: ", opts->net_deny, opts->nnet_deny);
	buf_adds(out, "  the deny list wins; a host on neither list is ");
	if (opts->net_rules_file != NULL)
		buf_printf(out, "judged by the rules file's connect rules "
		    "(%s: 'allow connect HOST:PORT', 'deny connect ...'; deny "
		    "wins), else ", opts->net_rules_file);
	if (opts->net_ask != NULL)
		buf_printf(out, "asked of a person through the server on %s, "
		    "like a command (ptyvisor pending/approve/deny, the "
		    "console), and refused after 2 minutes without an "
		    "answer; refused at once when no server runs there\n",
		    opts->net_ask);
	else
		buf_adds(out, "refused (an agent's command under the console "
		    "or serve asks for it instead)\n");
	buf_printf(out, "  IP addresses, and names that resolve to private, "
	    "loopback or link-local addresses, are refused unless an "
	    "address entry covers them (a name listed exactly may resolve "
	    "to one); localhost and the names below it are refused at "
	    "once unless an entry names them, never asked\n");
	buf_printf(out, "  a network namespace with only loopback; the proxy "
	    "listens on 127.0.0.1:%d in it (HTTP CONNECT, plain http:// "
	    "and SOCKS5 on one port) and connects from outside; names are "
	    "resolved by the proxy, there is no DNS inside\n",
	    SANDBOX_PROXY_PORT);
	buf_printf(out, "  HTTP_PROXY, HTTPS_PROXY, ALL_PROXY (socks5h) and "
	    "their lower-case forms name it; NO_PROXY=localhost,127.0.0.1,"
	    "::1 (the loopback is reached directly, below)\n");
	buf_printf(out, "  a program that ignores them reaches nothing but "
	    "the services below; UNIX sockets only as socketpairs, unless "
	    "a unix: entry names one (below)\n");
	sandbox_hostsvc_explain(opts, landlock_abi, out);
	buf_printf(out, "  connections logged: %s\n", opts->net_log != NULL ?
	    opts->net_log : "next to the session's recording (none for "
	    "`ptyvisor sandbox` without --network-log)");
}

/* The proxy process: outside every namespace, until the sandbox ends. */
static void __attribute__((noreturn))
run_proxy(struct sandbox *sb, int channel, pid_t parent)
{
	struct proxy_opts	 po;
	char			*cause = NULL;
	int			 fd, log_fd = -1;

	/* Off the session's terminal: no signal of its, no EOF held up. */
	setsid();
	if ((fd = open("/dev/null", O_RDWR | O_CLOEXEC)) >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	if (prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) != 0 ||
	    getppid() != parent)
		_exit(125);
	/* No connection goes unlogged: without its log the proxy ends, and
	 * the sandbox cannot hand it the socket (fail closed). */
	if (sb->net_log != NULL && (log_fd = open(sb->net_log, O_WRONLY |
	    O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600)) < 0)
		_exit(125);
	memset(&po, 0, sizeof po);
	po.hosts = sb->hosts;
	po.log_fd = log_fd;
	po.hosts_file = sb->hosts_file;
	po.ask_socket = sb->net_ask;
	po.asker = sb->opts.net_asker;
	po.rules = sb->opts.net_rules;
	po.rules_arg = sb->opts.net_rules_arg;
	po.rules_file = sb->net_rules_file;
	po.relays = sb->relays;
	po.nrelays = sb->nrelays;
	if (proxy_serve(channel, &po, &cause) != 0)
		_exit(125);
	_exit(0);
}

int
sandbox_net_start_proxy(struct sandbox *sb, int report_fd)
{
	pid_t	pid, self = getpid();
	int	sp[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) != 0) {
		sandbox_set_stage(sb, "network: proxy socketpair");
		return -1;
	}
	if ((pid = fork()) < 0) {
		sandbox_set_stage(sb, "network: fork the proxy");
		close(sp[0]);
		close(sp[1]);
		return -1;
	}
	if (pid == 0) {
		close(report_fd);
		close(sp[0]);
		run_proxy(sb, sp[1], self);
	}
	close(sp[1]);
	sb->proxy_channel = sp[0];
	sb->proxy_pid = pid;
	return 0;
}

/*
 * The largest TCP segment the namespace's loopback may carry over IPv4
 * (BIG TCP, Linux 6.3 and later; the kernel's GSO_MAX_SIZE on 64-bit)
 * instead of 64 KiB: every byte through the proxy crosses this loopback,
 * and the work done per segment is most of what a loopback copy costs
 * (the attributes are newer than the headers we build against).
 */
#define SANDBOX_LO_SEGMENT_MAX		(8 * 65535)
#define SANDBOX_IFLA_GSO_IPV4_MAX_SIZE	63
#define SANDBOX_IFLA_GRO_IPV4_MAX_SIZE	64

/*
 * Let loopback (index ifindex) carry large segments.  Best effort: a
 * kernel without BIG TCP ignores the attributes or refuses the size, and
 * loopback works as before.  rtnetlink applies it before send returns.
 */
static void
loopback_big_segments(int ifindex)
{
	struct {
		struct nlmsghdr		nh;
		struct ifinfomsg	ifi;
		struct {
			struct rtattr	rta;
			uint32_t	value;
		} attr[2];
	}	req;
	int	fd, i;

	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_ROUTE)) < 0)
		return;
	memset(&req, 0, sizeof req);
	req.nh.nlmsg_len = sizeof req;
	req.nh.nlmsg_type = RTM_NEWLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.ifi.ifi_family = AF_UNSPEC;
	req.ifi.ifi_index = ifindex;
	for (i = 0; i < 2; i++) {
		req.attr[i].rta.rta_len = RTA_LENGTH(sizeof(uint32_t));
		req.attr[i].value = SANDBOX_LO_SEGMENT_MAX;
	}
	req.attr[0].rta.rta_type = SANDBOX_IFLA_GSO_IPV4_MAX_SIZE;
	req.attr[1].rta.rta_type = SANDBOX_IFLA_GRO_IPV4_MAX_SIZE;
	(void)send(fd, &req, sizeof req, 0);
	close(fd);
}

/*
 * The namespace's congestion control: one every kernel has built in and
 * that does not pace.  The namespace holds only loopback, where there is
 * no congestion to control, but a host that chose BBR passes it on to new
 * namespaces, and BBR paces each connection at the rate it has measured:
 * on loopback, without the fq qdisc, that throttles the proxy's hop to
 * the command (and the command's uploads) far below what the CPUs carry.
 * 100 MB copies on a BBR host, each direct copy followed by one proxied
 * copy paced and one unpaced, 15 such triples (the pairs' medians): 79%
 * of the direct copy paced, 90% unpaced; in a later run 74% and 84%.
 */
#define SANDBOX_NET_CONGESTION	"reno"

/*
 * Set the namespace's congestion control (its sysctl, which /proc/sys/net
 * shows for the namespace of the process that opens it).  Only where the
 * setting is the namespace's own (Linux 4.15 and later): before that it
 * was the host's.  Best effort: a kernel that refuses it keeps the host's
 * choice, and loopback works as before, more slowly.
 */
static void
loopback_unpaced(void)
{
	struct utsname	u;
	int		major, minor;

	if (uname(&u) != 0 ||
	    sscanf(u.release, "%d.%d", &major, &minor) != 2 ||
	    major < 4 || (major == 4 && minor < 15))
		return;
	/* Refused: the host's choice stays. */
	(void)sandbox_write_file("/proc/sys/net/ipv4/tcp_congestion_control",
	    SANDBOX_NET_CONGESTION "\n");
}

/* Bring the namespace's loopback up, with large segments if it may. */
static int
loopback_up(void)
{
	struct ifreq	ifr;
	int		fd, r = -1;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFINDEX, &ifr) == 0)
		loopback_big_segments(ifr.ifr_ifindex);
	loopback_unpaced();
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) == 0)
			r = 0;
	}
	close(fd);
	return r;
}

int
sandbox_net_listen(struct sandbox *sb)
{
	struct sockaddr_in	sin;
	int			fd, one = 1;

	if (loopback_up() != 0) {
		sandbox_set_stage(sb, "network: loopback up");
		return -1;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		sandbox_set_stage(sb, "network: the proxy's socket");
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons(SANDBOX_PROXY_PORT);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    listen(fd, SOMAXCONN) != 0) {
		sandbox_set_stage(sb, "network: listen on 127.0.0.1:%d",
		    SANDBOX_PROXY_PORT);
		close(fd);
		return -1;
	}
	if (proxy_send_listener(sb->proxy_channel, fd) != 0) {
		sandbox_set_stage(sb, "network: hand the socket to the proxy");
		close(fd);
		return -1;
	}
	close(fd);
	/* The host's own services it names, at their own addresses. */
	return sandbox_hostsvc_listen(sb);
}
