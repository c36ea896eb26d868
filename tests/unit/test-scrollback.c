/*
 * test-scrollback.c - unit tests for the compact scrollback ring: cells
 * round-trip (text, attributes, colours, wide and combining characters),
 * trailing blanks are not stored, the ring is bounded and ordered (its
 * slots made as lines come; it trades its oldest line's memory for the
 * newest's intact), and 10,000 lines of 100 columns cost 1-2.5 MB.
 */
#include "term/scrollback.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/util.h"
#include "tests/tap.h"

#define COLS 100

/* Fill cells[0..n) with blank default cells. */
static void
blank(struct cell *cells, int n)
{
	memset(cells, 0, (size_t)n * sizeof *cells);
	for (int i = 0; i < n; i++)
		cells[i].width = 1;
}

/* Put ASCII s at column col with attribute a. */
static int
put(struct cell *cells, int col, const char *s, struct cell_attr a)
{
	for (; *s != '\0'; s++, col++) {
		memset(&cells[col], 0, sizeof cells[col]);
		cells[col].chars[0] = (unsigned char)*s;
		cells[col].width = 1;
		cells[col].attr = a;
	}
	return col;
}

/* True when two cells are equal in what a renderer uses. */
static int
cell_same(const struct cell *a, const struct cell *b)
{
	int	i;

	if (a->width != b->width || !cell_attr_eq(&a->attr, &b->attr))
		return 0;
	if (a->width == 0)
		return 1;
	for (i = 0; i < CELL_MAX_CHARS; i++) {
		/* An empty cell and a space are the same glyph. */
		uint32_t x = a->chars[i], y = b->chars[i];

		if (i == 0 && (x == ' ' || x == 0) && (y == ' ' || y == 0))
			continue;
		if (x != y)
			return 0;
		if (x == 0)
			break;
	}
	return 1;
}

/* Compare n cells; report the first difference. */
static int
cells_same(const struct cell *a, const struct cell *b, int n)
{
	for (int i = 0; i < n; i++) {
		if (!cell_same(&a[i], &b[i])) {
			diag("column %d differs: U+%04X/%u w%u vs U+%04X/%u w%u",
			    i, (unsigned)a[i].chars[0], a[i].attr.flags,
			    a[i].width, (unsigned)b[i].chars[0],
			    b[i].attr.flags, b[i].width);
			return 0;
		}
	}
	return 1;
}

static void
test_round_trip(void)
{
	struct scrollback	*sb = scrollback_new(10);
	struct cell		 in[COLS], out[COLS];
	struct cell_attr	 plain = { 0, 0, 0 };
	struct cell_attr	 bold = { CELL_BOLD | CELL_UNDERLINE,
				    CELL_COLOR_INDEXED | 196, CELL_COLOR_DEFAULT };
	struct cell_attr	 rgb = { CELL_ITALIC | CELL_REVERSE |
				    CELL_STRIKE, CELL_COLOR_RGB | 0x123456,
				    CELL_COLOR_RGB | 0xfedcba };
	struct cell_attr	 idx0 = { 0, CELL_COLOR_INDEXED | 0,
				    CELL_COLOR_INDEXED | 255 };
	int			 col, n;

	blank(in, COLS);
	col = put(in, 0, "plain ", plain);
	col = put(in, col, "bold red", bold);
	col = put(in, col, " rgb ", rgb);
	col = put(in, col, "idx0", idx0);
	/* A wide CJK character: width 2, then its right half. */
	in[col].chars[0] = 0x4e2d;
	in[col].width = 2;
	in[col].attr = bold;
	in[col + 1].width = 0;
	in[col + 1].attr = bold;
	col += 2;
	/* Combining: e + U+0301 + U+0323 in one cell. */
	in[col].chars[0] = 'e';
	in[col].chars[1] = 0x301;
	in[col].chars[2] = 0x323;
	in[col].attr = plain;
	col++;
	/* An emoji (4-byte UTF-8), wide. */
	in[col].chars[0] = 0x1f600;
	in[col].width = 2;
	in[col + 1].width = 0;
	col += 2;
	/* A blank with a background colour is not trailing garbage. */
	in[col].attr.bg = CELL_COLOR_INDEXED | 4;
	col++;

	scrollback_push(sb, in, COLS);
	is_int(scrollback_count(sb), 1, "one line held");
	n = scrollback_get(sb, 0, out, COLS);
	is_int(n, col, "stored width ends after the last non-blank cell");
	ok(cells_same(in, out, COLS),
	    "text, attributes, default/indexed/RGB colours, wide and "
	    "combining cells round-trip");
	is_int(out[col - 6].chars[0], 0x4e2d, "wide char kept");
	ok(out[col - 6].width == 2 && out[col - 5].width == 0,
	    "wide char is width 2 with a right half");
	ok(out[col - 4].chars[1] == 0x301 && out[col - 4].chars[2] == 0x323 &&
	    out[col - 4].chars[3] == 0, "combining characters kept in order");
	is_int(scrollback_get(sb, 1, out, COLS), -1, "index past the end: -1");

	/* Read into a narrower buffer: no overflow, prefix kept. */
	n = scrollback_get(sb, 0, out, 10);
	ok(cells_same(in, out, 10), "get into fewer columns keeps the prefix");

	/* A full-width line of combining characters with 6 code points. */
	blank(in, COLS);
	for (col = 0; col < COLS; col++) {
		in[col].chars[0] = 'a';
		for (int k = 1; k < CELL_MAX_CHARS; k++)
			in[col].chars[k] = 0x300 + (uint32_t)k;
	}
	scrollback_push(sb, in, COLS);
	scrollback_get(sb, 1, out, COLS);
	ok(cells_same(in, out, COLS), "cells full of combining marks");
	scrollback_free(sb);
	scrollback_free(NULL);
	ok(1, "scrollback_free(NULL) is a no-op");
}

static void
test_trailing_blanks(void)
{
	struct scrollback	*sb = scrollback_new(4);
	struct cell		 in[COLS], out[COLS];
	size_t			 before, after;

	blank(in, COLS);
	put(in, 0, "ab", (struct cell_attr){ 0, 0, 0 });
	scrollback_push(sb, in, COLS);
	is_int(scrollback_get(sb, 0, out, COLS), 2,
	    "trailing blanks are trimmed (2 cells kept)");
	ok(out[50].chars[0] == 0 && out[50].width == 1 &&
	    out[50].attr.flags == 0, "padding comes back blank");

	before = scrollback_memory(sb);
	blank(in, COLS);
	scrollback_push(sb, in, COLS);
	after = scrollback_memory(sb);
	is_int(scrollback_get(sb, 1, out, COLS), 0, "an empty line is 0 cells");
	ok(after - before < 64, "an empty line costs little (%zu bytes)",
	    after - before);
	scrollback_free(sb);
}

/* Soft-wrap marks, widths and copies between rings (for reflow). */
static void
test_wrapped_and_copy(void)
{
	struct scrollback	*a = scrollback_new(4), *b = scrollback_new(2);
	struct cell		 in[COLS], out[COLS];

	blank(in, COLS);
	put(in, 0, "wrapped", (struct cell_attr){ CELL_BOLD, 0, 0 });
	scrollback_push_line(a, in, COLS, true);
	blank(in, COLS);
	put(in, 0, "end", (struct cell_attr){ 0, 0, 0 });
	scrollback_push(a, in, COLS);
	ok(scrollback_is_wrapped(a, 0) && !scrollback_is_wrapped(a, 1),
	    "the wrap mark is kept per line");
	ok(!scrollback_is_wrapped(a, 2), "no line 2, not wrapped");
	is_int(scrollback_width(a, 0), 7, "a line's width without blanks");
	is_int(scrollback_width(a, 9), 0, "no line 9: width 0");
	scrollback_copy_line(b, a, 0);
	scrollback_copy_line(b, a, 1);
	scrollback_copy_line(b, a, 5);
	is_int(scrollback_count(b), 2, "two lines copied, a missing one not");
	is_int(scrollback_get(b, 0, out, COLS), 7, "the copy has the cells");
	ok(out[0].chars[0] == 'w' && (out[0].attr.flags & CELL_BOLD) &&
	    scrollback_is_wrapped(b, 0), "... attributes and the mark too");
	scrollback_copy_line(b, a, 1);
	is_int(scrollback_count(b), 2, "copying into a full ring drops the "
	    "oldest");
	ok(!scrollback_is_wrapped(b, 0) && !scrollback_is_wrapped(b, 1),
	    "... which was the wrapped one");
	ok(scrollback_memory(b) > 0 && scrollback_max(b) == 2,
	    "memory counted, bound kept");
	scrollback_free(a);
	scrollback_free(b);
}

/* A line whose text is the number i. */
static void
numbered(struct cell *cells, int ncols, int i)
{
	char	s[32];

	blank(cells, ncols);
	snprintf(s, sizeof s, "line %d", i);
	put(cells, 0, s, (struct cell_attr){ 0, 0, 0 });
}

/* The number of a line made by numbered(), or -1. */
static int
number_of(const struct cell *cells)
{
	char	s[32];
	int	i;

	for (i = 0; i < 31 && cells[i].chars[0] != 0; i++)
		s[i] = (char)cells[i].chars[0];
	s[i] = '\0';
	return strncmp(s, "line ", 5) == 0 ? atoi(s + 5) : -1;
}

/* Push the lines numbered from to to-1, 40 columns each. */
static void
push_numbered(struct scrollback *sb, int from, int to)
{
	struct cell	line[40];
	int		i;

	for (i = from; i < to; i++) {
		numbered(line, 40, i);
		scrollback_push(sb, line, 40);
	}
}

/* Whether sb's lines are numbered first, first + 1, ... to its newest. */
static bool
numbered_in_order(const struct scrollback *sb, int first)
{
	struct cell	line[40];
	size_t		i;

	for (i = 0; i < scrollback_count(sb); i++) {
		scrollback_get(sb, i, line, 40);
		if (number_of(line) != first + (int)i)
			return false;
	}
	return true;
}

static void
test_ring(void)
{
	struct scrollback	*sb = scrollback_new(100);
	struct cell		 line[40];

	push_numbered(sb, 0, 110);
	is_int(scrollback_count(sb), 100, "push max+10: count == max");
	scrollback_get(sb, 0, line, 40);
	is_int(number_of(line), 10, "the 10 oldest were dropped");
	ok(numbered_in_order(sb, 10), "order kept across the wrap");
	is_int(scrollback_pop(sb, line, 40), 1, "pop returns a line");
	is_int(number_of(line), 109, "pop returns the newest");
	is_int(scrollback_count(sb), 99, "count drops by one");
	numbered(line, 40, 500);
	scrollback_push(sb, line, 40);
	scrollback_get(sb, 99, line, 40);
	is_int(number_of(line), 500, "push after pop lands at the end");
	scrollback_get(sb, 0, line, 40);
	is_int(number_of(line), 10, "and the oldest is unchanged");
	scrollback_clear(sb);
	is_int(scrollback_count(sb), 0, "clear empties the ring");
	is_int(scrollback_pop(sb, line, 40), 0, "pop on empty returns 0");
	scrollback_free(sb);

	sb = scrollback_new(0);
	numbered(line, 40, 1);
	scrollback_push(sb, line, 40);
	is_int(scrollback_count(sb), 0, "a 0-capacity ring keeps nothing");
	is_int(scrollback_pop(sb, line, 40), 0, "and pops nothing");
	is_int(scrollback_get(sb, 0, line, 40), -1, "and gets nothing");
	scrollback_free(sb);
}

/*
 * Line i of test_reuse: a length and attributes that change from line to
 * line, so that the blocks a full ring trades are sometimes too small,
 * sometimes large enough and sometimes far too large for the next line.
 */
static void
varied(struct cell *cells, int ncols, int i)
{
	struct cell_attr	 a = { 0, CELL_COLOR_INDEXED | (uint32_t)(i % 8), 0 };
	int			 len = (i * 37) % ncols + 1, col;

	blank(cells, ncols);
	for (col = 0; col < len; col++) {
		cells[col].chars[0] = (uint32_t)('a' + (i + col) % 26);
		cells[col].attr = col % 7 == 3 ? a : (struct cell_attr){ 0, 0, 0 };
	}
	if (i % 5 == 0 && len > 3) {		/* a wide glyph now and then */
		memset(&cells[1], 0, 2 * sizeof cells[1]);
		cells[1].chars[0] = 0x65e5;
		cells[1].width = 2;
		cells[2].width = 0;
	}
}

/*
 * The ring's slots made as lines come: one line in a ring of 10,000 costs
 * a few slots, and a ring that grew in steps keeps its lines in order
 * through the steps, a pop, its wrap and a clear.
 */
static void
test_grow(void)
{
	struct scrollback	*sb = scrollback_new(10000);
	struct cell		 line[40];

	push_numbered(sb, 0, 1);
	ok(scrollback_memory(sb) < 10000 * sizeof(void *) / 10,
	    "one line in a ring of 10,000 makes a few slots (%zu bytes)",
	    scrollback_memory(sb));
	scrollback_free(sb);

	sb = scrollback_new(300);
	push_numbered(sb, 0, 200);
	is_int(scrollback_pop(sb, line, 40), 1, "a grown ring pops");
	is_int(number_of(line), 199, "... its newest line");
	push_numbered(sb, 199, 700);
	is_int(scrollback_count(sb), 300, "grown to its bound, no further");
	ok(numbered_in_order(sb, 400),
	    "order kept through the steps and the wrap");
	scrollback_clear(sb);
	push_numbered(sb, 0, 100);
	scrollback_get(sb, 99, line, 40);
	ok(scrollback_count(sb) == 100 && number_of(line) == 99,
	    "cleared, it fills again from its first slot");
	scrollback_free(sb);
}

static void
test_reuse(void)
{
	struct scrollback	*sb = scrollback_new(50), *fresh;
	struct cell		 in[COLS], out[COLS];
	int			 i, same = 1;

	for (i = 0; i < 5000; i++) {
		varied(in, COLS, i);
		scrollback_push(sb, in, COLS);
	}
	for (i = 0; i < 50; i++) {
		varied(in, COLS, 4950 + i);
		scrollback_get(sb, (size_t)i, out, COLS);
		if (!cells_same(in, out, COLS)) {
			diag("line %d of the ring differs", i);
			same = 0;
		}
	}
	ok(same, "a full ring trading lines of every length: each reads back");
	fresh = scrollback_new(50);
	for (i = 4950; i < 5000; i++) {
		varied(in, COLS, i);
		scrollback_push(fresh, in, COLS);
	}
	is_int((int)scrollback_memory(sb), (int)scrollback_memory(fresh),
	    "... and counts the bytes of a ring that held only those lines");
	scrollback_free(fresh);
	scrollback_free(sb);
}

static void
test_memory(void)
{
	struct mallinfo2	 before = mallinfo2(), after;
	struct scrollback	*sb = scrollback_new(10000);
	struct cell		 line[COLS];
	struct cell_attr	 plain = { 0, 0, 0 };
	struct cell_attr	 green = { 0, CELL_COLOR_INDEXED | 2, 0 };
	struct cell_attr	 bold = { CELL_BOLD, CELL_COLOR_RGB | 0xff8800,
				    0 };
	size_t			 mem;
	int			 i, col;
	char			 text[COLS + 1];

	for (i = 0; i < 10000; i++) {
		blank(line, COLS);
		/* 100 printable columns in three attribute runs. */
		for (col = 0; col < COLS; col++)
			text[col] = (char)('!' + (i + col) % 94);
		text[COLS] = '\0';
		put(line, 0, text, plain);
		for (col = 20; col < 30; col++)
			line[col].attr = green;
		for (col = 60; col < 65; col++)
			line[col].attr = bold;
		scrollback_push(sb, line, COLS);
	}
	mem = scrollback_memory(sb);
	after = mallinfo2();
	/* Cross-check with the allocator (meaningless under sanitizers). */
	diag("heap in use grew by %zu bytes", after.uordblks - before.uordblks);
	diag("scrollback_memory: 10000 lines x 100 columns, 5 runs each = "
	    "%zu bytes (%.2f MB)", mem, mem / 1e6);
	ok(mem >= 1000000 && mem <= 2500000,
	    "10,000 x 100 columns cost between 1 and 2.5 MB");
	scrollback_get(sb, 9999, line, COLS);
	ok(line[25].attr.fg == (CELL_COLOR_INDEXED | 2) &&
	    line[62].attr.flags == CELL_BOLD && line[99].chars[0] ==
	    (uint32_t)('!' + (9999 + 99) % 94), "the last line reads back");
	scrollback_clear(sb);
	ok(scrollback_memory(sb) < 100000,
	    "clear releases the lines (%zu bytes left: the slot array)",
	    scrollback_memory(sb));
	scrollback_free(sb);
}

/*
 * The text of n decoded cells as a front end reads it: a space for an
 * empty cell, right halves skipped, trailing spaces dropped when trim.
 */
static void
cells_ref_text(const struct cell *c, int n, bool trim, struct buf *out)
{
	char	u[4];
	int	end = n;

	while (trim && end > 0 && (c[end - 1].chars[0] == 0 ||
	    c[end - 1].chars[0] == ' ') && c[end - 1].width != 0)
		end--;
	for (int i = 0; i < end; i++) {
		if (c[i].width == 0)
			continue;
		if (c[i].chars[0] == 0)
			buf_addc(out, ' ');
		for (int k = 0; k < CELL_MAX_CHARS && c[i].chars[k]; k++)
			buf_add(out, u, utf8_put(c[i].chars[k], u));
	}
}

/* scrollback_text of line idx against decoding it: true when they agree. */
static int
text_agrees(const struct scrollback *sb, size_t idx, int ncols, bool trim)
{
	struct cell	cells[COLS];
	struct buf	fast = { 0 }, ref = { 0 };
	int		same;

	if (!scrollback_text(sb, idx, ncols, trim, &fast)) {
		diag("line %zu: not read from its text", idx);
		return 0;
	}
	scrollback_get(sb, idx, cells, ncols);
	cells_ref_text(cells, ncols, trim, &ref);
	same = fast.len == ref.len &&
	    (ref.len == 0 || memcmp(fast.data, ref.data, ref.len) == 0);
	if (!same)
		diag("line %zu: \"%.*s\" vs \"%.*s\"", idx, (int)fast.len,
		    fast.data, (int)ref.len, ref.data);
	buf_free(&fast);
	buf_free(&ref);
	return same;
}

static void
test_text(void)
{
	struct scrollback	*sb = scrollback_new(10);
	struct cell		 in[COLS];
	struct cell_attr	 plain = { 0, 0, 0 };
	struct cell_attr	 blue = { 0, 0, CELL_COLOR_INDEXED | 4 };
	struct buf		 b = { 0 };
	int			 col;

	blank(in, COLS);
	col = put(in, 0, "  two  spaces  ", plain);
	scrollback_push(sb, in, COLS);			/* 0 */
	blank(in, COLS);
	col = put(in, 0, "x", plain);
	in[col].chars[0] = 0x65e5;	/* a wide glyph, then blanks on blue */
	in[col].width = 2;
	in[col + 1].width = 0;
	col = put(in, col + 2, "  ", blue);
	in[col].attr = blue;		/* an empty cell on blue */
	scrollback_push(sb, in, COLS);			/* 1 */
	blank(in, COLS);
	scrollback_push(sb, in, COLS);			/* 2: empty */
	blank(in, COLS);
	put(in, 0, "wrapped", plain);
	scrollback_push_line(sb, in, COLS, true);	/* 3 */
	for (size_t i = 0; i < 4; i++) {
		ok(text_agrees(sb, i, COLS, true) &&
		    text_agrees(sb, i, COLS, false),
		    "line %zu: its stored text is what its cells read", i);
	}
	ok(text_agrees(sb, 1, 6, true) && text_agrees(sb, 1, 6, false),
	    "in just as many columns as it has");
	ok(!scrollback_text(sb, 1, 5, true, &b) && b.len == 0,
	    "a line wider than the screen is left to decoding");
	blank(in, COLS);
	in[0].chars[0] = 'e';
	in[0].chars[1] = 0x301;
	scrollback_push(sb, in, COLS);			/* 4 */
	ok(!scrollback_text(sb, 4, COLS, true, &b) && b.len == 0,
	    "a cell with combining characters is left to decoding");
	ok(!scrollback_text(sb, 5, COLS, true, &b) && b.len == 0,
	    "past the end: nothing");
	scrollback_free(sb);
}

int
main(void)
{
	test_round_trip();
	test_trailing_blanks();
	test_wrapped_and_copy();
	test_ring();
	test_grow();
	test_reuse();
	test_memory();
	test_text();
	return tap_done();
}
