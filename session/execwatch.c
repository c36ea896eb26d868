/*
 * execwatch.c - a session's exec checks: the listener the sandbox handed
 * over (sandbox/execcheck.c) watched on the loop, every exec of the
 * command's tree read, judged by whoever owns the set (the server: rules,
 * and a person for "ask"), answered, and logged beside the recording.
 *
 * Invariants: every exec taken from the listener is answered exactly once
 * (let go, refused, or left to the kernel when its process died); one
 * that is being asked about waits in the kernel, its process blocked,
 * until session_exec_decide; when the session finishes the listener is
 * closed, so an exec still waiting fails (ENOSYS) instead of running, and
 * the owner is told each question is moot.  With no judge every exec is
 * let go and logged.  One that could not be read is refused: fail closed.
 *
 * The log (<id>.exec.jsonl) holds one JSON line per exec, written when it
 * is decided, and stops at SESSION_EXEC_LOG_MAX bytes with a last line
 * saying so; the count of what was left out goes to the history.
 */
#include "session/session-int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/quote.h"
#include "record/statedir.h"

/* Ancestors named in a chain, at most. */
#define EXEC_CHAIN_MAX	8

/* Start watching the listener s->child.passed; the kept exec first. */
void
session_exec_start(struct session *s)
{
	struct sandbox_exec_call	c;

	s->exec_fd = s->child.passed;
	s->child.passed = -1;
	if (s->exec_fd < 0)
		return;
	s->exec_on = true;
	sandbox_exec_sync_wakeups(s->exec_fd);
	loop_add_fd(s->set->loop, s->exec_fd, POLLIN, LOOP_PRIO_HIGH,
	    session_exec_io, s);
	if (sandbox_exec_deferred(s->sandbox, &c))
		session_exec_judge(s, &c);
}

/* Open the log on first use; false when there is none. */
static bool
exec_log_open(struct session *s)
{
	char	*path;

	if (s->exec_log >= 0)
		return true;
	if (s->record_path == NULL || s->exec_log_failed)
		return false;
	path = statedir_exec_log_path(s->record_path);
	s->exec_log = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0600);
	free(path);
	if (s->exec_log < 0)
		s->exec_log_failed = true;
	return s->exec_log >= 0;
}

/* Write what the log holds in memory to its file. */
static void
exec_log_flush(struct session *s)
{
	if (s->exec_logq.len == 0 || !exec_log_open(s))
		return;
	if (util_write_all(s->exec_log, s->exec_logq.data,
	    s->exec_logq.len) == 0)
		s->exec_log_bytes += s->exec_logq.len;
	s->exec_logq.len = 0;
	buf_trim(&s->exec_logq, SESSION_EXEC_LOG_BATCH);
}

/* Timer: the lines held reach the file within SESSION_FLUSH_MS. */
static void
exec_log_timer(struct loop *l, void *arg)
{
	struct session	*s = arg;

	(void)l;
	s->exec_log_timer = NULL;
	exec_log_flush(s);
}

/*
 * Append one line to the log, within its bound: held in memory and
 * written in one go when SESSION_EXEC_LOG_BATCH bytes wait, or within
 * SESSION_FLUSH_MS (as the recording is), or when the session ends.
 */
static void
exec_log_write(struct session *s, struct buf *b)
{
	const char	*full = "{\"log_full\":true}\n";

	if (s->record_path == NULL || s->exec_log_failed)
		return;
	if (s->exec_log_full) {
		s->execs_unlogged++;
		return;
	}
	if (s->exec_log_bytes + s->exec_logq.len + b->len + strlen(full) >
	    SESSION_EXEC_LOG_MAX) {
		s->exec_log_full = true;
		s->execs_unlogged++;
		buf_adds(&s->exec_logq, full);
		exec_log_flush(s);
		return;
	}
	buf_add(&s->exec_logq, b->data, b->len);
	if (s->exec_logq.len >= SESSION_EXEC_LOG_BATCH)
		exec_log_flush(s);
	else if (s->exec_log_timer == NULL)
		s->exec_log_timer = loop_timer_add(s->set->loop,
		    SESSION_FLUSH_MS, exec_log_timer, s);
}

/* Log one decided exec. */
static void
exec_log(struct session *s, const struct sandbox_exec_call *c,
    bool allowed, bool asked, const char *by)
{
	struct buf	 b = { 0 };
	uint64_t	 us = session_elapsed_us(s);
	size_t		 i;

	buf_printf(&b, "{\"t\":%llu.%06llu,\"pid\":%d,\"ppid\":%d,",
	    (unsigned long long)(us / 1000000),
	    (unsigned long long)(us % 1000000), (int)c->pid, (int)c->ppid);
	buf_adds(&b, "\"cwd\":");
	buf_add_json_string(&b, c->cwd != NULL ? c->cwd : "",
	    c->cwd != NULL ? strlen(c->cwd) : 0);
	buf_adds(&b, ",\"path\":");
	buf_add_json_string(&b, c->path != NULL ? c->path : "",
	    c->path != NULL ? strlen(c->path) : 0);
	buf_adds(&b, ",\"argv\":[");
	for (i = 0; c->argv != NULL && c->argv[i] != NULL; i++) {
		if (i > 0)
			buf_addc(&b, ',');
		buf_add_json_string(&b, c->argv[i], strlen(c->argv[i]));
	}
	buf_addc(&b, ']');
	if (c->argv_cut)
		buf_adds(&b, ",\"argv_cut\":true");
	buf_printf(&b, ",\"verdict\":\"%s\"", allowed ? "allow" : "deny");
	if (asked)
		buf_adds(&b, ",\"asked\":true");
	buf_adds(&b, ",\"by\":");
	buf_add_json_string(&b, by != NULL ? by : "", by != NULL ?
	    strlen(by) : 0);
	buf_adds(&b, "}\n");
	exec_log_write(s, &b);
	buf_free(&b);
}

/* An exec's words, quoted for one line (its file when it has none). */
static char *
exec_words(const struct sandbox_exec_call *c)
{
	return c->argv != NULL && c->argv[0] != NULL ? quote_argv(c->argv) :
	    quote_text(c->path != NULL ? c->path : "?");
}

/* Remember what pid runs now (words, taken), for its children's chains. */
static void
exec_seen(struct session *s, pid_t pid, char *words)
{
	struct session_exec_seen	*e;
	size_t				 i;

	for (i = 0; i < SESSION_EXEC_SEEN; i++)
		if (s->exec_seen[i].pid == pid)
			break;
	if (i == SESSION_EXEC_SEEN)
		i = s->exec_seen_next++ % SESSION_EXEC_SEEN;
	e = &s->exec_seen[i];
	free(e->argv);
	e->pid = pid;
	e->argv = words;
}

/* Whether c is the exec a person just refused, tried again. */
static bool
exec_refused_again(const struct session *s, const struct sandbox_exec_call *c)
{
	return s->refused_argv != NULL && c->pid == s->refused_pid &&
	    c->has_st && c->dev == s->refused_dev &&
	    c->ino == s->refused_ino && c->argv != NULL &&
	    strv_equal(c->argv, s->refused_argv);
}

/* Remember an exec a person refused. */
static void
exec_refused(struct session *s, const struct sandbox_exec_call *c,
    const char *by)
{
	strv_free(s->refused_argv);
	free(s->refused_by);
	s->refused_argv = NULL;
	s->refused_by = NULL;
	if (!c->has_st || c->argv == NULL)
		return;
	s->refused_pid = c->pid;
	s->refused_dev = c->dev;
	s->refused_ino = c->ino;
	s->refused_argv = strv_dup(c->argv);
	s->refused_by = xasprintf("refused a moment ago (%s)", by != NULL ?
	    by : "user");
}

/* Keep a line of the decided exec for the console's view. */
static void
exec_recent(struct session *s, const struct sandbox_exec_call *c,
    const char *words, bool allowed, bool asked, const char *by)
{
	uint64_t	 us = session_elapsed_us(s);
	char		**slot;

	slot = &s->exec_recent[s->exec_recent_next++ % SESSION_EXEC_RECENT];
	free(*slot);
	*slot = xasprintf("%7.3fs %-5s%s pid %d  %s  (%s)",
	    (double)us / 1e6, allowed ? "allow" : "deny", asked ? " asked" : "",
	    (int)c->pid, words, by != NULL ? by : "");
	if (s->exec_recent_n < SESSION_EXEC_RECENT)
		s->exec_recent_n++;
}

/* Checks of what a shared caller's exec runs: at most this many. */
#define EXEC_VERIFY_TRIES	11

static void	exec_verify_timer(struct loop *l, void *arg);

/* Take v out of its session's list and free it. */
static void
exec_verify_drop(struct session_exec_verify *v)
{
	struct session_exec_verify	**pp;

	for (pp = &v->s->exec_verify; *pp != NULL; pp = &(*pp)->next)
		if (*pp == v) {
			*pp = v->next;
			break;
		}
	loop_timer_cancel(v->s->set->loop, v->timer);
	sandbox_exec_call_free(&v->call);
	free(v);
}

/*
 * Check what a shared caller's exec runs: the same as judged, or killed;
 * not yet, then again after twice the wait (0, 1, 2 ... 512 ms).
 */
static void
exec_verify_timer(struct loop *l, void *arg)
{
	struct session_exec_verify	*v = arg;
	struct session			*s = v->s;
	char				*why, *words;

	v->timer = NULL;
	switch (sandbox_exec_verify(&v->call)) {
	case SANDBOX_EXEC_NOT_YET:
		if (++v->tries < EXEC_VERIFY_TRIES) {
			v->timer = loop_timer_add(l, 1ULL << (v->tries - 1),
			    exec_verify_timer, v);
			return;
		}
		break;
	case SANDBOX_EXEC_DIFFERS:
		sandbox_exec_kill(&v->call);
		s->execs_killed++;
		why = xasprintf("killed: what ran is not what was judged (its "
		    "memory changed after it was read)");
		exec_log(s, &v->call, false, false, why);
		words = exec_words(&v->call);
		exec_recent(s, &v->call, words, false, false, why);
		free(words);
		free(why);
		break;
	case SANDBOX_EXEC_SAME:
	case SANDBOX_EXEC_GONE:
		break;
	}
	exec_verify_drop(v);
}

/* Check after the fact what a shared caller's exec runs; takes *c. */
static void
exec_verify_start(struct session *s, struct sandbox_exec_call *c)
{
	struct session_exec_verify	*v = xcalloc(1, sizeof *v);

	v->s = s;
	v->call = *c;
	sandbox_exec_call_init(c);
	v->next = s->exec_verify;
	s->exec_verify = v;
	v->timer = loop_timer_add(s->set->loop, 0, exec_verify_timer, v);
}

/* Answer c and log it; frees c. */
static void
exec_settle(struct session *s, struct sandbox_exec_call *c, bool allow,
    bool asked, const char *by)
{
	char	*words;

	s->execs++;
	if (!allow)
		s->execs_denied++;
	if (s->exec_fd >= 0)
		sandbox_exec_answer(s->exec_fd, c->id, allow ? 0 : EACCES);
	/* What only the log needs, read once the program goes on. */
	sandbox_exec_complete(c);
	exec_log(s, c, allow, asked, by);
	/* Quoted once, for the console's view and the chains. */
	words = exec_words(c);
	exec_recent(s, c, words, allow, asked, by);
	if (allow)
		exec_seen(s, c->pid, words);
	else {
		free(words);
		if (asked)
			exec_refused(s, c, by);
	}
	if (allow && c->shared)
		exec_verify_start(s, c);
	sandbox_exec_call_free(c);
}

void
session_exec_judge(struct session *s, struct sandbox_exec_call *c)
{
	struct sessions		*ss = s->set;
	enum session_exec_verdict v = SESSION_EXEC_ALLOW;
	const char		*by = "not judged (no rules here)";
	struct session_exec_wait *w;

	/*
	 * A file that is not there (a shell trying each directory of
	 * PATH): failed as the kernel would, neither judged nor logged.
	 * Answered by us, not let go: a file made in the meantime would run
	 * unjudged.
	 */
	if (c->error == NULL && !c->has_st && (c->st_errno == ENOENT ||
	    c->st_errno == ENOTDIR)) {
		if (s->exec_fd >= 0)
			sandbox_exec_answer(s->exec_fd, c->id, c->st_errno);
		sandbox_exec_call_free(c);
		return;
	}
	if (c->error != NULL) {
		char	*why = xasprintf("refused: %s", c->error);

		exec_settle(s, c, false, false, why);
		free(why);
		return;
	}
	if (exec_refused_again(s, c)) {
		char	*why = xstrdup(s->refused_by);

		exec_settle(s, c, false, false, why);
		free(why);
		return;
	}
	if (ss->exec_judge != NULL && ss->exec_judge->judge != NULL)
		v = ss->exec_judge->judge(ss->exec_judge_user, s, c, &by);
	if (v != SESSION_EXEC_ASK) {
		exec_settle(s, c, v == SESSION_EXEC_ALLOW, false, by);
		return;
	}
	s->exec_wait = xreallocarray(s->exec_wait, s->nexec_wait + 1,
	    sizeof *s->exec_wait);
	w = &s->exec_wait[s->nexec_wait++];
	w->call = *c;
	sandbox_exec_call_init(c);
}

int
session_exec_decide(struct session *s, uint64_t id, bool allow,
    const char *by)
{
	struct sandbox_exec_call	c;
	size_t				i;

	for (i = 0; i < s->nexec_wait; i++)
		if (s->exec_wait[i].call.id == id)
			break;
	if (i == s->nexec_wait)
		return -1;
	c = s->exec_wait[i].call;
	memmove(&s->exec_wait[i], &s->exec_wait[i + 1],
	    (s->nexec_wait - i - 1) * sizeof *s->exec_wait);
	s->nexec_wait--;
	exec_settle(s, &c, allow, true, by);
	return 0;
}

/* Forget the waiting execs whose process is gone; the owner is told. */
static void
exec_prune(struct session *s)
{
	struct sessions	*ss = s->set;
	size_t		 i = 0;
	uint64_t	 id;

	while (i < s->nexec_wait) {
		id = s->exec_wait[i].call.id;
		if (s->exec_fd >= 0 && sandbox_exec_answerable(s->exec_fd, id)) {
			i++;
			continue;
		}
		sandbox_exec_call_free(&s->exec_wait[i].call);
		memmove(&s->exec_wait[i], &s->exec_wait[i + 1],
		    (s->nexec_wait - i - 1) * sizeof *s->exec_wait);
		s->nexec_wait--;
		if (ss->exec_judge != NULL && ss->exec_judge->gone != NULL)
			ss->exec_judge->gone(ss->exec_judge_user, s, id);
	}
}

void
session_exec_io(struct loop *l, int fd, short revents, void *arg)
{
	struct session			*s = arg;
	struct sandbox_exec_call	 c;

	(void)l;
	if (revents & POLLIN) {
		if (sandbox_exec_receive(sandbox_exec_tree(s->sandbox), fd,
		    &c) == 0)
			session_exec_judge(s, &c);
		return;
	}
	/* Every process of the tree has gone: nothing more can come. */
	session_exec_close(s);
}

void
session_exec_close(struct session *s)
{
	if (s->exec_fd >= 0) {
		loop_del_fd(s->set->loop, s->exec_fd);
		close(s->exec_fd);
		s->exec_fd = -1;
	}
	exec_prune(s);
}

void
session_exec_free(struct session *s)
{
	size_t	i;

	session_exec_close(s);
	while (s->exec_verify != NULL)
		exec_verify_drop(s->exec_verify);
	free(s->exec_wait);
	s->exec_wait = NULL;
	loop_timer_cancel(s->set->loop, s->exec_log_timer);
	s->exec_log_timer = NULL;
	exec_log_flush(s);
	buf_free(&s->exec_logq);
	if (s->exec_log >= 0) {
		if (s->execs_unlogged > 0) {
			char	line[64];

			snprintf(line, sizeof line, "{\"not_logged\":%lu}\n",
			    s->execs_unlogged);
			util_write_all(s->exec_log, line, strlen(line));
		}
		close(s->exec_log);
		s->exec_log = -1;
	}
	for (i = 0; i < SESSION_EXEC_SEEN; i++) {
		free(s->exec_seen[i].argv);
		s->exec_seen[i].argv = NULL;
	}
	strv_free(s->refused_argv);
	free(s->refused_by);
	s->refused_argv = NULL;
	s->refused_by = NULL;
}

void
session_exec_forget(struct session *s)
{
	size_t	i;

	session_exec_free(s);
	for (i = 0; i < SESSION_EXEC_RECENT; i++) {
		free(s->exec_recent[i]);
		s->exec_recent[i] = NULL;
	}
}

/* What ancestor pid last exec'd, as words; NULL when not seen. */
static const char *
exec_seen_argv(const struct session *s, pid_t pid)
{
	size_t	i;

	for (i = 0; i < SESSION_EXEC_SEEN; i++)
		if (s->exec_seen[i].pid == pid && s->exec_seen[i].argv != NULL)
			return s->exec_seen[i].argv;
	return NULL;
}

char *
session_exec_chain(const struct session *s, const struct sandbox_exec_call *c)
{
	const char	*names[EXEC_CHAIN_MAX], *w;
	struct buf	 b = { 0 };
	char		*top, *self;
	pid_t		 pid = c->ppid;
	int		 n = 0, i;

	/* Up from the parent, each ancestor as it was exec'd here. */
	while (pid > 1 && pid != s->child.pid && n < EXEC_CHAIN_MAX) {
		if ((w = exec_seen_argv(s, pid)) != NULL)
			names[n++] = w;
		pid = sandbox_exec_parent_of(pid);
	}
	top = quote_argv(s->argv);
	buf_printf(&b, "#%lu %s", s->id, top);
	free(top);
	for (i = n - 1; i >= 0; i--)
		buf_printf(&b, " \xe2\x86\x90 %s", names[i]);
	self = c->argv != NULL && c->argv[0] != NULL ? quote_argv(c->argv) :
	    xstrdup(c->path != NULL ? c->path : "?");
	buf_printf(&b, " \xe2\x86\x90 %s", self);
	free(self);
	return buf_cstr(&b);
}

unsigned long
session_execs(const struct session *s)
{
	return s->execs;
}

unsigned long
session_execs_denied(const struct session *s)
{
	return s->execs_denied;
}

bool
session_exec_checked(const struct session *s)
{
	return s->exec_on;
}

void
sessions_set_exec_judge(struct sessions *ss,
    const struct session_exec_judge *judge, void *user)
{
	ss->exec_judge = judge;
	ss->exec_judge_user = user;
}
