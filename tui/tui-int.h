/*
 * tui-int.h - what the files of the front end share: struct tui, its
 * panes and modes, and the functions one file calls in another.  Not for
 * use outside tui/ (cli/ uses tui.h).
 *
 * Calls go one way: tui.c (the object and its subscriptions) calls
 * input.c (the keys), views.c, panes.c and draw.c; input.c calls views.c,
 * panes.c and draw.c; views.c calls panes.c and draw.c; panes.c calls
 * draw.c; draw.c calls none of them; all of them may call tui-term.c (the
 * terminals), which calls none of them.
 *
 * Invariants: every session of the set has exactly one pane (created
 * adds it, closing a finished pane forgets the session); a pane has
 * exactly one of a session and a replay; focus < npanes when npanes > 0;
 * a pane's dirty array has one entry per row of its content rectangle.
 */
#ifndef PTYVISOR_TUI_INT_H
#define PTYVISOR_TUI_INT_H

#include "tui/tui.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/layout.h"

/*
 * Frames under load: one every TUI_FRAME_MS at most (about 60 a second).
 * A frame the person waits for (a key, an approval) is drawn at once, and
 * so is the focused pane's output (an echo) while it comes no faster than
 * one frame per TUI_FRAME_MS on average, in bursts of at most
 * TUI_FRAME_BURST: an echo that comes a little early after a late one
 * (a busy machine) is not held back a whole frame, a flood is paced.
 */
#define TUI_FRAME_MS		16
#define TUI_FRAME_BURST		4

struct approval;
struct askbox;
struct cell;
struct keys_event;
struct loop;
struct loop_timer;
struct scroll;
struct session;
struct sessions;
struct tui_history;
struct tui_replay;

enum tui_mode {
	TUI_NORMAL,
	TUI_PREFIX_WAIT,	/* the prefix key was pressed */
	TUI_CONFIRM,		/* a y/n question on the status line */
	TUI_HELP,
	TUI_EXECS,		/* the focused session's processes, execs */
	TUI_HISTORY,
	TUI_SCROLL,		/* scroll mode or an output view */
};

enum tui_confirm {
	TUI_CONFIRM_KILL,
	TUI_CONFIRM_QUIT,
};

/* The columns of a pane's row left to draw: none while lo >= hi. */
struct tui_span {
	int			 lo;
	int			 hi;
};

struct tui_pane {
	struct session		*s;	/* a session's pane, or NULL */
	struct tui_replay	*replay;	/* a replay's pane, or NULL */
	struct layout_rect	 rect;	/* w == 0: not visible */
	struct tui_span		*dirty;	/* one per content row */
	int			 ndirty;
	bool			 dirty_all;
	bool			 title_dirty;
};

struct tui {
	struct loop		*loop;
	struct sessions		*ss;
	/* Where it draws; NULL while its console is detached. */
	struct tui_term		*term;
	bool			 console;	/* an attached console's */
	bool			 readonly;	/* attach -r: watch only */
	bool			 starting;	/* in tui_new_session: ours */
	char			*by;		/* who decides, for the history */
	struct tui_console_hooks hooks;
	void			*hooks_arg;
	uint32_t		 prefix;	/* the prefix key's code */
	char			 prefix_name[8];	/* "C-g" */
	char			*sandbox;	/* profile name, status line */
	const struct sandbox_opts *sandbox_opts;	/* borrowed */
	char			*approval_mode;
	struct approval		*approval;	/* borrowed; NULL: none */
	struct askbox		*askbox;	/* NULL without approval */
	bool			 agents;	/* a socket serves agents */
	bool			 box_drawn;	/* the prompt is on screen */
	struct loop_timer	*tidy_timer;
	char			*history_path;
	bool			 quit_when_done;
	bool			 mouse;		/* --mouse: over the panes too */
	size_t			 scrollback;	/* 0: the default */
	char			**envp;		/* for new sessions */

	struct tui_pane		**panes;
	int			 npanes;
	int			 focus;
	bool			 zoom;
	int			 help_top;	/* first help line shown */
	unsigned long		 execs_of;	/* TUI_EXECS: the session */

	enum tui_mode		 mode;
	enum tui_confirm	 confirm;
	unsigned long		 confirm_id;
	bool			 pasting;
	bool			 too_small;
	bool			 redraw_all;
	bool			 quit;
	bool			 closing;	/* terminal given back */

	char			*message;
	char			*status_key;	/* what the status line shows */
	uint64_t		 message_until;

	struct tui_history	*history;
	struct scroll		*scroll;
	bool			 scroll_from_history;

	struct cell		*cells;		/* one row, for drawing */
	int			 ncells;

	struct loop_timer	*frame_timer;
	bool			 frame_now;	/* frame_timer is urgent */
	int			 echo_frames;	/* left in the burst */
	uint64_t		 echo_ms;	/* when it was last topped up */
	struct loop_timer	*tick_timer;
	uint64_t		 last_frame_ms;
	unsigned long		 watched;	/* session served first, or 0 */
};

/*
 * tui-term.c: the terminals a front end draws on (the person's own, or an
 * attached console's in memory) and the switch between their curses
 * screens.
 */
struct buf;
struct tui_term	*tui_term_own(char **cause);
struct tui_term	*tui_term_remote(const char *type, int rows, int cols,
		    char **cause);
/* Make tt the screen curses draws on (set_term, LINES, COLS, colours). */
void		 tui_term_enter(struct tui_term *tt);
void		 tui_term_resize(struct tui_term *tt, int rows, int cols);
void		 tui_term_own_size(struct tui_term *tt);
/* Leave curses on tt (endwin) and keep the screen for the next console. */
void		 tui_term_release(struct tui_term *tt);
int		 tui_term_rows(const struct tui_term *tt);
int		 tui_term_cols(const struct tui_term *tt);
/* Where to write to the terminal directly (marks it written). */
int		 tui_term_out_fd(struct tui_term *tt);
int		 tui_term_in_fd(const struct tui_term *tt);
bool		 tui_term_is_own(const struct tui_term *tt);
/* Keys typed at a remote console, for curses to read; -1: no room. */
int		 tui_term_keys(struct tui_term *tt, const void *data,
		    size_t len);
/* What curses wrote on a remote console since the last call. */
void		 tui_term_take(struct tui_term *tt, struct buf *out);

/*
 * tui-term.c: draw on t's terminal from now on; false: it has none
 * (detached).
 */
bool	tui_enter(struct tui *t);

/* draw.c: put text on the terminal's clipboard (OSC 52). */
void	tui_clipboard(struct tui *t, const char *text);
/* draw.c: ask the terminal to mark pastes, or stop (at once, not buffered). */
void	tui_bracketed_paste(struct tui *t, bool on);
/* draw.c: ask for a frame: now if the last one is old enough, else later. */
void	tui_schedule(struct tui *t);
/* draw.c: ask for a frame at once, after the current callback. */
void	tui_schedule_now(struct tui *t);
/*
 * draw.c: the focused pane changed: at once within the echo rate, else
 * paced.
 */
void	tui_schedule_echo(struct tui *t);
/* draw.c: show a hint on the status line for a few seconds. */
void	tui_message(struct tui *t, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* TERM the sessions see: what libvterm emulates. */
#define TUI_SESSION_TERM	"xterm-256color"

/*
 * draw.c: rows [srow, erow) of pane p changed in columns [scol, ecol)
 * (ecol INT_MAX: the whole rows).
 */
void	tui_pane_damage(struct tui_pane *p, int srow, int erow, int scol,
	    int ecol);
/* panes.c: the visible pane at screen cell (y, x), or -1. */
int	tui_pane_at(struct tui *t, int y, int x);
/* panes.c: focus the pane to the left, right (dx), above or below (dy). */
void	tui_focus_toward(struct tui *t, int dx, int dy);
/* panes.c: the pane of session s, or -1. */
int	tui_find(struct tui *t, struct session *s);
/* panes.c: the pane showing replay r, or -1. */
int	tui_find_replay(struct tui *t, struct tui_replay *r);
/*
 * panes.c: give every visible pane its rectangle and its session that
 * size; a hidden pane's session the size of the tile it would have.
 */
void	tui_relayout(struct tui *t);
/* panes.c: focus pane i (wrapping). */
void	tui_focus(struct tui *t, int i);
/* panes.c: remove pane i and forget its (finished) session or its replay. */
void	tui_close_pane(struct tui *t, int i);
/* panes.c: remove pane i (its session is being forgotten, or a replay). */
void	tui_remove_pane(struct tui *t, int i);
/* panes.c: a console showing nothing binds no session's size. */
void	tui_unview_hidden(struct tui *t);
/* panes.c: loop timer: close the panes of agent sessions that have ended. */
void	tui_tidy_agents(struct loop *l, void *arg);

/*
 * input.c: loop callback for the terminal's fd (tui_console_input calls
 * it too): handle every key the terminal holds; quit when it went away.
 */
void	tui_input(struct loop *l, int fd, short revents, void *arg);

/* views.c: a click or the wheel over the panes (--mouse). */
void	tui_mouse_panes(struct tui *t, const struct keys_event *ev);
/* views.c: mouse reports for a view (view) or the panes (only --mouse). */
void	tui_mouse(struct tui *t, bool view);
/* views.c: leave history or scroll mode for the panes. */
void	tui_back_to_panes(struct tui *t);
/* views.c: open the history pane. */
void	tui_open_history(struct tui *t);
/* views.c: open scroll mode on the focused pane. */
void	tui_open_scroll(struct tui *t);
/* views.c: open the output of the selected history entry. */
void	tui_open_output(struct tui *t);
/* views.c: replay the selected history entry in a new pane, focused. */
void	tui_open_replay(struct tui *t);
/* views.c: a key for the focused replay pane. */
void	tui_replay_input(struct tui *t, const struct keys_event *ev);
/* views.c: a key for the approval prompt. */
void	tui_askbox_key(struct tui *t, const struct keys_event *ev);

#endif
