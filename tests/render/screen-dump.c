/*
 * screen-dump.c - feed files of terminal output to a session screen and
 * print what it shows: one line per row, a JSON array of its glyphs, each
 * [text, fg, bg, flags] (colours "default", "idx:N" or "rgb:RRGGBB", flags
 * the CELL_* bits), then a last line "cursor ROW,COL".
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

/* Append a colour as cellcmp.py names it. */
static void
dump_color(struct buf *b, uint32_t c)
{
	uint32_t	v = c & 0xffffffu;

	if (CELL_COLOR_TYPE(c) == CELL_COLOR_INDEXED)
		buf_printf(b, "\"idx:%u\"", v);
	else if (CELL_COLOR_TYPE(c) == CELL_COLOR_RGB)
		buf_printf(b, "\"rgb:%06x\"", v);
	else
		buf_adds(b, "\"default\"");
}

/* Print the screen's rows and its cursor. */
static void
dump(const struct screen *s)
{
	struct cell	*cells;
	struct buf	 b = { 0 }, text = { 0 };
	char		 u[4];
	int		 rows = screen_rows(s), cols = screen_cols(s);
	int		 r, c, k, crow, ccol;
	bool		 vis;

	cells = xcalloc((size_t)cols, sizeof *cells);
	for (r = 0; r < rows; r++) {
		screen_row_cells(s, r, cells, cols);
		buf_addc(&b, '[');
		for (c = 0; c < cols; c++) {
			if (cells[c].width == 0)
				continue;
			text.len = 0;
			if (cells[c].chars[0] == 0)
				buf_addc(&text, ' ');
			for (k = 0; k < CELL_MAX_CHARS && cells[c].chars[k];
			    k++)
				buf_add(&text, u, utf8_put(cells[c].chars[k],
				    u));
			buf_adds(&b, c > 0 ? ",[" : "[");
			buf_add_json_string(&b, text.data, text.len);
			buf_addc(&b, ',');
			dump_color(&b, cells[c].attr.fg);
			buf_addc(&b, ',');
			dump_color(&b, cells[c].attr.bg);
			buf_printf(&b, ",%u]", cells[c].attr.flags);
		}
		buf_adds(&b, "]\n");
	}
	screen_cursor(s, &crow, &ccol, &vis);
	buf_printf(&b, "cursor %d,%d\n", crow, ccol);
	fwrite(b.data, 1, b.len, stdout);
	buf_free(&b);
	buf_free(&text);
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
