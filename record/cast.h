/*
 * cast.h - a streaming reader for asciicast recordings (versions 1, 2, 3).
 *
 * cast_open* reads and checks the header; cast_next then returns one event
 * at a time.  Version 2 and 3 files are read line by line, so memory stays
 * bounded by the longest line (CAST_LINE_MAX); a version 1 file is a single
 * JSON document and is read whole (at most CAST_V1_MAX bytes).  Whatever the
 * version, events come out the same way: absolute times in seconds from the
 * start, never decreasing, data JSON-decoded to bytes.
 *
 * A recording cut off mid-write (its last line incomplete, no newline) is
 * not an error: the complete events are returned, then the end, and
 * cast_warning says what was dropped.  Anything else malformed is an error
 * whose cause names the file and the line.
 */
#ifndef PTYVISOR_CAST_H
#define PTYVISOR_CAST_H

#include <stddef.h>
#include <stdint.h>

/* Longest line accepted in a v2/v3 file; longer is an error, not a crash. */
#define CAST_LINE_MAX (16U * 1024 * 1024)
/* Largest v1 file (read whole, as one JSON document). */
#define CAST_V1_MAX (64U * 1024 * 1024)
/* Largest width or height accepted in a header or a resize event. */
#define CAST_SIZE_MAX 10000

/*
 * Size used when a header says 0 (asciinema writes that when it records on
 * a terminal that reports no size).
 */
#define CAST_DEFAULT_WIDTH 80
#define CAST_DEFAULT_HEIGHT 24

/*
 * The header, as a plain value; strings are NULL when absent.  A size of 0
 * in the file becomes CAST_DEFAULT_WIDTH or CAST_DEFAULT_HEIGHT.
 */
struct cast_header {
	int		 version;	/* 1, 2 or 3, as in the file */
	unsigned int	 width;		/* columns, >= 1 */
	unsigned int	 height;	/* rows, >= 1 */
	int64_t		 timestamp;	/* Unix time of the start, or 0 */
	double		 idle_time_limit; /* seconds, 0 if absent */
	double		 duration;	/* seconds, 0 if absent */
	char		*command;
	char		*title;
	char		*term;		/* env.TERM (v3: term.type) */
	char		*shell;		/* env.SHELL */
};

/*
 * One event.  type is the event code when it is one character ('o' output,
 * 'i' input, 'r' resize, 'm' marker, 'x' exit in v3, or any other), else 0;
 * code is always the full code.  data is the decoded payload (may contain
 * NUL bytes; also NUL-terminated).  For 'r', cols and rows are the parsed
 * size, both 0 when the payload is not "COLSxROWS".  code and data belong to
 * the reader and stay valid until the next cast_next or cast_free.
 */
struct cast_event {
	double		 time;		/* seconds from the start */
	char		 type;
	const char	*code;
	const char	*data;
	size_t		 len;
	unsigned int	 cols;
	unsigned int	 rows;
};

struct cast;

/*
 * Open a recording by path and read its header.  NULL on failure with *cause
 * set (caller frees).  The returned reader is freed with cast_free.
 */
struct cast	*cast_open(const char *path, char **cause);
/*
 * The same on an open fd (a file or a pipe), read from its current
 * position; name is used in messages.  The fd stays the caller's.
 */
struct cast	*cast_open_fd(int fd, const char *name, char **cause);
/* The same on bytes in memory; data is not copied and must outlive c. */
struct cast	*cast_open_mem(const char *data, size_t len, const char *name,
		    char **cause);
void		 cast_free(struct cast *c);

/* The header; owned by c. */
const struct cast_header *cast_header(struct cast *c);

/*
 * Read the next event into *ev: 1 with an event, 0 at the end, -1 on error
 * with *cause set (caller frees).  After 0 or -1 it keeps returning the
 * same.
 */
int		 cast_next(struct cast *c, struct cast_event *ev, char **cause);

/*
 * A non-fatal problem found so far (a truncated last line), or NULL; owned
 * by c.
 */
const char	*cast_warning(struct cast *c);

/* Line number of the last line read (1 is the header). */
unsigned long	 cast_line(struct cast *c);

#endif
