/*
 * sbopts.h - the sandbox options the commands that run something on this
 * machine share (run, sandbox, the console): --sandbox, --network, the host
 * lists, --writable, --protect-git, --shared-tmp and the resource limits,
 * each applied over the settings file's [sandbox] defaults.
 */
#ifndef PTYVISOR_SBOPTS_H
#define PTYVISOR_SBOPTS_H

#include "cli/args.h"
#include "sandbox/sandbox.h"

/* Help lines for the options below, for --help texts. */
extern const char sbopts_help[];

/*
 * The options, for a command's entry in the command table (args.h); their
 * keys are SBOPTS_KEY and up.
 */
#define SBOPTS_KEY	0x100
extern const struct args_option sbopts_options[];

/*
 * Apply the option of key (one of sbopts_options[]) with its value (NULL
 * for a flag) to opts, which borrows it.  0, or -1 with *cause when the
 * value is wrong.
 */
int	sbopts_apply(struct sandbox_opts *opts, int key, const char *value,
	    char **cause);

/*
 * If argv[*i] is a sandbox option (its name in full), apply it to opts
 * (taking its value from argv[*i + 1] or after '='), advance *i past what
 * it used and return 1.  Returns 0 when argv[*i] is not a sandbox option,
 * -1 with *cause when it is but is wrong.  opts borrows the strings of
 * argv.  For a command that reads its words itself (the console).
 */
int	sbopts_parse(struct sandbox_opts *opts, int argc, char **argv, int *i,
	    char **cause);

#endif
