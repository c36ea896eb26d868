/*
 * record.h - write a session to an asciicast v2 file, losslessly.
 *
 * Every byte given to record_output() reaches the file as the data of an
 * "o" event; the only change is that invalid UTF-8 becomes U+FFFD, and a
 * sequence split across calls is carried into the next event; input ("i",
 * when the session records it) and resizes ("r") are events of their
 * own.  Events are buffered in memory and written when the buffer is
 * large, on record_flush() (the session calls it within a second of an
 * event) and at record_close(), which also writes the final "m" exit
 * marker and fsyncs.
 * A write the disk cuts short is cut back to the last whole event, and
 * nothing more is written but the marker, if it fits: the file stays a
 * valid recording of what reached it.
 */
#ifndef PTYVISOR_RECORD_H
#define PTYVISOR_RECORD_H

#include <stddef.h>
#include <stdint.h>

/* The header fields of a recording.  Pointers are borrowed. */
struct record_header {
	unsigned short	 cols;
	unsigned short	 rows;
	int64_t		 timestamp;	/* seconds since the epoch */
	const char	*command;	/* the command line, quoted for display */
	const char	*title;		/* may be NULL */
	const char	*term;		/* the session's TERM, may be NULL */
	const char	*shell;		/* may be NULL */
};

struct record;

/*
 * Create path (which must not exist: O_EXCL, mode 0600) and write the
 * header.  Returns NULL with *cause (caller frees) and errno on failure.
 */
struct record	*record_create(const char *path, const struct record_header *h,
		    char **cause);

/* Record output read from the PTY at t_us microseconds after the start. */
void	record_output(struct record *r, uint64_t t_us, const void *data,
	    size_t len);

/* Record keyboard input (only when the user opted in). */
void	record_input(struct record *r, uint64_t t_us, const void *data,
	    size_t len);

/* Record a terminal resize. */
void	record_resize(struct record *r, uint64_t t_us, unsigned cols,
	    unsigned rows);

/* Write buffered events to the file.  -1 with *cause on a write error. */
int	record_flush(struct record *r, char **cause);

/*
 * Finish: carry leftovers out, write the marker event ("exit 3",
 * "signal 9", ...) if not NULL, flush, fsync, close and free.  Returns -1
 * with *cause if anything failed to reach the disk; r is freed either way.
 */
int	record_close(struct record *r, uint64_t t_us, const char *marker,
	    char **cause);

/* Raw bytes given to record_output() so far. */
uint64_t	record_bytes(const struct record *r);

#endif
