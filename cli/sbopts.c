/*
 * sbopts.c - the shared sandbox options (see sbopts.h): their table, their
 * help lines, what each sets.
 *
 * Invariant: sbopts_options[] lists the options in the order of their keys
 * (SBOPTS_KEY up), the bounds last in the order of sbopts_limits[].
 */
#include "cli/sbopts.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char sbopts_help[] =
"  --sandbox PROFILE   read-only, workspace-write (default) or\n"
"                      danger-full-access (no sandbox at all)\n"
"  --network           allow the network (default: AF_UNIX stream\n"
"                      socketpairs only)\n"
"  --no-network        no network, whatever the settings file says (its\n"
"                      host lists too)\n"
"  --network-allow LIST\n"
"                      reach only these hosts, through ptyvisor's proxy in\n"
"                      a network namespace of the command's own: names,\n"
"                      *.domain, *, addresses or ADDR/BITS, each with an\n"
"                      optional :PORT, comma-separated (repeatable; added\n"
"                      to the settings file's); localhost:PORT,\n"
"                      127.0.0.1:PORT or [::1]:PORT: the host's own port,\n"
"                      at that address inside, for any client;\n"
"                      unix:PATH: a socket of the host (or each one in a\n"
"                      directory), relayed at PATH (needs Landlock ABI 9)\n"
"  --network-deny LIST never these hosts (same syntax; wins over allow)\n"
"  --network-log FILE  append a JSON line per proxied connection to FILE\n"
"                      (sessions log next to their recording anyway)\n"
"  --writable DIR      another writable root (repeatable; added to the\n"
"                      settings file's)\n"
"  --protect-git       keep .git under the writable roots read-only\n"
"  --no-protect-git    do not, whatever the settings file says\n"
"  --private-tmp       a fresh, empty /tmp and /dev/shm for the command\n"
"  --shared-tmp        the real /tmp (the default; writable under\n"
"                      workspace-write)\n"
"  --max-procs N       at most N processes (default 1024; 0: no bound)\n"
"  --max-session-memory SIZE\n"
"                      memory of the whole sandbox, no swap (a memory\n"
"                      cgroup; default half the RAM; 0: no bound)\n"
"  --max-memory SIZE   address-space limit per process, e.g. 4G\n"
"  --max-file-size SIZE\n"
"                      largest file the command may write (default 16G,\n"
"                      1G under read-only; 0: inherited)\n"
"  --max-files N       at most N open files per process\n"
"  --allow-no-namespaces\n"
"                      if the kernel refuses namespaces, run with Landlock\n"
"                      and seccomp only instead of failing\n"
"  --require-namespaces\n"
"                      fail without namespaces (the default), whatever the\n"
"                      settings file says\n";

/* The keys of the options, as the commands are handed them. */
enum {
	SBOPTS_SANDBOX = SBOPTS_KEY,
	SBOPTS_NETWORK,
	SBOPTS_NO_NETWORK,
	SBOPTS_NETWORK_ALLOW,
	SBOPTS_NETWORK_DENY,
	SBOPTS_NETWORK_LOG,
	SBOPTS_WRITABLE,
	SBOPTS_PROTECT_GIT,
	SBOPTS_NO_PROTECT_GIT,
	SBOPTS_PRIVATE_TMP,
	SBOPTS_SHARED_TMP,
	SBOPTS_ALLOW_NO_NAMESPACES,
	SBOPTS_REQUIRE_NAMESPACES,
	SBOPTS_MAX_PROCS,		/* the bounds: keep them last */
	SBOPTS_MAX_FILES,
	SBOPTS_MAX_SESSION_MEMORY,
	SBOPTS_MAX_FILE_SIZE,
	SBOPTS_MAX_MEMORY,
};

const struct args_option sbopts_options[] = {
	{ "sandbox", 0, true, SBOPTS_SANDBOX },
	{ "network", 0, false, SBOPTS_NETWORK },
	{ "no-network", 0, false, SBOPTS_NO_NETWORK },
	{ "network-allow", 0, true, SBOPTS_NETWORK_ALLOW },
	{ "network-deny", 0, true, SBOPTS_NETWORK_DENY },
	{ "network-log", 0, true, SBOPTS_NETWORK_LOG },
	{ "writable", 0, true, SBOPTS_WRITABLE },
	{ "protect-git", 0, false, SBOPTS_PROTECT_GIT },
	{ "no-protect-git", 0, false, SBOPTS_NO_PROTECT_GIT },
	{ "private-tmp", 0, false, SBOPTS_PRIVATE_TMP },
	{ "shared-tmp", 0, false, SBOPTS_SHARED_TMP },
	{ "allow-no-namespaces", 0, false, SBOPTS_ALLOW_NO_NAMESPACES },
	{ "require-namespaces", 0, false, SBOPTS_REQUIRE_NAMESPACES },
	{ "max-procs", 0, true, SBOPTS_MAX_PROCS },
	{ "max-files", 0, true, SBOPTS_MAX_FILES },
	{ "max-session-memory", 0, true, SBOPTS_MAX_SESSION_MEMORY },
	{ "max-file-size", 0, true, SBOPTS_MAX_FILE_SIZE },
	{ "max-memory", 0, true, SBOPTS_MAX_MEMORY },
	ARGS_END
};

/* The bound each bound's option sets, and whether it is a size. */
static const struct {
	enum sandbox_limit	 k;
	bool			 size;
} sbopts_limits[] = {
	{ SANDBOX_LIMIT_PROCESSES, false },	/* SBOPTS_MAX_PROCS */
	{ SANDBOX_LIMIT_OPEN_FILES, false },
	{ SANDBOX_LIMIT_MEMORY, true },
	{ SANDBOX_LIMIT_FILE_SIZE, true },
	{ SANDBOX_LIMIT_ADDRESS_SPACE, true },
};

/* Parse a count for a bound's option name. */
static int
sbopts_count(const char *name, const char *s, uint64_t *out, char **cause)
{
	char			*end;
	unsigned long long	 v;

	v = strtoull(s, &end, 10);
	if (*s == '\0' || *s == '-' || *end != '\0') {
		*cause = xasprintf("--%s: not a number: '%s'", name, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* Set the bound of option key (SBOPTS_MAX_*) to value in opts. */
static int
sbopts_limit(struct sandbox_opts *opts, int key, const char *value,
    char **cause)
{
	size_t		 j = (size_t)(key - SBOPTS_MAX_PROCS);
	uint64_t	 n;

	assert(j < sizeof sbopts_limits / sizeof sbopts_limits[0]);
	if (sbopts_limits[j].size ? sandbox_parse_size(value, &n, cause) != 0 :
	    sbopts_count(sbopts_options[key - SBOPTS_KEY].name, value, &n,
	    cause) != 0)
		return -1;
	sandbox_opts_set_limit(opts, sbopts_limits[j].k, n,
	    SANDBOX_FROM_OPTION, 0);
	return 0;
}

/* Add --network-allow's (or deny's) hosts to opts. */
static int
sbopts_hosts(struct sandbox_opts *opts, bool deny, const char *value,
    char **cause)
{
	char	*why = NULL;

	if (sandbox_opts_add_network(opts, deny, value, &why) == 0)
		return 0;
	*cause = xasprintf("%s: %s", deny ? "--network-deny" :
	    "--network-allow", why);
	free(why);
	return -1;
}

int
sbopts_apply(struct sandbox_opts *opts, int key, const char *value,
    char **cause)
{
	switch (key) {
	case SBOPTS_SANDBOX:
		return sandbox_profile_parse(value, &opts->profile, cause);
	case SBOPTS_NETWORK:
		opts->network = true;
		break;
	case SBOPTS_NO_NETWORK:
		opts->network = false;
		sandbox_opts_clear_network(opts);
		break;
	case SBOPTS_NETWORK_ALLOW:
	case SBOPTS_NETWORK_DENY:
		return sbopts_hosts(opts, key == SBOPTS_NETWORK_DENY, value,
		    cause);
	case SBOPTS_NETWORK_LOG:
		opts->net_log = value;
		break;
	case SBOPTS_WRITABLE:
		return sandbox_opts_add_writable(opts, value, cause);
	case SBOPTS_PROTECT_GIT:
	case SBOPTS_NO_PROTECT_GIT:
		opts->protect_git = key == SBOPTS_PROTECT_GIT;
		break;
	case SBOPTS_PRIVATE_TMP:
	case SBOPTS_SHARED_TMP:
		opts->private_tmp = key == SBOPTS_PRIVATE_TMP;
		break;
	case SBOPTS_ALLOW_NO_NAMESPACES:
	case SBOPTS_REQUIRE_NAMESPACES:
		opts->allow_no_namespaces = key == SBOPTS_ALLOW_NO_NAMESPACES;
		break;
	default:
		return sbopts_limit(opts, key, value, cause);
	}
	return 0;
}

int
sbopts_parse(struct sandbox_opts *opts, int argc, char **argv, int *i,
    char **cause)
{
	const struct args_option	*o;
	const char			*value;
	int				 r;

	r = args_match(sbopts_options, argc, argv, i, &o, &value, cause);
	if (r <= 0)
		return r;
	return sbopts_apply(opts, o->key, value, cause) != 0 ? -1 : 1;
}
