/*
 * textout.c - a command's output as terminal text (see textout.h).
 *
 * Each line that scrolls off the top is taken as it goes (the screen's
 * line sink), so the screen keeps no scrollback and no line is read back.
 */
#include "term/textout.h"

#include <stdlib.h>

#include "term/screen.h"
#include "base/util.h"

struct textout {
	struct screen	*screen;
	int		 cols;
	struct buf	 lines;		/* gone off the top, not handed yet */
	textout_fn	 fn;
	void		*user;
};

/*
 * A line left the top: its text, a line the program wrote as one
 * (wrapped by the terminal) going on in the next; a wrapped row keeps its
 * trailing blanks, as the terminal showed them.
 */
static void
textout_line(void *arg, const struct cell *cells, int n, bool wrapped)
{
	struct textout	*t = arg;
	int		 pad;

	screen_cells_text(cells, n, !wrapped, &t->lines);
	if (!wrapped) {
		buf_addc(&t->lines, '\n');
		return;
	}
	for (pad = t->cols - n; pad > 0; pad--)
		buf_addc(&t->lines, ' ');	/* blank cells: not stored */
}

struct textout *
textout_new(int rows, int cols, textout_fn fn, void *user)
{
	struct textout	*t = xcalloc(1, sizeof *t);

	t->screen = screen_new(rows, cols, 0, NULL, NULL);
	t->cols = cols;
	screen_set_line_sink(t->screen, textout_line, t);
	t->fn = fn;
	t->user = user;
	return t;
}

void
textout_free(struct textout *t)
{
	if (t == NULL)
		return;
	screen_free(t->screen);
	buf_free(&t->lines);
	free(t);
}

/* Hand on the lines that scrolled off since the last look. */
static void
textout_scrolled(struct textout *t)
{
	if (t->lines.len > 0)
		t->fn(t->user, t->lines.data, t->lines.len);
	t->lines.len = 0;
}

void
textout_feed(struct textout *t, const char *p, size_t len)
{
	screen_feed(t->screen, p, len);
	textout_scrolled(t);
}

/*
 * Append the screen's text, a line the program wrote as one (wrapped by
 * the terminal) as one line; trailing empty lines dropped.
 */
static void
textout_screen_lines(const struct screen *s, struct buf *out)
{
	size_t	keep = out->len, start = out->len;
	int	row, rows = screen_rows(s);

	for (row = 0; row < rows; row++) {
		if (screen_row_text_wrapped(s, row, out))
			continue;
		if (out->len > start)
			keep = out->len + 1;	/* this line has text */
		buf_addc(out, '\n');
		start = out->len;
	}
	out->len = keep;
}

void
textout_finish(struct textout *t)
{
	struct buf	out = { 0 };

	textout_scrolled(t);
	textout_screen_lines(t->screen, &out);
	if (out.len > 0)
		t->fn(t->user, out.data, out.len);
	buf_free(&out);
}

void
textout_screen(const struct textout *t, struct buf *out)
{
	textout_screen_lines(t->screen, out);
}
