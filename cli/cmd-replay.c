/*
 * cmd-replay.c - `ptyvisor replay`: play a recording on the terminal, or
 * print its final screen as plain text (or its events' timings).
 *
 * On a terminal the recording is played by a player (record/player.h) on
 * the event loop.  Two ways of drawing:
 *  - passthrough, when the terminal has exactly the recording's size and no
 *    status line is up: the recorded bytes are written as they are, so the
 *    terminal itself interprets them (colours, modes, everything);
 *  - rendered, otherwise (another size, a status line, after a seek): the
 *    player's screen is painted row by row (paint-row.c), clipped to the
 *    terminal, at most once a frame.  A recording larger than the
 *    terminal keeps a one-line notice on the last row.
 * Going back from rendered to passthrough repaints the whole terminal from
 * the screen first, so the terminal always matches the player's screen
 * before raw bytes resume.  The terminal is restored on every way out:
 * normal exit, signals through the loop, fatal() through its hook.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/paint-row.h"
#include "cli/term-raw.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "record/cast.h"
#include "base/loop.h"
#include "record/player.h"
#include "record/replay.h"
#include "record/statedir.h"
#include "base/util.h"

/* Exit status when the recording cannot be read. */
#define CMD_REPLAY_EXIT_READ 1
/* Seconds moved by the arrow keys. */
#define CMD_REPLAY_SEEK_STEP 5.0
/* Frame interval of rendered drawing, in ms. */
#define CMD_REPLAY_FRAME_MS 16
/* How long a status line shown by a key stays up while playing, in ms. */
#define CMD_REPLAY_STATUS_MS 1500

struct cmd_replay {
	struct loop		*loop;
	struct player		*player;
	const char		*name;
	int			 tcols;		/* the terminal */
	int			 trows;
	bool			 passthrough;
	bool			 clipped;	/* larger than the terminal */
	bool			 status;	/* status line up */
	bool			 full;		/* repaint everything */
	bool			 dirty;		/* repaint what is visible */
	bool			 quit;
	int			 signal;
	struct loop_timer	*frame;
	struct loop_timer	*status_timer;
	char			*message;	/* last seek error */
};

/*
 * Undo what a recording may have turned on (alternate screen, hidden
 * cursor, keypad and mouse modes, scroll region, attributes); term_restore()
 * runs it before leaving raw mode.
 */
static void
cmd_replay_reset_modes(void)
{
	/* DECSTBM homes the cursor: save and restore it around. */
	static const char reset[] = "\033[0m\0337\033[r\0338\033[?1l\033>"
	    "\033[?1000l\033[?1002l\033[?1003l\033[?1006l\033[?2004l\033[?25h";

	util_write_all(STDOUT_FILENO, reset, sizeof reset - 1);
}

/* Read the terminal's size into r (80x24 when it has none). */
static void
cmd_replay_terminal_size(struct cmd_replay *r)
{
	struct winsize	ws;

	r->tcols = 80;
	r->trows = 24;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 &&
	    ws.ws_row > 0) {
		r->tcols = ws.ws_col;
		r->trows = ws.ws_row;
	}
}

/* Decide how to draw for the current sizes. */
static void
cmd_replay_choose_mode(struct cmd_replay *r)
{
	struct screen	*s = player_screen(r->player);

	r->clipped = screen_cols(s) > r->tcols || screen_rows(s) > r->trows;
	r->passthrough = screen_cols(s) == r->tcols &&
	    screen_rows(s) == r->trows && !r->status;
}

/* Rows of the terminal the recording may use. */
static int
cmd_replay_area_rows(const struct cmd_replay *r)
{
	/* The last row holds the notice or the status line when needed. */
	if (r->clipped || r->status)
		return r->trows - 1;
	return r->trows;
}

/* First screen row shown: keep the cursor visible when rows are clipped. */
static int
cmd_replay_top(const struct cmd_replay *r)
{
	struct screen	*s = player_screen(r->player);
	int		 area = cmd_replay_area_rows(r);
	int		 rows = screen_rows(s), crow, ccol, top;
	bool		 vis;

	if (rows <= area)
		return 0;
	screen_cursor(s, &crow, &ccol, &vis);
	top = crow - area + 1;
	if (top < 0)
		top = 0;
	if (top > rows - area)
		top = rows - area;
	return top;
}

/* Append the status line (or the notice) on the last terminal row. */
static void
cmd_replay_paint_status(const struct cmd_replay *r, struct buf *b)
{
	struct screen	*s = player_screen(r->player);
	const char	*state;
	char		*line;
	int		 len;

	if (player_finished(r->player))
		state = "end";
	else if (player_paused(r->player))
		state = "paused";
	else
		state = "playing";
	if (r->message != NULL)
		line = xasprintf(" %s", r->message);
	else if (r->status)
		line = xasprintf(" %s%s%s %.1f/%.1fs  speed %gx  |  space "
		    "pause  . step  +/- speed  <-/-> seek  q quit", state,
		    player_finished(r->player) && player_end(r->player) ?
		    ": " : "", player_finished(r->player) &&
		    player_end(r->player) ? player_end(r->player) : "",
		    player_position(r->player), player_duration(r->player),
		    player_speed(r->player));
	else
		line = xasprintf(" recording is %dx%d, terminal %dx%d: "
		    "clipped (%s)", screen_cols(s), screen_rows(s), r->tcols,
		    r->trows, state);
	len = (int)strlen(line);
	if (len > r->tcols)
		len = r->tcols;
	buf_printf(b, "\033[%d;1H\033[0;7m%.*s\033[K\033[0m", r->trows, len,
	    line);
	free(line);
}

/* Repaint the terminal from the player's screen. */
static void
cmd_replay_paint(struct cmd_replay *r)
{
	struct screen	*s = player_screen(r->player);
	struct buf	 b = { 0 };
	int		 y, top, area, crow, ccol;
	bool		 vis;

	area = cmd_replay_area_rows(r);
	top = cmd_replay_top(r);
	buf_adds(&b, "\033[?25l");
	if (r->full) {
		buf_adds(&b, screen_altscreen(s) ? "\033[?1049h" : "\033[?1049l");
		buf_adds(&b, "\033[0m\033[r\033[H\033[2J");
	}
	for (y = 0; y < area && top + y < screen_rows(s); y++)
		paint_row(&b, s, top + y, y, r->tcols);
	if (r->clipped || r->status || r->message != NULL)
		cmd_replay_paint_status(r, &b);
	screen_cursor(s, &crow, &ccol, &vis);
	if (crow - top >= 0 && crow - top < area && ccol < r->tcols)
		buf_printf(&b, "\033[%d;%dH", crow - top + 1, ccol + 1);
	if (vis)
		buf_adds(&b, "\033[?25h");
	util_write_all(STDOUT_FILENO, b.data, b.len);
	buf_free(&b);
	r->full = r->dirty = false;
}

/* The frame timer: repaint what changed. */
static void
cmd_replay_frame(struct loop *l, void *arg)
{
	struct cmd_replay	*r = arg;

	(void)l;
	r->frame = NULL;
	if (r->dirty || r->full)
		cmd_replay_paint(r);
}

/* Ask for a repaint at the next frame (full: everything, cleared). */
static void
cmd_replay_dirty(struct cmd_replay *r, bool full)
{
	r->dirty = true;
	if (full)
		r->full = true;
	if (r->frame == NULL)
		r->frame = loop_timer_add(r->loop, CMD_REPLAY_FRAME_MS,
		    cmd_replay_frame, r);
}

/* Switch drawing modes after a size or status change. */
static void
cmd_replay_remode(struct cmd_replay *r)
{
	cmd_replay_choose_mode(r);
	cmd_replay_dirty(r, true);
}

static void
cmd_replay_output(void *user, const char *data, size_t len)
{
	struct cmd_replay	*r = user;

	if (r->passthrough && r->frame == NULL)
		util_write_all(STDOUT_FILENO, data, len);
	else
		cmd_replay_dirty(r, false);
}

static void
cmd_replay_redraw(void *user)
{
	cmd_replay_remode(user);
}

static void
cmd_replay_status(void *user)
{
	struct cmd_replay	*r = user;

	if (r->status || r->clipped)
		cmd_replay_dirty(r, false);
}

static void
cmd_replay_finished(void *user)
{
	struct cmd_replay	*r = user;

	r->status = true;
	cmd_replay_remode(r);
}

static const struct player_events cmd_replay_events = {
	.output = cmd_replay_output,
	.redraw = cmd_replay_redraw,
	.status = cmd_replay_status,
	.finished = cmd_replay_finished,
};

/* The status line shown by a key goes away again while playing. */
static void
cmd_replay_status_expire(struct loop *l, void *arg)
{
	struct cmd_replay	*r = arg;

	(void)l;
	r->status_timer = NULL;
	if (player_paused(r->player) || player_finished(r->player))
		return;
	r->status = false;
	free(r->message);
	r->message = NULL;
	cmd_replay_remode(r);
}

/* Show the status line: for good while paused or at the end, else briefly. */
static void
cmd_replay_show_status(struct cmd_replay *r)
{
	if (!r->status) {
		r->status = true;
		cmd_replay_remode(r);
	} else
		cmd_replay_dirty(r, false);
	loop_timer_cancel(r->loop, r->status_timer);
	r->status_timer = loop_timer_add(r->loop, CMD_REPLAY_STATUS_MS,
	    cmd_replay_status_expire, r);
}

/* Seek by delta seconds, reporting a failure on the status line. */
static void
cmd_replay_jump(struct cmd_replay *r, double delta)
{
	char	*cause = NULL;

	if (player_seek(r->player, delta, &cause) != 0) {
		free(r->message);
		r->message = cause;
	}
	cmd_replay_show_status(r);
}

/* One key (or escape sequence) from the person. */
static void
cmd_replay_key(struct cmd_replay *r, const char *k, size_t len)
{
	if (len >= 3 && k[0] == '\033' && (k[1] == '[' || k[1] == 'O')) {
		if (k[2] == 'C')
			cmd_replay_jump(r, CMD_REPLAY_SEEK_STEP);
		else if (k[2] == 'D')
			cmd_replay_jump(r, -CMD_REPLAY_SEEK_STEP);
		return;
	}
	switch (k[0]) {
	case 'q':
	case 'Q':
	case '\003':
		r->quit = true;
		loop_stop(r->loop);
		break;
	case ' ':
		player_toggle(r->player);
		cmd_replay_show_status(r);
		break;
	case '.':
		if (!player_paused(r->player))
			player_pause(r->player);
		player_step(r->player);
		cmd_replay_show_status(r);
		break;
	case '+':
	case '=':
		player_faster(r->player);
		cmd_replay_show_status(r);
		break;
	case '-':
	case '_':
		player_slower(r->player);
		cmd_replay_show_status(r);
		break;
	case 'l':
		cmd_replay_jump(r, CMD_REPLAY_SEEK_STEP);
		break;
	case 'h':
		cmd_replay_jump(r, -CMD_REPLAY_SEEK_STEP);
		break;
	}
}

/* Keys: split what was read into keys and escape sequences. */
static void
cmd_replay_stdin(struct loop *l, int fd, short revents, void *arg)
{
	struct cmd_replay	*r = arg;
	char			 buf[256];
	ssize_t			 n, i, j;

	(void)revents;
	n = read(fd, buf, sizeof buf);
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
		loop_del_fd(l, fd);
		return;
	}
	for (i = 0; i < n && !r->quit; i = j) {
		j = i + 1;
		if (buf[i] == '\033' && j < n && (buf[j] == '[' ||
		    buf[j] == 'O')) {
			/* Up to the final byte of the sequence. */
			for (j++; j < n && (buf[j] < 0x40 || buf[j] > 0x7e);
			    j++)
				;
			if (j < n)
				j++;
		}
		cmd_replay_key(r, buf + i, (size_t)(j - i));
	}
}

static void
cmd_replay_sigwinch(struct loop *l, int sig, void *arg)
{
	struct cmd_replay	*r = arg;

	(void)l;
	(void)sig;
	cmd_replay_terminal_size(r);
	cmd_replay_remode(r);
}

static void
cmd_replay_sigterm(struct loop *l, int sig, void *arg)
{
	struct cmd_replay	*r = arg;

	r->quit = true;
	r->signal = sig;
	loop_stop(l);
}

/* Leave the terminal showing the recording's last state, cursor below. */
static void
cmd_replay_leave(struct cmd_replay *r)
{
	struct screen	*s = player_screen(r->player);
	struct buf	 b = { 0 }, row = { 0 };
	int		 y, top, last, crow, ccol;
	bool		 vis;

	r->status = false;
	free(r->message);
	r->message = NULL;
	cmd_replay_choose_mode(r);
	r->full = true;
	cmd_replay_paint(r);
	top = cmd_replay_top(r);
	screen_cursor(s, &crow, &ccol, &vis);
	last = crow - top;
	for (y = cmd_replay_area_rows(r) - 1; y > last; y--) {
		if (top + y >= screen_rows(s))
			continue;
		row.len = 0;
		screen_row_text(s, top + y, &row);
		if (row.len != 0) {
			last = y;
			break;
		}
	}
	if (last >= r->trows)
		last = r->trows - 1;
	/* Back to the normal screen: the person's terminal must not stay in
	 * the alternate one. */
	if (screen_altscreen(s))
		buf_adds(&b, "\033[?1049l");
	if (r->clipped)
		buf_printf(&b, "\033[%d;1H\033[2K", r->trows);
	/* On the cursor's own empty line already: no need for a new one. */
	buf_printf(&b, "\033[0m\033[?25h\033[%d;1H%s", last + 1,
	    last == crow - top && ccol == 0 ? "" : "\r\n");
	util_write_all(STDOUT_FILENO, b.data, b.len);
	buf_free(&b);
	buf_free(&row);
}

/* Play interactively on the terminal; the exit status. */
static int
cmd_replay_tty(const char *path, const struct player_opts *po, double at)
{
	struct cmd_replay	 r;
	char			*cause = NULL;
	int			 rc = CLI_EXIT_ERROR;

	memset(&r, 0, sizeof r);
	r.name = path;
	if ((r.loop = loop_new(&cause)) == NULL)
		goto out;
	r.player = player_open(path, r.loop, po, &cmd_replay_events, &r,
	    &cause);
	if (r.player == NULL) {
		rc = CMD_REPLAY_EXIT_READ;
		goto out;
	}
	if (loop_add_signal(r.loop, SIGTERM, cmd_replay_sigterm, &r,
	    &cause) != 0 ||
	    loop_add_signal(r.loop, SIGHUP, cmd_replay_sigterm, &r,
	    &cause) != 0 ||
	    loop_add_signal(r.loop, SIGINT, cmd_replay_sigterm, &r,
	    &cause) != 0 ||
	    loop_add_signal(r.loop, SIGWINCH, cmd_replay_sigwinch, &r,
	    &cause) != 0 || term_raw(cmd_replay_reset_modes) != 0) {
		if (cause == NULL)
			cause = xasprintf("cannot set the terminal to raw "
			    "mode: %s", strerror(errno));
		goto out;
	}
	cmd_replay_terminal_size(&r);
	cmd_replay_choose_mode(&r);
	r.full = true;
	cmd_replay_paint(&r);
	if (at > 0 && player_seek_to(r.player, at, &cause) != 0) {
		r.message = cause;
		cause = NULL;
	}
	loop_add_fd(r.loop, STDIN_FILENO, POLLIN, LOOP_PRIO_HIGH,
	    cmd_replay_stdin, &r);
	player_play(r.player);
	while (!r.quit)
		if (loop_run(r.loop) != 0)
			fatal("event loop: %s", strerror(errno));
	cmd_replay_leave(&r);
	term_restore();
	rc = 0;
	if (player_warning(r.player) != NULL)
		cli_error("replay", "warning: %s", player_warning(r.player));
	if (player_error(r.player) != NULL) {
		cli_error("replay", "%s", player_error(r.player));
		rc = CMD_REPLAY_EXIT_READ;
	}
	if (r.signal != 0)
		rc = 128 + r.signal;
	loop_timer_cancel(r.loop, r.frame);
	loop_timer_cancel(r.loop, r.status_timer);
out:
	if (cause != NULL)
		cli_error("replay", "%s", cause);
	free(cause);
	free(r.message);
	player_free(r.player);
	loop_free(r.loop);
	return rc;
}

/* --text: the final (or --at) screen as plain text; the exit status. */
static int
cmd_replay_text(const char *path, double at)
{
	struct buf	 b = { 0 };
	char		*cause = NULL, *warning = NULL;

	if (cli_cast_text(path, at, &b, &warning, &cause) != 0) {
		cli_error("replay", "%s", cause);
		free(cause);
		return CMD_REPLAY_EXIT_READ;
	}
	if (warning != NULL)
		cli_error("replay", "warning: %s", warning);
	fwrite(b.data, 1, b.len, stdout);
	fflush(stdout);
	buf_free(&b);
	free(warning);
	return 0;
}

/* --timings: each event's recording and playback time; the exit status. */
static int
cmd_replay_timings(const char *path, const struct player_opts *po)
{
	struct cast		*c;
	struct cast_event	 e;
	struct replay_clock	 rc;
	char			*cause = NULL;
	double			 out;
	int			 r;

	if ((c = cast_open(path, &cause)) == NULL) {
		cli_error("replay", "%s", cause);
		free(cause);
		return CMD_REPLAY_EXIT_READ;
	}
	replay_clock_init(&rc, po->speed, replay_idle_limit(po->idle_limit,
	    cast_header(c)->idle_time_limit));
	while ((r = cast_next(c, &e, &cause)) == 1) {
		out = replay_clock_next(&rc, e.time);
		printf("%.6f %.6f %s\n", e.time, out, e.code);
	}
	if (cast_warning(c) != NULL)
		cli_error("replay", "warning: %s", cast_warning(c));
	cast_free(c);
	if (r < 0) {
		cli_error("replay", "%s", cause);
		free(cause);
		return CMD_REPLAY_EXIT_READ;
	}
	return 0;
}

/* The --help text. */
static void
cmd_replay_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor replay [OPTIONS] ID|FILE\n\n"
	    "Play a recording: session ID of the state directory, or any\n"
	    "asciicast file (v1, v2, v3; an argument of digits only is an ID).\n"
	    "On a terminal it plays with the recorded timing; keys:\n"
	    "  space  pause/resume      .  step one event while paused\n"
	    "  + -    speed x2 / /2     <- ->  seek 5 s back/forward\n"
	    "  q      quit\n"
	    "When stdout is not a terminal it behaves as with --text.\n\n"
	    "Options:\n"
	    "  --speed X        play X times as fast (default 1)\n"
	    "  --idle-limit S   shorten pauses longer than S seconds (0: off;\n"
	    "                   default: the recording's idle_time_limit)\n"
	    "  --at T           start at T seconds (--text: the screen at T)\n"
	    "  --text           no timing: print the final screen, scrollback\n"
	    "                   included, as plain text\n"
	    "  --timings        print each event's recording and playback\n"
	    "                   times (after --speed and --idle-limit)\n"
	    "  -h, --help       show this help\n\n"
	    "Exit status: 0; 1 when the recording cannot be read; 125 bad\n"
	    "arguments.  A truncated last line is only a warning.\n");
}

/* What the command line asks. */
struct cmd_replay_args {
	struct player_opts	 po;
	double			 at;		/* --at; < 0: none */
	bool			 text;
	bool			 timings;
};

enum {
	CMD_REPLAY_SPEED = 256,
	CMD_REPLAY_IDLE_LIMIT,
	CMD_REPLAY_AT,
	CMD_REPLAY_TEXT,
	CMD_REPLAY_TIMINGS,
};

static const struct args_option cmd_replay_options[] = {
	{ "speed", 0, true, CMD_REPLAY_SPEED },
	{ "idle-limit", 0, true, CMD_REPLAY_IDLE_LIMIT },
	{ "at", 0, true, CMD_REPLAY_AT },
	{ "text", 0, false, CMD_REPLAY_TEXT },
	{ "timings", 0, false, CMD_REPLAY_TIMINGS },
	ARGS_HELP_OPTION,
	ARGS_END
};
static const struct args_option *const cmd_replay_tables[] = {
	cmd_replay_options, NULL
};

/* Parse a number of seconds or a speed in [lo, hi] for option name. */
static int
cmd_replay_number(const char *name, const char *arg, double lo, double hi,
    double *out, char **cause)
{
	char	*end;
	double	 v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno != 0 || end == arg || *end != '\0' || !(v >= lo) ||
	    !(v <= hi)) {
		*cause = xasprintf("%s: '%s' is not a number from %g to %g",
		    name, arg, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* Take one option into a (args_parse()). */
static int
cmd_replay_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_replay_args	*a = state;

	switch (key) {
	case CMD_REPLAY_SPEED:
		return cmd_replay_number("--speed", value, PLAYER_SPEED_MIN,
		    PLAYER_SPEED_MAX, &a->po.speed, cause);
	case CMD_REPLAY_IDLE_LIMIT:
		return cmd_replay_number("--idle-limit", value, 0, 1e9,
		    &a->po.idle_limit, cause);
	case CMD_REPLAY_AT:
		return cmd_replay_number("--at", value, 0, 1e12, &a->at,
		    cause);
	case CMD_REPLAY_TEXT:
		a->text = true;
		break;
	case CMD_REPLAY_TIMINGS:
		a->timings = true;
		break;
	}
	return 0;
}

/* `ptyvisor replay`: one recording, played, as text or its timings. */
static int
cmd_replay_exec(int argc, char **argv)
{
	struct cmd_replay_args	 a = {
		.po = { .speed = 1, .idle_limit = -1 }, .at = -1
	};
	struct args_end		 end;
	char			*path = NULL, *cause = NULL;
	int			 rc;

	/* A wrong settings file stops every command (it may move the state). */
	if (cli_config() == NULL)
		return CLI_EXIT_ERROR;
	if ((rc = args_parse(&cmd_replay_entry, argc, argv, &a,
	    &end)) != ARGS_GO_ON)
		goto out;
	if (end.first != argc - 1) {
		cli_error("replay", end.first >= argc ? "no recording given "
		    "(usage: ptyvisor replay [OPTIONS] ID|FILE)" :
		    "one recording at a time (usage: ptyvisor replay "
		    "[OPTIONS] ID|FILE)");
		rc = CLI_EXIT_ERROR;
		goto out;
	}
	if ((path = cli_recording_path(argv[end.first], &cause)) == NULL) {
		cli_error("replay", "%s", cause);
		rc = CMD_REPLAY_EXIT_READ;
	} else if (a.timings)
		rc = cmd_replay_timings(path, &a.po);
	else if (a.text || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		rc = cmd_replay_text(path, a.at);
	else
		rc = cmd_replay_tty(path, &a.po, a.at);
out:
	free(cause);
	free(path);
	return rc;
}

const struct cmd_entry cmd_replay_entry = {
	.name = "replay",
	.summary = "play a recording (or print it as text)",
	.exec = cmd_replay_exec,
	.options = cmd_replay_tables,
	.flags = ARGS_PERMUTE | ARGS_SEE_HELP,
	.usage = cmd_replay_usage,
	.option = cmd_replay_option,
};
