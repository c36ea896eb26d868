/*
 * tui-replay.h - a recorded session replayed in a console pane: a player
 * (record/player.h) on the console's event loop, the keys that drive it
 * (space . + - left right q, as in `ptyvisor replay`) and the text of the
 * pane's title.
 *
 * Nothing here draws: the console renders tui_replay_screen() with the
 * same code as a live session's screen and asks for the title text.
 */
#ifndef PTYVISOR_TUI_REPLAY_H
#define PTYVISOR_TUI_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/keys.h"

struct loop;
struct screen;
struct tui_replay;

/* Seconds that left and right seek. */
#define TUI_REPLAY_SEEK_STEP	5.0

/* What a replay tells the console.  Every member may be NULL. */
struct tui_replay_events {
	/* Rows [srow, erow) of the screen changed. */
	void	(*damage)(void *user, struct tui_replay *r, int srow,
		    int erow);
	/* The whole screen changed, or was replaced: fetch it again. */
	void	(*redraw)(void *user, struct tui_replay *r);
	/* Position, speed, pause or end changed: the title needs redrawing. */
	void	(*title)(void *user, struct tui_replay *r);
};

enum tui_replay_result {
	TUI_REPLAY_KEEP,
	TUI_REPLAY_CLOSE,	/* q: close the pane */
};

/*
 * Open the recording at path of session id (cmd: its command line, copied)
 * and start playing it on loop.  NULL with *cause (caller frees) when the
 * recording is missing or cannot be read.
 */
struct tui_replay	*tui_replay_open(const char *path, unsigned long id,
			    const char *cmd, struct loop *loop,
			    const struct tui_replay_events *ev, void *user,
			    char **cause);
/* Stop and free; NULL is a no-op. */
void			 tui_replay_free(struct tui_replay *r);

/*
 * One key while the replay's pane has focus.  A seek that fails leaves
 * *message (caller frees) for the status line.
 */
enum tui_replay_result	tui_replay_key(struct tui_replay *r,
			    const struct keys_event *ev, char **message);

/* The screen to draw; it changes after a seek back (see redraw). */
struct screen	*tui_replay_screen(const struct tui_replay *r);

bool	tui_replay_finished(const struct tui_replay *r);

/*
 * The title: left gets "replay #ID CMD", right the state, such as
 * "0:03/0:10 2x paused" or, at the end, "0:10/0:10 1x exit 3".
 */
void	tui_replay_title(const struct tui_replay *r, char *left, size_t llen,
	    char *right, size_t rlen);

/*
 * The state part of the title from plain values (pure, for tests): end
 * is the recording's final marker, or NULL; it is shown only when
 * finished ("ended" when there was none).
 */
void	tui_replay_state(char *buf, size_t len, double pos, double dur,
	    double speed, bool paused, bool finished, const char *end);

#endif
