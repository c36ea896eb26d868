/*
 * tui.h - the ncurses front end: panes for sessions and replays, focus,
 * zoom, the prefix key and its commands, the history pane, scroll mode,
 * help, the approval prompt, the status line, resizes and paced redraws;
 * on the person's terminal (tui_new) or, for a console attached through
 * the control socket, in memory (tui_new_console; detached and attached
 * again with its state).
 *
 * The front end owns no session state: it subscribes to a struct
 * sessions and draws what the sessions' screens hold.  tui_new() takes
 * the person's terminal (curses) and tui_run() or tui_free() gives it
 * back, or, on a fatal error, tui_restore_terminal().
 */
#ifndef PTYVISOR_TUI_H
#define PTYVISOR_TUI_H

#include "sandbox/sandbox.h"

#include <stdbool.h>

#include "pty/pty.h"

struct approval;
struct loop;
struct sessions;
struct tui;

/* Start-up options (plain values; strings borrowed for tui_new). */
struct tui_opts {
	/* The sandbox of every session (borrowed; NULL: unsandboxed). */
	const struct sandbox_opts *sandbox;
	const char	*approval_mode;	/* shown in the status line */
	/*
	 * The queue of agents' requests (borrowed; NULL: none): waiting ones
	 * are shown in the approval prompt.
	 */
	struct approval	*approval;
	bool		 agents;	/* agents can reach us (a socket) */
	const char	*notice;	/* shown on the status line at start */
	bool		 quit_when_done;	/* quit once every session ended */
	bool		 mouse;		/* take the mouse over the panes too */
	char		 prefix;	/* prefix key is Ctrl-<prefix> (a-z); 0: g */
	const char	*history_path;	/* history.jsonl of the state dir */
	size_t		 scrollback;	/* lines per session; 0: default */
};

/* What a console's front end tells the server that hosts it. */
struct tui_console_hooks {
	/* The person detached (PREFIX d): give the terminal back. */
	void	(*detach)(void *arg);
	/*
	 * The person quit: end is true when they chose to end every session
	 * (and the server), false when nothing was running.
	 */
	void	(*quit)(void *arg, bool end);
};

/* A console attached through the control socket (`ptyvisor attach`). */
struct tui_console {
	const char	*term;		/* its TERM */
	int		 rows, cols;
	bool		 readonly;	/* attach -r: may watch, not type */
	const char	*name;		/* "console 2, pts/4": who decided */
	/*
	 * Who decides in it as its client names them ("web (127.0.0.1,
	 * token approver)"); NULL: "user (NAME)".
	 */
	const char	*by;
};

/*
 * Take the terminal and subscribe to ss.  NULL with *cause when stdin or
 * stdout is not a terminal or curses cannot start.
 */
struct tui	*tui_new(struct loop *loop, struct sessions *ss,
		    const struct tui_opts *o, char **cause);

/*
 * A front end for an attached console: it draws in memory (take what it
 * drew with tui_console_output) and gets keys from tui_console_input.
 * It starts with a pane for every session of ss.  NULL with *cause (an
 * unknown terminal type).
 */
struct tui	*tui_new_console(struct loop *loop, struct sessions *ss,
		    const struct tui_opts *o, const struct tui_console *c,
		    const struct tui_console_hooks *hooks, void *arg,
		    char **cause);

/*
 * Give a console's terminal back (endwin) and keep its state; the last
 * bytes for the terminal (its modes back) are appended to out.
 */
struct buf;
void		 tui_detach(struct tui *t, struct buf *out);

/*
 * Attach a detached front end to console c: the same panes, focus, zoom,
 * views and prompt, redrawn whole.  -1 with *cause.
 */
int		 tui_attach(struct tui *t, const struct tui_console *c,
		    char **cause);

/* Whether a console front end has a terminal now. */
bool		 tui_attached(const struct tui *t);

/* Keys the console's person typed (raw bytes, as the terminal sent). */
void		 tui_console_input(struct tui *t, const void *data,
		    size_t len);

/* The console's terminal is now rows x cols. */
void		 tui_console_resize(struct tui *t, int rows, int cols);

/* Append to out what the front end drew since the last call. */
struct buf;
void		 tui_console_output(struct tui *t, struct buf *out);

/*
 * Free the front end.  It stays subscribed to ss (which has no way to
 * unsubscribe), so call this after sessions_free().
 */
void		 tui_free(struct tui *t);

/*
 * Start a session in a new pane: argv, or the user's $SHELL (else
 * /bin/sh) when argv is NULL.  -1 with *cause.
 */
int	tui_new_session(struct tui *t, char *const *argv, char **cause);
/* The same, in directory cwd (NULL: ours). */
int	tui_new_session_at(struct tui *t, char *const *argv, const char *cwd,
	    char **cause);

/* Draw everything again from a clear screen (a console that fell behind). */
void	tui_console_redraw(struct tui *t);

/*
 * The size the next new pane's session gets, for sessions started by
 * someone else (agents) to start at the size they will be shown at.
 */
struct pty_size	tui_next_size(struct tui *t);

/*
 * Run until the person quits (or every session ended, if asked), then
 * give the terminal back.  Returns the exit status (0).
 */
int	tui_run(struct tui *t);

/* The outer terminal changed size (SIGWINCH). */
void	tui_resize(struct tui *t);

/* Show line on the status line for a few seconds (the server's news). */
void	tui_status(struct tui *t, const char *line);

/* Quit at the end of this loop turn (SIGTERM, SIGHUP). */
void	tui_quit(struct tui *t);

/* Restore the terminal if curses has it; safe to call at any time. */
void	tui_restore_terminal(void);

#endif
