/*
 * exec-judge.h - the server's judge of the execs inside its sessions
 * (exec checks): the rules at every depth, a person asked through the
 * approval queue, the answer given back to the waiting program.
 *
 * Agents' sessions are judged; a person's own (console shells, what a
 * console runs) only logged unless judge_own.  strict: in agents'
 * sessions an exec no rule allows is asked.  A session whose rules need
 * exec checks (strict, or a deny or ask rule) does not start without
 * them.  Uses the sessions, the queue and the policy it is given; none of
 * them knows it.
 */
#ifndef PTYVISOR_EXEC_JUDGE_H
#define PTYVISOR_EXEC_JUDGE_H

#include <stdbool.h>

struct approval;
struct policy;
struct sessions;
struct exec_judge;

/* Judge the execs of ss's sessions from now on (all borrowed). */
struct exec_judge	*exec_judge_new(struct sessions *ss,
			    struct approval *a, struct policy *p,
			    bool strict, bool judge_own);
/* Stop (the sessions must be gone, or judged by nobody after this). */
void			 exec_judge_free(struct exec_judge *j);

#endif
