/*
 * scroll.c - the pager of scroll mode (see scroll.h).
 *
 * Lines are addressed like the screen's rows: -scrollback_count .. rows-1.
 * Invariant: top stays within [first, last - height + 1] whenever the
 * content is taller than the view (clamped on every key and draw), so the
 * view never shows lines past the end.  A search matches a line's text
 * (case-sensitive, like less), wraps around the ends (like tmux) and
 * puts the match on the top row.
 */
#include "tui/scroll.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "term/screen.h"
#include "base/utf8.h"
#include "base/util.h"
#include "tui/prompt.h"
#include "tui/render.h"

struct scroll {
	struct screen	*scr;
	bool		 owned;
	char		*title;
	int		 top;
	uint64_t	 pushed;	/* screen_pushed() when top was set */
	int		 height;	/* lines shown at the last draw */
	bool		 at_bottom;	/* follow the end until moved */
	bool		 prompting;
	bool		 backward;	/* the last search went up (?) */
	struct prompt	 prompt;
	char		*pattern;
	int		 match_row;	/* highlighted line, when has_match */
	bool		 has_match;
	const char	*message;
	struct buf	 copied;	/* what c or C copied */
};

/* The first and last line of the content. */
static int
scroll_first(const struct scroll *sv)
{
	return -(int)screen_scrollback_count(sv->scr);
}

static int
scroll_last(const struct scroll *sv)
{
	return screen_rows(sv->scr) - 1;
}

/*
 * Lines a live pane scrolled off since top was set moved up by as many
 * rows: the view moves with them, so what the person reads stays put.
 */
static void
scroll_anchor(struct scroll *sv)
{
	uint64_t	now = screen_pushed(sv->scr), d = now - sv->pushed;

	sv->pushed = now;
	if (d == 0 || sv->at_bottom)
		return;
	if (d > (uint64_t)INT_MAX / 2)
		d = INT_MAX / 2;
	sv->top -= (int)d;
	if (sv->has_match)
		sv->match_row -= (int)d;
}

/* Keep top inside the content. */
static void
scroll_clamp(struct scroll *sv)
{
	int	h, max;

	scroll_anchor(sv);
	h = sv->height > 0 ? sv->height : 1;
	max = scroll_last(sv) - h + 1;

	if (sv->at_bottom)
		sv->top = max;
	if (sv->top > max)
		sv->top = max;
	if (sv->top < scroll_first(sv))
		sv->top = scroll_first(sv);
}

struct scroll *
scroll_new(struct screen *scr, bool owned, const char *title)
{
	struct scroll	*sv = xcalloc(1, sizeof *sv);

	sv->scr = scr;
	sv->owned = owned;
	sv->title = xstrdup(title);
	sv->height = screen_rows(scr);
	sv->at_bottom = true;
	sv->pushed = screen_pushed(scr);
	scroll_clamp(sv);
	return sv;
}

void
scroll_free(struct scroll *sv)
{
	if (sv == NULL)
		return;
	if (sv->owned)
		screen_free(sv->scr);
	free(sv->title);
	free(sv->pattern);
	buf_free(&sv->copied);
	free(sv);
}

void
scroll_home(struct scroll *sv)
{
	sv->at_bottom = false;
	sv->top = scroll_first(sv);
	scroll_clamp(sv);
}

int
scroll_top(const struct scroll *sv)
{
	return sv->top;
}

/* Move by n lines (negative: up). */
static void
scroll_move(struct scroll *sv, int n)
{
	sv->at_bottom = false;
	sv->top += n;
	scroll_clamp(sv);
	if (sv->top == scroll_last(sv) - sv->height + 1 && n > 0)
		sv->at_bottom = true;
}

/*
 * Find the pattern in line row: the cell columns [*scol, *ecol) of the
 * first match, or -1.
 */
static int
scroll_match(const struct scroll *sv, int row, int *scol, int *ecol)
{
	struct cell	*cells;
	struct buf	 text = { 0 };
	int		*col_of, cols = screen_cols(sv->scr), i, k, start = -1;
	char		 u[4], *hit;
	size_t		 off, n, plen = strlen(sv->pattern);

	cells = xcalloc((size_t)cols, sizeof *cells);
	col_of = xcalloc((size_t)cols * CELL_MAX_CHARS * 4 + 1,
	    sizeof *col_of);
	screen_row_cells(sv->scr, row, cells, cols);
	for (i = 0; i < cols; i++) {
		if (cells[i].width == 0)
			continue;
		for (k = 0; k < CELL_MAX_CHARS && (k == 0 ||
		    cells[i].chars[k] != 0); k++) {
			n = utf8_put(cells[i].chars[k] ? cells[i].chars[k] :
			    ' ', u);
			for (off = 0; off < n; off++)
				col_of[text.len + off] = i;
			buf_add(&text, u, n);
		}
	}
	col_of[text.len] = cols;
	if (plen > 0 && (hit = memmem(text.data, text.len, sv->pattern,
	    plen)) != NULL) {
		start = col_of[hit - text.data];
		*scol = start;
		*ecol = col_of[hit - text.data + (ptrdiff_t)plen - 1] + 1;
	}
	buf_free(&text);
	free(col_of);
	free(cells);
	return start;
}

/* Search from the top line in a direction; false when nothing matched. */
static bool
scroll_search(struct scroll *sv, bool backward)
{
	int	row, s, e, k, total;

	if (sv->pattern == NULL || *sv->pattern == '\0')
		return false;
	total = scroll_last(sv) - scroll_first(sv) + 1;
	row = sv->has_match ? sv->match_row : sv->top - (backward ? 0 : 1);
	for (k = 0;; k++) {
		if (k > total)
			return false;
		row += backward ? -1 : 1;
		if (row < scroll_first(sv))	/* wrap, like tmux */
			row = scroll_last(sv);
		if (row > scroll_last(sv))
			row = scroll_first(sv);
		if (scroll_match(sv, row, &s, &e) >= 0)
			break;
	}
	sv->match_row = row;
	sv->has_match = true;
	sv->at_bottom = false;
	sv->top = row;
	scroll_clamp(sv);
	return true;
}

/* Keep n lines from the top of the view as the text to copy. */
static void
scroll_copy(struct scroll *sv, int n)
{
	int	row;

	sv->copied.len = 0;
	for (row = sv->top; row < sv->top + n && row <= scroll_last(sv);
	    row++) {
		if (row > sv->top)
			buf_addc(&sv->copied, '\n');
		screen_row_text(sv->scr, row, &sv->copied);
	}
	buf_cstr(&sv->copied);
}

const char *
scroll_copied(struct scroll *sv)
{
	return buf_cstr(&sv->copied);
}

enum scroll_result
scroll_key(struct scroll *sv, const struct keys_event *ev)
{
	int	page = sv->height > 1 ? sv->height - 1 : 1;
	int	half = sv->height / 2 > 0 ? sv->height / 2 : 1;

	sv->message = NULL;
	scroll_anchor(sv);
	if (sv->prompting) {
		switch (prompt_key(&sv->prompt, ev)) {
		case PROMPT_DONE:
			sv->prompting = false;
			if (sv->prompt.len > 0) {
				free(sv->pattern);
				sv->pattern = xstrdup(sv->prompt.buf);
			}
			sv->has_match = false;
			if (!scroll_search(sv, sv->backward))
				sv->message = "Pattern not found";
			break;
		case PROMPT_CANCEL:
			sv->prompting = false;
			break;
		case PROMPT_EDITING:
			break;
		}
		return SCROLL_KEEP;
	}
	if (ev->type == KEYS_WHEEL_UP) {
		scroll_move(sv, -3);
		return SCROLL_KEEP;
	}
	if (ev->type == KEYS_WHEEL_DOWN) {
		scroll_move(sv, 3);
		return SCROLL_KEEP;
	}
	if (ev->type == KEYS_KEY) {
		switch (ev->key) {
		case SCREEN_KEY_UP:
			scroll_move(sv, -1);
			break;
		case SCREEN_KEY_DOWN:
		case SCREEN_KEY_ENTER:
			scroll_move(sv, 1);
			break;
		case SCREEN_KEY_PAGEUP:
			scroll_move(sv, -page);
			break;
		case SCREEN_KEY_PAGEDOWN:
			scroll_move(sv, page);
			break;
		case SCREEN_KEY_HOME:
			scroll_move(sv, scroll_first(sv) - sv->top);
			break;
		case SCREEN_KEY_END:
			scroll_move(sv, scroll_last(sv) - sv->top);
			break;
		case SCREEN_KEY_ESCAPE:
			return SCROLL_QUIT;
		}
		return SCROLL_KEEP;
	}
	if (ev->type != KEYS_CHAR)
		return SCROLL_KEEP;
	switch (ev->ch) {
	case 'q':
	case 'Q':
	case KEYS_CTRL('c'):
		return SCROLL_QUIT;
	case 'j':
	case 'e':
	case '\r':
	case KEYS_CTRL('n'):
	case KEYS_CTRL('e'):
		scroll_move(sv, 1);
		break;
	case 'k':
	case 'y':
	case KEYS_CTRL('p'):
	case KEYS_CTRL('y'):
		scroll_move(sv, -1);
		break;
	case ' ':
	case 'f':
	case KEYS_CTRL('f'):
	case KEYS_CTRL('v'):
		scroll_move(sv, page);
		break;
	case 'b':
	case KEYS_CTRL('b'):
		scroll_move(sv, -page);
		break;
	case 'd':
	case KEYS_CTRL('d'):
		scroll_move(sv, half);
		break;
	case 'u':
	case KEYS_CTRL('u'):
		scroll_move(sv, -half);
		break;
	case 'g':
	case '<':
		scroll_move(sv, scroll_first(sv) - sv->top);
		break;
	case 'c':
	case 'C':
		scroll_copy(sv, ev->ch == 'C' ? sv->height : 1);
		return SCROLL_COPY;
	case 'G':
	case '>':
		scroll_move(sv, scroll_last(sv) - sv->top);
		break;
	case '/':
	case '?':
		sv->prompting = true;
		sv->backward = ev->ch == '?';
		memset(&sv->prompt, 0, sizeof sv->prompt);
		break;
	case 'n':
	case 'N':
		if (sv->pattern == NULL)
			sv->message = "No previous pattern";
		else if (!scroll_search(sv, sv->backward != (ev->ch == 'N')))
			sv->message = "Pattern not found";
		break;
	}
	return SCROLL_KEEP;
}

bool
scroll_draw(struct scroll *sv, struct layout_rect area)
{
	struct cell	*cells;
	char		 info[128];
	int		 cols = screen_cols(sv->scr), i, row, s, e, total;

	if (area.h < 2 || area.w < 1)
		return false;
	sv->height = area.h - 2;
	scroll_clamp(sv);
	attrset(A_REVERSE | A_BOLD);
	mvhline(area.y, area.x, ' ', area.w);
	mvaddnstr(area.y, area.x, sv->title, area.w);
	attrset(A_NORMAL);
	cells = xcalloc((size_t)cols, sizeof *cells);
	for (i = 0; i < sv->height; i++) {
		row = sv->top + i;
		if (row > scroll_last(sv)) {
			render_blank(area.y + 1 + i, area.x, area.w);
			continue;
		}
		screen_row_cells(sv->scr, row, cells, cols);
		render_cells(area.y + 1 + i, area.x, area.w, cells, cols,
		    false);
		if (sv->has_match && row == sv->match_row &&
		    scroll_match(sv, row, &s, &e) >= 0 && s < area.w)
			render_cells(area.y + 1 + i, area.x + s,
			    (e < area.w ? e : area.w) - s, cells + s, e - s,
			    true);
	}
	free(cells);
	row = area.y + area.h - 1;
	if (sv->prompting) {
		prompt_draw(&sv->prompt, sv->backward ? "?" : "/", row,
		    area.x, area.w);
		return true;
	}
	total = scroll_last(sv) - scroll_first(sv) + 1;
	snprintf(info, sizeof info, "%s%s[%d/%d]  q quit  / search  n/N next",
	    sv->message != NULL ? sv->message : "",
	    sv->message != NULL ? "  " : "",
	    sv->top + sv->height - scroll_first(sv) < total ?
	    sv->top + sv->height - scroll_first(sv) : total, total);
	attrset(A_REVERSE);
	mvhline(row, area.x, ' ', area.w);
	mvaddnstr(row, area.x, info, area.w);
	attrset(A_NORMAL);
	return false;
}
