/*
 * exec-judge.c - the server's judge of execs inside sessions (see
 * exec-judge.h).
 *
 * An exec a rule asks about becomes a request in the approval queue (its
 * process blocked in execve meanwhile), shown like any other with the
 * chain it came from; its decision, from a console, `ptyvisor approve` or
 * any client, is handed back to the session, which answers the kernel.
 * One whose process or session went away is withdrawn.  Invariant: each
 * queued exec check is in asked[] until it is decided or withdrawn.
 */
#include "server/exec-judge.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sha256.h"
#include "base/util.h"
#include "control/approval.h"
#include "policy/policy.h"
#include "session/session.h"

/* An exec check waiting in the queue. */
struct exec_asked {
	uint64_t	 request;
	unsigned long	 session;
	uint64_t	 exec;
};

/*
 * A program a deny or ask rule names, as found in our PATH: a file that
 * is this one (same inode), or a copy of it (same size and digest), is
 * judged by that name whatever it is called.
 */
struct exec_named {
	char	*name;
	bool	 found;
	dev_t	 dev;
	ino_t	 ino;
	off_t	 size;
	char	 digest[65];		/* "" until needed */
};

/* Files larger than this are not compared by digest. */
#define EXEC_DIGEST_MAX	(256 * 1024 * 1024)
/* The most aliases one file gets. */
#define EXEC_ALIASES	8

struct exec_judge {
	struct sessions		*ss;
	struct approval		*a;
	struct policy		*policy;
	bool			 strict;
	bool			 judge_own;
	struct exec_asked	*asked;
	size_t			 nasked;
	struct exec_named	*named;
	size_t			 nnamed;
	unsigned long		 generation;	/* of the rules named[] is of */
	bool			 have_named;
};

/* Forget the programs found for the rules. */
static void
exec_named_clear(struct exec_judge *j)
{
	size_t	i;

	for (i = 0; i < j->nnamed; i++)
		free(j->named[i].name);
	free(j->named);
	j->named = NULL;
	j->nnamed = 0;
	j->have_named = false;
}

/* Find again the programs the rules name, when the rules changed. */
static void
exec_named_refresh(struct exec_judge *j)
{
	struct stat	 st;
	char		**names, *path;
	size_t		 i;

	if (j->have_named && j->generation == policy_generation(j->policy))
		return;
	exec_named_clear(j);
	names = policy_exec_names(j->policy);
	j->nnamed = strv_len(names);
	j->named = xcalloc(j->nnamed + 1, sizeof *j->named);
	for (i = 0; i < j->nnamed; i++) {
		j->named[i].name = xstrdup(names[i]);
		path = util_program_path(names[i]);
		if (path != NULL && stat(path, &st) == 0) {
			j->named[i].found = true;
			j->named[i].dev = st.st_dev;
			j->named[i].ino = st.st_ino;
			j->named[i].size = st.st_size;
		}
		free(path);
	}
	strv_free(names);
	j->generation = policy_generation(j->policy);
	j->have_named = true;
}

/* The digest of a file (not larger than EXEC_DIGEST_MAX); false: none. */
static bool
exec_digest(const char *path, off_t size, char out[65])
{
	char	*data;
	ssize_t	 n;
	size_t	 got = 0;
	int	 fd;

	if (size <= 0 || size > EXEC_DIGEST_MAX ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	data = xmalloc((size_t)size);
	while (got < (size_t)size &&
	    (n = read(fd, data + got, (size_t)size - got)) > 0)
		got += (size_t)n;
	close(fd);
	if (got == (size_t)size)
		sha256_hex(data, got, out);
	free(data);
	return got == (size_t)size;
}

/*
 * The names of rules' programs the file c execs is (a link or a copy of
 * it), into out (NULL-ended, at most EXEC_ALIASES).
 */
static void
exec_aliases(struct exec_judge *j, const struct sandbox_exec_call *c,
    const char **out)
{
	struct exec_named	*e;
	char			 mine[65] = "";
	char			*path;
	size_t			 i, n = 0;

	out[0] = NULL;
	if (!c->has_st)
		return;
	exec_named_refresh(j);
	for (i = 0; i < j->nnamed && n < EXEC_ALIASES; i++) {
		e = &j->named[i];
		if (!e->found || e->size != c->size)
			continue;
		if (e->dev == c->dev && e->ino == c->ino) {
			out[n++] = e->name;
			continue;
		}
		/* Same size: compare the contents. */
		if (mine[0] == '\0' && !exec_digest(c->open_path, c->size,
		    mine))
			break;
		if (e->digest[0] == '\0') {
			path = util_program_path(e->name);
			if (path == NULL || !exec_digest(path, e->size,
			    e->digest))
				e->found = false;
			free(path);
		}
		if (e->found && strcmp(e->digest, mine) == 0)
			out[n++] = e->name;
	}
	out[n] = NULL;
}

/* Take the entry of request id out of asked[]; false when none. */
static bool
exec_unask(struct exec_judge *j, uint64_t request, struct exec_asked *out)
{
	size_t	i;

	for (i = 0; i < j->nasked; i++)
		if (j->asked[i].request == request)
			break;
	if (i == j->nasked)
		return false;
	*out = j->asked[i];
	memmove(&j->asked[i], &j->asked[i + 1],
	    (j->nasked - i - 1) * sizeof *j->asked);
	j->nasked--;
	return true;
}

/* Whether the rules of the session o describes need exec checks. */
static enum sandbox_exec_checks
exec_want(void *user, const struct session_opts *o)
{
	struct exec_judge	*j = user;

	if (!o->agent && !j->judge_own)
		return SANDBOX_EXEC_BEST;
	if ((o->agent && j->strict) || policy_has_exec_rules(j->policy))
		return SANDBOX_EXEC_REQUIRED;
	return SANDBOX_EXEC_BEST;
}

/* What exec_covered looks for among a command line's simple commands. */
struct exec_cover {
	char *const	*argv;
	bool		 found;
};

/* policy_part_fn: whether this simple command is the exec's words. */
static void
exec_cover_part(void *user, char *const *argv, struct policy_verdict v)
{
	struct exec_cover	*k = user;

	(void)v;
	if (argv != NULL && argv[0] != NULL && strv_equal(argv, k->argv))
		k->found = true;
}

/*
 * Whether the exec is the session's own command line or one of the simple
 * commands its shell string runs: judged, and asked, when the command was,
 * so not asked again (a deny rule would have refused the command then).
 */
static bool
exec_covered(struct exec_judge *j, struct session *s,
    const struct sandbox_exec_call *c)
{
	struct exec_cover	 k = { c->argv, false };
	char *const		*argv = session_argv(s);

	if (c->argv == NULL || c->argv[0] == NULL || c->argv_cut)
		return false;
	if (strv_equal(argv, c->argv))
		return true;
	policy_check_parts(j->policy, argv, NULL, exec_cover_part, &k);
	return k.found;
}

/* Judge one exec: the rules, else what was approved covers it. */
static enum session_exec_verdict
exec_judge(void *user, struct session *s, struct sandbox_exec_call *c,
    const char **by)
{
	struct exec_judge		*j = user;
	struct policy_verdict		 v;
	struct approval_exec_check	 q;
	struct approval_from		 from;
	struct approval_request		*r;
	char				*chain;
	const char			*aliases[EXEC_ALIASES + 1];
	bool				 agent = session_is_agent(s);

	if (!agent && !j->judge_own) {
		*by = "a person's own session: logged, not judged";
		return SESSION_EXEC_ALLOW;
	}
	exec_aliases(j, c, aliases);
	v = policy_check_exec(j->policy, c->argv, c->path, aliases,
	    agent && j->strict);
	*by = v.why;
	if (v.decision == POLICY_ALLOW)
		return SESSION_EXEC_ALLOW;
	if (v.decision == POLICY_DENY)
		return SESSION_EXEC_DENY;
	if (exec_covered(j, s, c)) {
		*by = "the command a person approved, as it was asked";
		return SESSION_EXEC_ALLOW;
	}

	/* The question shows where it came from: read it now. */
	sandbox_exec_complete(c);
	chain = session_exec_chain(s, c);
	memset(&q, 0, sizeof q);
	q.session = session_id(s);
	q.exec = c->id;
	q.pid = c->pid;
	q.argv = c->argv;
	q.cwd = c->cwd;
	q.path = c->path;
	q.chain = chain;
	sandbox_profile_lookup(session_profile(s), &q.profile);
	q.verdict_by = v.rule != NULL ? v.rule : v.why;
	q.verdict_why = v.why;
	memset(&from, 0, sizeof from);
	from.owner = j;
	j->asked = xreallocarray(j->asked, j->nasked + 1, sizeof *j->asked);
	j->asked[j->nasked].session = q.session;
	j->asked[j->nasked].exec = c->id;
	j->asked[j->nasked].request = 0;
	r = approval_submit_exec_check(j->a, &q, &from);
	j->asked[j->nasked++].request = r->id;
	free(chain);
	return SESSION_EXEC_ASK;
}

/* An exec asked about can no longer run: withdraw its request. */
static void
exec_gone(void *user, struct session *s, uint64_t id)
{
	struct exec_judge	*j = user;
	struct exec_asked	 e;
	size_t			 i;

	for (i = 0; i < j->nasked; i++)
		if (j->asked[i].session == session_id(s) &&
		    j->asked[i].exec == id)
			break;
	if (i == j->nasked)
		return;
	e = j->asked[i];
	approval_withdraw(j->a, e.request);	/* removes it from asked[] */
}

/* Approval callback: hand a decided exec check to its session. */
static void
exec_decided(void *user, struct approval_request *r)
{
	struct exec_judge	*j = user;
	struct exec_asked	 e;
	struct session		*s;
	char			*by;

	if (!r->exec_check || !exec_unask(j, r->id, &e))
		return;
	if ((s = sessions_find(j->ss, e.session)) == NULL)
		return;
	by = r->reason != NULL ? xasprintf("%s: %s", r->decided_by,
	    r->reason) : xstrdup(r->decided_by != NULL ? r->decided_by :
	    "user");
	session_exec_decide(s, e.exec, r->state == APPROVAL_APPROVED, by);
	free(by);
}

/* Approval callback: a withdrawn exec check is forgotten. */
static void
exec_withdrawn(void *user, struct approval_request *r)
{
	struct exec_judge	*j = user;
	struct exec_asked	 e;

	if (r->exec_check)
		exec_unask(j, r->id, &e);
}

static const struct approval_events exec_approval_events = {
	.decided = exec_decided,
	.withdrawn = exec_withdrawn,
};

static const struct session_exec_judge exec_session_judge = {
	.judge = exec_judge,
	.gone = exec_gone,
	.want = exec_want,
};

struct exec_judge *
exec_judge_new(struct sessions *ss, struct approval *a, struct policy *p,
    bool strict, bool judge_own)
{
	struct exec_judge	*j = xcalloc(1, sizeof *j);

	j->ss = ss;
	j->a = a;
	j->policy = p;
	j->strict = strict;
	j->judge_own = judge_own;
	approval_subscribe(a, &exec_approval_events, j);
	sessions_set_exec_judge(ss, &exec_session_judge, j);
	return j;
}

void
exec_judge_free(struct exec_judge *j)
{
	if (j == NULL)
		return;
	exec_named_clear(j);
	free(j->asked);
	free(j);
}
