/*
 * sandbox.c - the sandbox policy: defaults, profile names, the bounds and
 * where each came from, the option lists (writable roots, host lists),
 * checking and preparing a sandbox in the parent, the scrubbed
 * environment, --explain.
 *
 * Invariants: sandbox_new() resolves every path the child will need (cwd,
 * writable roots, .git dirs), builds the seccomp filter, makes the
 * session's cgroups (best effort) and prepares a filtered network's lists,
 * so the child only issues system calls; a policy that cannot be honoured
 * fails here, with a cause, before anything is forked.
 */
#include "sandbox/sandbox.h"
#include "sandbox/sandbox-int.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "net/hostlist.h"

/* Profile names, indexed by enum sandbox_profile. */
static const char *const sandbox_profile_names[] = {
	"read-only", "workspace-write", "danger-full-access"
};

/* Default bound on processes: generous for builds, fatal to fork bombs. */
#define SANDBOX_DEFAULT_PROCESSES 1024

/*
 * Default bound on a sandbox's memory: half the machine's RAM, so that one
 * command cannot push the person's own programs out (0 if unknown).
 */
static uint64_t
sandbox_default_memory(void)
{
	long	pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || size <= 0)
		return 0;
	return ((uint64_t)pages * (uint64_t)size / 2) & ~((1ULL << 20) - 1);
}

void
sandbox_opts_init(struct sandbox_opts *opts)
{
	memset(opts, 0, sizeof *opts);
	opts->profile = SANDBOX_WORKSPACE_WRITE;
	/*
	 * The real /tmp (writable under workspace-write): programs and
	 * checkouts living under /tmp must stay visible.  A private one is
	 * there for the asking (--private-tmp).
	 */
	opts->private_tmp = false;
	opts->limits.processes = SANDBOX_DEFAULT_PROCESSES;
	opts->limits.memory = sandbox_default_memory();
	opts->limits.file_size = SANDBOX_DEFAULT_FILE_SIZE;
}

/* Where each bound lives in struct sandbox_limits, by number. */
static const size_t sandbox_limit_offsets[SANDBOX_NLIMITS] = {
	[SANDBOX_LIMIT_ADDRESS_SPACE] =
	    offsetof(struct sandbox_limits, address_space),
	[SANDBOX_LIMIT_OPEN_FILES] = offsetof(struct sandbox_limits, open_files),
	[SANDBOX_LIMIT_PROCESSES] = offsetof(struct sandbox_limits, processes),
	[SANDBOX_LIMIT_MEMORY] = offsetof(struct sandbox_limits, memory),
	[SANDBOX_LIMIT_FILE_SIZE] = offsetof(struct sandbox_limits, file_size),
};

uint64_t
sandbox_limit_get(const struct sandbox_limits *l, enum sandbox_limit k)
{
	assert((size_t)k < SANDBOX_NLIMITS);
	return *(const uint64_t *)(const void *)((const char *)l +
	    sandbox_limit_offsets[k]);
}

void
sandbox_limit_set(struct sandbox_limits *l, enum sandbox_limit k, uint64_t v)
{
	assert((size_t)k < SANDBOX_NLIMITS);
	*(uint64_t *)(void *)((char *)l + sandbox_limit_offsets[k]) = v;
}

void
sandbox_opts_set_limit(struct sandbox_opts *opts, enum sandbox_limit k,
    uint64_t v, enum sandbox_origin from, unsigned line)
{
	sandbox_limit_set(&opts->limits, k, v);
	opts->limit_from[k] = from;
	opts->limit_line[k] = line;
}

/*
 * A profile's own default for bound k, where it has one: read-only writes
 * only scratch files and its caller's output, so its files stay smaller.
 */
static bool
sandbox_profile_default(enum sandbox_profile profile, enum sandbox_limit k,
    uint64_t *v)
{
	if (profile == SANDBOX_READ_ONLY && k == SANDBOX_LIMIT_FILE_SIZE) {
		*v = SANDBOX_READ_ONLY_FILE_SIZE;
		return true;
	}
	return false;
}

void
sandbox_opts_limits(const struct sandbox_opts *opts,
    struct sandbox_limits *out, enum sandbox_origin *from, unsigned *line)
{
	const struct sandbox_given_limits	*section = NULL;
	enum sandbox_origin			 f;
	enum sandbox_limit			 k;
	unsigned				 n;
	uint64_t				 v;

	if ((size_t)opts->profile < SANDBOX_NBOUNDED)
		section = &opts->profile_limits[opts->profile];
	for (k = 0; k < SANDBOX_NLIMITS; k++) {
		f = opts->limit_from[k];
		n = opts->limit_line[k];
		v = sandbox_limit_get(&opts->limits, k);
		if (f != SANDBOX_FROM_OPTION && section != NULL &&
		    section->line[k] != 0) {
			f = SANDBOX_FROM_PROFILE;
			n = section->line[k];
			v = sandbox_limit_get(&section->limits, k);
		} else if (f == SANDBOX_FROM_DEFAULT)
			(void)sandbox_profile_default(opts->profile, k, &v);
		sandbox_limit_set(out, k, v);
		if (from != NULL)
			from[k] = f;
		if (line != NULL)
			line[k] = n;
	}
}

bool
sandbox_profile_lookup(const char *name, enum sandbox_profile *profile)
{
	size_t	i;

	for (i = 0; i < sizeof sandbox_profile_names /
	    sizeof sandbox_profile_names[0]; i++) {
		if (strcmp(name, sandbox_profile_names[i]) == 0) {
			*profile = (enum sandbox_profile)i;
			return true;
		}
	}
	return false;
}

int
sandbox_profile_parse(const char *name, enum sandbox_profile *profile,
    char **cause)
{
	if (sandbox_profile_lookup(name, profile))
		return 0;
	/* "none" says the same as danger-full-access, as plainly. */
	if (strcmp(name, "none") == 0) {
		*profile = SANDBOX_FULL_ACCESS;
		return 0;
	}
	*cause = xasprintf("unknown profile '%s' (read-only, workspace-write, "
	    "danger-full-access or none)", name);
	return -1;
}

bool
sandbox_profile_is_none(const char *name)
{
	enum sandbox_profile	 p;
	char			*cause = NULL;

	if (name == NULL || sandbox_profile_parse(name, &p, &cause) != 0) {
		free(cause);
		return false;
	}
	return p == SANDBOX_FULL_ACCESS;
}

const char *
sandbox_profile_name(enum sandbox_profile profile)
{
	if ((size_t)profile >= sizeof sandbox_profile_names /
	    sizeof sandbox_profile_names[0])
		return "unknown";
	return sandbox_profile_names[profile];
}

int
sandbox_opts_add_writable(struct sandbox_opts *opts, const char *dir,
    char **cause)
{
	if (opts->nwritable >= SANDBOX_MAX_ROOTS) {
		*cause = xasprintf("too many writable roots (at most %d)",
		    SANDBOX_MAX_ROOTS);
		return -1;
	}
	opts->writable[opts->nwritable++] = dir;
	return 0;
}

int
sandbox_opts_add_guard(struct sandbox_opts *opts, enum guard_how how,
    bool expose, const char *path, char **cause)
{
	const char	**v = expose ? opts->expose : how == GUARD_HIDDEN ?
			    opts->hide : opts->protect;
	int		 *n = expose ? &opts->nexpose : how == GUARD_HIDDEN ?
			    &opts->nhide : &opts->nprotect;

	if (*n >= GUARD_MAX_EXTRA) {
		*cause = xasprintf("too many paths to %s (at most %d)",
		    expose ? "expose" : how == GUARD_HIDDEN ? "hide" :
		    "protect", GUARD_MAX_EXTRA);
		return -1;
	}
	v[(*n)++] = path;
	return 0;
}

int
sandbox_opts_add_guard_why(struct sandbox_opts *opts, enum guard_how how,
    const char *path, const char *why, char **cause)
{
	if (sandbox_opts_add_guard(opts, how, false, path, cause) != 0)
		return -1;
	if (how == GUARD_HIDDEN)
		opts->hide_why[opts->nhide - 1] = why;
	else
		opts->protect_why[opts->nprotect - 1] = why;
	return 0;
}

int
sandbox_opts_add_pass_env(struct sandbox_opts *opts, const char *name,
    char **cause)
{
	if (opts->npass_env >= SANDBOX_MAX_PASS_ENV) {
		*cause = xasprintf("too many variables passed anyway (at most "
		    "%d)", SANDBOX_MAX_PASS_ENV);
		return -1;
	}
	opts->pass_env[opts->npass_env++] = name;
	return 0;
}

int
sandbox_opts_add_network(struct sandbox_opts *opts, bool deny,
    const char *list, char **cause)
{
	const char	**v = deny ? opts->net_deny : opts->net_allow;
	int		 *n = deny ? &opts->nnet_deny : &opts->nnet_allow;

	if (hostlist_check(list, cause) != 0)
		return -1;
	if (*n >= SANDBOX_MAX_NET_LISTS) {
		*cause = xasprintf("too many host lists (at most %d of each)",
		    SANDBOX_MAX_NET_LISTS);
		return -1;
	}
	v[(*n)++] = list;
	return 0;
}

void
sandbox_opts_clear_network(struct sandbox_opts *opts)
{
	memset(opts->net_allow, 0, sizeof opts->net_allow);
	memset(opts->net_deny, 0, sizeof opts->net_deny);
	opts->nnet_allow = opts->nnet_deny = 0;
}

bool
sandbox_opts_network_filtered(const struct sandbox_opts *opts)
{
	return !opts->network && (opts->nnet_allow > 0 || opts->nnet_deny > 0);
}

int
sandbox_parse_size(const char *s, uint64_t *out, char **cause)
{
	unsigned long long	v;
	char			*end;
	int			shift = 0;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || errno != 0 || *s == '-')
		goto bad;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case 't': case 'T':
		shift = 40;
		break;
	default:
		goto bad;
	}
	if (*end != '\0' && end[1] != '\0')
		goto bad;
	if (shift != 0 && v > (UINT64_MAX >> shift))
		goto bad;
	*out = (uint64_t)v << shift;
	return 0;
bad:
	*cause = xasprintf("bad size '%s' (a number, optionally K, M, G or T)",
	    s);
	return -1;
}

/* Resolve dir to an absolute directory path; NULL with *cause. */
static char *
resolve_dir(const char *what, const char *dir, char **cause)
{
	char		*path;
	struct stat	 st;

	if ((path = realpath(dir, NULL)) == NULL) {
		*cause = xasprintf("%s: %s: %s", what, dir, strerror(errno));
		return NULL;
	}
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		*cause = xasprintf("%s: %s: %s", what, dir, strerror(ENOTDIR));
		free(path);
		return NULL;
	}
	return path;
}

/* Add a writable root unless an equal one is there already. */
static void
add_root(struct sandbox *sb, char *path)
{
	int	i;

	for (i = 0; i < sb->nroots; i++) {
		if (strcmp(sb->roots[i], path) == 0) {
			free(path);
			return;
		}
	}
	sb->roots = xreallocarray(sb->roots, (size_t)sb->nroots + 1,
	    sizeof *sb->roots);
	sb->roots[sb->nroots++] = path;
}

/* Collect the .git entries of the writable roots to keep read-only. */
static void
find_git_dirs(struct sandbox *sb)
{
	struct stat	 st;
	char		*git;
	int		 i;

	for (i = 0; i < sb->nroots; i++) {
		git = xasprintf("%s/.git", sb->roots[i]);
		if (lstat(git, &st) == 0 &&
		    (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) {
			sb->readonly = xreallocarray(sb->readonly,
			    (size_t)sb->nreadonly + 1, sizeof *sb->readonly);
			sb->readonly[sb->nreadonly++] = git;
		} else
			free(git);
	}
}

/*
 * The guarded paths for sb (guard.h): the project roots are the command's
 * directory and the writable roots named on purpose (not the shared /tmp).
 */
static void
expand_guards(struct sandbox *sb, const struct sandbox_opts *opts,
    const char *const *projects, int nprojects)
{
	struct guard_input	 in;

	sandbox_guard_input(opts, &in);
	in.roots = (const char *const *)sb->roots;
	in.nroots = sb->nroots;
	in.projects = projects;
	in.nprojects = nprojects;
	in.other_homes = sb->is_root;
	guard_expand(&in, &sb->guards);
}

/* sandbox_new(), with the placeholders made or not (--explain). */
static struct sandbox *
sandbox_make(const struct sandbox_opts *opts, const char *cwd,
    bool placeholders, char **cause)
{
	struct sandbox	*sb;
	char		*path, why[256];
	int		 i, nprojects;

	sb = xcalloc(1, sizeof *sb);
	sb->end_fd = -1;
	sb->opts = *opts;
	sandbox_opts_limits(opts, &sb->opts.limits, NULL, NULL);
	memset(sb->opts.writable, 0, sizeof sb->opts.writable);
	sb->opts.nwritable = 0;
	sandbox_opts_clear_network(&sb->opts);
	sb->opts.net_log = NULL;
	sb->opts.net_ask = NULL;
	sb->opts.net_rules_file = NULL;
	sb->opts.settings = NULL;
	sb->parent = getpid();
	sb->is_root = geteuid() == 0;
	if ((sb->cwd = resolve_dir("cwd", cwd != NULL ? cwd : ".",
	    cause)) == NULL)
		goto fail;
	if (opts->profile == SANDBOX_FULL_ACCESS &&
	    sandbox_opts_network_filtered(opts)) {
		*cause = xstrdup("a host allow-list needs the sandbox (not "
		    "with danger-full-access): the command would reach "
		    "every host");
		goto fail;
	}
	if (opts->profile == SANDBOX_FULL_ACCESS)
		return sb;
	if ((size_t)opts->profile > SANDBOX_FULL_ACCESS) {
		*cause = xasprintf("unknown profile %d", (int)opts->profile);
		goto fail;
	}

	if (opts->profile == SANDBOX_READ_ONLY && opts->nwritable > 0) {
		*cause = xasprintf("writable root: %s: not allowed with the "
		    "read-only profile", opts->writable[0]);
		goto fail;
	}
	if (opts->profile == SANDBOX_WORKSPACE_WRITE)
		add_root(sb, xstrdup(sb->cwd));
	for (i = 0; i < opts->nwritable; i++) {
		if ((path = resolve_dir("writable root", opts->writable[i],
		    cause)) == NULL)
			goto fail;
		add_root(sb, path);
	}
	nprojects = sb->nroots;
	/* Without a private /tmp the shared one stays usable, as elsewhere. */
	if (opts->profile == SANDBOX_WORKSPACE_WRITE && !opts->private_tmp &&
	    (path = realpath("/tmp", NULL)) != NULL)
		add_root(sb, path);
	if (opts->protect_git)
		find_git_dirs(sb);
	/* The read-only profile's directory is a project root too. */
	if (nprojects == 0)
		expand_guards(sb, opts, (const char *const *)&sb->cwd, 1);
	else
		expand_guards(sb, opts, (const char *const *)sb->roots,
		    nprojects);
	if (placeholders)
		guard_placeholders_make(&sb->guards);

	sb->landlock_abi = sandbox_landlock_abi();
	if (sb->landlock_abi == 0 && !opts->allow_no_landlock) {
		*cause = xstrdup("landlock: not supported or disabled by this "
		    "kernel, so the command is not run; --sandbox none runs "
		    "it without any sandbox");
		goto fail;
	}
	sb->cap_last = sandbox_caps_last();
	sb->proxy_channel = -1;
	if (sandbox_opts_network_filtered(opts) &&
	    sandbox_net_prepare(sb, opts, cause) != 0)
		goto fail;
	if ((sb->seccomp = sandbox_seccomp_build(opts->network,
	    sb->hosts != NULL, sb->unix_relays, false, cause)) == NULL)
		goto fail;
	/* A filtered network has no fallback: it needs its namespace. */
	if (opts->allow_no_namespaces && sb->hosts == NULL &&
	    (sb->seccomp_no_ns = sandbox_seccomp_build(opts->network, false,
	    false, true, cause)) == NULL)
		goto fail;
	if (sandbox_exec_prepare(sb, cause) != 0)
		goto fail;
	/* Best effort: RLIMIT_NPROC binds non-root users in any case. */
	if (sb->opts.limits.processes != 0)
		sandbox_cgroup_create(sb, why, sizeof why);
	/* Best effort too, stated by --explain: memory where delegated. */
	if (sb->opts.limits.memory != 0)
		sandbox_memcg_create(sb, sb->memcg_why, sizeof sb->memcg_why);
	return sb;

fail:
	sandbox_free(sb);
	return NULL;
}

struct sandbox *
sandbox_new(const struct sandbox_opts *opts, const char *cwd, char **cause)
{
	return sandbox_make(opts, cwd, true, cause);
}

void
sandbox_free(struct sandbox *sb)
{
	int	i;

	if (sb == NULL)
		return;
	sandbox_cgroup_remove(sb);
	guard_placeholders_remove(&sb->guards);
	guard_set_free(&sb->guards);
	sandbox_net_free(sb);
	/* The filters are seccomp.c's, kept for the next sandbox. */
	sandbox_exec_free(sb);
	for (i = 0; i < sb->nroots; i++)
		free(sb->roots[i]);
	free(sb->roots);
	for (i = 0; i < sb->nreadonly; i++)
		free(sb->readonly[i]);
	free(sb->readonly);
	free(sb->cwd);
	free(sb);
}

void
sandbox_set_end_fd(struct sandbox *sb, int fd)
{
	sb->end_fd = fd;
}

void
sandbox_set_network_log(struct sandbox *sb, const char *path)
{
	if (sb->hosts == NULL || sb->net_log != NULL || path == NULL)
		return;
	sb->net_log = xstrdup(path);
}

enum sandbox_profile
sandbox_get_profile(const struct sandbox *sb)
{
	return sb->opts.profile;
}

/* Whether NAME=... from a parent environment may pass into the sandbox. */
static bool
env_is_allowed(const char *entry, bool full_access)
{
	static const char *const names[] = {
		"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG",
		"TZ", "TMPDIR", "COLORTERM"
	};
	size_t	i, len;

	if ((len = strcspn(entry, "=")) == 0 || entry[len] != '=')
		return false;
	/* The dynamic loader's variables never pass: they inject code. */
	if (strncmp(entry, "LD_", 3) == 0)
		return false;
	if (full_access)
		return true;
	if (strncmp(entry, "LC_", 3) == 0)
		return true;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i]) == len &&
		    strncmp(entry, names[i], len) == 0)
			return true;
	return false;
}

/* Whether extra sets the variable named by entry. */
static bool
env_is_overridden(const char *entry, char *const *extra)
{
	size_t	len = strcspn(entry, "=");

	for (; extra != NULL && *extra != NULL; extra++)
		if (strncmp(*extra, entry, len) == 0 && (*extra)[len] == '=')
			return true;
	return false;
}

char **
sandbox_env(const struct sandbox *sb, char *const *parent_env,
    char *const *extra)
{
	char	**env, **proxy;
	size_t	  n = 0, i;
	bool	  full = sb->opts.profile == SANDBOX_FULL_ACCESS;

	proxy = sandbox_net_env(sb);
	env = xcalloc(strv_len(parent_env) + strv_len(extra) +
	    strv_len(proxy) + 1, sizeof *env);
	for (; parent_env != NULL && *parent_env != NULL; parent_env++)
		if (env_is_allowed(*parent_env, full) &&
		    !env_is_overridden(*parent_env, extra) &&
		    !env_is_overridden(*parent_env, proxy))
			env[n++] = xstrdup(*parent_env);
	for (; extra != NULL && *extra != NULL; extra++)
		if (strchr(*extra, '=') != NULL &&
		    !env_is_overridden(*extra, proxy))
			env[n++] = xstrdup(*extra);
	for (i = 0; proxy != NULL && proxy[i] != NULL; i++)
		env[n++] = xstrdup(proxy[i]);
	env[n] = NULL;
	strv_free(proxy);
	return env;
}

/* How --explain shows each bound: its name, its unit, what 0 means. */
static const struct {
	enum sandbox_limit	 k;
	const char		*name;
	bool			 bytes;		/* shown in MiB */
	const char		*suffix;	/* after the value */
	const char		*unset;		/* when it is 0 */
} explain_rows[] = {
	{ SANDBOX_LIMIT_PROCESSES, "processes", false, "", "inherited" },
	{ SANDBOX_LIMIT_OPEN_FILES, "open files", false, "", "inherited" },
	{ SANDBOX_LIMIT_MEMORY, "memory", true,
	  " for the whole sandbox, no swap", "not bounded" },
	{ SANDBOX_LIMIT_FILE_SIZE, "file size", true, " per file",
	  "inherited" },
	{ SANDBOX_LIMIT_ADDRESS_SPACE, "address space", true, "",
	  "inherited" },
};

/* Where a bound in force came from, in words, after its value. */
static void
explain_origin(const struct sandbox_opts *opts, enum sandbox_limit k,
    enum sandbox_origin from, unsigned line, struct buf *out)
{
	const char	*file = opts->settings != NULL ? opts->settings :
	    "the settings file";
	uint64_t	 v;

	switch (from) {
	case SANDBOX_FROM_DEFAULT:
		if (sandbox_profile_default(opts->profile, k, &v))
			buf_printf(out, " (%s's default)",
			    sandbox_profile_name(opts->profile));
		else
			buf_printf(out, " (default)");
		break;
	case SANDBOX_FROM_SETTINGS:
		buf_printf(out, " ([sandbox], %s:%u)", file, line);
		break;
	case SANDBOX_FROM_PROFILE:
		buf_printf(out, " ([sandbox.%s], %s:%u)",
		    sandbox_profile_name(opts->profile), file, line);
		break;
	case SANDBOX_FROM_OPTION:
		buf_printf(out, " (command line)");
		break;
	}
}

/* Print the resource bounds in force for opts, each with its origin. */
static void
explain_limits(const struct sandbox_opts *opts, struct buf *out)
{
	struct sandbox_limits	 l;
	enum sandbox_origin	 from[SANDBOX_NLIMITS];
	unsigned		 line[SANDBOX_NLIMITS];
	unsigned long long	 v;
	size_t			 i;

	sandbox_opts_limits(opts, &l, from, line);
	buf_printf(out, "limits:\n");
	for (i = 0; i < sizeof explain_rows / sizeof explain_rows[0]; i++) {
		v = sandbox_limit_get(&l, explain_rows[i].k);
		buf_printf(out, "  %-15s %s", explain_rows[i].name,
		    v == 0 ? explain_rows[i].unset : "");
		if (v != 0 && explain_rows[i].bytes && v % (1ULL << 20) != 0)
			buf_printf(out, "%llu bytes%s", v,
			    explain_rows[i].suffix);
		else if (v != 0)
			buf_printf(out, "%llu%s%s", explain_rows[i].bytes ?
			    v >> 20 : v, explain_rows[i].bytes ? " MiB" : "",
			    explain_rows[i].suffix);
		explain_origin(opts, explain_rows[i].k, from[explain_rows[i].k],
		    line[explain_rows[i].k], out);
		buf_printf(out, "\n");
	}
	buf_printf(out, "  core dumps      none\n");
}

int
sandbox_explain(const struct sandbox_opts *opts, struct buf *out)
{
	struct sandbox	*sb;
	char		*cause = NULL, why[256];
	bool		 ns, ok = true;
	int		 i, abi;

	buf_printf(out, "profile: %s\n", sandbox_profile_name(opts->profile));
	/* The approval queue drops them, whatever the profile. */
	buf_printf(out, "an agent's secret variables: dropped from its "
	    "environment (doc/policy.md); passed anyway ([sandbox] pass_env):");
	for (i = 0; i < opts->npass_env; i++)
		buf_printf(out, " %s", opts->pass_env[i]);
	buf_printf(out, "%s\n", opts->npass_env == 0 ? " none" : "");
	if (opts->profile == SANDBOX_FULL_ACCESS) {
		buf_printf(out, "no sandbox: the command runs with ptyvisor's "
		    "own rights (only LD_* is dropped from its environment)\n");
		buf_printf(out, "exec checks: off (they live in the sandbox): "
		    "the programs it starts are neither seen nor judged\n");
		return 0;
	}
	if (sandbox_opts_network_filtered(opts))
		sandbox_net_explain(opts, sandbox_landlock_abi(), out);
	else if (opts->network)
		buf_printf(out, "network: allowed%s\n",
		    opts->nnet_allow + opts->nnet_deny > 0 ? " (every host: "
		    "the host lists have no effect with the network on)" : "");
	else
		buf_printf(out, "network: denied (AF_UNIX stream socketpairs "
		    "only)\n");
	sb = sandbox_make(opts, NULL, false, &cause);
	if (sb == NULL) {
		buf_printf(out, "error: %s\n", cause);
		free(cause);
		return -1;
	}
	buf_printf(out, "writable:%s\n", sb->nroots == 0 ? " nothing" : "");
	for (i = 0; i < sb->nroots; i++)
		buf_printf(out, "  %s\n", sb->roots[i]);
	for (i = 0; i < sb->nreadonly; i++)
		buf_printf(out, "  (read-only inside: %s)\n", sb->readonly[i]);
	buf_printf(out, "private /tmp and /dev/shm: %s\n",
	    opts->private_tmp ? "yes" : "no");
	explain_limits(opts, out);
	ns = sandbox_ns_available(opts->network, why, sizeof why);
	guard_explain(&sb->guards, ns, out);

	buf_printf(out, "layers:\n");
	buf_printf(out, "  namespaces      %s%s: %s [%s]\n",
	    sb->is_root ? "mount pid ipc uts" : "user mount pid ipc uts",
	    opts->network ? "" : " net", ns ? "available" : why,
	    opts->allow_no_namespaces ? "best-effort" : "required");
	if (!ns && (!opts->allow_no_namespaces ||
	    sandbox_opts_network_filtered(opts)))
		ok = false;
	if (!ns && sandbox_opts_network_filtered(opts))
		buf_printf(out, "    a host allow-list needs them: the "
		    "command will not run [required]\n");
	if (ns)
		buf_printf(out, "    terminals: a devpts of its own; of the "
		    "person's terminals only the session's is reachable\n");
	if (!ns)
		buf_printf(out, "    without them: no read-only remount (so "
		    "chmod, chown, xattr changes and times other than now "
		    "are refused everywhere, the roots included), no fresh "
		    "/proc, no devpts of its own, daemons may outlive the "
		    "command\n");
	buf_printf(out, "  capabilities    all dropped (bounding and "
	    "ambient too), no_new_privs [required]\n");
	abi = sb->landlock_abi;
	if (abi > 0)
		buf_printf(out, "  landlock        ABI %d [required]\n", abi);
	else
		buf_printf(out, "  landlock        unavailable [%s]\n",
		    opts->allow_no_landlock ? "best-effort: allowed off" :
		    "required");
	sandbox_landlock_explain(abi, opts->network ||
	    sandbox_opts_network_filtered(opts), out);
	buf_printf(out, "  seccomp         native ABI only, %s [required]\n",
	    opts->network ? "network allowed" :
	    sandbox_opts_network_filtered(opts) ? "IPv4 and IPv6 sockets "
	    "(the namespace holds only loopback and the proxy), UNIX "
	    "sockets only as socketpairs" :
	    "no socket but AF_UNIX stream/seqpacket, no "
	    "connect/bind/listen/accept");
	sandbox_exec_explain(sb, out);
	if (sb->opts.limits.processes == 0)
		buf_printf(out, "  process bound   none configured\n");
	else if (sb->cgroup != NULL && sb->cgroup_max <
	    sb->opts.limits.processes)
		buf_printf(out, "  pids cgroup     %s, pids.max %llu: the "
		    "bound of ptyvisor's own cgroup, which it is made "
		    "beside [best-effort]\n", sb->cgroup,
		    (unsigned long long)sb->cgroup_max);
	else if (sb->cgroup != NULL)
		buf_printf(out, "  pids cgroup     %s [best-effort]\n",
		    sb->cgroup);
	else if (sb->is_root)
		buf_printf(out, "  pids cgroup     unavailable: process count "
		    "NOT bounded (RLIMIT_NPROC does not bind root) "
		    "[best-effort]\n");
	else
		buf_printf(out, "  process bound   RLIMIT_NPROC [required]\n");
	if (sb->opts.limits.memory == 0)
		buf_printf(out, "  memory bound    none configured\n");
	else if (sb->memcg != NULL && sb->memcg_max <
	    sb->opts.limits.memory)
		buf_printf(out, "  memory cgroup   v%d %s, memory.max %llu: "
		    "the bound of ptyvisor's own cgroup, which it is made "
		    "beside [best-effort]\n", sb->memcg_version, sb->memcg,
		    (unsigned long long)sb->memcg_max);
	else if (sb->memcg != NULL)
		buf_printf(out, "  memory cgroup   v%d %s [best-effort]\n",
		    sb->memcg_version, sb->memcg);
	else
		buf_printf(out, "  memory cgroup   unavailable: memory NOT "
		    "bounded (%s) [best-effort]\n", sb->memcg_why);
	sandbox_free(sb);
	return ok ? 0 : -1;
}

char *
sandbox_guard_note(const struct sandbox_opts *opts)
{
	struct buf	 b = { 0 };
	char		 why[128], *s;
	int		 i;

	if (opts == NULL || opts->profile == SANDBOX_FULL_ACCESS)
		return NULL;
	if (opts->allow_no_namespaces &&
	    !sandbox_ns_available(opts->network, why, sizeof why))
		buf_printf(&b, "NOT IN FORCE (no namespaces: %s): ptyvisor's "
		    "and the agents' settings, git hooks and credentials are "
		    "within the command's reach", why);
	for (i = 0; i < opts->nexpose; i++)
		buf_printf(&b, "%s%s", i > 0 ? ", " : b.len > 0 ?
		    "; exposed by the settings: " : "exposed by the settings: ",
		    opts->expose[i]);
	if (b.len == 0)
		return NULL;
	s = xstrdup(buf_cstr(&b));
	buf_free(&b);
	return s;
}
