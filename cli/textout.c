/*
 * textout.c - a command's output as terminal text (see textout.h).
 *
 * Invariant: no line is lost between two looks at the scrollback, since
 * output is fed in slices small enough that fewer lines scroll off than the
 * scrollback keeps.
 */
#include "cli/textout.h"

#include <stdlib.h>

#include "term/screen.h"
#include "base/util.h"

/*
 * Output is fed to the screen in slices no larger than this, so at most
 * this many lines scroll off between two looks: fewer than the scrollback
 * keeps, and none is lost before it is handed on.
 */
#define TEXTOUT_FEED_SLICE	4096
#define TEXTOUT_SCROLLBACK	(2 * TEXTOUT_FEED_SLICE)

struct textout {
	struct screen	*screen;
	uint64_t	 handed;	/* scrolled-off lines handed on */
	textout_fn	 fn;
	void		*user;
};

struct textout *
textout_new(int rows, int cols, textout_fn fn, void *user)
{
	struct textout	*t = xcalloc(1, sizeof *t);

	t->screen = screen_new(rows, cols, TEXTOUT_SCROLLBACK, NULL, NULL);
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
	free(t);
}

/* Hand on the lines that scrolled off since the last look. */
static void
textout_scrolled(struct textout *t)
{
	uint64_t	pushed = screen_pushed(t->screen), n;
	size_t		have = screen_scrollback_count(t->screen);
	struct buf	out = { 0 };

	n = pushed - t->handed;
	if (n > have)
		n = have;	/* cannot happen with TEXTOUT_FEED_SLICE */
	for (; n > 0; n--)
		if (!screen_row_text_wrapped(t->screen, -(int)n, &out))
			buf_addc(&out, '\n');
	t->handed = pushed;
	if (out.len > 0)
		t->fn(t->user, out.data, out.len);
	buf_free(&out);
}

void
textout_feed(struct textout *t, const char *p, size_t len)
{
	size_t	n;

	while (len > 0) {
		n = len < TEXTOUT_FEED_SLICE ? len : TEXTOUT_FEED_SLICE;
		screen_feed(t->screen, p, n);
		textout_scrolled(t);
		p += n;
		len -= n;
	}
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
