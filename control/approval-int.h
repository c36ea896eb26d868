/*
 * approval-int.h - what the approval queue's two halves share: the queue
 * itself and its judge (approval-judge.c).  Not for use outside control/.
 */
#ifndef PTYVISOR_APPROVAL_INT_H
#define PTYVISOR_APPROVAL_INT_H

#include "control/approval.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define APPROVAL_MAX_SUBSCRIBERS 16	/* the server and up to 8 consoles */
/*
 * Notify programs alive at once: beyond this a burst of requests would fork
 * a process each; the person is told by the other channels anyway.
 */
#define APPROVAL_NOTIFY_MAX	16

struct approval_sub {
	const struct approval_events	*ev;
	void				*user;
};

struct approval {
	struct loop			*loop;
	struct policy			*policy;
	char				*notify;
	char				*rules_path;
	enum sandbox_profile		 default_sandbox;
	char				*history_path;	/* NULL: none */
	char				**pass_env;	/* NULL: none */
	uint64_t			 last_id;

	struct approval_request		**pending;
	size_t				 npending;

	struct approval_sub		 subs[APPROVAL_MAX_SUBSCRIBERS];
	size_t				 nsubs;

	pid_t				 notify_pids[APPROVAL_NOTIFY_MAX];
	size_t				 nnotify;
	bool				 sigchld;
};

/*
 * approval-judge.c: fill r's verdict, verdict_by, verdict_why and
 * known_safe: a host by the connect rules, a command by the policy where
 * it would run, raised to ask where only a person may say yes.
 */
void	approval_judge(struct approval *a, struct approval_request *r);

/*
 * approval-judge.c: take the secret variables out of x's environ (names in
 * a's pass_env stay), their names into x->env_dropped.
 */
void	approval_drop_secrets(const struct approval *a, struct proto_exec *x);

#endif
