/*
 * rules.c - the rules file (see policy.h): one rule a line, parsed with
 * shsplit in SHSPLIT_RULE mode; loading a file or a string; remembering
 * rules, from an argv or from a line a person typed; appending the
 * remembered rules not yet saved to the file.
 *
 * Invariants: rules are only ever appended, each in its own allocation, so
 * the strings a verdict points at stay valid until policy_free(); a file
 * that fails to parse adds no rule at all; a rules file is read only up to
 * POLICY_MAX_FILE bytes; remembered rules are saved in one write.
 */
#include "policy/rules.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/quote.h"
#include "policy/policy-int.h"
#include "policy/shsplit.h"
#include "base/util.h"

/* A rules file is a few hundred lines; this only stops a runaway file. */
#define POLICY_MAX_FILE		(4 * 1024 * 1024)

/* Free one rule. */
void
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
	p->generation++;
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
		quote_word(&b, prefix[i]);
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

/*
 * Append the remembered rules not yet saved (only that one when only is
 * not NULL) to the rules file at path, in one write; their count or -1.
 */
static int
policy_save_rules(struct policy *p, const char *path,
    const struct policy_rule *only, char **cause)
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
		if (!p->rules[i]->remembered || p->rules[i]->saved ||
		    (only != NULL && p->rules[i] != only))
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
		if (p->rules[i]->remembered &&
		    (only == NULL || p->rules[i] == only))
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

int
policy_save_remembered(struct policy *p, const char *path, char **cause)
{
	return policy_save_rules(p, path, NULL, cause);
}

int
policy_remember_saved(struct policy *p, const char *line, const char *path,
    char **cause)
{
	if (policy_remember_line(p, line, cause) != 0)
		return -1;
	/* policy_remember_line appended it last. */
	return policy_save_rules(p, path, p->rules[p->nrules - 1], cause) < 0 ?
	    1 : 0;
}
