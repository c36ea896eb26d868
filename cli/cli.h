/*
 * cli.h - what the sub-commands of the ptyvisor binary share: error
 * messages (errors.c), the configuration directory and settings file
 * (config.c), the agents' server (agents.c), recordings named on the
 * command line (recording.c).  The sub-commands themselves are declared in
 * cli/commands.h, for main.c.  The only global state of the program lives
 * in cli/.
 */
#ifndef PTYVISOR_CLI_H
#define PTYVISOR_CLI_H

#include <stdbool.h>

#include "policy/policy.h"
#include "base/util.h"
/* The asker the agents' sessions and run/sandbox give their proxies. */
#include "control/ask-server.h"

/* Exit status for ptyvisor's own errors (bad arguments, no state dir...). */
#define CLI_EXIT_ERROR 125

/* The program name used in messages. */
extern const char *cli_progname;

/* Print "ptyvisor CMD: message" on stderr. */
void	cli_error(const char *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* A refused option (getopt's '?' or ':') named, with where the help is. */
void	cli_bad_option(const char *cmd, int opt, const char *bad);


struct approval_request;
struct sandbox_opts;
struct sessions;
struct loop;
struct tui_opts;
struct control_hooks;

/*
 * attach.c: show the console of the server on path (NULL: the default
 * socket) on this terminal until it detaches or ends; new_session opens
 * argv (NULL: the shell) in it first.  Returns the exit status.
 */
int	cli_attach(const char *path, char *const *argv, bool new_session,
	    bool readonly);
/*
 * The socket of -L name or --socket path (path wins; neither: the
 * default).  NULL when name is not a valid name.  Caller frees.
 */
char	*cli_socket_for(const char *name, const char *path);

/* consoles.c: the consoles of a server (attach). */
struct consoles;
struct consoles	*consoles_new(struct loop *loop, struct sessions *ss,
		    const struct tui_opts *o, void (*end)(void *),
		    void *end_arg);
/*
 * Set the control server's console hooks to these consoles': a client's
 * attach gets a front end (drawn on its own terminal when it passed it).
 */
void		 consoles_hooks(struct consoles *cs, struct control_hooks *h);
size_t		 consoles_attached(const struct consoles *cs);
/* Front ends kept, attached or not. */
size_t		 consoles_count(const struct consoles *cs);
/* The size a new pane gets in an attached console; false: none is. */
struct pty_size;
bool		 consoles_next_size(const struct consoles *cs,
		    struct pty_size *size);
/* A line on every console's status line. */
void		 consoles_status(struct consoles *cs, const char *line);
/* Give every console's terminal back, telling its client why. */
void		 consoles_end_all(struct consoles *cs, const char *why);
void		 consoles_free(struct consoles *cs);

/*
 * The configuration directory: $PTYVISOR_CONFIG, else
 * $XDG_CONFIG_HOME/ptyvisor, else ~/.config/ptyvisor.  Caller frees.
 */
char	*cli_config_dir(void);

/* The rules file in the configuration directory.  Caller frees. */
char	*cli_rules_path(void);

/*
 * The absolute path of this binary (what agents' configurations name), or
 * "ptyvisor" when it cannot be read.  Caller frees.
 */
char	*cli_self_path(void);

/* The settings file in the configuration directory.  Caller frees. */
char	*cli_settings_path(void);

struct config;

/*
 * The settings file, <cli_config_dir()>/config, read on the first call and
 * kept for the process (a missing file is no settings): *out is borrowed.
 * -1 with *cause ("config FILE:LINE: problem") when the file is wrong.
 */
int	 cli_load_config(const struct config **out, char **cause);

/*
 * cli_load_config(), telling stderr what is wrong with the file
 * ("ptyvisor: config FILE:LINE: problem") and returning NULL then: the
 * command exits CLI_EXIT_ERROR without running anything.
 */
const struct config *cli_config(void);

/*
 * The state directory: $PTYVISOR_STATE_DIR, else [paths] state_dir of cfg
 * (which may be NULL), else statedir_path()'s default.  Caller frees; NULL
 * with *cause.
 */
char	*cli_state_dir(const struct config *cfg, char **cause);

/*
 * The control socket: $PTYVISOR_SOCKET, else [paths] socket of cfg (may be
 * NULL), else control_socket_path()'s default.  Caller frees.
 */
char	*cli_socket_path(const struct config *cfg);

/*
 * What the agents' server (the console or serve) is told by the command
 * line; zero it, parse, then cli_server_defaults() fills the rest.
 */
struct cli_server_opts {
	enum policy_mode	 mode;
	bool			 mode_given;
	char			*rules;		/* owned */
	const char		*notify;
	const char		*socket;
	char			*socket_path;	/* owned: the default socket */
	bool			 rules_named;	/* by the flag or the file */
	bool			 notify_given;	/* by the flag */
};

/*
 * Fill what the command line left open from cfg (may be NULL), then the
 * defaults: mode untrusted, cli_rules_path(), cli_socket_path().
 */
void	cli_server_defaults(const struct config *cfg,
	    struct cli_server_opts *o);
void	cli_server_opts_free(struct cli_server_opts *o);

struct approval;
struct loop;
struct policy;

/*
 * The agents' server's policy, as the console and serve both build it:
 * the named files checked (cli_server_check), the mode, the rules file
 * loaded.  NULL with *cause (a rules file that does not parse says
 * "path:line: problem"): nothing should start then.
 */
struct policy	*cli_agents_policy(const struct cli_server_opts *o,
		    char **cause);

/*
 * The agents' server's approval queue over policy p on loop: the rules
 * file remembered rules are saved to, the notify program, the profile of
 * requests that name none (NULL: the queue's default), the history file
 * where requests that never run are listed too.
 */
struct approval	*cli_agents_queue(struct loop *loop, struct policy *p,
		    const struct cli_server_opts *o, const char *profile,
		    const char *history);

/*
 * Check what was named on the command line or in the settings file before
 * anything starts: a rules file named there must be readable (only the
 * default one may be missing: no rules), a notify program must be an
 * executable file.  -1 with *cause ("rules file PATH: reason").
 */
int	cli_server_check(const struct cli_server_opts *o, char **cause);

struct cli_follow;

/*
 * Follow the rules and settings files of an agents' server (the console,
 * serve) on loop; a, o (borrowed) are the server's queue and options.
 * When the rules file changes its rules replace the old ones.  When the
 * settings file changes, what it sets that the command line did not and
 * that can change while running is applied: the approval mode, the notify
 * program (checked first); the rest applies at the next start.  A file
 * with an error changes nothing.  report(user, level, line) says what
 * happened (the log, the status line).  Never NULL: a directory that
 * cannot be watched is reported, and cli_follow_reload() still works.
 */
enum cli_report {
	CLI_REPORT_NOTE,	/* for the log: e.g. a file not followed */
	CLI_REPORT_CHANGE,	/* a file was reloaded: the person sees it */
	CLI_REPORT_ERROR	/* a file was not reloaded, or part refused */
};
struct cli_follow	*cli_follow_new(struct loop *loop, struct approval *a,
			    const struct cli_server_opts *o,
			    void (*report)(void *, enum cli_report,
			    const char *), void *user);
/* Read both files again now (serve's SIGHUP). */
void			 cli_follow_reload(struct cli_follow *f);
void			 cli_follow_free(struct cli_follow *f);

/* How the server starts agents' sessions (a plain value; zero: defaults). */
struct cli_agent_opts {
	/* Sandbox options (borrowed; NULL: the defaults). */
	const struct sandbox_opts	*sandbox;
	unsigned short			 cols;	/* 0: the request's size */
	unsigned short			 rows;
	size_t				 scrollback;	/* lines; 0: default */
	const char			*socket;	/* the control socket, where
							   a filtered network asks
							   for hosts; NULL: none */
};

/*
 * Start an approved request as an agent session (the control server's
 * spawn hook): its argv, cwd, timeout and size (unless o gives one), in
 * the sandbox o describes with the profile the request asked for and the
 * network only if it asked; our environment without LD_* plus the
 * request's env.  o may be NULL.
 */
/* The log line for a running session's failed recording (trouble event). */
struct session;
char		*cli_trouble_line(const struct session *s);

struct session	*cli_spawn_request(struct sessions *ss,
		    const struct approval_request *r,
		    const struct cli_agent_opts *o, char **cause);

/*
 * The recording named by a command-line argument: digits only are a
 * session id of the state directory (which must have its recording),
 * anything else a path.  NULL with *cause; caller frees.
 */
char	*cli_recording_path(const char *arg, char **cause);

/*
 * Append the screen a recording shows at time at (< 0: at its end),
 * scrollback included, as plain text (screen_text).  *warning is set
 * (caller frees) when the file had a non-fatal problem.  -1 with *cause.
 */
int	 cli_cast_text(const char *path, double at, struct buf *out,
	     char **warning, char **cause);

#endif
