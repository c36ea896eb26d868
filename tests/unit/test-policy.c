/*
 * test-policy.c - rules × argv → decision tables for the policy module and
 * its shell splitter, rule-file errors, remembering and saving rules.
 */
#include "policy/policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/quote.h"
#include "policy/shsplit.h"
#include "base/util.h"
#include "tests/tap.h"

#define U	POLICY_UNTRUSTED
#define O	POLICY_ON_REQUEST
#define N	POLICY_NEVER
#define ALLOW	POLICY_ALLOW
#define ASK	POLICY_ASK
#define DENY	POLICY_DENY

/* The rules most rows use (the man page's example plus a few). */
#define RULES_COMMON \
    "# example rules\n" \
    "allow  git status\n" \
    "allow  git diff **\n" \
    "allow  npm run test **\n" \
    "deny   rm -rf **\n" \
    "ask    curl **\n" \
    "allow  'my tool' --flag\n" \
    "allow  printf a\\ b\n" \
    "allow  pick [ab]\n" \
    "allow  show '*'\n" \
    "allow  git log --format=*\n"

struct row {
	enum policy_mode	 mode;
	const char		*rules;		/* NULL: no rules */
	const char		*argv[8];
	enum policy_decision	 want;
	const char		*why;		/* substring of the why, or NULL */
};

#define R	RULES_COMMON

/*
 * Where the rows' commands "run": an empty directory, an empty HOME and no
 * system git configuration, so git's verdicts do not depend on the host.
 */
static struct policy_place	place;

static const struct row rows[] = {
	/* Rules, word by word. */
	{ O, R, { "git", "status" }, ALLOW, "rule 'allow  git status' (rules:2)" },
	{ O, R, { "git", "status", "--short" }, ASK, "mode on-request" },
	{ U, R, { "git", "status", "--short" }, ALLOW, "known read-only" },
	{ O, R, { "git", "diff" }, ALLOW, "git diff **" },
	{ O, R, { "git", "diff", "HEAD~1", "--", "a b" }, ALLOW, NULL },
	{ N, R, { "rm", "-rf", "/" }, DENY, "rules:5" },
	{ N, R, { "rm", "-rf" }, DENY, NULL },
	{ N, R, { "rm", "-r", "-f", "/" }, ALLOW, "mode never" },
	{ U, R, { "npm", "run", "test", "--", "-u" }, ALLOW, NULL },
	{ U, R, { "npm", "run", "build" }, ASK, "mode untrusted" },
	{ N, R, { "curl", "https://example.org" }, ASK, "ask    curl **" },
	{ O, R, { "my tool", "--flag" }, ALLOW, NULL },
	{ O, R, { "my", "tool", "--flag" }, ASK, NULL },
	{ O, R, { "printf", "a b" }, ALLOW, NULL },
	{ O, R, { "printf", "a", "b" }, ASK, NULL },
	{ O, R, { "pick", "a" }, ALLOW, NULL },
	{ O, R, { "pick", "c" }, ASK, NULL },
	{ O, R, { "show", "*" }, ALLOW, NULL },
	{ O, R, { "show", "x" }, ASK, NULL },
	{ O, R, { "git", "log", "--format=%H" }, ALLOW, NULL },
	{ O, R, { "git", "log", "--oneline" }, ASK, NULL },
	{ O, "allow **\ndeny rm **\n", { "rm", "x" }, DENY, "deny rm **" },
	{ O, "deny rm **\nallow **\n", { "rm", "x" }, DENY, NULL },
	{ O, "deny rm **\ndeny rm -rf **\n", { "rm", "-rf" }, DENY,
	    "'deny rm **'" },
	{ U, "allow ls **\nask ls -la\n", { "ls", "-la" }, ASK, "ask ls -la" },
	{ U, "ask **\n", { "ls" }, ASK, "ask **" },
	{ N, "allow x *\n", { "x" }, ALLOW, "mode never" },

	/* The known read-only list (untrusted mode) and its traps. */
	{ U, NULL, { "ls", "-la" }, ALLOW, "known read-only" },
	{ U, NULL, { "cat", "/etc/hostname" }, ALLOW, NULL },
	{ U, NULL, { "head", "-n", "3", "f" }, ALLOW, NULL },
	{ U, NULL, { "wc", "-l", "f" }, ALLOW, NULL },
	{ U, NULL, { "pwd" }, ALLOW, NULL },
	{ U, NULL, { "echo", "hi" }, ALLOW, NULL },
	{ U, NULL, { "grep", "-rn", "foo", "." }, ALLOW, NULL },
	{ U, NULL, { "/bin/ls" }, ALLOW, NULL },
	{ U, NULL, { "/usr/bin/cat", "x" }, ALLOW, NULL },
	{ U, NULL, { "./ls" }, ASK, "mode untrusted" },
	{ U, NULL, { "/tmp/ls" }, ASK, NULL },
	{ U, NULL, { "rm", "x" }, ASK, NULL },
	{ U, NULL, { "python3" }, ASK, NULL },
	{ U, NULL, { "rg", "foo" }, ALLOW, NULL },
	{ U, NULL, { "rg", "--pre", "sh", "foo" }, ASK, NULL },
	{ U, NULL, { "rg", "--pre=sh", "foo" }, ASK, NULL },
	{ U, NULL, { "find", ".", "-name", "*.c" }, ALLOW, NULL },
	{ U, NULL, { "find", ".", "-exec", "rm", "{}", ";" }, ASK, NULL },
	{ U, NULL, { "find", ".", "-execdir", "rm", "{}", "+" }, ASK, NULL },
	{ U, NULL, { "find", ".", "-delete" }, ASK, NULL },
	{ U, NULL, { "find", ".", "-ok", "rm", "{}", ";" }, ASK, NULL },
	{ U, NULL, { "find", ".", "-fprint", "out" }, ASK, NULL },
	{ U, NULL, { "find", ".", "-fprintf", "out", "%p" }, ASK, NULL },
	{ U, NULL, { "git", "log", "--oneline" }, ALLOW, NULL },
	{ U, NULL, { "git", "diff", "HEAD" }, ALLOW, NULL },
	{ U, NULL, { "git", "show", "HEAD:README" }, ALLOW, NULL },
	{ U, NULL, { "git", "branch" }, ALLOW, NULL },
	{ U, NULL, { "git", "branch", "-a", "-vv" }, ALLOW, NULL },
	{ U, NULL, { "git", "branch", "--list", "feat*" }, ALLOW, NULL },
	{ U, NULL, { "git", "branch", "--contains", "HEAD" }, ALLOW, NULL },
	{ U, NULL, { "git", "branch", "newname" }, ASK, NULL },
	{ U, NULL, { "git", "branch", "-D", "old" }, ASK, NULL },
	{ U, NULL, { "git", "branch", "-m", "a", "b" }, ASK, NULL },
	{ U, NULL, { "git", "-c", "core.pager=sh", "log" }, ASK, NULL },
	{ U, NULL, { "git", "--exec-path=/tmp", "status" }, ASK, NULL },
	{ U, NULL, { "git", "-C", "/src", "status" }, ALLOW, NULL },
	{ U, NULL, { "git", "--no-pager", "log" }, ALLOW, NULL },
	{ U, NULL, { "git", "log", "--output=/tmp/x" }, ASK, NULL },
	{ U, NULL, { "git", "diff", "--ext-diff" }, ASK, NULL },
	{ U, NULL, { "git", "grep", "-Ovim", "x" }, ASK, NULL },
	{ U, NULL, { "git", "remote", "-v" }, ALLOW, NULL },
	{ U, NULL, { "git", "remote", "add", "x", "y" }, ASK, NULL },
	{ U, NULL, { "git", "push" }, ASK, NULL },
	{ U, NULL, { "git", "commit", "-m", "x" }, ASK, NULL },
	{ U, NULL, { "git" }, ASK, NULL },
	{ U, NULL, { "sed", "-n", "1,5p", "f" }, ALLOW, NULL },
	{ U, NULL, { "sed", "s/a/b/g", "f" }, ALLOW, NULL },
	{ U, NULL, { "sed", "-e", "/x/d", "-e", "s|a|b|2", "f" }, ALLOW, NULL },
	{ U, NULL, { "sed", "-i", "s/a/b/", "f" }, ASK, NULL },
	{ U, NULL, { "sed", "-i.bak", "s/a/b/", "f" }, ASK, NULL },
	{ U, NULL, { "sed", "-ni", "p", "f" }, ASK, NULL },
	{ U, NULL, { "sed", "--in-place", "s/a/b/", "f" }, ASK, NULL },
	{ U, NULL, { "sed", "s/a/b/w out", "f" }, ASK, NULL },
	{ U, NULL, { "sed", "1w out", "f" }, ASK, NULL },
	{ U, NULL, { "sed", "s/x/date/e", "f" }, ASK, NULL },
	{ U, NULL, { "sed", "e ls", "f" }, ASK, NULL },
	{ U, NULL, { "sed", "-f", "script", "f" }, ASK, NULL },
	{ U, NULL, { "sed", "s/[/]/x/w out", "f" }, ASK, NULL },
	{ U, NULL, { "sed", "-n", "/a/,/b/{p;q}" }, ALLOW, NULL },
	{ U, NULL, { "sed", "-e", "s/a/b/;W out" }, ASK, NULL },
	{ U, NULL, { "sort", "-u", "f" }, ALLOW, NULL },
	{ U, NULL, { "sort", "-o", "f", "f" }, ASK, NULL },
	{ U, NULL, { "sort", "--output=f" }, ASK, NULL },
	{ U, NULL, { "sort", "--compress-program=sh" }, ASK, NULL },
	{ U, NULL, { "date", "+%s" }, ALLOW, NULL },
	{ U, NULL, { "date", "-s", "2000-01-01" }, ASK, NULL },
	{ U, NULL, { "tree", "-o", "out" }, ASK, NULL },
	{ U, NULL, { "file", "-C", "-m", "x" }, ASK, NULL },
	{ U, NULL, { "hostname" }, ALLOW, NULL },
	{ U, NULL, { "hostname", "evil" }, ASK, NULL },
	{ U, NULL, { "env" }, ALLOW, NULL },
	{ U, NULL, { "env", "ls" }, ALLOW, NULL },
	{ U, NULL, { "env", "LD_PRELOAD=x.so", "ls" }, ASK, "env sets" },
	{ U, NULL, { "env", "-i", "ls" }, ASK, "options not understood" },
	{ N, R, { "env", "rm", "-rf", "/" }, DENY, NULL },
	{ O, NULL, { "ls" }, ASK, "mode on-request" },
	{ N, NULL, { "rm", "x" }, ALLOW, "mode never" },

	/* Shell strings: each simple command judged, verdicts combined. */
	{ U, R, { "bash", "-lc", "ls && pwd" }, ALLOW, NULL },
	{ U, R, { "bash", "-lc", "ls && rm -rf /" }, DENY, "rm -rf **" },
	{ N, R, { "bash", "-lc", "ls && rm -rf /" }, DENY, NULL },
	{ U, NULL, { "bash", "-lc", "ls && make" }, ASK, "mode untrusted" },
	{ U, NULL, { "sh", "-c", "ls | grep x" }, ALLOW, NULL },
	{ U, NULL, { "sh", "-c", "ls || echo no; pwd\necho x" }, ALLOW, NULL },
	{ U, NULL, { "sh", "-c", "ls # a comment > x" }, ALLOW, NULL },
	{ U, NULL, { "zsh", "-c", "echo 'a;b' \"c|d\" e\\&f" }, ALLOW, NULL },
	{ U, NULL, { "dash", "-c", "echo $(rm x)" }, ASK, "command substitution" },
	{ U, NULL, { "sh", "-c", "echo \"$(id)\"" }, ASK, "command substitution" },
	{ U, NULL, { "sh", "-c", "echo `id`" }, ASK, "command substitution" },
	{ U, NULL, { "sh", "-c", "echo $HOME" }, ASK, "variable expansion" },
	{ U, NULL, { "sh", "-c", "echo \"${X}\"" }, ASK, "variable expansion" },
	{ U, NULL, { "sh", "-c", "echo 'a$(b)'" }, ALLOW, NULL },
	{ U, NULL, { "sh", "-c", "grep 'a$' f" }, ALLOW, NULL },
	{ U, NULL, { "sh", "-c", "ls > out" }, ASK, "redirection" },
	{ U, NULL, { "sh", "-c", "ls >> out" }, ASK, "redirection" },
	{ U, NULL, { "sh", "-c", "ls 2>err" }, ASK, "redirection" },
	{ U, NULL, { "sh", "-c", "cat < f" }, ASK, "redirection" },
	{ U, NULL, { "sh", "-c", "ls 2>&1 | head" }, ALLOW, NULL },
	{ U, NULL, { "sh", "-c", "ls >/dev/null 2>&1" }, ALLOW, NULL },
	{ U, NULL, { "sh", "-c", "ls >&file" }, ASK, "redirection" },
	{ U, NULL, { "sh", "-c", "ls &>out" }, ASK, "redirection" },
	{ U, NULL, { "sh", "-c", "cat <<EOF\nx\nEOF" }, ASK, "here-document" },
	{ U, NULL, { "sh", "-c", "(ls)" }, ASK, "subshell" },
	{ U, NULL, { "sh", "-c", "{ ls; }" }, ASK, "keyword" },
	{ U, NULL, { "sh", "-c", "ls &" }, ASK, "background" },
	{ U, NULL, { "sh", "-c", "ls & pwd" }, ASK, "background" },
	{ U, NULL, { "sh", "-c", "ls *.c" }, ASK, "glob" },
	{ U, NULL, { "sh", "-c", "ls \"*.c\" '?'" }, ALLOW, NULL },
	{ U, NULL, { "sh", "-c", "ls ~" }, ASK, "tilde" },
	{ U, NULL, { "sh", "-c", "echo a{b,c}" }, ASK, "brace" },
	{ U, NULL, { "sh", "-c", "FOO=1 ls" }, ASK, "assignment" },
	/* Variables reaching a known read-only command make it unsafe. */
	{ U, NULL, { "sh", "-c", "LD_PRELOAD=/tmp/x.so ls" }, ASK,
	    "assignment" },
	{ U, NULL, { "sh", "-c", "GIT_PAGER='sh -c id' git log" }, ASK,
	    "assignment" },
	{ U, NULL, { "bash", "-c", "ls && PAGER=x git log" }, ASK,
	    "assignment" },
	{ U, NULL, { "bash", "-c", "env GIT_PAGER=x git log" }, ASK,
	    "env sets" },
	{ U, NULL, { "env", "GIT_EXTERNAL_DIFF=x", "git", "diff" }, ASK,
	    "env sets" },
	{ U, NULL, { "sh", "-c", "rg --hostname-bin=/tmp/x y" }, ASK,
	    "rg --hostname-bin runs a program" },
	{ U, NULL, { "sh", "-c", "ls; git log -p --textconv" }, ASK,
	    "--textconv" },
	{ U, NULL, { "sh", "-c", "if true; then ls; fi" }, ASK, "keyword" },
	{ U, NULL, { "sh", "-c", "ls 'open" }, ASK, "unterminated single" },
	{ U, NULL, { "sh", "-c", "ls \"open" }, ASK, "unterminated double" },
	{ U, NULL, { "sh", "-c", "ls &&" }, ASK, "ends with an operator" },
	{ U, NULL, { "sh", "-c", "&& ls" }, ASK, "empty command" },
	{ U, NULL, { "sh", "-c", "ls ;; pwd" }, ASK, NULL },
	{ U, NULL, { "sh", "-c", "ls ||\n pwd" }, ALLOW, NULL },
	{ U, NULL, { "sh", "-c", "" }, ASK, "empty" },
	{ U, NULL, { "sh", "-c", "ls |& cat" }, ASK, "|&" },
	{ U, NULL, { "sh", "-c", "echo $'\\x41'" }, ASK, "ANSI-C" },
	{ U, NULL, { "bash", "-c", "git -c core.pager=x log" }, ASK, NULL },
	{ U, NULL, { "bash", "-c", "find . -exec rm {} \\;" }, ASK, NULL },
	{ U, NULL, { "bash", "-c", "sed -i s/a/b/ f" }, ASK, NULL },
	{ U, R, { "sh", "-c", "rm -rf $HOME" }, DENY, "rm -rf **" },
	{ U, R, { "sh", "-c", "X=1 rm -rf /" }, DENY, NULL },
	{ U, NULL, { "sh", "-c", "echo hi", "name", "arg" }, ALLOW, NULL },
	{ U, NULL, { "bash", "-euo", "pipefail", "-c", "ls" }, ALLOW, NULL },
	{ U, NULL, { "bash", "--noprofile", "--norc", "-c", "ls" }, ALLOW, NULL },
	{ U, NULL, { "bash", "--rcfile", "x", "-c", "ls" }, ASK, "options" },
	{ N, NULL, { "bash", "--rcfile", "x", "-c", "ls" }, ALLOW, NULL },
	{ U, NULL, { "bash", "-c" }, ASK, NULL },
	{ U, NULL, { "bash", "script.sh" }, ASK, "mode untrusted" },
	{ U, NULL, { "/bin/bash", "-c", "ls" }, ALLOW, NULL },
	{ U, NULL, { "env", "bash", "-c", "ls" }, ALLOW, NULL },
	{ U, NULL, { "/tmp/x/bash", "-c", "ls" }, ASK, "mode untrusted" },
	{ U, NULL, { "./env", "ls" }, ASK, "mode untrusted" },
	{ U, NULL, { "/usr/bin/env", "ls" }, ALLOW, NULL },
	{ U, R, { "bash", "-c", "sh -c 'rm -rf /'" }, DENY, NULL },
	{ U, NULL, { "bash", "-c", "sh -c 'ls; pwd'" }, ALLOW, NULL },
	{ N, NULL, { "sh", "-c", "echo $(x)" }, ALLOW, "mode never" },
	{ N, R, { "sh", "-c", "rm -rf $(x)" }, DENY, NULL },
	{ O, NULL, { "sh", "-c", "ls" }, ASK, "mode on-request" },
	{ O, "allow ls **\n", { "sh", "-c", "ls -l && ls" }, ALLOW, NULL },
	{ O, "allow ls **\n", { "sh", "-c", "ls $X" }, ASK, "variable" },
	{ U, "allow bash -lc 'make test'\n", { "bash", "-lc", "make test" },
	    ALLOW, "rule 'allow bash -lc 'make test''" },
	{ U, "allow bash -lc **\ndeny rm **\n", { "bash", "-lc", "ls; rm x" },
	    DENY, "deny rm **" },
	{ U, "allow bash -lc **\n", { "bash", "-lc", "make $(x)" }, ALLOW, NULL },
	{ U, "deny bash **\n", { "bash", "-lc", "ls" }, DENY, "deny bash" },
};

/* Run every row; a row's number is its index. */
static void
test_rows(void)
{
	size_t			 i;
	struct policy		*p;
	struct policy_verdict	 v;
	char			*cause = NULL;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row	*r = &rows[i];
		char			*shown;

		p = policy_new(r->mode);
		if (r->rules != NULL &&
		    policy_load_string(p, r->rules, "rules", &cause) != 0) {
			ok(0, "row %zu: rules load: %s", i, cause);
			free(cause);
			cause = NULL;
			policy_free(p);
			continue;
		}
		v = policy_check_at(p, (char *const *)r->argv, &place);
		shown = quote_argv((char *const *)r->argv);
		if (!ok(v.decision == r->want && (r->why == NULL ||
		    strstr(v.why, r->why) != NULL),
		    "row %zu: %s: %s → %s", i, policy_mode_name(r->mode), shown,
		    policy_decision_name(r->want)))
			diag("got %s (%s)", policy_decision_name(v.decision),
			    v.why);
		free(shown);
		policy_free(p);
	}
}

/* The verdict names the rule, its file:line and its source. */
static void
test_verdict_fields(void)
{
	struct policy		*p = policy_new(U);
	struct policy_verdict	 v;
	char			*cause = NULL;
	char			*argv1[] = { "rm", "-rf", "x", NULL };
	char			*argv2[] = { "ls", NULL };
	char			*argv3[] = { "sh", "-c", "ls $X", NULL };
	char			*argv4[] = { "make", NULL };

	is_int(policy_load_string(p, RULES_COMMON, "rules", &cause), 0,
	    "common rules load");
	v = policy_check(p, argv1);
	is_int(v.source, POLICY_BY_RULE, "deny by rule");
	is_str(v.rule, "deny   rm -rf **", "rule text as written");
	is_str(v.where, "rules:5", "rule location");
	is_str(v.why, "rule 'deny   rm -rf **' (rules:5)", "why names both");
	v = policy_check(p, argv2);
	is_int(v.source, POLICY_BY_KNOWN_SAFE, "ls by the known-safe list");
	ok(v.rule == NULL && v.where == NULL, "no rule for a mode verdict");
	v = policy_check(p, argv3);
	is_int(v.source, POLICY_BY_SHELL, "$X asked by the shell splitter");
	v = policy_check(p, argv4);
	is_int(v.source, POLICY_BY_MODE, "make asked by the mode");
	policy_free(p);
}

/* Bad rules name the line; a bad file adds nothing. */
static void
test_errors(void)
{
	static const struct {
		const char	*text;
		const char	*cause;
	} bad[] = {
		{ "allow git\nfrob x\n", "rules:2: unknown action 'frob' "
		    "(expected allow, deny or ask)" },
		{ "deny 'open\n", "rules:1: unterminated single quote" },
		{ "deny \"open\n", "rules:1: unterminated double quote" },
		{ "\n\nallow ** x\n", "rules:3: '**' must be the last word" },
		{ "allow\n", "rules:1: 'allow' without a pattern" },
		{ "allow ls; rm x\n", "rules:1: unquoted shell operator "
		    "(quote it)" },
		{ "allow a > b\n", "rules:1: unquoted shell operator (quote it)" },
		{ "allow a\\", "rules:1: ends with a backslash" },
		{ "allow $'\\q'\n", "rules:1: bad $'...' quoting" },
		{ "# ok\nALLOW ls\n", "rules:2: unknown action 'ALLOW' "
		    "(expected allow, deny or ask)" },
	};
	struct policy	*p;
	char		*cause;
	char		*argv[] = { "ls", "-x", NULL };
	size_t		 i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		p = policy_new(O);
		cause = NULL;
		is_int(policy_load_string(p, bad[i].text, "rules", &cause), -1,
		    "bad rules %zu refused", i);
		is_str(cause, bad[i].cause, "bad rules %zu: cause", i);
		free(cause);
		policy_free(p);
	}

	p = policy_new(O);
	cause = NULL;
	is_int(policy_load_string(p, "allow ls -x\nbad\n", "r", &cause), -1,
	    "second line bad");
	free(cause);
	is_int(policy_check(p, argv).decision, ASK,
	    "a failed load adds no rule, not even the good first line");
	is_int(policy_load_string(p, "  # c\n\n\tallow ls -x  # note\r\n",
	    "r", &cause), 0, "comments, blanks, tabs and CRLF load");
	is_str(policy_check(p, argv).where, "r:3", "line counted past blanks");
	is_str(policy_check(p, argv).rule, "allow ls -x  # note",
	    "rule text trimmed");
	policy_free(p);
}

/* Rules from a file: missing is fine, errors carry the path. */
static void
test_files(const char *dir)
{
	struct policy	*p;
	char		*path, *cause = NULL;
	char		*argv[] = { "make", NULL };
	FILE		*f;

	p = policy_new(O);
	path = xasprintf("%s/none", dir);
	is_int(policy_load_file(p, path, &cause), 0, "missing file: no rules");
	free(path);

	path = xasprintf("%s/rules", dir);
	f = fopen(path, "w");
	fputs("allow make\n", f);
	fclose(f);
	is_int(policy_load_file(p, path, &cause), 0, "file loads");
	is_int(policy_check(p, argv).decision, ALLOW, "file rule applies");
	f = fopen(path, "w");
	fputs("allow make\n", f);
	fwrite("allow x\0y\n", 1, 10, f);
	fclose(f);
	is_int(policy_load_file(p, path, &cause), -1, "NUL byte refused");
	ok(cause != NULL && strstr(cause, ":2: NUL byte") != NULL,
	    "NUL names the line: %s", cause ? cause : "");
	free(cause);
	cause = NULL;
	is_int(policy_load_file(p, dir, &cause), -1, "a directory is an error");
	ok(cause != NULL && strncmp(cause, dir, strlen(dir)) == 0,
	    "error names the path");
	free(cause);
	free(path);
	policy_free(p);
}

/* Read a whole small file. */
static char *
slurp(const char *path)
{
	FILE	*f = fopen(path, "r");
	char	*s = xcalloc(1, 4096);

	if (f != NULL) {
		if (fread(s, 1, 4095, f) == 0)
			s[0] = '\0';
		fclose(f);
	}
	return s;
}

/* Remember at run time, save, load back: the same rules. */
static void
test_remember(const char *dir)
{
	struct policy		*p, *q;
	struct policy_verdict	 v, w;
	struct stat		 sb;
	char			*path, *cause = NULL, *text;
	char			*pre1[] = { "npm", "run", "build", NULL };
	char			*run1[] = { "npm", "run", "build", "--x", NULL };
	char			*pre2[] = { "weird *", "it's", "[a]", "\\", NULL };
	char			*pre3[] = { "printf", "a\nb\033", "caf\xc3\xa9",
				    "\xff", NULL };
	char			*other[] = { "weird x", "it's", "a", "\\", NULL };
	char			*empty[] = { NULL };
	char			**all[] = { run1, pre2, pre3 };
	size_t			 i;

	p = policy_new(O);
	is_int(policy_check(p, run1).decision, ASK, "npm run build asked first");
	is_int(policy_remember(p, pre1, true, &cause), 0, "remember prefix");
	v = policy_check(p, run1);
	is_int(v.decision, ALLOW, "remembered prefix allows longer argv");
	is_str(v.rule, "allow npm run build **", "remembered rule text");
	is_str(v.where, "remembered", "remembered rule location");
	is_int(policy_remember(p, pre2, false, &cause), 0, "remember exact");
	is_int(policy_check(p, pre2).decision, ALLOW, "literal words match");
	is_int(policy_check(p, other).decision, ASK,
	    "glob characters in remembered words are literal");
	is_int(policy_remember(p, pre3, false, &cause), 0, "remember controls");
	is_int(policy_remember(p, empty, true, &cause), -1, "empty prefix");
	free(cause);
	cause = NULL;
	is_int(policy_remember_line(p, "bogus x", &cause), -1, "bad line");
	is_str(cause, "unknown action 'bogus' (expected allow, deny or ask)",
	    "bad line cause");
	free(cause);
	cause = NULL;
	is_int(policy_remember_line(p, "# nothing", &cause), -1, "empty line");
	free(cause);
	cause = NULL;
	is_int(policy_remember_line(p, "deny npm run build --x", &cause), 0,
	    "remember an edited line");
	is_int(policy_check(p, run1).decision, DENY, "edited rule counts");
	is_int(policy_unsaved(p), 4, "four rules to save");

	path = xasprintf("%s/cfg/ptyvisor/rules", dir);
	is_int(policy_save_remembered(p, path, &cause), 4, "saved four");
	is_int(policy_unsaved(p), 0, "nothing left to save");
	is_int(policy_save_remembered(p, path, &cause), 0, "second save: none");
	ok(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600, "file 0600");
	text = xasprintf("%s/cfg/ptyvisor", dir);
	ok(stat(text, &sb) == 0 && (sb.st_mode & 0777) == 0700, "dir 0700");
	free(text);
	text = slurp(path);
	is_str(text, "allow npm run build **\n"
	    "allow 'weird *' 'it'\\''s' '[a]' '\\'\n"
	    "allow printf $'a\\nb\\e' 'caf\xc3\xa9' $'\\xff'\n"
	    "deny npm run build --x\n", "saved text");
	free(text);

	q = policy_new(O);
	is_int(policy_load_file(q, path, &cause), 0, "saved file loads");
	for (i = 0; i < sizeof all / sizeof all[0]; i++) {
		v = policy_check(p, all[i]);
		w = policy_check(q, all[i]);
		ok(v.decision == w.decision && strcmp(v.rule, w.rule) == 0,
		    "round trip %zu: %s / %s", i, v.rule, w.rule);
	}
	is_int(policy_check(q, other).decision, ASK, "round trip keeps literals");
	policy_free(q);

	/* Appending to a file without a final newline. */
	unlink(path);
	text = xasprintf("printf 'allow ls' > '%s'", path);
	ok(system(text) == 0, "file without final newline");
	free(text);
	q = policy_new(O);
	is_int(policy_remember(q, pre1, false, &cause), 0, "remember");
	is_int(policy_save_remembered(q, path, &cause), 1, "saved one");
	text = slurp(path);
	is_str(text, "allow ls\nallow npm run build\n", "newline added first");
	free(text);
	policy_free(q);
	free(path);
	policy_free(p);
}

/* Display quoting, and that it splits back to the same words. */
static void
test_quote(void)
{
	static const struct {
		const char	*argv[4];
		const char	*want;
	} q[] = {
		{ { "ls", "-la", "/tmp" }, "ls -la /tmp" },
		{ { "echo", "it's" }, "echo 'it'\\''s'" },
		{ { "printf", "" }, "printf ''" },
		{ { "a b", "~x", "#c" }, "'a b' '~x' '#c'" },
		{ { "x", "$HOME", "`id`" }, "x '$HOME' '`id`'" },
		{ { "echo", "\033[31mred" }, "echo $'\\e[31mred'" },
		{ { "echo", "caf\xc3\xa9" }, "echo 'caf\xc3\xa9'" },
		{ { "echo", "\xff\xc2\x9b" }, "echo $'\\xff\\xc2\\x9b'" },
		{ { "echo", "a'b\n" }, "echo $'a\\'b\\n'" },
	};
	struct shsplit	*sp;
	char		*s;
	size_t		 i, k, n;
	int		 same;

	for (i = 0; i < sizeof q / sizeof q[0]; i++) {
		s = quote_argv((char *const *)q[i].argv);
		is_str(s, q[i].want, "quote %zu", i);
		sp = shsplit_parse(s, SHSPLIT_RULE);
		n = 0;
		while (n < 4 && q[i].argv[n] != NULL)
			n++;
		same = sp->error == NULL && sp->ncmds == 1 &&
		    sp->cmds[0].nwords == n;
		for (k = 0; same && k < n; k++)
			same = strcmp(sp->cmds[0].words[k].text,
			    q[i].argv[k]) == 0;
		ok(same, "quote %zu splits back to the same words", i);
		shsplit_free(sp);
		free(s);
	}
}

/* Mode names both ways. */
static void
test_modes(void)
{
	enum policy_mode	m;
	struct policy		*p = policy_new(N);

	is_int(policy_mode_parse("untrusted", &m), 0, "parse untrusted");
	is_int(m, U, "untrusted");
	is_int(policy_mode_parse("on-request", &m), 0, "parse on-request");
	is_int(m, O, "on-request");
	is_int(policy_mode_parse("never", &m), 0, "parse never");
	is_int(m, N, "never");
	is_int(policy_mode_parse("always", &m), -1, "unknown mode refused");
	is_str(policy_mode_name(POLICY_ON_REQUEST), "on-request", "mode name");
	is_str(policy_decision_name(POLICY_DENY), "deny", "decision name");
	policy_set_mode(p, U);
	is_int(policy_mode(p), U, "mode changed");
	policy_free(p);
	policy_free(NULL);
	ok(1, "policy_free(NULL) is a no-op");
}

/* Write text to path (truncating). */
static void
put_file(const char *path, const char *text)
{
	FILE	*f = fopen(path, "w");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0)
		diag("cannot write %s", path);
}

/* A changed rules file: reloaded in place, a broken one refused. */
static void
test_reload(const char *dir)
{
	struct policy		*p = policy_new(POLICY_ON_REQUEST);
	struct policy_verdict	 v, old;
	char			*path = xasprintf("%s/reload", dir), *cause = NULL;
	char			*ls[] = { "ls", NULL }, *rm[] = { "rm", "x", NULL };
	char			*mk[] = { "make", NULL };
	size_t			 n = 0;

	put_file(path, "allow ls\n");
	is_int(policy_load_file(p, path, &cause), 0, "load the first rules");
	is_int(policy_remember_line(p, "allow make", &cause), 0,
	    "remember a rule");
	old = policy_check(p, ls);
	is_int(old.decision, POLICY_ALLOW, "ls is allowed by the file");
	put_file(path, "deny ls\ndeny rm **\n");
	is_int(policy_reload_file(p, path, &n, &cause), 0, "reload");
	is_int((int)n, 2, "the file now gives 2 rules");
	v = policy_check(p, ls);
	is_int(v.decision, POLICY_DENY, "ls is denied by the new file");
	is_int(policy_check(p, rm).decision, POLICY_DENY, "so is rm");
	is_int(policy_check(p, mk).decision, POLICY_ALLOW,
	    "the remembered rule stays");
	is_str(old.rule, "allow ls", "a verdict of the old rules stays "
	    "readable");
	put_file(path, "deny ls\nallow 'broken\n");
	is_int(policy_reload_file(p, path, &n, &cause), -1,
	    "a broken file is refused");
	ok(cause != NULL && strstr(cause, "reload:2") != NULL,
	    "with file:line: %s", cause != NULL ? cause : "(none)");
	free(cause);
	cause = NULL;
	is_int(policy_check(p, rm).decision, POLICY_DENY,
	    "the rules before it stay in force");
	unlink(path);
	is_int(policy_reload_file(p, path, &n, &cause), 0,
	    "a removed file is no rules");
	is_int(policy_check(p, rm).decision, POLICY_ASK, "rm is asked again");
	policy_free(p);
	free(path);
}

/*
 * The known read-only list, one argv a row, in untrusted mode with no
 * rules: safe (allowed as known read-only) or not, and why.  For a row that
 * is not safe, why must appear in the verdict; for a safe one it says why
 * nothing in it runs or writes.
 */
struct known {
	const char	*argv[10];
	int		 safe;
	const char	*why;
};

static const struct known known[] = {
	/* ripgrep: --pre, --hostname-bin and -z run programs. */
	{ { "rg", "foo" }, 1, "searches only" },
	{ { "rg", "-n", "-i", "foo", "src" }, 1, "flags that only shape output" },
	{ { "rg", "--hostname-bin", "/tmp/x", "foo" }, 0,
	    "rg --hostname-bin runs a program" },
	{ { "rg", "--hostname-bin=/tmp/x", "foo" }, 0, "--hostname-bin" },
	{ { "rg", "-z", "foo" }, 0, "rg --search-zip runs decompression" },
	{ { "rg", "-iz", "foo" }, 0, "--search-zip" },
	{ { "rg", "--search-zip", "foo" }, 0, "--search-zip" },
	{ { "rg", "--pre", "sh", "foo" }, 0, "rg --pre runs a program" },
	{ { "rg", "--pre=sh", "foo" }, 0, "--pre" },
	{ { "rg", "-e", "z", "f" }, 1, "-e takes the pattern z" },
	{ { "rg", "-tz", "foo" }, 1, "-t takes the type z" },
	{ { "rg", "--no-search-zip", "foo" }, 1, "turns decompression off" },
	{ { "/usr/bin/rg", "--pre", "x", "y" }, 0, "--pre" },
	/* find: actions that run or write. */
	{ { "find", ".", "-name", "*.c" }, 1, "tests and -print" },
	{ { "find", ".", "-exec", "rm", "{}", ";" }, 0, "find -exec runs" },
	{ { "find", ".", "-execdir", "id", ";" }, 0, "find -execdir runs" },
	{ { "find", ".", "-ok", "id", ";" }, 0, "find -ok runs" },
	{ { "find", ".", "-okdir", "id", ";" }, 0, "find -okdir runs" },
	{ { "find", ".", "-delete" }, 0, "find -delete deletes" },
	{ { "find", ".", "-fprint", "o" }, 0, "find -fprint writes" },
	{ { "find", ".", "-fprint0", "o" }, 0, "find -fprint0 writes" },
	{ { "find", ".", "-fprintf", "o", "%p" }, 0, "find -fprintf writes" },
	{ { "find", ".", "-fls", "o" }, 0, "find -fls writes" },
	{ { "find", ".", "-newer", "x", "-ls" }, 1, "-ls prints" },
	/* sed: only printing scripts. */
	{ { "sed", "-n", "1,5p", "f" }, 1, "prints lines" },
	{ { "sed", "-i", "s/a/b/", "f" }, 0, "sed: an option or script" },
	{ { "sed", "--in-place=.b", "s/a/b/", "f" }, 0, "sed:" },
	{ { "sed", "--in", "s/a/b/", "f" }, 0, "sed:" },
	{ { "sed", "s/a/b/w out", "f" }, 0, "sed:" },
	{ { "sed", "s/a/id/e", "f" }, 0, "sed:" },
	{ { "sed", "e id", "f" }, 0, "sed:" },
	{ { "sed", "1W out", "f" }, 0, "sed:" },
	{ { "sed", "-f", "script", "f" }, 0, "sed:" },
	{ { "sed", "-s", "-n", "p", "f" }, 1, "-s separates files" },
	/* sort: -o writes, --compress-program runs (abbreviations too). */
	{ { "sort", "-u", "f" }, 1, "sorts to standard output" },
	{ { "sort", "-o", "f", "f" }, 0, "sort --output writes" },
	{ { "sort", "-uof", "f" }, 0, "--output" },
	{ { "sort", "--output=f" }, 0, "--output" },
	{ { "sort", "--out=f" }, 0, "--output" },
	{ { "sort", "--compress-program=sh" }, 0, "sort --compress-program runs" },
	{ { "sort", "--compress=sh" }, 0, "--compress-program" },
	{ { "sort", "-to", "f" }, 1, "-t takes the separator o" },
	{ { "sort", "-k2", "-T", "/tmp", "f" }, 1, "temporary files only" },
	/* tree: -o writes; -R writes 00Tree.html. */
	{ { "tree", "-L", "2" }, 1, "lists" },
	{ { "tree", "-o", "out" }, 0, "tree -o writes" },
	{ { "tree", "-ao", "out" }, 0, "tree -o" },
	{ { "tree", "-R", "-H", "." }, 0, "tree -R writes 00Tree.html" },
	{ { "tree", "-Po*" }, 1, "-P takes the pattern o*" },
	/* file: compiles, decompresses, drops its sandbox. */
	{ { "file", "x" }, 1, "reads" },
	{ { "file", "-C", "-m", "x" }, 0, "file --compile writes" },
	{ { "file", "--comp", "-m", "x" }, 0, "--compile" },
	{ { "file", "-z", "x.gz" }, 0, "file --uncompress may run" },
	{ { "file", "-Z", "x.gz" }, 0, "--uncompress-noreport" },
	{ { "file", "--uncompress", "x.gz" }, 0, "--uncompress" },
	{ { "file", "-S", "x" }, 0, "file --no-sandbox" },
	{ { "file", "-m", "magic", "x" }, 1, "reads a magic file" },
	/* date: -s sets the clock. */
	{ { "date", "+%s" }, 1, "prints" },
	{ { "date", "-Iseconds" }, 1, "-I takes the format seconds" },
	{ { "date", "-d", "yesterday" }, 1, "prints another date" },
	{ { "date", "-s", "2000-01-01" }, 0, "date --set sets the clock" },
	{ { "date", "-us", "2000-01-01" }, 0, "--set" },
	{ { "date", "--set=2000-01-01" }, 0, "--set" },
	{ { "date", "--se=2000-01-01" }, 0, "--set" },
	/* diff: -l runs pr. */
	{ { "diff", "-u", "a", "b" }, 1, "compares" },
	{ { "diff", "-l", "a", "b" }, 0, "diff --paginate runs pr" },
	{ { "diff", "-ul", "a", "b" }, 0, "--paginate" },
	{ { "diff", "--paginate", "a", "b" }, 0, "--paginate" },
	{ { "diff", "--pag", "a", "b" }, 0, "--paginate" },
	{ { "diff", "--to-file=b", "a" }, 1, "compares with b" },
	{ { "diff", "-Il", "a", "b" }, 1, "-I takes the pattern l" },
	/* jq reads and prints only: its modules (-L) are jq code. */
	{ { "jq", ".", "f.json" }, 1, "jq runs no program" },
	{ { "jq", "-L", "lib", "-f", "prog.jq" }, 1, "modules are jq code" },
	{ { "jq", "--rawfile", "x", "f", "." }, 1, "reads f" },
	/* hostname and env only alone. */
	{ { "hostname" }, 1, "prints the name" },
	{ { "hostname", "evil" }, 0, "hostname: only alone" },
	{ { "env" }, 1, "prints the environment" },
	{ { "env", "-i", "ls" }, 0, "env options not understood" },
	/* git: argv. */
	{ { "git", "status" }, 1, "an empty directory: no configuration" },
	{ { "git", "log", "--oneline" }, 1, "no configuration" },
	{ { "git", "log", "-p", "--textconv" }, 0,
	    "git log --textconv runs the programs" },
	{ { "git", "show", "--textconv", "HEAD" }, 0, "--textconv" },
	{ { "git", "diff", "--ext-diff" }, 0, "git diff --ext-diff runs" },
	{ { "git", "log", "--output=/tmp/x" }, 0, "git log --output writes" },
	{ { "git", "log", "--show-signature" }, 0, "signature checks run gpg" },
	{ { "git", "log", "--format=%G?" }, 0, "signature checks run gpg" },
	{ { "git", "log", "--pretty=format:%GS" }, 0, "gpg" },
	{ { "git", "-c", "core.pager=sh", "log" }, 0,
	    "git -c: a global option not known" },
	{ { "git", "--exec-path=/tmp", "status" }, 0, "git --exec-path=/tmp:" },
	{ { "git", "--git-dir=/tmp/x", "status" }, 0, "a global option" },
	{ { "git", "--config-env=core.pager=X", "log" }, 0, "a global option" },
	{ { "git", "-p", "log" }, 0, "a global option" },
	{ { "git", "--paginate", "log" }, 0, "a global option" },
	{ { "git", "grep", "-Ovim", "x" }, 0, "git grep -O runs a pager" },
	{ { "git", "grep", "--open-files-in-pager=x", "y" }, 0, "-O" },
	{ { "git", "grep", "--open-files-in", "y" }, 0, "git grep -O runs" },
	{ { "git", "grep", "-iO", "y" }, 0, "git grep -O runs" },
	{ { "git", "grep", "-eO", "y" }, 1, "-e takes the pattern O" },
	{ { "git", "grep", "--textc", "y" }, 0, "--textc runs the programs" },
	{ { "git", "grep", "--text", "y" }, 1, "--text is not --textconv" },
	{ { "git", "log", "--show-sig" }, 0, "signature checks run gpg" },
	{ { "git", "diff", "--outp=x" }, 0, "--output writes" },
	{ { "git", "push" }, 0, "git push: not a read-only subcommand" },
	{ { "git", "config", "core.pager", "x" }, 0, "not a read-only sub" },
	{ { "git", "difftool" }, 0, "not a read-only subcommand" },
	{ { "git", "branch", "x" }, 0, "git branch NAME creates a branch" },
	{ { "git", "branch", "-D", "x" }, 0, "git branch -D changes" },
	{ { "git", "remote", "add", "x", "y" }, 0, "only -v" },
	{ { "git", "-C", "/nonexistent/dir", "status" }, 1,
	    "no directory, no repository" },
	{ { "git", "--no-pager", "diff", "--stat" }, 1, "no configuration" },
	{ { "git" }, 0, "not a read-only subcommand" },
	/* The rest of the list: nothing in their manuals runs or writes. */
	{ { "ls", "-la" }, 1, "lists" },
	{ { "cat", "f" }, 1, "reads" },
	{ { "grep", "-rn", "x", "." }, 1, "GNU grep runs nothing" },
	{ { "wc", "--files0-from=f" }, 1, "reads names from f" },
	{ { "head", "-c", "10", "f" }, 1, "reads" },
	{ { "/bin/ls" }, 1, "a system directory" },
	{ { "./ls" }, 0, "not a known read-only command" },
	{ { "/tmp/cat", "x" }, 0, "not a known read-only command" },
	{ { "python3", "-c", "1" }, 0, "not a known read-only command" },
};

/* Every row of known[], with its reason. */
static void
test_known(void)
{
	struct policy		*p = policy_new(U);
	struct policy_verdict	 v;
	size_t			 i;
	char			*shown;

	for (i = 0; i < sizeof known / sizeof known[0]; i++) {
		const struct known	*k = &known[i];
		int			 safe;

		v = policy_check_at(p, (char *const *)k->argv, &place);
		safe = v.decision == ALLOW && v.source == POLICY_BY_KNOWN_SAFE;
		shown = quote_argv((char *const *)k->argv);
		if (!ok(safe == k->safe && (k->safe ||
		    strstr(v.why, k->why) != NULL),
		    "known %zu: %s: %s (%s)", i, shown, k->safe ? "safe" :
		    "not safe", k->why))
			diag("got %s (%s)", policy_decision_name(v.decision),
			    v.why);
		free(shown);
	}
	ok(i >= 100, "at least 100 argv in the table (%zu)", i);
	policy_free(p);
}

/* Write text to dir/name, making the directories on the way. */
static void
put(const char *dir, const char *name, const char *text)
{
	char	*path = xasprintf("%s/%s", dir, name), *cmd;
	FILE	*f;

	cmd = xasprintf("mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0)
		diag("mkdir for %s failed", path);
	free(cmd);
	if ((f = fopen(path, "w")) == NULL)
		fatal("%s", path);
	fputs(text, f);
	fclose(f);
	free(path);
}

/* A repository's files → git status safe or not, and why. */
struct gitcase {
	const char	*files[4][2];	/* name under the repo, contents */
	const char	*dir;		/* where git runs, under the repo */
	int		 safe;
	const char	*why;
};

#define CORE "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n" \
    "\tbare = false\n\tlogallrefupdates = true\n"

static const struct gitcase gitcases[] = {
	{ { { ".git/HEAD", "ref: refs/heads/main\n" },
	    { ".git/config", CORE "[remote \"origin\"]\n\turl = x\n"
	    "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	    "[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n"
	    "# a comment\n; another\n[user]\n\tname = \"A ; B\" # c\n" } },
	    ".", 1, "a fresh clone's configuration" },
	{ { { ".git/HEAD", "x\n" },
	    { ".git/config", CORE "\tfsmonitor = /tmp/hook\n" } },
	    ".", 0, ".git/config sets core.fsmonitor" },
	{ { { ".git/config", CORE "\tFsMonitor = /tmp/hook\n" } },
	    "sub/dir", 0, "sets core.fsmonitor" },
	{ { { ".git/config", CORE "\tpager = less\n" } }, ".", 0,
	    "sets core.pager" },
	{ { { ".git/config", "[pager]\n\tlog = sh -c x\n" } }, ".", 0,
	    "sets pager.log" },
	{ { { ".git/config", "[diff]\n\texternal = /tmp/x\n" } }, ".", 0,
	    "sets diff.external" },
	{ { { ".git/config", "[diff \"bin\"]\n\ttextconv = /tmp/x\n" },
	    { ".gitattributes", "* diff=bin\n" } }, ".", 0,
	    "sets diff.<name>.textconv" },
	{ { { ".git/config", "[diff \"cpp\"]\n\txfuncname = x\n" } }, ".", 1,
	    "a hunk header pattern runs nothing" },
	{ { { ".git/config", "[filter \"f\"]\n\tclean = /tmp/x\n" } }, ".", 0,
	    "sets filter.<name>.clean" },
	{ { { ".git/config", "[core]\n\thooksPath = /tmp/h\n" } }, ".", 0,
	    "sets core.hookspath" },
	{ { { ".git/config", "[core]\n\tsshCommand = x\n" } }, ".", 0,
	    "sets core.sshcommand" },
	{ { { ".git/config", "[credential]\n\thelper = x\n" } }, ".", 0,
	    "sets credential.helper" },
	{ { { ".git/config", "[alias]\n\tst = !sh\n" } }, ".", 0,
	    "sets alias.st" },
	{ { { ".git/config", "[include]\n\tpath = other\n" } }, ".", 0,
	    "sets include.path" },
	{ { { ".git/config", "[includeIf \"gitdir:/\"]\n\tpath = o\n" } }, ".",
	    0, "sets includeif.<name>.path" },
	{ { { ".git/config", "[log]\n\tshowSignature = true\n" } }, ".", 0,
	    "sets log.showsignature" },
	{ { { ".git/config", "[core] fsmonitor = x\n" } }, ".", 0,
	    "a line this check does not read" },
	{ { { ".git/config", "[core.x]\n\tfsmonitor = x\n" } }, ".", 0,
	    "sets core.<name>.fsmonitor" },
	{ { { ".git/config", "[user]\n\tname = a\\\n\tfsmonitor = x\n" } }, ".",
	    1, "a continued value is one value" },
	{ { { ".git/config", "\xef\xbb\xbf[core]\n\tbare = false\n" } }, ".", 1,
	    "a byte-order mark is skipped, as git does" },
	{ { { ".git/config.worktree", "[core]\n\tfsmonitor = x\n" } }, ".", 0,
	    "config.worktree sets core.fsmonitor" },
	{ { { ".git/hooks/post-index-change", "#!/bin/sh\n" } }, ".", 0,
	    "git status and diff may run this hook" },
	{ { { ".git/hooks/pre-commit.sample", "#!/bin/sh\n" } }, ".", 1,
	    "samples and commit hooks do not run on status" },
	{ { { ".git/modules/m/config", "[core]\n\tbare = false\n" } }, ".", 0,
	    "the repository has submodules" },
	{ { { ".git", "gitdir: elsewhere/wt\n" },
	    { "elsewhere/wt/commondir", "../main\n" },
	    { "elsewhere/main/config", "[core]\n\tfsmonitor = x\n" } },
	    ".", 0, "main/config sets core.fsmonitor" },
	{ { { ".git", "gitdir: elsewhere/wt\n" },
	    { "elsewhere/wt/config", "[core]\n\tbare = false\n" } },
	    ".", 1, "a linked worktree with a plain configuration" },
	{ { { ".git", "nonsense\n" } }, ".", 0, "not a gitdir file" },
	{ { { "bare/HEAD", "ref: refs/heads/main\n" },
	    { "bare/config", "[core]\n\tfsmonitor = x\n" } },
	    "bare", 0, "bare/config sets core.fsmonitor" },
	{ { { "inner/.git/HEAD", "x\n" },
	    { ".git/config", "[core]\n\tfsmonitor = x\n" } },
	    "inner", 0, "sets core.fsmonitor" },
	{ { { "home/.gitconfig", "[core]\n\tpager = x\n" } }, ".", 0,
	    ".gitconfig sets core.pager" },
	{ { { "home/.config/git/config", "[diff]\n\texternal = x\n" } }, ".", 0,
	    "git/config sets diff.external" },
	{ { { "system", "[credential]\n\thelper = x\n" } }, ".", 0,
	    "system sets credential.helper" },
};

/* A v2 index holding one entry of the given mode, name "m". */
static void
put_index(const char *path, unsigned mode)
{
	unsigned char	b[12 + 64 + 20];
	FILE		*f;

	memset(b, 0, sizeof b);
	memcpy(b, "DIRC", 4);
	b[7] = 2;
	b[11] = 1;
	b[12 + 24] = (unsigned char)(mode >> 24);
	b[12 + 25] = (unsigned char)(mode >> 16);
	b[12 + 26] = (unsigned char)(mode >> 8);
	b[12 + 27] = (unsigned char)mode;
	b[12 + 61] = 1;		/* name length */
	b[12 + 62] = 'm';
	if ((f = fopen(path, "w")) == NULL)
		fatal("%s", path);
	fwrite(b, 1, sizeof b, f);
	fclose(f);
}

/* Write n bytes to path. */
static void
put_bytes(const char *path, const unsigned char *b, size_t n)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL)
		fatal("%s", path);
	fwrite(b, 1, n, f);
	fclose(f);
}

/*
 * Hostile configuration and index files from a fixed seed: every one is
 * judged (ASan watches the reading); every truncation of a configuration
 * that still holds the whole key fsmonitor is asked.
 */
static void
test_git_hostile(const char *tmp)
{
	static const char	 plain[] = "[core]\n\tbare = false\n"
				    "[remote \"o\"]\n\turl = \"x;y\" # c\n"
				    "[core]\n\tfsmonitor = x";
	struct policy		*p = policy_new(U);
	struct policy_place	 pl;
	struct policy_verdict	 v;
	char			*gs[] = { "git", "status", NULL };
	char			*root = xasprintf("%s/hostile", tmp), *cfg, *idx;
	unsigned char		 b[512];
	size_t			 i, k, n, judged = 0, wrong = 0;
	unsigned int		 seed = 20;

	put(root, ".git/HEAD", "x\n");
	cfg = xasprintf("%s/.git/config", root);
	idx = xasprintf("%s/.git/index", root);
	pl.cwd = root;
	pl.home = NULL;
	pl.system_config = "/nonexistent";
	for (i = 0; i < 400; i++) {
		n = strlen(plain);
		memcpy(b, plain, n);
		if (i < n)
			n = i;			/* every truncation */
		else
			for (k = 0; k < 1 + (size_t)(rand_r(&seed) % 4); k++)
				b[rand_r(&seed) % n] = (unsigned char)
				    rand_r(&seed);
		put_bytes(cfg, b, n);
		v = policy_check_at(p, gs, &pl);
		judged++;
		if (i < strlen(plain) && v.source == POLICY_BY_KNOWN_SAFE &&
		    i >= (size_t)(strstr(plain, "fsmonitor") - plain) + 9)
			wrong++;
	}
	unlink(cfg);
	for (i = 0; i < 400; i++) {
		n = 12 + rand_r(&seed) % (sizeof b - 12);
		for (k = 0; k < n; k++)
			b[k] = (unsigned char)rand_r(&seed);
		memcpy(b, "DIRC", 4);
		b[4] = b[5] = b[6] = 0;
		b[7] = (unsigned char)(2 + i % 3);
		b[8] = b[9] = b[10] = 0;
		b[11] = (unsigned char)(i % 7);
		put_bytes(idx, b, n);
		(void)policy_check_at(p, gs, &pl);
		judged++;
	}
	is_int((int)judged, 800, "800 hostile configurations and indexes "
	    "judged");
	is_int((int)wrong, 0, "no truncation holding fsmonitor taken for safe");
	free(cfg);
	free(idx);
	free(root);
	policy_free(p);
}

/*
 * git status in repositories planted with settings that run programs: asked
 * with the file and the key named; plain ones allowed.
 */
static void
test_git_repo(const char *tmp)
{
	struct policy		*p = policy_new(U);
	struct policy_verdict	 v;
	struct policy_place	 pl;
	char			*gs[] = { "git", "status", NULL };
	char			*root, *home, *sys, *cwd, *cmd, *path;
	size_t			 i, k;

	for (i = 0; i < sizeof gitcases / sizeof gitcases[0]; i++) {
		const struct gitcase	*c = &gitcases[i];

		root = xasprintf("%s/repo%zu", tmp, i);
		home = xasprintf("%s/home", root);
		sys = xasprintf("%s/system", root);
		cmd = xasprintf("mkdir -p '%s/%s' '%s'", root, c->dir, home);
		if (system(cmd) != 0)
			diag("mkdir failed");
		free(cmd);
		for (k = 0; k < 4 && c->files[k][0] != NULL; k++)
			put(root, c->files[k][0], c->files[k][1]);
		cwd = xasprintf("%s/%s", root, c->dir);
		pl.cwd = cwd;
		pl.home = home;
		pl.system_config = sys;
		v = policy_check_at(p, gs, &pl);
		if (!ok((v.source == POLICY_BY_KNOWN_SAFE) == c->safe &&
		    (c->safe || strstr(v.why, c->why) != NULL),
		    "git repo %zu: %s: %s", i, c->safe ? "safe" : "asked",
		    c->why))
			diag("got %s (%s)", policy_decision_name(v.decision),
			    v.why);
		free(root);
		free(home);
		free(sys);
		free(cwd);
	}

	/* The index: a gitlink (submodule) is a risk, a file is not. */
	root = xasprintf("%s/idx", tmp);
	path = xasprintf("%s/.git/index", root);
	put(root, ".git/HEAD", "x\n");
	pl.cwd = root;
	pl.home = NULL;
	pl.system_config = "/nonexistent";
	put_index(path, 0100644);
	v = policy_check_at(p, gs, &pl);
	is_int(v.source, POLICY_BY_KNOWN_SAFE, "an index of files is no risk");
	put_index(path, 0160000);
	v = policy_check_at(p, gs, &pl);
	ok(v.decision == ASK && strstr(v.why, "has submodules") != NULL,
	    "an index with a gitlink: asked (%s)", v.why);
	unlink(path);
	/* A FIFO for a configuration is never read (it would block). */
	free(path);
	path = xasprintf("%s/.git/config", root);
	if (mkfifo(path, 0600) == 0) {
		v = policy_check_at(p, gs, &pl);
		ok(v.decision == ASK && strstr(v.why, "not a regular file") !=
		    NULL, "a FIFO for .git/config: asked at once (%s)", v.why);
		unlink(path);
	} else
		tap_skip(1, "mkfifo failed");
	/* -C moves where git looks. */
	put(root, "other/.git/config", "[core]\n\tpager = x\n");
	{
		char	*gc[] = { "git", "-C", "other", "log", NULL };

		v = policy_check_at(p, gc, &pl);
		ok(v.decision == ASK && strstr(v.why, "other/.git/config sets "
		    "core.pager") != NULL, "git -C DIR looks in DIR (%s)",
		    v.why);
	}
	free(path);
	free(root);
	policy_free(p);
}

/*
 * Secret variables: each word in any case and place, the providers' names
 * the words miss, the settings the words catch, and plumbing that passes.
 */
static void
test_env_secret(void)
{
	static const struct {
		const char	*var;
		bool		 secret;
	} secrets[] = {
		{ "MY_API_KEY=x", true }, { "key", true }, { "ApiKeyFile", true },
		{ "CLIENT_SECRET=x", true }, { "secretly", true },
		{ "SOME_TOKEN=x", true }, { "tokenfile", true },
		{ "DB_PASSWORD=x", true }, { "Password", true },
		{ "LDAP_PASSWD=x", true }, { "MY_CREDENTIALS=x", true },
		{ "Credential_file", true },
		{ "OpenAI_Api_Key=sk-x", true }, { "github_token", true },
		{ "AWS_ACCESS_KEY_ID=x", true }, { "MYSQL_PWD=x", true },
		{ "mysql_pwd", true }, { "GITHUB_PAT=x", true },
		{ "AZURE_STORAGE_CONNECTION_STRING=x", true },
		{ "DOCKER_AUTH_CONFIG=x", true }, { "CI_JOB_JWT=x", true },
		{ "SLACK_WEBHOOK_URL=https://x", true },
		/* A name is compared whole, not as a prefix of another. */
		{ "MYSQL_PWDX=x", false }, { "GITHUB_PATH=/x", false },
		{ "KEYTIMEOUT=1", false }, { "keytimeout=1", true },
		{ "TOKENIZERS_PARALLELISM=false", false },
		{ "GNOME_KEYRING_CONTROL=/run/user/1/keyring", false },
		{ "GIT_CONFIG_KEY_0=core.pager", false },
		{ "GIT_CONFIG_KEY_12=x", false }, { "GIT_CONFIG_KEY_=x", true },
		{ "GIT_CONFIG_KEY_1X=x", true }, { "git_config_key_0=x", true },
		{ "SSH_AUTH_SOCK=/tmp/a", false },
		{ "DBUS_SESSION_BUS_ADDRESS=unix:path=/x", false },
		{ "XDG_SESSION_ID=3", false }, { "XDG_SESSION_TYPE=tty", false },
		{ "GPG_TTY=/dev/pts/1", false }, { "PATH=/bin", false },
		{ "HOME", false }, { "KE=Y", false }, { "", false },
		/* Only the name counts: a value may say anything. */
		{ "PLAIN=my_secret_token", false },
	};
	size_t	i;

	for (i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
		ok(policy_env_secret(secrets[i].var) == secrets[i].secret,
		    "secret variable: '%s' %s", secrets[i].var,
		    secrets[i].secret ? "is one" : "is not");
}

/* The verdict on an exec inside a session: rules only, every name. */
static void
test_exec(void)
{
	struct policy		*p = policy_new(POLICY_UNTRUSTED);
	struct policy_verdict	 v;
	char			*cause = NULL, **names;
	char *const		 curl[] = { "curl", "-s", "x", NULL };
	char *const		 abs[] = { "/usr/bin/curl", "x", NULL };
	char *const		 innocent[] = { "innocent", "x", NULL };
	char *const		 push[] = { "git", "push", "origin", NULL };
	char *const		 status[] = { "git", "status", NULL };
	char *const		 ld[] = { "/lib64/ld-linux-x86-64.so.2",
				    "--library-path", "/l", "/usr/bin/curl",
				    "x", NULL };
	char *const		 ld_opts[] = { "ld.so", "--list", NULL };
	const char *const	 alias[] = { "curl", NULL };

	ok(!policy_has_exec_rules(p), "no rules: exec checks not needed");
	is_int(policy_load_string(p, "deny curl **\nask git push **\n"
	    "allow git **\nallow connect example.org:443\nask 'a*' **\n",
	    "rules", &cause), 0, "exec rules load");
	ok(policy_has_exec_rules(p), "a deny rule: exec checks needed");
	v = policy_check_exec(p, curl, "/usr/bin/curl", NULL, false);
	ok(v.decision == POLICY_DENY && v.source == POLICY_BY_RULE &&
	    strcmp(v.rule, "deny curl **") == 0, "curl: denied by its rule");
	v = policy_check_exec(p, abs, "/usr/bin/curl", NULL, false);
	is_int(v.decision, POLICY_DENY, "/usr/bin/curl: its last component");
	v = policy_check_exec(p, innocent, "/usr/bin/curl", NULL, false);
	is_int(v.decision, POLICY_DENY, "exec -a: the file's name counts");
	v = policy_check_exec(p, innocent, "/w/renamed", alias, false);
	is_int(v.decision, POLICY_DENY, "a copy: the alias counts");
	v = policy_check_exec(p, innocent, "/w/renamed", NULL, false);
	ok(v.decision == POLICY_ALLOW && v.source == POLICY_BY_MODE,
	    "no rule names it: covered by the approval");
	v = policy_check_exec(p, innocent, "/w/renamed", NULL, true);
	ok(v.decision == POLICY_ASK && v.source == POLICY_BY_MODE,
	    "strict: asked");
	v = policy_check_exec(p, push, "/usr/bin/git", NULL, false);
	ok(v.decision == POLICY_ASK && strcmp(v.rule, "ask git push **") ==
	    0, "git push: ask beats allow git **");
	v = policy_check_exec(p, status, "/usr/bin/git", NULL, true);
	ok(v.decision == POLICY_ALLOW && v.source == POLICY_BY_RULE,
	    "git status: allowed by a rule, strict or not");
	v = policy_check_exec(p, ld, "/lib64/ld-linux-x86-64.so.2", NULL,
	    false);
	is_int(v.decision, POLICY_DENY, "the loader on curl: curl's rule");
	is_int(policy_loader_program(ld), 3, "the loader's program, after "
	    "an option with a value");
	is_int(policy_loader_program(ld_opts), 0, "no program: 0");
	ok(policy_is_loader("/lib/ld-linux-aarch64.so.1") &&
	    policy_is_loader("/lib64/ld-2.31.so") &&
	    !policy_is_loader("/usr/bin/ld") && !policy_is_loader(NULL),
	    "loaders known by name");
	names = policy_exec_names(p);
	ok(strv_len(names) == 2 && strcmp(names[0], "curl") == 0 &&
	    strcmp(names[1], "git") == 0,
	    "programs named: literal first words of deny and ask rules");
	strv_free(names);
	policy_free(p);
}

int
main(void)
{
	char	tmpl[] = "/tmp/test-policy.XXXXXX";
	char	*cmd;

	if (mkdtemp(tmpl) == NULL) {
		ok(0, "mkdtemp");
		return tap_done();
	}
	place.cwd = tmpl;
	place.home = tmpl;
	place.system_config = "/nonexistent/gitconfig";
	test_rows();
	test_known();
	test_git_repo(tmpl);
	test_git_hostile(tmpl);
	test_verdict_fields();
	test_errors();
	test_files(tmpl);
	test_remember(tmpl);
	test_quote();
	test_env_secret();
	test_modes();
	test_reload(tmpl);
	test_exec();
	cmd = xasprintf("rm -rf '%s'", tmpl);
	if (system(cmd) != 0)
		diag("could not remove %s", tmpl);
	free(cmd);
	return tap_done();
}
