/*
 * readonly.c - the built-in list of read-only commands (see policy.h):
 * what untrusted mode allows when no rule matches, with the argument checks
 * that keep find, rg, sort, tree, file, date, hostname, env, sed and git
 * read-only; and how a command is recognised by its name.
 *
 * Invariants: a command counts only by a bare name or a path in /bin,
 * /usr/bin or /usr/local/bin (./ls is some other program).  sed and git
 * pass only with options, subcommands and sed commands known to be
 * read-only; find, rg, sort, tree, file and date pass unless an option
 * known to write, delete or run a program is present; hostname and env
 * only alone.  Nothing here allocates.
 */
#include "policy/readonly.h"

#include <stddef.h>
#include <string.h>

/*
 * The command name of argv0 when it is a bare name or lives in a system
 * bin directory; NULL for anything else (./ls is not ls).
 */
const char *
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
int
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
int
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
