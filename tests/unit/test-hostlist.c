/*
 * test-hostlist.c - host pattern lists: parsing, names, wildcards, ports,
 * the deny list winning, IP literals in every spelling, special ranges,
 * resolved addresses, normalization.
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

int
main(void)
{
	test_parse();
	test_names();
	test_literals();
	test_addresses();
	test_normalize();
	return tap_done();
}
