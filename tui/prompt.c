/*
 * prompt.c - one-line text entry (see prompt.h).
 *
 * Invariant: buf holds valid UTF-8 of len bytes, NUL-terminated; erasing
 * removes a whole character.
 */
#include "tui/prompt.h"

#include <string.h>

#include <curses.h>

#include "term/screen.h"
#include "base/utf8.h"

enum prompt_result
prompt_key(struct prompt *p, const struct keys_event *ev)
{
	char	u[4];
	size_t	n;

	if (ev->type == KEYS_KEY && ev->key == SCREEN_KEY_ENTER)
		return PROMPT_DONE;
	if (ev->type == KEYS_KEY && ev->key == SCREEN_KEY_ESCAPE)
		return PROMPT_CANCEL;
	if ((ev->type == KEYS_KEY && ev->key == SCREEN_KEY_BACKSPACE) ||
	    (ev->type == KEYS_CHAR && (ev->ch == 0x7f || ev->ch == 0x08))) {
		if (p->len == 0)
			return PROMPT_CANCEL;
		do
			p->len--;
		while (p->len > 0 && ((unsigned char)p->buf[p->len] &
		    0xc0) == 0x80);
		p->buf[p->len] = '\0';
		return PROMPT_EDITING;
	}
	if (ev->type != KEYS_CHAR)
		return PROMPT_EDITING;
	if (ev->ch == '\r' || ev->ch == '\n')
		return PROMPT_DONE;
	if (ev->ch == KEYS_CTRL('c') || ev->ch == KEYS_CTRL('g'))
		return PROMPT_CANCEL;
	if (ev->ch == KEYS_CTRL('u')) {
		p->len = 0;
		p->buf[0] = '\0';
		return PROMPT_EDITING;
	}
	if (ev->ch < 0x20)
		return PROMPT_EDITING;
	n = utf8_put(ev->ch, u);
	if (p->len + n + 1 > sizeof p->buf)
		return PROMPT_EDITING;
	memcpy(p->buf + p->len, u, n);
	p->len += n;
	p->buf[p->len] = '\0';
	return PROMPT_EDITING;
}

void
prompt_draw(const struct prompt *p, const char *label, int y, int x, int w)
{
	if (w <= 0)
		return;
	attrset(A_NORMAL);
	mvhline(y, x, ' ', w);
	mvaddnstr(y, x, label, w);
	addnstr(p->buf, w - (int)strlen(label) > 0 ?
	    w - (int)strlen(label) - 1 : 0);
}
