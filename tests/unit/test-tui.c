/*
 * test-tui.c - the pure parts of the front end: tiling, key decoding,
 * the colour mapper's palette, the help text, a replay pane's title.
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "session/screen.h"
#include "tests/tap.h"
#include "tui/help.h"
#include "tui/keys.h"
#include "tui/layout.h"
#include "tui/render.h"
#include "tui/replay.h"

/* Panes of a tiling never overlap and stay inside the area. */
static void
test_layout(void)
{
	struct layout_rect	area = { 0, 0, 160, 47 }, r[LAYOUT_MAX_PANES];
	int			n, i, j, cells;
	bool			inside, apart;

	for (n = 1; n <= LAYOUT_MAX_PANES; n++) {
		is_int(layout_tile(area, n, r), 0, "%d panes tile 160x47", n);
		inside = apart = true;
		cells = 0;
		for (i = 0; i < n; i++) {
			if (r[i].x < 0 || r[i].y < 0 ||
			    r[i].x + r[i].w > area.w ||
			    r[i].y + r[i].h > area.h)
				inside = false;
			cells += r[i].w * r[i].h;
			for (j = 0; j < i; j++)
				if (r[i].x < r[j].x + r[j].w &&
				    r[j].x < r[i].x + r[i].w &&
				    r[i].y < r[j].y + r[j].h &&
				    r[j].y < r[i].y + r[i].h)
					apart = false;
		}
		ok(inside && apart, "%d panes inside and apart", n);
		ok(cells >= area.w * area.h - 2 * area.h && cells <=
		    area.w * area.h, "%d panes cover the area but borders", n);
	}
	layout_tile(area, 3, r);
	ok(r[0].y == r[1].y && r[2].y > r[0].y && r[2].w == 160,
	    "3 panes: two on top, one full-width below");
	layout_tile(area, 2, r);
	is_int(r[0].w + 1 + r[1].w, 160, "2 panes side by side with a border");
	area.w = 25;
	area.h = 5;
	is_int(layout_tile(area, 6, r), -1, "6 panes do not fit in 25x5");
	ok(layout_too_small(19, 30), "19 columns is too small");
	ok(layout_too_small(80, 4), "4 rows is too small");
	ok(!layout_too_small(20, 5), "20x5 is enough");
	is_int(layout_window(4, 3), 0, "4 panes: all visible");
	is_int(layout_window(10, 9), 4, "10 panes, focus 10: last six");
	is_int(layout_window(10, 0), 0, "10 panes, focus 1: first six");
	r[0] = layout_content((struct layout_rect){ 3, 4, 10, 6 });
	ok(r[0].y == 5 && r[0].h == 5 && r[0].x == 3 && r[0].w == 10,
	    "content is below the title row");
}

/* Key names and curses codes decode to keys with xterm modifiers. */
static void
test_keys(void)
{
	struct keys_event	ev;
	char			buf[32];

	ok(keys_from_name("kUP5", &ev) == 0 && ev.key == SCREEN_KEY_UP &&
	    ev.mods == SCREEN_MOD_CTRL, "kUP5 is C-Up");
	ok(keys_from_name("kRIT3", &ev) == 0 &&
	    ev.key == SCREEN_KEY_RIGHT && ev.mods == SCREEN_MOD_ALT,
	    "kRIT3 is M-Right");
	ok(keys_from_name("kHOM6", &ev) == 0 && ev.key == SCREEN_KEY_HOME &&
	    ev.mods == (SCREEN_MOD_CTRL | SCREEN_MOD_SHIFT),
	    "kHOM6 is C-S-Home");
	ok(keys_from_name("kUP", &ev) == -1, "kUP without a digit is not ours");
	ok(keys_from_name("kFOO5", &ev) == -1, "unknown names are refused");
	ok(keys_decode(1, KEY_F(5), &ev) == 0 &&
	    ev.key == SCREEN_KEY_F0 + 5 && ev.mods == 0, "F5");
	ok(keys_decode(1, KEY_F(17), &ev) == 0 &&
	    ev.key == SCREEN_KEY_F0 + 5 && ev.mods == SCREEN_MOD_SHIFT,
	    "F17 is S-F5");
	ok(keys_decode(1, KEY_PPAGE, &ev) == 0 &&
	    ev.key == SCREEN_KEY_PAGEUP, "PgUp");
	ok(keys_decode(1, KEY_BTAB, &ev) == 0 && ev.key == SCREEN_KEY_TAB &&
	    ev.mods == SCREEN_MOD_SHIFT, "BackTab is S-Tab");
	ok(keys_decode(0, 0x65e5, &ev) == 0 && ev.type == KEYS_CHAR &&
	    ev.ch == 0x65e5, "a wide character is a character");
	ok(keys_decode(1, 0x6ff0, &ev) == 0 &&
	    ev.type == KEYS_PASTE_START, "paste start marker");
	keys_decode(0, KEYS_CTRL('g'), &ev);
	keys_describe(&ev, buf, sizeof buf);
	is_str(buf, "C-g", "C-g is described as such");
	keys_decode(1, KEY_F(2), &ev);
	keys_describe(&ev, buf, sizeof buf);
	is_str(buf, "F2", "F2 is described as such");
}

/* The palette and nearest-colour searches. */
static void
test_palette(void)
{
	int	i;
	bool	exact = true;

	is_int(render_palette(16), 0x000000, "16 is black");
	is_int(render_palette(231), 0xffffff, "231 is white");
	is_int(render_palette(232), 0x080808, "232 is the darkest grey");
	for (i = 16; i < 256; i++)
		if (render_rgb_to_256(render_palette(i)) != i &&
		    render_palette(render_rgb_to_256(render_palette(i))) !=
		    render_palette(i))
			exact = false;
	ok(exact, "every palette colour maps back to itself");
	is_int(render_rgb_to_ansi(0x00ff00, 16), 10, "green is bright green");
	is_int(render_rgb_to_ansi(0x00ff00, 8), 2, "green on 8 colours");
}

/* The help names every prefix command. */
static void
test_help(void)
{
	const char	*keys[] = { "c ", "x ", "z ", "n  p", "h ", "r ",
			    "[ ", "? ", "q " };
	size_t		 k;
	int		 i;
	bool		 found;

	for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		found = false;
		for (i = 0; i < help_lines(); i++)
			if (strncmp(help_line(i), "  ", 2) == 0 &&
			    strncmp(help_line(i) + 2, keys[k],
			    strlen(keys[k])) == 0)
				found = true;
		ok(found, "help lists '%s'", keys[k]);
	}
}

/* The state part of a replay pane's title. */
static void
test_replay_state(void)
{
	char	buf[128], *cause = NULL;

	tui_replay_state(buf, sizeof buf, 3.7, 10.2, 2, true, false, NULL);
	is_str(buf, "0:03/0:10 2x paused", "paused at 3.7 s of 10.2 s, 2x");
	tui_replay_state(buf, sizeof buf, 0, 75, 1, false, false, "exit 3");
	is_str(buf, "0:00/1:15 1x", "playing: no marker before the end");
	tui_replay_state(buf, sizeof buf, 75, 75, 0.5, true, true, "exit 3");
	is_str(buf, "1:15/1:15 0.5x exit 3", "the end shows the exit marker");
	tui_replay_state(buf, sizeof buf, 9, 9, 1, false, true, "signal 9");
	is_str(buf, "0:09/0:09 1x signal 9", "or the signal");
	tui_replay_state(buf, sizeof buf, 9, 9, 1, false, true, NULL);
	is_str(buf, "0:09/0:09 1x ended", "no marker: ended");
	tui_replay_state(buf, sizeof buf, 3725, 7322, 1, false, false, NULL);
	is_str(buf, "1:02:05/2:02:02 1x", "hours");

	ok(tui_replay_open("/nonexistent/x.cast", 4, "true", NULL, NULL, NULL,
	    &cause) == NULL && cause != NULL, "a missing recording: NULL");
	diag("cause: %s", cause != NULL ? cause : "(none)");
	free(cause);
	cause = NULL;
	ok(tui_replay_open(NULL, 4, "true", NULL, NULL, NULL, &cause) ==
	    NULL && cause != NULL && strstr(cause, "no recording") != NULL,
	    "no recording: NULL with a cause");
	free(cause);
	tui_replay_free(NULL);
}

int
main(void)
{
	test_layout();
	test_keys();
	test_palette();
	test_help();
	test_replay_state();
	return tap_done();
}
