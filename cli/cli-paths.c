/*
 * cli-paths.c - the configuration directory, the settings file for the
 * sub-commands, and the paths it can set.
 *
 * The file is <cli_config_dir()>/config; a missing one is no settings.  It
 * is read once and kept for the whole process.  Precedence, strongest
 * first: the command line, the environment ($PTYVISOR_STATE_DIR,
 * $PTYVISOR_SOCKET), the file, the built-in defaults.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf/config.h"
#include "control/control.h"
#include "record/statedir.h"
#include "sandbox/sandbox.h"
#include "base/util.h"

/*
 * The configuration directory: $PTYVISOR_CONFIG, else
 * $XDG_CONFIG_HOME/ptyvisor, else ~/.config/ptyvisor.
 */
char *
cli_config_dir(void)
{
	const char	*s;

	if ((s = getenv("PTYVISOR_CONFIG")) != NULL && *s != '\0')
		return xstrdup(s);
	if ((s = getenv("XDG_CONFIG_HOME")) != NULL && *s == '/')
		return xasprintf("%s/ptyvisor", s);
	if ((s = getenv("HOME")) != NULL && *s != '\0')
		return xasprintf("%s/.config/ptyvisor", s);
	return xstrdup(".config/ptyvisor");
}

/* The rules file in the configuration directory. */
char *
cli_rules_path(void)
{
	char	*dir = cli_config_dir(), *p;

	p = xasprintf("%s/rules", dir);
	free(dir);
	return p;
}

/* The settings file in the configuration directory. */
char *
cli_settings_path(void)
{
	char	*dir = cli_config_dir(), *p;

	p = xasprintf("%s/config", dir);
	free(dir);
	return p;
}

/* The settings, once read. */
static struct config *cli_config_loaded;

int
cli_load_config(const struct config **out, char **cause)
{
	struct config	*cfg;
	char		*path, *why = NULL;

	if (cli_config_loaded == NULL) {
		path = cli_settings_path();
		cfg = config_new();
		if (config_load(cfg, path, true, &why) != 0) {
			*cause = xasprintf("config %s", why);
			free(why);
			free(path);
			config_free(cfg);
			return -1;
		}
		free(path);
		cli_config_loaded = cfg;
	}
	*out = cli_config_loaded;
	return 0;
}

const struct config *
cli_config(void)
{
	const struct config	*cfg;
	char			*cause = NULL;

	if (cli_load_config(&cfg, &cause) != 0) {
		cli_error(NULL, "%s", cause);
		free(cause);
		return NULL;
	}
	return cfg;
}

char *
cli_state_dir(const struct config *cfg, char **cause)
{
	const char	*s = getenv("PTYVISOR_STATE_DIR");

	if ((s == NULL || *s == '\0') && cfg != NULL &&
	    config_state_dir(cfg) != NULL)
		return xstrdup(config_state_dir(cfg));
	return statedir_path(cause);
}

char *
cli_socket_path(const struct config *cfg)
{
	const char	*s = getenv("PTYVISOR_SOCKET");

	if ((s == NULL || *s == '\0') && cfg != NULL &&
	    config_socket(cfg) != NULL)
		return xstrdup(config_socket(cfg));
	return control_socket_path();
}

char *
cli_self_path(void)
{
	char	 p[PATH_MAX];
	ssize_t	 n = readlink("/proc/self/exe", p, sizeof p - 1);

	if (n <= 0)
		return xstrdup("ptyvisor");
	p[n] = '\0';
	return xstrdup(p);
}

/* ptyvisor's own paths handed to sandboxes: kept for the process's life. */
static char	*cli_guard_kept[16];
static int	 cli_guard_nkept;

/* Keep p (taken) and add it to opts as how, for why. */
static int
cli_guard_add(struct sandbox_opts *opts, enum guard_how how, char *p,
    const char *why, char **cause)
{
	if (cli_guard_nkept == (int)(sizeof cli_guard_kept /
	    sizeof cli_guard_kept[0])) {
		free(p);
		return 0;
	}
	cli_guard_kept[cli_guard_nkept++] = p;
	return sandbox_opts_add_guard_why(opts, how, p, why, cause);
}

/* s, or what dflt() makes when s is NULL; with a trailing '/' if dir. */
static char *
cli_guard_path(const char *s, char *(*dflt)(void), bool dir)
{
	char	*p = s != NULL ? xstrdup(s) : dflt(), *q;

	if (!dir)
		return p;
	q = xasprintf("%s/", p);
	free(p);
	return q;
}

int
cli_guard_own(struct sandbox_opts *opts, const struct cli_guard_paths *own,
    char **cause)
{
	const struct config	*cfg = cli_config_loaded;
	const char		*rules = own->rules;
	char			*self, *dir, *slash, *state, *why = NULL;
	int			 r;

	if (rules == NULL && cfg != NULL)
		rules = config_rules(cfg);
	if (cli_guard_add(opts, GUARD_READ_ONLY, cli_guard_path(NULL,
	    cli_config_dir, true), "ptyvisor's settings and rules: a rule "
	    "written there approves what comes next", cause) != 0 ||
	    cli_guard_add(opts, GUARD_READ_ONLY, cli_guard_path(own->settings,
	    cli_settings_path, false), "ptyvisor's settings", cause) != 0 ||
	    cli_guard_add(opts, GUARD_READ_ONLY, cli_guard_path(rules,
	    cli_rules_path, false), "ptyvisor's rules", cause) != 0 ||
	    cli_guard_add(opts, GUARD_HIDDEN, own->socket != NULL ?
	    xstrdup(own->socket) : cli_socket_path(cfg), "ptyvisor's control "
	    "socket: approves and denies requests", cause) != 0)
		return -1;
	/* The default socket's own directory too, whichever socket is used. */
	dir = control_socket_dir();
	r = cli_guard_add(opts, GUARD_HIDDEN, xasprintf("%s/", dir),
	    "ptyvisor's control sockets' own directory", cause);
	free(dir);
	if (r != 0)
		return -1;
	/* The state: history and logs read-only, recordings hidden. */
	state = own->state_dir != NULL ? xstrdup(own->state_dir) :
	    cli_state_dir(cfg, &why);
	free(why);
	if (state != NULL) {
		r = cli_guard_add(opts, GUARD_HIDDEN, xasprintf("%s/sessions/",
		    state), "ptyvisor's recordings: all a session printed, "
		    "and the keys typed where recorded", cause);
		if (r == 0)
			r = cli_guard_add(opts, GUARD_READ_ONLY, xasprintf(
			    "%s/", state), "ptyvisor's history and logs: the "
			    "audit trail", cause);
		free(state);
		if (r != 0)
			return -1;
	}
	/* This binary, and the shim beside it that hooks name. */
	self = cli_self_path();
	dir = xstrdup(self);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	r = cli_guard_add(opts, GUARD_READ_ONLY, self, "ptyvisor itself, "
	    "which hooks and the server run", cause);
	if (r == 0 && slash != NULL)
		r = cli_guard_add(opts, GUARD_READ_ONLY, xasprintf(
		    "%s/ptyvisor-sh", dir), "ptyvisor's shell shim, which "
		    "agents run", cause);
	free(dir);
	if (r == 0 && own->notify != NULL && own->notify[0] == '/')
		r = cli_guard_add(opts, GUARD_READ_ONLY, xstrdup(own->notify),
		    "the program ptyvisor runs to tell of a request", cause);
	return r;
}
