/*
 * sbopts.h - the sandbox options every command that runs something shares
 * (run, exec, sandbox, the TUI): --sandbox, --network, the host lists,
 * --writable, --protect-git, --shared-tmp and the resource limits.
 */
#ifndef PTYVISOR_SBOPTS_H
#define PTYVISOR_SBOPTS_H

#include "sandbox/sandbox.h"

/* Help lines for the options sbopts_parse() knows, for --help texts. */
extern const char sbopts_help[];

/*
 * If argv[*i] is a sandbox option, apply it to opts (taking its value from
 * argv[*i + 1] or after '='), advance *i past what it used and return 1.
 * Returns 0 when argv[*i] is not a sandbox option, -1 with *cause when it
 * is but is wrong.  opts borrows the strings of argv.
 */
int	sbopts_parse(struct sandbox_opts *opts, int argc, char **argv, int *i,
	    char **cause);

#endif
