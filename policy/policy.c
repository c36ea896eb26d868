/*
 * policy.c - rules, approval modes and the known read-only list (see
 * policy.h).
 *
 * Invariants: rules are only ever appended, each in its own allocation, so
 * the strings a verdict points at stay valid until policy_free(); a file
 * that fails to parse adds no rule at all; judging never modifies the
 * policy.  A verdict is computed twice over as it goes: "full" (what
 * decides) and "ruled" (only what rules said), so a rule matching an outer
 * shell argv can stand in for the mode fallbacks of the commands inside it
 * without hiding the rules that match those commands.
 */
#include "policy/policy.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/shsplit.h"
#include "base/util.h"

/* Shell strings inside shell strings deeper than this are asked about. */
#define POLICY_MAX_DEPTH	8
/* A rules file is a few hundred lines; this only stops a runaway file. */
#define POLICY_MAX_FILE		(4 * 1024 * 1024)

struct policy_rule {
	enum policy_decision	 action;
	char			**pats;		/* fnmatch patterns */
	size_t			 npats;
	int			 rest;		/* ends with ** */
	char			*text;		/* as written, trimmed */
	char			*where;		/* "file:line" or "remembered" */
	char			*why;		/* "rule '...' (where)" */
	int			 remembered;
	int			 saved;
};

struct policy {
	enum policy_mode	  mode;
	struct policy_rule	**rules;
	size_t			  nrules;
};

/* A verdict while judging; rule is set when source is POLICY_BY_RULE. */
struct policy_v {
	int				 set;
	enum policy_decision		 d;
	enum policy_source		 src;
	const char			*why;
	const struct policy_rule	*rule;
};

/* Both views of a verdict (see the top of the file). */
struct policy_judge {
	struct policy_v	full;
	struct policy_v	ruled;
};

static void	policy_judge_argv(const struct policy *, char *const *, int,
		    struct policy_judge *);

struct policy *
policy_new(enum policy_mode mode)
{
	struct policy	*p;

	p = xcalloc(1, sizeof *p);
	p->mode = mode;
	return p;
}

/* Free one rule. */
static void
policy_rule_free(struct policy_rule *r)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < r->npats; i++)
		free(r->pats[i]);
	free(r->pats);
	free(r->text);
	free(r->where);
	free(r->why);
	free(r);
}

void
policy_free(struct policy *p)
{
	size_t	i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nrules; i++)
		policy_rule_free(p->rules[i]);
	free(p->rules);
	free(p);
}

enum policy_mode
policy_mode(const struct policy *p)
{
	return p->mode;
}

void
policy_set_mode(struct policy *p, enum policy_mode mode)
{
	p->mode = mode;
}

int
policy_mode_parse(const char *s, enum policy_mode *mode)
{
	if (strcmp(s, "untrusted") == 0)
		*mode = POLICY_UNTRUSTED;
	else if (strcmp(s, "on-request") == 0)
		*mode = POLICY_ON_REQUEST;
	else if (strcmp(s, "never") == 0)
		*mode = POLICY_NEVER;
	else
		return -1;
	return 0;
}

const char *
policy_mode_name(enum policy_mode mode)
{
	switch (mode) {
	case POLICY_UNTRUSTED:
		return "untrusted";
	case POLICY_ON_REQUEST:
		return "on-request";
	case POLICY_NEVER:
		return "never";
	}
	return "unknown";
}

const char *
policy_decision_name(enum policy_decision d)
{
	switch (d) {
	case POLICY_ALLOW:
		return "allow";
	case POLICY_ASK:
		return "ask";
	case POLICY_DENY:
		return "deny";
	}
	return "unknown";
}

/* Trim spaces, tabs and a trailing CR from both ends of s (in place). */
static char *
policy_trim(char *s)
{
	size_t	n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/*
 * Parse one rules line.  Returns 1 and *out for a rule, 0 for a blank or
 * comment line, -1 with *err (allocated) for a bad line.
 */
static int
policy_parse_line(const char *line, const char *where,
    struct policy_rule **out, char **err)
{
	struct shsplit		*sp;
	struct shsplit_cmd	*cmd;
	struct policy_rule	*r;
	char			*copy;
	const char		*a;
	size_t			 i;

	*out = NULL;
	sp = shsplit_parse(line, SHSPLIT_RULE);
	if (sp->error != NULL) {
		*err = xstrdup(sp->error);
		shsplit_free(sp);
		return -1;
	}
	if (sp->ncmds == 0 || sp->cmds[0].nwords == 0) {
		shsplit_free(sp);
		return 0;
	}
	cmd = &sp->cmds[0];
	r = xcalloc(1, sizeof *r);
	a = cmd->words[0].text;
	if (strcmp(a, "allow") == 0)
		r->action = POLICY_ALLOW;
	else if (strcmp(a, "ask") == 0)
		r->action = POLICY_ASK;
	else if (strcmp(a, "deny") == 0)
		r->action = POLICY_DENY;
	else {
		*err = xasprintf("unknown action '%s' (expected allow, deny or "
		    "ask)", a);
		goto fail;
	}
	if (cmd->nwords < 2) {
		*err = xasprintf("'%s' without a pattern", a);
		goto fail;
	}
	r->pats = xcalloc(cmd->nwords, sizeof *r->pats);
	for (i = 1; i < cmd->nwords; i++) {
		if (shsplit_word_is(&cmd->words[i], "**")) {
			if (i != cmd->nwords - 1) {
				*err = xstrdup("'**' must be the last word");
				goto fail;
			}
			r->rest = 1;
			break;
		}
		r->pats[r->npats++] = shsplit_pattern(&cmd->words[i]);
	}
	copy = xstrdup(line);
	r->text = xstrdup(policy_trim(copy));
	free(copy);
	r->where = xstrdup(where);
	r->why = xasprintf("rule '%s' (%s)", r->text, r->where);
	shsplit_free(sp);
	*out = r;
	return 1;

fail:
	policy_rule_free(r);
	shsplit_free(sp);
	return -1;
}

/* Append a rule to the policy. */
static void
policy_add(struct policy *p, struct policy_rule *r)
{
	p->rules = xreallocarray(p->rules, p->nrules + 1, sizeof *p->rules);
	p->rules[p->nrules++] = r;
}

/* Parse len bytes of rules text; all or nothing. */
static int
policy_load_text(struct policy *p, const char *text, size_t len,
    const char *name, char **cause)
{
	struct policy_rule	**new = NULL, *r;
	size_t			  nnew = 0, start, end, i;
	unsigned int		  lineno = 0;
	char			 *line, *where, *err;
	int			  n;

	for (start = 0; start < len; start = end + 1) {
		lineno++;
		for (end = start; end < len && text[end] != '\n'; end++)
			;
		line = xstrndup(text + start, end - start);
		where = xasprintf("%s:%u", name, lineno);
		if (strlen(line) != end - start) {
			err = xstrdup("NUL byte in line");
			n = -1;
		} else
			n = policy_parse_line(line, where, &r, &err);
		free(line);
		if (n < 0) {
			*cause = xasprintf("%s: %s", where, err);
			free(err);
			free(where);
			for (i = 0; i < nnew; i++)
				policy_rule_free(new[i]);
			free(new);
			return -1;
		}
		free(where);
		if (n > 0) {
			new = xreallocarray(new, nnew + 1, sizeof *new);
			new[nnew++] = r;
		}
	}
	for (i = 0; i < nnew; i++)
		policy_add(p, new[i]);
	free(new);
	return 0;
}

int
policy_load_string(struct policy *p, const char *text, const char *name,
    char **cause)
{
	return policy_load_text(p, text, strlen(text), name, cause);
}

int
policy_load_file(struct policy *p, const char *path, char **cause)
{
	struct buf	b;
	char		chunk[8192];
	ssize_t		n;
	int		fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1) {
		if (errno == ENOENT)
			return 0;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	memset(&b, 0, sizeof b);
	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		if (b.len + (size_t)n > POLICY_MAX_FILE) {
			*cause = xasprintf("%s: larger than %d bytes", path,
			    POLICY_MAX_FILE);
			goto fail;
		}
		buf_add(&b, chunk, (size_t)n);
	}
	close(fd);
	r = policy_load_text(p, b.data != NULL ? b.data : "", b.len, path,
	    cause);
	buf_free(&b);
	return r;

fail:
	close(fd);
	buf_free(&b);
	return -1;
}

/* Does rule r match argv (argc words)? */
static int
policy_rule_matches(const struct policy_rule *r, char *const *argv,
    size_t argc)
{
	size_t	i;

	if (argc < r->npats || (!r->rest && argc != r->npats))
		return 0;
	for (i = 0; i < r->npats; i++) {
		if (fnmatch(r->pats[i], argv[i], 0) != 0)
			return 0;
	}
	return 1;
}

/* Keep the stronger of two verdicts in *a; the first one wins a tie. */
static void
policy_v_max(struct policy_v *a, const struct policy_v *b)
{
	if (!b->set)
		return;
	if (!a->set || b->d > a->d)
		*a = *b;
}

/* Set *v to a verdict. */
static void
policy_v_set(struct policy_v *v, enum policy_decision d,
    enum policy_source src, const char *why)
{
	v->set = 1;
	v->d = d;
	v->src = src;
	v->why = why;
	v->rule = NULL;
}

/*
 * Raise a verdict to ask because of a shell construct, unless it is a deny
 * already or the mode never asks.
 */
static void
policy_raise(const struct policy *p, struct policy_v *v, const char *why)
{
	if (p->mode == POLICY_NEVER)
		return;
	/* The shell's reason says more than the mode's: let it show. */
	if (!v->set || v->d < POLICY_ASK ||
	    (v->d == POLICY_ASK && v->src == POLICY_BY_MODE))
		policy_v_set(v, POLICY_ASK, POLICY_BY_SHELL, why);
}

/* The strongest verdict of the rules matching argv (unset when none). */
static struct policy_v
policy_match_rules(const struct policy *p, char *const *argv)
{
	struct policy_v	 best, v;
	size_t		 i, argc = strv_len(argv);

	memset(&best, 0, sizeof best);
	for (i = 0; i < p->nrules; i++) {
		if (!policy_rule_matches(p->rules[i], argv, argc))
			continue;
		policy_v_set(&v, p->rules[i]->action, POLICY_BY_RULE,
		    p->rules[i]->why);
		v.rule = p->rules[i];
		policy_v_max(&best, &v);
	}
	return best;
}

/*
 * The command name of argv0 when it is a bare name or lives in a system
 * bin directory; NULL for anything else (./ls is not ls).
 */
static const char *
policy_trusted_name(const char *argv0)
{
	static const char	*dirs[] = { "/bin/", "/usr/bin/",
				    "/usr/local/bin/", NULL };
	const char		**d;
	size_t			  n;

	if (strchr(argv0, '/') == NULL)
		return argv0;
	for (d = dirs; *d != NULL; d++) {
		n = strlen(*d);
		if (strncmp(argv0, *d, n) == 0 && strchr(argv0 + n, '/') == NULL)
			return argv0 + n;
	}
	return NULL;
}

/* Is s in the NULL-terminated list? */
static int
policy_in(const char *s, const char *const *list)
{
	for (; *list != NULL; list++) {
		if (strcmp(s, *list) == 0)
			return 1;
	}
	return 0;
}

/* Does s start with prefix? */
static int
policy_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Is a a cluster of short options (-xyz) holding one of the letters? */
static int
policy_short_has(const char *a, const char *letters)
{
	if (a[0] != '-' || a[1] == '-' || a[1] == '\0')
		return 0;
	return strpbrk(a + 1, letters) != NULL;
}

/* Skip a sed regex or replacement ending at delim; returns the index after. */
static size_t
policy_sed_part(const char *s, size_t i, char delim, int *bad)
{
	for (; s[i] != '\0' && s[i] != delim; i++) {
		if (s[i] == '\\') {
			if (s[i + 1] == '\0')
				break;
			i++;
		} else if (s[i] == '[' && delim != '[') {
			/* Brackets change where the delimiter counts: give up. */
			*bad = 1;
		}
	}
	if (s[i] != delim)
		*bad = 1;
	return s[i] != '\0' ? i + 1 : i;
}

/* Skip one sed address (number, $, /re/, \cREc, first~step). */
static size_t
policy_sed_addr(const char *s, size_t i, int *bad)
{
	if (s[i] == '$')
		return i + 1;
	if (s[i] >= '0' && s[i] <= '9') {
		while ((s[i] >= '0' && s[i] <= '9') || s[i] == '~')
			i++;
		return i;
	}
	if (s[i] == '/')
		return policy_sed_part(s, i + 1, '/', bad);
	if (s[i] == '\\' && s[i + 1] != '\0' && s[i + 1] != '\n')
		return policy_sed_part(s, i + 2, s[i + 1], bad);
	return i;
}

/*
 * Can this sed script only print?  Refuses the w, W and e commands, the w
 * and e flags of s, and anything it does not recognise.
 */
static int
policy_sed_script_safe(const char *s)
{
	size_t	i = 0, j;
	int	bad = 0;
	char	c, delim;

	for (;;) {
		while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
		    s[i] == ';')
			i++;
		if (s[i] == '\0')
			return !bad;
		j = policy_sed_addr(s, i, &bad);
		if (j != i && s[j] == ',') {
			j++;
			if (s[j] == '+' || s[j] == '~')
				j++;
			j = policy_sed_addr(s, j, &bad);
		} else if (j != i && (s[j] == '+' || s[j] == '~'))
			return 0;
		i = j;
		while (s[i] == ' ' || s[i] == '\t' || s[i] == '!')
			i++;
		if (bad)
			return 0;
		c = s[i++];
		switch (c) {
		case '{': case '}': case '=': case 'd': case 'D': case 'g':
		case 'G': case 'h': case 'H': case 'n': case 'N': case 'p':
		case 'P': case 'x': case 'z': case 'F':
			break;
		case 'l': case 'L': case 'q': case 'Q':
			while (s[i] == ' ' || (s[i] >= '0' && s[i] <= '9'))
				i++;
			break;
		case ':': case 'b': case 't': case 'T':
			while (s[i] != '\0' && s[i] != '\n' && s[i] != ';')
				i++;
			break;
		case '#': case 'a': case 'i': case 'c': case 'r': case 'R':
			/* Text, a comment or a file to read: to end of line. */
			while (s[i] != '\0' && s[i] != '\n') {
				if (s[i] == '\\' && s[i + 1] != '\0')
					i++;
				i++;
			}
			break;
		case 's':
		case 'y':
			delim = s[i];
			if (delim == '\0' || delim == '\n' || delim == '\\')
				return 0;
			i = policy_sed_part(s, i + 1, delim, &bad);
			i = policy_sed_part(s, i, delim, &bad);
			if (bad)
				return 0;
			while (c == 's' && s[i] != '\0' &&
			    strchr(" \t\n;}", s[i]) == NULL) {
				if (strchr("gpiImM0123456789", s[i]) == NULL)
					return 0;	/* w, e, unknown */
				i++;
			}
			break;
		default:
			return 0;	/* w, W, e and anything unknown */
		}
	}
}

/* Is this sed invocation free of in-place editing and writing commands? */
static int
policy_sed_safe(char *const *argv)
{
	static const char	*longs[] = { "--quiet", "--silent",
				    "--regexp-extended", "--posix",
				    "--separate", "--unbuffered", "--null-data",
				    "--zero-terminated", "--debug", "--sandbox",
				    NULL };
	const char		*a, *script = NULL;
	size_t			 i, k;
	int			 have_e = 0, operands = 0;

	for (i = 1; argv[i] != NULL; i++) {
		a = argv[i];
		if (!operands && strcmp(a, "--") == 0) {
			operands = 1;
			continue;
		}
		if (!operands && policy_starts(a, "--")) {
			if (policy_in(a, longs) ||
			    policy_starts(a, "--line-length="))
				continue;
			if (policy_starts(a, "--expression=")) {
				have_e = 1;
				if (!policy_sed_script_safe(a + 13))
					return 0;
				continue;
			}
			if (strcmp(a, "--expression") == 0 &&
			    argv[i + 1] != NULL) {
				have_e = 1;
				if (!policy_sed_script_safe(argv[++i]))
					return 0;
				continue;
			}
			return 0;	/* --in-place, --file, unknown */
		}
		if (!operands && a[0] == '-' && a[1] != '\0') {
			for (k = 1; a[k] != '\0'; k++) {
				if (strchr("nErsuz", a[k]) != NULL)
					continue;
				if (a[k] == 'l') {
					if (a[k + 1] == '\0' &&
					    argv[i + 1] != NULL)
						i++;
					break;
				}
				if (a[k] != 'e')
					return 0;	/* -i, -f, unknown */
				have_e = 1;
				if (a[k + 1] != '\0')
					script = a + k + 1;
				else if (argv[i + 1] != NULL)
					script = argv[++i];
				else
					return 0;
				if (!policy_sed_script_safe(script))
					return 0;
				break;
			}
			continue;
		}
		if (!have_e && script == NULL) {
			script = a;
			if (!policy_sed_script_safe(script))
				return 0;
		}
	}
	return have_e || script != NULL;
}

/* Is this git invocation a read-only query? */
static int
policy_git_safe(char *const *argv)
{
	static const char	*globals[] = { "--no-pager", "-P",
				    "--no-optional-locks", "--literal-pathspecs",
				    "--no-replace-objects", NULL };
	static const char	*subs[] = { "status", "log", "diff", "show",
				    "rev-parse", "ls-files", "blame", "describe",
				    "grep", "branch", "remote", NULL };
	static const char	*branch_flags[] = { "-a", "--all", "-r",
				    "--remotes", "-v", "-vv", "--verbose",
				    "--show-current", "--no-color", "--no-column",
				    "--no-abbrev", "-i", "--ignore-case",
				    "--omit-empty", NULL };
	static const char	*branch_valued[] = { "--contains",
				    "--no-contains", "--merged", "--no-merged",
				    "--points-at", "--sort", "--format", NULL };
	const char		*sub, *a;
	size_t			 i, n;
	int			 list = 0, positional = 0;

	for (i = 1; argv[i] != NULL && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-C") == 0 && argv[i + 1] != NULL) {
			i++;
			continue;
		}
		if (!policy_in(argv[i], globals))
			return 0;	/* -c, --exec-path, --git-dir, ... */
	}
	sub = argv[i];
	if (sub == NULL || !policy_in(sub, subs))
		return 0;
	for (i++; argv[i] != NULL; i++) {
		a = argv[i];
		/* --output writes a file; --ext-diff runs a program. */
		if (policy_starts(a, "--output") || strcmp(a, "--ext-diff") == 0)
			return 0;
		if (strcmp(sub, "grep") == 0 && (policy_starts(a, "-O") ||
		    policy_starts(a, "--open-files-in-pager")))
			return 0;
		if (strcmp(sub, "remote") == 0 && strcmp(a, "-v") != 0 &&
		    strcmp(a, "--verbose") != 0)
			return 0;
		if (strcmp(sub, "branch") != 0)
			continue;
		if (strcmp(a, "-l") == 0 || strcmp(a, "--list") == 0) {
			list = 1;
			continue;
		}
		if (policy_in(a, branch_flags) || policy_starts(a, "--color") ||
		    policy_starts(a, "--column=") ||
		    policy_starts(a, "--abbrev="))
			continue;
		n = strcspn(a, "=");
		if (a[0] == '-') {
			char	name[32];

			if (n >= sizeof name)
				return 0;
			memcpy(name, a, n);
			name[n] = '\0';
			if (!policy_in(name, branch_valued))
				return 0;	/* -d, -m, -c, -f, -u, ... */
			if (a[n] == '\0' && argv[i + 1] != NULL &&
			    argv[i + 1][0] != '-')
				i++;
			continue;
		}
		positional = 1;
	}
	/* Without --list, a name creates a branch. */
	return !positional || list;
}

/* Is argv a command from the built-in read-only list, used read-only? */
static int
policy_known_safe(char *const *argv)
{
	static const char	*any[] = { "ls", "cat", "head", "tail", "wc",
				    "pwd", "echo", "printf", "true", "false",
				    "whoami", "id", "uname", "which", "basename",
				    "dirname", "realpath", "readlink", "stat",
				    "du", "df", "nl", "cut", "tr", "seq", "diff",
				    "cmp", "comm", "grep", "egrep", "fgrep",
				    "md5sum", "sha1sum", "sha256sum",
				    "sha512sum", "od", "hexdump", "cd", "test",
				    "[", "jq", "sleep", NULL };
	static const char	*find_bad[] = { "-exec", "-execdir", "-ok",
				    "-okdir", "-delete", "-fprint", "-fprint0",
				    "-fprintf", "-fls", NULL };
	const char		*name = policy_trusted_name(argv[0]);
	size_t			 i;

	if (name == NULL)
		return 0;
	if (policy_in(name, any))
		return 1;
	if (strcmp(name, "find") == 0) {
		for (i = 1; argv[i] != NULL; i++) {
			if (policy_in(argv[i], find_bad))
				return 0;
		}
		return 1;
	}
	if (strcmp(name, "rg") == 0) {
		/* --pre runs a program on every file. */
		for (i = 1; argv[i] != NULL; i++) {
			if (strcmp(argv[i], "--pre") == 0 ||
			    policy_starts(argv[i], "--pre="))
				return 0;
		}
		return 1;
	}
	if (strcmp(name, "sort") == 0) {
		/* -o writes; --compress-program runs a program. */
		for (i = 1; argv[i] != NULL; i++) {
			if (policy_starts(argv[i], "--output") ||
			    policy_starts(argv[i], "--compress-program") ||
			    policy_short_has(argv[i], "o"))
				return 0;
		}
		return 1;
	}
	if (strcmp(name, "tree") == 0 || strcmp(name, "file") == 0 ||
	    strcmp(name, "date") == 0) {
		/* tree -o writes; file -C compiles; date -s sets the clock. */
		for (i = 1; argv[i] != NULL; i++) {
			if ((name[0] == 't' && policy_short_has(argv[i], "o")) ||
			    (name[0] == 'f' && (policy_short_has(argv[i], "C") ||
			    strcmp(argv[i], "--compile") == 0)) ||
			    (name[0] == 'd' && (policy_short_has(argv[i], "s") ||
			    policy_starts(argv[i], "--set"))))
				return 0;
		}
		return 1;
	}
	if (strcmp(name, "hostname") == 0 || strcmp(name, "env") == 0)
		return argv[1] == NULL;
	if (strcmp(name, "sed") == 0)
		return policy_sed_safe(argv);
	if (strcmp(name, "git") == 0)
		return policy_git_safe(argv);
	return 0;
}

/* The verdict when no rule matches argv. */
static void
policy_fallback(const struct policy *p, char *const *argv,
    struct policy_v *v)
{
	switch (p->mode) {
	case POLICY_NEVER:
		policy_v_set(v, POLICY_ALLOW, POLICY_BY_MODE,
		    "mode never: no rule matched");
		break;
	case POLICY_ON_REQUEST:
		policy_v_set(v, POLICY_ASK, POLICY_BY_MODE,
		    "mode on-request: no rule matched");
		break;
	case POLICY_UNTRUSTED:
		if (policy_known_safe(argv))
			policy_v_set(v, POLICY_ALLOW, POLICY_BY_KNOWN_SAFE,
			    "known read-only command");
		else
			policy_v_set(v, POLICY_ASK, POLICY_BY_MODE,
			    "mode untrusted: not a known read-only command");
		break;
	}
}

/*
 * Is argv a shell running a command string?  1 and *script when it is, 0
 * when it is not (a script file, an interactive shell, not a shell), -1
 * when it is a shell with options this code does not know.
 */
static int
policy_shell_script(char *const *argv, const char **script)
{
	static const char	*shells[] = { "sh", "bash", "dash", "zsh",
				    "ksh", "mksh", NULL };
	static const char	*longs[] = { "--login", "--noprofile",
				    "--norc", "--posix", NULL };
	static const char	*o_names[] = { "pipefail", "errexit",
				    "nounset", "xtrace", NULL };
	const char		*name = policy_trusted_name(argv[0]);
	size_t			 i;
	int			 has_c = 0;

	/* ./bash -c 'ls' is some program, not a shell running ls. */
	if (name == NULL || !policy_in(name, shells))
		return 0;
	for (i = 1; argv[i] != NULL; i++) {
		const char	*a = argv[i];

		if (a[0] != '-' && a[0] != '+')
			break;
		if (strcmp(a, "-o") == 0 || strcmp(a, "+o") == 0) {
			if (argv[i + 1] == NULL ||
			    !policy_in(argv[i + 1], o_names))
				return -1;
			i++;
			continue;
		}
		if (policy_in(a, longs))
			continue;
		if (a[1] == '\0' || a[1] == '-' ||
		    strspn(a + 1, "celuxvo") != strlen(a + 1))
			return -1;
		if (a[0] == '-' && strchr(a + 1, 'c') != NULL)
			has_c = 1;
		if (strchr(a + 1, 'o') != NULL) {
			/* -euo pipefail: o takes the next word. */
			if (strchr(a + 1, 'o')[1] != '\0' ||
			    argv[i + 1] == NULL ||
			    !policy_in(argv[i + 1], o_names))
				return -1;
			i++;
		}
	}
	if (!has_c)
		return 0;
	if (argv[i] == NULL)
		return -1;
	*script = argv[i];
	return 1;
}

/* Judge a command string split into simple commands. */
static void
policy_judge_script(const struct policy *p, const char *script, int depth,
    struct policy_judge *out)
{
	struct shsplit		*sp;
	struct shsplit_cmd	*cmd;
	struct policy_judge	 j;
	char			**argv;
	size_t			 i, k;

	memset(out, 0, sizeof *out);
	sp = shsplit_parse(script, 0);
	if (sp->error != NULL || sp->ncmds == 0) {
		/* Nothing in it can be vouched for. */
		if (p->mode == POLICY_NEVER)
			policy_v_set(&out->full, POLICY_ALLOW, POLICY_BY_MODE,
			    "mode never: no rule matched");
		else
			policy_v_set(&out->full, POLICY_ASK, POLICY_BY_SHELL,
			    sp->error != NULL ? sp->error :
			    "empty shell command");
	}
	for (i = 0; i < sp->ncmds; i++) {
		cmd = &sp->cmds[i];
		memset(&j, 0, sizeof j);
		if (cmd->nwords == 0)
			policy_fallback(p, (char *[]){ "", NULL }, &j.full);
		else {
			argv = xcalloc(cmd->nwords + 1, sizeof *argv);
			for (k = 0; k < cmd->nwords; k++)
				argv[k] = cmd->words[k].text;
			policy_judge_argv(p, argv, depth, &j);
			free(argv);
		}
		if (cmd->problem != NULL)
			policy_raise(p, &j.full, cmd->problem);
		policy_v_max(&out->full, &j.full);
		policy_v_max(&out->ruled, &j.ruled);
	}
	shsplit_free(sp);
}

/*
 * Is argv "env [NAME=VALUE...] CMD..."?  1 with *rest at CMD (and *assign
 * when variables are set), 0 when not env or env alone, -1 for env options.
 */
static int
policy_env_wrapper(char *const *argv, char *const **rest, int *assign)
{
	const char	*name = policy_trusted_name(argv[0]);
	size_t		 i;

	if (name == NULL || strcmp(name, "env") != 0 || argv[1] == NULL)
		return 0;
	*assign = 0;
	for (i = 1; argv[i] != NULL && strchr(argv[i], '=') != NULL &&
	    argv[i][0] != '-' && argv[i][0] != '='; i++)
		*assign = 1;
	if (argv[i] == NULL)
		return 0;
	if (argv[i][0] == '-')
		return -1;
	*rest = argv + i;
	return 1;
}

/* Judge one argv; depth counts nested shell strings. */
static void
policy_judge_argv(const struct policy *p, char *const *argv, int depth,
    struct policy_judge *out)
{
	struct policy_judge	 in;
	struct policy_v		 ruled;
	const char		*script;
	char *const		*rest;
	int			 kind, assign = 0;

	memset(out, 0, sizeof *out);
	ruled = policy_match_rules(p, argv);
	out->ruled = ruled;

	if (depth >= POLICY_MAX_DEPTH) {
		out->full = ruled;
		if (!ruled.set)
			policy_fallback(p, argv, &out->full);
		policy_raise(p, &out->full, "shell strings nested too deep");
		return;
	}

	kind = policy_shell_script(argv, &script);
	if (kind == 1)
		policy_judge_script(p, script, depth + 1, &in);
	else if (kind == 0) {
		kind = policy_env_wrapper(argv, &rest, &assign);
		if (kind == 1) {
			policy_judge_argv(p, rest, depth + 1, &in);
			if (assign)
				policy_raise(p, &in.full,
				    "env sets environment variables");
		}
	}

	if (kind == 1) {
		policy_v_max(&out->ruled, &in.ruled);
		/* A rule for the whole line stands for the fallbacks inside. */
		out->full = ruled.set ? out->ruled : in.full;
		return;
	}
	if (ruled.set) {
		out->full = ruled;
		return;
	}
	policy_fallback(p, argv, &out->full);
	if (kind == -1)
		policy_raise(p, &out->full, "shell or env options not understood");
}

struct policy_verdict
policy_check(const struct policy *p, char *const *argv)
{
	struct policy_judge	j;
	struct policy_verdict	v;

	assert(argv != NULL && argv[0] != NULL);
	policy_judge_argv(p, argv, 0, &j);
	assert(j.full.set);
	memset(&v, 0, sizeof v);
	v.decision = j.full.d;
	v.source = j.full.src;
	v.why = j.full.why;
	if (j.full.rule != NULL) {
		v.rule = j.full.rule->text;
		v.where = j.full.rule->where;
	}
	return v;
}

int
policy_remember(struct policy *p, char *const *prefix, bool rest,
    char **cause)
{
	struct policy_rule	*r;
	struct buf		 b;
	size_t			 i, n;

	n = prefix != NULL ? strv_len(prefix) : 0;
	if (n == 0) {
		*cause = xstrdup("nothing to remember: empty command");
		return -1;
	}
	r = xcalloc(1, sizeof *r);
	r->action = POLICY_ALLOW;
	r->rest = rest;
	r->pats = xcalloc(n, sizeof *r->pats);
	memset(&b, 0, sizeof b);
	buf_adds(&b, "allow");
	for (i = 0; i < n; i++) {
		struct shsplit_word	w;

		/* Every byte is literal: the pattern escapes all globs. */
		w.text = prefix[i];
		w.len = strlen(prefix[i]);
		w.quoted = xmalloc(w.len + 1);
		memset(w.quoted, 1, w.len + 1);
		r->pats[r->npats++] = shsplit_pattern(&w);
		free(w.quoted);
		buf_addc(&b, ' ');
		shsplit_quote(&b, prefix[i]);
	}
	if (rest)
		buf_adds(&b, " **");
	r->text = xstrdup(buf_cstr(&b));
	buf_free(&b);
	r->where = xstrdup("remembered");
	r->why = xasprintf("rule '%s' (%s)", r->text, r->where);
	r->remembered = 1;
	policy_add(p, r);
	return 0;
}

int
policy_remember_line(struct policy *p, const char *line, char **cause)
{
	struct policy_rule	*r;
	char			*err;
	int			 n;

	if (strchr(line, '\n') != NULL) {
		*cause = xstrdup("a rule is one line");
		return -1;
	}
	n = policy_parse_line(line, "remembered", &r, &err);
	if (n < 0) {
		*cause = err;
		return -1;
	}
	if (n == 0) {
		*cause = xstrdup("no rule in the line");
		return -1;
	}
	r->remembered = 1;
	policy_add(p, r);
	return 0;
}

int
policy_unsaved(const struct policy *p)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < p->nrules; i++) {
		if (p->rules[i]->remembered && !p->rules[i]->saved)
			n++;
	}
	return n;
}

/* Create the directories leading to path (not path itself), mode 0700. */
static int
policy_mkdirs(const char *path, char **cause)
{
	char	*copy, *slash;

	copy = xstrdup(path);
	for (slash = strchr(copy + 1, '/'); slash != NULL;
	    slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(copy, 0700) == -1 && errno != EEXIST) {
			*cause = xasprintf("%s: %s", copy, strerror(errno));
			free(copy);
			return -1;
		}
		*slash = '/';
	}
	free(copy);
	return 0;
}

int
policy_save_remembered(struct policy *p, const char *path, char **cause)
{
	struct buf	 b;
	struct stat	 sb;
	size_t		 i;
	ssize_t		 n;
	char		 last;
	int		 fd, count = 0;

	memset(&b, 0, sizeof b);
	buf_adds(&b, "\n");	/* dropped below unless needed */
	for (i = 0; i < p->nrules; i++) {
		if (!p->rules[i]->remembered || p->rules[i]->saved)
			continue;
		buf_printf(&b, "%s\n", p->rules[i]->text);
		count++;
	}
	if (count == 0) {
		buf_free(&b);
		return 0;
	}
	if (policy_mkdirs(path, cause) == -1)
		goto fail;
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(fd, &sb) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto fail_fd;
	}
	/* One write, so a crash never leaves half a rule. */
	if (sb.st_size > 0 && pread(fd, &last, 1, sb.st_size - 1) == 1 &&
	    last != '\n')
		i = 0;
	else
		i = 1;
	do
		n = write(fd, b.data + i, b.len - i);
	while (n == -1 && errno == EINTR);
	if (n == -1 || (size_t)n != b.len - i) {
		*cause = xasprintf("%s: %s", path, n == -1 ? strerror(errno) :
		    "short write");
		goto fail_fd;
	}
	if (fsync(fd) == -1 || close(fd) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		buf_free(&b);
		return -1;
	}
	for (i = 0; i < p->nrules; i++) {
		if (p->rules[i]->remembered)
			p->rules[i]->saved = 1;
	}
	buf_free(&b);
	return count;

fail_fd:
	close(fd);
fail:
	buf_free(&b);
	return -1;
}

char *
policy_quote_argv(char *const *argv)
{
	struct buf	b;
	size_t		i;

	memset(&b, 0, sizeof b);
	for (i = 0; argv[i] != NULL; i++) {
		if (i > 0)
			buf_addc(&b, ' ');
		shsplit_quote(&b, argv[i]);
	}
	buf_cstr(&b);
	return b.data;
}
