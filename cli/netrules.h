/*
 * netrules.h - the rules file as `run` and `sandbox` use it: only for a
 * filtered network, whose proxy judges a host on neither list by the
 * file's "connect" rules (allow connect HOST:PORT, deny connect ...; deny
 * wins) exactly as the server judges an agent's, and asks the server on
 * the control socket about the rest when one runs there.
 */
#ifndef PTYVISOR_CLI_NETRULES_H
#define PTYVISOR_CLI_NETRULES_H

struct config;
struct sandbox_opts;
struct cli_netrules;

/*
 * Help lines for --rules FILE (an option of run and sandbox, which hand
 * its value to netrules_new()), for their --help texts.
 */
extern const char netrules_help[];

/*
 * The rules for opts: the file named by flag (NULL: none), else by the
 * settings file's [approval] rules, else the default one, as the server
 * chooses it; a named file must be readable, the default one may be
 * missing (no rules).  It is read (errors as "FILE:LINE: problem") when
 * opts ask for a filtered network or the file was named on the command
 * line; then opts get the rules, the file's name and the control socket
 * (cfg's) to ask.  NULL with *cause on an error; else free it with
 * netrules_free() after the sandbox made from opts.
 */
struct cli_netrules *netrules_new(const struct config *cfg, const char *flag,
	    struct sandbox_opts *opts, char **cause);

/* NULL: no-op. */
void	netrules_free(struct cli_netrules *nr);

#endif
