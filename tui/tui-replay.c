/*
 * tui-replay.c - a recorded session replayed in a console pane (see
 * tui-replay.h).
 *
 * The player does the timing; this module only forwards its events as
 * damage, redraw and title changes, and maps keys to player calls.
 * Invariant: r->player is never NULL between tui_replay_open and
 * tui_replay_free, and the screen is always fetched from it afresh
 * (a seek back replaces it).
 */
#include "tui/tui-replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/player.h"
#include "term/screen.h"
#include "base/util.h"

struct tui_replay {
	struct player			*player;
	unsigned long			 id;
	char				*cmd;
	const struct tui_replay_events	*ev;
	void				*user;
};

static void
tui_replay_ev_output(void *user, const char *data, size_t len)
{
	struct tui_replay	*r = user;

	(void)data;
	(void)len;
	if (r->ev->title != NULL)
		r->ev->title(r->user, r);	/* the position moved */
}

static void
tui_replay_ev_damage(void *user, int srow, int erow, int scol, int ecol)
{
	struct tui_replay	*r = user;

	(void)scol;
	(void)ecol;
	if (r->ev->damage != NULL)
		r->ev->damage(r->user, r, srow, erow);
}

static void
tui_replay_ev_redraw(void *user)
{
	struct tui_replay	*r = user;

	if (r->ev->redraw != NULL)
		r->ev->redraw(r->user, r);
}

static void
tui_replay_ev_status(void *user)
{
	struct tui_replay	*r = user;

	if (r->ev->title != NULL)
		r->ev->title(r->user, r);
}

static const struct player_events tui_replay_player_events = {
	.output = tui_replay_ev_output,
	.damage = tui_replay_ev_damage,
	.redraw = tui_replay_ev_redraw,
	.status = tui_replay_ev_status,
	.finished = tui_replay_ev_status,
};

struct tui_replay *
tui_replay_open(const char *path, unsigned long id, const char *cmd,
    struct loop *loop, const struct tui_replay_events *ev, void *user,
    char **cause)
{
	static const struct tui_replay_events	none;
	struct tui_replay			*r;
	struct player_opts			 o;

	if (path == NULL) {
		*cause = xasprintf("session %lu has no recording", id);
		return NULL;
	}
	memset(&o, 0, sizeof o);
	o.speed = 1;
	o.idle_limit = -1;	/* the header's, as `ptyvisor replay` */
	r = xcalloc(1, sizeof *r);
	r->id = id;
	r->cmd = xstrdup(cmd != NULL ? cmd : "");
	r->ev = ev != NULL ? ev : &none;
	r->user = user;
	r->player = player_open(path, loop, &o, &tui_replay_player_events, r,
	    cause);
	if (r->player == NULL) {
		free(r->cmd);
		free(r);
		return NULL;
	}
	player_play(r->player);
	return r;
}

void
tui_replay_free(struct tui_replay *r)
{
	if (r == NULL)
		return;
	player_free(r->player);
	free(r->cmd);
	free(r);
}

/* Seek by delta seconds; a failure becomes *message. */
static void
tui_replay_seek(struct tui_replay *r, double delta, char **message)
{
	char	*cause = NULL;

	if (player_seek(r->player, delta, &cause) != 0) {
		free(*message);
		*message = cause;
	}
	if (r->ev->title != NULL)
		r->ev->title(r->user, r);
}

enum tui_replay_result
tui_replay_key(struct tui_replay *r, const struct keys_event *ev,
    char **message)
{
	if (ev->type == KEYS_KEY && ev->key == SCREEN_KEY_RIGHT)
		tui_replay_seek(r, TUI_REPLAY_SEEK_STEP, message);
	else if (ev->type == KEYS_KEY && ev->key == SCREEN_KEY_LEFT)
		tui_replay_seek(r, -TUI_REPLAY_SEEK_STEP, message);
	if (ev->type != KEYS_CHAR || ev->mods != 0)
		return TUI_REPLAY_KEEP;
	switch (ev->ch) {
	case 'q':
	case 'Q':
		return TUI_REPLAY_CLOSE;
	case ' ':
		player_toggle(r->player);
		break;
	case '.':
		if (!player_paused(r->player))
			player_pause(r->player);
		player_step(r->player);
		break;
	case '+':
	case '=':
		player_faster(r->player);
		break;
	case '-':
	case '_':
		player_slower(r->player);
		break;
	case 'l':
		tui_replay_seek(r, TUI_REPLAY_SEEK_STEP, message);
		break;
	case 'h':
		tui_replay_seek(r, -TUI_REPLAY_SEEK_STEP, message);
		break;
	}
	return TUI_REPLAY_KEEP;
}

struct screen *
tui_replay_screen(const struct tui_replay *r)
{
	return player_screen(r->player);
}

bool
tui_replay_finished(const struct tui_replay *r)
{
	return player_finished(r->player);
}

/* Seconds as m:ss, or h:mm:ss from an hour on. */
static void
tui_replay_clock(double t, char *buf, size_t len)
{
	long	s = t > 0 ? (long)t : 0;

	if (s < 3600)
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60,
		    s % 60);
}

void
tui_replay_state(char *buf, size_t len, double pos, double dur,
    double speed, bool paused, bool finished, const char *end)
{
	char	p[32], d[32];

	tui_replay_clock(pos, p, sizeof p);
	tui_replay_clock(dur, d, sizeof d);
	if (finished)
		snprintf(buf, len, "%s/%s %gx %s", p, d, speed,
		    end != NULL ? end : "ended");
	else
		snprintf(buf, len, "%s/%s %gx%s", p, d, speed,
		    paused ? " paused" : "");
}

void
tui_replay_title(const struct tui_replay *r, char *left, size_t llen,
    char *right, size_t rlen)
{
	const struct player	*p = r->player;
	char			 state[128];

	snprintf(left, llen, "replay #%lu %s", r->id, r->cmd);
	tui_replay_state(state, sizeof state, player_position(p),
	    player_duration(p), player_speed(p), player_paused(p),
	    player_finished(p), player_end(p));
	if (player_error(p) != NULL)
		snprintf(right, rlen, "%s (read error)", state);
	else
		snprintf(right, rlen, "%s", state);
}
