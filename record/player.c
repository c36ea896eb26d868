/*
 * player.c - timed playback of a recording into a screen (see player.h).
 *
 * Invariants: at most one loop timer is armed, and only while playing with
 * a pending event whose playback time the clock has already given; when
 * paused mid-wait, the rest of the wait is kept in remain_ms instead.
 * p->next is the pending event, read but not yet played; its data belongs
 * to p->cast until the next cast_next.  While p->quiet (seeking) nothing is
 * reported to the owner.
 */
#include "record/player.h"

#include <stdlib.h>
#include <string.h>

#include "record/replay.h"
#include "base/util.h"

/*
 * Most events played in one timer callback when they are all due at once:
 * a burst of output must not keep the loop from serving the keyboard.
 */
#define PLAYER_BATCH_EVENTS	256
/* Most output bytes played in one timer callback, for the same reason. */
#define PLAYER_BATCH_BYTES	(64 * 1024)

struct player {
	char			*path;
	struct loop		*loop;
	struct player_events	 ev;
	void			*user;
	size_t			 scrollback;

	struct cast		*cast;
	struct screen		*screen;
	struct cast_event	 next;		/* pending, when has_next */
	bool			 has_next;
	bool			 eof;

	struct replay_clock	 rc;
	double			 speed;
	double			 idle_limit;
	double			 pos;
	double			 duration;
	double			 delay;		/* player_next_delay */

	bool			 paused;
	bool			 finished;
	bool			 quiet;
	struct loop_timer	*timer;
	uint64_t		 due_ms;
	uint64_t		 remain_ms;
	bool			 has_remain;

	char			*end;
	char			*warning;
	char			*error;
};

static void	player_arm(struct player *, double);

/* Forward screen damage to the owner unless seeking. */
static void
player_damage(void *user, int srow, int erow, int scol, int ecol)
{
	struct player	*p = user;

	if (!p->quiet && p->ev.damage != NULL)
		p->ev.damage(p->user, srow, erow, scol, ecol);
}

static const struct screen_events player_screen_events = {
	.damage = player_damage,
};

/* A fresh screen of the header's size, replacing the old one. */
static void
player_new_screen(struct player *p)
{
	const struct cast_header	*h = cast_header(p->cast);

	screen_free(p->screen);
	p->screen = screen_new((int)h->height, (int)h->width, p->scrollback,
	    &player_screen_events, p);
}

/*
 * What an event does to a screen: output is fed, a resize resizes (a
 * resize to nothing is ignored).  Returns whether the screen changed.
 */
static bool
player_screen_event(struct screen *scr, const struct cast_event *e)
{
	if (e->type == 'o') {
		screen_feed(scr, e->data, e->len);
		return true;
	}
	if (e->type == 'r' && e->cols != 0 && e->rows != 0) {
		screen_resize(scr, (int)e->rows, (int)e->cols);
		return true;
	}
	return false;
}

/* Make sure the next event is pending unless the recording is over. */
static void
player_read(struct player *p)
{
	char	*cause = NULL;
	int	 r;

	if (p->has_next || p->eof)
		return;
	r = cast_next(p->cast, &p->next, &cause);
	if (r == 1) {
		p->has_next = true;
		return;
	}
	p->eof = true;
	if (r < 0 && p->error == NULL)
		p->error = cause;
	else
		free(cause);
}

/* Does an event of this type change what is shown? */
static bool
player_is_visible(char type)
{
	return type == 'o' || type == 'r' || type == 'm' || type == 'x';
}

/* Play the pending event into the screen and consume it. */
static void
player_apply(struct player *p)
{
	struct cast_event	*e = &p->next;

	p->has_next = false;
	if (e->time > p->pos)
		p->pos = e->time;
	switch (e->type) {
	case 'o':
		/* A marker followed by more output is not how it ended. */
		free(p->end);
		p->end = NULL;
		player_screen_event(p->screen, e);
		if (!p->quiet && p->ev.output != NULL)
			p->ev.output(p->user, e->data, e->len);
		break;
	case 'r':
		if (!player_screen_event(p->screen, e))
			break;
		if (!p->quiet && p->ev.redraw != NULL)
			p->ev.redraw(p->user);
		break;
	case 'm':
		free(p->end);
		p->end = xstrndup(e->data, e->len);
		break;
	case 'x':
		free(p->end);
		p->end = xasprintf("exit %.*s", (int)e->len, e->data);
		break;
	}
}

/* The recording is over: no timer, position at the end, tell the owner. */
static void
player_finish(struct player *p)
{
	loop_timer_cancel(p->loop, p->timer);
	p->timer = NULL;
	p->has_remain = false;
	p->finished = true;
	if (p->duration > p->pos)
		p->pos = p->duration;
	if (!p->quiet) {
		screen_flush_damage(p->screen);
		if (p->ev.finished != NULL)
			p->ev.finished(p->user);
	}
}

/* Restart the clock at the current position (after a step or a seek). */
static void
player_reset_clock(struct player *p)
{
	replay_clock_init(&p->rc, p->speed, p->idle_limit);
	p->rc.last_in = p->pos;
	p->has_remain = false;
}

/* Playback seconds until the pending event, advancing the clock. */
static double
player_clock_next(struct player *p)
{
	double	prev = p->rc.last_out;

	p->delay = replay_clock_next(&p->rc, p->next.time) - prev;
	if (p->delay < 0)
		p->delay = 0;
	return p->delay;
}

/* The timer fired: play what is due, then wait for the next event. */
static void
player_fire(struct loop *l, void *arg)
{
	struct player	*p = arg;
	size_t		 events = 0, bytes = 0;
	double		 delay;

	(void)l;
	p->timer = NULL;
	for (;;) {
		if (p->next.type == 'o')
			bytes += p->next.len;
		player_apply(p);
		events++;
		player_read(p);
		if (!p->has_next) {
			player_finish(p);
			return;
		}
		delay = player_clock_next(p);
		if (delay >= 0.0005 || events >= PLAYER_BATCH_EVENTS ||
		    bytes >= PLAYER_BATCH_BYTES)
			break;
	}
	screen_flush_damage(p->screen);
	player_arm(p, delay);
}

/* Arm the timer for delay playback seconds from now. */
static void
player_arm(struct player *p, double delay)
{
	uint64_t	ms = (uint64_t)(delay * 1000 + 0.5);

	loop_timer_cancel(p->loop, p->timer);
	p->due_ms = util_now_ms() + ms;
	p->timer = loop_timer_add(p->loop, ms, player_fire, p);
}

/* Wait for the pending event, if playing. */
static void
player_schedule(struct player *p)
{
	if (p->paused || p->finished || p->loop == NULL || p->timer != NULL)
		return;
	if (p->has_remain) {
		p->has_remain = false;
		player_arm(p, (double)p->remain_ms / 1000);
		return;
	}
	player_read(p);
	if (!p->has_next) {
		player_finish(p);
		return;
	}
	player_arm(p, player_clock_next(p));
}

/* A speed within the bounds. */
static double
player_clamp_speed(double speed)
{
	if (!(speed >= PLAYER_SPEED_MIN))
		return PLAYER_SPEED_MIN;
	if (speed > PLAYER_SPEED_MAX)
		return PLAYER_SPEED_MAX;
	return speed;
}

/* Read the whole file once: check it, find its duration and warning. */
static int
player_scan(struct player *p, char **cause)
{
	struct cast		*c;
	struct cast_event	 e;
	const char		*w;
	int			 r;

	if ((c = cast_open(p->path, cause)) == NULL)
		return -1;
	p->duration = cast_header(c)->duration;
	while ((r = cast_next(c, &e, cause)) == 1)
		p->duration = e.time;
	if ((w = cast_warning(c)) != NULL)
		p->warning = xstrdup(w);
	cast_free(c);
	return r;
}

struct player *
player_open(const char *path, struct loop *loop, const struct player_opts *o,
    const struct player_events *ev, void *user, char **cause)
{
	struct player	*p = xcalloc(1, sizeof *p);

	p->path = xstrdup(path);
	p->loop = loop;
	if (ev != NULL)
		p->ev = *ev;
	p->user = user;
	p->scrollback = o != NULL && o->scrollback != 0 ? o->scrollback :
	    PLAYER_SCROLLBACK_DEFAULT;
	p->paused = true;
	if (player_scan(p, cause) != 0 ||
	    (p->cast = cast_open(path, cause)) == NULL) {
		player_free(p);
		return NULL;
	}
	p->idle_limit = replay_idle_limit(o != NULL ? o->idle_limit : -1,
	    cast_header(p->cast)->idle_time_limit);
	p->speed = player_clamp_speed(o != NULL && o->speed > 0 ? o->speed : 1);
	player_new_screen(p);
	player_reset_clock(p);
	return p;
}

void
player_free(struct player *p)
{
	if (p == NULL)
		return;
	loop_timer_cancel(p->loop, p->timer);
	cast_free(p->cast);
	screen_free(p->screen);
	free(p->path);
	free(p->end);
	free(p->warning);
	free(p->error);
	free(p);
}

void
player_play(struct player *p)
{
	if (!p->paused || p->loop == NULL)
		return;
	p->paused = false;
	player_schedule(p);
	if (p->ev.status != NULL)
		p->ev.status(p->user);
}

void
player_pause(struct player *p)
{
	uint64_t	now;

	if (p->paused)
		return;
	p->paused = true;
	if (p->timer != NULL) {
		now = util_now_ms();
		p->remain_ms = p->due_ms > now ? p->due_ms - now : 0;
		p->has_remain = true;
		loop_timer_cancel(p->loop, p->timer);
		p->timer = NULL;
	}
	if (p->ev.status != NULL)
		p->ev.status(p->user);
}

void
player_toggle(struct player *p)
{
	if (p->paused)
		player_play(p);
	else
		player_pause(p);
}

bool
player_paused(const struct player *p)
{
	return p->paused;
}

int
player_step(struct player *p)
{
	bool	played = false;

	if (p->finished)
		return 0;
	loop_timer_cancel(p->loop, p->timer);
	p->timer = NULL;
	for (;;) {
		player_read(p);
		if (!p->has_next)
			break;
		played = player_is_visible(p->next.type);
		player_apply(p);
		if (played)
			break;
	}
	player_reset_clock(p);
	player_read(p);
	if (!p->has_next) {
		player_finish(p);
		return played ? 1 : 0;
	}
	screen_flush_damage(p->screen);
	player_schedule(p);
	return played ? 1 : 0;
}

void
player_set_speed(struct player *p, double speed)
{
	double	old = p->speed;

	speed = player_clamp_speed(speed);
	p->speed = speed;
	p->rc.speed = speed;
	/* A wait already under way shrinks or grows with the speed. */
	if (p->has_remain)
		p->remain_ms = (uint64_t)((double)p->remain_ms * old / speed);
	else if (p->timer != NULL) {
		uint64_t now = util_now_ms();
		double	 left = p->due_ms > now ? (double)(p->due_ms - now) : 0;

		player_arm(p, left * old / speed / 1000);
	}
	if (p->ev.status != NULL)
		p->ev.status(p->user);
}

void
player_faster(struct player *p)
{
	player_set_speed(p, p->speed * 2);
}

void
player_slower(struct player *p)
{
	player_set_speed(p, p->speed / 2);
}

double
player_speed(const struct player *p)
{
	return p->speed;
}

double
player_idle_limit(const struct player *p)
{
	return p->idle_limit;
}

/* Start over from the first event with a fresh screen. */
static int
player_rewind(struct player *p, char **cause)
{
	struct cast	*c;

	if ((c = cast_open(p->path, cause)) == NULL) {
		p->eof = true;
		p->has_next = false;
		return -1;
	}
	cast_free(p->cast);
	p->cast = c;
	p->has_next = false;
	p->eof = false;
	p->pos = 0;
	p->finished = false;
	free(p->end);
	p->end = NULL;
	player_new_screen(p);
	return 0;
}

int
player_seek_to(struct player *p, double t, char **cause)
{
	int	rc = 0;

	if (!(t >= 0))
		t = 0;
	if (t > p->duration)
		t = p->duration;
	loop_timer_cancel(p->loop, p->timer);
	p->timer = NULL;
	p->quiet = true;
	if (t < p->pos && player_rewind(p, cause) != 0)
		rc = -1;
	for (;;) {
		player_read(p);
		if (!p->has_next || p->next.time > t)
			break;
		player_apply(p);
	}
	if (t > p->pos)
		p->pos = t;
	p->quiet = false;
	player_reset_clock(p);
	if (p->has_next)
		p->finished = false;
	else if (!p->finished)
		player_finish(p);
	if (p->ev.redraw != NULL)
		p->ev.redraw(p->user);
	if (p->finished && p->ev.finished != NULL)
		p->ev.finished(p->user);
	player_schedule(p);
	return rc;
}

int
player_seek(struct player *p, double delta, char **cause)
{
	return player_seek_to(p, p->pos + delta, cause);
}

double
player_position(const struct player *p)
{
	return p->pos;
}

double
player_duration(const struct player *p)
{
	return p->duration;
}

double
player_next_delay(const struct player *p)
{
	return p->delay;
}

bool
player_finished(const struct player *p)
{
	return p->finished;
}

const char *
player_end(const struct player *p)
{
	return p->end;
}

struct screen *
player_screen(const struct player *p)
{
	return p->screen;
}

const struct cast_header *
player_header(const struct player *p)
{
	return cast_header(p->cast);
}

const char *
player_warning(const struct player *p)
{
	return p->warning;
}

const char *
player_error(const struct player *p)
{
	return p->error;
}

struct screen *
player_final_screen(const char *path, size_t scrollback, char **warning,
    char **cause)
{
	const struct cast_header	*h;
	struct cast			*c;
	struct cast_event		 e;
	struct screen			*scr;
	int				 r;

	*warning = NULL;
	if ((c = cast_open(path, cause)) == NULL)
		return NULL;
	h = cast_header(c);
	scr = screen_new((int)h->height, (int)h->width, scrollback != 0 ?
	    scrollback : PLAYER_SCROLLBACK_DEFAULT, NULL, NULL);
	while ((r = cast_next(c, &e, cause)) == 1)
		player_screen_event(scr, &e);
	if (r < 0) {
		screen_free(scr);
		cast_free(c);
		return NULL;
	}
	if (cast_warning(c) != NULL)
		*warning = xstrdup(cast_warning(c));
	cast_free(c);
	return scr;
}
