/*
 * fuzz-rules.c - libFuzzer target for the rules file and the matcher.  The
 * input is a rules text, then after a NUL byte a command: its words
 * separated by NUL bytes.  The rules are loaded (as the rules file would
 * be), the command judged as an argv and again as the string of `sh -c`,
 * and the text tried as a rule a person edited in the approval prompt.
 * Besides memory errors, it checks the promises: a refused text has a
 * cause naming the line, a verdict is one of the decisions with a reason,
 * a verdict by a rule names the rule and where it is; and judging is
 * deterministic.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Longest argv tried. */
#define FUZZ_RULES_WORDS 16

static void
check_verdict(const struct policy *p, char *const *argv)
{
	struct policy_verdict	v, w;

	v = policy_check(p, argv);
	assert(v.decision == POLICY_ALLOW || v.decision == POLICY_DENY ||
	    v.decision == POLICY_ASK);
	assert(v.why != NULL && v.why[0] != '\0');
	assert(policy_decision_name(v.decision) != NULL);
	if (v.source == POLICY_BY_RULE)
		assert(v.rule != NULL && v.where != NULL);
	w = policy_check(p, argv);
	assert(w.decision == v.decision && w.source == v.source);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum policy_mode modes[] = {
		POLICY_UNTRUSTED, POLICY_ON_REQUEST, POLICY_NEVER
	};
	struct policy	*p;
	char		*buf, *rules, *cmd, *argv[FUZZ_RULES_WORDS + 1];
	char		*shc[4], *cause = NULL, *s, *end;
	size_t		 n = 0, i;

	if ((buf = malloc(size + 2)) == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = buf[size + 1] = '\0';
	rules = buf;
	cmd = buf + strlen(buf) + 1;
	if (cmd > buf + size)
		cmd = buf + size + 1;	/* no command: the empty string */
	end = buf + size + 1;
	for (s = cmd; s < end && n < FUZZ_RULES_WORDS; s += strlen(s) + 1)
		argv[n++] = s;
	argv[n] = NULL;

	p = policy_new(modes[size % 3]);
	if (policy_load_string(p, rules, "fuzz", &cause) != 0) {
		assert(cause != NULL && strncmp(cause, "fuzz", 4) == 0);
		free(cause);
		cause = NULL;
	}
	if (n > 0 && argv[0][0] != '\0')
		check_verdict(p, argv);
	shc[0] = (char *)"sh";
	shc[1] = (char *)"-c";
	shc[2] = cmd;
	shc[3] = NULL;
	check_verdict(p, shc);
	/* The whole rules text as one edited rule. */
	if (policy_remember_line(p, rules, &cause) != 0) {
		assert(cause != NULL);
		free(cause);
	} else if (n > 0 && argv[0][0] != '\0')
		check_verdict(p, argv);
	for (i = 0; i < n; i++)
		assert(argv[i] != NULL);
	policy_free(p);
	free(buf);
	return 0;
}
