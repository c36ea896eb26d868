/*
 * keys.h - the person's keys: read from curses, decoded into characters
 * and named keys with modifiers, and encoded for a session through its
 * screen's keyboard (libvterm), so the program sees what xterm would send.
 */
#ifndef PTYVISOR_KEYS_H
#define PTYVISOR_KEYS_H

#include <stddef.h>
#include <stdint.h>

struct session;

enum keys_type {
	KEYS_NONE,
	KEYS_CHAR,		/* ch, with mods (Alt) */
	KEYS_KEY,		/* key (enum screen_key), with mods */
	KEYS_PASTE_START,	/* bracketed paste begins */
	KEYS_PASTE_END,
	KEYS_WHEEL_UP,		/* y, x: where */
	KEYS_WHEEL_DOWN,
	KEYS_CLICK,		/* the first button pressed at y, x */
	KEYS_RESIZE,
};

/* One decoded key (a plain value). */
struct keys_event {
	enum keys_type	type;
	uint32_t	ch;
	int		key;
	int		mods;	/* SCREEN_MOD_* */
	int		y;	/* mouse events: the screen cell */
	int		x;
};

/* The control character of letter c (KEYS_CTRL('g') is 7). */
#define KEYS_CTRL(c)	((c) & 0x1f)

/* Set up curses input: keypad, paste markers, short escape delay. */
void	keys_init(void);

/* Read one event without waiting; 0 when there is none. */
int	keys_read(struct keys_event *ev);

/*
 * Decode an extended key name of terminfo ("kUP5", "kHOM3", ...) into a
 * key with modifiers; -1 when the name is not one we know.
 */
int	keys_from_name(const char *name, struct keys_event *ev);

/*
 * Decode what get_wch() returned: a character (is_key 0) or a key code;
 * -1 for codes we ignore.
 */
int	keys_decode(int is_key, uint32_t code, struct keys_event *ev);

/* Send ev to the program of s (through its screen's keyboard). */
void	keys_send(struct session *s, const struct keys_event *ev);

/* A short name for ev, for messages: "x", "C-x", "M-x", "F5", "Up". */
void	keys_describe(const struct keys_event *ev, char *buf, size_t len);

#endif
