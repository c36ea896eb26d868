/*
 * prompt.h - a one-line text prompt: its keys, and its drawing on a row
 * of the terminal (search patterns in the history and scroll mode; the
 * approval prompt's fields take its keys and are drawn by the prompt).
 */
#ifndef PTYVISOR_PROMPT_H
#define PTYVISOR_PROMPT_H

#include <stddef.h>

#include "tui/keys.h"

#define PROMPT_MAX	4096

/* A prompt's text (a plain value; zero it to start empty). */
struct prompt {
	char	buf[PROMPT_MAX];
	size_t	len;
};

enum prompt_result {
	PROMPT_EDITING,
	PROMPT_DONE,		/* Enter */
	PROMPT_CANCEL,		/* Escape, C-c, C-g, or erasing past the start */
};

/* Apply one key to p. */
enum prompt_result	prompt_key(struct prompt *p,
			    const struct keys_event *ev);

/* Draw label then the text on row y from column x over w columns. */
void	prompt_draw(const struct prompt *p, const char *label, int y, int x,
	    int w);

#endif
