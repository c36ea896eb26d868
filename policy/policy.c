/*
 * policy.c - judging commands (see policy.h): the policy and its approval
 * modes, matching rules against an argv, the mode fallbacks, and shell
 * strings (sh -c, also behind env) judged command by command.  The rules
 * file is read and written by rules.c, the known read-only commands are in
 * readonly.c.
 *
 * Invariants: judging never modifies the policy.  A verdict is computed
 * twice over as it goes: "full" (what decides) and "ruled" (only what rules
 * said), so a rule matching an outer shell argv can stand in for the mode
 * fallbacks of the commands inside it without hiding the rules that match
 * those commands.
 */
#include "policy/policy.h"

#include <assert.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "policy/policy-int.h"
#include "policy/readonly.h"
#include "policy/rules.h"
#include "policy/shsplit.h"
#include "base/util.h"

/* Shell strings inside shell strings deeper than this are asked about. */
#define POLICY_MAX_DEPTH	8

/* A verdict while judging; rule is set when source is POLICY_BY_RULE. */
struct policy_v {
	int				 set;
	enum policy_decision		 d;
	enum policy_source		 src;
	const char			*why;
	const struct policy_rule	*rule;
};

/* Both views of a verdict (see the top of the file). */
struct policy_judge {
	struct policy_v	full;
	struct policy_v	ruled;
};

/* What a check carries down: where it runs, who hears of each part. */
struct policy_ctx {
	const struct policy_place	*place;
	policy_part_fn			 part;
	void				*user;
	int				 parts_told;	/* the first string's */
};

static void	policy_judge_argv(const struct policy *, char *const *, int,
		    struct policy_ctx *, struct policy_judge *);

struct policy *
policy_new(enum policy_mode mode)
{
	struct policy	*p;

	p = xcalloc(1, sizeof *p);
	p->mode = mode;
	p->texts = xcalloc(1, sizeof *p->texts);
	p->xindex = xcalloc(1, sizeof *p->xindex);
	return p;
}

void
policy_free(struct policy *p)
{
	size_t	i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nrules; i++)
		policy_rule_free(p->rules[i]);
	free(p->rules);
	for (i = 0; i < p->texts->n; i++)
		free(p->texts->v[i]);
	free(p->texts->v);
	free(p->texts);
	free(p->xindex->words);
	free(p->xindex->globbed);
	free(p->xindex);
	free(p);
}

enum policy_mode
policy_mode(const struct policy *p)
{
	return p->mode;
}

void
policy_set_mode(struct policy *p, enum policy_mode mode)
{
	p->mode = mode;
}

int
policy_mode_parse(const char *s, enum policy_mode *mode)
{
	if (strcmp(s, "untrusted") == 0)
		*mode = POLICY_UNTRUSTED;
	else if (strcmp(s, "on-request") == 0)
		*mode = POLICY_ON_REQUEST;
	else if (strcmp(s, "never") == 0)
		*mode = POLICY_NEVER;
	else
		return -1;
	return 0;
}

const char *
policy_mode_name(enum policy_mode mode)
{
	switch (mode) {
	case POLICY_UNTRUSTED:
		return "untrusted";
	case POLICY_ON_REQUEST:
		return "on-request";
	case POLICY_NEVER:
		return "never";
	}
	return "unknown";
}

const char *
policy_decision_name(enum policy_decision d)
{
	switch (d) {
	case POLICY_ALLOW:
		return "allow";
	case POLICY_ASK:
		return "ask";
	case POLICY_DENY:
		return "deny";
	}
	return "unknown";
}

int
policy_rule_matches(const struct policy_rule *r, char *const *argv,
    size_t argc)
{
	size_t	i;

	if (r->retired || argc < r->npats || (!r->rest && argc != r->npats))
		return 0;
	for (i = 0; i < r->npats; i++) {
		if (fnmatch(r->pats[i], argv[i], 0) != 0)
			return 0;
	}
	return 1;
}

/* Keep the stronger of two verdicts in *a; the first one wins a tie. */
static void
policy_v_max(struct policy_v *a, const struct policy_v *b)
{
	if (!b->set)
		return;
	if (!a->set || b->d > a->d)
		*a = *b;
}

/* Set *v to a verdict. */
static void
policy_v_set(struct policy_v *v, enum policy_decision d,
    enum policy_source src, const char *why)
{
	v->set = 1;
	v->d = d;
	v->src = src;
	v->why = why;
	v->rule = NULL;
}

/*
 * Raise a verdict to ask because of a shell construct, unless it is a deny
 * already or the mode never asks.
 */
static void
policy_raise(const struct policy *p, struct policy_v *v, const char *why)
{
	if (p->mode == POLICY_NEVER)
		return;
	/* The shell's reason says more than the mode's: let it show. */
	if (!v->set || v->d < POLICY_ASK ||
	    (v->d == POLICY_ASK && v->src == POLICY_BY_MODE))
		policy_v_set(v, POLICY_ASK, POLICY_BY_SHELL, why);
}

/* The strongest verdict of the rules matching argv (unset when none). */
static struct policy_v
policy_match_rules(const struct policy *p, char *const *argv)
{
	struct policy_v	 best, v;
	size_t		 i, argc = strv_len(argv);

	memset(&best, 0, sizeof best);
	for (i = 0; i < p->nrules; i++) {
		if (!policy_rule_matches(p->rules[i], argv, argc))
			continue;
		policy_v_set(&v, p->rules[i]->action, POLICY_BY_RULE,
		    p->rules[i]->why);
		v.rule = p->rules[i];
		policy_v_max(&best, &v);
	}
	return best;
}

bool
policy_check_host(const struct policy *p, const char *hostport,
    struct policy_verdict *v)
{
	char *const		 argv[] = { (char *)"connect", (char *)hostport,
				    NULL };
	const struct policy_rule *r, *best = NULL;
	size_t			 i;

	for (i = 0; i < p->nrules; i++) {
		r = p->rules[i];
		/* A glob in the first word must not turn a rule into one. */
		if (r->npats == 0 || strcmp(r->pats[0], "connect") != 0 ||
		    !policy_rule_matches(r, argv, 2))
			continue;
		if (best == NULL || r->action > best->action)
			best = r;
	}
	if (best == NULL)
		return false;
	v->decision = best->action;
	v->source = POLICY_BY_RULE;
	v->why = best->why;
	v->rule = best->text;
	v->where = best->where;
	return true;
}

/* A reason kept by the policy until policy_free(), once per text. */
static const char *
policy_text(const struct policy *p, const char *s)
{
	struct policy_texts	*t = p->texts;
	size_t			 i;

	for (i = 0; i < t->n; i++) {
		if (strcmp(t->v[i], s) == 0)
			return t->v[i];
	}
	t->v = xreallocarray(t->v, t->n + 1, sizeof *t->v);
	t->v[t->n] = xstrdup(s);
	return t->v[t->n++];
}

/* The verdict when no rule matches argv (run at place). */
static void
policy_fallback(const struct policy *p, char *const *argv,
    const struct policy_place *place, struct policy_v *v)
{
	char	why[512], *s;

	switch (p->mode) {
	case POLICY_NEVER:
		policy_v_set(v, POLICY_ALLOW, POLICY_BY_MODE,
		    "mode never: no rule matched");
		break;
	case POLICY_ON_REQUEST:
		policy_v_set(v, POLICY_ASK, POLICY_BY_MODE,
		    "mode on-request: no rule matched");
		break;
	case POLICY_UNTRUSTED:
		if (policy_known_safe(argv, place, why, sizeof why))
			policy_v_set(v, POLICY_ALLOW, POLICY_BY_KNOWN_SAFE,
			    "known read-only command");
		else if (why[0] != '\0') {
			/* why says what makes it unsafe ("rg --pre runs..."). */
			s = xasprintf("mode untrusted: %s", why);
			policy_v_set(v, POLICY_ASK, POLICY_BY_MODE,
			    policy_text(p, s));
			free(s);
		} else
			policy_v_set(v, POLICY_ASK, POLICY_BY_MODE,
			    "mode untrusted: not a known read-only command");
		break;
	}
}

/*
 * Is argv a shell running a command string?  1 and *script when it is, 0
 * when it is not (a script file, an interactive shell, not a shell), -1
 * when it is a shell with options this code does not know.
 */
static int
policy_shell_script(char *const *argv, const char **script)
{
	static const char	*longs[] = { "--login", "--noprofile",
				    "--norc", "--posix", NULL };
	static const char	*o_names[] = { "pipefail", "errexit",
				    "nounset", "xtrace", NULL };
	const char		*name = policy_trusted_name(argv[0]);
	size_t			 i;
	int			 has_c = 0;

	/* ./bash -c 'ls' is some program, not a shell running ls. */
	if (name == NULL || !util_is_shell(name))
		return 0;
	for (i = 1; argv[i] != NULL; i++) {
		const char	*a = argv[i];

		if (a[0] != '-' && a[0] != '+')
			break;
		if (strcmp(a, "-o") == 0 || strcmp(a, "+o") == 0) {
			if (argv[i + 1] == NULL ||
			    !policy_in(argv[i + 1], o_names))
				return -1;
			i++;
			continue;
		}
		if (policy_in(a, longs))
			continue;
		if (a[1] == '\0' || a[1] == '-' ||
		    strspn(a + 1, "celuxvo") != strlen(a + 1))
			return -1;
		if (a[0] == '-' && strchr(a + 1, 'c') != NULL)
			has_c = 1;
		if (strchr(a + 1, 'o') != NULL) {
			/* -euo pipefail: o takes the next word. */
			if (strchr(a + 1, 'o')[1] != '\0' ||
			    argv[i + 1] == NULL ||
			    !policy_in(argv[i + 1], o_names))
				return -1;
			i++;
		}
	}
	if (!has_c)
		return 0;
	if (argv[i] == NULL)
		return -1;
	*script = argv[i];
	return 1;
}

/* The public verdict of a judged one. */
static struct policy_verdict
policy_verdict_of(const struct policy_v *j)
{
	struct policy_verdict	v;

	memset(&v, 0, sizeof v);
	v.decision = j->d;
	v.source = j->src;
	v.why = j->why;
	if (j->rule != NULL) {
		v.rule = j->rule->text;
		v.where = j->rule->where;
	}
	return v;
}

/* Judge a command string split into simple commands. */
static void
policy_judge_script(const struct policy *p, const char *script, int depth,
    struct policy_ctx *ctx, struct policy_judge *out)
{
	struct shsplit		*sp;
	struct shsplit_cmd	*cmd;
	struct policy_judge	 j;
	char			**argv;
	size_t			 i, k;
	int			 tell = ctx->part != NULL && !ctx->parts_told;

	memset(out, 0, sizeof *out);
	ctx->parts_told = 1;
	sp = shsplit_parse(script, 0);
	if (sp->error != NULL || sp->ncmds == 0) {
		/* Nothing in it can be vouched for. */
		if (p->mode == POLICY_NEVER)
			policy_v_set(&out->full, POLICY_ALLOW, POLICY_BY_MODE,
			    "mode never: no rule matched");
		else
			policy_v_set(&out->full, POLICY_ASK, POLICY_BY_SHELL,
			    sp->error != NULL ? sp->error :
			    "empty shell command");
	}
	for (i = 0; i < sp->ncmds; i++) {
		cmd = &sp->cmds[i];
		memset(&j, 0, sizeof j);
		if (cmd->nwords == 0)
			policy_fallback(p, (char *[]){ "", NULL },
			    ctx->place, &j.full);
		argv = xcalloc(cmd->nwords + 1, sizeof *argv);
		for (k = 0; k < cmd->nwords; k++)
			argv[k] = cmd->words[k].text;
		if (cmd->nwords > 0)
			policy_judge_argv(p, argv, depth, ctx, &j);
		if (cmd->problem != NULL)
			policy_raise(p, &j.full, cmd->problem);
		if (tell)
			ctx->part(ctx->user, argv, policy_verdict_of(&j.full));
		free(argv);
		policy_v_max(&out->full, &j.full);
		policy_v_max(&out->ruled, &j.ruled);
	}
	shsplit_free(sp);
}

/*
 * Is argv "env [NAME=VALUE...] CMD..."?  1 with *rest at CMD (and *assign
 * when variables are set), 0 when not env or env alone, -1 for env options.
 */
static int
policy_env_wrapper(char *const *argv, char *const **rest, int *assign)
{
	const char	*name = policy_trusted_name(argv[0]);
	size_t		 i;

	if (name == NULL || strcmp(name, "env") != 0 || argv[1] == NULL)
		return 0;
	*assign = 0;
	for (i = 1; argv[i] != NULL && strchr(argv[i], '=') != NULL &&
	    argv[i][0] != '-' && argv[i][0] != '='; i++)
		*assign = 1;
	if (argv[i] == NULL)
		return 0;
	if (argv[i][0] == '-')
		return -1;
	*rest = argv + i;
	return 1;
}

/* Judge one argv; depth counts nested shell strings. */
static void
policy_judge_argv(const struct policy *p, char *const *argv, int depth,
    struct policy_ctx *ctx, struct policy_judge *out)
{
	struct policy_judge	 in;
	struct policy_v		 ruled;
	const char		*script;
	char *const		*rest;
	int			 kind, assign = 0;

	memset(out, 0, sizeof *out);
	ruled = policy_match_rules(p, argv);
	out->ruled = ruled;

	if (depth >= POLICY_MAX_DEPTH) {
		out->full = ruled;
		if (!ruled.set)
			policy_fallback(p, argv, ctx->place, &out->full);
		policy_raise(p, &out->full, "shell strings nested too deep");
		return;
	}

	kind = policy_shell_script(argv, &script);
	if (kind == 1)
		policy_judge_script(p, script, depth + 1, ctx, &in);
	else if (kind == 0) {
		kind = policy_env_wrapper(argv, &rest, &assign);
		if (kind == 1) {
			policy_judge_argv(p, rest, depth + 1, ctx, &in);
			if (assign)
				policy_raise(p, &in.full,
				    "env sets environment variables");
		}
	}

	if (kind == 1) {
		policy_v_max(&out->ruled, &in.ruled);
		/* A rule for the whole line stands for the fallbacks inside. */
		out->full = ruled.set ? out->ruled : in.full;
		return;
	}
	if (ruled.set) {
		out->full = ruled;
		return;
	}
	policy_fallback(p, argv, ctx->place, &out->full);
	if (kind == -1)
		policy_raise(p, &out->full, "shell or env options not understood");
}

int
policy_shell_string(char *const *argv, const char **script)
{
	return policy_shell_script(argv, script) == 1;
}

struct policy_verdict
policy_check(const struct policy *p, char *const *argv)
{
	return policy_check_at(p, argv, NULL);
}

struct policy_verdict
policy_check_at(const struct policy *p, char *const *argv,
    const struct policy_place *place)
{
	return policy_check_parts(p, argv, place, NULL, NULL);
}

struct policy_verdict
policy_check_parts(const struct policy *p, char *const *argv,
    const struct policy_place *place, policy_part_fn part, void *user)
{
	struct policy_ctx	ctx = { place, part, user, 0 };
	struct policy_judge	j;

	assert(argv != NULL && argv[0] != NULL);
	policy_judge_argv(p, argv, 0, &ctx, &j);
	assert(j.full.set);
	return policy_verdict_of(&j.full);
}

int
policy_reload_file(struct policy *p, const char *path, size_t *count,
    char **cause)
{
	struct policy	*fresh = policy_new(p->mode);
	size_t		 i;

	if (policy_load_file(fresh, path, cause) != 0) {
		policy_free(fresh);
		return -1;
	}
	/* Verdicts may still point at the old rules: retire, never free. */
	for (i = 0; i < p->nrules; i++)
		if (!p->rules[i]->remembered)
			p->rules[i]->retired = 1;
	p->rules = xreallocarray(p->rules, p->nrules + fresh->nrules + 1,
	    sizeof *p->rules);
	for (i = 0; i < fresh->nrules; i++)
		p->rules[p->nrules++] = fresh->rules[i];
	p->generation++;
	*count = fresh->nrules;
	fresh->nrules = 0;
	policy_free(fresh);
	return 0;
}

bool
policy_env_steers(const char *var)
{
	/* Exact names: what finds programs, what shells run or split by. */
	static const char *const names[] = {
		"PATH", "HOME", "CDPATH", "ENV", "BASH_ENV", "SHELLOPTS",
		"BASHOPTS", "IFS", "PS4", "GLOBIGNORE", "PROMPT_COMMAND",
		"PAGER", "MANPAGER", "EDITOR", "VISUAL", "BROWSER",
		"SSH_ASKPASS", "SUDO_ASKPASS", "XDG_CONFIG_HOME", "PERLLIB",
		"RUBYLIB", "RUBYOPT", "NODE_OPTIONS", "NODE_PATH", NULL
	};
	/* Prefixes: families that point programs at other programs. */
	static const char *const prefixes[] = {
		"GIT_", "LESS", "PYTHON", "PERL5", NULL
	};
	size_t	len = strcspn(var, "="), i;

	for (i = 0; names[i] != NULL; i++)
		if (strlen(names[i]) == len && strncmp(var, names[i], len) == 0)
			return true;
	for (i = 0; prefixes[i] != NULL; i++)
		if (len >= strlen(prefixes[i]) &&
		    strncmp(var, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* Whether the first len bytes of name hold part, in any case. */
static bool
policy_name_has(const char *name, size_t len, const char *part)
{
	size_t	plen = strlen(part), i;

	for (i = 0; i + plen <= len; i++)
		if (strncasecmp(name + i, part, plen) == 0)
			return true;
	return false;
}

/* Whether the first len bytes of name are one of names, in any case. */
static bool
policy_name_is_one_of(const char *name, size_t len, const char *const *names)
{
	for (; *names != NULL; names++)
		if (strlen(*names) == len && strncasecmp(name, *names, len) == 0)
			return true;
	return false;
}

bool
policy_env_secret(const char *var)
{
	/* Words a secret's name holds, in any case and anywhere in it. */
	static const char *const parts[] = {
		"KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "CREDENTIAL",
		NULL
	};
	/*
	 * Providers' names, in any case: those the words above already
	 * catch are listed too, so that changing the words never lets one
	 * through; the others are why the list exists.
	 */
	static const char *const names[] = {
		/* Cloud keys: AWS (the session token is temporary, still a key). */
		"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		/* Azure: a storage connection string holds the account key. */
		"AZURE_CLIENT_SECRET", "AZURE_STORAGE_KEY",
		"AZURE_STORAGE_CONNECTION_STRING", "AZURE_STORAGE_SAS_TOKEN",
		/* Google: an API key, a service account's key file. */
		"GOOGLE_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS",
		/* Forges and CI: push, publish, read private repositories. */
		"GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT", "GH_ENTERPRISE_TOKEN",
		"GITLAB_TOKEN", "CI_JOB_TOKEN", "CI_JOB_JWT", "CI_JOB_JWT_V2",
		"ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
		/* Model providers: a key spends the person's money. */
		"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY",
		"GEMINI_API_KEY", "MISTRAL_API_KEY", "GROQ_API_KEY",
		"OPENROUTER_API_KEY", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN",
		/* Package registries: publishing as the person. */
		"NPM_TOKEN", "NODE_AUTH_TOKEN", "PYPI_TOKEN", "TWINE_PASSWORD",
		"CARGO_REGISTRY_TOKEN", "GEM_HOST_API_KEY",
		/* Databases and containers whose names say PWD or AUTH. */
		"MYSQL_PWD", "PGPASSWORD", "DOCKER_AUTH_CONFIG",
		/* A webhook's URL is the credential to post to it. */
		"SLACK_WEBHOOK_URL", "DISCORD_WEBHOOK_URL",
		NULL
	};
	/*
	 * Names the words catch that hold no secret by definition (exact
	 * case: another spelling is some other variable): zsh's key timeout
	 * (hundredths of a second), the Hugging Face tokenizers' switch (a
	 * boolean), the keyring daemon's socket directory (a socket, as
	 * SSH_AUTH_SOCK: plumbing, not a value worth printing).
	 */
	static const char *const settings[] = {
		"KEYTIMEOUT", "TOKENIZERS_PARALLELISM", "GNOME_KEYRING_CONTROL",
		NULL
	};
	/*
	 * git's configuration given in the environment (GIT_CONFIG_COUNT, and
	 * GIT_CONFIG_KEY_<n> naming a setting whose GIT_CONFIG_VALUE_<n>
	 * passes): dropping the name alone leaves git unable to start (Gemini
	 * CLI's shell sets eight).
	 */
	static const char git_key[] = "GIT_CONFIG_KEY_";
	size_t	len = strcspn(var, "="), i;

	for (i = 0; settings[i] != NULL; i++)
		if (strlen(settings[i]) == len &&
		    strncmp(var, settings[i], len) == 0)
			return false;
	if (len > sizeof git_key - 1 && strncmp(var, git_key,
	    sizeof git_key - 1) == 0 && strspn(var + sizeof git_key - 1,
	    "0123456789") == len - (sizeof git_key - 1))
		return false;
	if (policy_name_is_one_of(var, len, names))
		return true;
	for (i = 0; parts[i] != NULL; i++)
		if (policy_name_has(var, len, parts[i]))
			return true;
	return false;
}

/* The entry of v for the variable named by var (NAME...=), or NULL. */
static const char *
policy_env_find(char *const *v, const char *var)
{
	size_t	len = strcspn(var, "=");

	for (; v != NULL && *v != NULL; v++)
		if (strncmp(*v, var, len) == 0 && (*v)[len] == '=')
			return *v;
	return NULL;
}

char **
policy_env_differs(char *const *caller, char *const *base)
{
	const char	*other;
	char		**out;
	size_t		  n = 0, i;

	out = xcalloc(strv_len(caller) + strv_len(base) + 1, sizeof *out);
	for (i = 0; caller != NULL && caller[i] != NULL; i++) {
		if (!policy_env_steers(caller[i]) ||
		    strchr(caller[i], '=') == NULL)
			continue;
		other = policy_env_find(base, caller[i]);
		if (other == NULL || strcmp(other, caller[i]) != 0)
			out[n++] = xstrdup(caller[i]);
	}
	if (n == 0) {
		free(out);
		return NULL;
	}
	return out;
}
