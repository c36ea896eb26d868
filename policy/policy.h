/*
 * policy.h - decide whether a command runs, is asked about, or is refused.
 *
 * Rules (one a line, '#' comments, words quoted as in the shell):
 *
 *	allow  git status
 *	allow  git diff **
 *	deny   rm -rf **
 *	ask    **
 *
 * A rule matches an argv word by word; each word is an fnmatch(3) glob
 * (quoted glob characters are literal); an unquoted final "**" matches any
 * remaining words, none included.  Every matching rule counts and deny
 * beats ask beats allow; when no rule matches, the approval mode decides:
 * untrusted (allow a built-in list of read-only commands, ask the rest),
 * on-request (ask) or never (allow).  A filtered network's host is judged
 * by the rules whose first word is literally "connect" (allow connect
 * pypi.org:443), and by no others (policy_check_host).
 *
 * Shell strings (sh/bash/dash/zsh/ksh/mksh -c STRING, also behind "env") are
 * split by shsplit into simple commands which are judged one by one and
 * combined (any deny → deny, any ask → ask).  A string that cannot be
 * parsed, or a command in it whose argv is not known before it runs ($...,
 * backquotes, globs, redirections, subshells...), is asked about in the
 * untrusted and on-request modes; in never mode nothing is asked, but deny
 * rules still see the best-effort words.  A rule matching the whole outer
 * argv (say "allow bash -lc 'make test'") stands for the whole string; only
 * rules matching an inner command can then override it.
 *
 * Commands are recognised (read-only list, shells, env) only by a bare name
 * or a path in /bin, /usr/bin or /usr/local/bin: ./ls is some other program.
 *
 * A known read-only command is one that runs no other program and writes
 * nothing, given its argv and what it reads where it runs: options that run
 * or write are refused by name, and git counts only in a repository whose
 * configuration (system, global, the repository's own) holds nothing but
 * settings known to run no program (doc/policy.md).  That is why a check
 * takes the place the command would run in.
 *
 * Every verdict says what decided it; those strings are owned by the policy
 * (or static) and live until policy_free().
 */
#ifndef PTYVISOR_POLICY_H
#define PTYVISOR_POLICY_H

#include <stdbool.h>
#include <stddef.h>

/* Decisions in order of strength: the strongest of several wins. */
enum policy_decision {
	POLICY_ALLOW,
	POLICY_ASK,
	POLICY_DENY
};

enum policy_mode {
	POLICY_UNTRUSTED,
	POLICY_ON_REQUEST,
	POLICY_NEVER
};

/* What decided a verdict. */
enum policy_source {
	POLICY_BY_RULE,		/* a rule from a file or remembered */
	POLICY_BY_MODE,		/* no rule matched: the mode's fallback */
	POLICY_BY_KNOWN_SAFE,	/* untrusted mode, built-in read-only list */
	POLICY_BY_SHELL		/* a shell string the splitter cannot vouch for */
};

/* A verdict.  Plain value; the strings belong to the policy. */
struct policy_verdict {
	enum policy_decision	 decision;
	enum policy_source	 source;
	/* One line for a person, e.g. "rule 'deny rm -rf **' (rules:4)". */
	const char		*why;
	/* POLICY_BY_RULE: the rule as written and "file:line"; else NULL. */
	const char		*rule;
	const char		*where;
};

/*
 * Where a command would run: what the known read-only check reads (git's
 * configuration and hooks).  Plain value.
 */
struct policy_place {
	const char	*cwd;		/* NULL: ours */
	const char	*home;		/* HOME the command sees; NULL: none */
	const char	*system_config;	/* NULL: /etc/gitconfig */
};

struct policy;

/*
 * Whether a variable (NAME or NAME=VALUE) can change which program a
 * command runs or what a known program runs in turn: PATH, HOME, the
 * shells' start-up and parsing variables, pagers and editors, GIT_*,
 * LESS*, the interpreters' paths and options.  The loader's LD_* and
 * PTYVISOR_* are not among them: a session never gets those from a caller.
 */
bool	policy_env_steers(const char *var);

/*
 * Whether a variable (NAME or NAME=VALUE) is named as a secret is: its name
 * holds KEY, SECRET, TOKEN, PASSWORD, PASSWD or CREDENTIAL in any case, or
 * is a known provider's (AWS_ACCESS_KEY_ID, GITHUB_TOKEN, MYSQL_PWD,
 * SLACK_WEBHOOK_URL...).  A few names the words catch that hold settings
 * by definition are not (KEYTIMEOUT, TOKENIZERS_PARALLELISM,
 * GNOME_KEYRING_CONTROL); nor are sockets such as SSH_AUTH_SOCK.
 * doc/policy.md, "Secret variables", gives the reasons.
 */
bool	policy_env_secret(const char *var);

/*
 * The steering variables (above) that caller, an agent's whole
 * environment, sets to another value than base (the server's) or that
 * base lacks, as "NAME=VALUE" in caller's order; NULL when none.  One the
 * agent leaves unset steers nothing its way.  Caller frees (strv_free).
 */
char	**policy_env_differs(char *const *caller, char *const *base);

/* A policy with no rules in the given mode.  Never NULL. */
struct policy	*policy_new(enum policy_mode mode);
void		 policy_free(struct policy *p);

enum policy_mode policy_mode(const struct policy *p);
void		 policy_set_mode(struct policy *p, enum policy_mode mode);

/* "untrusted", "on-request", "never" ↔ the mode; parse returns -1 if none. */
int		 policy_mode_parse(const char *s, enum policy_mode *mode);
const char	*policy_mode_name(enum policy_mode mode);
/* "allow", "ask", "deny". */
const char	*policy_decision_name(enum policy_decision d);

/*
 * Append the rules of a file.  A missing file is no rules (returns 0).  On
 * any error nothing is added and *cause says "path:line: problem" (or
 * "path: strerror"); the caller frees it.
 */
int		 policy_load_file(struct policy *p, const char *path,
		     char **cause);

/*
 * Append the rules of a text; name stands for the file in messages and in
 * verdicts.  Same error behaviour as policy_load_file.
 */
int		 policy_load_string(struct policy *p, const char *text,
		     const char *name, char **cause);

/*
 * Read the rules file at path again (it changed): its rules replace the
 * ones it gave before; remembered rules stay.  On any error nothing
 * changes and *cause says "path:line: problem"; a missing file is no
 * rules.  *count gets the number of rules it now gives.
 */
int		 policy_reload_file(struct policy *p, const char *path,
		     size_t *count, char **cause);

/*
 * Judge a command line (argv non-empty, NULL-terminated) as it would run at
 * place (NULL: in our directory with our HOME).  Reads files (git's
 * configuration) but never runs or writes anything.
 */
struct policy_verdict policy_check_at(const struct policy *p,
		     char *const *argv, const struct policy_place *place);

/* Told each simple command of a shell string (argv may be empty). */
typedef void	(*policy_part_fn)(void *user, char *const *argv,
		    struct policy_verdict v);

/*
 * policy_check_at(), telling part (when not NULL) the verdict of each
 * simple command of the first shell string met (sh -c STRING), in order.
 */
struct policy_verdict policy_check_parts(const struct policy *p,
		     char *const *argv, const struct policy_place *place,
		     policy_part_fn part, void *user);

/*
 * The variables a command allowed as known read-only runs with, on top of
 * its environment: git's settings that run a program on status, log, diff
 * or show (core.fsmonitor, hooks, pagers...) turned off, so a configuration
 * changed between the check and the start runs none of them (doc/policy.md).
 * NULL-terminated, static.
 */
char *const	*policy_known_safe_env(void);

/*
 * Judge an exec inside a running session (policy/exec.c): argv as the
 * program received it, file the one executed (absolute; may be NULL),
 * aliases the names of rules' programs found to be that very file (a
 * copy or a link of it; NULL-ended, may be NULL).  Only rules count,
 * matched against argv with its first word as given, as its last path
 * component, as file, as file's last component and as each alias (a
 * renamed program or `exec -a` does not hide it), and, when file is the
 * dynamic loader, against the program it is told to run.  Deny beats ask
 * beats allow; no rule: allowed (what was approved covers the programs it
 * starts), or asked when strict.
 */
struct policy_verdict policy_check_exec(const struct policy *p,
		     char *const *argv, const char *file,
		     const char *const *aliases, bool strict);

/*
 * The programs the deny and ask rules name (a first word without glob
 * characters), each once; NULL-ended, strv_free.  With the generation,
 * which changes whenever the rules do, a caller keeps what it found of
 * them (the file each names) until they change.
 */
char		**policy_exec_names(const struct policy *p);
unsigned long	 policy_generation(const struct policy *p);

/*
 * Whether any rule (not a "connect" one) denies or asks: then every exec
 * inside an agent's session must be checked.
 */
bool		 policy_has_exec_rules(const struct policy *p);

/*
 * Where the program a dynamic loader is told to run starts in its argv
 * (argv[0] the loader, then its options), or 0 when it names none.
 */
size_t		 policy_loader_program(char *const *argv);

/* Whether path names the dynamic loader (ld-linux*.so*, ld.so...). */
bool		 policy_is_loader(const char *path);

/* policy_check_at() in our directory with our HOME. */
struct policy_verdict policy_check(const struct policy *p, char *const *argv);

/*
 * Is argv a shell running a command string (sh -c STRING)?  1 and *script
 * when it is, 0 when it is not or has options this code does not know.
 */
int		 policy_shell_string(char *const *argv, const char **script);

/*
 * Remember an allow rule for the words of prefix taken literally, followed
 * by "**" when rest is true (so longer argvs match too).  The rule counts
 * at once and is saved by policy_save_remembered.  Returns -1 with *cause
 * for an empty prefix.
 */
int		 policy_remember(struct policy *p, char *const *prefix,
		     bool rest, char **cause);

/*
 * Remember a rule written as in the rules file (the approval prompt lets a
 * person edit it), e.g. "allow npm run test **".  -1 with *cause when the
 * line does not parse or holds no rule.
 */
int		 policy_remember_line(struct policy *p, const char *line,
		     char **cause);

/*
 * Remember the rule line (as policy_remember_line) and append that rule
 * alone to the rules file at path (as policy_save_remembered), other
 * remembered rules left unsaved.  0 when remembered and saved, 1 when
 * remembered but not saved (*cause says why), -1 with *cause when the
 * line does not parse.
 */
int		 policy_remember_saved(struct policy *p, const char *line,
		     const char *path, char **cause);

/*
 * The rules' verdict on a filtered network's connection to hostport
 * ("HOST:PORT", as a "connect" request names it): only rules whose first
 * word is literally "connect" count, deny beating ask beating allow; no
 * mode, no other rule.  False (v untouched) when none matches.
 */
bool		 policy_check_host(const struct policy *p,
		     const char *hostport, struct policy_verdict *v);

/* How many remembered rules policy_save_remembered has yet to write. */
int		 policy_unsaved(const struct policy *p);

/*
 * Append the remembered rules not yet saved to the rules file at path, in
 * one write: the parent directory is created 0700 and the file 0600 when
 * missing, a newline is added first when the file does not end with one.
 * Returns the number of rules written (0 when none), -1 with *cause.
 */
int		 policy_save_remembered(struct policy *p, const char *path,
		     char **cause);


#endif
