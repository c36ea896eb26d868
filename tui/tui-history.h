/*
 * tui-history.h - the history pane: every session of this run and of earlier
 * runs (history.jsonl), newest first, with state icon, id, start time,
 * duration, exit status and command; j/k, arrows, PgUp/PgDn, g/G, the
 * wheel and / search.  Enter opens the selected session's output, r
 * replays its recording.
 */
#ifndef PTYVISOR_TUI_HISTORY_H
#define PTYVISOR_TUI_HISTORY_H

#include <stdbool.h>

#include "tui/keys.h"
#include "tui/layout.h"

struct sessions;
struct screen;
struct tui_history;

enum tui_history_result {
	TUI_HISTORY_KEEP,
	TUI_HISTORY_QUIT,
	TUI_HISTORY_OPEN,	/* open the selected entry */
	TUI_HISTORY_REPLAY,	/* replay the selected entry's recording */
};

/* A pane over history_path and the sessions of ss (both borrowed). */
struct tui_history	*tui_history_new(const char *history_path,
			    struct sessions *ss);
void			 tui_history_free(struct tui_history *h);

/* Re-read the file and the running sessions, keeping the selection. */
void	tui_history_reload(struct tui_history *h);

enum tui_history_result	tui_history_key(struct tui_history *h,
			    const struct keys_event *ev);

/* Draw into area; true when the search prompt is open (cursor there). */
bool	tui_history_draw(struct tui_history *h, struct layout_rect area);

/*
 * The selected entry's output as a screen: the live one for a session of
 * this run (*owned false), else one replayed from its recording (*owned
 * true, the caller frees it).  NULL with *cause when there is none.
 */
struct screen	*tui_history_screen(struct tui_history *h, bool *owned,
		    char **title, char **cause);

/*
 * The selected entry's id, recording (*path) and command line (*cmd),
 * both allocated.  -1 with *cause when nothing is selected, the session
 * still runs or it has no recording.
 */
int	tui_history_recording(struct tui_history *h, unsigned long *id,
	    char **path, char **cmd, char **cause);

/* Replay an asciicast v2 file's output into a new screen; NULL + *cause. */
struct screen	*tui_history_cast_screen(const char *path, char **cause);

#endif
