/*
 * test-screen.c - unit tests for a session's screen: text and attributes in
 * cells, wide characters, scrolling into the scrollback, the alternate
 * screen, resize, terminal replies, key encoding and damage events.
 */
#include "term/screen.h"

#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"

static struct buf	replies;
static int		ndamage;

static void
ev_damage(void *user, int srow, int erow, int scol, int ecol)
{
	(void)user;
	(void)srow;
	(void)erow;
	(void)scol;
	(void)ecol;
	ndamage++;
}

static void
ev_output(void *user, const char *data, size_t len)
{
	(void)user;
	buf_add(&replies, data, len);
}

static const struct screen_events events = {
	.damage = ev_damage,
	.output = ev_output,
};

static void
feed(struct screen *s, const char *str)
{
	screen_feed(s, str, strlen(str));
}

/* One row's text as a NUL-ended string in a static buffer. */
static const char *
row(struct screen *s, int r)
{
	static struct buf	b;

	b.len = 0;
	screen_row_text(s, r, &b);
	return buf_cstr(&b);
}

/* The whole text (with or without scrollback) in a static buffer. */
static const char *
text(struct screen *s, bool sb)
{
	static struct buf	b;

	b.len = 0;
	screen_text(s, sb, &b);
	return buf_cstr(&b);
}

static void
test_text_and_attrs(void)
{
	struct screen	*s = screen_new(5, 20, 100, &events, NULL);
	struct cell	 c;
	int		 r, col;
	bool		 vis;

	feed(s, "hello\r\n\x1b[1;31mB\x1b[0m\x1b[38;2;1;2;3;48;5;17mR\x1b[0m"
	    "\x1b[4;7mU\x1b[0m");
	is_str(row(s, 0), "hello", "row 0 text");
	is_str(row(s, 1), "BRU", "row 1 text");
	screen_cell(s, 0, 1, &c);
	ok(c.chars[0] == 'e' && c.width == 1 && c.attr.flags == 0 &&
	    c.attr.fg == CELL_COLOR_DEFAULT, "plain cell");
	screen_cell(s, 1, 0, &c);
	ok(c.chars[0] == 'B' && (c.attr.flags & CELL_BOLD) &&
	    c.attr.fg == (CELL_COLOR_INDEXED | 1), "SGR bold red reaches the cell");
	screen_cell(s, 1, 1, &c);
	ok(c.attr.fg == (CELL_COLOR_RGB | 0x010203) &&
	    c.attr.bg == (CELL_COLOR_INDEXED | 17) && c.attr.flags == 0,
	    "RGB foreground and indexed background");
	screen_cell(s, 1, 2, &c);
	ok((c.attr.flags & CELL_UNDERLINE) && (c.attr.flags & CELL_REVERSE),
	    "underline and reverse");
	screen_cursor(s, &r, &col, &vis);
	ok(r == 1 && col == 3 && vis, "cursor after the text, visible");
	feed(s, "\x1b[?25l\x1b]2;my title\x07");
	screen_cursor(s, &r, &col, &vis);
	ok(!vis, "cursor hidden by DECTCEM");
	is_str(screen_title(s), "my title", "OSC 2 sets the title");

	feed(s, "\r\n\xe4\xb8\xad" "x" "e\xcc\x81");
	screen_cell(s, 2, 0, &c);
	ok(c.chars[0] == 0x4e2d && c.width == 2, "wide char: width 2");
	screen_cell(s, 2, 1, &c);
	is_int(c.width, 0, "wide char: right half width 0");
	screen_cell(s, 2, 2, &c);
	is_int(c.chars[0], 'x', "the next char after the wide one");
	screen_cell(s, 2, 3, &c);
	ok(c.chars[0] == 'e' && c.chars[1] == 0x301, "combining char in the cell");
	is_str(row(s, 2), "\xe4\xb8\xad" "xe\xcc\x81", "row text with wide and "
	    "combining characters");
	screen_free(s);
	screen_free(NULL);
}

static void
test_scrollback(void)
{
	struct screen	*s = screen_new(3, 10, 100, &events, NULL);
	struct cell	 c;

	feed(s, "l1\r\nl2\r\nl3\r\nl4\r\nl5\r\nl6");
	is_int(screen_scrollback_count(s), 3, "3 lines scrolled off");
	is_str(row(s, -3), "l1", "row -3 is the oldest");
	is_str(row(s, -1), "l3", "row -1 is the newest scrolled-off line");
	is_str(row(s, 0), "l4", "row 0 is the top of the screen");
	screen_cell(s, -2, 1, &c);
	is_int(c.chars[0], '2', "screen_cell reads the scrollback");
	is_str(text(s, true), "l1\nl2\nl3\nl4\nl5\nl6\n",
	    "screen_text with scrollback: every line in order");
	is_str(text(s, false), "l4\nl5\nl6\n", "screen_text without scrollback");

	/* Alternate screen: nothing it shows goes to the scrollback. */
	feed(s, "\x1b[?1049h");
	ok(screen_altscreen(s), "alternate screen on");
	feed(s, "\x1b[H\x1b[2Ja1\r\na2\r\na3\r\na4\r\na5\r\na6");
	is_int(screen_scrollback_count(s), 3,
	    "alternate-screen scrolling adds no scrollback");
	is_str(row(s, 2), "a6", "alternate screen shows its text");
	feed(s, "\x1b[?1049l");
	ok(!screen_altscreen(s), "alternate screen off");
	is_str(text(s, false), "l4\nl5\nl6\n", "leaving restores the primary");

	/* Taller: lines come back from the scrollback. */
	screen_resize(s, 5, 10);
	is_int(screen_rows(s), 5, "5 rows after resize");
	is_int(screen_scrollback_count(s), 1, "two lines popped back");
	is_str(row(s, 0), "l2", "row 0 holds a popped line");
	is_str(text(s, true), "l1\nl2\nl3\nl4\nl5\nl6\n",
	    "nothing lost across the resize");
	screen_resize(s, 2, 10);
	is_str(text(s, true), "l1\nl2\nl3\nl4\nl5\nl6\n",
	    "shrinking pushes lines into the scrollback, nothing lost");
	screen_free(s);

	s = screen_new(2, 10, 0, &events, NULL);
	feed(s, "a\r\nb\r\nc");
	is_int(screen_scrollback_count(s), 0, "0 scrollback lines keeps none");
	screen_free(s);
}

static void
test_replies_and_keys(void)
{
	struct screen	*s = screen_new(24, 80, 10, &events, NULL);

	replies.len = 0;
	feed(s, "\x1b[3;5H\x1b[6n");
	is_str(buf_cstr(&replies), "\x1b[3;5R", "DSR 6 answers row;col");
	replies.len = 0;
	screen_key(s, SCREEN_KEY_ENTER, 0);
	is_str(buf_cstr(&replies), "\r", "Enter -> CR");
	replies.len = 0;
	screen_key(s, SCREEN_KEY_UP, 0);
	is_str(buf_cstr(&replies), "\x1b[A", "Up -> ESC [ A");
	replies.len = 0;
	feed(s, "\x1b[?1h");	/* application cursor keys */
	screen_key(s, SCREEN_KEY_UP, 0);
	is_str(buf_cstr(&replies), "\x1bOA", "Up in application mode -> ESC O A");
	replies.len = 0;
	screen_unichar(s, 'c', SCREEN_MOD_CTRL);
	is_int(replies.len == 1 ? (unsigned char)replies.data[0] : 0, 0x03,
	    "Ctrl-C -> 0x03");
	replies.len = 0;
	screen_unichar(s, 0x20ac, 0);
	is_str(buf_cstr(&replies), "\xe2\x82\xac", "a character as UTF-8");
	replies.len = 0;
	screen_key(s, SCREEN_KEY_F0 + 1, 0);
	is_str(buf_cstr(&replies), "\x1bOP", "F1 -> ESC O P");
	replies.len = 0;
	feed(s, "\x1b[?2004h");
	screen_paste(s, true);
	screen_paste(s, false);
	is_str(buf_cstr(&replies), "\x1b[200~\x1b[201~",
	    "bracketed paste markers");
	screen_free(s);
}

/*
 * A bare screen answers queries from the cursor libvterm tracks (after
 * text, wrapping, scrolling and a resize) and keeps no cells.
 */
static void
test_bare(void)
{
	struct screen	*s = screen_new_bare(5, 10, &events, NULL);

	replies.len = 0;
	feed(s, "hello\r\nworld, wrapped\x1b[6n");
	is_str(buf_cstr(&replies), "\x1b[3;5R", "a bare screen answers DSR 6 "
	    "where the text left the cursor (wrapped: row 3, column 5)");
	replies.len = 0;
	feed(s, "\r\n\r\n\r\n\r\n\r\nx\x1b[6n");
	is_str(buf_cstr(&replies), "\x1b[5;2R", "and after scrolling");
	replies.len = 0;
	feed(s, "\x1b[c");
	ok(replies.len > 3 && strncmp(replies.data, "\x1b[?", 3) == 0,
	    "it answers DA");
	is_str(row(s, 0), "", "its rows read blank");
	is_int(screen_scrollback_count(s), 0, "it keeps no scrollback");
	screen_resize(s, 3, 8);
	replies.len = 0;
	feed(s, "\x1b[9;9H\x1b[6n");
	is_str(buf_cstr(&replies), "\x1b[3;8R", "resized: the cursor is "
	    "held within 3x8");
	screen_free(s);
}

static void
test_damage(void)
{
	struct screen	*s = screen_new(5, 20, 10, &events, NULL);

	ndamage = 0;
	feed(s, "x");
	screen_flush_damage(s);
	ok(ndamage > 0, "damage callback fires after output (%d)", ndamage);
	ndamage = 0;
	screen_flush_damage(s);
	is_int(ndamage, 0, "no new damage without output");
	screen_free(s);

	s = screen_new(5, 20, 10, NULL, NULL);
	feed(s, "\x1b[6n\x07no events");
	is_str(row(s, 0), "no events", "a screen without events works");
	screen_free(s);
}

/* Writing over either half of a wide character blanks the other half. */
static void
test_wide_overwrite(void)
{
	struct screen	*s = screen_new(6, 20, 10, &events, NULL);
	struct cell	 c;

	/* x at 0, the three wide characters at 1-2, 3-4, 5-6, " done" after. */
	feed(s, "x\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e done\r\x1b[1Cline 01");
	is_str(row(s, 0), "xline 01done", "overwriting three wide characters "
	    "exactly keeps every cell");
	feed(s, "\r\nx\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e done\r\x1b[2Cab");
	is_str(row(s, 1), "x ab \xe8\xaa\x9e done", "starting on a right half "
	    "and ending on a left half blanks both other halves");
	screen_cell(s, 1, 1, &c);
	ok(c.chars[0] == 0 && c.width == 1, "the orphaned left half is a "
	    "blank cell of width 1");
	screen_cell(s, 1, 4, &c);
	ok(c.chars[0] == 0 && c.width == 1, "the orphaned right half too");
	feed(s, "\r\n\xe6\x97\xa5\xe6\x9c\xac\r\x1b[1CZ");
	is_str(row(s, 2), " Z\xe6\x9c\xac", "a narrow character on a right "
	    "half");
	feed(s, "\r\n\xe6\x97\xa5\xe6\x9c\xac\r\x1b[1C\xe8\xaa\x9e");
	is_str(row(s, 3), " \xe8\xaa\x9e", "a wide character across two "
	    "wide ones");
	screen_cell(s, 3, 3, &c);
	ok(c.chars[0] == 0 && c.width == 1, "... blanks the right half of "
	    "the second");
	feed(s, "\r\n\xe6\x97\xa5\xe6\x9c\xac\x1b[5;2H\x1b[1X");
	is_str(row(s, 4), "  \xe6\x9c\xac", "ECH on a right half blanks "
	    "the left");
	feed(s, "\r\n\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\x1b[6;3H\x1b[1P");
	is_str(row(s, 5), "\xe6\x97\xa5 \xe8\xaa\x9e", "DCH of a left "
	    "half leaves a blank, not half a character");
	is_str(text(s, false), "xline 01done\nx ab \xe8\xaa\x9e done\n"
	    " Z\xe6\x9c\xac\n \xe8\xaa\x9e\n  \xe6\x9c\xac\n"
	    "\xe6\x97\xa5 \xe8\xaa\x9e\n", "the text export keeps the "
	    "blanks in place");
	screen_free(s);
}

/*
 * Shrinking keeps libvterm's state inside the screen: a full screen with
 * the cursor at the top, a scroll region below the new bottom (both once
 * made libvterm write out of bounds; the ASan build catches it).
 */
static void
test_shrink_safely(void)
{
	struct screen	*s = screen_new(12, 24, 10, &events, NULL);
	int		 r, col;
	bool		 vis;

	feed(s, "\x1b#8");		/* DECALN: E everywhere, cursor home */
	screen_resize(s, 6, 2);
	feed(s, "\x1b[0J");
	screen_cursor(s, &r, &col, &vis);
	ok(r == 0 && col == 0, "the cursor stays on its row (%d,%d)", r, col);
	is_str(text(s, false), "", "ED from the top then clears the screen");
	screen_free(s);

	s = screen_new(12, 20, 10, &events, NULL);
	feed(s, "\x1b[8;10r\x1b[9;3Hab");
	screen_resize(s, 5, 20);
	feed(s, "\r\nline\r\n\x1bMx");
	screen_cursor(s, &r, &col, &vis);
	ok(r >= 0 && r < 5 && col == 1, "a region below the new bottom is "
	    "reset, the cursor kept in the screen (%d,%d)", r, col);
	replies.len = 0;
	feed(s, "\x1bP$qr\x1b\\");
	is_str(buf_cstr(&replies), "\x1bP1$r1;5r\x1b\\", "the region is the "
	    "whole new screen");
	screen_free(s);
}

/* DECSCA-protected cells survive a selective erase (DECSED, DECSEL). */
static void
test_protected(void)
{
	struct screen	*s = screen_new(3, 20, 10, &events, NULL);
	struct cell	 c;

	feed(s, "\x1b[1\"qAB\x1b[0\"qCD\r\nEF\x1b[1\"qGH\x1b[0\"q\x1b[?2J");
	is_str(row(s, 0), "AB", "DECSED keeps the protected cells only");
	is_str(row(s, 1), "  GH", "... on every row");
	screen_cell(s, 0, 0, &c);
	is_int(c.attr.flags, 0, "protection is not an attribute a renderer "
	    "sees");
	feed(s, "\x1b[2J");
	is_str(text(s, false), "", "ED erases protected cells too");
	screen_free(s);
}

/* A new width rewraps what the program wrote as one line, nothing else. */
static void
test_reflow(void)
{
	struct screen	*s = screen_new(4, 10, 100, &events, NULL);
	int		 r, col;
	bool		 vis;

	feed(s, "abcdefghijKLMNO\r\nxy");
	screen_resize(s, 4, 5);
	is_str(text(s, true), "abcde\nfghij\nKLMNO\nxy\n", "narrower: the "
	    "long line rewrapped, the short one kept");
	is_int(screen_scrollback_count(s), 1, "the row that no longer fits "
	    "went to the scrollback");
	screen_cursor(s, &r, &col, &vis);
	ok(r == 2 && col == 2, "the cursor stays after xy (%d,%d)", r, col);
	screen_resize(s, 4, 20);
	is_str(text(s, true), "abcdefghijKLMNO\nxy\n", "wider: joined again, "
	    "the scrollback's part too");
	is_int(screen_scrollback_count(s), 0, "the scrollback gave it back");
	screen_cursor(s, &r, &col, &vis);
	ok(r == 1 && col == 2, "the cursor follows (%d,%d)", r, col);
	feed(s, "!");
	is_str(row(s, 1), "xy!", "and text goes on where it was");
	screen_free(s);

	/* A row filled exactly, then CR LF: two lines, never joined. */
	s = screen_new(4, 10, 100, &events, NULL);
	feed(s, "0123456789\r\nnext");
	screen_resize(s, 4, 5);
	screen_resize(s, 4, 20);
	is_str(text(s, true), "0123456789\nnext\n", "a hard line break "
	    "survives narrowing and widening");
	/* Rewriting the end of a wrapped row with EL ends the wrap. */
	feed(s, "\x1b[H\x1b[2J\x1b[3J");
	screen_resize(s, 4, 10);
	feed(s, "\x1b[Habcdefghijkl\x1b[1;8H\x1b[K");
	screen_resize(s, 4, 20);
	is_str(text(s, false), "abcdefg\nkl\n", "an erased row end is no "
	    "longer joined to the next row");
	screen_free(s);
}

/* One row as part of the line the program wrote: "text|" when it goes on. */
static const char *
wrapped_row(struct screen *s, int r)
{
	static struct buf	b;

	b.len = 0;
	if (screen_row_text_wrapped(s, r, &b))
		buf_addc(&b, '|');
	return buf_cstr(&b);
}

/* Rows the terminal wrapped are told apart from rows a newline ended. */
static void
test_wrapped_rows(void)
{
	struct screen	*s = screen_new(3, 5, 100, &events, NULL);

	/* "abcd " fills the first row, its last column a space. */
	feed(s, "abcd efghij\r\nxy  \r\nfoo\r\nbar");
	is_int(screen_scrollback_count(s), 3, "three rows scrolled off");
	is_str(wrapped_row(s, -3), "abcd |", "a wrapped row keeps its "
	    "trailing blank, and goes on");
	is_str(wrapped_row(s, -2), "efghi|", "... in the next one");
	is_str(wrapped_row(s, -1), "j", "the line's end does not go on");
	is_str(wrapped_row(s, 0), "xy", "a newline's row: blanks dropped");
	is_str(wrapped_row(s, 2), "bar", "the bottom row");
	screen_free(s);
}

/* DECCOLM, which libvterm ignores: cleared and homed, split or not. */
static void
test_deccolm(void)
{
	struct screen	*s = screen_new(4, 20, 100, &events, NULL);

	feed(s, "one\r\ntwo\x1b[?");
	feed(s, "3hX");
	is_str(row(s, 0), "X", "CSI ? 3 h split over two feeds: cleared, "
	    "the cursor home");
	is_str(row(s, 1), "", "... the rest cleared");
	feed(s, "\r\nthree\x1b[?4;3lY");
	is_str(row(s, 0), "Y", "CSI ? 4 ; 3 l: 3 among the modes");
	feed(s, "\r\nfour\x1b[?\r3hZ");
	is_str(row(s, 0), "Z", "a C0 control inside the sequence: still it");
	feed(s, "\r\nkept\x1b[?13h\x1b[?3$h\x1b[3h\x1b[?3\x18h");
	is_str(row(s, 1), "kepth", "not DECCOLM: mode 13, an intermediate, "
	    "no '?', cancelled by CAN (its 'h' then printed)");
	screen_free(s);
}

int
main(void)
{
	test_text_and_attrs();
	test_scrollback();
	test_replies_and_keys();
	test_bare();
	test_damage();
	test_wide_overwrite();
	test_reflow();
	test_wrapped_rows();
	test_protected();
	test_shrink_safely();
	test_deccolm();
	buf_free(&replies);
	return tap_done();
}
