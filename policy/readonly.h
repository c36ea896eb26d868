/*
 * readonly.h - the built-in list of read-only commands that untrusted mode
 * allows without asking, and how policy/ recognises a command by its name
 * (which the matcher also uses for shells and env).
 */
#ifndef PTYVISOR_POLICY_READONLY_H
#define PTYVISOR_POLICY_READONLY_H

#include <stddef.h>

/*
 * The command name of argv0 when it is a bare name or lives in a system
 * bin directory; NULL for anything else (./ls is not ls).
 */
const char	*policy_trusted_name(const char *argv0);

/* Is s in the NULL-terminated list? */
int		 policy_in(const char *s, const char *const *list);

struct policy_place;

/*
 * Is argv a command from the built-in read-only list, used read-only, at
 * place?  1 when it is; 0 when not, with why set to the reason when the
 * command is on the list ("rg --pre runs a program on every file") and to
 * "" when it is not on the list at all.
 */
int		 policy_known_safe(char *const *argv,
		     const struct policy_place *place, char *why, size_t len);

#endif
