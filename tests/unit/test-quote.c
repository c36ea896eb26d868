/*
 * test-quote.c - text made safe to show: words quoted so they split back to
 * the same bytes, control, C1, invalid and invisible characters (bidi
 * controls, zero-width ones) escaped, free text escaped on one line.
 */
#include "base/quote.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "policy/shsplit.h"
#include "tests/tap.h"

/* Quote one word. */
static char *
word(const char *w)
{
	struct buf	b = { 0 };

	quote_word(&b, w);
	return buf_cstr(&b);
}

/* Whether the quoted form of w splits back to exactly w (one word). */
static bool
round_trip(const char *w)
{
	struct shsplit	*sp;
	char		*q = word(w);
	bool		 same;

	sp = shsplit_parse(q, 0);
	same = sp->error == NULL && sp->ncmds == 1 &&
	    sp->cmds[0].nwords == 1 && strcmp(sp->cmds[0].words[0].text, w) == 0;
	shsplit_free(sp);
	free(q);
	return same;
}

int
main(void)
{
	static const char *const words[] = {
		"plain", "two words", "it's", "\xe2\x80\xae", "a\tb\x1b[2K",
		"ls\xe2\x80\xaetxt.exe", "zero\xe2\x80\x8bwidth", "\xef\xbb\xbfx",
		"caf\xc3\xa9", "\xff\xfe", "\xc2\x9b", "\xe2\x81\xa6iso",
	};
	static const struct {
		const char	*in, *want, *what;
	} quoted[] = {
		{ "ls\xe2\x80\xae" "txt.exe", "$'ls\\u202etxt.exe'",
		  "U+202E (right-to-left override) is escaped" },
		{ "zero\xe2\x80\x8b" "width", "$'zero\\u200bwidth'",
		  "U+200B (zero width space) too" },
		{ "\xef\xbb\xbf" "x", "$'\\ufeffx'", "U+FEFF too" },
		{ "\xe2\x81\xa6" "iso", "$'\\u2066iso'",
		  "U+2066 (left-to-right isolate) too" },
		{ "caf\xc3\xa9", "'caf\xc3\xa9'",
		  "visible non-ASCII stays as it is" },
		{ "a\tb\x1b[2K", "$'a\\tb\\e[2K'",
		  "control characters are escaped" },
		{ "\xc2\x9b", "$'\\xc2\\x9b'", "a C1 control byte by byte" },
	};
	char		*s, *argv[] = { "ls", "a\xe2\x80\xae" "b", NULL };
	size_t		 i;

	for (i = 0; i < sizeof quoted / sizeof quoted[0]; i++) {
		s = word(quoted[i].in);
		is_str(s, quoted[i].want, "%s", quoted[i].what);
		free(s);
	}
	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		ok(round_trip(words[i]), "word %zu splits back to its bytes", i);

	s = quote_argv(argv);
	is_str(s, "ls $'a\\u202eb'", "argv: words quoted and joined");
	free(s);
	ok(quote_argv_has_invisible(argv), "argv holds an invisible character");
	argv[1] = "ab";
	ok(!quote_argv_has_invisible(argv), "... and then not");
	ok(!quote_argv_has_invisible(NULL), "no argv holds none");

	s = quote_text("fix \xe2\x80\xae\x1b[31mbug\r\n caf\xc3\xa9 \xff");
	is_str(s, "fix \\u202e\\x1b[31mbug\\x0d\\x0a caf\xc3\xa9 \\xff",
	    "free text: invisible, control and invalid bytes escaped");
	free(s);
	ok(quote_has_invisible("a\xe2\x80\x8d"), "U+200D is invisible");
	ok(quote_has_invisible("\xd8\x9c"), "U+061C (Arabic letter mark) too");
	ok(!quote_has_invisible("caf\xc3\xa9 \xe2\x80\x94"),
	    "an em dash is not");
	ok(!quote_has_invisible("\xe2\x80"), "a cut sequence is not");
	return tap_done();
}
