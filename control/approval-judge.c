/*
 * approval-judge.c - what the queue makes of a request before anyone sees
 * it: the policy's verdict and who gave it (a rule, the mode, the read-only
 * list, the shell splitter), raised to ask where a rule or mode cannot
 * speak for a person (a secret, the network, no sandbox, variables set, an
 * environment that steers the read-only list); a host by the connect rules
 * alone; and the secret variables taken out of an agent's environment.
 *
 * Invariant: a verdict is only ever raised here, never lowered: ask stays
 * ask, deny stays deny.
 */
#include "control/approval-int.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "sandbox/sandbox.h"

/* What a rule's verdict names: "rule 'TEXT' (WHERE)". */
static char *
approval_rule_by(const struct policy_verdict *v)
{
	return xasprintf("rule '%s'%s%s%s", v->rule != NULL ? v->rule : "?",
	    v->where != NULL ? " (" : "", v->where != NULL ? v->where : "",
	    v->where != NULL ? ")" : "");
}

/*
 * A host on neither list: a rule of the person's ("allow connect
 * HOST:PORT", remembered or written) decides, else only a person does.
 */
static void
approval_judge_host(struct approval *a, struct approval_request *r)
{
	struct policy_verdict	v;

	if (policy_check_host(a->policy, r->exec.argv[1], &v) &&
	    v.decision != POLICY_ASK) {
		r->verdict = v.decision;
		r->verdict_by = approval_rule_by(&v);
		r->verdict_why = xstrdup(v.why != NULL ? v.why : "");
		return;
	}
	r->verdict = POLICY_ASK;
	r->verdict_by = xstrdup("a host on neither list");
	r->verdict_why = xstrdup("");
}

/* "environment differs: A, B": the names of the variables in v. */
static char *
approval_env_by(char *const *v)
{
	struct buf	 b = { 0 };
	size_t		 i;
	char		*out;

	buf_printf(&b, "environment differs: ");
	for (i = 0; v[i] != NULL; i++)
		buf_printf(&b, "%s%.*s", i > 0 ? ", " : "",
		    (int)strcspn(v[i], "="), v[i]);
	out = xstrdup(buf_cstr(&b));
	buf_free(&b);
	return out;
}

char *
approval_raise(enum policy_decision d, bool network, const char *sandbox,
    char *const *env)
{
	size_t	i;

	if (d != POLICY_ALLOW)
		return NULL;
	/*
	 * A secret named on purpose is on its way to whatever the command
	 * prints, and from there to the agent's model provider: a person
	 * says so first, whatever a rule or the mode says (and says which).
	 */
	for (i = 0; env != NULL && env[i] != NULL; i++)
		if (policy_env_secret(env[i]))
			return xasprintf("passes a secret variable %.*s",
			    (int)strcspn(env[i], "="), env[i]);
	/*
	 * A rule or mode allows a command, not a way out of the sandbox:
	 * asking for the network or for no sandbox always goes to a person
	 * (even in mode never, which means "allowed, still sandboxed").
	 */
	if (network)
		return xstrdup("network requested");
	if (sandbox != NULL && sandbox_profile_is_none(sandbox))
		return xstrdup("no sandbox requested");
	/*
	 * Nor is it a licence for environment variables, which can make an
	 * allowed command run anything (LD_PRELOAD, BASH_ENV, GIT_SSH_COMMAND,
	 * PAGER...): a request that sets any goes to a person.
	 */
	if (env != NULL && env[0] != NULL)
		return xstrdup("environment variables set");
	return NULL;
}

/*
 * Fill r's verdict from the policy, judged where it would run: its cwd and
 * the HOME the sandbox passes on (git reads configuration from both).
 */
static void
approval_judge_exec(struct approval *a, struct approval_request *r)
{
	struct proto_exec	*x = &r->exec;
	struct policy_place	place = { x->cwd, getenv("HOME"), NULL };
	struct policy_verdict	v = policy_check_at(a->policy, x->argv,
				    &place);
	char			*by;

	r->verdict = v.decision;
	free(r->verdict_why);
	free(r->verdict_by);
	r->verdict_why = xstrdup(v.why != NULL ? v.why : "");
	switch (v.source) {
	case POLICY_BY_RULE:
		r->verdict_by = approval_rule_by(&v);
		break;
	case POLICY_BY_MODE:
		r->verdict_by = xasprintf("mode %s",
		    policy_mode_name(policy_mode(a->policy)));
		break;
	case POLICY_BY_KNOWN_SAFE:
		r->verdict_by = xstrdup("known read-only command");
		break;
	case POLICY_BY_SHELL:
		r->verdict_by = xstrdup("shell string");
		break;
	}
	/* Hosts asked for are a way out too: a person sees the list. */
	if ((by = approval_raise(r->verdict, x->network ||
	    x->network_allow != NULL, sandbox_profile_name(x->sandbox),
	    x->env)) != NULL) {
		r->verdict = POLICY_ASK;
		free(r->verdict_by);
		r->verdict_by = by;
	}
	/*
	 * The built-in read-only list knows programs by name, found the way
	 * our own environment finds them: an agent's environment that steers
	 * that differently (a PATH with its own directory first, a GIT_PAGER,
	 * an ENV...) voids it.  Rules and modes, which the person chose, stand.
	 */
	if (r->verdict == POLICY_ALLOW && r->environ_differs != NULL &&
	    v.source == POLICY_BY_KNOWN_SAFE) {
		r->verdict = POLICY_ASK;
		free(r->verdict_by);
		r->verdict_by = approval_env_by(r->environ_differs);
	}
	r->known_safe = r->verdict == POLICY_ALLOW &&
	    v.source == POLICY_BY_KNOWN_SAFE;
}

void
approval_judge(struct approval *a, struct approval_request *r)
{
	if (r->exec_check)
		return;		/* judged by its submitter */
	if (r->connect)
		approval_judge_host(a, r);
	else
		approval_judge_exec(a, r);
}

/* Whether the variable var (its name len bytes) is one pass_env names. */
static bool
approval_passed(const struct approval *a, const char *var, size_t len)
{
	char	**p;

	for (p = a->pass_env; p != NULL && *p != NULL; p++)
		if (strlen(*p) == len && strncmp(*p, var, len) == 0)
			return true;
	return false;
}

/*
 * Take the secret variables (policy_env_secret) out of x's environ, quietly,
 * their names into x->env_dropped (whatever a client said there): an
 * agent's environment carries them, its command has no business printing
 * them to the agent.  Names in pass_env stay, unlisted.
 */
void
approval_drop_secrets(const struct approval *a, struct proto_exec *x)
{
	size_t	i, n = 0, ndropped = 0, len;

	strv_free(x->env_dropped);
	x->env_dropped = NULL;
	for (i = 0; x->environ != NULL && x->environ[i] != NULL; i++) {
		len = strcspn(x->environ[i], "=");
		if (!policy_env_secret(x->environ[i]) ||
		    approval_passed(a, x->environ[i], len)) {
			x->environ[n++] = x->environ[i];
			continue;
		}
		x->env_dropped = xreallocarray(x->env_dropped, ndropped + 2,
		    sizeof *x->env_dropped);
		x->env_dropped[ndropped++] = xstrndup(x->environ[i], len);
		x->env_dropped[ndropped] = NULL;
		free(x->environ[i]);
	}
	if (x->environ != NULL)
		x->environ[n] = NULL;
}
