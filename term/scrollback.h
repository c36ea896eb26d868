/*
 * scrollback.h - a bounded ring of lines that scrolled off a screen.
 *
 * Lines are stored compactly: UTF-8 text plus runs of equal attributes
 * (and per-cell character counts only on lines with combining characters),
 * not as fixed-size cells.  100 ASCII columns cost about 150 bytes.  A
 * sink may see every line as it is pushed, whether the ring keeps it or
 * not; lines come back out (pop) when the screen grows taller.
 */
#ifndef PTYVISOR_SCROLLBACK_H
#define PTYVISOR_SCROLLBACK_H

#include <stdbool.h>
#include <stddef.h>

#include "term/cell.h"

struct buf;

struct scrollback;

/* A ring of at most max_lines lines (0: keep none). */
struct scrollback	*scrollback_new(size_t max_lines);
void			 scrollback_free(struct scrollback *sb);

/*
 * Each line pushed is first handed to fn as it came (its cells, how many,
 * whether it goes on in the next line), whether the ring keeps it or not:
 * a reader that streams lines needs no ring (max_lines 0) to read back.
 */
typedef void	(*scrollback_sink_fn)(void *arg, const struct cell *cells,
		    int ncols, bool wrapped);
void	scrollback_set_sink(struct scrollback *sb, scrollback_sink_fn fn,
	    void *arg);

/* Append a line of ncols cells; the oldest line goes when full. */
void	scrollback_push(struct scrollback *sb, const struct cell *cells,
	    int ncols);

/* The same, saying whether the line goes on in the next one (soft wrap). */
void	scrollback_push_line(struct scrollback *sb, const struct cell *cells,
	    int ncols, bool wrapped);

/* Cells line idx (0 = oldest) has, trailing blanks not counted. */
int	scrollback_width(const struct scrollback *sb, size_t idx);

/* Append a copy of src's line idx (0 = oldest) to dst, as stored. */
void	scrollback_copy_line(struct scrollback *dst,
	    const struct scrollback *src, size_t idx);

/* True when line idx (0 = oldest) was pushed as wrapped. */
bool	scrollback_is_wrapped(const struct scrollback *sb, size_t idx);

/*
 * Remove the newest line into cells[0..ncols) (blank-padded).  Returns 0
 * when the ring is empty.
 */
int	scrollback_pop(struct scrollback *sb, struct cell *cells, int ncols);

/* Lines held, and at most. */
size_t	scrollback_count(const struct scrollback *sb);
size_t	scrollback_max(const struct scrollback *sb);

/*
 * Line idx (0 = oldest) into cells[0..ncols), blank-padded.  Returns the
 * number of cells the line really had, or -1 if idx is out of range.
 */
int	scrollback_get(const struct scrollback *sb, size_t idx,
	    struct cell *cells, int ncols);

/*
 * Append line idx's text as shown in ncols columns (a glyph's characters,
 * a space for an empty cell; trailing spaces dropped when trim), straight
 * from its stored text: what decoding it into cells and reading them back
 * would give.  False, with nothing appended, when idx is out of range or
 * the line cannot be read that way (a cell with combining characters, a
 * line wider than ncols): the caller decodes it (scrollback_get).
 */
bool	scrollback_text(const struct scrollback *sb, size_t idx, int ncols,
	    bool trim, struct buf *out);

/* Bytes of memory used by the stored lines (for tests and benchmarks). */
size_t	scrollback_memory(const struct scrollback *sb);

/* Drop every line. */
void	scrollback_clear(struct scrollback *sb);

#endif
