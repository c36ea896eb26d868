/*
 * test-screen.c - unit tests for a session's screen: text and attributes in
 * cells, wide characters, scrolling into the scrollback, the alternate
 * screen, resize, terminal replies, key encoding and damage events.
 */
#include "term/screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
/*
 * OSC 7: the directory a shell reports, kept decoded, on a full screen and
 * a bare one alike; a long path arrives whole, other OSCs change nothing.
 */
static void
test_cwd(void)
{
	struct screen	*s = screen_new(5, 20, 10, &events, NULL);
	struct screen	*b = screen_new_bare(5, 20, &events, NULL);
	struct buf	 lng = { 0 }, seq = { 0 };
	int		 i;

	ok(screen_cwd(s) == NULL, "no OSC 7: no directory");
	feed(s, "\x1b]7;file://host.example/home/u/my%20dir\x07" "ab");
	is_str(screen_cwd(s), "/home/u/my dir", "OSC 7 file://HOST/PATH, "
	    "percent-decoded");
	is_str(row(s, 0), "ab", "it prints nothing");
	feed(s, "\x1b]7;/srv/x%41\x1b\\");
	is_str(screen_cwd(s), "/srv/x%41", "a bare path, as it is, ended by "
	    "ST");
	feed(s, "\x1b]7;relative\x07\x1b]7;file://h\x07\x1b]8;;u\x07");
	is_str(screen_cwd(s), "/srv/x%41", "a relative path, no path and another "
	    "OSC change nothing");
	feed(s, "\x1b]7;file://h/a%00b\x07");
	is_str(screen_cwd(s), "/srv/x%41", "a NUL in the path changes nothing");
	buf_adds(&lng, "/");
	for (i = 0; i < 40; i++)
		buf_adds(&lng, "long-directory-name/");
	buf_printf(&seq, "\x1b]7;file://h%s\x07", buf_cstr(&lng));
	feed(b, buf_cstr(&seq));
	is_str(screen_cwd(b) != NULL ? screen_cwd(b) : "(none)",
	    buf_cstr(&lng), "a bare screen keeps it too, 801 bytes whole");
	buf_free(&lng);
	buf_free(&seq);
	screen_free(s);
	screen_free(b);
}

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
/*
 * DECSTBM of under two lines once clamped to the screen: ignored, as xterm
 * and tmux ignore it (libvterm would reset the margins and home the
 * cursor); a valid one still sets the region and homes the cursor.
 */
static void
test_decstbm(void)
{
	static const char *const ignored[] = {
		"\x1b[40;41r", "\x1b[5;5r", "\x1b[9r", "\x1b[6;3r",
		"\x1b[30;0r", "\x1b[6;6;2r",
	};
	struct screen	*s = screen_new(6, 20, 100, &events, NULL);
	size_t		 i;
	int		 r, c;
	bool		 vis;

	feed(s, "\x1b[2;4r");		/* a region: rows 2 to 4 */
	for (i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
		feed(s, "\x1b[3;7H");
		feed(s, ignored[i]);
		screen_cursor(s, &r, &c, &vis);
		ok(r == 2 && c == 6, "DECSTBM %zu (under two lines on 6 rows): "
		    "the cursor stays", i);
	}
	feed(s, "\x1b[4;1H\n\n\nX");
	is_str(row(s, 3), "X", "... and the region too: LF at its bottom "
	    "scrolls it, the cursor stays on row 4");
	feed(s, "\x1b[3;7H\x1b[4");
	feed(s, "0;41rY");
	is_str(row(s, 2), "      Y", "split over two feeds: ignored all the "
	    "same, the text where the cursor was");
	feed(s, "\x1b[3;7H\x1b[3;6r");
	screen_cursor(s, &r, &c, &vis);
	ok(r == 0 && c == 0, "a valid one (3;6): the cursor home");
	feed(s, "\x1b[3;7H\x1b[;r\x1b[6;1H\nZ");
	is_str(row(s, 5), "Z", "CSI ; r: the whole screen, scrolled at its "
	    "bottom");
	screen_free(s);
}

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

/*
 * Plain lines (printable ASCII ended by CR LF at the bottom of a screen
 * that scrolls whole) are written by the screen itself once libvterm's
 * state is proven to allow it.  The reference: a screen fed the same
 * pieces with that way turned off, every byte through libvterm.
 */

/* Every row's cells, the scrollback's too, the cursor, the counters. */
static bool
same_screen(struct screen *a, struct screen *b, char *why, size_t size)
{
	struct cell	 ca[64], cb[64];
	int		 cols = screen_cols(a), r, c, ra, ca_, rb, cb_;
	bool		 va, vb;
	struct buf	 ta = { 0 }, tb = { 0 };
	long		 n = (long)screen_scrollback_count(a);

	if (screen_scrollback_count(b) != (size_t)n ||
	    screen_pushed(a) != screen_pushed(b)) {
		snprintf(why, size, "scrollback %ld/%zu lines, pushed %llu/%llu",
		    n, screen_scrollback_count(b),
		    (unsigned long long)screen_pushed(a),
		    (unsigned long long)screen_pushed(b));
		return false;
	}
	screen_cursor(a, &ra, &ca_, &va);
	screen_cursor(b, &rb, &cb_, &vb);
	if (ra != rb || ca_ != cb_ || va != vb ||
	    screen_altscreen(a) != screen_altscreen(b)) {
		snprintf(why, size, "cursor %d,%d / %d,%d", ra, ca_, rb, cb_);
		return false;
	}
	for (r = (int)-n; r < screen_rows(a); r++) {
		screen_row_cells(a, r, ca, cols);
		screen_row_cells(b, r, cb, cols);
		for (c = 0; c < cols; c++)
			if (memcmp(ca[c].chars, cb[c].chars,
			    sizeof ca[c].chars) != 0 ||
			    ca[c].width != cb[c].width ||
			    !cell_attr_eq(&ca[c].attr, &cb[c].attr)) {
				snprintf(why, size, "row %d column %d: U+%04X "
				    "/ U+%04X", r, c, (unsigned)ca[c].chars[0],
				    (unsigned)cb[c].chars[0]);
				return false;
			}
		ta.len = tb.len = 0;
		if (screen_row_text_wrapped(a, r, &ta) !=
		    screen_row_text_wrapped(b, r, &tb)) {
			snprintf(why, size, "row %d wrapped or not", r);
			buf_free(&ta);
			buf_free(&tb);
			return false;
		}
	}
	buf_free(&ta);
	buf_free(&tb);
	return true;
}

static unsigned long	rng_state;

static unsigned
rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(rng_state >> 33) % n;
}

/* What a stream is made of: mostly plain lines, and what breaks them. */
static const char *const breakers[] = {
	"\r\n", "\n", "\r", "\t", "\a", "\x1b(0", "\x1b(B", "\x1b(A",
	"\x1b)0", "\x0e", "\x0f", "\x1bN", "\x1b*0", "\x1b[1;31m", "\x1b[0m",
	"\x1b[44m", "\x1b[38;5;200m", "\x1b[4h", "\x1b[4l", "\x1b[2;4r",
	"\x1b[r", "\x1b#6", "\x1b#5", "\x1b#3", "\x1b[1\"q", "\x1b[0\"q",
	"\x1b[3b", "\x1b[b", "\xcc\x81", "\xe6\x97\xa5\xe6\x9c\xac", "\x1b[H",
	"\x1b[5;3H", "\x1b[A", "\x1b[?1049h", "\x1b[?1049l", "\x1b[2J",
	"\x1b[K", "\x1b[?7l", "\x1b[?7h", "\x1b[20h", "\x1b[20l",
	"\x1b[?69h\x1b[2;6s", "\x1b[?69l", "\x1b", "\x1b[", "\x1b]0;t\a",
	"\x1b]0;a\x1b(0", "\x1b" "c", "\x1b[?3h", "\xe6\x97", "\x1b[1S",
	"\x1b[2T", "\x1bM", "\x1b" "D", "\x1b" "E", "\x1b[3L", "\x1b[2M",
	"\x1b[?6h", "\x1b[?6l", "\x1b" "7", "\x1b" "8", "\x1b[3@",
	"\x1b[C", "\x1b[D", "\x1b[3C", "\xcc\x81", "\x1b[D\xcc\x81",
	"\x1b[C\xcc\x81", "\x1b[3C\xcc\x81", "\x1b" "8\xcc\x81",
};

static void
gen_stream(struct buf *out, int cols, int tokens)
{
	static const char	chars[] = "0123456789 abq`#~_xyzAB.:-";
	int			i, j, n;

	out->len = 0;
	for (i = 0; i < tokens; i++) {
		if (rnd(10) < 7) {
			n = rnd(8) == 0 ? (int)rnd((unsigned)cols + 3) :
			    (int)rnd((unsigned)cols / 2 + 1);
			for (j = 0; j < n; j++)
				buf_addc(out, chars[rnd(sizeof chars - 1)]);
			if (rnd(6) != 0)
				buf_add(out, "\r\n", 2);
		} else {
			const char *b = breakers[rnd(sizeof breakers /
			    sizeof breakers[0])];

			buf_add(out, b, strlen(b));
		}
	}
}

static void
test_plain_lines_random(void)
{
	static const int	sizes[][2] = {
		{ 6, 12 }, { 3, 5 }, { 1, 4 }, { 10, 20 }, { 4, 3 }, { 2, 2 },
	};
	struct buf		 stream = { 0 };
	char			 why[128];
	size_t			 k, off, n;
	int			 z, seed, bad;

	for (z = 0; z < (int)(sizeof sizes / sizeof sizes[0]); z++) {
		bad = 0;
		why[0] = '\0';
		for (seed = 1; seed <= 150 && bad == 0; seed++) {
			struct screen	*a, *b;

			rng_state = (unsigned long)seed * 7919 + (unsigned)z;
			a = screen_new(sizes[z][0], sizes[z][1], 50, NULL, NULL);
			b = screen_new(sizes[z][0], sizes[z][1], 50, NULL, NULL);
			screen_set_plain_lines(b, false);
			for (k = 0; k < 6 && bad == 0; k++) {
				gen_stream(&stream, sizes[z][1], 120);
				for (off = 0; off < stream.len; off += n) {
					n = 1 + rnd(rnd(4) == 0 ? 4096 : 48);
					if (n > stream.len - off)
						n = stream.len - off;
					screen_feed(a, stream.data + off, n);
					screen_feed(b, stream.data + off, n);
				}
				if (!same_screen(a, b, why, sizeof why))
					bad = seed;
			}
			screen_free(a);
			screen_free(b);
		}
		ok(bad == 0, "%dx%d: 150 random streams of plain lines and "
		    "what breaks them, fed in pieces: as without plain lines%s%s",
		    sizes[z][1], sizes[z][0], bad ? ": differs at " : "", why);
	}
	buf_free(&stream);
}

/* The cases the proof is for, one by one, against the reference. */
static void
test_plain_lines(void)
{
	static const struct {
		const char	*bytes;
		const char	*what;
	} cases[] = {
		{ "\x1b(0", "DEC drawing in G0: plain lines translated (lqqk)" },
		{ "\x1b)0\x0e", "DEC drawing shifted in" },
		{ "\x1b(A", "the UK set: # is a pound sign" },
		{ "\x1b[4h", "insert mode" },
		{ "\x1b[1;5r\x1b[5H", "a scroll region" },
		{ "\x1b[44m", "a background colour: rows scrolled in take it" },
		{ "\x1b[1\"q", "protected characters" },
		{ "\x1b[?1049h", "the alternate screen (no scrollback)" },
		{ "\x1b#6", "a double-width row" },
	};
	struct buf	 stream = { 0 };
	char		 why[128];
	size_t		 k;
	int		 j;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct screen	*a = screen_new(5, 12, 50, NULL, NULL);
		struct screen	*b = screen_new(5, 12, 50, NULL, NULL);

		screen_set_plain_lines(b, false);
		stream.len = 0;
		for (j = 0; j < 8; j++)
			buf_add(&stream, "12\r\n", 4);
		buf_add(&stream, cases[k].bytes, strlen(cases[k].bytes));
		for (j = 0; j < 12; j++)
			buf_add(&stream, "lqqk # 3\r\n", 10);
		/* REP repeats the last character printed. */
		buf_add(&stream, "x`\r\n\x1b[3b", 9);
		screen_feed(a, stream.data, stream.len);
		screen_feed(b, stream.data, stream.len);
		why[0] = '\0';
		ok(same_screen(a, b, why, sizeof why), "plain lines after %s, "
		    "and REP: as without plain lines %s", cases[k].what, why);
		screen_free(a);
		screen_free(b);
	}
	/* Found by the random streams: a character cut short before them. */
	{
		static const char *const cut[][3] = {
			{ "\n\xe6\x1b" "3\n", ":\r\n", ".\xe6[" },
			{ "\n\n\n", "4\r\ny\xe6\n", ":" },
		};

		for (k = 0; k < sizeof cut / sizeof cut[0]; k++) {
			struct screen	*a = screen_new(3 + (int)k, 5 - 2 * (int)k,
			    50, NULL, NULL);
			struct screen	*b = screen_new(3 + (int)k, 5 - 2 * (int)k,
			    50, NULL, NULL);

			screen_set_plain_lines(b, false);
			for (j = 0; j < 3; j++) {
				feed(a, cut[k][j]);
				feed(b, cut[k][j]);
			}
			why[0] = '\0';
			ok(same_screen(a, b, why, sizeof why), "plain lines "
			    "after a character cut short by a control, case "
			    "%zu: as without them %s", k + 1, why);
			screen_free(a);
			screen_free(b);
		}
	}
	/* And they are taken: 1,000 lines of seq, every one kept. */
	{
		struct screen	*s = screen_new(5, 12, 2000, NULL, NULL);
		char		 line[16];

		stream.len = 0;
		for (j = 1; j <= 1000; j++) {
			snprintf(line, sizeof line, "%d\r\n", j);
			buf_add(&stream, line, strlen(line));
		}
		screen_feed(s, stream.data, stream.len);
		is_int(screen_scrollback_count(s), 996, "plain lines: 996 "
		    "scrolled off");
		is_str(row(s, -996), "1", "the first one is the oldest");
		is_str(row(s, 3), "1000", "the last one above the cursor");
		feed(s, "\x1b[2b");
		is_str(row(s, 4), "00", "REP after them repeats its last "
		    "character");
		screen_free(s);
	}
	buf_free(&stream);
}

/*
 * A combining mark, or REP, after plain text: libvterm joins a mark to
 * the last character printed only when the cursor stands right after
 * where it was printed (a scroll does not move that place), so it must
 * be told the character at its own column, after plain lines and after
 * every watched line, taken or not.
 */
static void
test_plain_lines_marks(void)
{
	static const char *const cases[] = {
		"ab\r\ncd\xcc\x81",
		"ab\r\nxy\r\nhello\xcc\x81",
		"ab\r\ncd\xcc\x81\x1b[2b",
		"ab\r\ncde\x1b[D\x1b[D\xcc\x81",
		"\x1b[5;2H\x1b" "7\r\nab\r\ncdef\x1b" "8\xcc\x81",
		"abc\r\n\x1b[C\xcc\x81",
		"abc\r\n\x1b[3C\xcc\x81",
		"\x1b(Aabc\r\n\x1b[C\xcc\x81",
		"\x1b#6abc\r\n\x1b[C\xcc\x81",
		"ab\r\ncd\r\n\x1b[2C\xcc\x81",
	};
	char		 why[128];
	size_t		 k, cut, len;
	int		 bad;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		len = strlen(cases[k]);
		bad = -1;
		why[0] = '\0';
		for (cut = 0; cut <= len && bad < 0; cut++) {
			struct screen	*a = screen_new(5, 12, 20, NULL, NULL);
			struct screen	*b = screen_new(5, 12, 20, NULL, NULL);

			screen_set_plain_lines(b, false);
			feed(a, "\n\n\n\n\n");
			feed(b, "\n\n\n\n\n");
			screen_feed(a, cases[k], cut);
			screen_feed(a, cases[k] + cut, len - cut);
			screen_feed(b, cases[k], len);
			if (!same_screen(a, b, why, sizeof why))
				bad = (int)cut;
			screen_free(a);
			screen_free(b);
		}
		ok(bad < 0, "a mark or REP after plain text, case %zu, cut "
		    "anywhere: as without plain lines%s%s", k + 1,
		    bad >= 0 ? ": differs: " : "", why);
	}
}

/*
 * libvterm 0.1.4 repeats for ever a REP whose last character took no
 * column (none printed yet, a combining mark on its own): dropped.
 */
static void
test_rep(void)
{
	struct screen	*s = screen_new(4, 10, 10, NULL, NULL);
	struct screen	*bare = screen_new_bare(4, 10, NULL, NULL);
	int		 r, c;
	bool		 v;

	feed(s, "\x1b[3b");
	screen_cursor(s, &r, &c, &v);
	ok(r == 0 && c == 0 && strcmp(row(s, 0), "") == 0, "REP before "
	    "any character: nothing repeated, the cursor stays");
	feed(s, "x\x1b[2b");
	is_str(row(s, 0), "xxx", "REP after a character repeats it");
	feed(s, "\x1b[2;3H\xcc\x81\x1b[3b");
	screen_cursor(s, &r, &c, &v);
	ok(r == 1 && c == 2, "REP after a combining mark on its own: "
	    "dropped (%d,%d)", r, c);
	feed(s, "\x1b[2;5H\xcc\x81\x1b[");
	feed(s, "3");
	feed(s, "b");
	screen_cursor(s, &r, &c, &v);
	ok(r == 1 && c == 4, "... split over three feeds (%d,%d)", r, c);
	feed(s, "\x1b[3;1Hy\x1b[3;");
	feed(s, "4b\x1b[1b");
	is_str(row(s, 2), "yyyyy", "REP split after its parameters (3;4: "
	    "three), then REP 1");
	feed(bare, "\x1b[3b\xcc\x81\x1b[b");
	screen_cursor(bare, &r, &c, &v);
	ok(r == 0 && c == 0, "a bare screen drops it too");
	screen_free(s);
	screen_free(bare);
}

/*
 * A character split between two pieces, wherever the split: libvterm
 * 0.1.4 alone prints U+FFFD for both parts when text comes before the
 * first part in its piece.
 */
static void
test_split_characters(void)
{
	static const char	*const texts[] = {
		"a\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e b\xc3\xa9\xf0\x9f\x98\x80!",
		"x\xe6\x97y\xc3 z\xe6\x97\xa5\xcc\x81.",
		/* Characters cut short by an escape sequence, a control. */
		"\xe6\x1b" "3:\r\n.\xe6[y\xe6\n:\xc3\x1b[1mab\xf0\x9f\x98\r\xc3\xa9",
	};
	char			 why[128];
	size_t			 t, cut, cut2, len;
	int			 bad;

	for (t = 0; t < sizeof texts / sizeof texts[0]; t++) {
		struct screen	*whole = screen_new(3, 30, 10, NULL, NULL);

		len = strlen(texts[t]);
		feed(whole, texts[t]);
		bad = 0;
		why[0] = '\0';
		for (cut = 0; cut <= len && bad == 0; cut++)
			for (cut2 = cut; cut2 <= len && bad == 0; cut2++) {
				struct screen	*s = screen_new(3, 30, 10, NULL,
				    NULL);

				screen_feed(s, texts[t], cut);
				screen_feed(s, texts[t] + cut, cut2 - cut);
				screen_feed(s, texts[t] + cut2, len - cut2);
				if (!same_screen(s, whole, why, sizeof why))
					bad = (int)(cut * 100 + cut2);
				screen_free(s);
			}
		ok(bad == 0, "text %zu cut in three anywhere: as in one piece%s%s",
		    t + 1, bad ? ": differs " : "", why);
		screen_free(whole);
	}
}

int
main(void)
{
	alarm(60);	/* a screen that loops for ever fails */
	test_text_and_attrs();
	test_scrollback();
	test_replies_and_keys();
	test_bare();
	test_cwd();
	test_damage();
	test_wide_overwrite();
	test_reflow();
	test_wrapped_rows();
	test_protected();
	test_shrink_safely();
	test_deccolm();
	test_decstbm();
	test_plain_lines();
	test_plain_lines_marks();
	test_rep();
	test_split_characters();
	test_plain_lines_random();
	buf_free(&replies);
	return tap_done();
}
