/*
 * args.h - a sub-command's words, read by the option spec of its entry in
 * the command table (commands.h): one parse for every command, the same
 * message for the same mistake.
 *
 * Two ways of reading, the two the commands have always had:
 *  - getopt_long()'s, the default: --name VALUE, --name=VALUE, a unique
 *    prefix of a name, -x VALUE, -xVALUE, -abc; "--" ends the options, and
 *    so does the first operand unless ARGS_PERMUTE lets options follow it;
 *  - ARGS_EXACT's (run, sandbox, the console's sandbox options, pending):
 *    an option is a word of its own, its name in full, a value after '='
 *    or as the next word; a word starting with '-' that is no option is
 *    refused; "--" or the first other word ends the options (ARGS_BARE:
 *    no '=', no "--", no word refused here).
 *
 * Invariant: each option is handed to the command at once, in the order
 * written, so the first mistake or -h/--help decides, whatever follows.
 */
#ifndef PTYVISOR_ARGS_H
#define PTYVISOR_ARGS_H

#include <stdbool.h>

struct cmd_entry;

/* One option of a command; a table of them ends with ARGS_END. */
struct args_option {
	const char	*name;		/* --name without the dashes; NULL: none */
	int		 letter;	/* -x; 0: none */
	bool		 value;		/* takes a value */
	int		 key;		/* what the command's option() is handed */
};
#define ARGS_END	{ NULL, 0, false, 0 }

/* -h/--help, in every command: args_parse() prints the usage and stops. */
#define ARGS_HELP		(-1)
#define ARGS_HELP_OPTION	{ "help", 'h', false, ARGS_HELP }

/* How a command's words are read (cmd_entry.flags). */
#define ARGS_EXACT	0x01	/* names in full, one option a word */
#define ARGS_PERMUTE	0x02	/* getopt_long(): options may follow operands */
/*
 * ARGS_EXACT: options anywhere before "--", every other word (one starting
 * with '-' too) left in place for the command, none refused (show).
 */
#define ARGS_ANYWHERE	0x04
/* "unknown option 'W' (see 'ptyvisor CMD --help')"; else no "(see ...)". */
#define ARGS_SEE_HELP	0x08
/*
 * A missing value is "--name needs a value" (the cause_prefix first; the
 * entry's needs in place of "a value"); else it is told as an unknown
 * option naming the word, as getopt_long()'s '?'.
 */
#define ARGS_NAME_MISSING 0x10
/*
 * ARGS_EXACT, barer still (pending): "--" is a word like any other and a
 * value is only ever the next word (no --name=VALUE); the first word that
 * is no option, whatever it starts with, ends the options and is left to
 * the command.
 */
#define ARGS_BARE	0x20

/* args_parse(): the command goes on. */
#define ARGS_GO_ON	(-1)
/*
 * What an option function returns when the option was the whole command
 * (done, with exit status n): args_parse() stops and returns n.
 */
#define ARGS_DONE(n)	(1 + (n))

/* Where the options ended. */
struct args_end {
	int	first;		/* argv[first]: the first operand; argc: none */
	bool	dashdash;	/* ARGS_EXACT: they ended with "--" */
};

/*
 * Read argv (argv[0] is the command's name) by e's options, handing each to
 * e->option(state, key, value) as it comes (value NULL for a flag; it
 * points into argv).  Returns ARGS_GO_ON with *end filled; else the exit
 * status to return at once: 0 after -h/--help printed e's usage on stdout,
 * CLI_EXIT_ERROR after a one-line message on stderr (an unknown option, a
 * missing value, or what e->option() refused).  getopt_long() may reorder
 * argv (ARGS_PERMUTE): operands are argv[end->first..].
 */
int	args_parse(const struct cmd_entry *e, int argc, char **argv,
	    void *state, struct args_end *end);

/*
 * If argv[*i] is an option of table written in full (--name, --name=VALUE,
 * -x), set *o and *value (NULL for a flag), advance *i past the words it
 * used and return 1; 0 when it is none of them; -1 with *o and *cause
 * ("--name needs a value") when its value is missing.
 */
int	args_match(const struct args_option *table, int argc, char **argv,
	    int *i, const struct args_option **o, const char **value,
	    char **cause);

#endif
