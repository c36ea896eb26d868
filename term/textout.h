/*
 * textout.h - a command's output as the text a terminal shows: bytes are
 * fed to a terminal screen of the session's size, each line is handed on as
 * soon as it scrolls off the top (so long outputs stream; a line the
 * terminal wrapped is joined again, as the program wrote it), and what is left
 * on the screen when the command ends comes last.  `exec --text` prints it;
 * `mcp` keeps it for the agent.
 */
#ifndef PTYVISOR_TEXTOUT_H
#define PTYVISOR_TEXTOUT_H

#include <stddef.h>

struct buf;
struct textout;

/*
 * Finished text, in order, lines ending in '\n'; a line the terminal
 * wrapped is one line, and may come in pieces (its rows scroll off one by
 * one).
 */
typedef void	(*textout_fn)(void *user, const char *text, size_t len);

/* A rows x cols screen handing its finished lines to fn. */
struct textout	*textout_new(int rows, int cols, textout_fn fn, void *user);
void		 textout_free(struct textout *t);

/* Output bytes arrived: lines that scroll off are handed on. */
void	textout_feed(struct textout *t, const char *p, size_t len);

/* The command ended: what is left on the screen is handed on. */
void	textout_finish(struct textout *t);

/* Append the screen as it shows now (not handed on yet) to out. */
void	textout_screen(const struct textout *t, struct buf *out);

#endif
