/*
 * cli.h - what the sub-commands of the ptyvisor binary share: error
 * messages (errors.c), the configuration directory, the settings file and
 * the paths they set (cli-paths.c), what the console and serve tell their
 * server (server-opts.c), recordings named on the command line
 * (recording-arg.c), the console's client and the socket -L names
 * (cmd-attach.c, for attach, ls, kill-server and the console).  The
 * sub-commands themselves are declared in cli/commands.h, for main.c.
 *
 * Global state: the program's own lives in cli/ and is passed down from
 * here: cli_progname (errors.c, set once by main()), the settings once
 * read (cli-paths.c), the terminal's saved modes (term-raw.c), the running
 * command's pid for the signals ptyvisor gets (cmd-sandbox.c), exec's
 * stdin buffer (cmd-exec.c).  Elsewhere only what one process has once:
 * base/util.c's fatal hook (whoever holds the terminal, so fatal()
 * restores it); tui/'s share of curses, itself global
 * (tui.c's tui_own, the front end on the person's terminal, for that hook;
 * tui-term.c's tui_terms, every curses screen made, never deleted;
 * render.c's render_ncolors, the colour depth of the screen in use); and
 * values made on first use, never changed after (net/relay.c's
 * net.core.rmem_max, control/proto-encoding.c's base64 table, mcp/tools.c's
 * tool list), or a counter that makes names unique (sandbox/limits.c's
 * cgroups).
 */
#ifndef PTYVISOR_CLI_H
#define PTYVISOR_CLI_H

#include <stdbool.h>

#include "base/util.h"
#include "policy/policy.h"
#include "server/server.h"

/* Exit status for ptyvisor's own errors (bad arguments, no state dir...). */
#define CLI_EXIT_ERROR 125

/* The program name used in messages. */
extern const char *cli_progname;

/* Print "ptyvisor CMD: message" on stderr. */
void	cli_error(const char *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));



/*
 * cmd-attach.c: show the console of the server on path (NULL: the default
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

/* ptyvisor's own paths as one command knows them; NULL: the default. */
struct cli_guard_paths {
	const char	*settings;
	const char	*rules;
	const char	*socket;
	const char	*state_dir;
	const char	*notify;
};

/*
 * Out of every sandbox's reach (sandbox/guard.h), added to opts: the
 * configuration directory, settings and rules read-only; the control
 * socket hidden; the state directory read-only with its recordings
 * hidden; this binary and the ptyvisor-sh beside it read-only; an
 * absolute notify program read-only.  -1 with *cause (too many).
 */
int	cli_guard_own(struct sandbox_opts *opts,
	    const struct cli_guard_paths *own, char **cause);

/*
 * server-opts.c: what the agents' server (the console or serve) is told by
 * the command line, and what it resolves to; zero it, parse into srv's
 * flags (mode, mode_given, notify) and rules, then
 * cli_server_opts_defaults() fills the rest.
 */
struct cli_server_opts {
	struct server_opts	 srv;		/* what the server is given */
	char			*rules;		/* owned: --rules, then srv.rules */
	const char		*socket;	/* --socket, then the default */
	char			*socket_path;	/* owned: the default socket */
	char			*settings;	/* owned: srv.settings */
};

/*
 * Fill what the command line left open from cfg (may be NULL), then the
 * defaults: mode untrusted, cli_rules_path(), cli_socket_path(); the
 * settings file (followed) is cli_settings_path().
 */
void	cli_server_opts_defaults(const struct config *cfg,
	    struct cli_server_opts *o);
void	cli_server_opts_free(struct cli_server_opts *o);

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
