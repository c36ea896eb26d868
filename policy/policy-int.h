/*
 * policy-int.h - what the files of policy/ share: the policy and its rules.
 * Not for use outside policy/.
 *
 * rules.c makes and appends rules; policy.c matches them, and reloads a
 * file (a fresh policy made from it gives up its rules).  Rules are only
 * ever appended, each in its own allocation, so the strings a verdict
 * points at (text, where, why) stay valid until policy_free(); a reload
 * retires the file's old rules (never matched again) instead of freeing
 * them.
 */
#ifndef PTYVISOR_POLICY_INT_H
#define PTYVISOR_POLICY_INT_H

#include "policy/policy.h"

#include <stdbool.h>
#include <stddef.h>

/* One rule, from a file or remembered. */
struct policy_rule {
	enum policy_decision	 action;
	char			**pats;		/* fnmatch patterns */
	size_t			 npats;
	int			 rest;		/* ends with ** */
	char			*text;		/* as written, trimmed */
	char			*where;		/* "file:line" or "remembered" */
	char			*why;		/* "rule '...' (where)" */
	int			 remembered;
	int			 saved;
	int			 retired;	/* replaced by a reload */
};

/*
 * Reasons made while judging ("... git may run a program here: ..."), kept
 * once each so verdicts can point at them until policy_free().  Separate so
 * judging a const policy can add to it.
 */
struct policy_texts {
	char	**v;
	size_t	  n;
};

/*
 * The rules by their first word, for judging execs quickly (policy/exec.c):
 * made again when the rules change (generation).  Separate, like texts,
 * so judging a const policy can make it.
 */
struct policy_xindex {
	unsigned long	 generation;
	bool		 built;
	struct policy_xword {
		const char	*word;		/* a literal first word */
		size_t		 rule;		/* its rule's index */
	}		*words;			/* sorted by word */
	size_t		 nwords;
	size_t		*globbed;		/* rules whose first word is a
						   pattern */
	size_t		 nglobbed;
};

/* The mode and the rules, in the order they were added. */
struct policy {
	enum policy_mode	  mode;
	struct policy_rule	**rules;
	size_t			  nrules;
	struct policy_texts	 *texts;
	unsigned long		  generation;	/* bumped when rules change */
	struct policy_xindex	 *xindex;
};

/* policy.c: does rule r (not retired) match argv, argc words? */
int	policy_rule_matches(const struct policy_rule *r, char *const *argv,
	    size_t argc);

#endif
