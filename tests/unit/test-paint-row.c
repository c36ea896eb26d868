/*
 * test-paint-row.c - a screen row as the bytes that draw it
 * (cli/paint-row.c): attributes and colours, clipping, a wide character
 * cut at the edge, a narrower row erased to the end.
 */
#include "cli/paint-row.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "term/screen.h"
#include "tests/tap.h"

/* Row row of a rows x cols screen fed with in, painted width wide. */
static char *
paint(int cols, const char *in, int row, int y, int width)
{
	struct screen	*s = screen_new(2, cols, 0, NULL, NULL);
	struct buf	 b = { 0 };
	char		*out;

	screen_feed(s, in, strlen(in));
	paint_row(&b, s, row, y, width);
	out = xstrdup(buf_cstr(&b));
	buf_free(&b);
	screen_free(s);
	return out;
}

int
main(void)
{
	char	*p;

	p = paint(4, "ab", 0, 0, 4);
	is_str(p, "\033[1;1H\033[0mab  \033[0m", "plain text, full width");
	free(p);
	p = paint(4, "\033[1;31ma\033[0;48;5;200mb\033[38;2;1;2;3mc", 0, 2, 4);
	is_str(p, "\033[3;1H\033[0m\033[0;1;31ma\033[0;48;5;200mb"
	    "\033[0;38;2;1;2;3;48;5;200mc\033[0m \033[0m",
	    "bold, indexed and true colour; the row's terminal line");
	free(p);
	p = paint(6, "abcdef", 0, 0, 3);
	is_str(p, "\033[1;1H\033[0mabc\033[0m", "clipped to the terminal");
	free(p);
	p = paint(4, "a\xe4\xb8\x80", 0, 0, 2);
	is_str(p, "\033[1;1H\033[0ma \033[0m",
	    "a wide character cut at the edge: a blank");
	free(p);
	p = paint(2, "\xe4\xb8\x80", 0, 0, 5);
	is_str(p, "\033[1;1H\033[0m\xe4\xb8\x80\033[0m\033[K",
	    "a narrower row: the rest erased");
	free(p);
	p = paint(4, "x\r\nyz", 1, 1, 4);
	is_str(p, "\033[2;1H\033[0myz  \033[0m", "another row");
	free(p);
	return tap_done();
}
