/*
 * pty.h - spawn a command on a new pseudo-terminal (or, with no_pty, on the
 * caller's own stdio); read, write and resize the PTY; reap the child,
 * decode its wait status and signal its process group.
 *
 * The child becomes a session leader with the PTY slave as its controlling
 * terminal and stdin/stdout/stderr (any of them the caller gives as a pipe
 * replaced by it, the PTY staying the controlling terminal), gets default
 * signal dispositions and an empty signal mask, loses every inherited fd
 * above 2, runs the caller's pre-exec hook (the sandbox plugs in there),
 * changes directory, sets the umask if asked, and execs.  Any failure in
 * the child is reported to the parent through a close-on-exec channel (a
 * UNIX socket pair, so a hook may also pass the parent a descriptor) as a
 * stage name and an errno: pty_spawn() never reports success for a
 * command that did not start.  This module never prints and never exits
 * the parent; it knows nothing of terminal emulators or curses.
 */
#ifndef PTYVISOR_PTY_H
#define PTYVISOR_PTY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A terminal size in character cells. */
struct pty_size {
	unsigned short	cols;
	unsigned short	rows;
};

/*
 * What follows the pre-exec hook in the child, given as a continuation:
 * with stage NULL, chdir, umask and exec; else the failure of stage (with
 * errno as it is) reported on the report channel.  Never returns.
 */
typedef void (*pty_then_fn)(void *ctx, const char *stage);

/*
 * Pre-exec hook, run in the child after the terminal is set up and before
 * chdir and exec.  report_fd is the child's end of the report channel (the hook
 * must close it in any process of its own that does not exec, e.g. an init
 * in a PID namespace, so the parent sees EOF when the command execs).
 * Returns 0 to go on to exec in this process; -1 with errno set and
 * *stage pointing at a static or child-owned description of what failed.
 * A hook that runs the command in a process of its own calls
 * then(then_ctx, ...) there instead, and returns in none of its processes.
 */
typedef int (*pty_hook_fn)(void *arg, int report_fd, const char **stage,
    pty_then_fn then, void *then_ctx);

/* What to run.  Pointers are borrowed for the duration of pty_spawn(). */
struct pty_spec {
	char *const	*argv;		/* argv[0] looked up in the child's PATH,
					   as a shell does (pty.c) */
	char *const	*envp;		/* NULL: inherit the parent's environment */
	const char	*cwd;		/* NULL: stay in the parent's directory */
	struct pty_size	 size;
	pty_hook_fn	 pre_exec;	/* may be NULL */
	void		*pre_exec_arg;
	bool		 no_pty;	/* keep the caller's stdio and session */
	/*
	 * NULL, or one fd per 0, 1, 2: >= 3 replaces that descriptor after
	 * the terminal is set up (the PTY stays the controlling terminal),
	 * -1 keeps the terminal.  With it the parent holds a slave fd of its
	 * own (child->slave), so the PTY never reads as hung up while the
	 * command has no descriptor on it.
	 */
	const int	*stdio;
	/*
	 * A descriptor above 2 the child keeps for its hook (close-on-exec:
	 * the command never has it), e.g. where the sandbox's relay tells the
	 * command's end (sandbox_set_end_fd); 0: none.
	 */
	int		 keep_fd;
	bool		 has_umask;	/* set umask before exec */
	mode_t		 umask;
	/*
	 * The soft limit on open files (RLIMIT_NOFILE) the child starts
	 * with, set before the hook: the one a caller had before it raised
	 * its own (so the command gets what it would without us); 0: ours.
	 */
	uint64_t	 open_files;
	/*
	 * A hook that passes the parent a descriptor (pty_pass_fd) has it
	 * served by this function, in the parent, each time the descriptor
	 * is readable before pty_spawn() returns: report_fd is the parent's
	 * end of the report channel (pty_report_ready).  NULL: not served.
	 */
	void		(*passed_ready)(void *arg, int fd, int report_fd);
	void		*passed_arg;
};

/*
 * A running child: its pid (also its process group, unless no_pty) and the
 * PTY master (-1 with no_pty).
 */
struct pty_child {
	pid_t	pid;
	int	master;			/* non-blocking, close-on-exec */
	int	slave;			/* -1, or with spec->stdio: ours, cloexec */
	int	passed;			/* what the hook passed (pty_pass_fd),
					   close-on-exec, ours; or -1 */
};

/* Why a command did not start. */
struct pty_failure {
	char	stage[160];		/* e.g. "exec: make", "sandbox: landlock" */
	int	err;			/* errno in the child */
	int	status;			/* 127 not found, 126 not executable, 125 else */
};

/*
 * Open a PTY of spec->size, fork and exec spec->argv on it (with
 * spec->no_pty: fork and exec on the caller's own stdio and session, with
 * the same hook and failure report).  Returns 0 and
 * fills *child; the caller owns child->master and must reap child->pid.
 * Returns -1 and fills *fail when the PTY could not be made or the child
 * failed before exec (the failed child has then been reaped already).
 */
int	pty_spawn(const struct pty_spec *spec, struct pty_child *child,
	    struct pty_failure *fail);

/* What the child sends on the report channel when it fails: one message. */
struct pty_report {
	int	err;
	int	status;
	char	stage[160];
};

/*
 * A child forked and not yet known to have exec'd (pty_start): the
 * caller's loop watches report (and passed, once there) and calls
 * pty_step() when report is readable.
 */
struct pty_start {
	pid_t			pid;
	int			master;
	int			slave;
	int			report;	/* the parent's end, -1 once done */
	int			passed;	/* what the hook passed, or -1 */
	size_t			got;
	struct pty_report	r;
};

/*
 * pty_spawn() in two steps, for a caller that must not wait for the
 * child's set-up (a server with other work): pty_start() opens the PTY
 * and forks (0, or -1 with *fail and nothing left); then, each time
 * st->report is readable, pty_step(): 0 while the child has neither
 * exec'd nor failed (a passed descriptor may have come: st->passed), 1
 * once it exec'd (*child filled as pty_spawn() fills it, st emptied), -1
 * when it failed (*fail filled, the child reaped, st closed).  While it
 * waits, the caller serves st->passed as pty_spawn() serves it with
 * spec->passed_ready.  pty_start_close() closes what st holds (the child
 * is not signalled or reaped).
 */
int	pty_start(const struct pty_spec *spec, struct pty_start *st,
	    struct pty_failure *fail);
int	pty_step(struct pty_start *st, struct pty_child *child,
	    struct pty_failure *fail);
void	pty_start_close(struct pty_start *st);

/*
 * In the child, from a pre-exec hook: hand fd to the parent over the
 * report channel (at most one; it lands in child->passed).  0, or -1 with
 * errno set.
 */
int	pty_pass_fd(int report_fd, int fd);

/*
 * In the parent, from spec->passed_ready: whether the child has exec'd or
 * failed by now (its end of the report channel has closed or spoken).
 * False means it has not yet reached the exec that succeeds.
 */
bool	pty_report_ready(int report_fd);

/* Format a failure as "stage: strerror" into buf. */
void	pty_failure_str(const struct pty_failure *fail, char *buf, size_t len);

/* Set the terminal size; the kernel signals SIGWINCH to its foreground. */
int	pty_resize(int master, struct pty_size size);

/* Read result of pty_read() when the child side is closed (EIO/EOF). */
#define PTY_EOF ((ssize_t)-2)

/*
 * Read what is available from a non-blocking fd: >0 bytes, 0 when nothing
 * is ready, PTY_EOF when the other side hung up, -1 on another error.
 */
ssize_t	pty_read(int fd, void *buf, size_t len);

/* Write what fits without blocking: bytes written (maybe 0), -1 on error. */
ssize_t	pty_write(int fd, const void *buf, size_t len);

/* A decoded wait status. */
struct pty_status {
	bool	signaled;
	int	code;			/* exit code, when !signaled */
	int	signal;			/* signal number, when signaled */
	bool	core_dumped;
};

/* Decode a raw waitpid() status. */
struct pty_status pty_status_decode(int wstatus);

/* The shell convention: code, or 128 + signal. */
int	pty_status_exit_code(struct pty_status st);

/*
 * Reap pid if it has ended: 1 and *st filled, 0 still running, -1 error.
 * With block, wait for it.
 */
int	pty_reap(pid_t pid, bool block, struct pty_status *st);

/* Send sig to the child's whole process group. */
int	pty_kill_group(pid_t pid, int sig);

#endif
