/*
 * session.h - sessions: commands running on PTYs, watched by the event loop,
 * each with a terminal screen, a recording and, once finished, a history
 * line.  An agent's command may have pipes for some of 0-2 (stdio.c); a
 * session nobody watches keeps a bare screen or, when a real terminal
 * shows it (`run`), none.
 *
 * A session goes RUNNING -> EXITED | SIGNALED | TIMED_OUT, or straight to
 * FAILED when its command could not start (the stage and reason are then in
 * session_error(), the recording and the history).  A request still
 * waiting for approval is no session yet: the approval queue (control/)
 * holds it, and one refused or never answered leaves only a history line
 * ("denied", "withdrawn").
 * Subscribers (a console, the control server, the process that owns the
 * set: `ptyvisor run`, `serve`, the console server) see every session's
 * creation, output, screen damage and end.
 */
#ifndef PTYVISOR_SESSION_H
#define PTYVISOR_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pty/pty.h"
#include "sandbox/sandbox.h"
#include "base/loop.h"
#include "term/screen.h"

enum session_state {
	SESSION_RUNNING,
	SESSION_EXITED,
	SESSION_SIGNALED,
	SESSION_TIMED_OUT,
	SESSION_FAILED,
};

/* Exit status conventions (as coreutils' timeout and the shells). */
#define SESSION_EXIT_TIMEOUT	124
#define SESSION_EXIT_ERROR	125
#define SESSION_EXIT_NOEXEC	126
#define SESSION_EXIT_NOTFOUND	127

/* Default scrollback lines per session. */
#define SESSION_SCROLLBACK_DEFAULT 10000

struct ending;
struct session;
struct sessions;

/* How to start a session.  Pointers are borrowed for sessions_start(). */
struct session_opts {
	char *const	*argv;
	const char	*cwd;		/* NULL: the current directory */
	char *const	*envp;		/* base environment; NULL: ours */
	char *const	*env_extra;	/* NAME=VALUE set on top, may be NULL */
	/*
	 * The sandbox every command runs in; NULL runs it unsandboxed (only
	 * `ptyvisor run` without --sandbox and tests do that).  Its setup
	 * failing is a FAILED session, recorded, not an error of this call.
	 */
	const struct sandbox_opts *sandbox;
	struct pty_size	 size;
	unsigned	 timeout_s;	/* 0: none */
	size_t		 scrollback;	/* lines */
	pty_hook_fn	 pre_exec;	/* extra hook when unsandboxed (tests) */
	void		*pre_exec_arg;
	const char	*term;		/* TERM recorded in the .cast header */
	const char	*decision;	/* how it was approved, may be NULL */
	const char	*by;
	bool		 agent;
	unsigned long	 request;	/* the agent's request number, or 0 */
	/* Secret variables dropped from the agent's environment: names. */
	char *const	*env_dropped;
	bool		 record_input;	/* keyboard input into the recording */
	/*
	 * Which of the command's 0, 1, 2 are pipes from us instead of the PTY
	 * (which stays its controlling terminal): stdin fed by
	 * session_stdin_write, stdout and stderr reported exactly by the
	 * `stream` event and shown on the screen as a terminal shows them.
	 * err_joined: stderr is stdout's pipe too (as `2>&1`; pipes[2] false),
	 * for a client whose stdout and stderr are one file, so the order of
	 * what the command writes to the two is kept.
	 */
	bool		 pipes[3];
	bool		 err_joined;
	/* stdin_null: the command's 0 is /dev/null, as the agent's own is. */
	bool		 stdin_null;
	/*
	 * A shell's -c command (argv: a shell, "-c", the command) reports the
	 * directory it ends in with OSC 7 on its terminal (screen_cwd()):
	 * the shell runs, as approved, with a trap on EXIT put before it.
	 */
	bool		 report_cwd;
	bool		 has_umask;	/* the agent's umask, else ours */
	mode_t		 umask;
	/*
	 * The output goes to a real terminal that shows it and answers the
	 * program's queries (`run` on a terminal): no screen is kept, since
	 * nobody looks at it and its answers (cursor position, device
	 * attributes) would reach the program besides the terminal's own.
	 */
	bool		 passthrough;
	/*
	 * Nobody looks at the session and no terminal answers for it (`run`
	 * with stdout not a terminal): its screen only answers the program's
	 * queries, keeping the cursor but no cells and no scrollback, which
	 * were most of the cost of each byte.
	 */
	bool		 queries_only;
	/*
	 * Start without waiting for the child's set-up (the sandbox, ~20 ms
	 * and far more on a loaded machine): sessions_start() returns once
	 * the child is forked, and the loop learns later whether it exec'd
	 * (the `started` event) or failed (state SESSION_FAILED, the `ended`
	 * event).  The server's sessions start so, so that a hundred agents
	 * starting at once do not stop it; a person's own start at once.
	 */
	bool		 async_start;
};

/* Subscriber callbacks; any may be NULL. */
struct session_events {
	void	(*created)(void *user, struct session *s);
	/* Raw bytes read from the PTY, in order, before screen damage. */
	void	(*output)(void *user, struct session *s, const char *data,
		    size_t len);
	void	(*damage)(void *user, struct session *s, int srow, int erow,
		    int scol, int ecol);
	void	(*bell)(void *user, struct session *s);
	void	(*props)(void *user, struct session *s);
	/* Finished: recorded, flushed and in the history. */
	void	(*ended)(void *user, struct session *s);
	/* Exact bytes the command wrote to its stdout (fd 1) or stderr pipe. */
	void	(*stream)(void *user, struct session *s, int fd,
		    const char *data, size_t len);
	/*
	 * The command's stdin pipe has taken total bytes so far; once the
	 * command has ended, a last one: how many it read.
	 */
	void	(*stdin_written)(void *user, struct session *s,
		    uint64_t total);
	/*
	 * Its recording failed while it runs (a full disk): session_error()
	 * says why; the command goes on, the output still reaches everyone.
	 */
	void	(*trouble)(void *user, struct session *s);
	/* A finished session is about to be freed (sessions_forget). */
	void	(*forgotten)(void *user, struct session *s);
	/*
	 * An async_start session's command has exec'd: its pid is known
	 * (session_pid()).  Not sent for one that started at once, nor for
	 * one that failed to start (it ends instead).
	 */
	void	(*started)(void *user, struct session *s);
	/* Its terminal has a new size (session_size()). */
	void	(*resized)(void *user, struct session *s);
};

/*
 * Exec checks (session/execwatch.c): what the owner of the set says of an
 * exec inside a session.  ALLOW and DENY settle it now, *by saying what
 * decided (a string that lives as long as the judge); ASK means the owner
 * asks someone and answers later with session_exec_decide(s, c->id, ...);
 * it reads the rest of c first (sandbox_exec_complete: the parent and the
 * directory the question shows; the judge may read it in any case).  gone: an exec it asks about can no longer be answered (its process or
 * its session ended): the question is moot.
 */
enum session_exec_verdict {
	SESSION_EXEC_ALLOW,
	SESSION_EXEC_DENY,
	SESSION_EXEC_ASK
};

struct session_exec_judge {
	enum session_exec_verdict (*judge)(void *user, struct session *s,
		    struct sandbox_exec_call *c, const char **by);
	void	(*gone)(void *user, struct session *s, uint64_t id);
	/* How much exec checking a session of o needs (NULL: best effort). */
	enum sandbox_exec_checks (*want)(void *user,
		    const struct session_opts *o);
};

/*
 * The set of sessions of one ptyvisor process.  Reaps children on SIGCHLD
 * through loop.  Returns NULL with *cause when the state directory is
 * unusable.
 */
struct sessions	*sessions_new(struct loop *loop, const char *state_dir,
		    char **cause);

/* Kill every running session, wait for them, flush, free. */
void		 sessions_free(struct sessions *ss);

/*
 * Kill every running session (SIGKILL), wait for it and finish it: its
 * recording closed, its history line written, its end told.
 */
void		 sessions_end_all(struct sessions *ss);

/* Add a subscriber (at most 16, SESSIONS_MAX_SUBSCRIBERS; more is fatal). */
void	sessions_subscribe(struct sessions *ss, const struct session_events *ev,
	    void *user);

/*
 * Start a session.  Returns NULL with *cause for ptyvisor's own problems
 * (bad cwd, recording not creatable), leaving nothing behind.  A command
 * that fails to start still returns a session, in state SESSION_FAILED:
 * at once, or with async_start once the loop learns it.
 */
struct session	*sessions_start(struct sessions *ss,
		    const struct session_opts *o, char **cause);

/*
 * What bounds the files the set's sessions leave: each recording's cap
 * (record.h's max_bytes; 0: none) and the state directory's budget
 * (prune.h; 0: none), kept as each session ends.  sessions_new() starts
 * with RECORD_CAP_DEFAULT and prune_default_budget().
 */
struct session_bounds {
	uint64_t	max_recording;
	uint64_t	state_budget;
};

void		 sessions_set_bounds(struct sessions *ss,
		    const struct session_bounds *b);

/*
 * The soft limit on open files every command starts with (pty.h's
 * open_files): the one the owner of the set had before it raised its own
 * (server.c); 0 (the default): the process's own.
 */
void		 sessions_set_child_open_files(struct sessions *ss,
		    uint64_t n);

/* Who judges the execs inside sessions (judge and user live as long). */
void		 sessions_set_exec_judge(struct sessions *ss,
		    const struct session_exec_judge *judge, void *user);

/*
 * Answer an exec the judge asked about: let it run or fail it with
 * EACCES; by says who decided (logged).  -1 when s waits for no such exec.
 */
int		 session_exec_decide(struct session *s, uint64_t id,
		    bool allow, const char *by);

/*
 * Where an exec comes from, for a person: "#12 make test ← sh -c … ←
 * git push origin main" (the session, the ancestors seen exec'ing, the
 * exec).  Allocated.
 */
char		*session_exec_chain(const struct session *s,
		    const struct sandbox_exec_call *c);

/*
 * What the console shows on a key: the live process tree under s (from
 * /proc) and the execs decided last, as lines of text.  Allocated.
 */
char		*session_exec_view(const struct session *s);

/* Execs judged so far, and how many of them were refused. */
unsigned long	 session_execs(const struct session *s);
unsigned long	 session_execs_denied(const struct session *s);
/* Whether its execs are being checked now. */
bool		 session_exec_checked(const struct session *s);

size_t		 sessions_count(const struct sessions *ss);
struct session	*sessions_at(const struct sessions *ss, size_t i);
struct session	*sessions_find(const struct sessions *ss, unsigned long id);
size_t		 sessions_running(const struct sessions *ss);

/* Remove a finished session from the set and free it. */
void		 sessions_forget(struct sessions *ss, struct session *s);

/* Kill every running session (SIGHUP/SIGTERM, SIGKILL after a grace). */
void		 sessions_kill_all(struct sessions *ss);

unsigned long		 session_id(const struct session *s);
enum session_state	 session_state(const struct session *s);
const char		*session_state_name(enum session_state st);
char *const		*session_argv(const struct session *s);
const char		*session_cwd(const struct session *s);
/* The directory the command last reported (OSC 7), or NULL. */
const char		*session_reported_cwd(const struct session *s);
const char		*session_profile(const struct session *s);
bool			 session_is_agent(const struct session *s);
/* The agent's request it was started for, or 0. */
unsigned long		 session_request(const struct session *s);
bool			 session_is_done(const struct session *s);
/* An async_start session whose child has not exec'd yet. */
bool			 session_is_starting(const struct session *s);
pid_t			 session_pid(const struct session *s);
/* The session's screen; NULL for a passthrough session. */
struct screen		*session_screen(const struct session *s);
struct pty_size		 session_size(const struct session *s);
const char		*session_recording(const struct session *s);
uint64_t		 session_bytes(const struct session *s);
int64_t			 session_start_us(const struct session *s);
/* End time, or 0 while running. */
int64_t			 session_end_us(const struct session *s);
/* Decoded status (valid once done and not FAILED). */
struct pty_status	 session_status(const struct session *s);
/* The shell-style exit status: code, 128+signal, 124, 125-127. */
int			 session_exit_code(const struct session *s);
/* Why it failed to start, or a recording/history problem; NULL if none. */
const char		*session_error(const struct session *s);
/*
 * Short label for a pane title: "running", or the ending's name
 * (record/ending.h) behind ✔ or ✘: "✔ exit 0", "✘ exit 3", "✘ timeout".
 */
void			 session_label(const struct session *s, char *buf,
			    size_t len);
/* How it ended, as record/ending.h names it (strings borrowed from s). */
void			 session_ending(const struct session *s,
			    struct ending *out);
bool			 session_killed_by_user(const struct session *s);

/* Queue bytes for the program's input (never blocks). */
void	session_write(struct session *s, const void *data, size_t len);

/*
 * Hold what session_write() queues (up to SESSION_INPUT_BATCH bytes per
 * session) until the hold is released: the keys a terminal delivered
 * together reach the program in one write, not one write and one wake-up
 * of the program per key.
 */
void	sessions_input_hold(struct sessions *ss, bool hold);

/* Whether the command's stdin is a pipe that still takes bytes. */
bool	session_has_stdin(const struct session *s);

/*
 * Queue bytes for the command's stdin pipe; with end, close it once they
 * are written (EOF).  -1 with *cause when there is no such pipe, it was
 * ended already, or more than SESSION_STDIN_MAX would wait.
 */
int	session_stdin_write(struct session *s, const void *data, size_t len,
	    bool end, char **cause);

/*
 * Stop (hold) or resume reading the command's output (its PTY and output
 * pipes), for a consumer that is behind: the command then blocks on its
 * full terminal or pipe, and the console's pane waits with it.
 */
void	session_stdio_hold(struct session *s, bool hold);
/*
 * A console is watching this session (its focused pane), or no longer:
 * while any is, its PTY is served before other sessions' bulk output, as
 * the person's keys are.  Each console calls it once each way.
 */
void	session_set_watched(struct session *s, bool watched);

/* Resize the PTY and the screen; recorded as an "r" event. */
void	session_resize(struct session *s, struct pty_size size);

/*
 * Draw s's screen as it is now into out (term/screen.h's screen_redraw, at
 * most max bytes), its size in *size: what the session took and the
 * screen has not been fed yet is fed first, so the drawing holds every
 * byte the subscribers were given.  False when rows were left out.  A
 * session without a screen (passthrough) draws nothing.
 */
bool	session_screen_redraw(struct session *s, size_t max,
	    struct buf *out, struct pty_size *size);

/*
 * Consoles showing one session at different sizes: who (any pointer that
 * names a pane) shows s at size, and s takes the smallest rows and the
 * smallest columns of everyone showing it, as tmux's "smallest" window
 * size does; a larger pane shows it with blank space around.  Unview
 * when the pane is hidden or its console leaves: the others' sizes then
 * decide (nobody left: the size stays).
 */
void	session_view(struct session *s, const void *who, struct pty_size size);
void	session_unview(struct session *s, const void *who);

/*
 * The environment a session's command starts from, for sessions that run
 * on ptyvisor's own emulator (the console's panes, agents'): ours without
 * what describes another terminal (TERM, COLUMNS, LINES, TMUX, TMUX_PANE),
 * with TERM=term; for agents also without what steers the dynamic loader
 * (LD_*).  The sandbox scrubs it further.  Caller frees (strv_free).
 */
char	**session_environ(const char *term, bool agent);

/*
 * The environment of an agent's command from the agent's own (caller,
 * NAME=VALUE...), as `sh -c` would pass it, but for what a session keeps:
 * the loader's LD_*, ptyvisor's own PTYVISOR_*, and what describes the
 * agent's terminal (TERM, COLUMNS, LINES, TMUX, TMUX_PANE) are dropped,
 * TERM=term is set, and over's variables win.  The result is meant as a
 * session's env_extra over an empty base.  Caller frees (strv_free).
 */
char	**session_environ_caller(char *const *caller, const char *term,
	    char *const *over);

/* Kill the session's process group on the person's request. */
void	session_kill(struct session *s);

/*
 * Kill it because whoever asked for it gave up (an agent went away, or
 * asked to stop it): the history says "cancelled: why".
 */
void	session_cancel(struct session *s, const char *why);


#endif
