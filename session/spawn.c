/*
 * spawn.c - starting a session: check its working directory, create its
 * recording under the next free id and mark it running (lost.h), prepare
 * its sandbox, build its environment (the server's or the agent's, without
 * what describes another terminal), open its pipes (stdio.c), fork the
 * command on a PTY with the sandbox as the pre-exec hook, and hand the PTY
 * to the loop (io.c) with the timeout timer when the session has a timeout
 * (the recording's flush timer io.c arms once bytes wait).
 *
 * Invariants:
 * - sessions_start returns NULL only for ptyvisor's own problems (bad cwd,
 *   recording not creatable), and then leaves nothing behind;
 * - once the session is in the set (and `created` sent), a command that
 *   cannot start ends as a FAILED session through session_finish, its
 *   reason on its screen, in its recording and in the history;
 * - the sandbox is prepared here, in the parent, before the fork.
 */
#include "session/session-int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/quote.h"
#include "record/record.h"
#include "record/history.h"
#include "record/lost.h"
#include "record/statedir.h"

/*
 * Leave a marker that this process runs the session, so a start after our
 * death records it as lost.  Without it (a full disk) the session runs.
 */
static void
session_mark_running(struct session *s)
{
	struct history_entry	 e;
	char			*cause = NULL;

	session_history_entry(s, &e);
	e.state = (char *)"running";
	s->marked = lost_mark(s->set->state_dir, &e, &cause) == 0;
	free(cause);
}

/* Create the recording with the next free id. */
static int
session_open_record(struct session *s, const struct session_opts *o,
    char **cause)
{
	struct sessions		*ss = s->set;
	struct record_header	 h;
	char			*cmd = quote_argv(s->argv);
	unsigned long		 id, pruned, last;
	int			 tries;
	bool			 scanned;

	memset(&h, 0, sizeof h);
	h.cols = s->size.cols;
	h.rows = s->size.rows;
	h.timestamp = s->start_us / 1000000;
	h.command = cmd;
	h.term = o->term;
	h.shell = getenv("SHELL");
	h.max_bytes = ss->bounds.max_recording;
	/*
	 * The directory is read once: after it our own ids go up by one,
	 * and a taken one (another ptyvisor's) reads it again.  Reading it
	 * at every start cost a scan of every recording kept.  The pruned
	 * list is read every time: an id pruned meanwhile is not given again
	 * though its file is gone.
	 */
	scanned = ss->last_id == 0;
	id = scanned ? statedir_last_id(ss->state_dir) : ss->last_id;
	if ((pruned = statedir_last_pruned_id(ss->state_dir)) > id)
		id = pruned;
	/* Another ptyvisor may take the same id: O_EXCL decides. */
	for (tries = 0; tries < 1000; tries++) {
		id++;
		free(s->record_path);
		s->record_path = statedir_cast_path(ss->state_dir, id);
		free(*cause);
		*cause = NULL;
		s->record = record_create(s->record_path, &h, cause);
		if (s->record != NULL || errno != EEXIST)
			break;
		if (!scanned) {
			scanned = true;
			if ((last = statedir_last_id(ss->state_dir)) > id)
				id = last;
		}
	}
	free(cmd);
	if (s->record == NULL)
		return -1;
	s->id = id;
	ss->last_id = id;
	session_mark_running(s);
	return 0;
}

/* The command did not start: show why on its screen and in its recording. */
static void
session_failed(struct session *s, int status, const char *what)
{
	char	*msg;

	s->state = SESSION_FAILED;
	s->fail_status = status;
	s->reaped = true;
	s->eof = true;
	s->error = xstrdup(what);
	msg = xasprintf("ptyvisor: %s\r\n", what);
	session_take(s, msg, strlen(msg));
	free(msg);
	session_finish(s);
}

/* Whether var (NAME=VALUE) starts with one of the names in names. */
static bool
env_is_one_of(const char *var, const char *const *names)
{
	size_t	len;

	for (; *names != NULL; names++) {
		len = strlen(*names);
		if (strncmp(var, *names, len) == 0)
			return true;
	}
	return false;
}

char **
session_environ(const char *term, bool agent)
{
	/* They describe the person's terminal, not the session's. */
	static const char *const other_terminal[] = {
		"TERM=", "COLUMNS=", "LINES=", "TMUX=", "TMUX_PANE=", NULL
	};
	/* They can make any program run something else. */
	static const char *const loader[] = { "LD_", NULL };
	extern char	**environ;
	char		**env;
	size_t		  n = 0, i;

	env = xcalloc(strv_len(environ) + 2, sizeof *env);
	for (i = 0; environ[i] != NULL; i++) {
		if (env_is_one_of(environ[i], other_terminal) ||
		    (agent && env_is_one_of(environ[i], loader)))
			continue;
		env[n++] = xstrdup(environ[i]);
	}
	env[n++] = xasprintf("TERM=%s", term);
	env[n] = NULL;
	return env;
}

/*
 * The variables set on top of a session's environment: PTYVISOR_SESSION
 * first, then the request's own (any PTYVISOR_SESSION of theirs dropped).
 */
static char **
session_env_extra(unsigned long id, char *const *extra)
{
	char	**v = xcalloc(strv_len(extra) + 2, sizeof *v);
	size_t	  n = 0;

	v[n++] = xasprintf("PTYVISOR_SESSION=%lu", id);
	for (; extra != NULL && *extra != NULL; extra++)
		if (strncmp(*extra, "PTYVISOR_SESSION=", 17) != 0)
			v[n++] = xstrdup(*extra);
	v[n] = NULL;
	return v;
}

/*
 * What a shell runs before a -c command whose directory is reported: a
 * trap on EXIT printing OSC 7 with the directory it ends in (pwd -P, as
 * an agent's own shell tool records it) to its terminal, where the screen
 * keeps it (screen_cwd()).  The exit status is the command's: an EXIT
 * trap leaves $? alone.  A path with a control character is not reported
 * (it would end the sequence early).
 */
#define SPAWN_CWD_TRAP \
	"trap '{ __ptyvisor_cwd=$(pwd -P) && case $__ptyvisor_cwd in " \
	"*[[:cntrl:]]*) ;; *) printf \"\\033]7;%s\\007\" " \
	"\"$__ptyvisor_cwd\" > /dev/tty;; esac; } 2> /dev/null' EXIT; "

/*
 * The argv to run for o when it is not o's own: when o asks for the
 * directory to be reported and runs a shell's -c command, that shell with
 * the trap before the command (its other words kept; caller frees).  NULL:
 * o's own.
 */
static char **
spawn_argv(const struct session_opts *o)
{
	const char	*name = strrchr(o->argv[0], '/');
	char		**v;

	name = name != NULL ? name + 1 : o->argv[0];
	if (!o->report_cwd || o->argv[1] == NULL ||
	    strcmp(o->argv[1], "-c") != 0 || o->argv[2] == NULL ||
	    !util_is_shell(name))
		return NULL;
	v = strv_dup(o->argv);
	free(v[2]);
	v[2] = xasprintf("%s%s", SPAWN_CWD_TRAP, o->argv[2]);
	return v;
}

/* base with each NAME=VALUE of extra set over it; caller frees. */
static char **
env_merge(char *const *base, char *const *extra)
{
	size_t	  i, j, n = 0, len;
	char	**env = xcalloc(strv_len(base) + strv_len(extra) + 1,
		    sizeof *env);

	for (i = 0; base[i] != NULL; i++) {
		for (j = 0; extra[j] != NULL; j++) {
			len = strcspn(extra[j], "=");
			if (strncmp(base[i], extra[j], len) == 0 &&
			    base[i][len] == '=')
				break;
		}
		if (extra[j] == NULL)
			env[n++] = xstrdup(base[i]);
	}
	for (j = 0; extra[j] != NULL; j++)
		if (strchr(extra[j], '=') != NULL)
			env[n++] = xstrdup(extra[j]);
	return env;
}

char **
session_environ_caller(char *const *caller, const char *term,
    char *const *over)
{
	static const char *const kept[] = {
		"LD_", "PTYVISOR_", "TERM=", "COLUMNS=", "LINES=", "TMUX=",
		"TMUX_PANE=", NULL
	};
	char	**v, **out;
	size_t	  n = 0, i;

	v = xcalloc(strv_len(caller) + strv_len(over) + 2, sizeof *v);
	for (i = 0; caller != NULL && caller[i] != NULL; i++)
		if (!env_is_one_of(caller[i], kept) &&
		    strchr(caller[i], '=') != NULL)
			v[n++] = xstrdup(caller[i]);
	v[n++] = xasprintf("TERM=%s", term);
	v[n] = NULL;
	out = env_merge(v, over != NULL ? over : v + n);
	strv_free(v);
	return out;
}

/*
 * The channel on which the sandbox's relay tells the command's end
 * (sandbox_set_end_fd): ours in s->end_fd, the child's returned (for
 * pty_spec.keep_fd), or 0 when none could be made (the end is then seen
 * when the relay is reaped, as without it).
 */
static int
session_end_channel(struct session *s)
{
	int	sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		return 0;
	if (sv[0] <= 2 || sv[1] <= 2 ||
	    fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK) != 0) {
		close(sv[0]);
		close(sv[1]);
		return 0;
	}
	s->end_fd = sv[0];
	sandbox_set_end_fd(s->sandbox, sv[1]);
	return sv[1];
}

/* After the fork: the child's end closed here, ours watched if it runs. */
static void
session_end_started(struct session *s, int child_end, bool started)
{
	if (child_end > 2)
		close(child_end);
	if (s->sandbox != NULL)
		sandbox_set_end_fd(s->sandbox, -1);
	if (s->end_fd < 0)
		return;
	if (!started) {
		close(s->end_fd);
		s->end_fd = -1;
		return;
	}
	loop_add_fd(s->set->loop, s->end_fd, POLLIN, LOOP_PRIO_HIGH,
	    session_end_io, s);
}

/* The command did not start: the session fails, saying why. */
static void
session_start_failed(struct session *s, const struct pty_failure *fail)
{
	char	what[256];

	if (fail->status == SESSION_EXIT_NOTFOUND)
		snprintf(what, sizeof what, "%s: command not found",
		    s->argv[0]);
	else
		pty_failure_str(fail, what, sizeof what);
	session_failed(s, fail->status, what);
}

/* The command runs: its exec checks, its output read, its timeout. */
static void
session_running(struct session *s, unsigned timeout_s)
{
	struct sessions	*ss = s->set;

	session_exec_start(s);
	loop_add_fd(ss->loop, s->child.master, POLLIN, LOOP_PRIO_NORMAL,
	    session_io, s);
	s->events = POLLIN;
	if (timeout_s > 0)
		s->timeout_timer = loop_timer_add(ss->loop,
		    (uint64_t)timeout_s * 1000, session_timeout_timer, s);
}

static void	session_start_passed_io(struct loop *, int, short, void *);

/*
 * An async start's report channel is readable: a descriptor passed (the
 * exec checks' listener, served from now on as pty_spawn() serves it),
 * the child's failure, or its exec (EOF).
 */
static void
session_start_io(struct loop *l, int fd, short revents, void *arg)
{
	struct session		*s = arg;
	struct pty_child	 child;
	struct pty_failure	 fail;
	int			 r;

	(void)revents;
	if ((r = pty_step(&s->start, &child, &fail)) == 0) {
		if (s->start.passed >= 0 && s->start_passed_fd < 0 &&
		    sandbox_exec_checks_on(s->sandbox)) {
			s->start_passed_fd = s->start.passed;
			loop_add_fd(l, s->start_passed_fd, POLLIN,
			    LOOP_PRIO_HIGH, session_start_passed_io, s);
		}
		return;
	}
	loop_del_fd(l, fd);
	if (s->start_passed_fd >= 0)
		loop_del_fd(l, s->start_passed_fd);
	s->start_passed_fd = -1;
	s->starting = false;
	if (r < 0) {
		session_start_failed(s, &fail);
		return;
	}
	s->child = child;
	pty_resize(s->child.master, s->size);	/* resized meanwhile */
	session_running(s, s->start_timeout_s);
	if (s->input.len > 0)
		session_pump_input(s);
	NOTIFY(s->set, started, s);
	/* It may have ended already, its SIGCHLD seen before this. */
	session_reap_now(s);
}

/* The listener, before the exec: the command's own exec is answered. */
static void
session_start_passed_io(struct loop *l, int fd, short revents, void *arg)
{
	struct session	*s = arg;

	(void)revents;
	/* The report first: what the listener says may come after it. */
	if (pty_report_ready(s->start.report)) {
		session_start_io(l, s->start.report, POLLIN, s);
		return;
	}
	sandbox_exec_prestart(s->sandbox, fd, s->start.report);
}

struct session *
sessions_start(struct sessions *ss, const struct session_opts *o,
    char **cause)
{
	struct session		*s;
	struct pty_spec		 spec;
	struct pty_failure	 fail;
	struct stat		 st;
	struct sandbox_opts	 sbo;
	enum sandbox_exec_checks want;
	char			 cwd[PATH_MAX], what[256];
	char			*sbcause = NULL, **env = NULL, **extra, **argv;
	int			 rc;
	int			 child_fds[3];
	extern char		**environ;

	if (o->argv == NULL || o->argv[0] == NULL || o->argv[0][0] == '\0') {
		*cause = xstrdup("no command given");
		return NULL;
	}
	if (o->cwd != NULL) {
		if (stat(o->cwd, &st) != 0) {
			*cause = xasprintf("cwd %s: %s", o->cwd,
			    strerror(errno));
			return NULL;
		}
		if (!S_ISDIR(st.st_mode)) {
			*cause = xasprintf("cwd %s: not a directory", o->cwd);
			return NULL;
		}
		if (realpath(o->cwd, cwd) == NULL) {
			*cause = xasprintf("cwd %s: %s", o->cwd,
			    strerror(errno));
			return NULL;
		}
	} else if (getcwd(cwd, sizeof cwd) == NULL) {
		*cause = xasprintf("current directory: %s", strerror(errno));
		return NULL;
	}

	s = xcalloc(1, sizeof *s);
	s->set = ss;
	s->state = SESSION_RUNNING;
	s->argv = strv_dup(o->argv);
	s->cwd = xstrdup(cwd);
	s->profile = xstrdup(o->sandbox != NULL ?
	    sandbox_profile_name(o->sandbox->profile) : "none");
	s->decision = o->decision != NULL ? xstrdup(o->decision) : NULL;
	s->by = o->by != NULL ? xstrdup(o->by) : NULL;
	s->env_dropped = o->env_dropped != NULL ?
	    strv_dup(o->env_dropped) : NULL;
	s->agent = o->agent;
	s->request = o->request;
	s->record_input = o->record_input;
	s->size = o->size;
	if (s->size.cols < 1)
		s->size.cols = 80;
	if (s->size.rows < 1)
		s->size.rows = 24;
	s->child.pid = -1;
	s->child.master = -1;
	s->child.slave = -1;
	s->child.passed = -1;
	s->exec_fd = -1;
	s->exec_log = -1;
	s->start_passed_fd = -1;
	s->start.report = s->start.passed = -1;
	s->pipe_fd[0] = s->pipe_fd[1] = s->pipe_fd[2] = -1;
	s->end_fd = -1;
	s->stdin_peek = -1;
	s->start_mono_us = util_now_us();
	s->start_us = util_wall_us();

	if (session_open_record(s, o, cause) != 0) {
		free(s->record_path);
		s->record_path = NULL;
		session_free(s);
		return NULL;
	}
	if (o->queries_only)
		s->screen = screen_new_bare(s->size.rows, s->size.cols,
		    &session_screen_events, s);
	else if (!o->passthrough)
		s->screen = screen_new(s->size.rows, s->size.cols,
		    o->scrollback ? o->scrollback : SESSION_SCROLLBACK_DEFAULT,
		    &session_screen_events, s);

	ss->v = xreallocarray(ss->v, ss->n + 1, sizeof *ss->v);
	ss->v[ss->n++] = s;
	NOTIFY(ss, created, s);

	/*
	 * Every session knows it runs under ptyvisor, as tmux's panes do
	 * (TMUX_PANE): PTYVISOR_SESSION=<id>, ours whatever the request set.
	 */
	extra = session_env_extra(s->id, o->env_extra);

	memset(&spec, 0, sizeof spec);
	spec.argv = s->argv;
	spec.cwd = s->cwd;
	spec.size = s->size;
	spec.has_umask = o->has_umask;
	spec.umask = o->umask;
	if (o->sandbox != NULL) {
		/* Prepared here: the child checks its parent prepared it. */
		sbo = *o->sandbox;
		want = ss->exec_judge != NULL && ss->exec_judge->want != NULL ?
		    ss->exec_judge->want(ss->exec_judge_user, o) :
		    SANDBOX_EXEC_BEST;
		if (want > sbo.exec_checks)
			sbo.exec_checks = want;
		s->sandbox = sandbox_new(&sbo, s->cwd, &sbcause);
		if (s->sandbox == NULL) {
			snprintf(what, sizeof what, "sandbox: %s", sbcause);
			free(sbcause);
			session_failed(s, SESSION_EXIT_ERROR, what);
			strv_free(extra);
			return s;
		}
		if (s->record_path != NULL) {
			char	*net_log = statedir_net_log_path(s->record_path);

			sandbox_set_network_log(s->sandbox, net_log);
			free(net_log);
		}
		env = sandbox_env(s->sandbox, o->envp ? o->envp : environ,
		    extra);
		spec.pre_exec = sandbox_child;
		spec.pre_exec_arg = s->sandbox;
		if (sandbox_exec_checks_on(s->sandbox)) {
			spec.passed_ready = sandbox_exec_prestart;
			spec.passed_arg = s->sandbox;
		}
	} else {
		env = env_merge(o->envp ? o->envp : environ, extra);
		spec.pre_exec = o->pre_exec;
		spec.pre_exec_arg = o->pre_exec_arg;
	}
	strv_free(extra);
	spec.envp = env;
	spec.open_files = s->set->child_open_files;
	if (session_stdio_open(s, o, child_fds, &sbcause) != 0) {
		snprintf(what, sizeof what, "%s", sbcause);
		free(sbcause);
		strv_free(env);
		session_failed(s, SESSION_EXIT_ERROR, what);
		return s;
	}
	if (s->has_pipes)
		spec.stdio = child_fds;
	if (s->sandbox != NULL)
		spec.keep_fd = session_end_channel(s);
	argv = spawn_argv(o);
	spec.argv = argv != NULL ? argv : s->argv;
	if (o->async_start) {
		rc = pty_start(&spec, &s->start, &fail);
		strv_free(argv);
		strv_free(env);
		session_stdio_started(s, child_fds, session_stdio_io);
		session_end_started(s, spec.keep_fd, rc == 0);
		if (rc != 0) {
			session_start_failed(s, &fail);
			return s;
		}
		s->starting = true;
		s->start_timeout_s = o->timeout_s;
		loop_add_fd(ss->loop, s->start.report, POLLIN, LOOP_PRIO_HIGH,
		    session_start_io, s);
		return s;
	}
	rc = pty_spawn(&spec, &s->child, &fail);
	strv_free(argv);
	strv_free(env);
	session_stdio_started(s, child_fds, session_stdio_io);
	session_end_started(s, spec.keep_fd, rc == 0);
	if (rc != 0)
		session_start_failed(s, &fail);
	else
		session_running(s, o->timeout_s);
	return s;
}
