/*
 * readonly.c - the built-in list of read-only commands (see policy.h):
 * what untrusted mode allows when no rule matches, with the argument checks
 * that keep find, rg, sort, tree, file, date, diff, hostname, env, sed and
 * git read-only; the environment such a command runs with, which keeps
 * git from starting a pager, hooks or an fsmonitor
 * (policy_known_safe_env); and how a command is recognised by its name.
 *
 * Invariants: a command counts only by a bare name or a path in /bin,
 * /usr/bin or /usr/local/bin (./ls is some other program).  sed and git
 * pass only with options, subcommands and sed commands known to be
 * read-only, and git only where gitrepo.c finds no configuration that runs
 * a program; find, rg, sort, tree, file, date and diff pass unless an
 * option in policy_traps (each one that runs a program or writes, found in
 * their manuals; long options also as getopt abbreviates them) is present;
 * hostname and env only alone.  A command refused for one of these reasons
 * says which (why); nothing here allocates.
 */
#include "policy/readonly.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "policy/gitrepo.h"
#include "policy/policy.h"

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

/*
 * Is a the long option name, or an abbreviation of it as getopt_long(3)
 * takes one ("--comp" for "--compress-program"), with or without =VALUE?
 */
static int
policy_long_is(const char *a, const char *name)
{
	size_t	n;

	if (strncmp(a, "--", 2) != 0)
		return 0;
	n = strcspn(a, "=");
	return n > 2 && n <= strlen(name) && strncmp(a, name, n) == 0;
}

/*
 * Does a cluster of short options (-xyz) hold one of the letters in bad
 * before a letter in valued (which takes the rest of the word as its
 * value)?  A letter this code does not know counts as taking no value, so
 * a doubt reads further and refuses more.
 */
static int
policy_short_has(const char *a, const char *bad, const char *valued)
{
	size_t	k;

	if (a[0] != '-' || a[1] == '-' || a[1] == '\0')
		return 0;
	for (k = 1; a[k] != '\0'; k++) {
		if (strchr(bad, a[k]) != NULL)
			return 1;
		if (strchr(valued, a[k]) != NULL)
			return 0;
	}
	return 0;
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

/* Does a git format argument hold a placeholder that runs gpg? */
static int
policy_git_runs_gpg(const char *a)
{
	/* %G? %GS %GK ... verify signatures; so does %(signature...). */
	return strstr(a, "%G") != NULL || strstr(a, "%(signature") != NULL;
}

/*
 * Is this git invocation a read-only query by its argv?  The repository it
 * runs in is looked at by gitrepo.c.
 */
static int
policy_git_safe(char *const *argv, char *why, size_t len)
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
		if (!policy_in(argv[i], globals)) {
			/* -c, --exec-path, --git-dir, --config-env, -p... */
			snprintf(why, len, "git %.40s: a global option not "
			    "known to be read-only", argv[i]);
			return 0;
		}
	}
	sub = argv[i];
	if (sub == NULL || !policy_in(sub, subs)) {
		snprintf(why, len, "git %.40s: not a read-only subcommand",
		    sub != NULL ? sub : "(no subcommand)");
		return 0;
	}
	for (i++; argv[i] != NULL; i++) {
		a = argv[i];
		/*
		 * Subcommands parsed by git's parse-options (grep, branch...)
		 * take abbreviated long options: --textc is --textconv there
		 * (--text is an option of its own, never an abbreviation).
		 */
		if (policy_starts(a, "--output") ||
		    policy_long_is(a, "--output")) {
			snprintf(why, len, "git %s --output writes a file",
			    sub);
			return 0;
		}
		if (strcmp(a, "--text") != 0 && (policy_long_is(a,
		    "--ext-diff") || policy_long_is(a, "--textconv"))) {
			snprintf(why, len, "git %s %s runs the programs the "
			    "repository configures", sub, a);
			return 0;
		}
		if (policy_long_is(a, "--show-signature") ||
		    policy_git_runs_gpg(a)) {
			snprintf(why, len, "git %s: signature checks run gpg",
			    sub);
			return 0;
		}
		if (strcmp(sub, "grep") == 0 &&
		    (policy_short_has(a, "O", "ABCefm") ||
		    policy_long_is(a, "--open-files-in-pager"))) {
			snprintf(why, len, "git grep -O runs a pager");
			return 0;
		}
		if (strcmp(sub, "remote") == 0 && strcmp(a, "-v") != 0 &&
		    strcmp(a, "--verbose") != 0) {
			snprintf(why, len, "git remote: only -v is read-only");
			return 0;
		}
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

			if (n < sizeof name) {
				memcpy(name, a, n);
				name[n] = '\0';
			}
			if (n >= sizeof name || !policy_in(name, branch_valued)) {
				/* -d, -m, -c, -f, -u, ... */
				snprintf(why, len, "git branch %.40s changes "
				    "branches", a);
				return 0;
			}
			if (a[n] == '\0' && argv[i + 1] != NULL &&
			    argv[i + 1][0] != '-')
				i++;
			continue;
		}
		positional = 1;
	}
	/* Without --list, a name creates a branch. */
	if (positional && !list) {
		snprintf(why, len, "git branch NAME creates a branch");
		return 0;
	}
	return 1;
}

/*
 * An option of a read-only command that runs a program or writes.  opt is
 * a long option (abbreviations count) when it starts with "--", else a
 * word as it must appear (find's primaries); letter is its short form.
 */
struct policy_trap {
	const char	*cmd;
	char		 letter;
	const char	*opt;
	const char	*why;
};

/* Every one found in the manuals; doc/policy.md lists them for users. */
static const struct policy_trap policy_traps[] = {
	{ "rg", 0, "--pre", "runs a program on every file it searches" },
	{ "rg", 0, "--hostname-bin", "runs a program to learn the host name" },
	{ "rg", 'z', "--search-zip", "runs decompression programs found on "
	    "PATH" },
	{ "find", 0, "-exec", "runs a program" },
	{ "find", 0, "-execdir", "runs a program" },
	{ "find", 0, "-ok", "runs a program" },
	{ "find", 0, "-okdir", "runs a program" },
	{ "find", 0, "-delete", "deletes files" },
	{ "find", 0, "-fprint", "writes a file" },
	{ "find", 0, "-fprint0", "writes a file" },
	{ "find", 0, "-fprintf", "writes a file" },
	{ "find", 0, "-fls", "writes a file" },
	{ "sort", 'o', "--output", "writes a file" },
	{ "sort", 0, "--compress-program", "runs a program" },
	{ "tree", 'o', NULL, "writes a file" },
	{ "tree", 'R', NULL, "writes 00Tree.html in every directory" },
	{ "file", 'C', "--compile", "writes a compiled magic file" },
	{ "file", 'z', "--uncompress", "may run decompression programs" },
	{ "file", 'Z', "--uncompress-noreport", "may run decompression "
	    "programs" },
	{ "file", 'S', "--no-sandbox", "turns off its own system-call "
	    "sandbox" },
	{ "date", 's', "--set", "sets the clock" },
	{ "diff", 'l', "--paginate", "runs pr on its output" },
	{ NULL, 0, NULL, NULL }
};

/* The short options that take a value, per command with traps. */
static const char *const policy_valued[][2] = {
	{ "rg", "ABCEMTdefgjmrt" },
	{ "sort", "kStT" },
	{ "tree", "HILPT" },
	{ "file", "FPefm" },
	{ "date", "Idfr" },
	{ "diff", "CDFILSUWXx" },
	{ NULL, NULL }
};

/* Does argv (of a command named name) use an option in policy_traps? */
static int
policy_trapped(const char *name, char *const *argv, char *why, size_t len)
{
	const struct policy_trap	*t;
	const char			*valued = "";
	size_t				 i, k;

	for (k = 0; policy_valued[k][0] != NULL; k++) {
		if (strcmp(policy_valued[k][0], name) == 0)
			valued = policy_valued[k][1];
	}
	for (i = 1; argv[i] != NULL; i++) {
		for (t = policy_traps; t->cmd != NULL; t++) {
			char	letter[2] = { t->letter, '\0' };

			if (strcmp(t->cmd, name) != 0)
				continue;
			if ((t->letter != 0 &&
			    policy_short_has(argv[i], letter, valued)) ||
			    (t->opt != NULL && policy_starts(t->opt, "--") &&
			    policy_long_is(argv[i], t->opt)) ||
			    (t->opt != NULL && !policy_starts(t->opt, "--") &&
			    strcmp(argv[i], t->opt) == 0)) {
				if (t->opt != NULL)
					snprintf(why, len, "%s %s %s", name,
					    t->opt, t->why);
				else
					snprintf(why, len, "%s -%c %s", name,
					    t->letter, t->why);
				return 1;
			}
		}
	}
	return 0;
}

char *const *
policy_known_safe_env(void)
{
	/*
	 * GIT_CONFIG_COUNT/KEY/VALUE (git 2.31+) are -c given by the
	 * environment: they beat every file and reach the git processes git
	 * itself starts (submodules).  An older git ignores them; the check of
	 * the files still holds.  textconv and filter drivers have names of
	 * the repository's choosing and cannot be turned off this way.
	 */
	static char *const	env[] = {
		"GIT_PAGER=cat",		/* beats core.pager, pager.<cmd> */
		"PAGER=cat",
		"GIT_OPTIONAL_LOCKS=0",		/* no index write: no hook */
		"GIT_TERMINAL_PROMPT=0",
		"GIT_CONFIG_COUNT=5",
		"GIT_CONFIG_KEY_0=core.fsmonitor",
		"GIT_CONFIG_VALUE_0=false",
		"GIT_CONFIG_KEY_1=core.hooksPath",
		"GIT_CONFIG_VALUE_1=/dev/null",	/* no hook is found there */
		"GIT_CONFIG_KEY_2=core.pager",
		"GIT_CONFIG_VALUE_2=cat",
		"GIT_CONFIG_KEY_3=log.showSignature",
		"GIT_CONFIG_VALUE_3=false",
		"GIT_CONFIG_KEY_4=submodule.recurse",
		"GIT_CONFIG_VALUE_4=false",
		NULL
	};

	return env;
}

int
policy_known_safe(char *const *argv, const struct policy_place *place,
    char *why, size_t len)
{
	static const char	*any[] = { "ls", "cat", "head", "tail", "wc",
				    "pwd", "echo", "printf", "true", "false",
				    "whoami", "id", "uname", "which", "basename",
				    "dirname", "realpath", "readlink", "stat",
				    "du", "df", "nl", "cut", "tr", "seq", "cmp",
				    "comm", "grep", "egrep", "fgrep", "md5sum",
				    "sha1sum", "sha256sum", "sha512sum", "od",
				    "hexdump", "cd", "test", "[", "jq", "sleep",
				    NULL };
	static const char	*trapped[] = { "find", "rg", "sort", "tree",
				    "file", "date", "diff", NULL };
	const char		*name = policy_trusted_name(argv[0]);

	if (len > 0)
		why[0] = '\0';
	if (name == NULL)
		return 0;
	if (policy_in(name, any))
		return 1;
	if (policy_in(name, trapped))
		return !policy_trapped(name, argv, why, len);
	if (strcmp(name, "hostname") == 0 || strcmp(name, "env") == 0) {
		if (argv[1] == NULL)
			return 1;
		snprintf(why, len, "%s: only alone is read-only (%s)", name,
		    name[0] == 'h' ? "a name sets the host name" :
		    "it runs the command it is given");
		return 0;
	}
	if (strcmp(name, "sed") == 0) {
		if (policy_sed_safe(argv))
			return 1;
		snprintf(why, len, "sed: an option or script command not "
		    "known to be read-only (-i, -f, w, W, e, s///w, s///e...)");
		return 0;
	}
	if (strcmp(name, "git") == 0) {
		char	risk[400];

		if (!policy_git_safe(argv, why, len))
			return 0;
		if (!policy_git_repo_risk(argv, place, risk, sizeof risk))
			return 1;
		snprintf(why, len, "git may run a program here: %s", risk);
		return 0;
	}
	return 0;
}
