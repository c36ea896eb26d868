/*
 * test-screen-redraw.c - unit tests for a screen drawn anew (screen_redraw):
 * the bytes fed to a fresh screen of the same size make every cell the
 * same (characters, widths, attributes, colours of each kind), the cursor
 * and its visibility, the alternate screen and the program's pen; blank
 * rows cost nothing; the bound leaves whole rows out and says so.
 */
#include "term/screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"

static void
feed(struct screen *s, const char *str)
{
	screen_feed(s, str, strlen(str));
}

/* Whether every cell of a and b is the same; the first difference said. */
static bool
same_cells(struct screen *a, struct screen *b)
{
	struct cell	ca, cb;
	int		row, col;

	for (row = 0; row < screen_rows(a); row++)
		for (col = 0; col < screen_cols(a); col++) {
			screen_cell(a, row, col, &ca);
			screen_cell(b, row, col, &cb);
			/* An empty cell and a space look the same. */
			if (ca.chars[0] == ' ' && ca.chars[1] == 0)
				ca.chars[0] = 0;
			if (cb.chars[0] == ' ' && cb.chars[1] == 0)
				cb.chars[0] = 0;
			if (memcmp(ca.chars, cb.chars, sizeof ca.chars) != 0 ||
			    ca.width != cb.width ||
			    !cell_attr_eq(&ca.attr, &cb.attr)) {
				diag("row %d col %d: U+%04X w%d f%x %x/%x, "
				    "want U+%04X w%d f%x %x/%x", row, col,
				    cb.chars[0], cb.width, cb.attr.flags,
				    cb.attr.fg, cb.attr.bg, ca.chars[0],
				    ca.width, ca.attr.flags, ca.attr.fg,
				    ca.attr.bg);
				return false;
			}
		}
	return true;
}

/* A fresh screen of a's size fed a's dump; *dump holds it. */
static struct screen *
redrawn(struct screen *a, size_t max, struct buf *dump, bool *whole)
{
	struct screen	*b = screen_new(screen_rows(a), screen_cols(a), 100,
			    NULL, NULL);

	dump->len = 0;
	*whole = screen_redraw(a, max, dump);
	screen_feed(b, dump->data, dump->len);
	return b;
}

static void
test_round_trip(void)
{
	struct screen	*a = screen_new(6, 30, 100, NULL, NULL), *b;
	struct buf	 d = { 0 };
	struct cell	 ca, cb;
	int		 ra, ca_, rb, cb_;
	bool		 va, vb, whole;

	feed(a, "plain text\r\n");
	feed(a, "\033[1;3;4mbold italic under\033[0m \033[7mrev\033[0m\r\n");
	feed(a, "\033[31mred\033[92m bright\033[38;5;200m idx\033[38;2;1;2;3m"
	    " rgb\033[0m\r\n");
	feed(a, "\033[44mblue bg\033[48;2;9;8;7m rgb bg\033[0m \033[9;5mx\033[0m"
	    "\r\n");
	feed(a, "wide \xe4\xb8\xad\xe6\x96\x87 e\xcc\x81 done");
	feed(a, "\033[3;12H\033[33;1m");	/* the pen left yellow bold */
	b = redrawn(a, 1 << 20, &d, &whole);
	ok(whole, "a small screen is drawn whole");
	ok(same_cells(a, b), "every cell the same: characters, wide and "
	    "combining, attributes, indexed, bright, 256 and RGB colours");
	screen_cursor(a, &ra, &ca_, &va);
	screen_cursor(b, &rb, &cb_, &vb);
	ok(ra == rb && ca_ == cb_ && va == vb, "the cursor where it was "
	    "(%d,%d), shown", rb, cb_);
	feed(a, "P");
	feed(b, "P");
	screen_cell(a, 2, 11, &ca);
	screen_cell(b, 2, 11, &cb);
	ok(cb.chars[0] == 'P' && cell_attr_eq(&ca.attr, &cb.attr),
	    "what the program writes next has its pen (yellow, bold)");
	ok(strstr(d.data, "\033[2J") != NULL && !screen_altscreen(b),
	    "it clears the screen first; the primary screen stays");
	screen_free(b);
	screen_free(a);
	buf_free(&d);
}

static void
test_alt_hidden(void)
{
	struct screen	*a = screen_new(5, 20, 100, NULL, NULL), *b;
	struct buf	 d = { 0 };
	int		 r, c;
	bool		 v, whole;

	feed(a, "on the primary\r\n\033[?1049h\033[?25l\033[2;3Hin vim\033[5;1H~");
	b = redrawn(a, 1 << 20, &d, &whole);
	ok(screen_altscreen(b), "a program on the alternate screen: drawn "
	    "there");
	ok(same_cells(a, b), "the alternate screen's cells");
	screen_cursor(b, &r, &c, &v);
	ok(!v && r == 4 && c == 1, "the cursor hidden, where it was");
	screen_free(b);
	screen_free(a);
	buf_free(&d);
}

static void
test_bounds(void)
{
	struct screen	*a = screen_new(24, 80, 100, NULL, NULL), *b;
	struct buf	 d = { 0 };
	struct cell	 c;
	char		 line[128];
	size_t		 empty;
	bool		 whole;
	int		 i;

	b = redrawn(a, 1 << 20, &d, &whole);
	empty = d.len;
	ok(whole && empty < 32, "a blank screen is a few bytes (%zu)", empty);
	screen_free(b);
	for (i = 0; i < 24; i++) {
		snprintf(line, sizeof line, "\033[%d;1Hrow %02d %s", i + 1, i,
		    "0123456789012345678901234567890123456789");
		feed(a, line);
	}
	b = redrawn(a, 400, &d, &whole);
	ok(!whole && d.len <= 400 + 32, "past the bound: false, within it "
	    "(%zu bytes)", d.len);
	screen_cell(b, 0, 4, &c);
	ok(c.chars[0] == '0', "the rows before the bound are drawn");
	screen_cell(b, 23, 0, &c);
	ok(c.chars[0] == 0, "the rows past it are left out");
	screen_free(b);
	screen_free(a);
	buf_free(&d);
}

int
main(void)
{
	test_round_trip();
	test_alt_hidden();
	test_bounds();
	return tap_done();
}
