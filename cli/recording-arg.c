/*
 * recording-arg.c - recordings named on the command line, shared by replay
 * and show: a session id or a path to a file, and a recording's screen as
 * plain text.
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "record/player.h"
#include "record/statedir.h"
#include "term/screen.h"

/* The screen a recording shows at time at (< 0: its end), as text. */
int
cli_cast_text(const char *path, double at, struct buf *out, char **warning,
    char **cause)
{
	struct player	*p;
	double		 t = at >= 0 ? at : 1e300;

	*warning = NULL;
	if ((p = player_open(path, NULL, NULL, NULL, NULL, cause)) == NULL)
		return -1;
	if (player_seek_to(p, t, cause) != 0 ||
	    (player_error(p) != NULL && (*cause = xstrdup(player_error(p))))) {
		player_free(p);
		return -1;
	}
	screen_text(player_screen(p), true, out);
	if (player_warning(p) != NULL)
		*warning = xstrdup(player_warning(p));
	player_free(p);
	return 0;
}

/* A session id of the state directory, or a path, to a recording. */
char *
cli_recording_path(const char *arg, char **cause)
{
	const struct config *cfg;
	char		*dir, *end, *path;
	unsigned long	 id;

	if (*arg == '\0' || strspn(arg, "0123456789") != strlen(arg))
		return xstrdup(arg);
	errno = 0;
	id = strtoul(arg, &end, 10);
	if (errno != 0) {
		*cause = xasprintf("bad session id '%s'", arg);
		return NULL;
	}
	if (cli_load_config(&cfg, cause) != 0 ||
	    (dir = cli_state_dir(cfg, cause)) == NULL)
		return NULL;
	path = statedir_cast_path(dir, id);
	free(dir);
	if (access(path, F_OK) != 0) {
		*cause = xasprintf("no recording for session %lu (%s: %s)", id,
		    path, strerror(errno));
		free(path);
		return NULL;
	}
	return path;
}
