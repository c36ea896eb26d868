/*
 * test-approval.c - the approval queue: verdicts, states, deciding,
 * remembering (and saving) rules, editing, withdrawing, events, the notify
 * program's JSON.
 */
#include "control/approval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "tests/tap.h"
#include "tests/unit/ask-host.h"

/* What the subscriber saw, as one string per event. */
static struct buf seen;

static void
ev_pending(void *user, struct approval_request *r)
{
	(void)user;
	buf_printf(&seen, "pending %llu;", (unsigned long long)r->id);
}

static void
ev_decided(void *user, struct approval_request *r)
{
	(void)user;
	buf_printf(&seen, "%s %llu by %s%s%s;", approval_state_name(r->state),
	    (unsigned long long)r->id, r->decided_by,
	    r->reason != NULL ? " reason " : "",
	    r->reason != NULL ? r->reason : "");
}

static void
ev_withdrawn(void *user, struct approval_request *r)
{
	(void)user;
	buf_printf(&seen, "withdrawn %llu;", (unsigned long long)r->id);
}

static const struct approval_events events = {
	.pending = ev_pending,
	.decided = ev_decided,
	.withdrawn = ev_withdrawn,
};

/* A request for argv (copied: the queue takes what it is given). */
static struct proto_exec
exec_of(char *const *argv)
{
	struct proto_exec	x;

	memset(&x, 0, sizeof x);
	x.argv = strv_dup(argv);
	return x;
}

/* Submit argv (words separated by spaces) for owner; return the request. */
static struct approval_request *
submit(struct approval *a, const char *words, void *owner)
{
	struct approval_from	 from = { 42, "/usr/bin/agent", owner };
	struct proto_exec	 x;
	char			*copy = xstrdup(words), *argv[16], *w;
	struct approval_request	*r;
	int			 n = 0;

	for (w = strtok(copy, " "); w != NULL && n < 15; w = strtok(NULL, " "))
		argv[n++] = w;
	argv[n] = NULL;
	x = exec_of(argv);
	x.cwd = xstrdup("/tmp");
	x.why = xstrdup("testing");
	r = approval_submit(a, &x, &from);
	free(copy);
	return r;
}

/* Reset and return what was seen. */
static const char *
take(void)
{
	static char	out[1024];

	snprintf(out, sizeof out, "%s", seen.len ? buf_cstr(&seen) : "");
	seen.len = 0;
	return out;
}

/* Submit a connect request for host:port and queue it. */
static struct approval_request *
ask_host(struct approval *a, const char *host, unsigned int port)
{
	return ask_host_request(a, host, port);
}

/* The scope of the last approval the subscriber saw (scope_seen). */
static enum approval_scope scope_seen;

static void
ev_scope(void *user, struct approval_request *r)
{
	(void)user;
	scope_seen = r->scope;
}

static const struct approval_events scope_events = { .decided = ev_scope };

/* A file's contents ("" when missing). */
static char *
slurp(const char *path)
{
	struct buf	 b = { 0 };
	char		 chunk[4096], *text;
	FILE		*f = fopen(path, "r");
	size_t		 n;

	if (f != NULL) {
		while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
			buf_add(&b, chunk, n);
		fclose(f);
	}
	text = xstrdup(b.len > 0 ? buf_cstr(&b) : "");
	buf_free(&b);
	return text;
}

/*
 * Hosts asked for by a proxy: once, for the session, remembered as the
 * one exact rule saved alone to the rules file (never another remembered
 * rule with it, never a crafted name), which later requests are judged by.
 */
static void
test_hosts(void)
{
	static const char *const bad[] = {
		"x.test\nallow **", "*", "a b.test", "::1", "x.test:1",
		"'x.test'", "x[a].test", ""
	};
	struct policy		*p = policy_new(POLICY_ON_REQUEST);
	struct approval		*a = approval_new(NULL, p);
	struct approval_request	*r;
	char			 dir[] = "/tmp/pvahXXXXXX", *path, *text;
	char			*cause = NULL;
	size_t			 i;

	if (mkdtemp(dir) == NULL)
		fatal("mkdtemp");
	path = xasprintf("%s/rules", dir);
	approval_set_rules_path(a, path);
	approval_subscribe(a, &scope_events, NULL);
	/* A person's broad rules are no licence for a host. */
	if (policy_load_string(p, "allow c* **\nallow con*ect **\n", "rules",
	    &cause) != 0)
		fatal("%s", cause);

	r = ask_host(a, "x.test", 443);
	ok(r != NULL && strcmp(r->verdict_by, "a host on "
	    "neither list") == 0, "a host is asked (rules 'allow c* **')");
	is_int(approval_approve_once(a, r->id, NULL, &cause), 0, "approved "
	    "once");
	is_int(scope_seen, APPROVAL_SCOPE_ONCE, "... scope once");
	r = ask_host(a, "x.test", 443);
	is_int(approval_approve(a, r->id, NULL, &cause), 0, "approved");
	is_int(scope_seen, APPROVAL_SCOPE_SESSION, "... scope session");

	/* A command's rule remembered, not saved: it must stay unsaved. */
	r = submit(a, "make test", NULL);
	approval_dispatch(a, r);
	is_int(approval_remember(a, r->id, NULL, false, NULL, &cause), 0,
	    "a command remembered, not saved");
	r = ask_host(a, "x.test", 443);
	is_int(approval_remember(a, r->id, NULL, false, NULL, &cause), 0,
	    "a host remembered");
	is_int(scope_seen, APPROVAL_SCOPE_RULE, "... scope rule");
	text = slurp(path);
	is_str(text, "allow connect x.test:443\n", "the rules file holds "
	    "exactly its rule, and not the command's");
	free(text);

	scope_seen = APPROVAL_SCOPE_NONE;
	r = ask_host(a, "x.test", 443);
	ok(r == NULL && scope_seen == APPROVAL_SCOPE_RULE, "the same host "
	    "again: allowed by the rule, unasked");
	is_int(approval_pending_count(a), 0, "... nothing waits");
	r = ask_host(a, "x.test", 8443);
	ok(r != NULL, "another port is asked");
	approval_deny(a, r->id, NULL, NULL, &cause);
	r = ask_host(a, "y.x.test", 443);
	ok(r != NULL, "another host is asked");
	approval_deny(a, r->id, NULL, NULL, &cause);
	r = ask_host(a, "z.test", 443);
	is_int(approval_remember(a, r->id, "allow connect *:443", false,
	    NULL, &cause), -1, "a host's rule is not edited into another");
	ok(cause != NULL && strstr(cause, "exactly") != NULL, "... why: %s",
	    cause);
	free(cause);
	cause = NULL;
	approval_deny(a, r->id, NULL, NULL, &cause);

	/* Crafted names never reach the file, whatever a client sends. */
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		r = ask_host(a, bad[i], 443);
		is_int(approval_remember(a, r->id, NULL, true, NULL, &cause), -1,
		    "host %zu refused for a rule", i);
		free(cause);
		cause = NULL;
		approval_deny(a, r->id, NULL, NULL, &cause);
	}
	text = slurp(path);
	is_str(text, "allow connect x.test:443\n", "the rules file is "
	    "unchanged");
	free(text);

	/* A deny rule for a host wins over the remembered allow. */
	if (policy_load_string(p, "deny connect x.test:*\n", "more",
	    &cause) != 0)
		fatal("%s", cause);
	scope_seen = APPROVAL_SCOPE_NONE;
	r = ask_host(a, "x.test", 443);
	ok(r == NULL && approval_pending_count(a) == 0, "a deny rule: denied "
	    "unasked");

	approval_free(a);
	policy_free(p);
	unlink(path);
	rmdir(dir);
	free(path);
}

int
main(void)
{
	struct policy		*p = policy_new(POLICY_ON_REQUEST);
	struct approval		*a;
	struct approval_request	*r;
	char			*cause = NULL, *s, dir[] = "/tmp/pvaXXXXXX";
	char			*path;
	char			*edited[] = { "echo", "edited", NULL };
	int			 owner1, owner2;

	if (policy_load_string(p, "allow git status\ndeny rm -rf **\n",
	    "rules", &cause) != 0)
		fatal("%s", cause);
	a = approval_new(NULL, p);
	approval_subscribe(a, &events, NULL);

	/* Verdicts. */
	r = submit(a, "git status", &owner1);
	is_int(r->verdict, POLICY_ALLOW, "git status is allowed by rule");
	ok(strstr(r->verdict_by, "git status") != NULL, "verdict_by names "
	    "the rule: %s", r->verdict_by);
	is_str(sandbox_profile_name(r->exec.sandbox), "workspace-write",
	    "default sandbox profile");
	is_int(approval_dispatch(a, r), APPROVAL_APPROVED, "dispatch approves");
	s = xstrdup(take());
	ok(strncmp(s, "approved 1 by rule 'allow git status' (rules:1);", 48) == 0,
	    "decided event by the rule: %s", s);
	free(s);
	is_int(approval_pending_count(a), 0, "nothing pending");

	r = submit(a, "rm -rf /", &owner1);
	is_int(approval_dispatch(a, r), APPROVAL_DENIED, "rm -rf is denied");
	s = xstrdup(take());
	ok(strstr(s, "denied 2 by rule 'deny rm -rf **' (rules:2);") != NULL,
	    "denied event by the rule: %s", s);
	free(s);

	r = submit(a, "make test", &owner1);
	is_int(r->verdict, POLICY_ASK, "make test is asked (on-request)");
	is_str(r->verdict_by, "mode on-request", "asked because of the mode");
	is_int(approval_dispatch(a, r), APPROVAL_PENDING, "it waits");
	is_str(take(), "pending 3;", "pending event");
	is_int(approval_pending_count(a), 1, "one pending");
	ok(approval_find(a, 3) == r, "found by number");
	is_int(approval_pending_at(a, 0)->client_pid, 42, "client pid kept");
	is_str(approval_pending_at(a, 0)->client_exe, "/usr/bin/agent",
	    "client exe kept");

	/* Approve once. */
	is_int(approval_approve(a, 3, NULL, &cause), 0, "approve once");
	is_str(take(), "approved 3 by user;", "approved by user");
	is_int(approval_approve(a, 3, NULL, &cause), -1,
	    "a decided request cannot be decided again");
	ok(cause != NULL && strstr(cause, "no request 3") != NULL,
	    "cause: %s", cause);
	free(cause);
	cause = NULL;
	r = submit(a, "make test", &owner1);
	is_int(r->verdict, POLICY_ASK, "approving once remembers nothing");
	approval_dispatch(a, r);
	take();

	/* Deny with a reason. */
	is_int(approval_deny(a, r->id, "not now", NULL, &cause), 0, "deny");
	is_str(take(), "denied 4 by user reason not now;", "denied, reason");

	/* Remember the suggested rule. */
	r = submit(a, "make test", &owner1);
	approval_dispatch(a, r);
	take();
	s = approval_suggest_rule(r);
	is_str(s, "allow make test", "suggested rule");
	free(s);
	is_int(approval_remember(a, r->id, NULL, false, NULL, &cause), 0,
	    "approve and remember");
	is_str(take(), "approved 5 by user;", "approved by user");
	r = submit(a, "make test", &owner1);
	is_int(r->verdict, POLICY_ALLOW, "the same command is now allowed");
	approval_dispatch(a, r);
	take();
	r = submit(a, "make test2", &owner1);
	is_int(r->verdict, POLICY_ASK, "a longer one is still asked");
	approval_dispatch(a, r);
	take();

	/* A bad edited rule leaves it pending; a good one with save. */
	is_int(approval_remember(a, r->id, "allow 'unterminated", false,
	    NULL, &cause), -1, "a rule that does not parse is refused");
	free(cause);
	cause = NULL;
	is_int(approval_pending_count(a), 1, "still pending");
	is_int(approval_remember(a, r->id, "allow make **", true, NULL,
	    &cause), 1,
	    "save without a rules file: approved, but says so");
	free(cause);
	cause = NULL;
	take();
	if (mkdtemp(dir) == NULL)
		fatal("mkdtemp");
	path = xasprintf("%s/sub/rules", dir);
	approval_set_rules_path(a, path);
	r = submit(a, "cargo build", &owner1);
	approval_dispatch(a, r);
	take();
	is_int(approval_remember(a, r->id, "allow cargo **", true, NULL,
	    &cause), 0,
	    "approve, remember and save");
	take();
	{
		struct policy *p2 = policy_new(POLICY_ON_REQUEST);
		char *argv[] = { "cargo", "test", NULL };

		is_int(policy_load_file(p2, path, &cause), 0,
		    "the saved file loads");
		is_int(policy_check(p2, argv).decision, POLICY_ALLOW,
		    "and allows cargo test");
		policy_free(p2);
	}
	unlink(path);
	free(path);
	path = xasprintf("%s/sub", dir);
	rmdir(path);
	free(path);
	rmdir(dir);

	/* Edit, then approve. */
	r = submit(a, "echo original", &owner1);
	approval_dispatch(a, r);
	take();
	is_int(approval_edit(a, r->id, edited, NULL, &cause), 0, "edit");
	is_str(take(), "approved 9 by user (edited);", "approved (edited)");
	/* Who decided, as a front end names them: kept, "(edited)" after. */
	{
		char		*w = "web (127.0.0.1, token phone)";
		char		 want[128];
		uint64_t	 id;

		r = submit(a, "echo by", &owner1);
		approval_dispatch(a, r);
		take();
		id = r->id;	/* deciding frees r */
		approval_edit(a, id, edited, w, &cause);
		snprintf(want, sizeof want, "approved %llu by %s (edited);",
		    (unsigned long long)id, w);
		is_str(take(), want, "an edit's decider named by its client");
		r = submit(a, "echo by", &owner1);
		approval_dispatch(a, r);
		take();
		id = r->id;
		approval_remember(a, id, "allow echo by", false, w, &cause);
		snprintf(want, sizeof want, "approved %llu by %s;",
		    (unsigned long long)id, w);
		is_str(take(), want, "a remembered rule's decider too");
	}

	/* Withdraw by owner, keeping others. */
	approval_dispatch(a, submit(a, "a1", &owner1));
	approval_dispatch(a, submit(a, "b1", &owner2));
	approval_dispatch(a, submit(a, "a2", &owner1));
	take();
	is_int(approval_pending_count(a), 3, "three pending");
	approval_withdraw_owner(a, &owner1);
	is_str(take(), "withdrawn 12;withdrawn 14;", "owner 1's two withdrawn");
	is_int(approval_pending_count(a), 1, "one left");
	is_str(approval_pending_at(a, 0)->exec.argv[0], "b1", "owner 2's stays");
	approval_withdraw(a, 13);
	is_str(take(), "withdrawn 13;", "withdraw one by number");
	approval_withdraw(a, 13);
	is_str(take(), "", "withdrawing twice is a no-op");

	/* The notify JSON. */
	r = submit(a, "ls -l", &owner1);
	s = approval_notify_json(r);
	ok(strstr(s, "\"type\":\"approval-requested\"") != NULL &&
	    strstr(s, "\"argv\":[\"ls\",\"-l\"]") != NULL &&
	    strstr(s, "\"client_pid\":42") != NULL, "notify JSON: %s", s);
	free(s);
	/* Left pending on purpose: approval_free drops it. */
	approval_dispatch(a, r);

	/* Leaving the sandbox is never allowed by a command rule alone. */
	{
		struct approval_from	 from = { 0, NULL, NULL };
		struct proto_exec	 x;
		char			*gs[] = { "git", "status", NULL };

		x = exec_of(gs);
		x.has_sandbox = true;
		x.sandbox = SANDBOX_FULL_ACCESS;
		r = approval_submit(a, &x, &from);
		is_int(r->verdict, POLICY_ASK, "an allowed command asking for "
		    "no sandbox is asked");
		is_str(r->verdict_by, "no sandbox requested", "and says why");
		is_int(approval_dispatch(a, r), APPROVAL_PENDING,
		    "it waits for a person");
		approval_withdraw(a, r->id);
		x = exec_of(gs);
		x.network = true;
		r = approval_submit(a, &x, &from);
		is_int(r->verdict, POLICY_ASK, "an allowed command asking for "
		    "the network is asked");
		is_str(r->verdict_by, "network requested", "and says why");
		is_int(approval_dispatch(a, r), APPROVAL_PENDING,
		    "it waits for a person");
		approval_withdraw(a, r->id);
		(void)take();
	}

	/* Nor is setting environment variables (LD_PRELOAD...). */
	{
		struct approval_from	 from = { 0, NULL, NULL };
		struct proto_exec	 x;
		char			*gs[] = { "git", "status", NULL };
		char			*env[] = { "LD_PRELOAD=/tmp/x.so", NULL };
		char			*none[] = { NULL };

		x = exec_of(gs);
		x.env = strv_dup(env);
		r = approval_submit(a, &x, &from);
		is_int(r->verdict, POLICY_ASK, "an allowed command that sets "
		    "environment variables is asked");
		is_str(r->verdict_by, "environment variables set",
		    "and says why");
		ok(!r->known_safe, "not run as known read-only");
		ok(r->exec.env != NULL && strcmp(r->exec.env[0],
		    "LD_PRELOAD=/tmp/x.so") == 0,
		    "the request keeps them, to show and to run");
		approval_dispatch(a, r);
		approval_withdraw(a, r->id);
		x = exec_of(gs);
		x.env = strv_dup(none);
		r = approval_submit(a, &x, &from);
		is_int(r->verdict, POLICY_ALLOW, "an empty environment is no "
		    "reason to ask");
		ok(!r->known_safe, "allowed by a rule: not known read-only");
		approval_dispatch(a, r);
		(void)take();
	}

	/* Allowed as known read-only: marked, to run with git's settings off. */
	policy_set_mode(p, POLICY_UNTRUSTED);
	r = submit(a, "ls -l", &owner1);
	ok(r->verdict == POLICY_ALLOW && r->known_safe,
	    "ls in untrusted mode: allowed as known read-only");
	approval_dispatch(a, r);
	(void)take();
	r = submit(a, "python3 x", &owner1);
	ok(r->verdict == POLICY_ASK && !r->known_safe, "python3: asked");
	approval_dispatch(a, r);
	approval_withdraw(a, r->id);
	(void)take();
	policy_set_mode(p, POLICY_ON_REQUEST);
	/*
	 * The agent's own environment: variables that steer what runs void
	 * the read-only list when they differ from ours; others do not.
	 */
	{
		struct approval_from	 from = { 0, NULL, NULL };
		struct proto_exec	 x;
		char			*ls[] = { "ls", NULL };
		char			*same[] = { "MYVAR=1", "CI=true", NULL };
		char			*apath[] = { "MYVAR=1",
				    "PATH=/tmp/agent-bin:/usr/bin:/bin", NULL };
		char			*pager[] = { "GIT_PAGER=evil", NULL };

		policy_set_mode(p, POLICY_UNTRUSTED);
		x = exec_of(ls);
		x.environ = strv_dup(same);
		r = approval_submit(a, &x, &from);
		is_int(r->verdict, POLICY_ALLOW, "variables that steer nothing "
		    "leave a known read-only command allowed");
		ok(r->environ_differs == NULL, "and none is listed");
		approval_dispatch(a, r);
		x = exec_of(ls);
		x.environ = strv_dup(apath);
		r = approval_submit(a, &x, &from);
		is_int(r->verdict, POLICY_ASK, "a PATH of the agent's own makes "
		    "a bare ls not known read-only");
		is_str(r->verdict_by, "environment differs: PATH",
		    "and says which variable");
		ok(r->environ_differs != NULL && strcmp(r->environ_differs[0],
		    apath[1]) == 0, "the request lists it with its value");
		approval_dispatch(a, r);
		approval_withdraw(a, r->id);
		x = exec_of(ls);
		x.environ = strv_dup(pager);
		r = approval_submit(a, &x, &from);
		ok(r->verdict == POLICY_ASK && strstr(r->verdict_by,
		    "GIT_PAGER") != NULL, "so does a GIT_PAGER (%s)",
		    r->verdict_by);
		approval_dispatch(a, r);
		approval_withdraw(a, r->id);
		ok(policy_env_steers("LESSOPEN=x") &&
		    policy_env_steers("BASH_ENV") && !policy_env_steers("CI") &&
		    !policy_env_steers("PATHX=1") &&
		    !policy_env_steers("LD_PRELOAD"), "which variables steer");
		(void)take();
	}

	/* A host a proxy asks for: always asked, never a rule. */
	{
		struct policy		*p2 = policy_new(POLICY_NEVER);
		struct approval		*a2 = approval_new(NULL, p2);
		int			 owner3;
		struct approval_from	 from = { 0, NULL, &owner3 };

		approval_subscribe(a2, &events, NULL);
		r = approval_submit_host(a2, "x.test", 443, NULL, &from);
		ok(r->verdict == POLICY_ASK && r->connect &&
		    strcmp(r->verdict_by, "a host on neither list") == 0,
		    "a host is asked even in mode never (%s)", r->verdict_by);
		approval_dispatch(a2, r);
		(void)take();
		approval_free(a2);
		policy_free(p2);

	}
	test_hosts();

	approval_free(a);
	approval_free(NULL);
	policy_free(p);
	buf_free(&seen);
	return tap_done();
}
