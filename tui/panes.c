/*
 * panes.c - the panes of the front end: finding a session's or a replay's
 * pane, tiling the visible ones (tui_relayout), focus, closing panes (and
 * agents' ended ones by themselves), the size and environment of new
 * sessions, resizes of the outer terminal.
 *
 * Invariants: after tui_relayout every visible pane (rect.w > 0) has one
 * dirty entry per content row and its session that content's size; on a
 * terminal too small for panes none is visible; zoom is on only with two
 * panes or more.  Of the front end's files only draw.c (to ask for a
 * frame) and tui-term.c (the terminal's size) are called from here.
 */
#include "tui/tui-int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <curses.h>

#include "session/session.h"
#include "base/util.h"
#include "tui/layout.h"
#include "tui/tui-replay.h"

/* The pane of session s, or -1. */
int
tui_find(struct tui *t, struct session *s)
{
	int	i;

	for (i = 0; i < t->npanes; i++)
		if (t->panes[i]->s == s)
			return i;
	return -1;
}

/* The pane showing replay r, or -1. */
int
tui_find_replay(struct tui *t, struct tui_replay *r)
{
	int	i;

	for (i = 0; i < t->npanes; i++)
		if (t->panes[i]->replay == r)
			return i;
	return -1;
}

/*
 * The rectangle pane i has when it is shown, tiled (not zoomed): the one
 * a hidden pane's session keeps its size for, as tmux resizes a zoomed
 * window's other panes with the window.
 */
static struct layout_rect
tui_tile_of(struct tui *t, struct layout_rect area, int i)
{
	struct layout_rect	rects[LAYOUT_MAX_PANES];
	int			first = layout_window(t->npanes, i), n;

	n = t->npanes - first < LAYOUT_MAX_PANES ? t->npanes - first :
	    LAYOUT_MAX_PANES;
	if (layout_tile(area, n, rects) != 0)
		return area;
	return rects[i - first];
}

/* Give every pane its rectangle (hidden: 0 wide) and its session a size. */
void
tui_relayout(struct tui *t)
{
	struct layout_rect	 area, rects[LAYOUT_MAX_PANES], c;
	struct pty_size		 size;
	struct tui_pane		*p;
	int			 i, first, n;

	t->redraw_all = true;
	for (i = 0; i < t->npanes; i++)
		t->panes[i]->rect.w = 0;
	/* A detached console shows nothing: its sizes bind no session. */
	t->too_small = t->term == NULL ||
	    layout_too_small(tui_term_cols(t->term), tui_term_rows(t->term));
	if (t->too_small || t->npanes == 0) {
		tui_unview_hidden(t);
		return;
	}
	area.x = 0;
	area.y = 0;
	area.w = tui_term_cols(t->term);
	area.h = tui_term_rows(t->term) - 1;
	first = layout_window(t->npanes, t->focus);
	n = t->npanes - first < LAYOUT_MAX_PANES ? t->npanes - first :
	    LAYOUT_MAX_PANES;
	if (t->zoom || layout_tile(area, n, rects) != 0)
		t->panes[t->focus]->rect = area;
	else
		for (i = 0; i < n; i++)
			t->panes[first + i]->rect = rects[i];
	for (i = 0; i < t->npanes; i++) {
		p = t->panes[i];
		if (p->rect.w == 0) {
			/* Hidden (zoom, beyond the six): its tile's size. */
			c = layout_content(tui_tile_of(t, area, i));
			if (p->s != NULL && c.w > 0 && c.h > 0) {
				size.cols = (unsigned short)c.w;
				size.rows = (unsigned short)c.h;
				session_view(p->s, p, size);
			}
			continue;
		}
		c = layout_content(p->rect);
		if (c.h != p->ndirty) {
			free(p->dirty);
			p->dirty = xcalloc((size_t)c.h + 1, sizeof *p->dirty);
			p->ndirty = c.h;
		}
		p->dirty_all = true;
		p->title_dirty = true;
		if (p->s != NULL && c.w > 0 && c.h > 0) {
			size.cols = (unsigned short)c.w;
			size.rows = (unsigned short)c.h;
			session_view(p->s, p, size);
		}
	}
}

void
tui_resize(struct tui *t)
{
	if (t->term != NULL)
		tui_term_own_size(t->term);
	tui_relayout(t);
	tui_schedule(t);
}

/* The rectangle the next new pane will get (for its first size). */
static struct layout_rect
tui_next_rect(struct tui *t)
{
	struct layout_rect	area = { 0, 0, 80, 23 };
	struct layout_rect	rects[LAYOUT_MAX_PANES];
	int			n = t->npanes + 1;

	if (t->term != NULL) {
		area.w = tui_term_cols(t->term);
		area.h = tui_term_rows(t->term) - 1;
	}
	if (n > LAYOUT_MAX_PANES)
		n = LAYOUT_MAX_PANES;
	if (t->zoom || layout_tile(area, n, rects) != 0)
		return area;
	return rects[n - 1];
}

struct pty_size
tui_next_size(struct tui *t)
{
	struct layout_rect	c = layout_content(tui_next_rect(t));
	struct pty_size		size;

	size.cols = (unsigned short)(c.w > 1 ? c.w : 80);
	size.rows = (unsigned short)(c.h > 1 ? c.h : 24);
	return size;
}

int
tui_new_session(struct tui *t, char *const *argv, char **cause)
{
	return tui_new_session_at(t, argv, NULL, cause);
}

int
tui_new_session_at(struct tui *t, char *const *argv, const char *cwd,
    char **cause)
{
	struct session_opts	 so;
	const char		*shell = getenv("SHELL");
	char			*sh[2];

	if (argv == NULL) {
		sh[0] = (char *)(shell != NULL && *shell == '/' ? shell :
		    "/bin/sh");
		sh[1] = NULL;
		argv = sh;
	}
	memset(&so, 0, sizeof so);
	so.argv = argv;
	so.envp = t->envp;
	so.size = tui_next_size(t);
	so.term = TUI_SESSION_TERM;
	so.scrollback = t->scrollback;
	so.sandbox = t->sandbox_opts;
	so.decision = "user";
	so.by = "user";
	so.cwd = cwd;
	t->starting = true;	/* its pane takes this console's focus */
	if (sessions_start(t->ss, &so, cause) == NULL) {
		t->starting = false;
		return -1;
	}
	t->starting = false;
	tui_relayout(t);
	return 0;
}

/* Focus pane i (wrapping). */
void
tui_focus(struct tui *t, int i)
{
	if (t->npanes == 0)
		return;
	i %= t->npanes;
	if (i < 0)
		i += t->npanes;
	if (i == t->focus)
		return;
	t->panes[t->focus]->title_dirty = true;
	t->focus = i;
	t->panes[i]->title_dirty = true;
	tui_relayout(t);
}

int
tui_pane_at(struct tui *t, int y, int x)
{
	struct layout_rect	r;
	int			i;

	for (i = 0; i < t->npanes; i++) {
		r = t->panes[i]->rect;
		if (r.w > 0 && y >= r.y && y < r.y + r.h && x >= r.x &&
		    x < r.x + r.w)
			return i;
	}
	return -1;
}

/*
 * How much the spans [a, a + n) and [b, b + m) share (0: none).
 */
static int
tui_overlap(int a, int n, int b, int m)
{
	int	lo = a > b ? a : b, hi = a + n < b + m ? a + n : b + m;

	return hi > lo ? hi - lo : 0;
}

void
tui_focus_toward(struct tui *t, int dx, int dy)
{
	struct layout_rect	 r, c;
	int			 i, best = -1, best_share = 0, best_dist = 0;
	int			 share, dist;

	if (t->npanes < 2 || t->zoom)
		return;
	r = t->panes[t->focus]->rect;
	for (i = 0; i < t->npanes; i++) {
		c = t->panes[i]->rect;
		if (i == t->focus || c.w == 0)
			continue;
		/* Wholly on that side (a shared border column or row is). */
		if ((dx < 0 && c.x + c.w > r.x + 1) ||
		    (dx > 0 && c.x + 1 < r.x + r.w) ||
		    (dy < 0 && c.y + c.h > r.y + 1) ||
		    (dy > 0 && c.y + 1 < r.y + r.h))
			continue;
		/* Facing it most, then nearest. */
		share = dx != 0 ? tui_overlap(r.y, r.h, c.y, c.h) :
		    tui_overlap(r.x, r.w, c.x, c.w);
		dist = dx < 0 ? r.x - (c.x + c.w) : dx > 0 ? c.x - (r.x + r.w) :
		    dy < 0 ? r.y - (c.y + c.h) : c.y - (r.y + r.h);
		if (best < 0 || share > best_share || (share == best_share &&
		    dist < best_dist)) {
			best = i;
			best_share = share;
			best_dist = dist;
		}
	}
	if (best >= 0)
		tui_focus(t, best);
}

/* Remove pane i and forget its (finished) session or its replay. */
/*
 * The panes of a console that shows nothing (detached, or too small) no
 * longer bind their sessions' sizes.
 */
void
tui_unview_hidden(struct tui *t)
{
	int	i;

	for (i = 0; i < t->npanes; i++)
		if (t->panes[i]->s != NULL && t->panes[i]->rect.w == 0)
			session_unview(t->panes[i]->s, t->panes[i]);
}

void
tui_close_pane(struct tui *t, int i)
{
	/*
	 * A finished session is forgotten by every console: the set tells
	 * each (this one too) to remove its pane (tui_remove_pane).
	 */
	if (t->panes[i]->s != NULL)
		sessions_forget(t->ss, t->panes[i]->s);
	else
		tui_remove_pane(t, i);
}

void
tui_remove_pane(struct tui *t, int i)
{
	struct tui_pane	*p = t->panes[i];

	if (p->s != NULL)
		session_unview(p->s, p);
	tui_replay_free(p->replay);
	free(p->dirty);
	free(p);
	memmove(&t->panes[i], &t->panes[i + 1],
	    (size_t)(t->npanes - i - 1) * sizeof *t->panes);
	t->npanes--;
	if (i < t->focus)
		t->focus--;
	if (t->focus >= t->npanes)
		t->focus = t->npanes > 0 ? t->npanes - 1 : 0;
	if (t->npanes <= 1)
		t->zoom = false;
	tui_relayout(t);
}

/*
 * A new agent session started: close the panes of agent sessions that
 * have ended (they are in the history), except the focused one, so that
 * an agent's stream of commands does not fill the screen.
 */
void
tui_tidy_agents(struct loop *l, void *arg)
{
	struct tui	*t = arg;
	struct session	*s, *newest = NULL;
	int		 i;

	(void)l;
	t->tidy_timer = NULL;
	for (i = 0; i < t->npanes; i++)
		if ((s = t->panes[i]->s) != NULL && session_is_agent(s))
			newest = s;
	i = 0;
	while (i < t->npanes) {
		s = t->panes[i]->s;
		if (s != NULL && s != newest && session_is_agent(s) &&
		    session_is_done(s) && i != t->focus)
			tui_close_pane(t, i);	/* the focus moves with it */
		else
			i++;
	}
	tui_schedule(t);
}
