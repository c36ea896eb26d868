/*
 * shsplit.c - conservative shell command splitter (see shsplit.h).
 *
 * One pass over the string with a small state: the word being built (bytes
 * plus a quoted mask), the command being built, and a pending redirection
 * whose target is the next word.  Invariants: a command's problem is the
 * first one met and is never cleared; once ->error is set the pass stops;
 * nothing is ever expanded or executed.
 */
#include "policy/shsplit.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/util.h"

/* Redirection waiting for its target word. */
enum shsplit_redir {
	REDIR_NONE,
	REDIR_DUP,		/* >& or <&: harmless when the target is a fd */
	REDIR_OUT,		/* > or >>: harmless only to /dev/null */
	REDIR_OTHER		/* <, <>, >|: always a problem */
};

struct shsplit_state {
	struct shsplit		*sp;
	int			 flags;
	struct buf		 text;
	struct buf		 mask;
	int			 in_word;
	struct shsplit_cmd	 cmd;
	enum shsplit_redir	 redir;
	const char		*need_cmd;	/* operator that wants a command */
};

/* Record the first problem of the current command. */
static void
shsplit_problem(struct shsplit_state *st, const char *why)
{
	if (st->cmd.problem == NULL)
		st->cmd.problem = why;
}

/* Add one byte to the current word. */
static void
shsplit_add(struct shsplit_state *st, char c, int quoted)
{
	buf_addc(&st->text, c);
	buf_addc(&st->mask, quoted ? 1 : 0);
	st->in_word = 1;
}

/* Is the current word all unquoted digits (an io number like the 2 in 2>)? */
static int
shsplit_word_is_fd(struct shsplit_state *st)
{
	size_t	i;

	if (!st->in_word || st->text.len == 0)
		return 0;
	for (i = 0; i < st->text.len; i++) {
		if (st->mask.data[i] || !isdigit((unsigned char)st->text.data[i]))
			return 0;
	}
	return 1;
}

/* Forget the current word without keeping it. */
static void
shsplit_drop_word(struct shsplit_state *st)
{
	st->text.len = 0;
	st->mask.len = 0;
	st->in_word = 0;
}

/* Finish the current word: a redirection target or a new argv word. */
static void
shsplit_end_word(struct shsplit_state *st)
{
	struct shsplit_word	*w;
	struct shsplit_word	 tmp;
	size_t			 i;
	int			 digits;

	if (!st->in_word)
		return;
	tmp.len = st->text.len;
	tmp.text = xstrndup(st->text.data != NULL ? st->text.data : "",
	    st->text.len);
	tmp.quoted = xmalloc(tmp.len + 1);
	if (tmp.len > 0)
		memcpy(tmp.quoted, st->mask.data, tmp.len);
	shsplit_drop_word(st);

	if (st->redir != REDIR_NONE) {
		digits = tmp.len > 0;
		for (i = 0; i < tmp.len; i++) {
			if (tmp.quoted[i] || !isdigit((unsigned char)tmp.text[i]))
				digits = 0;
		}
		if (st->redir == REDIR_DUP && !digits)
			shsplit_problem(st, "redirection to a file");
		else if (st->redir == REDIR_OUT &&
		    !shsplit_word_is(&tmp, "/dev/null"))
			shsplit_problem(st, "redirection to a file");
		else if (st->redir == REDIR_OTHER)
			shsplit_problem(st, "redirection");
		st->redir = REDIR_NONE;
		free(tmp.text);
		free(tmp.quoted);
		return;
	}
	st->cmd.words = xreallocarray(st->cmd.words, st->cmd.nwords + 1,
	    sizeof *st->cmd.words);
	w = &st->cmd.words[st->cmd.nwords++];
	*w = tmp;
}

/* Words that start a compound command or otherwise are not plain argv. */
static const char *shsplit_keywords[] = {
	"if", "then", "else", "elif", "fi", "do", "done", "case", "esac",
	"while", "until", "for", "in", "function", "select", "time", "coproc",
	"!", "[[", "]]", "{", "}", NULL
};

/* Is w a variable assignment (NAME=...) with an unquoted name? */
static int
shsplit_is_assignment(const struct shsplit_word *w)
{
	size_t	i;

	if (w->len == 0 || w->quoted[0] ||
	    !(isalpha((unsigned char)w->text[0]) || w->text[0] == '_'))
		return 0;
	for (i = 1; i < w->len; i++) {
		if (w->quoted[i])
			return 0;
		if (w->text[i] == '=')
			return 1;
		if (!isalnum((unsigned char)w->text[i]) && w->text[i] != '_')
			return 0;
	}
	return 0;
}

/* Look for expansions the lexer cannot see byte by byte: globs, braces, ~. */
static void
shsplit_check_word(struct shsplit_state *st, const struct shsplit_word *w)
{
	size_t	i, j;

	if (w->len > 0 && !w->quoted[0] && w->text[0] == '~')
		shsplit_problem(st, "tilde expansion");
	for (i = 0; i < w->len; i++) {
		if (w->quoted[i])
			continue;
		switch (w->text[i]) {
		case '*':
		case '?':
			shsplit_problem(st, "filename glob");
			break;
		case '[':
			for (j = i + 1; j < w->len; j++) {
				if (!w->quoted[j] && w->text[j] == ']') {
					shsplit_problem(st, "filename glob");
					break;
				}
			}
			break;
		case '{':
			for (j = i + 1; j < w->len; j++) {
				if (w->quoted[j])
					continue;
				if (w->text[j] == '}')
					break;
				if (w->text[j] == ',' || (w->text[j] == '.' &&
				    j + 1 < w->len && w->text[j + 1] == '.')) {
					shsplit_problem(st, "brace expansion");
					break;
				}
			}
			break;
		}
	}
}

/* Finish the current command; sep is the operator that ends it, or NULL. */
static void
shsplit_end_cmd(struct shsplit_state *st, const char *sep, int needs_next)
{
	struct shsplit	*sp = st->sp;
	size_t		 i, first;
	const char	**kw;

	shsplit_end_word(st);
	if (st->redir != REDIR_NONE) {
		sp->error = "redirection without a target";
		return;
	}
	if (st->cmd.nwords == 0 && st->cmd.problem == NULL) {
		/* Blank lines are fine; "; ls", "a && || b" and "a |" are not. */
		if (needs_next >= 0)
			sp->error = "empty command before an operator";
		else if (st->need_cmd != NULL && sep == NULL)
			sp->error = "ends with an operator";
		return;
	}

	/* Leading assignments change the environment: keep the rest. */
	for (first = 0; !(st->flags & SHSPLIT_RULE) &&
	    first < st->cmd.nwords &&
	    shsplit_is_assignment(&st->cmd.words[first]); first++)
		shsplit_problem(st, "variable assignment");
	if (first > 0) {
		for (i = 0; i < first; i++) {
			free(st->cmd.words[i].text);
			free(st->cmd.words[i].quoted);
		}
		memmove(st->cmd.words, st->cmd.words + first,
		    (st->cmd.nwords - first) * sizeof *st->cmd.words);
		st->cmd.nwords -= first;
	}
	if (st->cmd.nwords > 0 && !(st->flags & SHSPLIT_RULE)) {
		for (kw = shsplit_keywords; *kw != NULL; kw++) {
			if (shsplit_word_is(&st->cmd.words[0], *kw))
				shsplit_problem(st, "shell keyword");
		}
	}
	for (i = 0; i < st->cmd.nwords && !(st->flags & SHSPLIT_RULE); i++)
		shsplit_check_word(st, &st->cmd.words[i]);
	if (st->cmd.nwords == 0)
		shsplit_problem(st, "variable assignment");

	sp->cmds = xreallocarray(sp->cmds, sp->ncmds + 1, sizeof *sp->cmds);
	sp->cmds[sp->ncmds++] = st->cmd;
	memset(&st->cmd, 0, sizeof st->cmd);
	st->need_cmd = needs_next > 0 ? sep : NULL;
}

/* Decode $'...' starting at the quote; returns the index after it or 0. */
static size_t
shsplit_ansi_c(struct shsplit_state *st, const char *s, size_t i)
{
	char		enc[4];
	uint32_t	cp;
	size_t		len, k;
	int		v, d, n, max;

	for (i++; s[i] != '\0' && s[i] != '\''; i++) {
		if (s[i] != '\\') {
			shsplit_add(st, s[i], 1);
			continue;
		}
		i++;
		switch (s[i]) {
		case 'a': shsplit_add(st, '\a', 1); break;
		case 'b': shsplit_add(st, '\b', 1); break;
		case 'e':
		case 'E': shsplit_add(st, '\033', 1); break;
		case 'f': shsplit_add(st, '\f', 1); break;
		case 'n': shsplit_add(st, '\n', 1); break;
		case 'r': shsplit_add(st, '\r', 1); break;
		case 't': shsplit_add(st, '\t', 1); break;
		case 'v': shsplit_add(st, '\v', 1); break;
		case '\\':
		case '\'':
		case '"':
		case '?': shsplit_add(st, s[i], 1); break;
		case 'x':
			v = 0;
			for (n = 0; n < 2 && (d = util_hex_value(s[i + 1])) >= 0;
			    n++, i++)
				v = v * 16 + d;
			if (n == 0 || v == 0)
				return 0;
			shsplit_add(st, (char)v, 1);
			break;
		case 'u':
		case 'U':
			/* A code point, as bash: up to 4 (u) or 8 (U) digits. */
			max = s[i] == 'u' ? 4 : 8;
			cp = 0;
			for (n = 0; n < max && (d = util_hex_value(s[i + 1])) >= 0;
			    n++, i++)
				cp = cp * 16 + (uint32_t)d;
			if (n == 0 || cp == 0 || cp > 0x10ffff ||
			    (cp >= 0xd800 && cp <= 0xdfff))
				return 0;
			len = utf8_put(cp, enc);
			for (k = 0; k < len; k++)
				shsplit_add(st, enc[k], 1);
			break;
		default:
			if (s[i] < '0' || s[i] > '7')
				return 0;
			v = 0;
			for (n = 0; n < 3 && s[i] >= '0' && s[i] <= '7';
			    n++, i++)
				v = v * 8 + (s[i] - '0');
			i--;
			if (v == 0 || v > 255)
				return 0;
			shsplit_add(st, (char)v, 1);
			break;
		}
	}
	if (s[i] != '\'')
		return 0;
	return i + 1;
}

/* Handle a '$' outside single quotes; returns 1 when it starts $'...'. */
static int
shsplit_dollar(struct shsplit_state *st, const char *s, size_t i, int in_dq)
{
	char	n = s[i + 1];

	if (st->flags & SHSPLIT_RULE)
		return !in_dq && n == '\'';
	if (n == '(')
		shsplit_problem(st, "command substitution $(...)");
	else if (n == '\'' && !in_dq)
		shsplit_problem(st, "ANSI-C quoting $'...'");
	else if (n == '"' && !in_dq)
		shsplit_problem(st, "locale quoting $\"...\"");
	else if (n == '{' || n == '_' || isalnum((unsigned char)n) ||
	    strchr("@*#?$!-", n) != NULL)
		shsplit_problem(st, "variable expansion $...");
	return !in_dq && n == '\'';
}

/* Lex an unquoted operator at s[i]; returns how many bytes it used. */
static size_t
shsplit_operator(struct shsplit_state *st, const char *s, size_t i)
{
	char	c = s[i], n = s[i + 1];
	int	is_fd;

	if (st->flags & SHSPLIT_RULE) {
		st->sp->error = "unquoted shell operator (quote it)";
		return 1;
	}
	if (c == '<' || c == '>') {
		is_fd = shsplit_word_is_fd(st);
		if (is_fd)
			shsplit_drop_word(st);
		else
			shsplit_end_word(st);
		if (st->redir != REDIR_NONE) {
			st->sp->error = "redirection without a target";
			return 1;
		}
		if (c == '<' && n == '<') {
			st->sp->error = "here-document";
			return 2;
		}
		if (n == '&') {
			st->redir = REDIR_DUP;
			return 2;
		}
		if (c == '>' && n == '>') {
			st->redir = REDIR_OUT;
			return 2;
		}
		if (c == '>' && n != '|') {
			st->redir = REDIR_OUT;
			return 1;
		}
		st->redir = REDIR_OTHER;
		return (n == '|' || n == '>') ? 2 : 1;
	}
	shsplit_end_word(st);
	switch (c) {
	case '\n':
		shsplit_end_cmd(st, "newline", -1);
		return 1;
	case ';':
		if (n == ';') {
			st->sp->error = "';;' outside case";
			return 2;
		}
		shsplit_end_cmd(st, ";", 0);
		return 1;
	case '&':
		if (n == '&') {
			shsplit_end_cmd(st, "&&", 1);
			return 2;
		}
		if (n == '>') {
			shsplit_problem(st, "redirection");
			st->redir = REDIR_OTHER;
			return 2;
		}
		shsplit_problem(st, "background &");
		shsplit_end_cmd(st, "&", 0);
		return 1;
	case '|':
		if (n == '|') {
			shsplit_end_cmd(st, "||", 1);
			return 2;
		}
		if (n == '&') {
			shsplit_problem(st, "pipe of stderr |&");
			shsplit_end_cmd(st, "|&", 1);
			return 2;
		}
		shsplit_end_cmd(st, "|", 1);
		return 1;
	default:	/* ( or ) */
		shsplit_problem(st, "subshell or grouping ( )");
		return 1;
	}
}

struct shsplit *
shsplit_parse(const char *s, int flags)
{
	struct shsplit_state	 st;
	struct shsplit		*sp;
	size_t			 i, j;
	char			 c;

	sp = xcalloc(1, sizeof *sp);
	memset(&st, 0, sizeof st);
	st.sp = sp;
	st.flags = flags;

	i = 0;
	while (sp->error == NULL && (c = s[i]) != '\0') {
		if (c == ' ' || c == '\t') {
			shsplit_end_word(&st);
			i++;
		} else if (c == '#' && !st.in_word) {
			while (s[i] != '\0' && s[i] != '\n')
				i++;
		} else if (c == '\\') {
			if (s[i + 1] == '\0') {
				sp->error = "ends with a backslash";
				break;
			}
			if (s[i + 1] != '\n')
				shsplit_add(&st, s[i + 1], 1);
			i += 2;
		} else if (c == '\'') {
			for (j = i + 1; s[j] != '\0' && s[j] != '\''; j++)
				shsplit_add(&st, s[j], 1);
			if (s[j] == '\0') {
				sp->error = "unterminated single quote";
				break;
			}
			st.in_word = 1;
			i = j + 1;
		} else if (c == '"') {
			for (j = i + 1; s[j] != '\0' && s[j] != '"'; j++) {
				if (s[j] == '\\' && s[j + 1] != '\0' &&
				    strchr("$`\"\\\n", s[j + 1]) != NULL) {
					if (s[j + 1] != '\n')
						shsplit_add(&st, s[j + 1], 1);
					j++;
					continue;
				}
				if (s[j] == '$')
					shsplit_dollar(&st, s, j, 1);
				else if (s[j] == '`' && !(flags & SHSPLIT_RULE))
					shsplit_problem(&st,
					    "command substitution `...`");
				shsplit_add(&st, s[j], 1);
			}
			if (s[j] == '\0') {
				sp->error = "unterminated double quote";
				break;
			}
			st.in_word = 1;
			i = j + 1;
		} else if (c == '$' && shsplit_dollar(&st, s, i, 0)) {
			j = shsplit_ansi_c(&st, s, i + 1);
			if (j == 0) {
				sp->error = "bad $'...' quoting";
				break;
			}
			st.in_word = 1;
			i = j;
		} else if (strchr(";&|<>()\n", c) != NULL) {
			i += shsplit_operator(&st, s, i);
		} else {
			if (c == '`' && !(flags & SHSPLIT_RULE))
				shsplit_problem(&st, "command substitution `...`");
			shsplit_add(&st, c, 0);
			i++;
		}
	}
	if (sp->error == NULL)
		shsplit_end_cmd(&st, NULL, -1);
	if (st.cmd.words != NULL || st.cmd.nwords != 0) {
		for (j = 0; j < st.cmd.nwords; j++) {
			free(st.cmd.words[j].text);
			free(st.cmd.words[j].quoted);
		}
		free(st.cmd.words);
	}
	buf_free(&st.text);
	buf_free(&st.mask);
	if (sp->error != NULL) {
		/* A malformed string yields no commands to judge. */
		for (i = 0; i < sp->ncmds; i++) {
			for (j = 0; j < sp->cmds[i].nwords; j++) {
				free(sp->cmds[i].words[j].text);
				free(sp->cmds[i].words[j].quoted);
			}
			free(sp->cmds[i].words);
		}
		free(sp->cmds);
		sp->cmds = NULL;
		sp->ncmds = 0;
	}
	return sp;
}

void
shsplit_free(struct shsplit *sp)
{
	size_t	i, j;

	if (sp == NULL)
		return;
	for (i = 0; i < sp->ncmds; i++) {
		for (j = 0; j < sp->cmds[i].nwords; j++) {
			free(sp->cmds[i].words[j].text);
			free(sp->cmds[i].words[j].quoted);
		}
		free(sp->cmds[i].words);
	}
	free(sp->cmds);
	free(sp);
}

char *
shsplit_pattern(const struct shsplit_word *w)
{
	struct buf	b;
	size_t		i;

	memset(&b, 0, sizeof b);
	for (i = 0; i < w->len; i++) {
		if (w->quoted[i] && strchr("*?[]\\", w->text[i]) != NULL)
			buf_addc(&b, '\\');
		buf_addc(&b, w->text[i]);
	}
	buf_cstr(&b);
	return b.data;
}

int
shsplit_word_is(const struct shsplit_word *w, const char *s)
{
	size_t	i;

	if (w->len != strlen(s))
		return 0;
	for (i = 0; i < w->len; i++) {
		if (w->quoted[i] || w->text[i] != s[i])
			return 0;
	}
	return 1;
}

/* The argv of an edited command line (shsplit.h). */
char **
shsplit_edited_argv(const char *line)
{
	struct shsplit	*sp;
	char		**argv = NULL;
	size_t		  i;
	int		  pass;

	/* Plain shell words first; $'...' (our own quoting) as a rule. */
	for (pass = 0; pass < 2 && argv == NULL; pass++) {
		if (pass == 1 && strstr(line, "$'") == NULL)
			break;
		sp = shsplit_parse(line, pass == 0 ? 0 : SHSPLIT_RULE);
		if (sp->error == NULL && sp->ncmds == 1 &&
		    sp->cmds[0].problem == NULL && sp->cmds[0].nwords > 0) {
			argv = xcalloc(sp->cmds[0].nwords + 1, sizeof *argv);
			for (i = 0; i < sp->cmds[0].nwords; i++)
				argv[i] = xstrdup(sp->cmds[0].words[i].text);
		}
		shsplit_free(sp);
	}
	if (argv == NULL) {
		argv = xcalloc(4, sizeof *argv);
		argv[0] = xstrdup("/bin/sh");
		argv[1] = xstrdup("-c");
		argv[2] = xstrdup(line);
	}
	return argv;
}
