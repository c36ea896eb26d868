/*
 * server.h - the server, built once for `ptyvisor serve` and for the
 * console's server (and, without a socket, for the console alone): the
 * loop, the sessions, the policy and its approval queue, the control
 * socket, the consoles that attach to it, and the followed rules and
 * settings files.  What an approved request runs with (its sandbox, its
 * environment, its size) is decided here too (server-spawn.c).
 *
 * server_new() builds the policy, the loop, the sessions and the queue;
 * server_follow() starts following the files; server_listen() opens the
 * socket and takes consoles; the command then runs the loop
 * (server_loop()) with its own signals and log lines, and ends it:
 * server_end_consoles() tells the consoles and sends what is queued for
 * the clients, server_free() kills the sessions (whose exits still reach
 * their agents) and frees the rest.
 *
 * Invariants: nothing is started before the policy loaded (a rules file
 * that does not parse, a named rules file missing or a notify program
 * that cannot run stop everything first); an approved request runs in the
 * sandbox it asked for, with the network only if it asked (a profile we
 * do not know never gets that far: the protocol refuses the request).
 * This module never uses curses itself (the consoles' front ends are
 * tui/'s).
 */
#ifndef PTYVISOR_SERVER_H
#define PTYVISOR_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/policy.h"
#include "sandbox/sandbox.h"
#include "session/session.h"

struct approval;
struct loop;
struct sessions;
struct tui;
struct tui_opts;

/*
 * What the person chose for the agents' server (the command line, then
 * the settings file, then the defaults, as cli/ resolves them).  Pointers
 * are borrowed for the server's life.
 */
struct server_opts {
	enum policy_mode	 mode;
	bool			 mode_given;	/* by a flag: the file's stays out */
	const char		*rules;		/* the rules file */
	bool			 rules_named;	/* by a flag or the file: must exist */
	const char		*notify;	/* the notify program; NULL: none */
	bool			 notify_given;	/* by a flag */
	const char		*settings;	/* the settings file, followed */
	const char		*state_dir;
	/*
	 * The sandbox options of every agent session (the settings file's,
	 * then the flags'), with the profile and network its request asks
	 * for; requests that name no profile get profile.
	 */
	const struct sandbox_opts *sandbox;
	enum sandbox_profile	 profile;
	/*
	 * The consoles' options (prefix, mouse, scrollback...; borrowed):
	 * the server fills in its queue and history.  Also used for the
	 * scrollback of agents' sessions.
	 */
	struct tui_opts		*console;
	/* The log: one line each, "TIME TAG: line", to log_fd (-1: none). */
	int			 log_fd;
	const char		*log_tag;
	/*
	 * What the log says when asked to end (kill-server, and a console's
	 * quit where log_console_end): "asked to end: " end_words.
	 */
	const char		*end_words;
	bool			 log_console_end;
	/*
	 * What became of the rules or settings file goes on the consoles'
	 * status lines too (the console's server; serve only logs it).
	 */
	bool			 status_reports;
	/*
	 * Agents' sessions get the size of a new pane in an attached console
	 * (the console's server); else the size their request asks for.
	 */
	bool			 pane_size;
	/* Finished sessions are forgotten while no console shows them. */
	bool			 forget_ended;
	/* The server ends once every session has ended. */
	bool			 quit_when_done;
	/*
	 * Exec checks ([exec] of the settings file): every exec of an
	 * agent's session that no rule allows is asked; a person's own
	 * sessions are judged by the rules too (else only logged).
	 */
	bool			 exec_strict;
	bool			 exec_judge_own;
	/*
	 * What bounds the files its sessions leave (session.h); a cap of 0:
	 * the sessions' defaults.
	 */
	struct session_bounds	 bounds;
};

struct server;

/*
 * The server's policy, as every command that judges builds it: the named
 * files checked (server_check), the mode, the rules file loaded.  NULL
 * with *cause (a rules file that does not parse says "path:line:
 * problem"): nothing should start then.
 */
struct policy	*server_policy(const struct server_opts *o, char **cause);

/*
 * Check what was named on the command line or in the settings file before
 * anything starts: a rules file named there must be readable (only the
 * default one may be missing: no rules), a notify program must be an
 * executable file.  -1 with *cause ("rules file PATH: reason").
 */
int		 server_check(const struct server_opts *o, char **cause);

/*
 * The policy, the loop, the sessions (which make the state directory) and
 * the approval queue.  NULL with *cause.
 */
struct server	*server_new(const struct server_opts *o, char **cause);

/*
 * Listen on the control socket at path and take consoles there ('ptyvisor
 * attach'); keep: a client that disconnects leaves its sessions running
 * and its requests pending.  -1 with *cause.
 */
int		 server_listen(struct server *sv, const char *path, bool keep,
		     char **cause);

/* The socket it listens on (NULL before server_listen). */
const char	*server_path(const struct server *sv);

struct loop	*server_loop(struct server *sv);
struct sessions	*server_sessions(struct server *sv);
struct approval	*server_approval(struct server *sv);
const char	*server_history(const struct server *sv);

/*
 * Without a socket: the console's own front end (the server's from now
 * on: freed after the sessions), whose status line hears what became of
 * the followed files.
 */
void		 server_set_tui(struct server *sv, struct tui *t);

/* Follow the rules and settings files from now on (follow.h). */
void		 server_follow(struct server *sv);

/* The log's descriptor from now on (-1: none). */
void		 server_set_log(struct server *sv, int fd);

/* One line of the server's log. */
void		 server_log(struct server *sv, const char *line);
/* The same, with no server (before it is made, after it is freed). */
void		 server_log_line(int fd, const char *tag, const char *line);

/* Read the rules and settings files again now (serve's SIGHUP). */
void		 server_reload(struct server *sv);

/* End the loop (the command's loop_run or loop_once returns). */
void		 server_stop(struct server *sv);

/* Whether server_stop was called (a console's quit, kill-server, done). */
bool		 server_stopping(const struct server *sv);

/*
 * End every session (each in the history, its end told), then tell every
 * console the server ends (why) and send what is queued for the clients,
 * for up to a second.
 */
void		 server_end_consoles(struct server *sv, const char *why);

/* Kill every session (their exits reach the agents), then free it all. */
void		 server_free(struct server *sv);

#endif
