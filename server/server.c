/*
 * server.c - the server, built once (see server.h): its policy and queue,
 * its loop and sessions, the control socket and the consoles, the log.
 * Calls go one way: this file uses server-spawn.c (an approved request
 * started), follow.c (the followed files) and consoles.c; none of them
 * knows the server (they take plain values and callbacks), and only
 * server-spawn.c uses another of them (consoles.c's next pane size).
 *
 * Invariants: the policy is loaded before anything else is made; the
 * sessions are freed first, while the control server can still tell
 * their agents how they ended; a finished session is forgotten only from
 * a timer (never inside its own events) and only while the server keeps
 * no console (one kept, attached or not, shows ended sessions until its
 * person closes them).
 */
#include "server/server.h"

#include <errno.h>
#include <malloc.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "control/approval.h"
#include "control/control.h"
#include "policy/policy.h"
#include "record/statedir.h"
#include "server/consoles.h"
#include "server/exec-judge.h"
#include "server/follow.h"
#include "server/server-spawn.h"
#include "session/session.h"
#include "tui/tui.h"

/*
 * The soft limit on open files the server raises its own to (at most the
 * hard limit).  Why 4096: a running agent's session holds about ten (the
 * PTY master and the slave kept for pipes, three pipes for 0-2, the
 * recording and its tail, the exec checks' listener, the agent's
 * connection; seven were counted with ten sessions of `exec -- sleep`),
 * so a hundred sessions need about a thousand, which is the usual soft
 * limit (1024) itself; 4096 leaves room for consoles, followers and
 * twice as many sessions.  The commands get the limit we had
 * (sessions_set_child_open_files).
 */
#define SERVER_OPEN_FILES	4096

struct server {
	struct server_opts	 o;
	struct loop		*loop;
	struct sessions		*ss;
	struct policy		*policy;
	struct approval		*approval;
	struct control		*control;	/* NULL: no socket */
	struct consoles		*consoles;	/* NULL: no socket */
	struct follow		*follow;
	struct exec_judge	*exec_judge;
	struct tui		*tui;		/* without a socket, or NULL */
	char			*history;	/* history.jsonl */
	struct loop_timer	*forget_timer;
	struct loop_timer	*trim_timer;
	bool			 stopping;
};

int
server_check(const struct server_opts *o, char **cause)
{
	int	fd;

	if (o->rules_named) {
		if ((fd = open(o->rules, O_RDONLY | O_CLOEXEC)) < 0) {
			*cause = xasprintf("rules file %s: %s", o->rules,
			    strerror(errno));
			return -1;
		}
		close(fd);
	}
	if (o->notify != NULL && !util_find_program(o->notify)) {
		*cause = xasprintf("notify program %s: %s", o->notify,
		    errno == ENOENT && strchr(o->notify, '/') == NULL ?
		    "not found in $PATH" : strerror(errno));
		return -1;
	}
	return 0;
}

struct policy *
server_policy(const struct server_opts *o, char **cause)
{
	struct policy	*p;

	if (server_check(o, cause) != 0)
		return NULL;
	p = policy_new(o->mode);
	if (policy_load_file(p, o->rules, cause) != 0) {
		policy_free(p);
		return NULL;
	}
	return p;
}

void
server_log_line(int fd, const char *tag, const char *line)
{
	char	 when[64], *s;
	ssize_t	 n;

	if (fd < 0)
		return;
	util_format_time(util_wall_us(), when, sizeof when);
	s = xasprintf("%s %s: %s\n", when, tag, line);
	n = write(fd, s, strlen(s));
	(void)n;	/* a full disk must not stop the server */
	free(s);
}

void
server_log(struct server *sv, const char *line)
{
	server_log_line(sv->o.log_fd, sv->o.log_tag, line);
}

/* The control server's log hook. */
static void
server_control_log(void *user, const char *line)
{
	server_log(user, line);
}

/* The control server's spawn hook: agents' sessions as sv starts them. */
static struct session *
server_control_spawn(void *user, const struct approval_request *r,
    char **cause)
{
	struct server		*sv = user;
	struct server_spawn	 how = { sv->ss, sv->o.sandbox, server_path(sv),
				    0, sv->o.pane_size ? sv->consoles : NULL };

	how.scrollback = sv->o.console != NULL ? sv->o.console->scrollback : 0;
	return server_spawn(&how, r, cause);
}

void
server_stop(struct server *sv)
{
	sv->stopping = true;
	loop_stop(sv->loop);
}

bool
server_stopping(const struct server *sv)
{
	return sv->stopping;
}

/* kill-server: say so, then end. */
static void
server_shutdown(void *user)
{
	struct server	*sv = user;
	char		*line;

	line = xasprintf("asked to end: %s", sv->o.end_words);
	server_log(sv, line);
	free(line);
	server_stop(sv);
}

/* A console's person quit and chose to end the server. */
static void
server_console_end(void *user)
{
	struct server	*sv = user;

	if (sv->o.log_console_end)
		server_shutdown(sv);
	else
		server_stop(sv);
}

/*
 * What became of the rules or settings file: the log; changes and errors
 * on the status lines too, where the server says so.
 */
static void
server_report(void *user, enum follow_report level, const char *line)
{
	struct server	*sv = user;

	server_log(sv, line);
	if (level == FOLLOW_NOTE || !sv->o.status_reports)
		return;
	if (sv->tui != NULL)
		tui_status(sv->tui, line);
	if (sv->consoles != NULL)
		consoles_status(sv->consoles, line);
}

/*
 * The freed screens and scrollbacks given back at most this often: in
 * small blocks among the running sessions' they stay the process's
 * otherwise (a hundred agents' sessions kept 130 MB after they had all
 * ended), but a trim walks the whole heap, and under `serve` a session is
 * forgotten after every short command.
 */
#define SERVER_TRIM_MS	1000

static void
server_trim(struct loop *l, void *arg)
{
	struct server	*sv = arg;

	(void)l;
	sv->trim_timer = NULL;
	malloc_trim(0);
}

/* Forget finished sessions, from a timer (never inside their events). */
static void
server_forget(struct loop *l, void *arg)
{
	struct server	*sv = arg;
	size_t		 i = 0;
	bool		 forgot = false;

	(void)l;
	sv->forget_timer = NULL;
	/* A console shows ended sessions until its person closes them. */
	if (sv->consoles != NULL && consoles_count(sv->consoles) > 0)
		return;

	while (i < sessions_count(sv->ss)) {
		struct session *s = sessions_at(sv->ss, i);

		if (session_is_done(s)) {
			sessions_forget(sv->ss, s);
			forgot = true;
		} else
			i++;
	}
	if (forgot && sv->trim_timer == NULL)
		sv->trim_timer = loop_timer_add(sv->loop, SERVER_TRIM_MS,
		    server_trim, sv);
}

/* A session ended: forget it later, or end with the last one. */
static void
server_ended(void *user, struct session *s)
{
	struct server	*sv = user;

	(void)s;
	if (sv->o.forget_ended && !sv->stopping && sv->forget_timer == NULL)
		sv->forget_timer = loop_timer_add(sv->loop, 0, server_forget,
		    sv);
	if (sv->o.quit_when_done && sessions_running(sv->ss) == 0)
		server_stop(sv);
}

/* A running session's recording failed: the log says it at once. */
static void
server_trouble(void *user, struct session *s)
{
	struct server	*sv = user;
	char		*line;

	line = xasprintf("session %lu: %s (the command goes on)",
	    session_id(s), session_error(s));
	server_log(sv, line);
	free(line);
}

static const struct session_events server_session_events = {
	.ended = server_ended,
	.trouble = server_trouble,
};

/*
 * Raise our soft limit on open files to SERVER_OPEN_FILES (at most the
 * hard limit); the soft limit we had, for the commands, or 0 when it
 * stays as it was.
 */
static uint64_t
server_raise_open_files(void)
{
	struct rlimit	rl;
	rlim_t		had, want = SERVER_OPEN_FILES;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 0;
	had = rl.rlim_cur;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
		want = rl.rlim_max;
	if (had == RLIM_INFINITY || had >= want)
		return 0;
	rl.rlim_cur = want;
	return setrlimit(RLIMIT_NOFILE, &rl) == 0 ? (uint64_t)had : 0;
}

struct server *
server_new(const struct server_opts *o, char **cause)
{
	struct server	*sv = xcalloc(1, sizeof *sv);

	sv->o = *o;
	if ((sv->policy = server_policy(o, cause)) == NULL)
		goto fail;
	sv->history = statedir_history_path(o->state_dir);
	if ((sv->loop = loop_new(cause)) == NULL)
		goto fail;
	if ((sv->ss = sessions_new(sv->loop, o->state_dir, cause)) == NULL)
		goto fail;
	if (o->bounds.max_recording != 0)
		sessions_set_bounds(sv->ss, &o->bounds);
	sessions_set_child_open_files(sv->ss, server_raise_open_files());
	sv->approval = approval_new(sv->loop, sv->policy);
	approval_set_history(sv->approval, sv->history);
	approval_set_rules_path(sv->approval, o->rules);
	approval_set_notify(sv->approval, o->notify);
	approval_set_default_sandbox(sv->approval, o->profile);
	if (o->sandbox != NULL)
		approval_set_pass_env(sv->approval, o->sandbox->pass_env,
		    o->sandbox->npass_env);
	if (o->console != NULL) {
		o->console->approval_mode = policy_mode_name(o->mode);
		o->console->approval = sv->approval;
		o->console->history_path = sv->history;
	}
	sessions_subscribe(sv->ss, &server_session_events, sv);
	sv->exec_judge = exec_judge_new(sv->ss, sv->approval, sv->policy,
	    o->exec_strict, o->exec_judge_own);
	return sv;

fail:
	server_free(sv);
	return NULL;
}

int
server_listen(struct server *sv, const char *path, bool keep, char **cause)
{
	struct control_hooks	hooks = { .spawn = server_control_spawn,
				    .log = server_control_log,
				    .shutdown = server_shutdown };

	sv->o.console->agents = true;
	sv->consoles = consoles_new(sv->loop, sv->ss, sv->o.console,
	    server_console_end, sv);
	consoles_hooks(sv->consoles, &hooks);
	sv->control = control_new(sv->loop, sv->ss, sv->approval, path,
	    &hooks, sv, cause);
	if (sv->control == NULL)
		return -1;
	control_set_keep_on_disconnect(sv->control, keep);
	return 0;
}

const char *
server_path(const struct server *sv)
{
	return sv->control != NULL ? control_path(sv->control) : NULL;
}

struct loop *
server_loop(struct server *sv)
{
	return sv->loop;
}

struct sessions *
server_sessions(struct server *sv)
{
	return sv->ss;
}

struct approval *
server_approval(struct server *sv)
{
	return sv->approval;
}

const char *
server_history(const struct server *sv)
{
	return sv->history;
}

void
server_set_tui(struct server *sv, struct tui *t)
{
	sv->tui = t;
}

void
server_follow(struct server *sv)
{
	struct follow_files	files = { sv->o.rules, sv->o.settings,
				    sv->o.mode_given, sv->o.notify_given };

	if (sv->follow == NULL)
		sv->follow = follow_new(sv->loop, sv->approval, &files,
		    server_report, sv);
}

void
server_reload(struct server *sv)
{
	if (sv->follow != NULL)
		follow_reload(sv->follow);
}

void
server_set_log(struct server *sv, int fd)
{
	sv->o.log_fd = fd;
}

void
server_end_consoles(struct server *sv, const char *why)
{
	/*
	 * The sessions end first: a console told the server exited finds
	 * every session in the history, and their ends reach the clients.
	 */
	sessions_end_all(sv->ss);
	if (sv->consoles != NULL)
		consoles_end_all(sv->consoles, why);
	if (sv->control != NULL)
		control_flush_all(sv->control, 1000);
}

void
server_free(struct server *sv)
{
	if (sv == NULL)
		return;
	sv->stopping = true;
	/* Sessions first: their exits still reach the clients. */
	sessions_free(sv->ss);
	exec_judge_free(sv->exec_judge);
	control_free(sv->control);
	consoles_free(sv->consoles);
	follow_free(sv->follow);
	tui_free(sv->tui);
	approval_free(sv->approval);
	policy_free(sv->policy);
	loop_free(sv->loop);
	free(sv->history);
	free(sv);
}
