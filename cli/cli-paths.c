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
#include <unistd.h>

#include "conf/config.h"
#include "control/control.h"
#include "record/statedir.h"
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
