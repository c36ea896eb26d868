/*
 * quote.h - text from agents and commands, made safe to show a person:
 * shell words quoted so they parse back to the same words, free text with
 * everything a terminal would act on or hide written as an escape.
 *
 * Nothing shown through these can move the cursor, change colours, reorder
 * text (bidirectional controls) or hide characters (zero-width ones): they
 * appear as \x1b, \u202e and the like.  One quoter for the whole program:
 * the approval prompt, pane titles, history, show, pending and the log.
 */
#ifndef PTYVISOR_QUOTE_H
#define PTYVISOR_QUOTE_H

#include <stdbool.h>

struct buf;

/*
 * Append word as a shell would need it typed: bare when it holds only safe
 * characters, else in single quotes, or in $'...' when it holds control
 * characters, invalid UTF-8, C1 controls or invisible characters
 * (\xHH, \e, \n..., \uHHHH), as bash reads them back.
 */
void	quote_word(struct buf *b, const char *word);

/* The words of argv quoted and joined by spaces.  Caller frees. */
char	*quote_argv(char *const *argv);

/*
 * Free text (a reason, a directory, a value) to show on one line: control
 * characters, invalid bytes and C1 controls as \xHH, invisible characters
 * as \uHHHH; everything else as it is.  Caller frees.
 */
char	*quote_text(const char *s);

/* Whether s holds an invisible character (base/utf8.h). */
bool	quote_has_invisible(const char *s);

/* Whether any word of argv does (argv may be NULL). */
bool	quote_argv_has_invisible(char *const *argv);

#endif
