/*
 * shsplit.h - a conservative splitter for POSIX shell command strings.
 *
 * It understands words, single quotes, double quotes, backslash escapes,
 * comments and the separators && || ; | and newline, and nothing else: it
 * never expands anything.  What it does not understand it reports instead of
 * guessing, so the policy can ask a person about it:
 *
 * - per simple command, a "problem" when the command's real argv cannot be
 *   known from the text or the command does more than run argv: $ expansion
 *   of any kind, backquotes, redirections (except fd duplication such as
 *   2>&1 and output to /dev/null, which touch no file), subshells and
 *   groups, brace expansion, filename globs, tilde expansion, variable
 *   assignments, shell keywords, background &, |&;
 * - for the whole string, an "error" when it is not well formed (an
 *   unterminated quote, an empty command before an operator, a trailing
 *   operator, a here-document): then no command can be trusted.
 *
 * Even commands with a problem keep their best-effort words, so that deny
 * rules still see them.  Every word keeps a mask saying which of its bytes
 * were quoted; the rules file uses the same lexer in SHSPLIT_RULE mode,
 * where quoted glob characters become literal.
 */
#ifndef PTYVISOR_SHSPLIT_H
#define PTYVISOR_SHSPLIT_H

#include <stddef.h>

/* Rules-file mode: one line, no operators, '$' is literal, $'...' decoded. */
#define SHSPLIT_RULE	0x1

/* One word: its bytes (NUL-terminated) and which of them were quoted. */
struct shsplit_word {
	char		*text;
	unsigned char	*quoted;	/* len flags, 1 = quoted or escaped */
	size_t		 len;
};

/* One simple command. */
struct shsplit_cmd {
	struct shsplit_word	*words;
	size_t			 nwords;
	const char		*problem;	/* static; NULL when plain */
};

/* The result of splitting a string.  Plain value; free with shsplit_free. */
struct shsplit {
	struct shsplit_cmd	*cmds;
	size_t			 ncmds;
	const char		*error;		/* static; NULL when well formed */
};

/*
 * Split s into simple commands.  Always returns a result (caller frees it
 * with shsplit_free); check ->error first.  In SHSPLIT_RULE mode the result
 * has at most one command and any operator is an error.
 */
struct shsplit	*shsplit_parse(const char *s, int flags);
void		 shsplit_free(struct shsplit *sp);

/*
 * Turn a word into an fnmatch(3) pattern: unquoted glob characters stay
 * globs, quoted ones are escaped.  Caller frees.
 */
char		*shsplit_pattern(const struct shsplit_word *w);

/* Does the word consist of exactly these unquoted bytes? */
int		 shsplit_word_is(const struct shsplit_word *w, const char *s);

/*
 * The argv of a command line a person edited (the approval prompt, the web
 * page): its words when it is one plain command (our own $'...' quoting
 * read back too), else the line run by /bin/sh -c.  Caller frees with
 * strv_free.
 */
char		**shsplit_edited_argv(const char *line);


#endif
