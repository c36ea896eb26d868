/*
 * screen-dump.c - feed files of terminal output to a session screen and
 * print what it shows, the way `tmux capture-pane -p -e -N` prints a pane:
 * one line per row, each cell's characters with an SGR sequence wherever
 * the attributes change, then a last line "cursor ROW,COL".
 *
 * usage: screen-dump ROWS COLS FILE [ROWS COLS FILE]...
 * The first triple sizes a fresh screen and feeds FILE; each further one
 * resizes the screen, then feeds its FILE ("-" for none).
 * Used by tests/render/differential.sh to compare with tmux.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term/screen.h"
#include "base/utf8.h"
#include "base/util.h"

/* Append one colour's SGR parameters (base 30 for fg, 40 for bg). */
static void
sgr_color(struct buf *b, uint32_t c, int base)
{
	uint32_t	v = c & 0xffffffu;

	switch (CELL_COLOR_TYPE(c)) {
	case CELL_COLOR_INDEXED:
		if (v < 8)
			buf_printf(b, ";%u", base + v);
		else if (v < 16)
			buf_printf(b, ";%u", base + 60 + v - 8);
		else
			buf_printf(b, ";%d;5;%u", base + 8, v);
		break;
	case CELL_COLOR_RGB:
		buf_printf(b, ";%d;2;%u;%u;%u", base + 8, v >> 16,
		    (v >> 8) & 0xff, v & 0xff);
		break;
	default:
		break;
	}
}

/* Append the SGR sequence that sets exactly attr (after a reset). */
static void
sgr(struct buf *b, const struct cell_attr *a)
{
	static const struct { uint16_t flag; const char *code; } flags[] = {
		{ CELL_BOLD, ";1" }, { CELL_ITALIC, ";3" },
		{ CELL_UNDERLINE, ";4" }, { CELL_UNDERLINE2, ";4:2" },
		{ CELL_BLINK, ";5" }, { CELL_REVERSE, ";7" },
		{ CELL_CONCEAL, ";8" }, { CELL_STRIKE, ";9" },
	};
	size_t	i;

	buf_adds(b, "\033[0");
	for (i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (a->flags & flags[i].flag)
			buf_adds(b, flags[i].code);
	sgr_color(b, a->fg, 30);
	sgr_color(b, a->bg, 40);
	buf_addc(b, 'm');
}

/* Print the screen's rows and its cursor. */
static void
dump(const struct screen *s)
{
	struct cell		*cells;
	struct cell_attr	 cur = { 0, 0, 0 };
	struct buf		 b = { 0 };
	char			 u[4];
	int			 rows = screen_rows(s), cols = screen_cols(s);
	int			 r, c, k, crow, ccol;
	bool			 vis;

	cells = xcalloc((size_t)cols, sizeof *cells);
	for (r = 0; r < rows; r++) {
		screen_row_cells(s, r, cells, cols);
		for (c = 0; c < cols; c++) {
			if (cells[c].width == 0)
				continue;
			if (!cell_attr_eq(&cells[c].attr, &cur)) {
				cur = cells[c].attr;
				sgr(&b, &cur);
			}
			if (cells[c].chars[0] == 0)
				buf_addc(&b, ' ');
			for (k = 0; k < CELL_MAX_CHARS && cells[c].chars[k];
			    k++)
				buf_add(&b, u, utf8_encode(cells[c].chars[k],
				    u));
		}
		buf_addc(&b, '\n');
	}
	screen_cursor(s, &crow, &ccol, &vis);
	buf_printf(&b, "cursor %d,%d\n", crow, ccol);
	fwrite(b.data, 1, b.len, stdout);
	buf_free(&b);
	free(cells);
}

/* Feed a whole file to the screen. */
static void
feed_file(struct screen *s, const char *path)
{
	char	 data[65536];
	size_t	 n;
	FILE	*f;

	if (strcmp(path, "-") == 0)
		return;
	if ((f = fopen(path, "rb")) == NULL)
		fatal("%s: cannot open", path);
	while ((n = fread(data, 1, sizeof data, f)) > 0)
		screen_feed(s, data, n);
	fclose(f);
}

int
main(int argc, char **argv)
{
	struct screen	*s = NULL;
	int		 i;

	if (argc < 4 || (argc - 1) % 3 != 0) {
		fprintf(stderr, "usage: screen-dump ROWS COLS FILE "
		    "[ROWS COLS FILE]...\n");
		return 2;
	}
	for (i = 1; i < argc; i += 3) {
		if (s == NULL)
			s = screen_new(atoi(argv[i]), atoi(argv[i + 1]), 1000,
			    NULL, NULL);
		else
			screen_resize(s, atoi(argv[i]), atoi(argv[i + 1]));
		feed_file(s, argv[i + 2]);
	}
	dump(s);
	screen_free(s);
	return 0;
}
