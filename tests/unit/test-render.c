/*
 * test-render.c - runs the rendering scripts tests/render/NAME.test.
 *
 * Each script drives a session screen (the code the front end draws
 * from) and checks it, and checks the pure mapping of tui/render (colour
 * to the terminal's depth, characters drawn).  One TAP test per
 * expectation.  The language, one command per line, '#' comments:
 *
 *   RESET rows,cols           a fresh screen (each file starts 25,80)
 *   PUSH "bytes"              feed bytes (C escapes: \e \n \r \t \xNN \\ \")
 *   ROW r "text"              row r's text (r < 0: scrollback)
 *   ATTR r,c a,b,...          attribute flags (bold underline underline2
 *                             italic blink reverse strike conceal | none)
 *   FG r,c COLOR / BG r,c     default | idx:N | rgb:RRGGBB
 *   WIDTH r,c N               cell width (2 wide, 0 right half)
 *   CHARS r,c 0xA,0xB         the code points of the cell
 *   CURSOR r,c                cursor position
 *   VISIBLE 0|1               cursor visibility
 *   RESIZE rows,cols
 *   ALTSCREEN 0|1
 *   SCROLLBACK n              lines in the scrollback
 *   MAP depth fg|bg r,c N     render_color() of the cell on a terminal of
 *                             depth 0/8/16/256/direct (-1: default)
 *   DRAWN r,c 0xA,0xB         the characters render_chars() draws
 */
#include <ctype.h>
#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term/screen.h"
#include "base/util.h"
#include "tests/tap.h"
#include "tui/render.h"

struct script {
	const char	*file;
	int		 line;
	struct screen	*scr;
};

/* Decode a "quoted" C-style string at p into out; returns its length. */
static size_t
unquote(const char *p, char *out, size_t max)
{
	size_t	n = 0;
	char	hex[3];

	if (*p++ != '"')
		return 0;
	while (*p != '\0' && *p != '"' && n + 1 < max) {
		if (*p != '\\') {
			out[n++] = *p++;
			continue;
		}
		p++;
		switch (*p) {
		case 'e':
			out[n++] = '\033';
			break;
		case 'n':
			out[n++] = '\n';
			break;
		case 'r':
			out[n++] = '\r';
			break;
		case 't':
			out[n++] = '\t';
			break;
		case 'x':
			hex[0] = p[1];
			hex[1] = p[2];
			hex[2] = '\0';
			out[n++] = (char)strtol(hex, NULL, 16);
			p += 2;
			break;
		default:
			out[n++] = *p;
			break;
		}
		p++;
	}
	out[n] = '\0';
	return n;
}

/* Parse "r,c" at *pp. */
static void
pos(char **pp, int *r, int *c)
{
	*r = (int)strtol(*pp, pp, 10);
	if (**pp == ',')
		(*pp)++;
	*c = (int)strtol(*pp, pp, 10);
	while (**pp == ' ')
		(*pp)++;
}

/* Parse a colour: default, idx:N, rgb:RRGGBB. */
static uint32_t
color(const char *p)
{
	if (strncmp(p, "idx:", 4) == 0)
		return CELL_COLOR_INDEXED | (uint32_t)strtoul(p + 4, NULL, 10);
	if (strncmp(p, "rgb:", 4) == 0)
		return CELL_COLOR_RGB | (uint32_t)strtoul(p + 4, NULL, 16);
	return CELL_COLOR_DEFAULT;
}

/* Parse attribute names into flags. */
static uint16_t
flags(const char *p)
{
	static const struct { const char *name; uint16_t f; } names[] = {
		{ "bold", CELL_BOLD }, { "underline2", CELL_UNDERLINE2 },
		{ "underline", CELL_UNDERLINE }, { "italic", CELL_ITALIC },
		{ "blink", CELL_BLINK }, { "reverse", CELL_REVERSE },
		{ "strike", CELL_STRIKE }, { "conceal", CELL_CONCEAL },
	};
	uint16_t	f = 0;
	size_t		i, n;

	while (*p != '\0' && !isspace((unsigned char)*p)) {
		for (i = 0; i < sizeof names / sizeof names[0]; i++) {
			n = strlen(names[i].name);
			if (strncmp(p, names[i].name, n) == 0 &&
			    (p[n] == ',' || p[n] == '\0' ||
			    isspace((unsigned char)p[n]))) {
				f |= names[i].f;
				break;
			}
		}
		while (*p != ',' && *p != '\0' && !isspace((unsigned char)*p))
			p++;
		if (*p == ',')
			p++;
	}
	return f;
}

/* Parse "0xA,0xB" into cps (0-terminated); returns the count. */
static int
codepoints(const char *p, uint32_t *cps, int max)
{
	int	n = 0;
	char	*end;

	while (n < max - 1) {
		cps[n] = (uint32_t)strtoul(p, &end, 0);
		if (end == p)
			break;
		n++;
		p = end;
		if (*p != ',')
			break;
		p++;
	}
	cps[n] = 0;
	return n;
}

/* Run one command line. */
static void
command(struct script *s, char *line)
{
	struct cell	 cell;
	struct buf	 text = { 0 };
	char		 str[4096], *p, what[16];
	uint32_t	 cps[8];
	wchar_t		 drawn[8];
	int		 r, c, n, want, got, depth, i, crow, ccol;
	bool		 vis, same;

	p = strchr(line, ' ');
	p = p != NULL ? p + 1 : line + strlen(line);
	if (strncmp(line, "RESET", 5) == 0) {
		pos(&p, &r, &c);
		screen_free(s->scr);
		s->scr = screen_new(r, c, 1000, NULL, NULL);
	} else if (strncmp(line, "PUSH ", 5) == 0) {
		n = (int)unquote(p, str, sizeof str);
		screen_feed(s->scr, str, (size_t)n);
		screen_flush_damage(s->scr);
	} else if (strncmp(line, "RESIZE ", 7) == 0) {
		pos(&p, &r, &c);
		screen_resize(s->scr, r, c);
	} else if (strncmp(line, "ROW ", 4) == 0) {
		r = (int)strtol(p, &p, 10);
		while (*p == ' ')
			p++;
		unquote(p, str, sizeof str);
		screen_row_text(s->scr, r, &text);
		is_str(buf_cstr(&text), str, "%s:%d: %s", s->file, s->line,
		    line);
	} else if (strncmp(line, "ATTR ", 5) == 0) {
		pos(&p, &r, &c);
		screen_cell(s->scr, r, c, &cell);
		is_int(cell.attr.flags, flags(p), "%s:%d: %s", s->file,
		    s->line, line);
	} else if (strncmp(line, "FG ", 3) == 0 ||
	    strncmp(line, "BG ", 3) == 0) {
		pos(&p, &r, &c);
		screen_cell(s->scr, r, c, &cell);
		is_int(line[0] == 'F' ? cell.attr.fg : cell.attr.bg, color(p),
		    "%s:%d: %s", s->file, s->line, line);
	} else if (strncmp(line, "WIDTH ", 6) == 0) {
		pos(&p, &r, &c);
		screen_cell(s->scr, r, c, &cell);
		is_int(cell.width, atoi(p), "%s:%d: %s", s->file, s->line,
		    line);
	} else if (strncmp(line, "CHARS ", 6) == 0) {
		pos(&p, &r, &c);
		screen_cell(s->scr, r, c, &cell);
		n = codepoints(p, cps, 8);
		same = true;
		for (i = 0; i <= n && i < CELL_MAX_CHARS; i++)
			if (cell.chars[i] != cps[i])
				same = false;
		ok(same, "%s:%d: %s", s->file, s->line, line);
		if (!same)
			diag("got 0x%x,0x%x,0x%x", cell.chars[0],
			    cell.chars[1], cell.chars[2]);
	} else if (strncmp(line, "CURSOR ", 7) == 0) {
		pos(&p, &r, &c);
		screen_cursor(s->scr, &crow, &ccol, &vis);
		ok(crow == r && ccol == c, "%s:%d: %s", s->file, s->line,
		    line);
		if (crow != r || ccol != c)
			diag("got %d,%d", crow, ccol);
	} else if (strncmp(line, "VISIBLE ", 8) == 0) {
		screen_cursor(s->scr, &crow, &ccol, &vis);
		is_int(vis, atoi(p), "%s:%d: %s", s->file, s->line, line);
	} else if (strncmp(line, "ALTSCREEN ", 10) == 0) {
		is_int(screen_altscreen(s->scr), atoi(p), "%s:%d: %s",
		    s->file, s->line, line);
	} else if (strncmp(line, "SCROLLBACK ", 11) == 0) {
		is_int(screen_scrollback_count(s->scr), atoi(p), "%s:%d: %s",
		    s->file, s->line, line);
	} else if (strncmp(line, "MAP ", 4) == 0) {
		depth = strncmp(p, "direct", 6) == 0 ? RENDER_DIRECT :
		    (int)strtol(p, NULL, 10);
		p = strchr(p, ' ');
		if (p == NULL || sscanf(p, " %15s", what) != 1) {
			ok(0, "%s:%d: bad MAP", s->file, s->line);
			return;
		}
		p = strchr(p + 1, ' ') + 1;
		pos(&p, &r, &c);
		want = (int)strtol(p, NULL, 0);
		screen_cell(s->scr, r, c, &cell);
		got = render_color(strcmp(what, "fg") == 0 ? cell.attr.fg :
		    cell.attr.bg, depth, &vis);
		is_int(got, want, "%s:%d: %s", s->file, s->line, line);
	} else if (strncmp(line, "DRAWN ", 6) == 0) {
		pos(&p, &r, &c);
		screen_cell(s->scr, r, c, &cell);
		n = codepoints(p, cps, 8);
		render_chars(&cell, drawn, 8);
		same = true;
		for (i = 0; i <= n; i++)
			if ((uint32_t)drawn[i] != cps[i])
				same = false;
		ok(same, "%s:%d: %s", s->file, s->line, line);
		if (!same)
			diag("got 0x%x,0x%x,0x%x", (unsigned)drawn[0],
			    (unsigned)drawn[1], (unsigned)drawn[2]);
	} else
		ok(0, "%s:%d: unknown command: %s", s->file, s->line, line);
	buf_free(&text);
}

/* Run every line of one script. */
static void
run_file(const char *dir, const char *name)
{
	struct script	 s;
	char		*path = xasprintf("%s/%s", dir, name), line[8192];
	size_t		 len;
	FILE		*f;

	memset(&s, 0, sizeof s);
	s.file = name;
	s.scr = screen_new(25, 80, 1000, NULL, NULL);
	if ((f = fopen(path, "r")) == NULL) {
		ok(0, "open %s", path);
		free(path);
		screen_free(s.scr);
		return;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		s.line++;
		len = strlen(line);
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == ' '))
			line[--len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		command(&s, line);
	}
	fclose(f);
	screen_free(s.scr);
	free(path);
}

static int
by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Scripts ending in .test only. */
static int
is_test(const struct dirent *d)
{
	size_t	n = strlen(d->d_name);

	return n > 5 && strcmp(d->d_name + n - 5, ".test") == 0;
}

int
main(int argc, char **argv)
{
	struct dirent	**names;
	const char	 *top = getenv("top_srcdir");
	char		 *dir;
	int		  n, i;

	/* render_chars() asks the C library for widths: use UTF-8. */
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		setlocale(LC_CTYPE, "");
	dir = argc > 1 ? xstrdup(argv[1]) :
	    xasprintf("%s/tests/render", top != NULL ? top : ".");
	n = scandir(dir, &names, is_test, by_name);
	if (n <= 0)
		ok(0, "no scripts in %s", dir);
	for (i = 0; i < n; i++) {
		run_file(dir, names[i]->d_name);
		free(names[i]);
	}
	if (n > 0)
		free(names);
	free(dir);
	return tap_done();
}
