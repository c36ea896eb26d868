/*
 * record.c - asciicast v2 writer (see record.h).
 *
 * Invariants: events are appended to an in-memory buffer in time order and
 * reach the file in that order; the UTF-8 carry of output and input are
 * kept apart so a split sequence never mixes streams; the first write error
 * is kept and reported by the next flush or close, and no later write is
 * attempted after it (a partial event must not be followed by more).
 *
 * The cap (record.h).  Why a ring of segments on disk rather than the
 * tail in memory: a session's tail is up to half the cap (128 MiB by
 * default), and a hundred sessions may flood at once; on disk the memory
 * per session stays the same as without a cap (its pending buffer).  Why
 * segments rather than a byte ring: a segment starts on an event and is
 * given up whole, so the file never holds half an event, and the raw
 * bytes each segment holds are counted, so the gap's marker says exactly
 * how many bytes of output are missing.  Once capped, output is cut into
 * events of at most `piece` raw bytes (a UTF-8 sequence split between
 * them is carried as between reads), so that every event fits a segment.
 * Invariants, with a cap: the main file holds the header and the head
 * (at most head_max bytes), then at close the gap marker, the segments
 * and the exit marker, and never more than max_bytes (but for a header,
 * the command line, longer than half of it); every event after
 * the first that did not fit the head goes to the tail (times stay in
 * order); the events not yet written belong to the current segment; the
 * tail file's index never claims bytes not yet written there, nor bytes
 * written over since (a segment taken again is said empty first).
 */
#include "record/record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/utf8.h"
#include "base/util.h"

/* Write to the file once this much is buffered (bounded memory per session). */
#define RECORD_HIGH_WATER (64 * 1024)
/* Room kept between flushes; more is given back (ten sessions' bursts). */
#define RECORD_KEEP (16 * 1024)
/*
 * Segments of a capped recording's tail.  Why 8: the tail kept is then at
 * least 7/8 of its share of the cap, and the bookkeeping stays tiny.
 */
#define RECORD_SEGMENTS 8
/*
 * Room left under the cap for the gap's and the exit's markers (two short
 * lines of text and times).
 */
#define RECORD_MARK_ROOM 512
/* Bytes copied at a time from the tail file at close (memory bound). */
#define RECORD_COPY (64 * 1024)
/*
 * The tail file's first bytes: one line saying where the ring stands (its
 * cap, the segments' size, the current one, the bytes given up, each
 * segment's bytes, raw bytes, first time and terminal size, and where the
 * head ends in the recording and the size there), so that the next
 * ptyvisor can finish a recording whose ptyvisor died
 * (record_recover_tail).  Why 1 KiB: the line's 28 numbers of at most 20
 * digits and 19 sizes of at most 5, about 720 bytes.
 */
#define RECORD_INDEX 1024
#define RECORD_INDEX_MAGIC "ptyvisor-tail 2"
/* The index's numbers: 7 of the ring, then 5 per segment. */
#define RECORD_INDEX_N (7 + 5 * RECORD_SEGMENTS)

/* One segment of the tail's ring. */
struct record_segment {
	size_t		used;		/* bytes of events in it */
	uint64_t	raw;		/* raw output bytes of those events */
	uint64_t	t0_us;		/* time of its first event */
	unsigned	cols, rows;	/* the terminal's size before it */
};

struct record {
	int			fd;
	char			*path;
	struct buf		pending;	/* encoded events not yet written */
	struct buf		text;		/* scratch: sanitized data */
	struct utf8_carry	out_carry;
	struct utf8_carry	in_carry;
	uint64_t		bytes;
	uint64_t		last_us;	/* time of the last event */
	off_t			whole;		/* file size up to whole events */
	int			error;		/* first errno, 0 if none */

	/* The cap (record.h); all zero without one. */
	uint64_t		cap;
	off_t			head_max;	/* header and head, bytes */
	off_t			head_end;	/* where the head ended */
	unsigned		cols, rows;	/* the terminal's size now */
	unsigned		head_cols;	/* and where the head ended */
	unsigned		head_rows;
	size_t			seg_size;	/* bytes of one segment */
	size_t			piece;		/* raw bytes per event */
	bool			tailing;	/* the head is full */
	int			tail_fd;	/* -1 until the head is full */
	char			*tail_path;
	struct record_segment	seg[RECORD_SEGMENTS];
	int			cur;		/* the segment being filled */
	struct buf		tpending;	/* its events not yet written */
	struct buf		ev;		/* scratch: one encoded event */
	uint64_t		raw;		/* raw bytes of the event added */
	uint64_t		dropped;	/* raw bytes of given up segments */
};

static void	write_pending(struct record *r);

/*
 * Write b to fd (at offset at, or where the file is when at < 0) unless an
 * error came first, remembering the first error; the bytes written.
 */
static size_t
write_buf(struct record *r, int fd, const struct buf *b, off_t at)
{
	size_t	off = 0;
	ssize_t	n;

	while (r->error == 0 && off < b->len) {
		n = at < 0 ? write(fd, b->data + off, b->len - off) :
		    pwrite(fd, b->data + off, b->len - off, at + (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r->error = n < 0 ? errno : EIO;
			break;
		}
		off += (size_t)n;
	}
	return off;
}

/* Encode one event line with already valid UTF-8 data into b. */
static void
encode_event(struct buf *b, uint64_t t_us, const char *type,
    const char *data, size_t len)
{
	buf_printf(b, "[%llu.%06llu, \"%s\", ",
	    (unsigned long long)(t_us / 1000000),
	    (unsigned long long)(t_us % 1000000), type);
	buf_add_json_string(b, data, len);
	buf_add(b, "]\n", 2);
}

/* The time of the next event: t_us, kept monotonic if a clock steps back. */
static uint64_t
event_time(struct record *r, uint64_t t_us)
{
	if (t_us < r->last_us)
		t_us = r->last_us;
	r->last_us = t_us;
	return t_us;
}

/* Where segment k starts in the tail file. */
static off_t
seg_offset(const struct record *r, int k)
{
	return RECORD_INDEX + (off_t)k * (off_t)r->seg_size;
}

/* Write the ring's state at the start of the tail file. */
static void
write_index(struct record *r)
{
	struct buf	b = { 0 };
	int		k;

	buf_printf(&b, RECORD_INDEX_MAGIC " %" PRIu64 " %zu %d %" PRIu64
	    " %lld %u %u", r->cap, r->seg_size, r->cur, r->dropped,
	    (long long)r->head_end, r->head_cols, r->head_rows);
	for (k = 0; k < RECORD_SEGMENTS; k++)
		buf_printf(&b, " %zu %" PRIu64 " %" PRIu64 " %u %u",
		    r->seg[k].used, r->seg[k].raw, r->seg[k].t0_us,
		    r->seg[k].cols, r->seg[k].rows);
	buf_addc(&b, '\n');
	(void)write_buf(r, r->tail_fd, &b, 0);
	buf_free(&b);
}

/*
 * Write the current segment's pending events at their place in the tail,
 * then the index that counts them.
 */
static void
write_tail(struct record *r)
{
	struct record_segment	*sg = &r->seg[r->cur];
	off_t			 at;

	if (r->tpending.len == 0)
		return;
	at = seg_offset(r, r->cur) + (off_t)(sg->used - r->tpending.len);
	(void)write_buf(r, r->tail_fd, &r->tpending, at);
	r->tpending.len = 0;
	write_index(r);
}

/* The head is full: open the tail file; -1 (the error kept) if it fails. */
static int
start_tail(struct record *r)
{
	write_pending(r);
	r->head_end = r->whole;
	r->head_cols = r->cols;
	r->head_rows = r->rows;
	r->tailing = true;
	r->tail_fd = open(r->tail_path, O_RDWR | O_CREAT | O_TRUNC |
	    O_NOFOLLOW | O_CLOEXEC, 0600);
	if (r->tail_fd < 0 && r->error == 0)
		r->error = errno;
	return r->tail_fd < 0 ? -1 : 0;
}

/* Put the event in r->ev in the tail's current segment (or the next). */
static void
add_to_tail(struct record *r, uint64_t t_us)
{
	struct record_segment	*sg = &r->seg[r->cur];

	if (sg->used + r->ev.len > r->seg_size) {
		write_tail(r);
		r->cur = (r->cur + 1) % RECORD_SEGMENTS;
		sg = &r->seg[r->cur];
		/* The ring is full: its oldest segment is given up whole. */
		r->dropped += sg->raw;
		sg->used = 0;
		sg->raw = 0;
		write_index(r);		/* before its bytes are written over */
	}
	if (sg->used == 0) {
		sg->t0_us = t_us;
		sg->cols = r->cols;
		sg->rows = r->rows;
	}
	buf_add(&r->tpending, r->ev.data, r->ev.len);
	sg->used += r->ev.len;
	sg->raw += r->raw;
	if (r->tpending.len >= RECORD_HIGH_WATER)
		write_tail(r);
}

/*
 * Append one event line with already valid UTF-8 data, carrying r->raw
 * raw output bytes: to the file's pending events, or past a full head to
 * the tail.
 */
static void
add_event(struct record *r, uint64_t t_us, const char *type,
    const char *data, size_t len)
{
	t_us = event_time(r, t_us);
	if (r->cap == 0)
		encode_event(&r->pending, t_us, type, data, len);
	else {
		r->ev.len = 0;
		encode_event(&r->ev, t_us, type, data, len);
		if (!r->tailing && r->whole +
		    (off_t)(r->pending.len + r->ev.len) <= r->head_max)
			buf_add(&r->pending, r->ev.data, r->ev.len);
		else if (r->error != 0 || (!r->tailing && start_tail(r) != 0))
			r->dropped += r->raw;	/* nothing reaches the disk */
		else
			add_to_tail(r, t_us);
	}
	r->raw = 0;
}

/*
 * Cut the main file back to its first len bytes, and write from there on
 * (ftruncate leaves the offset where it was: a later write would leave a
 * hole of NUL bytes).  -1 when it cannot.
 */
static int
cut_back(struct record *r, off_t len)
{
	if (ftruncate(r->fd, len) != 0 || lseek(r->fd, len, SEEK_SET) < 0)
		return -1;
	r->whole = len;
	return 0;
}

/* Write the pending buffer, remembering the first error. */
static void
write_pending(struct record *r)
{
	size_t	off = write_buf(r, r->fd, &r->pending, -1);

	/*
	 * A write cut short (a full disk) would leave half an event: cut the
	 * file back to its last whole one, so the recording stays valid.
	 */
	if (r->error == 0)
		r->whole += (off_t)off;
	else if (off > 0 && cut_back(r, r->whole) != 0)
		r->error = EIO;		/* not even cut back: say it is broken */
	r->pending.len = 0;
}

struct record *
record_create(const char *path, const struct record_header *h, char **cause)
{
	struct record	*r;
	struct buf	 hdr = { 0 };
	int		 fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		int e = errno;

		*cause = xasprintf("%s: %s", path, strerror(e));
		errno = e;	/* callers retry another name on EEXIST */
		return NULL;
	}
	r = xcalloc(1, sizeof *r);
	r->fd = fd;
	r->path = xstrdup(path);
	r->tail_fd = -1;
	r->cols = h->cols;
	r->rows = h->rows;
	if (h->max_bytes != 0) {
		r->cap = h->max_bytes < RECORD_CAP_MIN ? RECORD_CAP_MIN :
		    h->max_bytes;
		r->head_max = (off_t)(r->cap / 2);
		r->seg_size = (size_t)((r->cap - (uint64_t)r->head_max -
		    RECORD_MARK_ROOM) / RECORD_SEGMENTS);
		/*
		 * Why an eighth: an event's data grows at most six times in
		 * JSON (\u001b), so an event of that many raw bytes (and a
		 * carried sequence) always fits a segment.
		 */
		r->piece = r->seg_size / 8;
		r->tail_path = record_tail_path(path);
	}

	buf_printf(&hdr, "{\"version\": 2, \"width\": %u, \"height\": %u, "
	    "\"timestamp\": %lld", h->cols, h->rows, (long long)h->timestamp);
	if (h->command != NULL) {
		buf_adds(&hdr, ", \"command\": ");
		buf_add_json_string(&hdr, h->command, strlen(h->command));
	}
	if (h->title != NULL) {
		buf_adds(&hdr, ", \"title\": ");
		buf_add_json_string(&hdr, h->title, strlen(h->title));
	}
	buf_adds(&hdr, ", \"env\": {");
	if (h->term != NULL) {
		buf_adds(&hdr, "\"TERM\": ");
		buf_add_json_string(&hdr, h->term, strlen(h->term));
	}
	if (h->shell != NULL) {
		buf_adds(&hdr, h->term != NULL ? ", \"SHELL\": " : "\"SHELL\": ");
		buf_add_json_string(&hdr, h->shell, strlen(h->shell));
	}
	buf_adds(&hdr, "}}\n");
	/* The header goes out at once so a crash still leaves a valid file. */
	buf_add(&r->pending, hdr.data, hdr.len);
	buf_free(&hdr);
	write_pending(r);
	if (r->error != 0) {
		*cause = xasprintf("%s: %s", path, strerror(r->error));
		unlink(path);
		close(fd);
		buf_free(&r->pending);
		free(r->tail_path);
		free(r->path);
		free(r);
		return NULL;
	}
	return r;
}

/*
 * Sanitize data through carry and append it as one event of type; an
 * output event carries the raw bytes its text came from (a sequence held
 * in the carry counts with the event that holds it).
 */
static void
add_stream(struct record *r, struct utf8_carry *carry, uint64_t t_us,
    const char *type, const void *data, size_t len)
{
	size_t	held = carry->len;

	r->text.len = 0;
	utf8_sanitize(carry, data, len, &r->text);
	r->raw = carry == &r->out_carry ? held + len - carry->len : 0;
	if (r->text.len > 0)
		add_event(r, t_us, type, r->text.data, r->text.len);
	if (r->pending.len >= RECORD_HIGH_WATER)
		write_pending(r);
}

/* Add a stream's bytes; under a cap, in events of r->piece raw bytes. */
static void
add_pieces(struct record *r, struct utf8_carry *carry, uint64_t t_us,
    const char *type, const char *data, size_t len)
{
	size_t	n;

	do {
		n = r->cap != 0 && len > r->piece ? r->piece : len;
		add_stream(r, carry, t_us, type, data, n);
		data += n;
		len -= n;
	} while (len > 0);
}

void
record_output(struct record *r, uint64_t t_us, const void *data, size_t len)
{
	r->bytes += len;
	add_pieces(r, &r->out_carry, t_us, "o", data, len);
}

void
record_input(struct record *r, uint64_t t_us, const void *data, size_t len)
{
	add_pieces(r, &r->in_carry, t_us, "i", data, len);
}

void
record_resize(struct record *r, uint64_t t_us, unsigned cols, unsigned rows)
{
	char	size[32];
	int	n;

	n = snprintf(size, sizeof size, "%ux%u", cols, rows);
	add_event(r, t_us, "r", size, (size_t)n);
	/* After: a segment this event starts begins at the size before. */
	r->cols = cols;
	r->rows = rows;
}

int
record_flush(struct record *r, char **cause)
{
	write_pending(r);
	if (r->tail_fd >= 0)
		write_tail(r);
	/* A burst's room is not kept while the session idles. */
	buf_trim(&r->pending, RECORD_KEEP);
	r->text.len = 0;	/* scratch: each chunk starts it afresh */
	buf_trim(&r->text, RECORD_KEEP);
	buf_trim(&r->tpending, RECORD_KEEP);
	r->ev.len = 0;
	buf_trim(&r->ev, RECORD_KEEP);
	if (r->error != 0) {
		*cause = xasprintf("%s: %s", r->path, strerror(r->error));
		return -1;
	}
	return 0;
}

/* Append an event to the main file's pending events, whatever the cap. */
static void
add_last(struct record *r, uint64_t t_us, const char *type,
    const char *data, size_t len)
{
	encode_event(&r->pending, event_time(r, t_us), type, data, len);
}

/*
 * Copy what the kernel copies for us of segment k, from *off on, to the
 * end of the main file (no copy through our memory: a tail is up to half
 * the cap).  Leaves the rest, if any, to the caller: when the files do not
 * allow it (another filesystem, an old kernel), or on an error (kept).
 */
static void
copy_in_kernel(struct record *r, int k, size_t *off)
{
	const struct record_segment	*sg = &r->seg[k];
	off_t				 in = seg_offset(r, k) + (off_t)*off;
	ssize_t				 n;

	while (r->error == 0 && *off < sg->used) {
		n = copy_file_range(r->tail_fd, &in, r->fd, NULL,
		    sg->used - *off, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EXDEV || errno == ENOSYS ||
		    errno == EINVAL || errno == EOPNOTSUPP))
			return;
		if (n <= 0) {
			r->error = n < 0 ? errno : EIO;
			return;
		}
		*off += (size_t)n;
		r->whole += n;
	}
}

/* Copy segment k of the tail file to the end of the main file. */
static void
copy_segment(struct record *r, int k)
{
	const struct record_segment	*sg = &r->seg[k];
	off_t				 start = r->whole;
	size_t				 off = 0, want;
	ssize_t				 n;

	copy_in_kernel(r, k, &off);
	while (r->error == 0 && off < sg->used) {
		want = sg->used - off < RECORD_COPY ? sg->used - off :
		    RECORD_COPY;
		buf_reserve(&r->pending, want);
		n = pread(r->tail_fd, r->pending.data + r->pending.len, want,
		    seg_offset(r, k) + (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r->error = n < 0 ? errno : EIO;
			break;
		}
		r->pending.len += (size_t)n;
		off += (size_t)n;
		write_pending(r);
	}
	/* A copy cut between its chunks: back to whole events. */
	if (r->error != 0 && r->whole != start)
		(void)cut_back(r, start);
}

/*
 * Close the tail: the gap's marker, at the time of the oldest segment
 * kept, then the segments oldest first into the main file; the tail file
 * removed.  After a write error the tail is given up whole.
 */
static void
end_tail(struct record *r)
{
	char		 gap[160], size[32];
	uint64_t	 t0 = r->last_us;
	unsigned	 cols = r->head_cols, rows = r->head_rows;
	int		 i, k, n;

	write_tail(r);
	write_pending(r);
	if (r->error != 0) {
		r->dropped = record_dropped(r);
		memset(r->seg, 0, sizeof r->seg);
	}
	for (i = RECORD_SEGMENTS; i >= 1; i--) {
		k = (r->cur + i) % RECORD_SEGMENTS;
		if (r->seg[k].used > 0) {
			t0 = r->seg[k].t0_us;
			cols = r->seg[k].cols;
			rows = r->seg[k].rows;
		}
	}
	if (r->dropped > 0 && r->error == 0) {
		record_gap_text(gap, sizeof gap, r->dropped, r->cap);
		encode_event(&r->pending, t0, "m", gap, strlen(gap));
		/* A resize left out with the gap: the tail's size first. */
		if (cols != r->head_cols || rows != r->head_rows) {
			n = snprintf(size, sizeof size, "%ux%u", cols, rows);
			encode_event(&r->pending, t0, "r", size, (size_t)n);
		}
		write_pending(r);
	}
	for (i = 1; i <= RECORD_SEGMENTS; i++)
		copy_segment(r, (r->cur + i) % RECORD_SEGMENTS);
	close(r->tail_fd);
	r->tail_fd = -1;
	unlink(r->tail_path);
}

int
record_end(struct record *r, uint64_t t_us, const char *marker, int *sync_fd,
    char **cause)
{
	int	rc = 0, error;

	*sync_fd = -1;
	r->text.len = 0;
	r->raw = r->out_carry.len;
	utf8_finish(&r->out_carry, &r->text);
	if (r->text.len > 0)
		add_event(r, t_us, "o", r->text.data, r->text.len);
	r->raw = 0;
	r->text.len = 0;
	utf8_finish(&r->in_carry, &r->text);
	if (r->text.len > 0)
		add_event(r, t_us, "i", r->text.data, r->text.len);
	if (r->tailing && r->tail_fd >= 0)
		end_tail(r);
	if (marker != NULL)
		add_last(r, t_us, "m", marker, strlen(marker));
	write_pending(r);
	if (r->error != 0 && marker != NULL) {
		/* The disk filled: the end alone may still fit (else cut). */
		error = r->error;
		r->error = 0;
		add_last(r, t_us, "m", marker, strlen(marker));
		write_pending(r);
		r->error = error;
	}
	if (r->error != 0) {
		*cause = xasprintf("%s: %s", r->path, strerror(r->error));
		close(r->fd);
		rc = -1;
	} else
		*sync_fd = r->fd;
	buf_free(&r->pending);
	buf_free(&r->text);
	buf_free(&r->tpending);
	buf_free(&r->ev);
	free(r->tail_path);
	free(r->path);
	free(r);
	return rc;
}

int
record_close(struct record *r, uint64_t t_us, const char *marker,
    char **cause)
{
	char	*path = xstrdup(r->path);
	int	 fd, error, rc;

	if ((rc = record_end(r, t_us, marker, &fd, cause)) == 0 &&
	    (error = util_sync_close(fd)) != 0) {
		*cause = xasprintf("%s: %s", path, strerror(error));
		rc = -1;
	}
	free(path);
	return rc;
}

uint64_t
record_bytes(const struct record *r)
{
	return r->bytes;
}

uint64_t
record_dropped(const struct record *r)
{
	uint64_t	n = r->dropped;
	int		i;

	if (r->error != 0 && r->tailing)
		for (i = 0; i < RECORD_SEGMENTS; i++)
			n += r->seg[i].raw;
	return n;
}

void
record_gap_text(char *out, size_t size, uint64_t dropped, uint64_t cap)
{
	snprintf(out, size, "ptyvisor: %" PRIu64 " bytes of output not "
	    "recorded (recording cap %" PRIu64 " KiB: its head and tail are "
	    "kept)", dropped, cap / 1024);
}

char *
record_tail_path(const char *path)
{
	return xasprintf("%s.tail", path);
}

/* Read the index of the tail file open in r into r; -1 when it is none. */
static int
read_index(struct record *r)
{
	char			 line[RECORD_INDEX + 1], *p, *end;
	unsigned long long	 v[RECORD_INDEX_N];
	size_t			 i;
	ssize_t			 n;

	n = pread(r->tail_fd, line, RECORD_INDEX, 0);
	if (n <= 0)
		return -1;
	line[n] = '\0';
	if (strncmp(line, RECORD_INDEX_MAGIC " ", strlen(RECORD_INDEX_MAGIC)
	    + 1) != 0 || strchr(line, '\n') == NULL)
		return -1;
	p = line + strlen(RECORD_INDEX_MAGIC);
	for (i = 0; i < sizeof v / sizeof v[0]; i++, p = end) {
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno != 0 || end == p || (*end != ' ' && *end != '\n'))
			return -1;
	}
	r->cap = v[0];
	r->seg_size = (size_t)v[1];
	r->cur = (int)v[2];
	r->dropped = v[3];
	r->head_end = (off_t)v[4];
	r->head_cols = (unsigned)v[5];
	r->head_rows = (unsigned)v[6];
	if (r->seg_size == 0 || v[2] >= RECORD_SEGMENTS)
		return -1;
	for (i = 0; i < RECORD_SEGMENTS; i++) {
		r->seg[i].used = (size_t)v[7 + 5 * i];
		r->seg[i].raw = v[8 + 5 * i];
		r->seg[i].t0_us = v[9 + 5 * i];
		r->seg[i].cols = (unsigned)v[10 + 5 * i];
		r->seg[i].rows = (unsigned)v[11 + 5 * i];
		if (r->seg[i].used > r->seg_size)
			return -1;
	}
	return 0;
}

int
record_recover_tail(const char *path, uint64_t *dropped, char **cause)
{
	struct record	r;
	struct stat	st;
	int		rc = 0;

	*dropped = 0;
	memset(&r, 0, sizeof r);
	r.fd = -1;
	r.path = (char *)path;
	r.tail_path = record_tail_path(path);
	r.tail_fd = open(r.tail_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (r.tail_fd < 0) {
		free(r.tail_path);
		return 0;
	}
	/* No index: nothing was written to it yet (written data has one). */
	if (read_index(&r) != 0) {
		close(r.tail_fd);
		unlink(r.tail_path);
		free(r.tail_path);
		return 0;
	}
	r.fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (r.fd < 0 || fstat(r.fd, &st) != 0)
		r.error = errno;
	/* A merge the death cut short starts again after the head. */
	else if (st.st_size > r.head_end && r.head_end > 0 &&
	    ftruncate(r.fd, r.head_end) != 0)
		r.error = errno;
	else
		r.whole = st.st_size < r.head_end ? st.st_size : r.head_end;
	if (r.error == 0 && lseek(r.fd, r.whole, SEEK_SET) < 0)
		r.error = errno;
	r.tailing = true;
	end_tail(&r);
	if (r.error == 0 && fsync(r.fd) != 0)
		r.error = errno;
	if (r.error != 0) {
		*cause = xasprintf("%s: %s", path, strerror(r.error));
		rc = -1;
	}
	*dropped = r.dropped;
	if (r.fd >= 0)
		close(r.fd);
	buf_free(&r.pending);
	free(r.tail_path);
	return rc;
}
