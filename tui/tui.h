/*
 * tui.h - the ncurses front end: panes for sessions, focus, zoom, the
 * prefix key and its commands, the history pane, scroll mode, help, the
 * status line, resizes and paced redraws.
 *
 * The front end owns no session state: it subscribes to a struct
 * sessions and draws what the sessions' screens hold.  It takes the
 * terminal (curses) in tui_new() and gives it back in tui_free() or, on
 * a fatal error, tui_restore_terminal().
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

/*
 * Take the terminal and subscribe to ss.  NULL with *cause when stdin or
 * stdout is not a terminal or curses cannot start.
 */
struct tui	*tui_new(struct loop *loop, struct sessions *ss,
		    const struct tui_opts *o, char **cause);

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
