/*
 * approval.h - the approval queue: commands submitted by agents, and hosts
 * a filtered network's proxy asks for ("connect" requests), judged by the
 * policy, and decided by the policy or by a person.
 *
 * A request is submitted (approval_submit, approval_submit_host: judged,
 * numbered, not yet acted on), then dispatched (approval_dispatch): an
 * "allow" or "deny" verdict decides it at once, an "ask" verdict leaves it
 * PENDING until a person approves, denies or edits it, or its owner
 * withdraws it.  Subscribers (the control server, the front ends) hear of
 * every request that starts waiting, is decided or is withdrawn.  A
 * request is freed right after its decided/withdrawn event: subscribers
 * copy what they keep.
 *
 * When a request starts waiting, an optional notify program is run with
 * one argument, a JSON object describing it (Codex's `notify` convention);
 * it is spawned without waiting and reaped through the loop's SIGCHLD.
 *
 * For a modal prompt: approval_pending_count/approval_pending_at list the
 * waiting requests oldest first with everything to show (argv, cwd,
 * sandbox, network, why, client pid and executable, verdict and what
 * decided it); approval_suggest_rule gives the editable rule for "approve
 * and remember"; approval_approve, approval_approve_once (a host: this
 * connection only), approval_remember, approval_deny and approval_edit
 * decide.  Deferring is doing nothing.
 */
#ifndef PTYVISOR_APPROVAL_H
#define PTYVISOR_APPROVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/loop.h"
#include "control/proto.h"
#include "policy/policy.h"
#include "sandbox/sandbox.h"

enum approval_state {
	APPROVAL_PENDING,
	APPROVAL_APPROVED,
	APPROVAL_DENIED,
	APPROVAL_WITHDRAWN
};

/* How far an approved host (a "connect" request) reaches. */
enum approval_scope {
	APPROVAL_SCOPE_NONE,	/* a command, or not approved */
	APPROVAL_SCOPE_ONCE,	/* this one connection */
	APPROVAL_SCOPE_SESSION,	/* the host and port while the sandbox lives */
	APPROVAL_SCOPE_RULE	/* a rule (remembered, or in the rules file):
				   this sandbox and later ones */
};

/* Who sent a request (a plain value; strings borrowed by approval_submit). */
struct approval_from {
	pid_t		 client_pid;	/* 0: unknown */
	const char	*client_exe;	/* NULL: unknown */
	void		*owner;		/* who submitted it (opaque) */
};

/*
 * A request.  Owned by the queue; read-only for everyone else, valid until
 * its decided or withdrawn event has been delivered.
 */
struct approval_request {
	uint64_t		 id;		/* 1, 2, ... */
	enum approval_state	 state;
	/*
	 * What was asked, as the protocol parsed it (the value itself, taken
	 * from the caller): its argv as it will run (edit changes it), its
	 * sandbox always set (the queue's default when it named none).
	 */
	struct proto_exec	 exec;
	/*
	 * A filtered network's proxy asks for one host (exec.argv names it:
	 * "connect HOST:PORT"; host normalized, port 1-65535): judged only
	 * by the rules whose first word is "connect" (policy_check_host),
	 * else asked; nothing started when approved.
	 */
	bool			 connect;
	char			*host;
	unsigned int		 port;
	enum approval_scope	 scope;		/* connect, once approved */
	/*
	 * An exec inside a running session (exec checks): its process waits
	 * in execve until this is decided, then runs it or gets EACCES;
	 * nothing is started and no history line written (the session's
	 * exec log has it).  exec.argv and exec.cwd are the exec's; the
	 * verdict comes with it (policy_check_exec); it cannot be edited.
	 */
	bool			 exec_check;
	unsigned long		 check_session;
	uint64_t		 check_exec;	/* the session's id for it */
	pid_t			 check_pid;
	char			*check_path;
	char			*check_chain;
	pid_t			 client_pid;	/* 0: unknown */
	char			*client_exe;	/* NULL: unknown */
	void			*owner;
	/*
	 * The variables of exec.environ that steer what runs and differ from
	 * ours (policy_env_differs); NULL: none.
	 */
	char			**environ_differs;

	/* The policy's verdict and what decided it. */
	enum policy_decision	 verdict;
	char			*verdict_why;	/* one line for a person */
	char			*verdict_by;	/* rule as written, or "mode X" */
	/* Allowed unasked as known read-only: runs policy_known_safe_env(). */
	bool			 known_safe;

	/* Once decided: "user", "user (edited)" or verdict_by; reason. */
	char			*decided_by;
	char			*reason;	/* deny reason; NULL: none */
	char			*remembered;	/* rule remembered; NULL: none */
	bool			 edited;	/* argv was edited by a person */
	int64_t			 queued_us;	/* wall clock */
};

/* Subscriber callbacks; any may be NULL.  r is valid during the call. */
struct approval_events {
	/* r waits for a person. */
	void	(*pending)(void *user, struct approval_request *r);
	/* r was approved or denied (by the policy or a person). */
	void	(*decided)(void *user, struct approval_request *r);
	/* r's owner gave up on it while it was pending. */
	void	(*withdrawn)(void *user, struct approval_request *r);
};

struct approval;

/*
 * A queue judging with policy (borrowed; remembered rules go into it).
 * loop (may be NULL: no notify program) reaps notify programs.  Never NULL.
 */
struct approval	*approval_new(struct loop *loop, struct policy *policy);

/*
 * What a request's own asks make of the policy's decision d: an allow is
 * asked when it sets a secret variable (policy_env_secret), wants the
 * network, no sandbox (profile sandbox, may be NULL) or sets environment
 * variables.  The reason ("passes a secret variable NAME", "network
 * requested", "no sandbox requested", "environment variables set"; the
 * caller frees it), NULL when none.
 */
char		*approval_raise(enum policy_decision d, bool network,
		    const char *sandbox, char *const *env);

/* Free the queue; pending requests are dropped without events. */
void		 approval_free(struct approval *a);

/* Add a subscriber (at most 8). */
void		 approval_subscribe(struct approval *a,
		     const struct approval_events *ev, void *user);

/* The notify program (NULL: none); copied. */
void		 approval_set_notify(struct approval *a, const char *program);

/*
 * The history file (history.jsonl) where requests that never run (denied,
 * or withdrawn unanswered) get their line; NULL: none.  Copied.
 */
void		 approval_set_history(struct approval *a, const char *path);

/* The rules file remembered rules are saved to (NULL: no saving); copied. */
void		 approval_set_rules_path(struct approval *a, const char *path);

/*
 * The secret variables an agent's environment passes on all the same
 * ([sandbox] pass_env; n names, copied): every other one is dropped from a
 * request's environ when it is submitted, its name kept in the request's
 * env_dropped.
 */
void		 approval_set_pass_env(struct approval *a,
		    const char *const *names, int n);

/* The profile used when a request names none (default workspace-write). */
void		 approval_set_default_sandbox(struct approval *a,
		     enum sandbox_profile profile);

struct policy	*approval_policy(const struct approval *a);

/*
 * Judge and number a request; nothing happens until approval_dispatch.  x
 * (argv non-empty) is taken: the request holds its contents from now on
 * and *x is left empty.  Its environ's secret variables are dropped first
 * (approval_set_pass_env).
 */
struct approval_request	*approval_submit(struct approval *a,
			     struct proto_exec *x,
			     const struct approval_from *from);

/*
 * The same for a host a filtered network's proxy asks for (host
 * normalized, port 1-65535; why may be NULL), as "connect HOST:PORT".
 */
struct approval_request	*approval_submit_host(struct approval *a,
			     const char *host, unsigned int port,
			     const char *why, const struct approval_from *from);

/* An exec inside a session to be asked about (strings borrowed). */
struct approval_exec_check {
	unsigned long	 session;
	uint64_t	 exec;		/* its id there */
	pid_t		 pid;
	char *const	*argv;
	const char	*cwd;
	const char	*path;
	const char	*chain;
	enum sandbox_profile profile;	/* the session's */
	const char	*verdict_by;	/* the rule that asks, or the mode */
	const char	*verdict_why;
};

/*
 * Number and queue such an exec: pending at once (its verdict is ask),
 * with the pending event and the notify program as any request.
 */
struct approval_request	*approval_submit_exec_check(struct approval *a,
			     const struct approval_exec_check *c,
			     const struct approval_from *from);

/* r as queued and list events and the notify program describe it. */
void			 approval_pending_view(const struct approval_request *r,
			     struct proto_pending *p);

/*
 * Act on the verdict: allow or deny decides now (decided event, then r is
 * freed), ask makes it pending (pending event, notify program).  Returns
 * the state r reached; r must not be used afterwards unless it is pending.
 */
enum approval_state	 approval_dispatch(struct approval *a,
			     struct approval_request *r);

/* Waiting requests, oldest first. */
size_t			 approval_pending_count(const struct approval *a);
struct approval_request	*approval_pending_at(const struct approval *a,
			     size_t i);
/* A waiting request by number, or NULL. */
struct approval_request	*approval_find(const struct approval *a, uint64_t id);

/*
 * Approve a pending request once; by is who decided (NULL: "user").
 * -1 with *cause when no such request is waiting.
 */
int	approval_approve(struct approval *a, uint64_t id, const char *by,
	    char **cause);

/*
 * Approve a pending request for this once: a host (a connect request) for
 * its one connection only, the next one asked again; a command as
 * approval_approve (it runs once anyway).
 */
int	approval_approve_once(struct approval *a, uint64_t id, const char *by,
	    char **cause);

/*
 * Approve and remember a rule written as in the rules file (NULL: the
 * suggestion of approval_suggest_rule); with save, also write the
 * remembered rules to the rules file.  Returns 0 when approved; 1 when
 * approved but the save failed (*cause says why); -1 with *cause when
 * nothing happened (no such request, a rule that does not parse).
 *
 * A host (a connect request) is remembered as exactly "allow connect
 * HOST:PORT" (rule must be NULL or that line), saved alone to the rules
 * file whatever save says, so that later sandboxes reach it unasked; a
 * host that is not a plain name (letters, digits, '.', '-', '_') is
 * refused (-1), so nothing but that one rule can reach the file.  by is
 * who decided (NULL: "user").
 */
int	approval_remember(struct approval *a, uint64_t id, const char *rule,
	    bool save, const char *by, char **cause);

/* Deny a pending request; reason (may be NULL) goes back to the agent. */
int	approval_deny(struct approval *a, uint64_t id, const char *reason,
	    const char *by, char **cause);

/*
 * Replace the argv of a pending request (non-empty), then approve it, as
 * decided by "BY (edited)" (by NULL: "user").  An exec check cannot be
 * edited (-1): its program execs what it asked.
 */
int	approval_edit(struct approval *a, uint64_t id, char *const *argv,
	    const char *by, char **cause);

/* The owner gives up on a pending request (withdrawn event); no-op else. */
void	approval_withdraw(struct approval *a, uint64_t id);

/* Withdraw every pending request of owner. */
void	approval_withdraw_owner(struct approval *a, void *owner);

/* The default rule to remember for r: "allow " + its quoted argv. */
char	*approval_suggest_rule(const struct approval_request *r);

const char	*approval_state_name(enum approval_state st);

/* "once", "session", "rule"; NULL for APPROVAL_SCOPE_NONE. */
const char	*approval_scope_name(enum approval_scope sc);

/* The JSON argument given to the notify program for r.  Caller frees. */
char	*approval_notify_json(const struct approval_request *r);

#endif
