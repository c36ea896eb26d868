/*
 * tui-term.c - the terminals a front end draws on: the person's own (stdin
 * and stdout, the console of `--no-socket`) or an attached console's,
 * kept in memory: curses writes a frame into a memfd that the server
 * sends to the console's client, and reads keys from a pipe the server
 * fills with what the client typed.
 *
 * Several consoles live in one process, one curses SCREEN each, switched
 * with set_term().  Two things about ncurses 6.4 shape this file:
 * - set_term() leaves LINES and COLS as the last screen set them, so
 *   tui_term_enter() puts back the entered screen's own size;
 * - delscreen() of one screen breaks the others (they stop drawing and
 *   reading keys): a screen is never deleted while the process runs.  A
 *   console that leaves gives its screen back to a pool (endwin), and the
 *   next console with the same terminal type takes it again, so the pool
 *   holds at most as many screens as consoles were ever attached at once.
 * A memfd never blocks and never fills, so curses cannot stop the server
 * on a console that stopped reading: what was drawn waits in the
 * connection's bounded queue (control/conn.c) instead.
 */
#include <curses.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/util.h"
#include "tui/keys.h"
#include "tui/render.h"
#include "tui/tui-int.h"

struct tui_term {
	void		*scr;		/* curses' SCREEN */
	char		*type;		/* TERM; NULL: the person's own */
	bool		 own;		/* stdin/stdout */
	bool		 in_use;
	int		 rows, cols;
	int		 ncolors;	/* render_init()'s choice */
	bool		 written;	/* maybe written since the last take */
	int		 out_fd;	/* curses writes here */
	int		 keys_fd;	/* remote: we write keys here */
	FILE		*out, *in;
};

/* Every screen made, in use or pooled (never deleted, see above). */
static struct tui_term	**tui_terms;
static size_t		  tui_nterms;

/* Settings every screen gets once, right after it is made. */
static void
tui_term_setup(struct tui_term *tt)
{
	raw();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	/*
	 * Our loop reads the keys: curses must not poll for them in the
	 * middle of a frame (and flush what it has so far each time).
	 */
	typeahead(-1);
	keys_init();
	tt->ncolors = render_init();
	/*
	 * ncurses 6.4 flushes its output after every cursor movement until a
	 * screen has been through endwin() once, so a frame went out as one
	 * write(2) per row, each waking the terminal's reader.  Leaving and
	 * coming back at once, before anything is drawn, ends that: a frame
	 * is then written whole from curses' buffer.
	 */
	endwin();
	refresh();
}

struct tui_term *
tui_term_own(char **cause)
{
	struct tui_term	*tt;
	struct winsize	 ws;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		*cause = xstrdup("the front end needs a terminal (stdin and "
		    "stdout); use 'ptyvisor run' or 'ptyvisor serve'");
		return NULL;
	}
	tt = xcalloc(1, sizeof *tt);
	if ((tt->scr = newterm(NULL, stdout, stdin)) == NULL) {
		*cause = xasprintf("cannot start curses on TERM=%s",
		    getenv("TERM") != NULL ? getenv("TERM") : "(unset)");
		free(tt);
		return NULL;
	}
	tt->own = true;
	tt->in_use = true;
	tt->out_fd = STDOUT_FILENO;
	tt->keys_fd = -1;
	tt->rows = LINES;
	tt->cols = COLS;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0) {
		tt->rows = ws.ws_row;
		tt->cols = ws.ws_col;
	}
	tui_term_setup(tt);
	tui_terms = xreallocarray(tui_terms, tui_nterms + 1,
	    sizeof *tui_terms);
	tui_terms[tui_nterms++] = tt;
	return tt;
}

/* A new in-memory screen of type at rows x cols, or NULL with *cause. */
static struct tui_term *
tui_term_make(const char *type, int rows, int cols, char **cause)
{
	struct tui_term	*tt = xcalloc(1, sizeof *tt);
	int		 p[2] = { -1, -1 };
	char		 n[16];

	tt->out_fd = memfd_create("ptyvisor-console", MFD_CLOEXEC);
	if (tt->out_fd < 0 || pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0) {
		*cause = xasprintf("console: %s", strerror(errno));
		goto fail;
	}
	tt->keys_fd = p[1];
	tt->out = fdopen(tt->out_fd, "w");
	tt->in = fdopen(p[0], "r");
	if (tt->out == NULL || tt->in == NULL) {
		*cause = xasprintf("console: %s", strerror(errno));
		goto fail;
	}
	p[0] = -1;
	/* Not a terminal: curses takes its first size from these. */
	snprintf(n, sizeof n, "%d", rows);
	setenv("LINES", n, 1);
	snprintf(n, sizeof n, "%d", cols);
	setenv("COLUMNS", n, 1);
	tt->scr = newterm(type, tt->out, tt->in);
	unsetenv("LINES");
	unsetenv("COLUMNS");
	if (tt->scr == NULL) {
		*cause = xasprintf("this server knows no terminal '%s' "
		    "(terminfo)", type);
		goto fail;
	}
	tt->type = xstrdup(type);
	tt->rows = rows;
	tt->cols = cols;
	tui_term_setup(tt);
	tui_terms = xreallocarray(tui_terms, tui_nterms + 1,
	    sizeof *tui_terms);
	tui_terms[tui_nterms++] = tt;
	return tt;

fail:
	if (p[0] >= 0)
		close(p[0]);
	if (tt->in != NULL)
		fclose(tt->in);
	if (tt->out != NULL)
		fclose(tt->out);
	else if (tt->out_fd >= 0)
		close(tt->out_fd);
	if (tt->keys_fd >= 0)
		close(tt->keys_fd);
	free(tt);
	return NULL;
}

struct tui_term *
tui_term_remote(const char *type, int rows, int cols, char **cause)
{
	struct tui_term	*tt;
	size_t		 i;
	char		 drain[4096];

	for (i = 0; i < tui_nterms; i++) {
		tt = tui_terms[i];
		if (tt->in_use || tt->own || strcmp(tt->type, type) != 0)
			continue;
		tt->in_use = true;
		/* Whatever an old console left unread is not for this one. */
		while (read(fileno(tt->in), drain, sizeof drain) > 0)
			;
		tui_term_enter(tt);
		tui_term_resize(tt, rows, cols);
		clearok(curscr, TRUE);
		return tt;
	}
	if ((tt = tui_term_make(type, rows, cols, cause)) == NULL)
		return NULL;
	tt->in_use = true;
	return tt;
}

bool
tui_enter(struct tui *t)
{
	if (t->term == NULL)
		return false;
	tui_term_enter(t->term);
	return true;
}

void
tui_term_enter(struct tui_term *tt)
{
	tt->written = true;	/* curses may write from here on */
	set_term(tt->scr);
	LINES = tt->rows;
	COLS = tt->cols;
	render_select(tt->ncolors);
}

void
tui_term_resize(struct tui_term *tt, int rows, int cols)
{
	if (rows < 1 || cols < 1)
		return;
	tui_term_enter(tt);
	if (rows != tt->rows || cols != tt->cols)
		resize_term(rows, cols);
	tt->rows = LINES = rows;
	tt->cols = COLS = cols;
}

/* The person's terminal asks the kernel for its size. */
void
tui_term_own_size(struct tui_term *tt)
{
	struct winsize	ws;

	if (!tt->own || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 ||
	    ws.ws_row == 0 || ws.ws_col == 0)
		return;
	tui_term_enter(tt);
	resizeterm(ws.ws_row, ws.ws_col);
	tt->rows = ws.ws_row;
	tt->cols = ws.ws_col;
}

void
tui_term_release(struct tui_term *tt)
{
	if (tt == NULL || !tt->in_use)
		return;
	tui_term_enter(tt);
	if (!isendwin())
		endwin();
	tt->in_use = false;
}

int
tui_term_rows(const struct tui_term *tt)
{
	return tt->rows;
}

int
tui_term_cols(const struct tui_term *tt)
{
	return tt->cols;
}

int
tui_term_out_fd(struct tui_term *tt)
{
	tt->written = true;	/* the caller writes there */
	return tt->out_fd;
}

int
tui_term_in_fd(const struct tui_term *tt)
{
	return tt->own ? STDIN_FILENO : fileno(tt->in);
}

bool
tui_term_is_own(const struct tui_term *tt)
{
	return tt->own;
}

int
tui_term_keys(struct tui_term *tt, const void *data, size_t len)
{
	const char	*p = data;
	ssize_t		 n;

	while (len > 0) {
		n = write(tt->keys_fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;	/* full: the rest waits */
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void
tui_term_take(struct tui_term *tt, struct buf *out)
{
	char	buf[65536];
	off_t	end, off = 0;
	ssize_t	n;

	/* Nothing entered it since: no system call every loop turn. */
	if (tt->own || !tt->written)
		return;
	tt->written = false;
	if ((end = lseek(tt->out_fd, 0, SEEK_CUR)) <= 0)
		return;
	while (off < end) {
		n = pread(tt->out_fd, buf, sizeof buf < (size_t)(end - off) ?
		    sizeof buf : (size_t)(end - off), off);
		if (n <= 0)
			break;
		buf_add(out, buf, (size_t)n);
		off += n;
	}
	if (ftruncate(tt->out_fd, 0) != 0 ||
	    lseek(tt->out_fd, 0, SEEK_SET) != 0)
		fatal("console output: %s", strerror(errno));
}
