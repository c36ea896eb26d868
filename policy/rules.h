/*
 * rules.h - the rules file: parsing rule lines, loading a file or a string,
 * remembering rules and appending them to the file.
 *
 * Its entry points are declared in policy.h (policy_load_file,
 * policy_load_string, policy_remember, policy_remember_line,
 * policy_unsaved, policy_save_remembered); here is only what the rest of
 * policy/ needs besides.  struct policy_rule is in policy-int.h.
 */
#ifndef PTYVISOR_POLICY_RULES_H
#define PTYVISOR_POLICY_RULES_H

struct policy_rule;

/* Free one rule; NULL is a no-op. */
void	policy_rule_free(struct policy_rule *r);

#endif
