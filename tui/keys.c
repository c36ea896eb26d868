/*
 * keys.c - key input (see keys.h).
 *
 * Control characters, Enter and Tab go to the program as the bytes a
 * terminal sends; everything else goes through libvterm's keyboard
 * encoder, which also wraps pastes in the bracketed-paste markers when
 * the program asked for them.  Alt is an Escape immediately followed by
 * a key (within the escape delay).
 */
#include "tui/keys.h"

#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "term/screen.h"
#include "session/session.h"
#include "base/utf8.h"

/* Our codes for the bracketed paste markers (outside ncurses' range). */
#define KEYS_CODE_PASTE_START	0x6ff0
#define KEYS_CODE_PASTE_END	0x6ff1

/* How long an Escape waits for the rest of a sequence, in ms. */
#define KEYS_ESCDELAY		25

void
keys_init(void)
{
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(KEYS_ESCDELAY);
	define_key("\033[200~", KEYS_CODE_PASTE_START);
	define_key("\033[201~", KEYS_CODE_PASTE_END);
	mouseinterval(0);
}

int
keys_from_name(const char *name, struct keys_event *ev)
{
	static const struct { const char *name; int key; } names[] = {
		{ "kUP", SCREEN_KEY_UP }, { "kDN", SCREEN_KEY_DOWN },
		{ "kLFT", SCREEN_KEY_LEFT }, { "kRIT", SCREEN_KEY_RIGHT },
		{ "kHOM", SCREEN_KEY_HOME }, { "kEND", SCREEN_KEY_END },
		{ "kNXT", SCREEN_KEY_PAGEDOWN }, { "kPRV", SCREEN_KEY_PAGEUP },
		{ "kDC", SCREEN_KEY_DEL }, { "kIC", SCREEN_KEY_INS },
	};
	size_t	i, n;
	int	m;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		n = strlen(names[i].name);
		if (strncmp(name, names[i].name, n) != 0)
			continue;
		if (name[n] < '2' || name[n] > '8' || name[n + 1] != '\0')
			return -1;
		m = name[n] - '1';	/* xterm: 1 + shift|alt<<1|ctrl<<2 */
		ev->type = KEYS_KEY;
		ev->key = names[i].key;
		ev->mods = m;
		ev->ch = 0;
		return 0;
	}
	return -1;
}

int
keys_decode(int is_key, uint32_t code, struct keys_event *ev)
{
	static const struct { int code; int key; int mods; } map[] = {
		{ KEY_UP, SCREEN_KEY_UP, 0 },
		{ KEY_DOWN, SCREEN_KEY_DOWN, 0 },
		{ KEY_LEFT, SCREEN_KEY_LEFT, 0 },
		{ KEY_RIGHT, SCREEN_KEY_RIGHT, 0 },
		{ KEY_HOME, SCREEN_KEY_HOME, 0 },
		{ KEY_END, SCREEN_KEY_END, 0 },
		{ KEY_PPAGE, SCREEN_KEY_PAGEUP, 0 },
		{ KEY_NPAGE, SCREEN_KEY_PAGEDOWN, 0 },
		{ KEY_IC, SCREEN_KEY_INS, 0 },
		{ KEY_DC, SCREEN_KEY_DEL, 0 },
		{ KEY_BACKSPACE, SCREEN_KEY_BACKSPACE, 0 },
		{ KEY_ENTER, SCREEN_KEY_ENTER, 0 },
		{ KEY_BTAB, SCREEN_KEY_TAB, SCREEN_MOD_SHIFT },
		{ KEY_SR, SCREEN_KEY_UP, SCREEN_MOD_SHIFT },
		{ KEY_SF, SCREEN_KEY_DOWN, SCREEN_MOD_SHIFT },
		{ KEY_SLEFT, SCREEN_KEY_LEFT, SCREEN_MOD_SHIFT },
		{ KEY_SRIGHT, SCREEN_KEY_RIGHT, SCREEN_MOD_SHIFT },
		{ KEY_SHOME, SCREEN_KEY_HOME, SCREEN_MOD_SHIFT },
		{ KEY_SEND, SCREEN_KEY_END, SCREEN_MOD_SHIFT },
		{ KEY_SDC, SCREEN_KEY_DEL, SCREEN_MOD_SHIFT },
		{ KEY_SIC, SCREEN_KEY_INS, SCREEN_MOD_SHIFT },
		{ KEY_SNEXT, SCREEN_KEY_PAGEDOWN, SCREEN_MOD_SHIFT },
		{ KEY_SPREVIOUS, SCREEN_KEY_PAGEUP, SCREEN_MOD_SHIFT },
	};
	/* xterm's F13.. are F1.. with shift, then ctrl, ctrl+shift, alt. */
	static const int fmods[] = { 0, SCREEN_MOD_SHIFT, SCREEN_MOD_CTRL,
	    SCREEN_MOD_CTRL | SCREEN_MOD_SHIFT, SCREEN_MOD_ALT };
	const char	*name;
	size_t		 i;
	int		 f;

	memset(ev, 0, sizeof *ev);
	if (!is_key) {
		ev->type = KEYS_CHAR;
		ev->ch = code;
		return 0;
	}
	for (i = 0; i < sizeof map / sizeof map[0]; i++) {
		if ((uint32_t)map[i].code == code) {
			ev->type = KEYS_KEY;
			ev->key = map[i].key;
			ev->mods = map[i].mods;
			return 0;
		}
	}
	if (code >= (uint32_t)KEY_F(1) && code < (uint32_t)KEY_F(61)) {
		f = (int)code - KEY_F(1);
		ev->type = KEYS_KEY;
		ev->key = SCREEN_KEY_F0 + 1 + f % 12;
		ev->mods = fmods[f / 12];
		return 0;
	}
	switch (code) {
	case KEYS_CODE_PASTE_START:
		ev->type = KEYS_PASTE_START;
		return 0;
	case KEYS_CODE_PASTE_END:
		ev->type = KEYS_PASTE_END;
		return 0;
	case KEY_RESIZE:
		ev->type = KEYS_RESIZE;
		return 0;
	}
	if (code > KEY_MAX && (name = keyname((int)code)) != NULL)
		return keys_from_name(name, ev);
	return -1;
}

/* A mouse event: the wheel, and a press of the first button. */
static int
keys_mouse(struct keys_event *ev)
{
	MEVENT	me;

	memset(ev, 0, sizeof *ev);
	if (getmouse(&me) != OK)
		return -1;
	ev->y = me.y;
	ev->x = me.x;
	if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		ev->type = KEYS_CLICK;
	else if (me.bstate & BUTTON4_PRESSED)
		ev->type = KEYS_WHEEL_UP;
#ifdef BUTTON5_PRESSED
	else if (me.bstate & BUTTON5_PRESSED)
		ev->type = KEYS_WHEEL_DOWN;
#endif
	else
		return -1;
	return 0;
}

int
keys_read(struct keys_event *ev)
{
	struct keys_event	next;
	wint_t			wc;
	int			rc;

	for (;;) {
		rc = get_wch(&wc);
		if (rc == ERR)
			return 0;
		if (rc == KEY_CODE_YES && wc == KEY_MOUSE) {
			if (keys_mouse(ev) == 0)
				return 1;
			continue;
		}
		if (keys_decode(rc == KEY_CODE_YES, (uint32_t)wc, ev) != 0)
			continue;
		if (ev->type != KEYS_CHAR || ev->ch != 0x1b)
			return 1;
		/* Escape: Alt with the key right behind it, or itself. */
		rc = get_wch(&wc);
		if (rc == ERR || keys_decode(rc == KEY_CODE_YES, (uint32_t)wc,
		    &next) != 0 || (next.type != KEYS_CHAR &&
		    next.type != KEYS_KEY)) {
			ev->type = KEYS_KEY;
			ev->key = SCREEN_KEY_ESCAPE;
			return 1;
		}
		*ev = next;
		ev->mods |= SCREEN_MOD_ALT;
		return 1;
	}
}

void
keys_send(struct session *s, const struct keys_event *ev)
{
	struct screen	*scr = session_screen(s);
	char		 b[2];

	switch (ev->type) {
	case KEYS_CHAR:
		if (ev->ch < 0x20 || ev->ch == 0x7f) {
			/* Control characters: the byte itself, ESC first for Alt. */
			b[0] = '\033';
			b[1] = (char)ev->ch;
			if (ev->mods & SCREEN_MOD_ALT)
				session_write(s, b, 2);
			else
				session_write(s, b + 1, 1);
		} else
			screen_unichar(scr, ev->ch, ev->mods);
		break;
	case KEYS_KEY:
		screen_key(scr, (enum screen_key)ev->key, ev->mods);
		break;
	case KEYS_PASTE_START:
		screen_paste(scr, true);
		break;
	case KEYS_PASTE_END:
		screen_paste(scr, false);
		break;
	default:
		break;
	}
}

void
keys_describe(const struct keys_event *ev, char *buf, size_t len)
{
	static const char *const names[] = {
		[SCREEN_KEY_ENTER] = "Enter", [SCREEN_KEY_TAB] = "Tab",
		[SCREEN_KEY_BACKSPACE] = "BSpace",
		[SCREEN_KEY_ESCAPE] = "Escape", [SCREEN_KEY_UP] = "Up",
		[SCREEN_KEY_DOWN] = "Down", [SCREEN_KEY_LEFT] = "Left",
		[SCREEN_KEY_RIGHT] = "Right", [SCREEN_KEY_INS] = "IC",
		[SCREEN_KEY_DEL] = "DC", [SCREEN_KEY_HOME] = "Home",
		[SCREEN_KEY_END] = "End", [SCREEN_KEY_PAGEUP] = "PPage",
		[SCREEN_KEY_PAGEDOWN] = "NPage",
	};
	char		 u[8];
	const char	*alt = ev->mods & SCREEN_MOD_ALT ? "M-" : "";

	if (ev->type == KEYS_CHAR && (ev->ch < 0x20 || ev->ch == 0x7f))
		snprintf(buf, len, "%sC-%c", alt, ev->ch == 0x7f ? '?' :
		    (char)(ev->ch + 0x60));
	else if (ev->type == KEYS_CHAR) {
		u[utf8_put(ev->ch, u)] = '\0';
		snprintf(buf, len, "%s%s", alt, u);
	} else if (ev->type == KEYS_KEY && ev->key > SCREEN_KEY_F0)
		snprintf(buf, len, "%sF%d", alt, ev->key - SCREEN_KEY_F0);
	else if (ev->type == KEYS_KEY && ev->key > 0 &&
	    (size_t)ev->key < sizeof names / sizeof names[0] &&
	    names[ev->key] != NULL)
		snprintf(buf, len, "%s%s", alt, names[ev->key]);
	else
		snprintf(buf, len, "that key");
}
