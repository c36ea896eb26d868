/*
 * sbopts.c - parse the shared sandbox options (see sbopts.h).
 */
#include "cli/sbopts.h"

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
"                      to the settings file's)\n"
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

/* The value of an option: after '=' or the next argument; NULL if none. */
static const char *
option_value(const char *name, int argc, char **argv, int *i, char **cause)
{
	const char	*arg = argv[*i], *eq = strchr(arg, '=');

	if (eq != NULL)
		return eq + 1;
	if (*i + 1 >= argc) {
		*cause = xasprintf("%s needs a value", name);
		return NULL;
	}
	return argv[++*i];
}

/* Whether arg is --name or --name=value. */
static int
is_option(const char *arg, const char *name)
{
	size_t	len = strlen(name);

	return strncmp(arg, name, len) == 0 &&
	    (arg[len] == '\0' || arg[len] == '=');
}

/* Parse a count for a limit option. */
static int
parse_count(const char *name, const char *s, uint64_t *out, char **cause)
{
	char			*end;
	unsigned long long	 v;

	v = strtoull(s, &end, 10);
	if (*s == '\0' || *s == '-' || *end != '\0') {
		*cause = xasprintf("%s: not a number: '%s'", name, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* The bounds' options: a count or a size each, the command line's own. */
static const struct {
	const char		*name;
	enum sandbox_limit	 k;
	bool			 size;
} limit_options[] = {
	{ "--max-procs", SANDBOX_LIMIT_PROCESSES, false },
	{ "--max-files", SANDBOX_LIMIT_OPEN_FILES, false },
	{ "--max-session-memory", SANDBOX_LIMIT_MEMORY, true },
	{ "--max-file-size", SANDBOX_LIMIT_FILE_SIZE, true },
	{ "--max-memory", SANDBOX_LIMIT_ADDRESS_SPACE, true },
};

/*
 * If argv[*i] is a bound's option, set the bound in opts: 1, or -1 with
 * *cause when its value is wrong; 0 when it is no such option.
 */
static int
limit_option(struct sandbox_opts *opts, int argc, char **argv, int *i,
    char **cause)
{
	const char	*v;
	uint64_t	 n;
	size_t		 j;

	for (j = 0; j < sizeof limit_options / sizeof limit_options[0]; j++)
		if (is_option(argv[*i], limit_options[j].name))
			break;
	if (j == sizeof limit_options / sizeof limit_options[0])
		return 0;
	if ((v = option_value(limit_options[j].name, argc, argv, i,
	    cause)) == NULL)
		return -1;
	if (limit_options[j].size ? sandbox_parse_size(v, &n, cause) != 0 :
	    parse_count(limit_options[j].name, v, &n, cause) != 0)
		return -1;
	sandbox_opts_set_limit(opts, limit_options[j].k, n,
	    SANDBOX_FROM_OPTION, 0);
	return 1;
}

int
sbopts_parse(struct sandbox_opts *opts, int argc, char **argv, int *i,
    char **cause)
{
	const char	*arg = argv[*i], *v;
	int		 r;

	if (strcmp(arg, "--network") == 0)
		opts->network = true;
	else if (strcmp(arg, "--no-network") == 0) {
		opts->network = false;
		sandbox_opts_clear_network(opts);
	} else if (is_option(arg, "--network-allow") ||
	    is_option(arg, "--network-deny")) {
		bool	deny = is_option(arg, "--network-deny");
		char	*why = NULL;

		if ((v = option_value(deny ? "--network-deny" :
		    "--network-allow", argc, argv, i, cause)) == NULL)
			return -1;
		if (sandbox_opts_add_network(opts, deny, v, &why) != 0) {
			*cause = xasprintf("%s: %s", deny ? "--network-deny" :
			    "--network-allow", why);
			free(why);
			return -1;
		}
	} else if (is_option(arg, "--network-log")) {
		if ((v = option_value("--network-log", argc, argv, i,
		    cause)) == NULL)
			return -1;
		opts->net_log = v;
	}
	else if (strcmp(arg, "--protect-git") == 0)
		opts->protect_git = true;
	else if (strcmp(arg, "--no-protect-git") == 0)
		opts->protect_git = false;
	else if (strcmp(arg, "--shared-tmp") == 0)
		opts->private_tmp = false;
	else if (strcmp(arg, "--private-tmp") == 0)
		opts->private_tmp = true;
	else if (strcmp(arg, "--allow-no-namespaces") == 0)
		opts->allow_no_namespaces = true;
	else if (strcmp(arg, "--require-namespaces") == 0)
		opts->allow_no_namespaces = false;
	else if (is_option(arg, "--sandbox")) {
		if ((v = option_value("--sandbox", argc, argv, i,
		    cause)) == NULL ||
		    sandbox_profile_parse(v, &opts->profile, cause) != 0)
			return -1;
	} else if (is_option(arg, "--writable")) {
		if ((v = option_value("--writable", argc, argv, i,
		    cause)) == NULL ||
		    sandbox_opts_add_writable(opts, v, cause) != 0)
			return -1;
	} else if ((r = limit_option(opts, argc, argv, i, cause)) != 0) {
		if (r < 0)
			return -1;
	} else
		return 0;
	++*i;
	return 1;
}
