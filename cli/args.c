/*
 * args.c - read a sub-command's words by the options of its entry (see
 * args.h): getopt_long() over a spec built from the entry's tables, or
 * whole words matched one by one (ARGS_EXACT); the messages for what it
 * refuses.
 *
 * Invariant: nothing here exits or keeps state between calls; getopt's
 * globals are reset at the start of every getopt_long() parse.
 */
#include "cli/args.h"

#include <assert.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/cli.h"
#include "cli/commands.h"

/* Options of one command, all tables together (the longest has ~30). */
#define ARGS_MAX	64
/* getopt_long()'s value for the long option at index i of the spec. */
#define ARGS_LONG_VAL	256

/* Print what a command says of an unknown option (the word as written). */
static void
args_unknown(const struct cmd_entry *e, const char *word)
{
	if (e->flags & ARGS_SEE_HELP)
		cli_error(e->name, "unknown option '%s' (see 'ptyvisor %s "
		    "--help')", word, e->name);
	else
		cli_error(e->name, "unknown option '%s'", word);
}

/* Print what a command says of a problem with a value (its own cause). */
static void
args_cause(const struct cmd_entry *e, const char *cause)
{
	cli_error(e->name, "%s%s", e->cause_prefix != NULL ? e->cause_prefix :
	    "", cause);
}

/*
 * The value of option o is missing from word: named as o is (its long
 * name when the word is one) or as an unknown word, as e says.
 */
static void
args_missing(const struct cmd_entry *e, const struct args_option *o,
    const char *word)
{
	const char	*needs = e->needs != NULL ? e->needs : "a value";
	char		*cause;

	if (!(e->flags & ARGS_NAME_MISSING)) {
		args_unknown(e, word);
		return;
	}
	if (o->name != NULL && (o->letter == 0 || strncmp(word, "--", 2) == 0))
		cause = xasprintf("--%s needs %s", o->name, needs);
	else
		cause = xasprintf("-%c needs %s", o->letter, needs);
	args_cause(e, cause);
	free(cause);
}

/* Hand option o (and its value) to the command; ARGS_GO_ON, or a status. */
static int
args_hand(const struct cmd_entry *e, const struct args_option *o,
    const char *value, void *state)
{
	char	*cause = NULL;
	int	 r;

	if (o->key == ARGS_HELP) {
		e->usage(stdout);
		return 0;
	}
	assert(e->option != NULL);
	/* An option that is the whole command (mcp --print-config). */
	if ((r = e->option(state, o->key, value, &cause)) > 0)
		return r - 1;
	if (r != 0) {
		assert(cause != NULL);
		args_cause(e, cause);
		free(cause);
		return CLI_EXIT_ERROR;
	}
	return ARGS_GO_ON;
}

int
args_match(const struct args_option *table, int argc, char **argv, int *i,
    const struct args_option **o, const char **value, char **cause)
{
	const char	*w = argv[*i];
	size_t		 len;

	for (*o = table; (*o)->name != NULL || (*o)->letter != 0; (*o)++) {
		if ((*o)->name != NULL && strncmp(w, "--", 2) == 0 &&
		    strncmp(w + 2, (*o)->name, len = strlen((*o)->name)) == 0) {
			if (w[2 + len] == '=' && (*o)->value) {
				*value = w + 3 + len;
				++*i;
				return 1;
			}
			if (w[2 + len] == '\0')
				break;
		}
		if ((*o)->letter != 0 && w[0] == '-' &&
		    w[1] == (*o)->letter && w[2] == '\0')
			break;
	}
	if ((*o)->name == NULL && (*o)->letter == 0)
		return 0;
	*value = NULL;
	if ((*o)->value) {
		if (*i + 1 >= argc) {
			*cause = (*o)->name != NULL && w[1] == '-' ?
			    xasprintf("--%s needs a value", (*o)->name) :
			    xasprintf("-%c needs a value", (*o)->letter);
			return -1;
		}
		*value = argv[++*i];
	}
	++*i;
	return 1;
}

/* ARGS_EXACT: each word matched whole against every table. */
static int
args_exact(const struct cmd_entry *e, int argc, char **argv, void *state,
    struct args_end *end)
{
	const struct args_option	*o = NULL;
	const char			*value;
	char				*cause = NULL;
	bool				 bare = e->flags & ARGS_BARE;
	size_t				 t;
	int				 i = 1, r = 0, rc;

	while (i < argc) {
		if (strcmp(argv[i], "--") == 0 && !bare) {
			end->dashdash = true;
			i++;
			break;
		}
		/* ARGS_BARE: --name=VALUE is no option (no name holds '='). */
		if (bare && strncmp(argv[i], "--", 2) == 0 &&
		    strchr(argv[i], '=') != NULL)
			break;
		for (t = 0, r = 0; r == 0 && e->options[t] != NULL; t++)
			r = args_match(e->options[t], argc, argv, &i, &o,
			    &value, &cause);
		if (r < 0) {
			free(cause);
			args_missing(e, o, argv[i]);
			return CLI_EXIT_ERROR;
		}
		if (r > 0) {
			if ((rc = args_hand(e, o, value, state)) != ARGS_GO_ON)
				return rc;
			continue;
		}
		if (e->flags & ARGS_ANYWHERE) {
			i++;
			continue;
		}
		if (argv[i][0] == '-' && !bare) {
			args_unknown(e, argv[i]);
			return CLI_EXIT_ERROR;
		}
		break;
	}
	end->first = e->flags & ARGS_ANYWHERE ? 1 : i;
	return ARGS_GO_ON;
}

/* The option getopt_long() returned as c. */
static const struct args_option *
args_found(const struct args_option **spec, size_t n, int c)
{
	size_t	i;

	if (c >= ARGS_LONG_VAL)
		return spec[c - ARGS_LONG_VAL];
	for (i = 0; i < n; i++)
		if (spec[i]->letter == c)
			return spec[i];
	return NULL;
}

/* getopt_long()'s way, with the spec built from every table. */
static int
args_getopt(const struct cmd_entry *e, int argc, char **argv, void *state,
    struct args_end *end)
{
	const struct args_option	*spec[ARGS_MAX], *o, *t;
	struct option			 longs[ARGS_MAX + 1];
	char				 shorts[3 + 2 * ARGS_MAX], *p = shorts;
	size_t				 n = 0, nl = 0, i;
	int				 c, rc;

	/* "+": stop at the first operand; ":": tell a missing value apart. */
	if (!(e->flags & ARGS_PERMUTE))
		*p++ = '+';
	*p++ = ':';
	for (i = 0; e->options[i] != NULL; i++) {
		for (t = e->options[i]; t->name != NULL || t->letter != 0;
		    t++) {
			assert(n < ARGS_MAX);
			spec[n] = t;
			if (t->name != NULL)
				longs[nl++] = (struct option){ t->name,
				    t->value ? required_argument : no_argument,
				    NULL, ARGS_LONG_VAL + (int)n };
			if (t->letter != 0) {
				*p++ = (char)t->letter;
				if (t->value)
					*p++ = ':';
			}
			n++;
		}
	}
	*p = '\0';
	memset(&longs[nl], 0, sizeof longs[nl]);

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		o = c == '?' ? NULL : args_found(spec, n,
		    c == ':' ? optopt : c);
		if (o == NULL) {
			args_unknown(e, argv[optind - 1]);
			return CLI_EXIT_ERROR;
		}
		if (c == ':') {
			args_missing(e, o, argv[optind - 1]);
			return CLI_EXIT_ERROR;
		}
		if ((rc = args_hand(e, o, optarg, state)) != ARGS_GO_ON)
			return rc;
	}
	end->first = optind;
	return ARGS_GO_ON;
}

int
args_parse(const struct cmd_entry *e, int argc, char **argv, void *state,
    struct args_end *end)
{
	end->first = argc;
	end->dashdash = false;
	if (e->flags & ARGS_EXACT)
		return args_exact(e, argc, argv, state, end);
	return args_getopt(e, argc, argv, state, end);
}
