/*
 * test-args.c - the sub-commands' option parser (cli/args.c): both ways of
 * reading words, the order options are handed on, and the exact message
 * and status for each mistake.
 */
#include "cli/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "tests/tap.h"

/* What the fake command was handed, and what went to stderr. */
static struct buf	got;
static char		err[512];
static FILE		*err_file;

enum { K_JSON = 1, K_COUNT, K_NAME, K_STRING, K_BAD, K_PATH, K_DONE };

static const struct args_option own[] = {
	ARGS_HELP_OPTION,
	{ "json", 0, false, K_JSON },
	{ NULL, 'n', true, K_COUNT },
	{ "name", 0, true, K_NAME },
	{ NULL, 'c', true, K_STRING },
	{ "bad", 0, true, K_BAD },
	{ "path", 'p', true, K_PATH },
	{ "done", 0, true, K_DONE },
	ARGS_END
};
static const struct args_option more[] = {
	{ "verbose", 'v', false, 'v' },
	ARGS_END
};
static const struct args_option *const tables[] = { own, more, NULL };

/* The fake command's option(): notes each, refuses --bad's value "x". */
static int
test_option(void *state, int key, const char *value, char **cause)
{
	(void)state;
	/* The whole command, as mcp --print-config: its status is value. */
	if (key == K_DONE) {
		buf_printf(&got, "done=%s;", value);
		return ARGS_DONE(atoi(value));
	}
	if (key == K_BAD && strcmp(value, "x") == 0) {
		*cause = xasprintf("--bad: '%s' is wrong", value);
		return -1;
	}
	buf_printf(&got, "%d=%s;", key, value != NULL ? value : "-");
	return 0;
}

static void
test_usage(FILE *f)
{
	buf_adds(&got, "usage;");
	(void)f;
}

static struct cmd_entry entry = {
	.name = "demo",
	.options = tables,
	.usage = test_usage,
	.option = test_option,
};

/*
 * Parse the words of line (split at spaces) by entry with flags; the
 * status, and *first where the operands begin.
 */
static int
parse(int flags, const char *line, int *first, bool *dashdash)
{
	struct args_end	 end;
	char		*copy = xstrdup(line), *argv[32], *w, *save = NULL;
	int		 argc = 0, rc;
	size_t		 n;

	argv[argc++] = (char *)"demo";
	for (w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	entry.flags = flags;
	got.len = 0;
	buf_cstr(&got);
	fflush(stderr);
	ftruncate(fileno(err_file), 0);
	rewind(err_file);
	rc = args_parse(&entry, argc, argv, NULL, &end);
	fflush(stderr);
	rewind(err_file);
	n = fread(err, 1, sizeof err - 1, err_file);
	err[n] = '\0';
	if (n > 0 && err[n - 1] == '\n')
		err[n - 1] = '\0';
	buf_cstr(&got);
	if (first != NULL)
		*first = rc == ARGS_GO_ON ? end.first : -1;
	if (dashdash != NULL)
		*dashdash = end.dashdash;
	free(copy);
	return rc;
}

/* getopt_long()'s way: GNU rules, order kept, the first mistake decides. */
static void
test_getopt(void)
{
	int	first;

	is_int(parse(0, "--json -n5 --name=a -c x y z", &first, NULL),
	    ARGS_GO_ON, "getopt: options read");
	is_str(got.data, "1=-;2=5;3=a;4=x;", "getopt: each handed in order");
	is_int(first, 6, "getopt: operands after them");
	parse(0, "--js --na b -vn 3", &first, NULL);
	is_str(got.data, "1=-;3=b;118=-;2=3;",
	    "getopt: prefixes, clusters, a second table");
	parse(0, "x --json", &first, NULL);
	is_str(got.data, "", "getopt: the first operand ends the options");
	is_int(first, 1, "getopt: ... and is the first operand");
	parse(ARGS_PERMUTE, "x --json", &first, NULL);
	is_str(got.data, "1=-;", "ARGS_PERMUTE: options after an operand");
	is_int(first, 2, "ARGS_PERMUTE: operands moved to the end");
	parse(0, "-- --json", &first, NULL);
	is_int(first, 2, "getopt: -- ends the options");

	is_int(parse(0, "--json --done 3 --bogus", NULL, NULL), 3,
	    "ARGS_DONE: an option that is the whole command gives its status");
	is_str(got.data, "1=-;done=3;", "ARGS_DONE: nothing read after it");
	is_str(err, "", "ARGS_DONE: what follows it is not refused");
	is_int(parse(0, "--done 0", NULL, NULL), 0, "ARGS_DONE: status 0");
	is_int(parse(0, "--json --help --bogus", NULL, NULL), 0,
	    "getopt: --help exits 0");
	is_str(got.data, "1=-;usage;", "getopt: usage after what came first");
	is_str(err, "", "getopt: nothing on stderr after --help");
	is_int(parse(0, "--bogus --help", NULL, NULL), CLI_EXIT_ERROR,
	    "getopt: an unknown option first exits 125");
	is_str(err, "ptyvisor demo: unknown option '--bogus'",
	    "getopt: unknown option named");
	parse(ARGS_SEE_HELP, "-x", NULL, NULL);
	is_str(err, "ptyvisor demo: unknown option '-x' (see 'ptyvisor demo "
	    "--help')", "ARGS_SEE_HELP: where the help is");
	parse(0, "--json=1", NULL, NULL);
	is_str(err, "ptyvisor demo: unknown option '--json=1'",
	    "getopt: a flag given a value is unknown");
	parse(0, "--name", NULL, NULL);
	is_str(err, "ptyvisor demo: unknown option '--name'",
	    "getopt: a missing value told as an unknown word");
	parse(ARGS_NAME_MISSING, "--na", NULL, NULL);
	is_str(err, "ptyvisor demo: --name needs a value",
	    "ARGS_NAME_MISSING: named in full");
	parse(ARGS_NAME_MISSING, "-c", NULL, NULL);
	is_str(err, "ptyvisor demo: -c needs a value",
	    "ARGS_NAME_MISSING: a letter as a letter");
	entry.needs = "a path";
	parse(ARGS_NAME_MISSING, "--pa", NULL, NULL);
	is_str(err, "ptyvisor demo: --path needs a path",
	    "ARGS_NAME_MISSING: the value as the entry calls it");
	parse(ARGS_NAME_MISSING, "-p", NULL, NULL);
	is_str(err, "ptyvisor demo: -p needs a path",
	    "ARGS_NAME_MISSING: ... after a letter too");
	entry.needs = NULL;
	is_int(parse(0, "--bad x --bogus", NULL, NULL), CLI_EXIT_ERROR,
	    "getopt: a value refused exits 125");
	is_str(err, "ptyvisor demo: --bad: 'x' is wrong",
	    "getopt: the command's cause, before a later mistake");
}

/* ARGS_EXACT: whole words only, and how they end. */
static void
test_exact(void)
{
	int	first;
	bool	dd;

	is_int(parse(ARGS_EXACT, "--json --name a --name=b -v -- x", &first,
	    &dd), ARGS_GO_ON, "exact: options read");
	is_str(got.data, "1=-;3=a;3=b;118=-;", "exact: each handed in order");
	is_int(first, 7, "exact: operands after --");
	ok(dd, "exact: -- seen");
	parse(ARGS_EXACT, "--json x --json", &first, &dd);
	is_str(got.data, "1=-;", "exact: the first operand ends the options");
	ok(first == 2 && !dd, "exact: ... without --");
	parse(ARGS_EXACT, "--name -- x", &first, &dd);
	is_str(got.data, "3=--;", "exact: a value may be any word");
	ok(first == 3 && !dd, "exact: ... -- included");
	parse(ARGS_EXACT | ARGS_SEE_HELP, "--js", NULL, NULL);
	is_str(err, "ptyvisor demo: unknown option '--js' (see 'ptyvisor demo "
	    "--help')", "exact: no prefixes");
	parse(ARGS_EXACT, "-vh", NULL, NULL);
	is_str(err, "ptyvisor demo: unknown option '-vh'",
	    "exact: no clusters");
	parse(ARGS_EXACT, "-", NULL, NULL);
	is_str(err, "ptyvisor demo: unknown option '-'", "exact: - refused");
	parse(ARGS_EXACT, "--json=1", NULL, NULL);
	is_str(err, "ptyvisor demo: unknown option '--json=1'",
	    "exact: a flag given a value is unknown");
	parse(ARGS_EXACT | ARGS_NAME_MISSING, "--name", NULL, NULL);
	is_str(err, "ptyvisor demo: --name needs a value",
	    "exact: a missing value named");
	entry.cause_prefix = "demo: ";
	parse(ARGS_EXACT | ARGS_NAME_MISSING, "--json -n", NULL, NULL);
	is_str(err, "ptyvisor demo: demo: -n needs a value",
	    "exact: the cause prefix before a missing value");
	parse(ARGS_EXACT, "--bad x", NULL, NULL);
	is_str(err, "ptyvisor demo: demo: --bad: 'x' is wrong",
	    "exact: ... and before a value refused");
	parse(ARGS_EXACT, "--bogus", NULL, NULL);
	is_str(err, "ptyvisor demo: unknown option '--bogus'",
	    "exact: ... not before an unknown option");
	entry.cause_prefix = NULL;
	is_int(parse(ARGS_EXACT, "x --help", NULL, NULL), ARGS_GO_ON,
	    "exact: --help after an operand is an operand");
	is_int(parse(ARGS_EXACT | ARGS_ANYWHERE, "-x 5 --help", NULL, NULL), 0,
	    "ARGS_ANYWHERE: --help after other words");
	is_int(parse(ARGS_EXACT | ARGS_ANYWHERE, "-x 5 -- --help", &first,
	    NULL), ARGS_GO_ON, "ARGS_ANYWHERE: not after --");
	is_int(first, 1, "ARGS_ANYWHERE: the words stay where they are");
}

/* ARGS_BARE: every word that is no option, "--" too, is the command's. */
static void
test_bare(void)
{
	const int	bare = ARGS_EXACT | ARGS_BARE | ARGS_NAME_MISSING;
	int		first;
	bool		dd;

	entry.needs = "a path";
	is_int(parse(bare, "--json --path p -h x", &first, &dd), 0,
	    "bare: options read, -h exits 0");
	is_str(got.data, "1=-;6=p;usage;", "bare: each handed in order");
	is_int(parse(bare, "--json -- --help", &first, &dd), ARGS_GO_ON,
	    "bare: -- ends nothing of ours");
	ok(first == 2 && !dd, "bare: ... it is the first word left");
	is_str(got.data, "1=-;", "bare: nothing after it read");
	is_int(parse(bare, "--path=p --help", &first, NULL), ARGS_GO_ON,
	    "bare: --name=VALUE is no option");
	is_int(first, 1, "bare: ... left to the command");
	is_str(got.data, "", "bare: ... nothing handed");
	is_int(parse(bare, "--js --help", &first, NULL), ARGS_GO_ON,
	    "bare: an unknown word is not refused here");
	ok(first == 1 && strcmp(err, "") == 0, "bare: ... nor said");
	parse(bare, "-", &first, NULL);
	is_int(first, 1, "bare: - left too");
	is_int(parse(bare, "--json --path", NULL, NULL), CLI_EXIT_ERROR,
	    "bare: a missing value exits 125");
	is_str(err, "ptyvisor demo: --path needs a path",
	    "bare: ... named as the option calls it");
	parse(bare, "--path -- x", &first, NULL);
	is_str(got.data, "6=--;", "bare: a value may be any word");
	is_int(first, 3, "bare: ... and the operands follow it");
	entry.needs = NULL;
}

/* args_match() alone, as sbopts_parse() uses it. */
static void
test_match(void)
{
	const struct args_option	*o;
	const char			*v;
	char				*argv[] = { "demo", "--name=a", "--name",
					    "b", "--na", "-n", NULL };
	char				*cause = NULL;
	int				 i = 1;

	is_int(args_match(own, 6, argv, &i, &o, &v, &cause), 1, "match =");
	ok(o->key == K_NAME && strcmp(v, "a") == 0 && i == 2,
	    "match: --name=a");
	is_int(args_match(own, 6, argv, &i, &o, &v, &cause), 1, "match next");
	ok(strcmp(v, "b") == 0 && i == 4, "match: --name b");
	is_int(args_match(own, 6, argv, &i, &o, &v, &cause), 0,
	    "match: not a prefix");
	i = 5;
	is_int(args_match(own, 6, argv, &i, &o, &v, &cause), -1,
	    "match: value missing");
	is_str(cause, "-n needs a value", "match: the cause");
	free(cause);
}

int
main(void)
{
	if ((err_file = tmpfile()) == NULL ||
	    dup2(fileno(err_file), STDERR_FILENO) < 0)
		return 1;
	test_getopt();
	test_exact();
	test_bare();
	test_match();
	buf_free(&got);
	return tap_done();
}
