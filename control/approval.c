/*
 * approval.c - the approval queue (see approval.h).
 *
 * Invariants:
 * - a request is in the pending list exactly while its state is PENDING;
 * - every decided or withdrawn request is announced once, then freed;
 * - notify programs are tracked by pid and reaped with waitpid(pid): the
 *   sessions module reaps its own children, so nobody waits for -1.
 */
#include "control/approval-int.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/quote.h"
#include "base/util.h"
#include "record/history.h"
#include "sandbox/sandbox.h"

extern char **environ;

/* Send an event to every subscriber. */
#define APPROVAL_NOTIFY(a, member, r) do {				\
	size_t an_i_;							\
	for (an_i_ = 0; an_i_ < (a)->nsubs; an_i_++)			\
		if ((a)->subs[an_i_].ev->member != NULL)		\
			(a)->subs[an_i_].ev->member(			\
			    (a)->subs[an_i_].user, (r));		\
} while (0)

struct approval *
approval_new(struct loop *loop, struct policy *policy)
{
	struct approval	*a = xcalloc(1, sizeof *a);

	a->loop = loop;
	a->policy = policy;
	a->default_sandbox = SANDBOX_WORKSPACE_WRITE;
	return a;
}

/* Free one request's memory. */
static void
approval_request_free(struct approval_request *r)
{
	if (r == NULL)
		return;
	proto_exec_free(&r->exec);
	strv_free(r->environ_differs);
	free(r->client_exe);
	free(r->verdict_why);
	free(r->verdict_by);
	free(r->decided_by);
	free(r->reason);
	free(r->remembered);
	free(r->host);
	free(r->check_path);
	free(r->check_chain);
	free(r);
}

void
approval_free(struct approval *a)
{
	size_t	i;

	if (a == NULL)
		return;
	for (i = 0; i < a->npending; i++)
		approval_request_free(a->pending[i]);
	free(a->pending);
	free(a->notify);
	free(a->rules_path);
	free(a->history_path);
	strv_free(a->pass_env);
	free(a);
}

void
approval_subscribe(struct approval *a, const struct approval_events *ev,
    void *user)
{
	if (a->nsubs == APPROVAL_MAX_SUBSCRIBERS)
		fatal("too many approval subscribers");
	a->subs[a->nsubs].ev = ev;
	a->subs[a->nsubs].user = user;
	a->nsubs++;
}

/* SIGCHLD: reap the notify programs that have ended, by pid. */
static void
approval_sigchld(struct loop *l, int sig, void *arg)
{
	struct approval	*a = arg;
	size_t		 i = 0;
	int		 status;

	(void)l;
	(void)sig;
	while (i < a->nnotify) {
		if (waitpid(a->notify_pids[i], &status, WNOHANG) ==
		    a->notify_pids[i]) {
			a->notify_pids[i] = a->notify_pids[--a->nnotify];
			continue;
		}
		i++;
	}
}

void
approval_set_notify(struct approval *a, const char *program)
{
	char	*cause = NULL;

	free(a->notify);
	a->notify = program != NULL && *program != '\0' ?
	    xstrdup(program) : NULL;
	if (a->notify != NULL && a->loop != NULL && !a->sigchld) {
		if (loop_add_signal(a->loop, SIGCHLD, approval_sigchld, a,
		    &cause) == 0)
			a->sigchld = true;
		else {
			free(cause);
			free(a->notify);
			a->notify = NULL;
		}
	}
}

void
approval_set_history(struct approval *a, const char *path)
{
	free(a->history_path);
	a->history_path = path != NULL ? xstrdup(path) : NULL;
}

void
approval_set_rules_path(struct approval *a, const char *path)
{
	free(a->rules_path);
	a->rules_path = path != NULL ? xstrdup(path) : NULL;
}

void
approval_set_pass_env(struct approval *a, const char *const *names, int n)
{
	int	i;

	strv_free(a->pass_env);
	a->pass_env = xcalloc((size_t)n + 1, sizeof *a->pass_env);
	for (i = 0; i < n; i++)
		a->pass_env[i] = xstrdup(names[i]);
}

void
approval_set_default_sandbox(struct approval *a, enum sandbox_profile profile)
{
	a->default_sandbox = profile;
}

struct policy *
approval_policy(const struct approval *a)
{
	return a->policy;
}

const char *
approval_state_name(enum approval_state st)
{
	switch (st) {
	case APPROVAL_PENDING:
		return "pending";
	case APPROVAL_APPROVED:
		return "approved";
	case APPROVAL_DENIED:
		return "denied";
	case APPROVAL_WITHDRAWN:
		return "withdrawn";
	}
	return "unknown";
}

const char *
approval_scope_name(enum approval_scope sc)
{
	switch (sc) {
	case APPROVAL_SCOPE_NONE:
		break;
	case APPROVAL_SCOPE_ONCE:
		return "once";
	case APPROVAL_SCOPE_SESSION:
		return "session";
	case APPROVAL_SCOPE_RULE:
		return "rule";
	}
	return NULL;
}

/* Number r, take who sent it, and judge it. */
static struct approval_request *
approval_enter(struct approval *a, struct approval_request *r,
    const struct approval_from *from)
{
	r->id = ++a->last_id;
	r->state = APPROVAL_PENDING;
	if (!r->exec.has_sandbox) {
		r->exec.has_sandbox = true;
		r->exec.sandbox = a->default_sandbox;
	}
	r->client_pid = from->client_pid;
	r->client_exe = from->client_exe != NULL ?
	    xstrdup(from->client_exe) : NULL;
	r->owner = from->owner;
	r->queued_us = util_wall_us();
	approval_judge(a, r);
	return r;
}

struct approval_request *
approval_submit(struct approval *a, struct proto_exec *x,
    const struct approval_from *from)
{
	struct approval_request	*r = xcalloc(1, sizeof *r);

	assert(x->argv != NULL && x->argv[0] != NULL);
	r->exec = *x;
	memset(x, 0, sizeof *x);
	approval_drop_secrets(a, &r->exec);
	if (r->exec.environ != NULL)
		r->environ_differs = policy_env_differs(r->exec.environ,
		    environ);
	return approval_enter(a, r, from);
}

struct approval_request *
approval_submit_host(struct approval *a, const char *host, unsigned int port,
    const char *why, const struct approval_from *from)
{
	struct approval_request	*r = xcalloc(1, sizeof *r);

	r->exec.argv = xcalloc(3, sizeof *r->exec.argv);
	r->exec.argv[0] = xstrdup("connect");
	r->exec.argv[1] = xasprintf(strchr(host, ':') != NULL ? "[%s]:%u" :
	    "%s:%u", host, port);
	r->exec.network = true;
	r->exec.why = why != NULL ? xstrdup(why) : NULL;
	r->connect = true;
	r->host = xstrdup(host);
	r->port = port;
	return approval_enter(a, r, from);
}

struct approval_request *
approval_submit_exec_check(struct approval *a,
    const struct approval_exec_check *c, const struct approval_from *from)
{
	struct approval_request	*r = xcalloc(1, sizeof *r);

	r->exec.argv = strv_dup(c->argv);
	r->exec.cwd = c->cwd != NULL ? xstrdup(c->cwd) : NULL;
	r->exec.has_sandbox = true;
	r->exec.sandbox = c->profile;
	r->exec_check = true;
	r->check_session = c->session;
	r->check_exec = c->exec;
	r->check_pid = c->pid;
	r->check_path = c->path != NULL ? xstrdup(c->path) : NULL;
	r->check_chain = c->chain != NULL ? xstrdup(c->chain) : NULL;
	r->verdict = POLICY_ASK;
	r->verdict_by = xstrdup(c->verdict_by != NULL ? c->verdict_by : "");
	r->verdict_why = xstrdup(c->verdict_why != NULL ? c->verdict_why :
	    "");
	r = approval_enter(a, r, from);
	approval_dispatch(a, r);
	return r;
}

void
approval_pending_view(const struct approval_request *r,
    struct proto_pending *p)
{
	memset(p, 0, sizeof *p);
	p->request = (int64_t)r->id;
	p->exec = &r->exec;
	p->connect = r->connect;
	p->verdict = policy_decision_name(r->verdict);
	p->by = r->verdict_by;
	p->client_pid = r->client_pid;
	p->client_exe = r->client_exe;
	p->environ_differs = r->environ_differs;
	p->detail = r->verdict_why;
	if (r->exec_check) {
		p->check_session = (int64_t)r->check_session;
		p->check_pid = r->check_pid;
		p->check_path = r->check_path;
		p->check_chain = r->check_chain;
	}
}

char *
approval_notify_json(const struct approval_request *r)
{
	struct proto_pending	p;

	approval_pending_view(r, &p);
	return proto_notify_json(&p);
}

/* Run the notify program for r without waiting for it. */
static void
approval_run_notify(struct approval *a, struct approval_request *r)
{
	posix_spawn_file_actions_t	 fa;
	posix_spawnattr_t		 attr;
	sigset_t			 none, all;
	char				*argv[3];
	pid_t				 pid;

	if (a->notify == NULL || !a->sigchld ||
	    a->nnotify == APPROVAL_NOTIFY_MAX)
		return;
	argv[0] = a->notify;
	argv[1] = approval_notify_json(r);
	argv[2] = NULL;
	posix_spawn_file_actions_init(&fa);
	/* It must not write over a TUI or read the person's keys. */
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigfillset(&all);
	sigdelset(&all, SIGKILL);
	sigdelset(&all, SIGSTOP);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
	    POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
	if (posix_spawnp(&pid, a->notify, &fa, &attr, argv, environ) == 0)
		a->notify_pids[a->nnotify++] = pid;
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	free(argv[1]);
}

/*
 * A request that will never run leaves its line in the history all the
 * same (id 0): who refused it and why, or that nobody answered before
 * its agent went away.  A history that cannot be written loses the line,
 * never the decision.
 */
static void
approval_record_unrun(struct approval *a, const struct approval_request *r)
{
	struct history_entry	 e;
	char			*cause = NULL;
	bool			 denied = r->state == APPROVAL_DENIED;

	if (a->history_path == NULL)
		return;
	memset(&e, 0, sizeof e);
	e.request = (unsigned long)r->id;
	e.argv = r->exec.argv;
	e.cwd = r->exec.cwd;
	e.start_us = r->queued_us;
	e.end_us = util_wall_us();
	e.state = (char *)(denied ? "denied" : "withdrawn");
	e.profile = (char *)sandbox_profile_name(r->exec.sandbox);
	e.decision = denied ? (char *)"deny" : NULL;
	e.by = r->decided_by;
	e.error = denied ? r->reason : (char *)"the agent went away before "
	    "anyone answered";
	e.agent = true;
	e.env_dropped = r->exec.env_dropped;
	if (history_append(a->history_path, &e, &cause) != 0)
		free(cause);
}

/* Take r out of the pending list (if there). */
static void
approval_unlist(struct approval *a, struct approval_request *r)
{
	size_t	i;

	for (i = 0; i < a->npending; i++) {
		if (a->pending[i] == r) {
			memmove(&a->pending[i], &a->pending[i + 1],
			    (a->npending - i - 1) * sizeof *a->pending);
			a->npending--;
			return;
		}
	}
}

/* Settle r in state st, announce it and free it. */
static void
approval_settle(struct approval *a, struct approval_request *r,
    enum approval_state st, const char *by, const char *reason)
{
	approval_unlist(a, r);
	r->state = st;
	if (by != NULL) {
		free(r->decided_by);
		r->decided_by = xstrdup(by);
	}
	if (reason != NULL && *reason != '\0') {
		free(r->reason);
		r->reason = xstrdup(reason);
	}
	if ((st == APPROVAL_DENIED || st == APPROVAL_WITHDRAWN) &&
	    !r->exec_check)
		approval_record_unrun(a, r);
	if (st == APPROVAL_WITHDRAWN)
		APPROVAL_NOTIFY(a, withdrawn, r);
	else
		APPROVAL_NOTIFY(a, decided, r);
	approval_request_free(r);
}

enum approval_state
approval_dispatch(struct approval *a, struct approval_request *r)
{
	switch (r->verdict) {
	case POLICY_ALLOW:
		if (r->connect)
			r->scope = APPROVAL_SCOPE_RULE;
		approval_settle(a, r, APPROVAL_APPROVED, r->verdict_by, NULL);
		return APPROVAL_APPROVED;
	case POLICY_DENY:
		/* The rule is the reason: verdict_by already names it. */
		approval_settle(a, r, APPROVAL_DENIED, r->verdict_by, NULL);
		return APPROVAL_DENIED;
	case POLICY_ASK:
		break;
	}
	a->pending = xreallocarray(a->pending, a->npending + 1,
	    sizeof *a->pending);
	a->pending[a->npending++] = r;
	APPROVAL_NOTIFY(a, pending, r);
	approval_run_notify(a, r);
	return APPROVAL_PENDING;
}

size_t
approval_pending_count(const struct approval *a)
{
	return a->npending;
}

struct approval_request *
approval_pending_at(const struct approval *a, size_t i)
{
	return i < a->npending ? a->pending[i] : NULL;
}

struct approval_request *
approval_find(const struct approval *a, uint64_t id)
{
	size_t	i;

	for (i = 0; i < a->npending; i++)
		if (a->pending[i]->id == id)
			return a->pending[i];
	return NULL;
}

/* The pending request id, or NULL with *cause. */
static struct approval_request *
approval_get(const struct approval *a, uint64_t id, char **cause)
{
	struct approval_request	*r = approval_find(a, id);

	if (r == NULL)
		*cause = xasprintf("no request %llu is waiting",
		    (unsigned long long)id);
	return r;
}

/* Approve a pending request; a host for scope. */
static int
approval_approve_scope(struct approval *a, uint64_t id, const char *by,
    enum approval_scope scope, char **cause)
{
	struct approval_request	*r;

	if ((r = approval_get(a, id, cause)) == NULL)
		return -1;
	if (r->connect)
		r->scope = scope;
	approval_settle(a, r, APPROVAL_APPROVED, by != NULL ? by : "user",
	    NULL);
	return 0;
}

int
approval_approve(struct approval *a, uint64_t id, const char *by,
    char **cause)
{
	return approval_approve_scope(a, id, by, APPROVAL_SCOPE_SESSION,
	    cause);
}

int
approval_approve_once(struct approval *a, uint64_t id, const char *by,
    char **cause)
{
	return approval_approve_scope(a, id, by, APPROVAL_SCOPE_ONCE, cause);
}

/* The one rule a host is remembered as: "allow connect HOST:PORT". */
static char *
approval_host_rule(const struct approval_request *r)
{
	return xasprintf("allow connect %s:%u", r->host != NULL ? r->host :
	    "?", r->port);
}

char *
approval_suggest_rule(const struct approval_request *r)
{
	char	*q, *s;

	if (r->connect)
		return approval_host_rule(r);
	q = quote_argv(r->exec.argv);
	s = xasprintf("allow %s", q);
	free(q);
	return s;
}

/*
 * Approve host r and remember it as its rule, saved alone to the rules
 * file.  The host was normalized by whoever asked; it is checked again
 * here, word by word, because the line goes into a file a person's
 * policy is read from: a name only (no glob, space, quote, newline).
 */
static int
approval_remember_host(struct approval *a, struct approval_request *r,
    const char *rule, const char *by, char **cause)
{
	char	*line, *why = NULL;
	int	 rc;

	if (r->host == NULL || r->host[0] == '\0' || r->port < 1 ||
	    r->port > 65535 || strspn(r->host, "abcdefghijklmnopqrstuvwxyz"
	    "0123456789.-_") != strlen(r->host)) {
		*cause = xstrdup("only a host name (letters, digits, '.', '-', "
		    "'_') and a port can be remembered");
		return -1;
	}
	line = approval_host_rule(r);
	if (rule != NULL && strcmp(rule, line) != 0) {
		*cause = xasprintf("a host is remembered as '%s' exactly",
		    line);
		free(line);
		return -1;
	}
	if (a->rules_path == NULL) {
		if (policy_remember_line(a->policy, line, cause) != 0) {
			free(line);
			return -1;
		}
		*cause = xstrdup("no rules file to save to");
		rc = 1;
	} else if ((rc = policy_remember_saved(a->policy, line,
	    a->rules_path, &why)) < 0) {
		*cause = why;
		free(line);
		return -1;
	} else if (rc > 0)
		*cause = why;
	free(r->remembered);
	r->remembered = line;
	r->scope = APPROVAL_SCOPE_RULE;
	approval_settle(a, r, APPROVAL_APPROVED, by != NULL ? by : "user",
	    NULL);
	return rc;
}

int
approval_remember(struct approval *a, uint64_t id, const char *rule,
    bool save, const char *by, char **cause)
{
	struct approval_request	*r;
	char			*line, *why = NULL;
	int			 rc = 0;

	if ((r = approval_get(a, id, cause)) == NULL)
		return -1;
	if (r->connect)
		return approval_remember_host(a, r, rule, by, cause);
	line = rule != NULL ? xstrdup(rule) : approval_suggest_rule(r);
	if (policy_remember_line(a->policy, line, cause) != 0) {
		free(line);
		return -1;
	}
	free(r->remembered);
	r->remembered = line;
	if (save) {
		if (a->rules_path == NULL) {
			*cause = xstrdup("no rules file to save to");
			rc = 1;
		} else if (policy_save_remembered(a->policy, a->rules_path,
		    &why) < 0) {
			*cause = why;
			rc = 1;
		}
	}
	approval_settle(a, r, APPROVAL_APPROVED, by != NULL ? by : "user",
	    NULL);
	return rc;
}

int
approval_deny(struct approval *a, uint64_t id, const char *reason,
    const char *by, char **cause)
{
	struct approval_request	*r;

	if ((r = approval_get(a, id, cause)) == NULL)
		return -1;
	approval_settle(a, r, APPROVAL_DENIED, by != NULL ? by : "user",
	    reason);
	return 0;
}

int
approval_edit(struct approval *a, uint64_t id, char *const *argv,
    const char *by, char **cause)
{
	struct approval_request	*r;
	char			*edited_by;

	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0') {
		*cause = xstrdup("the edited command is empty");
		return -1;
	}
	if ((r = approval_get(a, id, cause)) == NULL)
		return -1;
	if (r->exec_check) {
		*cause = xasprintf("request %llu is a program's exec inside a "
		    "session: it runs what it asked or nothing, so it cannot "
		    "be edited", (unsigned long long)id);
		return -1;
	}
	strv_free(r->exec.argv);
	r->exec.argv = strv_dup(argv);
	r->edited = true;
	edited_by = xasprintf("%s (edited)", by != NULL ? by : "user");
	approval_settle(a, r, APPROVAL_APPROVED, edited_by, NULL);
	free(edited_by);
	return 0;
}

void
approval_withdraw(struct approval *a, uint64_t id)
{
	struct approval_request	*r = approval_find(a, id);

	if (r != NULL)
		approval_settle(a, r, APPROVAL_WITHDRAWN, NULL, NULL);
}

void
approval_withdraw_owner(struct approval *a, void *owner)
{
	size_t	i = 0;

	while (i < a->npending) {
		if (a->pending[i]->owner == owner) {
			approval_settle(a, a->pending[i], APPROVAL_WITHDRAWN,
			    NULL, NULL);
			i = 0;	/* subscribers may have changed the list */
		} else
			i++;
	}
}
