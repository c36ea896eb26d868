/*
 * cast-int.h - what the files of the asciicast reader share: the reader
 * itself and one entry point per piece.  Not for use outside record/.
 *
 * Three layers, calling downwards only: cast.c (the API: opening, events)
 * -> cast-header.c (the header, every version) -> cast-input.c (bytes from
 * an fd or memory, lines, JSON, and the reader's failed state).
 */
#ifndef PTYVISOR_CAST_INT_H
#define PTYVISOR_CAST_INT_H

#include "record/cast.h"

#include <stddef.h>

#include <jansson.h>

#include "base/util.h"

enum cast_state {
	CAST_READING,
	CAST_DONE,
	CAST_FAILED
};

struct cast {
	char			*name;
	struct cast_header	 hdr;
	enum cast_state		 state;
	char			*error;		/* sticky cause once failed */
	char			*warning;

	/* Input: an fd (owned when own_fd) or memory. */
	int			 fd;
	int			 own_fd;
	const char		*mem;
	size_t			 mem_len;
	size_t			 off;		/* next unread byte */
	size_t			 scan;		/* bytes past off with no LF */
	struct buf		 in;		/* fd input */
	int			 eof;
	unsigned long		 line;

	/* Version 1: the whole document and the next frame. */
	json_t			*v1_doc;
	size_t			 v1_next;

	double			 last;		/* time of the previous event */
	struct buf		 code;
	struct buf		 data;
};

/* cast-input.c: enter the failed state with a message naming the file. */
int	cast_fail(struct cast *c, char **cause, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* cast-input.c: read one more chunk from the fd: 1, 0 at its end, -1. */
int	cast_fill(struct cast *c, char **cause);
/* cast-input.c: the bytes available without reading. */
const char *cast_avail(struct cast *c, size_t *n);
/* cast-input.c: the next line, without its newline: 1, 0 at the end, -1. */
int	cast_read_line(struct cast *c, const char **line, size_t *len,
	    int *complete, char **cause);
/* cast-input.c: is this byte JSON whitespace? */
int	cast_is_space(char ch);
/* cast-input.c: is the line only whitespace? */
int	cast_is_blank(const char *p, size_t len);
/* cast-input.c: parse one line of JSON, invalid UTF-8 made U+FFFD. */
json_t	*cast_parse_line(const char *line, size_t len, json_error_t *err);
/* cast-input.c: the rest of the input from byte start as one document. */
json_t	*cast_load_whole(struct cast *c, size_t start, char **cause);

/* cast-header.c: read and check the header, whichever version. */
int	cast_read_header(struct cast *c, char **cause);

#endif
