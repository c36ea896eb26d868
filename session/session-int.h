/*
 * session-int.h - what the files of session/ share: the session and the
 * set of sessions, the bounds on the data path, the subscriber broadcast
 * and one entry point per piece.  Not for use outside session/.
 *
 * Calls go one way: spawn.c -> session.c -> exit.c -> execwatch.c ->
 * stdio.c -> io.c (execview.c only reads a session and calls none), each file calling only files after it (spawn.c calls
 * all five), with no call back up: the poll callbacks of the PTY and of
 * the pipes (session_io, session_stdio_io) live in exit.c, so the files
 * that read them never decide that a session ends; the exec listener's
 * (session_exec_io) in execwatch.c, which never ends a session either.
 */
#ifndef PTYVISOR_SESSION_INT_H
#define PTYVISOR_SESSION_INT_H

#include "session/session.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/*
 * Bytes read from one pipe per loop turn (session_stdio_read): large
 * enough for throughput, small enough that a flooding session leaves the
 * loop quickly for the others.
 */
#define SESSION_READ_BUDGET	(64 * 1024)
/*
 * A PTY is read once per loop turn (session_read), into a buffer of
 * SESSION_READ_CHUNK bytes (a read gives what the line discipline holds,
 * up to 4 KiB).  Reading it again at once was slower: the bytes reach the
 * line discipline through a kernel worker, and a read that finds it empty
 * while the worker has bytes waits for the worker to run; the next turn's
 * read finds them there, moved while the screen took the last ones.
 * Measured on two cores (`seq 1 3000000` in the console): gathering 64 KiB
 * a turn, 1.7 s to the end and 0.99 s of ptyvisor's CPU; once a turn,
 * 1.0 s and 0.91 s; `exec --text` of a million lines 12% sooner.  Each
 * read is one recording event and one event per subscriber: 3% more of
 * the server's CPU for those.
 */
#define SESSION_READ_CHUNK	(64 * 1024)
/*
 * Room the screen's feed keeps once it is empty; a burst's is given back
 * at the recording's next flush (ten quiet sessions keep ~2.5 MB less).
 */
#define SESSION_FEED_KEEP	(16 * 1024)
/*
 * After input reaches a watched session (the person typed), the other
 * sessions are neither read nor fed until its output comes, for at most
 * this long.  Under a flood on a two-core machine the echo had to wait
 * for a CPU (the program, then the kernel's PTY flush) beside ptyvisor
 * busy with the flood: 3-8 ms at the 99th percentile, where ptyvisor
 * asleep in poll leaves the CPU to them.  A flood loses at most this
 * much per key typed.
 */
#define SESSION_ECHO_WAIT_MS	3
/*
 * The terminal emulator is the expensive part (libvterm 0.1.4 moves the
 * whole screen for every scrolled line: `yes` in a 160x48 pane costs
 * ~30 us a line), so bytes are fed to it in slices, for at most this long
 * per session per loop turn; the rest waits for the next turn and the PTY
 * is not read meanwhile.  Typing into another pane then waits at most
 * about one budget per flooding session.
 */
#define SESSION_FEED_BUDGET_US	3000
/*
 * Within that budget, every this often (between two slices) the feed asks
 * the loop whether the person's keys or the watched pane's output are
 * waiting, and yields to them at once: a poll that does not wait costs
 * ~1 us, so asking every 100 us costs ~1% of the feed and lets a key
 * through within ~100 us plus one slice, not after a whole budget.
 */
#define SESSION_YIELD_CHECK_US	100
/*
 * A slice is what the feed cannot interrupt.  Measured (perf, `seq` in a
 * 120x19 pane beside an echo pane): 512 bytes took ~1 ms of libvterm, and
 * the echo's lowest latency under that flood was 1.0 ms; 128 bytes is
 * ~0.25 ms, and each slice costs one call more than the bytes themselves.
 */
#define SESSION_FEED_SLICE	128
/* Input queued for a program that does not read it: beyond this we drop. */
#define SESSION_INPUT_MAX	(1024 * 1024)
/*
 * Input held while keys read together are gathered (sessions_input_hold):
 * past this it is written at once, as the PTY takes about this much.
 */
#define SESSION_INPUT_BATCH	4096
/*
 * The recording reaches the disk at most this long after its bytes came;
 * the timer runs only while something waits, so an idle session wakes
 * nobody.
 */
#define SESSION_FLUSH_MS	1000
/* After the command exits, how long leftovers may hold the terminal. */
#define SESSION_LINGER_MS	200
/* After SIGTERM, how long before SIGKILL. */
#define SESSION_KILL_GRACE_MS	2000
/* After SIGKILL of leftovers, how long to wait for the PTY's EOF. */
#define SESSION_EOF_WAIT_MS	1000

/*
 * A command's stdin pipe: bytes queued from the agent and not yet taken by
 * the command.  The agent keeps a smaller window in flight (it waits for
 * `written`), so this bound only stops a client that ignores it.
 */
#define SESSION_STDIN_MAX	(1024 * 1024)
/*
 * Pipe output is relayed to the agent at the pipe's pace, not the
 * emulator's (a scrolled line costs ~30 us there, a flood of short lines
 * would cost the relay several times what the pipe does).  A chunk that
 * would leave the screen more than SESSION_STDIO_SHOW_MAX behind is
 * recorded but not fed: the screen gets, every SESSION_STDIO_SHOW_MS, a
 * note of what it skipped and the last SESSION_STDIO_TAIL bytes (from a
 * line's start), so the person sees the latest lines while it floods.
 */
#define SESSION_STDIO_SHOW_MAX	(16 * 1024)
#define SESSION_STDIO_TAIL	(2 * 1024)
#define SESSION_STDIO_SHOW_MS	100

/*
 * The state directory is scanned again after this many sessions ended
 * even while our own count stays under the budget.  Why: other ptyvisor
 * processes write there too; a scan reads the directory and, past the
 * budget, the history, too slow to do at every one of thousands of short
 * commands.
 */
#define SESSION_PRUNE_RESCAN	64

/* An exec log stops at this size (a last line says so). */
#define SESSION_EXEC_LOG_MAX	(16 * 1024 * 1024)
/* Exec log lines held before one write (not a write on every exec). */
#define SESSION_EXEC_LOG_BATCH	(32 * 1024)
/* Execs decided last, kept as lines for the console's view. */
#define SESSION_EXEC_RECENT	32
/* Programs remembered per session for the chains of their children. */
#define SESSION_EXEC_SEEN	64

/* An exec asked about, its process waiting in the kernel. */
struct session_exec_wait {
	struct sandbox_exec_call	 call;
};

/*
 * An exec of a caller whose memory another thread shares, let go: what
 * runs is checked after the fact, a few times over about a second.
 */
struct session_exec_verify {
	struct session			*s;
	struct sandbox_exec_call	 call;
	unsigned			 tries;
	struct loop_timer		*timer;
	struct session_exec_verify	*next;
};

/* What a process of the session exec'd last, for chains. */
struct session_exec_seen {
	pid_t	 pid;
	char	*argv;			/* quoted words */
};

/*
 * Subscribers of one set of sessions, beyond need: the console server has
 * the most, its own (cli/tui.c), the control server's and one per console
 * (at most 8, CONSOLES_MAX in cli/consoles.c).  `ptyvisor mcp` is none:
 * it is a socket client of the control server.
 */
#define SESSIONS_MAX_SUBSCRIBERS 16

struct subscriber {
	const struct session_events	*ev;
	void				*user;
};

/* One console's pane showing a session, and that pane's size. */
struct session_view {
	const void		*who;
	struct pty_size		 size;
};

struct session {
	struct sessions		*set;
	unsigned long		 id;
	enum session_state	 state;
	char			**argv;
	char			*cwd;
	char			*profile;
	char			*decision;
	char			*by;
	char			**env_dropped;	/* names, for history; NULL */
	bool			 agent;
	unsigned long		 request;	/* the agent's, or 0 */
	bool			 record_input;
	int			 watchers;	/* consoles focused on it: served first */

	struct pty_child	 child;		/* pid -1 once reaped */
	/* async_start: forked, not yet exec'd (spawn.c); its pid hidden
	   in start until then, so that no reaping or killing by pid sees it */
	bool			 starting;
	struct pty_start	 start;
	int			 start_passed_fd; /* start.passed, watched; -1 */
	unsigned		 start_timeout_s;
	struct pty_size		 size;
	/* Who shows the session at which size (consoles): it gets the smallest. */
	struct session_view	*views;
	size_t			 nviews;
	bool			 reaped;
	/*
	 * The sandbox's relay tells the command's end here (sandbox.h,
	 * sandbox_set_end_fd), or -1; what it told (end_told: end_status,
	 * kept while the start is not yet seen) reaps the session, and the
	 * relay itself is reaped once the end is told (relay_left,
	 * session_finish).
	 */
	int			 end_fd;
	bool			 end_told;
	int			 end_status;
	bool			 relay_left;
	bool			 eof;
	bool			 done;
	bool			 marked;	/* sessions/<id>.running written */
	bool			 timed_out;
	char			*kill_error;	/* who killed it, for history */
	bool			 group_killed;
	struct pty_status	 status;
	int			 fail_status;	/* 125-127 when FAILED */
	char			*error;
	struct sandbox		*sandbox;	/* freed once reaped */

	struct screen		*screen;
	struct record		*record;
	char			*record_path;
	uint64_t		 record_dropped;	/* left out by its cap */
	uint64_t		 bytes;
	uint64_t		 start_mono_us;	/* monotonic */
	int64_t			 start_us;	/* wall clock */
	int64_t			 end_us;

	struct buf		 input;		/* queued for the PTY */
	struct buf		 feed;		/* read, not yet on the screen */
	short			 events;	/* what the loop polls for */

	/*
	 * Pipes in place of the PTY on some of the command's 0-2 (stdio.c):
	 * our ends, -1 when that descriptor is the PTY or the pipe is closed.
	 * [0] we write the agent's stdin to; [1], [2] we read.  has_pipes:
	 * some of 0-2 is not the PTY (a pipe, or stdin on /dev/null).
	 */
	int			 pipe_fd[3];
	bool			 has_pipes;
	bool			 pipe_eof[3];	/* [1], [2] read to EOF */
	struct buf		 stdin_q;	/* for pipe_fd[0] */
	bool			 stdin_end;	/* close it once stdin_q is empty */
	uint64_t		 stdin_written;
	int			 stdin_peek;	/* the read end too, to count
						   what the command left */
	bool			 stdio_held;	/* the agent is behind: no output
						   read (PTY, pipes) */
	struct buf		 show_tail;	/* skipped, shown next */
	uint64_t		 show_skipped;	/* skipped, never shown */
	struct loop_timer	*show_timer;

	struct loop_timer	*flush_timer;
	struct loop_timer	*timeout_timer;
	struct loop_timer	*kill_timer;
	struct loop_timer	*linger_timer;
	struct loop_timer	*feed_timer;

	/* Exec checks (execwatch.c). */
	int			 exec_fd;	/* the listener, or -1 */
	bool			 exec_on;	/* its execs were checked */
	struct session_exec_wait *exec_wait;	/* asked, not yet answered */
	size_t			 nexec_wait;
	int			 exec_log;	/* <id>.exec.jsonl, or -1 */
	struct buf		 exec_logq;	/* lines not yet written */
	struct loop_timer	*exec_log_timer;
	bool			 exec_log_failed;
	bool			 exec_log_full;
	uint64_t		 exec_log_bytes;
	unsigned long		 execs;
	unsigned long		 execs_denied;
	unsigned long		 execs_unlogged;
	struct session_exec_seen exec_seen[SESSION_EXEC_SEEN];
	size_t			 exec_seen_next;
	/*
	 * The last exec a person refused: the same process trying the same
	 * file with the same words again (a shell going on along PATH) is
	 * refused without asking twice.
	 */
	struct session_exec_verify *exec_verify; /* checks after the exec */
	unsigned long		 execs_killed;	/* ran something else */
	char			*exec_recent[SESSION_EXEC_RECENT];
	size_t			 exec_recent_next;
	size_t			 exec_recent_n;	/* kept (at most the ring) */
	pid_t			 refused_pid;
	dev_t			 refused_dev;
	ino_t			 refused_ino;
	char			**refused_argv;
	char			*refused_by;
};

struct sessions {
	struct loop		*loop;
	char			*state_dir;
	char			*history_path;
	struct session		**v;
	size_t			 n;
	struct subscriber	 subs[SESSIONS_MAX_SUBSCRIBERS];
	size_t			 nsubs;
	unsigned long		 last_id;
	/* A key went to a watched session: the others wait (io.c). */
	struct loop_timer	*echo_timer;
	/* Input gathered, written when released (io.c). */
	bool			 input_held;
	const struct session_exec_judge *exec_judge;	/* or NULL */
	void			*exec_judge_user;
	struct session_bounds	 bounds;
	uint64_t		 child_open_files;	/* pty.h; 0: ours */
	/* The state directory's bytes at the last scan, plus ours since. */
	uint64_t		 state_usage;
	uint64_t		 state_stuck;	/* what a scan could not get
						   under the target; or 0 */
	bool			 state_scanned;
	unsigned		 since_scan;	/* sessions ended since */
	char			 readbuf[SESSION_READ_CHUNK];
};

/* Send an event to every subscriber. */
#define NOTIFY(ss, member, ...) do {					\
	size_t notify_i_;						\
	for (notify_i_ = 0; notify_i_ < (ss)->nsubs; notify_i_++)	\
		if ((ss)->subs[notify_i_].ev->member != NULL)		\
			(ss)->subs[notify_i_].ev->member(		\
			    (ss)->subs[notify_i_].user, __VA_ARGS__);	\
} while (0)

/* io.c: microseconds since the session started, for the recording. */
uint64_t	session_elapsed_us(const struct session *s);
/* io.c: the screen's events, forwarded to the subscribers. */
extern const struct screen_events session_screen_events;
/* io.c: feed the screen's backlog (all of it, or for one feed budget). */
void	session_feed(struct session *s, bool all);
/* io.c: take bytes read from the PTY or written by ptyvisor itself. */
void	session_take(struct session *s, const char *data, size_t len);
/* io.c: read the PTY once (all: until empty) and feed the screen; EOF. */
void	session_read(struct session *s, bool all);
/* io.c: poll the PTY for what the session can take now. */
void	session_watch(struct session *s);
/* io.c: write queued input to the PTY without blocking. */
void	session_pump_input(struct session *s);
/* io.c: timer: flush the recording (armed by session_flush_soon). */
void	session_flush_timer(struct loop *l, void *arg);
/* io.c: the recording has bytes to write: flushed within SESSION_FLUSH_MS. */
void	session_flush_soon(struct session *s);

/* execwatch.c: watch the listener the spawn passed (child.passed). */
void	session_exec_start(struct session *s);
/* execwatch.c: judge one exec taken from the listener; takes *c. */
void	session_exec_judge(struct session *s, struct sandbox_exec_call *c);
/* execwatch.c: loop callback for the listener. */
void	session_exec_io(struct loop *l, int fd, short revents, void *arg);
/* execwatch.c: stop watching: waiting execs fail, the judge is told. */
void	session_exec_close(struct session *s);
/* execwatch.c: close the listener and the log, free what judging keeps. */
void	session_exec_free(struct session *s);
/* execwatch.c: that, and the lines the view shows (the session goes). */
void	session_exec_forget(struct session *s);

/* stdio.c: make the pipes o asks for; child ends in child_fds (-1: PTY). */
int	session_stdio_open(struct session *s, const struct session_opts *o,
	    int child_fds[3], char **cause);
/* stdio.c: after the spawn: close child_fds, watch our ends on the loop. */
void	session_stdio_started(struct session *s, int child_fds[3],
	    loop_fd_fn fn);
/* stdio.c: read the output pipe i (1 or 2) up to budget bytes. */
void	session_stdio_read(struct session *s, int i, size_t budget);
/* stdio.c: write queued stdin without blocking. */
void	session_stdio_pump(struct session *s);
/* stdio.c: whether every output pipe is read to EOF (true: none). */
bool	session_stdio_drained(const struct session *s);
/* stdio.c: the child is reaped: let go of the PTY, read what is there. */
void	session_stdio_reaped(struct session *s);
/* stdio.c: put the skipped output's note and tail on the screen. */
void	session_stdio_show_tail(struct session *s);
/* stdio.c: close every pipe and our slave (the session finishes). */
void	session_stdio_close(struct session *s);

/* exit.c: loop callback for the PTY master (reads, writes, EOF). */
void	session_io(struct loop *l, int fd, short revents, void *arg);
/* exit.c: reap s's child now if it has ended, or its end was told (an
   async start's exec seen after its SIGCHLD or the relay's word). */
void	session_reap_now(struct session *s);
/* session.c: give up an async start: the child killed and reaped. */
void	session_start_abandon(struct session *s);
/* exit.c: loop callback for the command's pipes (stdio.c). */
void	session_stdio_io(struct loop *l, int fd, short revents, void *arg);
/* exit.c: loop callback for the relay's end (s->end_fd). */
void	session_end_io(struct loop *l, int fd, short revents, void *arg);
/* exit.c: timer: the session's timeout expired. */
void	session_timeout_timer(struct loop *l, void *arg);
/* exit.c: SIGCHLD handler of the set: reap ended children. */
void	sessions_sigchld(struct loop *l, int sig, void *arg);
/*
 * exit.c: what the history knows of s from its start (strings borrowed;
 * the caller sets the state and the end).
 */
struct history_entry;
void	session_history_entry(const struct session *s, struct history_entry *e);
/* exit.c: the session is over: recording, history, `ended`.  Once. */
void	session_finish(struct session *s);

/* session.c: free one session's memory (it must be done). */
void	session_free(struct session *s);

#endif
