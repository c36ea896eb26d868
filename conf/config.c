/*
 * config.c - read the settings file (see config.h).
 *
 * libinih does the INI syntax; it is fed through our own line reader,
 * which counts lines (the handler gets no line number from this build of
 * the library), strips leading blanks (so an indented line is never taken
 * as the continuation of the previous value), refuses lines the library
 * would cut in two and sections we do not know (it calls no handler for a
 * section without keys), and stops at the first error.
 *
 * Invariants: every key is described once in config_keys[]; a setting is
 * "set" exactly when set_line[key] is non-zero (the line it came from), a
 * bound when its line in bounds[] of its section is; every string in a
 * struct config is owned by it.
 */
#include "conf/config-int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "net/hostlist.h"

/* What a key's value is and how it is checked. */
enum config_type {
	CONFIG_MODE,		/* enum policy_mode */
	CONFIG_PROFILE,		/* enum sandbox_profile */
	CONFIG_BOOL,		/* bool */
	CONFIG_COUNT,		/* a bound: any non-negative number */
	CONFIG_SIZE,		/* a bound: bytes with K/M/G/T */
	CONFIG_PREFIX,		/* char, 'a' to 'z' */
	CONFIG_LINES,		/* size_t, 1 to CONFIG_SCROLLBACK_MAX */
	CONFIG_CAP,		/* size_t, bytes with K/M, CONFIG_CAP_MIN..MAX */
	CONFIG_RECORD_SIZE,	/* uint64_t, bytes with K/M/G/T, a minimum */
	CONFIG_PROGRAM,		/* char *, a program name or path */
	CONFIG_PATH,		/* char *, absolute after "~/" */
	CONFIG_PATH_LIST,	/* writable: one more directory */
	CONFIG_HOST_LIST,	/* network_allow/deny: one more host list */
	CONFIG_GUARD_LIST,	/* protect/hide/expose: one more path */
	CONFIG_NAME_LIST,	/* pass_env: one more variable's name */
	CONFIG_LISTEN,		/* char *, ADDR:PORT (config_parse_listen) */
	CONFIG_HOSTNAME		/* char *, a host name as a browser sends it */
};

/*
 * One key: where it lives in the file and in struct config (a bound, of
 * type CONFIG_COUNT or CONFIG_SIZE, in bounds[] as its limit instead).
 */
struct config_key_def {
	enum config_key		 key;
	const char		*section;
	const char		*name;
	enum config_type	 type;
	size_t			 offset;
	enum sandbox_limit	 limit;
};

/* A row's last two: a field of struct config, a bound, or a list's. */
#define CONFIG_FIELD(f) offsetof(struct config, f), SANDBOX_NLIMITS
#define CONFIG_BOUND(k) 0, k
#define CONFIG_LIST 0, SANDBOX_NLIMITS

static const struct config_key_def config_keys[] = {
	{ KEY_MODE, "approval", "mode", CONFIG_MODE, CONFIG_FIELD(mode) },
	{ KEY_NOTIFY, "approval", "notify", CONFIG_PROGRAM,
	  CONFIG_FIELD(notify) },
	{ KEY_RULES, "approval", "rules", CONFIG_PATH, CONFIG_FIELD(rules) },
	{ KEY_PROFILE, "sandbox", "profile", CONFIG_PROFILE,
	  CONFIG_FIELD(profile) },
	{ KEY_NETWORK, "sandbox", "network", CONFIG_BOOL,
	  CONFIG_FIELD(network) },
	{ KEY_WRITABLE, "sandbox", "writable", CONFIG_PATH_LIST, CONFIG_LIST },
	{ KEY_NETWORK_ALLOW, "sandbox", "network_allow", CONFIG_HOST_LIST,
	  CONFIG_LIST },
	{ KEY_NETWORK_DENY, "sandbox", "network_deny", CONFIG_HOST_LIST,
	  CONFIG_LIST },
	{ KEY_PROTECT_GIT, "sandbox", "protect_git", CONFIG_BOOL,
	  CONFIG_FIELD(protect_git) },
	{ KEY_PRIVATE_TMP, "sandbox", "private_tmp", CONFIG_BOOL,
	  CONFIG_FIELD(private_tmp) },
	{ KEY_ALLOW_NO_NAMESPACES, "sandbox", "allow_no_namespaces",
	  CONFIG_BOOL, CONFIG_FIELD(allow_no_namespaces) },
	{ KEY_MAX_PROCS, "sandbox", "max_procs", CONFIG_COUNT,
	  CONFIG_BOUND(SANDBOX_LIMIT_PROCESSES) },
	{ KEY_MAX_FILES, "sandbox", "max_files", CONFIG_COUNT,
	  CONFIG_BOUND(SANDBOX_LIMIT_OPEN_FILES) },
	{ KEY_MAX_MEMORY, "sandbox", "max_memory", CONFIG_SIZE,
	  CONFIG_BOUND(SANDBOX_LIMIT_ADDRESS_SPACE) },
	{ KEY_MAX_SESSION_MEMORY, "sandbox", "max_session_memory",
	  CONFIG_SIZE, CONFIG_BOUND(SANDBOX_LIMIT_MEMORY) },
	{ KEY_MAX_FILE_SIZE, "sandbox", "max_file_size", CONFIG_SIZE,
	  CONFIG_BOUND(SANDBOX_LIMIT_FILE_SIZE) },
	{ KEY_PASS_ENV, "sandbox", "pass_env", CONFIG_NAME_LIST, CONFIG_LIST },
	{ KEY_PREFIX, "tui", "prefix", CONFIG_PREFIX, CONFIG_FIELD(prefix) },
	{ KEY_SCROLLBACK, "tui", "scrollback", CONFIG_LINES,
	  CONFIG_FIELD(scrollback) },
	{ KEY_MOUSE, "tui", "mouse", CONFIG_BOOL, CONFIG_FIELD(mouse) },
	{ KEY_MCP_MAX_BYTES, "mcp", "max_bytes", CONFIG_CAP,
	  CONFIG_FIELD(mcp_max_bytes) },
	{ KEY_STATE_DIR, "paths", "state_dir", CONFIG_PATH,
	  CONFIG_FIELD(state_dir) },
	{ KEY_SOCKET, "paths", "socket", CONFIG_PATH, CONFIG_FIELD(socket) },
	{ KEY_PROTECT, "sandbox", "protect", CONFIG_GUARD_LIST, CONFIG_LIST },
	{ KEY_HIDE, "sandbox", "hide", CONFIG_GUARD_LIST, CONFIG_LIST },
	{ KEY_EXPOSE, "sandbox", "expose", CONFIG_GUARD_LIST, CONFIG_LIST },
	{ KEY_EXEC_STRICT, "exec", "strict", CONFIG_BOOL,
	  CONFIG_FIELD(exec_strict) },
	{ KEY_EXEC_JUDGE_OWN, "exec", "judge_own", CONFIG_BOOL,
	  CONFIG_FIELD(exec_judge_own) },
	{ KEY_MAX_RECORDING, "record", "max_recording", CONFIG_RECORD_SIZE,
	  CONFIG_FIELD(max_recording) },
	{ KEY_STATE_BUDGET, "record", "state_budget", CONFIG_RECORD_SIZE,
	  CONFIG_FIELD(state_budget) },
	{ KEY_WEB_LISTEN, "web", "listen", CONFIG_LISTEN,
	  CONFIG_FIELD(web_listen) },
	{ KEY_WEB_CERT, "web", "cert", CONFIG_PATH, CONFIG_FIELD(web_cert) },
	{ KEY_WEB_KEY, "web", "key", CONFIG_PATH, CONFIG_FIELD(web_key) },
	{ KEY_WEB_HOST, "web", "host", CONFIG_HOSTNAME,
	  CONFIG_FIELD(web_host) },
};
#define CONFIG_NDEFS (sizeof config_keys / sizeof config_keys[0])

/* Our sections; a bounded profile's own holds only the bounds' keys. */
static const char *const config_sections[] = {
	"approval", "sandbox", "sandbox.read-only", "sandbox.workspace-write",
	"tui", "mcp", "paths", "exec", "record", "web"
};
#define CONFIG_NSECTIONS \
	(sizeof config_sections / sizeof config_sections[0])

/* The state of one config_load(): the reader's stream and handler's user. */
struct config_parse {
	struct config	*cfg;
	const char	*path;
	FILE		*f;
	char		*line;		/* getline buffer */
	size_t		 cap;
	unsigned	 lineno;	/* of the line last handed to libinih */
	int		 read_errno;	/* a read failed: its errno */
	int		 bounds;	/* the key's bounds[] (CONFIG_COUNT,
					   CONFIG_SIZE) */
	char		*err;		/* first error found by us, with line */
	unsigned	 err_line;
};

struct config *
config_new(void)
{
	return xcalloc(1, sizeof(struct config));
}

void
config_free(struct config *cfg)
{
	int	i, j;

	if (cfg == NULL)
		return;
	free(cfg->path);
	free(cfg->notify);
	free(cfg->rules);
	free(cfg->web_listen);
	free(cfg->web_cert);
	free(cfg->web_key);
	free(cfg->web_host);
	for (i = 0; i < cfg->nwritable; i++)
		free(cfg->writable[i]);
	for (i = 0; i < cfg->nnet_allow; i++)
		free(cfg->net_allow[i]);
	for (i = 0; i < cfg->nnet_deny; i++)
		free(cfg->net_deny[i]);
	for (i = 0; i < CONFIG_NGUARD; i++)
		for (j = 0; j < cfg->nguard[i]; j++)
			free(cfg->guard[i][j]);
	for (i = 0; i < cfg->npass_env; i++)
		free(cfg->pass_env[i]);
	free(cfg->state_dir);
	free(cfg->socket);
	free(cfg);
}

/* Record the first error at the current line: "FILE:LINE: message". */
static void __attribute__((format(printf, 2, 3)))
config_error(struct config_parse *p, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	if (p->err != NULL)
		return;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	p->err = xasprintf("%s:%u: %s", p->path, p->lineno, msg);
	p->err_line = p->lineno;
	free(msg);
}

/* Whether name is one of our sections. */
static int
config_is_section(const char *name, size_t len)
{
	size_t	i;

	for (i = 0; i < CONFIG_NSECTIONS; i++)
		if (strlen(config_sections[i]) == len &&
		    strncmp(config_sections[i], name, len) == 0)
			return 1;
	return 0;
}

/* Check a "[section]" line; 0 when fine or left to libinih, -1 on error. */
static int
config_check_section(struct config_parse *p, const char *start)
{
	const char	*end = strchr(start, ']'), *q;

	if (end == NULL)
		return 0;	/* libinih reports the missing ']' */
	for (q = end + 1; *q == ' ' || *q == '\t' || *q == '\r'; q++)
		/* nothing */;
	if (*q != '\0' && *q != '\n' && *q != ';' && *q != '#') {
		config_error(p, "text after the section name: '%.*s'",
		    (int)strcspn(q, "\r\n"), q);
		return -1;
	}
	if (!config_is_section(start + 1, (size_t)(end - start - 1))) {
		config_error(p, "unknown section [%.*s] (known: [approval], "
		    "[sandbox], [sandbox.read-only], [sandbox.workspace-write], "
		    "[tui], [mcp], [paths], [exec], [record], [web])",
		    (int)(end - start - 1), start + 1);
		return -1;
	}
	return 0;
}

/*
 * The libinih reader: hand it the next line without its leading blanks,
 * or NULL to stop (end of file, a read error, or an error found already).
 * num is the size of libinih's line buffer; a longer line is an error
 * rather than the two lines libinih would make of it.
 */
static char *
config_read_line(char *str, int num, void *stream)
{
	struct config_parse	*p = stream;
	ssize_t			 n;
	char			*start;
	size_t			 len;

	if (p->err != NULL)
		return NULL;
	errno = 0;
	n = getline(&p->line, &p->cap, p->f);
	if (n < 0) {
		if (ferror(p->f))
			p->read_errno = errno != 0 ? errno : EIO;
		return NULL;
	}
	p->lineno++;
	if (memchr(p->line, '\0', (size_t)n) != NULL) {
		config_error(p, "a NUL byte in the line");
		return NULL;
	}
	for (start = p->line; *start == ' ' || *start == '\t'; start++)
		/* nothing */;
	len = (size_t)n - (size_t)(start - p->line);
	/* Why num - 1: libinih needs the terminating NUL in its buffer. */
	if (num <= 0 || len > (size_t)num - 1) {
		config_error(p, "line longer than %d characters",
		    num > 2 ? num - 2 : 0);
		return NULL;
	}
	if (*start == '[' && config_check_section(p, start) != 0)
		return NULL;
	memcpy(str, start, len + 1);
	return str;
}

/* Expand a leading "~/" to the home directory; NULL with an error. */
static char *
config_expand(struct config_parse *p, const char *name, const char *value)
{
	const char	*home;

	if (strncmp(value, "~/", 2) != 0)
		return xstrdup(value);
	home = getenv("HOME");
	if (home == NULL || *home != '/') {
		config_error(p, "%s: '%s' starts with ~/ but HOME is not an "
		    "absolute path", name, value);
		return NULL;
	}
	return xasprintf("%s%s%s", home,
	    home[strlen(home) - 1] == '/' ? "" : "/", value + 2);
}

/* A path value: absolute after "~/" expansion; NULL with an error. */
static char *
config_path_value(struct config_parse *p, const char *name,
    const char *value)
{
	char	*path;

	if ((path = config_expand(p, name, value)) == NULL)
		return NULL;
	if (*path != '/') {
		config_error(p, "%s: '%s' is not an absolute path (nor starts "
		    "with ~/)", name, value);
		free(path);
		return NULL;
	}
	return path;
}

/* yes/no and friends, any case; -1 when it is none of them. */
static int
config_bool(const char *value)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t			 i;

	for (i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (strcasecmp(value, yes[i]) == 0)
			return 1;
		if (strcasecmp(value, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* Whether value is a variable's name: a letter or _, then those or digits. */
static bool
config_is_name(const char *value)
{
	static const char	word[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz_0123456789";

	return *value != '\0' && !isdigit((unsigned char)*value) &&
	    value[strspn(value, word)] == '\0';
}

/* A non-negative decimal number; -1 when it is not one or too large. */
static int
config_number(const char *value, uint64_t *out)
{
	unsigned long long	 v;
	char			*end;

	if (!isdigit((unsigned char)*value))
		return -1;
	errno = 0;
	v = strtoull(value, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

/* Parse value as the key def wants and store it in cfg; -1 on error. */
static int
config_set(struct config_parse *p, const struct config_key_def *d,
    const char *value)
{
	struct config	*cfg = p->cfg;
	char		*field = (char *)cfg + d->offset, *s, *cause = NULL;
	uint64_t	 n;
	int		 b;

	switch (d->type) {
	case CONFIG_MODE:
		if (policy_mode_parse(value, (enum policy_mode *)field) != 0) {
			config_error(p, "%s: '%s' is not untrusted, on-request "
			    "or never", d->name, value);
			return -1;
		}
		break;
	case CONFIG_PROFILE:
		if (sandbox_profile_parse(value, (enum sandbox_profile *)field,
		    &cause) != 0) {
			config_error(p, "%s: %s", d->name, cause);
			free(cause);
			return -1;
		}
		break;
	case CONFIG_BOOL:
		if ((b = config_bool(value)) < 0) {
			config_error(p, "%s: '%s' is not yes or no (true/false, "
			    "on/off, 1/0)", d->name, value);
			return -1;
		}
		*(bool *)field = b;
		break;
	case CONFIG_COUNT:
		if (config_number(value, &n) != 0) {
			config_error(p, "%s: '%s' is not a number", d->name,
			    value);
			return -1;
		}
		sandbox_limit_set(&cfg->bounds[p->bounds].limits, d->limit, n);
		break;
	case CONFIG_SIZE:
		if (sandbox_parse_size(value, &n, &cause) != 0) {
			config_error(p, "%s: %s", d->name, cause);
			free(cause);
			return -1;
		}
		sandbox_limit_set(&cfg->bounds[p->bounds].limits, d->limit, n);
		break;
	case CONFIG_PREFIX:
		/* C-a .. C-z, as tmux names them (and as --prefix takes). */
		if (strlen(value) != 3 || (value[0] != 'C' &&
		    value[0] != 'c') || value[1] != '-' || value[2] < 'a' ||
		    value[2] > 'z') {
			config_error(p, "%s: '%s' is not C-a to C-z", d->name,
			    value);
			return -1;
		}
		*field = value[2];
		break;
	case CONFIG_LINES:
		if (config_number(value, &n) != 0 || n < 1 ||
		    n > CONFIG_SCROLLBACK_MAX) {
			config_error(p, "%s: '%s' is not a number from 1 to %d",
			    d->name, value, CONFIG_SCROLLBACK_MAX);
			return -1;
		}
		*(size_t *)field = (size_t)n;
		break;
	case CONFIG_CAP:
		if (sandbox_parse_size(value, &n, &cause) != 0 ||
		    n < CONFIG_CAP_MIN || n > CONFIG_CAP_MAX) {
			config_error(p, "%s: '%s' is not a size from %d to %d "
			    "bytes (1K to 1M)", d->name, value, CONFIG_CAP_MIN,
			    CONFIG_CAP_MAX);
			free(cause);
			return -1;
		}
		*(size_t *)field = (size_t)n;
		break;
	case CONFIG_RECORD_SIZE: {
		uint64_t min = d->key == KEY_MAX_RECORDING ?
		    CONFIG_RECORDING_MIN : CONFIG_BUDGET_MIN;

		if (sandbox_parse_size(value, &n, &cause) != 0 || n < min) {
			config_error(p, "%s: '%s' is not a size of at least "
			    "%lluK", d->name, value,
			    (unsigned long long)(min / 1024));
			free(cause);
			return -1;
		}
		*(uint64_t *)field = n;
		break;
	}
	case CONFIG_PROGRAM:
		if ((s = config_expand(p, d->name, value)) == NULL)
			return -1;
		*(char **)field = s;
		break;
	case CONFIG_PATH:
		if ((s = config_path_value(p, d->name, value)) == NULL)
			return -1;
		*(char **)field = s;
		break;
	case CONFIG_LISTEN:
		if (config_parse_listen(value, NULL, NULL, &cause) != 0) {
			config_error(p, "%s: %s", d->name, cause);
			free(cause);
			return -1;
		}
		*(char **)field = xstrdup(value);
		break;
	case CONFIG_HOSTNAME:
		/* What a Host header may name: letters, digits, '.', '-'. */
		if (*value == '\0' || strlen(value) > 253 ||
		    strspn(value, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") != strlen(value)) {
			config_error(p, "%s: '%s' is not a host name (letters, "
			    "digits, '.', '-')", d->name, value);
			return -1;
		}
		*(char **)field = xstrdup(value);
		break;
	case CONFIG_PATH_LIST:
		if (cfg->nwritable == SANDBOX_MAX_ROOTS) {
			config_error(p, "%s: more than %d directories",
			    d->name, SANDBOX_MAX_ROOTS);
			return -1;
		}
		if ((s = config_path_value(p, d->name, value)) == NULL)
			return -1;
		cfg->writable[cfg->nwritable++] = s;
		break;
	case CONFIG_NAME_LIST:
		if (cfg->npass_env == SANDBOX_MAX_PASS_ENV ||
		    !config_is_name(value)) {
			config_error(p, "%s: %s", d->name, cfg->npass_env ==
			    SANDBOX_MAX_PASS_ENV ? "too many lines" :
			    "not one variable's name");
			return -1;
		}
		cfg->pass_env[cfg->npass_env++] = xstrdup(value);
		break;
	case CONFIG_HOST_LIST: {
		char	**v = d->key == KEY_NETWORK_DENY ? cfg->net_deny :
		    cfg->net_allow;
		int	 *nv = d->key == KEY_NETWORK_DENY ? &cfg->nnet_deny :
		    &cfg->nnet_allow;

		if (*nv == SANDBOX_MAX_NET_LISTS) {
			config_error(p, "%s: more than %d lines", d->name,
			    SANDBOX_MAX_NET_LISTS);
			return -1;
		}
		if (hostlist_check(value, &cause) != 0) {
			config_error(p, "%s: %s", d->name, cause);
			free(cause);
			return -1;
		}
		v[(*nv)++] = xstrdup(value);
		break;
	}
	case CONFIG_GUARD_LIST: {
		int	k = d->key - KEY_PROTECT;	/* enum config_guard */

		if (cfg->nguard[k] == GUARD_MAX_EXTRA) {
			config_error(p, "%s: more than %d paths", d->name,
			    GUARD_MAX_EXTRA);
			return -1;
		}
		if (strstr(value, "..") != NULL || (value[0] == '~' &&
		    value[1] != '/')) {
			config_error(p, "%s: '%s' is not a path as the list "
			    "writes them (/abs, ~/in-home, $VAR, or in-project, "
			    "without '..')", d->name, value);
			return -1;
		}
		cfg->guard[k][cfg->nguard[k]++] = xstrdup(value);
		break;
	}
	}
	return 0;
}

/* Whether d is a bound's key (in [sandbox] and each profile's section). */
static bool
config_is_bound(const struct config_key_def *d)
{
	return d->type == CONFIG_COUNT || d->type == CONFIG_SIZE;
}

/*
 * The bounds[] a section's bounds go to: 0 for [sandbox], 1 + the profile
 * for [sandbox.PROFILE]; -1 for the other sections.
 */
static int
config_bounds_index(const char *section)
{
	int	i;

	if (strcmp(section, "sandbox") == 0)
		return 0;
	if (strncmp(section, "sandbox.", 8) != 0)
		return -1;
	for (i = 0; i < SANDBOX_NBOUNDED; i++)
		if (strcmp(section + 8,
		    sandbox_profile_name((enum sandbox_profile)i)) == 0)
			return 1 + i;
	return -1;
}

/* Whether key d may be given in section. */
static bool
config_key_in(const struct config_key_def *d, const char *section)
{
	if (config_bounds_index(section) > 0)
		return config_is_bound(d);
	return strcmp(d->section, section) == 0;
}

/* The line that set d already (in p's section for a bound), or 0. */
static unsigned
config_set_before(const struct config_parse *p,
    const struct config_key_def *d)
{
	if (config_is_bound(d))
		return p->cfg->bounds[p->bounds].line[d->limit];
	if (d->type == CONFIG_PATH_LIST || d->type == CONFIG_HOST_LIST ||
	    d->type == CONFIG_GUARD_LIST ||
	    d->type == CONFIG_NAME_LIST)
		return 0;
	return p->cfg->set_line[d->key];
}

/* The libinih handler: one "name = value" of a section; 0 on error. */
static int
config_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct config_parse		*p = user;
	const struct config_key_def	*d = NULL;
	struct buf			 known;
	size_t				 i;
	unsigned			 before;

	if (p->err != NULL)
		return 0;
	if (*name == '\0') {
		config_error(p, "no key before '='");
		return 0;
	}
	if (*section == '\0') {
		config_error(p, "'%s' before any [section]", name);
		return 0;
	}
	for (i = 0; i < CONFIG_NDEFS; i++) {
		if (config_key_in(&config_keys[i], section) &&
		    strcmp(config_keys[i].name, name) == 0) {
			d = &config_keys[i];
			break;
		}
	}
	if (d == NULL) {
		memset(&known, 0, sizeof known);
		for (i = 0; i < CONFIG_NDEFS; i++) {
			if (!config_key_in(&config_keys[i], section))
				continue;
			buf_printf(&known, "%s%s", known.len == 0 ? "" : ", ",
			    config_keys[i].name);
		}
		config_error(p, "unknown key '%s' in [%s] (known: %s)", name,
		    section, buf_cstr(&known));
		buf_free(&known);
		return 0;
	}
	if (*value == '\0') {
		config_error(p, "%s: no value", name);
		return 0;
	}
	p->bounds = config_bounds_index(section);
	if ((before = config_set_before(p, d)) != 0) {
		config_error(p, "%s: set twice (first on line %u)", name,
		    before);
		return 0;
	}
	if (config_set(p, d, value) != 0)
		return 0;
	if (config_is_bound(d))
		p->cfg->bounds[p->bounds].line[d->limit] = p->lineno;
	else if (p->cfg->set_line[d->key] == 0)
		p->cfg->set_line[d->key] = p->lineno;
	return 1;
}

int
config_load(struct config *cfg, const char *path, bool missing_ok,
    char **cause)
{
	struct config_parse	 p;
	struct stat		 st;
	int			 fd, r, rc = -1;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0) {
		if (errno == ENOENT && missing_ok)
			return 0;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*cause = xasprintf("%s: %s", path, S_ISDIR(st.st_mode) ?
		    strerror(EISDIR) : "not a regular file");
		close(fd);
		return -1;
	}
	memset(&p, 0, sizeof p);
	p.cfg = cfg;
	p.path = path;
	if ((p.f = fdopen(fd, "r")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	free(cfg->path);
	cfg->path = xstrdup(path);

	r = ini_parse_stream(config_read_line, &p, config_handler, &p);
	if (p.read_errno != 0)
		*cause = xasprintf("%s: %s", path, strerror(p.read_errno));
	else if (p.err != NULL && (r <= 0 || (unsigned)r >= p.err_line)) {
		*cause = p.err;
		p.err = NULL;
	} else if (r > 0)
		*cause = xasprintf("%s:%d: expected [section] or key = value",
		    path, r);
	else if (r < 0)
		*cause = xasprintf("%s: cannot parse (%d)", path, r);
	else
		rc = 0;
	free(p.err);
	free(p.line);
	fclose(p.f);
	return rc;
}
