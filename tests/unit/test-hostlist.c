/*
 * test-hostlist.c - host pattern lists: parsing, names, wildcards, ports,
 * the deny list winning, IP literals in every spelling, special ranges,
 * resolved addresses, normalization; loopback names refused unless named,
 * the loopback ports a sandbox relays, unix: entries.
 */
#include "net/hostlist.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "tests/tap.h"

/* The verdict on host:port as a letter: a(llow), d(eny), q (ask). */
static char
verdict(const struct hostlist *hl, const char *host, uint16_t port)
{
	struct hostlist_judgement	j;
	char				norm[HOSTLIST_NAME_MAX + 1];

	if (hostlist_normalize(host, norm, sizeof norm) != 0)
		return '!';
	hostlist_judge(hl, norm, port, &j);
	return j.verdict == HOSTLIST_ALLOW ? 'a' :
	    j.verdict == HOSTLIST_DENY ? 'd' : 'q';
}

/* Whether a name judged against hl may be reached at addr. */
static bool
address_ok(const struct hostlist *hl, const char *name, const char *addr,
    uint16_t port)
{
	struct hostlist_judgement	j;
	struct sockaddr_storage		ss;
	struct sockaddr_in		*in = (struct sockaddr_in *)&ss;
	struct sockaddr_in6		*in6 = (struct sockaddr_in6 *)&ss;
	char				why[200];

	memset(&ss, 0, sizeof ss);
	if (inet_pton(AF_INET, addr, &in->sin_addr) == 1)
		in->sin_family = AF_INET;
	else if (inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1)
		in6->sin6_family = AF_INET6;
	hostlist_judge(hl, name, port, &j);
	return hostlist_address_ok(hl, &j, (struct sockaddr *)&ss, port, why,
	    sizeof why);
}

static void
test_parse(void)
{
	static const char *const good[] = {
		"pypi.org", "*.pythonhosted.org", "github.com:443", "*",
		"203.0.113.7", "10.0.0.0/8", "[::1]:8080", "fd00::/8",
		"Example.COM.", "a,b , c", "", " ,, ", "x_y.example:1",
		"*:443", "::ffff:10.0.0.0/104"
	};
	static const char *const bad[] = {
		"foo*.com", "*foo.com", "a..b", "-a.com", "a-.com",
		"host:0", "host:65536", "host:x", "host:", "10.0.0.0/33",
		"::/129", "[::1", "[::1]x", "a.com/8", "*.*.com", "a b!c",
		"é.com", "1.2.3.4/", "[host]:80"
	};
	size_t	i;
	char	*cause = NULL;

	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		ok(hostlist_check(good[i], &cause) == 0, "accepted: '%s'",
		    good[i]);
		free(cause);
		cause = NULL;
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ok(hostlist_check(bad[i], &cause) == -1 && cause != NULL &&
		    strstr(cause, "bad host pattern") != NULL,
		    "refused: '%s' (%s)", bad[i], cause ? cause : "no cause");
		free(cause);
		cause = NULL;
	}
}

static void
test_names(void)
{
	struct hostlist	*hl = hostlist_new();
	char		*cause = NULL;

	ok(hostlist_is_empty(hl), "a new list is empty");
	ok(hostlist_add(hl, false, "pypi.org,*.pythonhosted.org,"
	    "github.com:443", &cause) == 0, "allow list added");
	ok(hostlist_add(hl, true, "evil.pythonhosted.org", &cause) == 0,
	    "deny list added");
	ok(!hostlist_is_empty(hl), "no longer empty");
	/* A bad entry anywhere adds nothing. */
	ok(hostlist_add(hl, false, "good.example,bad..example", &cause) == -1,
	    "a list with a bad entry refused");
	free(cause);
	is_int(verdict(hl, "good.example", 80), 'q', "nothing of it added");

	is_int(verdict(hl, "pypi.org", 443), 'a', "name, any port (443)");
	is_int(verdict(hl, "pypi.org", 80), 'a', "name, any port (80)");
	is_int(verdict(hl, "PyPI.Org.", 443), 'a', "case and trailing dot");
	is_int(verdict(hl, "www.pypi.org", 443), 'q', "a subdomain of an "
	    "exact name is not it");
	is_int(verdict(hl, "files.pythonhosted.org", 443), 'a', "wildcard: "
	    "below");
	is_int(verdict(hl, "a.b.pythonhosted.org", 443), 'a', "wildcard: "
	    "deeper");
	is_int(verdict(hl, "pythonhosted.org", 443), 'q', "wildcard: not the "
	    "name itself");
	is_int(verdict(hl, "xpythonhosted.org", 443), 'q', "wildcard: a "
	    "label boundary");
	is_int(verdict(hl, "evil.pythonhosted.org", 443), 'd', "deny wins "
	    "over a wildcard");
	is_int(verdict(hl, "github.com", 443), 'a', "port listed");
	is_int(verdict(hl, "github.com", 22), 'q', "other port: not allowed");
	is_int(verdict(hl, "example.com", 443), 'q', "on neither list: ask");
	is_int(verdict(hl, "pypi.org", 0), 'd', "port 0 refused");
	hostlist_free(hl);

	hl = hostlist_new();
	ok(hostlist_add(hl, false, "*", &cause) == 0, "allow *");
	ok(hostlist_add(hl, true, "*.internal,metadata.google.internal",
	    &cause) == 0, "deny list");
	is_int(verdict(hl, "anything.example", 443), 'a', "* allows a name");
	is_int(verdict(hl, "x.internal", 443), 'd', "deny wins over *");
	is_int(verdict(hl, "1.2.3.4", 443), 'd', "* allows no IP literal");
	hostlist_free(hl);

	hl = hostlist_new();
	ok(hostlist_add(hl, false, "github.com", &cause) == 0, "allow");
	ok(hostlist_add(hl, true, "github.com:22", &cause) == 0,
	    "deny one port");
	is_int(verdict(hl, "github.com", 443), 'a', "other ports allowed");
	is_int(verdict(hl, "github.com", 22), 'd', "the denied port");
	hostlist_free(hl);
	hostlist_free(NULL);
}

static void
test_literals(void)
{
	struct hostlist	*hl = hostlist_new();
	char		*cause = NULL;
	static const char *const refused[] = {
		"127.0.0.1", "127.1", "2130706433", "0x7f000001", "0177.0.0.1",
		"10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254",
		"100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255",
		"::1", "[::1]", "::", "fe80::1", "fd00::1", "ff02::1",
		"::ffff:127.0.0.1", "::ffff:169.254.169.254",
		"64:ff9b::a9fe:a9fe", "::127.0.0.1", "8.8.8.8", "2001:4860::1"
	};
	size_t		i;

	ok(hostlist_add(hl, false, "*", &cause) == 0, "allow *");
	for (i = 0; i < sizeof refused / sizeof refused[0]; i++)
		is_int(verdict(hl, refused[i], 443), 'd', "IP literal %s "
		    "refused", refused[i]);
	hostlist_free(hl);

	hl = hostlist_new();
	ok(hostlist_add(hl, false, "10.0.0.0/8,203.0.113.7:443,[::1]:80,"
	    "::ffff:192.168.0.0/112", &cause) == 0, "address entries");
	ok(hostlist_add(hl, true, "10.9.0.0/16", &cause) == 0,
	    "address deny entry");
	is_int(verdict(hl, "10.1.2.3", 443), 'a', "range listed");
	is_int(verdict(hl, "::ffff:10.1.2.3", 443), 'a', "range listed, "
	    "mapped spelling");
	is_int(verdict(hl, "10.9.1.1", 443), 'd', "deny range wins");
	is_int(verdict(hl, "203.0.113.7", 443), 'a', "address and port");
	is_int(verdict(hl, "203.0.113.7", 80), 'd', "address, other port");
	is_int(verdict(hl, "::1", 80), 'a', "[::1]:80");
	is_int(verdict(hl, "127.0.0.1", 80), 'd', "127.0.0.1 is not ::1");
	is_int(verdict(hl, "192.168.3.4", 80), 'a', "v4 range written as "
	    "mapped v6");
	hostlist_free(hl);
}

static void
test_addresses(void)
{
	struct hostlist	*hl = hostlist_new();
	char		*cause = NULL;

	ok(hostlist_add(hl, false, "exact.test,*.wild.test,"
	    "192.168.7.0/24", &cause) == 0, "lists");
	ok(hostlist_add(hl, true, "203.0.113.66", &cause) == 0, "deny addr");
	ok(address_ok(hl, "exact.test", "127.0.0.1", 80), "an exact name "
	    "may resolve to loopback");
	ok(address_ok(hl, "a.wild.test", "93.184.216.34", 80), "a wildcard "
	    "name to a public address");
	ok(!address_ok(hl, "a.wild.test", "127.0.0.1", 80), "a wildcard name "
	    "not to loopback");
	ok(!address_ok(hl, "a.wild.test", "169.254.169.254", 80),
	    "nor to link-local (metadata)");
	ok(!address_ok(hl, "a.wild.test", "::ffff:10.0.0.1", 80),
	    "nor to a mapped private address");
	ok(!address_ok(hl, "a.wild.test", "fd12::1", 80), "nor to a unique "
	    "local IPv6 address");
	ok(address_ok(hl, "a.wild.test", "192.168.7.9", 80), "unless the "
	    "range is listed");
	ok(!address_ok(hl, "exact.test", "203.0.113.66", 80), "a denied "
	    "address stays denied for an exact name");
	hostlist_free(hl);
}

static void
test_normalize(void)
{
	char	out[HOSTLIST_NAME_MAX + 1];
	char	longname[300];

	ok(hostlist_normalize("Foo.Example.", out, sizeof out) == 0 &&
	    strcmp(out, "foo.example") == 0, "lower case, no trailing dot");
	ok(hostlist_normalize("[2001:DB8::1]", out, sizeof out) == 0 &&
	    strcmp(out, "2001:db8::1") == 0, "brackets dropped");
	ok(hostlist_normalize("", out, sizeof out) == -1, "empty refused");
	ok(hostlist_normalize("a b", out, sizeof out) == -1, "space refused");
	ok(hostlist_normalize("a/b", out, sizeof out) == -1, "slash refused");
	ok(hostlist_normalize("[nothost]", out, sizeof out) == -1,
	    "brackets around a name refused");
	ok(hostlist_normalize("x\r\n.com", out, sizeof out) == -1,
	    "control characters refused");
	memset(longname, 'a', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	ok(hostlist_normalize(longname, out, sizeof out) == -1,
	    "a name over 253 bytes refused");
	ok(hostlist_normalize("ok.example", out, 4) == -1, "too small an out");
}

/* The loopback ports of the lists allow and deny into lo (8); how many. */
static int
loopbacks_of(const char *allow, const char *deny,
    struct hostlist_loopback *lo)
{
	struct hostlist	*hl = hostlist_new();
	char		*cause = NULL;
	int		 n = -1;

	if (hostlist_add(hl, false, allow, &cause) == 0 &&
	    hostlist_add(hl, true, deny, &cause) == 0)
		n = hostlist_loopbacks(hl, lo, 8);
	free(cause);
	hostlist_free(hl);
	return n;
}

static void
test_loopback(void)
{
	struct hostlist_loopback	 lo[8];
	struct hostlist			*hl = hostlist_new();
	char				*cause = NULL;
	int				 n;

	ok(hostlist_add(hl, false, "localhost:5432,127.0.0.1:6379,"
	    "[::1]:6380,[::ffff:127.0.0.1]:6381,127.0.0.1/32:6382,localhost,"
	    "127.0.0.1,127.0.0.0/8:7000,*:8000,a.test:9000,127.0.0.1:5432,"
	    "*.localhost:7001,127.0.0.2:7002", &cause) == 0, "allow list");
	ok(hostlist_add(hl, true, "[::1]:5432", &cause) == 0, "deny list");
	n = hostlist_loopbacks(hl, lo, 8);
	is_int(n, 5, "five loopback ports named with their port");
	ok(n == 5 && lo[0].port == 5432 && lo[0].v4 && !lo[0].v6 &&
	    lo[0].by_name && strcmp(lo[0].entry, "localhost:5432") == 0,
	    "localhost:5432: 127.0.0.1, ::1 denied, by name, its entry");
	ok(n == 5 && lo[1].port == 6379 && lo[1].v4 && !lo[1].v6 &&
	    !lo[1].by_name, "127.0.0.1:6379: v4 only");
	ok(n == 5 && lo[2].port == 6380 && !lo[2].v4 && lo[2].v6,
	    "[::1]:6380: v6 only");
	ok(n == 5 && lo[3].port == 6381 && lo[3].v4 && !lo[3].v6,
	    "a mapped spelling of 127.0.0.1 is 127.0.0.1");
	ok(n == 5 && lo[4].port == 6382 && lo[4].v4, "127.0.0.1/32:PORT is "
	    "127.0.0.1:PORT");
	is_int(hostlist_loopbacks(hl, lo, 2), 5, "the count past max");
	/* Loopback names: named with the port, or refused, never asked. */
	is_int(verdict(hl, "localhost", 5432), 'a', "localhost:5432 allowed");
	is_int(verdict(hl, "LocalHost.", 9999), 'a', "localhost (no port) "
	    "listed: any port, through the proxy");
	hostlist_free(hl);

	hl = hostlist_new();
	ok(hostlist_add(hl, false, "localhost:5432,a.test", &cause) == 0,
	    "allow list");
	is_int(verdict(hl, "localhost", 9999), 'd', "localhost on another "
	    "port: refused, not asked");
	is_int(verdict(hl, "db.localhost", 5432), 'd', "a name below "
	    "localhost: refused, not asked");
	is_int(verdict(hl, "notlocalhost", 5432), 'q', "a name merely ending "
	    "so: asked");
	is_int(verdict(hl, "localhost.test", 5432), 'q', "localhost.test is "
	    "another name");
	hostlist_free(hl);

	is_int(loopbacks_of("localhost:5432,127.0.0.1:6379", "127.0.0.0/8",
	    lo), 1, "loopback's IPv4 range denied: 127.0.0.1:6379 gone, and "
	    "localhost:5432's 127.0.0.1");
	ok(lo[0].port == 5432 && !lo[0].v4 && lo[0].v6, "... its ::1 left");
	is_int(loopbacks_of("localhost:5432,[::1]:6380", "localhost", lo), 1,
	    "localhost denied by name: both its addresses; an address entry "
	    "stays");
	ok(lo[0].port == 6380 && !lo[0].v4 && lo[0].v6, "... [::1]:6380");
	is_int(loopbacks_of("127.0.0.1:6379", "127.0.0.1:6379", lo), 0,
	    "allowed and denied: the deny list wins");
}

static void
test_unix(void)
{
	static const char *const good[] = {
		"unix:/run/docker.sock", "unix:/var/run/postgresql/",
		"unix:/a/B-c_d.sock,a.test"
	};
	static const char *const bad[] = {
		"unix:relative", "unix:", "unix:/", "unix://",
		"unix:/a\x01b"
	};
	struct hostlist	*hl = hostlist_new();
	const char	*paths[4];
	char		*cause = NULL, longpath[200];
	size_t		 i;

	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		ok(hostlist_check(good[i], &cause) == 0, "accepted: '%s'",
		    good[i]);
		free(cause);
		cause = NULL;
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ok(hostlist_check(bad[i], &cause) == -1 && cause != NULL &&
		    strstr(cause, "bad UNIX socket") != NULL, "refused: '%s' "
		    "(%s)", bad[i], cause ? cause : "no cause");
		free(cause);
		cause = NULL;
	}
	snprintf(longpath, sizeof longpath, "unix:/%0150d", 0);
	ok(hostlist_check(longpath, &cause) == -1, "a path longer than a "
	    "socket address holds: refused");
	free(cause);
	cause = NULL;

	ok(hostlist_add(hl, false, "a.test,unix:/Run/X.sock,"
	    "unix:/var/run/postgresql/", &cause) == 0, "allow list");
	ok(hostlist_add(hl, true, "unix:/var/run", &cause) == 0, "deny list");
	is_int(hostlist_unix(hl, paths, 4), 2, "two unix: entries");
	is_str(paths[0], "/Run/X.sock", "its path, case kept");
	is_str(paths[1], "/var/run/postgresql", "no trailing slash");
	is_int(hostlist_unix(hl, paths, 1), 2, "the count past max");
	ok(hostlist_unix_denied(hl, "/var/run/postgresql/.s.PGSQL.5432"),
	    "denied below a denied directory");
	ok(hostlist_unix_denied(hl, "/var/run"), "denied: the path itself");
	ok(!hostlist_unix_denied(hl, "/var/running/x"), "a longer name is "
	    "another directory");
	ok(!hostlist_unix_denied(hl, "/Run/X.sock"), "not denied");
	is_int(verdict(hl, "unix", 80), 'q', "a unix: entry is no host name");
	is_int(verdict(hl, "a.test", 80), 'a', "a name beside it");
	hostlist_free(hl);

	ok(hostlist_unix_warning("a.test,unix:/run/docker.sock") != NULL &&
	    strstr(hostlist_unix_warning("unix:/x"), "root on the host") !=
	    NULL, "a list naming a UNIX socket: what it grants");
	ok(hostlist_unix_warning("a.test,localhost:5432") == NULL &&
	    hostlist_unix_warning(NULL) == NULL &&
	    hostlist_unix_warning("bad..host") == NULL, "none: nothing said");
}

int
main(void)
{
	test_parse();
	test_names();
	test_literals();
	test_addresses();
	test_normalize();
	test_loopback();
	test_unix();
	return tap_done();
}
