/*
 * player.h - play an asciicast recording into a terminal screen, with the
 * recorded timing, on the event loop.  No terminal, no curses: front ends
 * (`ptyvisor replay`, a TUI pane) draw from player_screen() when told to.
 *
 * Opening a recording reads it once to check it and learn its duration, so
 * a bad file fails at player_open and not half-way through.  Playback reads
 * it again, one event at a time.  Seeking forward feeds the events in
 * between to the screen without reporting them; seeking back starts over
 * from the first event with a fresh screen and feeds quickly up to the
 * target.  Times are recording times (seconds from the start) unless said
 * otherwise; the speed and idle limit only change how long the player
 * waits between events (see replay.h).
 */
#ifndef PTYVISOR_PLAYER_H
#define PTYVISOR_PLAYER_H

#include <stdbool.h>
#include <stddef.h>

#include "record/cast.h"
#include "base/loop.h"
#include "term/screen.h"

/* Scrollback lines of the player's screen when the options say 0. */
#define PLAYER_SCROLLBACK_DEFAULT 10000

/* Bounds of player_faster/player_slower (each step doubles or halves). */
#define PLAYER_SPEED_MIN (1.0 / 64)
#define PLAYER_SPEED_MAX 1024.0

/* Options of player_open, a plain value.  Zero means the default. */
struct player_opts {
	double	speed;		/* > 0; 0: 1 */
	double	idle_limit;	/* < 0: the header's; 0: none; else seconds */
	size_t	scrollback;	/* lines; 0: PLAYER_SCROLLBACK_DEFAULT */
};

/* What a player tells its owner.  Every member may be NULL. */
struct player_events {
	/*
	 * An output event was played: data (len bytes, exactly as recorded)
	 * has just been fed to the screen.
	 */
	void	(*output)(void *user, const char *data, size_t len);
	/* Cells of the screen changed (libvterm damage, during play). */
	void	(*damage)(void *user, int srow, int erow, int scol, int ecol);
	/*
	 * The screen changed in a way output did not describe (a seek, a
	 * resize, a new screen after seeking back): draw it whole, fetching
	 * player_screen() again.
	 */
	void	(*redraw)(void *user);
	/* Paused, resumed, speed changed: a status line may need updating. */
	void	(*status)(void *user);
	/* The last event was played; player_end() says how it ended. */
	void	(*finished)(void *user);
};

struct player;

/*
 * Open the recording at path and check it whole.  loop may be NULL when
 * the player is only moved with player_seek_to (no timed play).  NULL on
 * failure with *cause (caller frees).  Playback starts with player_play.
 */
struct player	*player_open(const char *path, struct loop *loop,
		    const struct player_opts *o, const struct player_events *ev,
		    void *user, char **cause);
/* Stop and free; NULL is a no-op.  Cancels the player's timer. */
void		 player_free(struct player *p);

/*
 * The screen a recording shows at its end, scrollback included, read with
 * the one asciicast reader (cast.h): for an output view.  The caller owns
 * and frees it (it has no events).  *warning (caller frees) says what a
 * damaged file lost.  NULL with *cause.
 */
struct screen	*player_final_screen(const char *path, size_t scrollback,
		    char **warning, char **cause);

/* Start or resume playing with the recorded timing (needs a loop). */
void	player_play(struct player *p);
/* Pause: nothing more is played until player_play or player_step. */
void	player_pause(struct player *p);
/* Pause when playing, play when paused. */
void	player_toggle(struct player *p);
bool	player_paused(const struct player *p);

/*
 * Play the next visible event (output, resize, marker, exit) now, whatever
 * its time; used while paused.  Returns 1 if one was played, 0 at the end.
 */
int	player_step(struct player *p);

/* Set the speed (clamped to [PLAYER_SPEED_MIN, PLAYER_SPEED_MAX]). */
void	player_set_speed(struct player *p, double speed);
/* Double or halve the speed. */
void	player_faster(struct player *p);
void	player_slower(struct player *p);
double	player_speed(const struct player *p);
/* The idle limit in use (0: none). */
double	player_idle_limit(const struct player *p);

/*
 * Jump to recording time t (clamped to [0, duration]): the screen shows
 * what it showed then.  Returns -1 with *cause when the file can no
 * longer be read (the player is then finished).
 */
int	player_seek_to(struct player *p, double t, char **cause);
/* Jump by delta seconds from the current position. */
int	player_seek(struct player *p, double delta, char **cause);

/* Recording time reached: the last event played, or the seek target. */
double	player_position(const struct player *p);
/* Time of the last event of the recording. */
double	player_duration(const struct player *p);
/*
 * Playback seconds the player waits (or waited) between the event played
 * before and the next one: the recorded pause after speed and idle limit.
 */
double	player_next_delay(const struct player *p);
bool	player_finished(const struct player *p);

/*
 * How the recording ended: the data of the last marker or exit event
 * ("exit 3", "signal 9"; a v3 exit event's status becomes "exit N"), or
 * NULL when there was none.  Owned by p.
 */
const char	*player_end(const struct player *p);

/* The screen; it is replaced when seeking back (see the redraw event). */
struct screen	*player_screen(const struct player *p);
/* The recording's header; owned by p. */
const struct cast_header *player_header(const struct player *p);
/* A non-fatal problem with the file (a truncated last line), or NULL. */
const char	*player_warning(const struct player *p);
/* Why playback stopped early (the file changed under us), or NULL. */
const char	*player_error(const struct player *p);

#endif
