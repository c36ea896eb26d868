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
 *
 * A recording may have a cap (struct record_header's max_bytes): the file
 * then never grows past it.  Its first half keeps the head of the session;
 * once that is full, later events go to a ring of segments in a file of
 * its own beside the recording (<path>.tail, made only then), the oldest
 * segment given up whole when the ring is full.  record_close() appends a
 * marker event ("m") saying how many bytes of output were not recorded
 * (and a resize, "r", when the terminal's size changed in the gap), then
 * the ring's segments, oldest first, and removes the tail file.  The
 * session's own output and screen are not touched by the cap.
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
	/*
	 * The largest file (header and markers included): RECORD_CAP_MIN
	 * and up, or 0 for no cap.
	 */
	uint64_t	 max_bytes;
};

/*
 * The default cap.  Why 256 MiB: a runaway loop writes about 12 MB/s, so
 * a day of them (one every few minutes) stays well under a free disk of
 * a few hundred GB, and a build log of any normal size is far below it.
 */
#define RECORD_CAP_DEFAULT	(256ULL * 1024 * 1024)
/*
 * The smallest cap.  Why: half of it for the head and eight segments of
 * the other half must each hold a few events of a few hundred bytes.
 */
#define RECORD_CAP_MIN		(64ULL * 1024)

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

/*
 * record_close() but for the fsync: the file is complete for every reader
 * when it returns 0, and *sync_fd is its descriptor, to fsync and close
 * (util_sync_close()) once whoever waits for the end has been told (the
 * exit comes first, then durability: session/exit.c).  -1 with *cause
 * and no descriptor if a write failed; r is freed either way.
 */
int	record_end(struct record *r, uint64_t t_us, const char *marker,
	    int *sync_fd, char **cause);

/* Raw bytes given to record_output() so far. */
uint64_t	record_bytes(const struct record *r);

/*
 * Raw output bytes that the cap leaves out of the file: those of the
 * segments given up so far, and all of the tail's when a write failed
 * (record_close then drops it).  Read it before record_close().
 */
uint64_t	record_dropped(const struct record *r);

/*
 * The marker's text for a gap of dropped bytes under a cap of cap bytes
 * ("ptyvisor: 4000000 bytes of output not recorded (cap 1 MiB: ...)"),
 * NUL-terminated into out.
 */
void	record_gap_text(char *out, size_t size, uint64_t dropped,
	    uint64_t cap);

/* The tail file of the recording at path: "<path>.tail".  Caller frees. */
char	*record_tail_path(const char *path);

/*
 * A recording whose writer died (its ptyvisor killed): append what its
 * tail file holds, as record_close() would (the gap's marker, the tail's
 * segments as last written), and remove the tail file; no exit marker.
 * Nothing to do (0) without a tail file.  *dropped gets the bytes of
 * output left out.  -1 with *cause when the recording could not be
 * written; the tail file is gone either way.
 */
int	record_recover_tail(const char *path, uint64_t *dropped,
	    char **cause);

#endif
