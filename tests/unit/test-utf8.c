/*
 * test-utf8.c - unit tests for the UTF-8 stream sanitizer: valid text is
 * untouched, splitting never changes the result, invalid bytes become
 * U+FFFD, the encoder round-trips.
 */
#include "base/utf8.h"

#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"

#define FFFD "\xef\xbf\xbd"

/* Sanitize in one call plus finish; returns a NUL-ended copy. */
static char *
whole(const char *in, size_t len, size_t *outlen)
{
	struct utf8_carry	c = { { 0 }, 0 };
	struct buf		b = { 0 };

	utf8_sanitize(&c, in, len, &b);
	utf8_finish(&c, &b);
	if (outlen != NULL)
		*outlen = b.len;
	buf_addc(&b, '\0');
	return b.data;
}

/* Sanitize in chunks ending at cuts[0..ncuts) plus finish. */
static char *
pieces(const char *in, size_t len, const size_t *cuts, size_t ncuts,
    size_t *outlen)
{
	struct utf8_carry	c = { { 0 }, 0 };
	struct buf		b = { 0 };
	size_t			start = 0, i;

	for (i = 0; i <= ncuts; i++) {
		size_t end = i < ncuts ? cuts[i] : len;

		utf8_sanitize(&c, in + start, end - start, &b);
		start = end;
	}
	utf8_finish(&c, &b);
	if (outlen != NULL)
		*outlen = b.len;
	buf_addc(&b, '\0');
	return b.data;
}

/* Independent check that s[0..len) is valid UTF-8 (RFC 3629). */
static int
is_valid(const unsigned char *s, size_t len)
{
	size_t		i = 0, n, k;
	uint32_t	c;

	while (i < len) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if ((s[i] & 0xe0) == 0xc0) {
			n = 2;
			c = s[i] & 0x1f;
		} else if ((s[i] & 0xf0) == 0xe0) {
			n = 3;
			c = s[i] & 0x0f;
		} else if ((s[i] & 0xf8) == 0xf0) {
			n = 4;
			c = s[i] & 0x07;
		} else
			return 0;
		if (i + n > len)
			return 0;
		for (k = 1; k < n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			c = (c << 6) | (s[i + k] & 0x3f);
		}
		if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) ||
		    (n == 4 && c < 0x10000) || c > 0x10ffff ||
		    (c >= 0xd800 && c <= 0xdfff))
			return 0;
		i += n;
	}
	return 1;
}

static void
test_valid(void)
{
	const char	*text = "plain ASCII, caf\xc3\xa9, \xe2\x82\xac 100, "
			    "\xf0\x9f\x98\x80 smile, \xe4\xb8\xad\xe6\x96\x87, "
			    "\x1b[1mbold\x1b[0m\r\n\t\x7f";
	size_t		 len;
	char		*out;
	struct utf8_carry c = { { 0 }, 0 };
	struct buf	 b = { 0 };

	out = whole(text, strlen(text), &len);
	ok(len == strlen(text) && memcmp(out, text, len) == 0,
	    "valid text passes byte for byte");
	free(out);

	utf8_sanitize(&c, "a\0b", 3, &b);
	ok(b.len == 3 && memcmp(b.data, "a\0b", 3) == 0,
	    "NUL bytes pass through");
	buf_free(&b);
}

static void
test_splits(void)
{
	static const char *const seqs[] = {
		"x\xc3\xa9y",			/* 2 bytes */
		"x\xe2\x82\xacy",		/* 3 bytes */
		"x\xf0\x9f\x98\x80y",		/* 4 bytes */
		"\xf4\x8f\xbf\xbf\xef\xbf\xbd\xdf\xbf",	/* edges */
		"a\xe2\x82" "b\xff\xf0\x9f" "c",	/* broken, mixed */
	};
	size_t	i, a, b2, len, wlen, plen, cuts[64];
	char	*w, *p;
	int	all_ok;

	for (i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
		len = strlen(seqs[i]);
		w = whole(seqs[i], len, &wlen);
		all_ok = 1;
		/* Every pair of cut points (a cut at 0 or len is empty). */
		for (a = 0; a <= len; a++) {
			for (b2 = a; b2 <= len; b2++) {
				cuts[0] = a;
				cuts[1] = b2;
				p = pieces(seqs[i], len, cuts, 2, &plen);
				if (plen != wlen || memcmp(p, w, wlen) != 0) {
					all_ok = 0;
					diag("cut at %zu,%zu differs", a, b2);
				}
				free(p);
			}
		}
		ok(all_ok, "sequence %zu: every two-cut split == unsplit", i);
		for (a = 0; a < len; a++)
			cuts[a] = a + 1;
		p = pieces(seqs[i], len, cuts, len - 1, &plen);
		ok(plen == wlen && memcmp(p, w, wlen) == 0,
		    "sequence %zu: one byte per call == unsplit", i);
		free(p);
		free(w);
	}
}

/* One invalid-input case: in becomes want. */
static void
check_invalid(const char *in, size_t len, const char *want, const char *name)
{
	size_t	 olen, cuts[16], i;
	char	*out;

	out = whole(in, len, &olen);
	ok(olen == strlen(want) && memcmp(out, want, olen) == 0, "%s", name);
	if (olen != strlen(want) || memcmp(out, want, olen) != 0)
		diag("got %zu bytes: %s", olen, out);
	free(out);
	for (i = 0; i + 1 < len && i < 16; i++)
		cuts[i] = i + 1;
	out = pieces(in, len, cuts, i, &olen);
	ok(olen == strlen(want) && memcmp(out, want, olen) == 0,
	    "%s (one byte per call)", name);
	free(out);
}

static void
test_invalid(void)
{
	check_invalid("a\xff" "b", 3, "a" FFFD "b", "0xff -> U+FFFD");
	check_invalid("a\x80" "b", 3, "a" FFFD "b",
	    "lone continuation -> U+FFFD");
	check_invalid("\xc0\x80", 2, FFFD FFFD, "overlong C0 80 -> U+FFFD x2");
	check_invalid("\xe0\x80\xaf", 3, FFFD FFFD FFFD,
	    "overlong E0 80 AF -> U+FFFD x3");
	check_invalid("\xed\xa0\x80", 3, FFFD FFFD FFFD,
	    "surrogate ED A0 80 -> U+FFFD x3");
	check_invalid("\xf4\x90\x80\x80", 4, FFFD FFFD FFFD FFFD,
	    "above U+10FFFF F4 90 80 80 -> U+FFFD x4");
	check_invalid("\xe2\x82" "A", 3, FFFD FFFD "A",
	    "truncated sequence then ASCII: replaced, ASCII kept");
	check_invalid("\xf0\x9f\x98" "\xc3\xa9", 5, FFFD FFFD FFFD "\xc3\xa9",
	    "truncated sequence then a valid one: the valid one kept");
}

static void
test_finish(void)
{
	struct utf8_carry	c = { { 0 }, 0 };
	struct buf		b = { 0 };

	utf8_sanitize(&c, "ok\xf0\x9f\x98", 5, &b);
	ok(b.len == 2 && memcmp(b.data, "ok", 2) == 0,
	    "incomplete tail is held back");
	is_int(c.len, 3, "carry holds the 3 tail bytes");
	utf8_finish(&c, &b);
	ok(b.len == 2 + 9 && memcmp(b.data + 2, FFFD FFFD FFFD, 9) == 0,
	    "utf8_finish turns the tail into U+FFFD");
	is_int(c.len, 0, "carry is empty after finish");
	b.len = 0;
	utf8_finish(&c, &b);
	is_int(b.len, 0, "finish with nothing carried adds nothing");
	utf8_sanitize(&c, "\xf0\x9f", 2, &b);
	utf8_sanitize(&c, "\x98\x80", 2, &b);
	ok(b.len == 4 && memcmp(b.data, "\xf0\x9f\x98\x80", 4) == 0,
	    "carried sequence completes on the next call");
	buf_free(&b);
}

static void
test_random(void)
{
	unsigned char	 in[4096];
	size_t		 cuts[64], ncuts, i, k, wlen, plen;
	char		*w, *p;
	int		 same = 1, valid = 1, round;

	srand(20240611);
	for (round = 0; round < 300; round++) {
		for (i = 0; i < sizeof in; i++) {
			/* Bias towards bytes that make multi-byte sequences. */
			int r = rand() % 4;

			in[i] = r == 0 ? (unsigned char)(rand() % 0x80) :
			    r == 1 ? (unsigned char)(0x80 + rand() % 0x40) :
			    (unsigned char)(0xc0 + rand() % 0x40);
		}
		ncuts = (size_t)(rand() % 64);
		for (k = 0; k < ncuts; k++)
			cuts[k] = (size_t)rand() % (sizeof in + 1);
		/* Sort the cut points. */
		for (k = 1; k < ncuts; k++) {
			size_t v = cuts[k], j = k;

			while (j > 0 && cuts[j - 1] > v) {
				cuts[j] = cuts[j - 1];
				j--;
			}
			cuts[j] = v;
		}
		w = whole((char *)in, sizeof in, &wlen);
		p = pieces((char *)in, sizeof in, cuts, ncuts, &plen);
		if (plen != wlen || memcmp(p, w, wlen) != 0)
			same = 0;
		if (!is_valid((unsigned char *)w, wlen))
			valid = 0;
		free(w);
		free(p);
	}
	ok(same, "300 random inputs: random splits == unsplit");
	ok(valid, "300 random inputs: the output is valid UTF-8");
}

static void
test_encode(void)
{
	char		 u[4];
	size_t		 n, olen;
	uint32_t	 c, back;
	int		 all_ok = 1;
	char		*out;

	for (c = 0; c <= 0x10ffff; c += (c < 0x3000 ? 1 : 0x61)) {
		if (c >= 0xd800 && c <= 0xdfff)
			continue;
		n = utf8_put(c, u);
		if ((int)n != utf8_seq_len((unsigned char *)u, n)) {
			all_ok = 0;
			break;
		}
		if (n == 1)
			back = (unsigned char)u[0];
		else {
			back = (unsigned char)u[0] & (0xff >> (n + 1));
			for (size_t k = 1; k < n; k++)
				back = (back << 6) | ((unsigned char)u[k] & 0x3f);
		}
		out = whole(u, n, &olen);
		if (back != c || olen != n || memcmp(out, u, n) != 0)
			all_ok = 0;
		free(out);
		if (!all_ok) {
			diag("U+%04X fails", (unsigned)c);
			break;
		}
	}
	ok(all_ok, "encode -> decode round trips across the code space");
	n = utf8_put(0x10ffff, u);
	ok(n == 4 && memcmp(u, "\xf4\x8f\xbf\xbf", 4) == 0, "U+10FFFF");
	n = utf8_put(0x7ff, u);
	ok(n == 2 && memcmp(u, "\xdf\xbf", 2) == 0, "U+07FF");
	n = utf8_put(0xd800, u);
	ok(n == 3 && memcmp(u, FFFD, 3) == 0, "a surrogate encodes as U+FFFD");
	n = utf8_put(0x110000, u);
	ok(n == 3 && memcmp(u, FFFD, 3) == 0, "above U+10FFFF -> U+FFFD");
}

/* Cutting text at most n bytes in, never inside a character. */
static void
test_cut(void)
{
	const char	*s = "a\xe6\x97\xa5" "b";	/* a, U+65E5 (3 bytes), b */

	is_int((int)utf8_cut(s, 5, 1), 1, "a cut between characters stays");
	is_int((int)utf8_cut(s, 5, 2), 1, "inside a character: back to its start");
	is_int((int)utf8_cut(s, 5, 3), 1, "... from its last byte too");
	is_int((int)utf8_cut(s, 5, 4), 4, "after it, it stays whole");
	is_int((int)utf8_cut(s, 5, 9), 5, "past the end: all of it");
	is_int((int)utf8_cut(s + 2, 3, 1), 0, "nothing fits: 0");
}

int
main(void)
{
	test_valid();
	test_cut();
	test_splits();
	test_invalid();
	test_finish();
	test_random();
	test_encode();
	return tap_done();
}
