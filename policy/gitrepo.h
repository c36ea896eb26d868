/*
 * gitrepo.h - would git, started at a place, run a program because of what
 * it reads there (configuration, hooks, submodules)?  Used by the known
 * read-only check for git; see doc/policy.md.
 */
#ifndef PTYVISOR_POLICY_GITREPO_H
#define PTYVISOR_POLICY_GITREPO_H

#include <stddef.h>

struct policy_place;

/*
 * 1 with a reason in why (len bytes) when git's argv (its -C options
 * applied) started at place (NULL: our directory and HOME) would read a
 * setting not known to run nothing, a hook it may run, submodules, or a
 * file that cannot be read; 0 when it would read nothing of the kind.
 * Reads files, never blocks on one (FIFOs and devices count as risks).
 */
int	policy_git_repo_risk(char *const *argv,
	    const struct policy_place *place, char *why, size_t len);

#endif
