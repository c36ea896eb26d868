/*
 * scrollback.c - compact scrollback ring (see scrollback.h).
 *
 * A stored line is one allocation: a header, then the attribute runs, then
 * the text, then (only when some cell holds more than one character) one
 * count byte per glyph.  A run covers consecutive glyphs of equal
 * attributes and equal width; a wide glyph implies its right-half cell.
 * Trailing blank cells with default attributes are not stored.
 *
 * The ring's slots are made as lines come: SB_FIRST_SLOTS at the first,
 * twice as many each time they are all taken, up to max.  The first line
 * a screen scrolls off comes in the middle of a feed slice: a whole
 * 10,000-line ring made there (80 KB zeroed) took that slice past the
 * feed's budget under ASan, and a frame showed half of what one read
 * brought.
 */
#include "term/scrollback.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/util.h"

#define SB_WIDE 0x8000u			/* run flag: glyphs are 2 cells */
#define SB_FIRST_SLOTS	64		/* the ring's slots at its first line */

struct sb_run {
	uint16_t	nglyphs;
	uint16_t	flags;		/* cell attr flags | SB_WIDE */
	uint32_t	fg;
	uint32_t	bg;
};

struct sb_line {
	uint16_t	ncells;
	uint16_t	nruns;
	uint16_t	nglyphs;
	uint8_t		has_counts;
	uint8_t		wrapped;	/* continues on the next line */
	uint32_t	textlen;
	/* struct sb_run runs[nruns]; char text[textlen]; uint8_t counts[] */
};

struct scrollback {
	struct sb_line	**lines;	/* a ring of cap slots */
	size_t		  cap;		/* grows to max as lines come */
	size_t		  max;
	size_t		  head;		/* index of the oldest line */
	size_t		  count;
	size_t		  bytes;
	/* Scratch for encoding, grown to the widest line seen. */
	struct sb_run	 *runs;
	char		 *text;
	uint8_t		 *counts;
	size_t		  scratch_cells;
	scrollback_sink_fn sink;	/* sees each line pushed, if set */
	void		 *sink_arg;
};

/* Decode one UTF-8 character written by put_utf8; advances *p. */
static uint32_t
get_utf8(const unsigned char **p)
{
	const unsigned char	*s = *p;
	uint32_t		 c;

	if (s[0] < 0x80) {
		*p += 1;
		return s[0];
	}
	if (s[0] < 0xe0) {
		c = ((uint32_t)(s[0] & 0x1f) << 6) | (s[1] & 0x3f);
		*p += 2;
	} else if (s[0] < 0xf0) {
		c = ((uint32_t)(s[0] & 0x0f) << 12) |
		    ((uint32_t)(s[1] & 0x3f) << 6) | (s[2] & 0x3f);
		*p += 3;
	} else {
		c = ((uint32_t)(s[0] & 0x07) << 18) |
		    ((uint32_t)(s[1] & 0x3f) << 12) |
		    ((uint32_t)(s[2] & 0x3f) << 6) | (s[3] & 0x3f);
		*p += 4;
	}
	return c;
}

/* True for a cell that needs no storage at the end of a line. */
static int
is_blank(const struct cell *c)
{
	return (c->chars[0] == 0 || c->chars[0] == ' ') && c->width != 2 &&
	    c->attr.flags == 0 && c->attr.fg == CELL_COLOR_DEFAULT &&
	    c->attr.bg == CELL_COLOR_DEFAULT;
}

/* Characters held by a cell (0 for an empty one, at most CELL_MAX_CHARS). */
static int
cell_nchars(const struct cell *c)
{
	int	n = 0;

	while (n < CELL_MAX_CHARS && c->chars[n] != 0)
		n++;
	return n;
}

struct scrollback *
scrollback_new(size_t max_lines)
{
	struct scrollback	*sb = xcalloc(1, sizeof *sb);

	sb->max = max_lines;	/* its ring made by the first line (append) */
	return sb;
}

void
scrollback_clear(struct scrollback *sb)
{
	size_t	i;

	for (i = 0; i < sb->count; i++)
		free(sb->lines[(sb->head + i) % sb->cap]);
	sb->head = sb->count = sb->bytes = 0;
}

void
scrollback_free(struct scrollback *sb)
{
	if (sb == NULL)
		return;
	scrollback_clear(sb);
	free(sb->lines);
	free(sb->runs);
	free(sb->text);
	free(sb->counts);
	free(sb);
}

/* Size in bytes of an encoded line. */
static size_t
line_size(const struct sb_line *l)
{
	return sizeof *l + l->nruns * sizeof(struct sb_run) + l->textlen +
	    (l->has_counts ? l->nglyphs : 0);
}

/*
 * Memory for a line of size bytes: spare (the oldest line, leaving the
 * ring) when its block holds size bytes and wastes at most SB_REUSE_SLACK,
 * else a new block and spare freed.  A full ring thus trades one line for
 * another without a free and a malloc per line.  The slack is the
 * allocator's own step (a block is rounded up to 16 bytes anyway): with 64
 * bytes, the shared memory bench's ten sessions kept 0.6 MB more (13.0 MB
 * steady against 12.4).
 */
#define SB_REUSE_SLACK	16

static struct sb_line *
line_alloc(struct sb_line *spare, size_t size)
{
	size_t	have;

	if (spare != NULL) {
		have = malloc_usable_size(spare);
		if (have >= size && have - size <= SB_REUSE_SLACK)
			return spare;
		free(spare);
	}
	return xmalloc(size);
}

/* Encode ncols cells into one allocation (spare's, if it fits). */
static struct sb_line *
encode(struct scrollback *sb, const struct cell *cells, int ncols,
    struct sb_line *spare)
{
	struct sb_run	*runs, *r = NULL;
	struct sb_line	*l;
	char		*text;
	uint8_t		*counts;
	int		 n = ncols, i, k, nch;
	size_t		 textlen = 0, nruns = 0, nglyphs = 0;
	int		 has_counts = 0;
	uint16_t	 flags;

	while (n > 0 && is_blank(&cells[n - 1]))
		n--;
	if (n > 0 && n < ncols && cells[n - 1].width == 2)
		n++;			/* keep a wide glyph whole */
	/* Upper bounds: every cell its own run, 6 chars of 4 bytes. */
	if ((size_t)n + 1 > sb->scratch_cells) {
		sb->scratch_cells = (size_t)n + 1;
		sb->runs = xreallocarray(sb->runs, sb->scratch_cells,
		    sizeof *sb->runs);
		sb->text = xreallocarray(sb->text, sb->scratch_cells,
		    CELL_MAX_CHARS * 4);
		sb->counts = xreallocarray(sb->counts, sb->scratch_cells, 1);
	}
	runs = sb->runs;
	text = sb->text;
	counts = sb->counts;
	/*
	 * The usual line: narrow ASCII glyphs (or empty cells) of one style,
	 * one run; else the general way below, from the start.
	 */
	for (i = 0; i < n && n <= UINT16_MAX; i++) {
		const struct cell *c = &cells[i];

		if (c->width != 1 || c->chars[0] >= 0x80 || c->chars[1] != 0 ||
		    !cell_attr_eq(&c->attr, &cells[0].attr))
			break;
		text[i] = c->chars[0] != 0 ? (char)c->chars[0] : ' ';
	}
	if (n > 0 && i == n) {
		r = &runs[nruns++];
		r->nglyphs = (uint16_t)n;
		r->flags = cells[0].attr.flags;
		r->fg = cells[0].attr.fg;
		r->bg = cells[0].attr.bg;
		textlen = nglyphs = (size_t)n;
		goto store;
	}
	for (i = 0; i < n; i++) {
		const struct cell *c = &cells[i];

		if (c->width == 0)	/* right half of a wide glyph */
			continue;
		flags = c->attr.flags | (c->width == 2 ? SB_WIDE : 0);
		if (r == NULL || r->flags != flags || r->fg != c->attr.fg ||
		    r->bg != c->attr.bg || r->nglyphs == UINT16_MAX) {
			r = &runs[nruns++];
			r->nglyphs = 0;
			r->flags = flags;
			r->fg = c->attr.fg;
			r->bg = c->attr.bg;
		}
		r->nglyphs++;
		if (c->chars[0] == 0 ||
		    (c->chars[0] < 0x80 && c->chars[1] == 0)) {
			/* The usual cell: one ASCII character, or none. */
			nch = c->chars[0] != 0;
			text[textlen++] = nch ? (char)c->chars[0] : ' ';
			counts[nglyphs++] = 1;
			continue;
		}
		nch = cell_nchars(c);
		if (nch == 0)
			text[textlen++] = ' ';
		for (k = 0; k < nch; k++)
			textlen += utf8_put(c->chars[k], text + textlen);
		counts[nglyphs++] = (uint8_t)(nch ? nch : 1);
		if (nch > 1)
			has_counts = 1;
	}
store:
	l = line_alloc(spare, sizeof *l + nruns * sizeof *runs + textlen +
	    (has_counts ? nglyphs : 0));
	l->ncells = (uint16_t)n;
	l->nruns = (uint16_t)nruns;
	l->nglyphs = (uint16_t)nglyphs;
	l->has_counts = (uint8_t)has_counts;
	l->textlen = (uint32_t)textlen;
	memcpy(l + 1, runs, nruns * sizeof *runs);
	memcpy((char *)(l + 1) + nruns * sizeof *runs, text, textlen);
	if (has_counts)
		memcpy((char *)(l + 1) + nruns * sizeof *runs + textlen,
		    counts, nglyphs);
	return l;
}

/* Decode l into cells[0..ncols), blank-padded; returns l->ncells. */
static int
decode(const struct sb_line *l, struct cell *cells, int ncols)
{
	const struct sb_run	*runs = (const struct sb_run *)(l + 1);
	const unsigned char	*p = (const unsigned char *)(runs + l->nruns);
	const uint8_t		*counts = p + l->textlen;
	int			 col = 0, g = 0, k, nch;
	size_t			 i, j;

	memset(cells, 0, (size_t)ncols * sizeof *cells);
	for (i = 0; i < (size_t)ncols; i++)
		cells[i].width = 1;
	for (i = 0; i < l->nruns; i++) {
		const struct sb_run	*r = &runs[i];
		int			 w = r->flags & SB_WIDE ? 2 : 1;

		for (j = 0; j < r->nglyphs; j++, g++) {
			nch = l->has_counts ? counts[g] : 1;
			if (col + w > ncols) {	/* narrower screen: skip */
				for (k = 0; k < nch; k++)
					(void)get_utf8(&p);
				col += w;
				continue;
			}
			for (k = 0; k < nch; k++) {
				uint32_t ch = get_utf8(&p);

				if (k < CELL_MAX_CHARS)
					cells[col].chars[k] = ch;
			}
			cells[col].width = (uint8_t)w;
			cells[col].attr.flags = r->flags & ~SB_WIDE;
			cells[col].attr.fg = r->fg;
			cells[col].attr.bg = r->bg;
			if (w == 2) {
				cells[col + 1].width = 0;
				cells[col + 1].attr = cells[col].attr;
			}
			col += w;
		}
	}
	return l->ncells;
}

void
scrollback_set_sink(struct scrollback *sb, scrollback_sink_fn fn, void *arg)
{
	sb->sink = fn;
	sb->sink_arg = arg;
}

void
scrollback_push(struct scrollback *sb, const struct cell *cells, int ncols)
{
	scrollback_push_line(sb, cells, ncols, false);
}

/*
 * Take the oldest line out of a full ring, its slot now the newest (the
 * caller fills it with append): NULL when the ring is not full (or holds
 * nothing at all).
 */
static struct sb_line *
take_oldest(struct scrollback *sb)
{
	struct sb_line	*l;

	if (sb->max == 0 || sb->count < sb->max)
		return NULL;
	l = sb->lines[sb->head];
	sb->lines[sb->head] = NULL;
	sb->bytes -= line_size(l);
	sb->count--;
	if (++sb->head == sb->cap)
		sb->head = 0;
	return l;
}

/*
 * More slots for a ring whose slots are all taken, short of max: twice as
 * many (SB_FIRST_SLOTS at first), the lines moved in order to the first.
 */
static void
grow(struct scrollback *sb)
{
	struct sb_line	**lines;
	size_t		  cap, i;

	cap = sb->cap == 0 ? SB_FIRST_SLOTS : sb->cap * 2;
	if (cap > sb->max)
		cap = sb->max;
	lines = xcalloc(cap, sizeof *lines);
	for (i = 0; i < sb->count; i++)
		lines[i] = sb->lines[(sb->head + i) % sb->cap];
	free(sb->lines);
	sb->lines = lines;
	sb->cap = cap;
	sb->head = 0;
}

/* Append an encoded line; the oldest line goes when full. */
static void
append(struct scrollback *sb, struct sb_line *l)
{
	size_t	slot;

	free(take_oldest(sb));
	if (sb->count == sb->cap)
		grow(sb);
	slot = sb->head + sb->count;
	if (slot >= sb->cap)
		slot -= sb->cap;
	sb->lines[slot] = l;
	sb->count++;
	sb->bytes += line_size(l);
}

void
scrollback_push_line(struct scrollback *sb, const struct cell *cells,
    int ncols, bool wrapped)
{
	struct sb_line	*l;

	if (sb->sink != NULL)
		sb->sink(sb->sink_arg, cells, ncols, wrapped);
	if (sb->max == 0)
		return;
	l = encode(sb, cells, ncols, take_oldest(sb));
	l->wrapped = wrapped;
	append(sb, l);
}

void
scrollback_copy_line(struct scrollback *dst, const struct scrollback *src,
    size_t idx)
{
	const struct sb_line	*l;
	struct sb_line		*copy;

	if (dst->max == 0 || idx >= src->count)
		return;
	l = src->lines[(src->head + idx) % src->cap];
	copy = xmalloc(line_size(l));
	memcpy(copy, l, line_size(l));
	append(dst, copy);
}

int
scrollback_pop(struct scrollback *sb, struct cell *cells, int ncols)
{
	struct sb_line	*l;
	size_t		 slot;

	if (sb->count == 0)
		return 0;
	slot = (sb->head + sb->count - 1) % sb->cap;
	l = sb->lines[slot];
	decode(l, cells, ncols);
	sb->bytes -= line_size(l);
	free(l);
	sb->lines[slot] = NULL;
	sb->count--;
	return 1;
}

size_t
scrollback_count(const struct scrollback *sb)
{
	return sb->count;
}

size_t
scrollback_max(const struct scrollback *sb)
{
	return sb->max;
}

int
scrollback_width(const struct scrollback *sb, size_t idx)
{
	if (idx >= sb->count)
		return 0;
	return sb->lines[(sb->head + idx) % sb->cap]->ncells;
}

bool
scrollback_is_wrapped(const struct scrollback *sb, size_t idx)
{
	if (idx >= sb->count)
		return false;
	return sb->lines[(sb->head + idx) % sb->cap]->wrapped != 0;
}

int
scrollback_get(const struct scrollback *sb, size_t idx, struct cell *cells,
    int ncols)
{
	if (idx >= sb->count)
		return -1;
	return decode(sb->lines[(sb->head + idx) % sb->cap], cells, ncols);
}

bool
scrollback_text(const struct scrollback *sb, size_t idx, int ncols,
    bool trim, struct buf *out)
{
	const struct sb_line	*l;
	const char		*text;
	size_t			 len;

	if (idx >= sb->count)
		return false;
	l = sb->lines[(sb->head + idx) % sb->cap];
	if (l->has_counts || l->ncells > ncols)
		return false;
	/* One character per glyph, none over the edge: the text as stored. */
	text = (const char *)((const struct sb_run *)(l + 1) + l->nruns);
	len = l->textlen;
	while (trim && len > 0 && text[len - 1] == ' ')
		len--;		/* a space byte is a whole glyph in UTF-8 */
	buf_add(out, text, len);
	for (int pad = trim ? 0 : ncols - l->ncells; pad > 0; pad--)
		buf_addc(out, ' ');	/* blank cells are not stored */
	return true;
}

size_t
scrollback_memory(const struct scrollback *sb)
{
	/* Each line also costs its slot pointer and malloc's bookkeeping. */
	return sb->bytes + sb->count * (sizeof(void *) + 16) +
	    sb->cap * sizeof(void *);
}
