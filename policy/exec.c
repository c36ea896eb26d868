/*
 * exec.c - the verdict on an exec inside a running session (exec checks):
 * the rules only, against every name the program goes by.
 *
 * What a person approved covers the programs it starts, so only rules
 * change the answer: a deny or ask rule naming a program applies at every
 * depth.  A rule's first word is matched against the argv[0] the program
 * was given, its last component, the file executed and that file's last
 * component; a dynamic loader run on a program (ld.so /usr/bin/curl) is
 * judged as that program too.  Pure: reads nothing.
 */
#include "policy/policy.h"
#include "policy/policy-int.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The most names one exec is matched under (aliases beyond are ignored). */
#define EXEC_NAMES 12

/* The dynamic loader's options that take a value. */
static const char *const exec_loader_valued[] = {
	"--library-path", "--inhibit-rpath", "--audit", "--preload",
	"--argv0", "--glibc-hwcaps-prefix", "--glibc-hwcaps-mask",
};

/* The last component of a path. */
static const char *
exec_base(const char *path)
{
	const char	*s = strrchr(path, '/');

	return s != NULL && s[1] != '\0' ? s + 1 : path;
}

bool
policy_is_loader(const char *path)
{
	const char	*b;

	if (path == NULL)
		return false;
	b = exec_base(path);
	return fnmatch("ld-linux*.so*", b, 0) == 0 ||
	    fnmatch("ld-*.so*", b, 0) == 0 || strcmp(b, "ld.so") == 0 ||
	    fnmatch("ld64.so*", b, 0) == 0;
}

size_t
policy_loader_program(char *const *argv)
{
	size_t	i, k;

	if (argv == NULL || argv[0] == NULL)
		return 0;
	for (i = 1; argv[i] != NULL; i++) {
		if (strcmp(argv[i], "--") == 0)
			return argv[i + 1] != NULL ? i + 1 : 0;
		if (strncmp(argv[i], "--", 2) != 0)
			return i;
		for (k = 0; k < sizeof exec_loader_valued /
		    sizeof exec_loader_valued[0]; k++)
			if (strcmp(argv[i], exec_loader_valued[k]) == 0)
				break;
		if (k < sizeof exec_loader_valued / sizeof exec_loader_valued[0]
		    && argv[++i] == NULL)
			return 0;
	}
	return 0;
}

/* Where rule r stands among p's rules. */
static size_t
exec_rank(const struct policy *p, const struct policy_rule *r)
{
	size_t	i;

	for (i = 0; i < p->nrules && p->rules[i] != r; i++)
		;
	return i;
}

/* Whether a rule's first pattern is a literal word (no glob, no quote). */
static bool
exec_literal(const struct policy_rule *r)
{
	return r->npats > 0 && strpbrk(r->pats[0], "*?[\\") == NULL;
}

static int
exec_word_cmp(const void *a, const void *b)
{
	const struct policy_xword	*x = a, *y = b;
	int				 c = strcmp(x->word, y->word);

	if (c != 0)
		return c;
	return x->rule < y->rule ? -1 : x->rule > y->rule;
}

/* Index the rules by their first word, when they changed. */
static struct policy_xindex *
exec_index(const struct policy *p)
{
	struct policy_xindex	*x = p->xindex;
	size_t			 i;

	if (x->built && x->generation == p->generation)
		return x;
	free(x->words);
	free(x->globbed);
	x->words = xcalloc(p->nrules + 1, sizeof *x->words);
	x->globbed = xcalloc(p->nrules + 1, sizeof *x->globbed);
	x->nwords = x->nglobbed = 0;
	for (i = 0; i < p->nrules; i++) {
		if (p->rules[i]->retired)
			continue;
		if (exec_literal(p->rules[i])) {
			x->words[x->nwords].word = p->rules[i]->pats[0];
			x->words[x->nwords++].rule = i;
		} else
			x->globbed[x->nglobbed++] = i;
	}
	qsort(x->words, x->nwords, sizeof *x->words, exec_word_cmp);
	x->generation = p->generation;
	x->built = true;
	return x;
}

/*
 * Rule i against v (argc words): the strongest so far in *best, the
 * first in the file winning a tie (as every other verdict does).
 */
static void
exec_try(const struct policy *p, size_t i, char *const *v, size_t argc,
    const struct policy_rule **best)
{
	const struct policy_rule	*r = p->rules[i];

	if (!policy_rule_matches(r, v, argc))
		return;
	if (*best == NULL || r->action > (*best)->action ||
	    (r->action == (*best)->action && exec_rank(p, r) <
	    exec_rank(p, *best)))
		*best = r;
}

/*
 * The strongest rule matching argv with its first word as name: the
 * rules whose first word is name (found in the index), and those whose
 * first word is a pattern.
 */
static void
exec_match(const struct policy *p, char *const *argv, size_t argc,
    const char *name, const struct policy_rule **best)
{
	struct policy_xindex	*x = exec_index(p);
	char			**v;
	size_t			  lo = 0, hi = x->nwords, mid, i;

	v = xcalloc(argc + 1, sizeof *v);
	memcpy(v, argv, argc * sizeof *v);
	v[0] = (char *)name;
	/* The first entry whose word is not below name. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(x->words[mid].word, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < x->nwords && strcmp(x->words[i].word, name) == 0; i++)
		exec_try(p, x->words[i].rule, v, argc, best);
	for (i = 0; i < x->nglobbed; i++)
		exec_try(p, x->globbed[i], v, argc, best);
	free(v);
}

/* Match argv under each distinct name it goes by. */
static void
exec_match_names(const struct policy *p, char *const *argv,
    const char *file, const char *const *aliases,
    const struct policy_rule **best)
{
	const char	*names[EXEC_NAMES];
	size_t		 n = 0, i, k, argc = strv_len(argv);

	if (argc == 0)
		return;
	names[n++] = argv[0];
	names[n++] = exec_base(argv[0]);
	if (file != NULL) {
		names[n++] = file;
		names[n++] = exec_base(file);
	}
	for (i = 0; aliases != NULL && aliases[i] != NULL && n < EXEC_NAMES;
	    i++)
		names[n++] = aliases[i];
	for (i = 0; i < n; i++) {
		for (k = 0; k < i && strcmp(names[k], names[i]) != 0; k++)
			;
		if (k == i)
			exec_match(p, argv, argc, names[i], best);
	}
}

/* Whether rule r denies or asks about a program (not a host). */
static bool
exec_rule(const struct policy_rule *r)
{
	return !r->retired && r->action != POLICY_ALLOW &&
	    (r->npats == 0 || strcmp(r->pats[0], "connect") != 0);
}

char **
policy_exec_names(const struct policy *p)
{
	char		**v = xcalloc(p->nrules + 1, sizeof *v);
	const char	 *w;
	size_t		  i, k, n = 0;

	for (i = 0; i < p->nrules; i++) {
		if (!exec_rule(p->rules[i]) || p->rules[i]->npats == 0)
			continue;
		w = p->rules[i]->pats[0];
		if (w[0] == '\0' || strpbrk(w, "*?[\\") != NULL)
			continue;
		for (k = 0; k < n && strcmp(v[k], w) != 0; k++)
			;
		if (k == n)
			v[n++] = xstrdup(w);
	}
	return v;
}

unsigned long
policy_generation(const struct policy *p)
{
	return p->generation;
}

bool
policy_has_exec_rules(const struct policy *p)
{
	size_t	i;

	for (i = 0; i < p->nrules; i++)
		if (exec_rule(p->rules[i]))
			return true;
	return false;
}

struct policy_verdict
policy_check_exec(const struct policy *p, char *const *argv,
    const char *file, const char *const *aliases, bool strict)
{
	const struct policy_rule	*best = NULL;
	struct policy_verdict		 v;
	size_t				 prog;

	memset(&v, 0, sizeof v);
	if (argv == NULL || argv[0] == NULL) {
		v.decision = strict ? POLICY_ASK : POLICY_ALLOW;
		v.source = POLICY_BY_MODE;
		v.why = strict ? "strict: an exec without arguments" :
		    "no argument at all";
		return v;
	}
	exec_match_names(p, argv, file, aliases, &best);
	if (policy_is_loader(file) || policy_is_loader(argv[0])) {
		prog = policy_loader_program(argv);
		if (prog > 0)
			exec_match_names(p, argv + prog, argv[prog], NULL,
			    &best);
	}
	if (best != NULL) {
		v.decision = best->action;
		v.source = POLICY_BY_RULE;
		v.why = best->why;
		v.rule = best->text;
		v.where = best->where;
		return v;
	}
	v.source = POLICY_BY_MODE;
	v.decision = strict ? POLICY_ASK : POLICY_ALLOW;
	v.why = strict ? "strict exec checks: no rule allows this program" :
	    "no rule names it: the approved command covers it";
	return v;
}
