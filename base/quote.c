/*
 * quote.c - text made safe to show a person (see quote.h).
 *
 * Invariants: the output of quote_word() (and so quote_argv()) and of
 * quote_text() is valid UTF-8 holding no C0 or C1 control and no
 * invisible character; quote_word() output parses back (shsplit, bash) to
 * the same bytes.
 */
#include "base/quote.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/util.h"

/*
 * Length of the valid UTF-8 sequence at p (n bytes left) that may be shown
 * as it is; 0 when it must be escaped: invalid, a C1 control (U+0080 to
 * U+009F, terminal commands) or an invisible character.
 */
static size_t
quote_shown_len(const unsigned char *p, size_t n, uint32_t *cp)
{
	int	len = utf8_seq_len(p, n);

	*cp = 0;
	if (len < 2)
		return 0;
	*cp = utf8_decode(p, len);
	if (*cp < 0xa0 || utf8_is_invisible(*cp))
		return 0;
	return (size_t)len;
}

/*
 * Append the escape of what starts at p: an invisible character whole as
 * \uHHHH (advancing *i past it), anything else one byte as \xHH (a C1
 * control's second byte is escaped on its own, as invalid).
 */
static void
quote_escape_high(struct buf *b, const unsigned char *p, size_t n, size_t *i)
{
	uint32_t	cp;
	int		len = utf8_seq_len(p, n);

	if (len >= 2 && quote_shown_len(p, n, &cp) == 0 &&
	    utf8_is_invisible(cp)) {
		buf_printf(b, "\\u%04x", (unsigned)cp);
		*i += (size_t)len - 1;
	} else
		buf_printf(b, "\\x%02x", p[0]);
}

void
quote_word(struct buf *b, const char *word)
{
	const unsigned char	*p = (const unsigned char *)word;
	size_t			 n = strlen(word), i, k;
	uint32_t		 cp;
	int			 bare = n > 0, ansi = 0;

	for (i = 0; i < n; i++) {
		if (!isalnum(p[i]) && strchr("_@%+=:,./-", p[i]) == NULL)
			bare = 0;
		if (p[i] < 0x20 || p[i] == 0x7f)
			ansi = 1;
		else if (p[i] >= 0x80) {
			k = quote_shown_len(p + i, n - i, &cp);
			if (k == 0)
				ansi = 1;
			else
				i += k - 1;
		}
	}
	if (bare) {
		buf_add(b, word, n);
		return;
	}
	if (!ansi) {
		buf_addc(b, '\'');
		for (i = 0; i < n; i++) {
			if (p[i] == '\'')
				buf_adds(b, "'\\''");
			else
				buf_addc(b, (char)p[i]);
		}
		buf_addc(b, '\'');
		return;
	}
	buf_adds(b, "$'");
	for (i = 0; i < n; i++) {
		switch (p[i]) {
		case '\n': buf_adds(b, "\\n"); continue;
		case '\t': buf_adds(b, "\\t"); continue;
		case '\r': buf_adds(b, "\\r"); continue;
		case '\033': buf_adds(b, "\\e"); continue;
		case '\\': buf_adds(b, "\\\\"); continue;
		case '\'': buf_adds(b, "\\'"); continue;
		}
		if (p[i] < 0x20 || p[i] == 0x7f) {
			buf_printf(b, "\\x%02x", p[i]);
		} else if (p[i] >= 0x80) {
			k = quote_shown_len(p + i, n - i, &cp);
			if (k == 0)
				quote_escape_high(b, p + i, n - i, &i);
			else {
				buf_add(b, p + i, k);
				i += k - 1;
			}
		} else
			buf_addc(b, (char)p[i]);
	}
	buf_addc(b, '\'');
}

char *
quote_argv(char *const *argv)
{
	struct buf	b;
	size_t		i;

	memset(&b, 0, sizeof b);
	for (i = 0; argv != NULL && argv[i] != NULL; i++) {
		if (i > 0)
			buf_addc(&b, ' ');
		quote_word(&b, argv[i]);
	}
	buf_cstr(&b);
	return b.data;
}

char *
quote_text(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	struct buf		 b;
	size_t			 n = strlen(s), i, k;
	uint32_t		 cp;

	memset(&b, 0, sizeof b);
	for (i = 0; i < n; i++) {
		if (p[i] < 0x20 || p[i] == 0x7f)
			buf_printf(&b, "\\x%02x", p[i]);
		else if (p[i] < 0x80)
			buf_addc(&b, (char)p[i]);
		else if ((k = quote_shown_len(p + i, n - i, &cp)) == 0)
			quote_escape_high(&b, p + i, n - i, &i);
		else {
			buf_add(&b, p + i, k);
			i += k - 1;
		}
	}
	buf_cstr(&b);
	return b.data;
}

bool
quote_has_invisible(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n = strlen(s), i;
	int			 len;

	for (i = 0; i < n; i++) {
		if (p[i] < 0x80)
			continue;
		len = utf8_seq_len(p + i, n - i);
		if (len < 2)
			continue;
		if (utf8_is_invisible(utf8_decode(p + i, len)))
			return true;
		i += (size_t)len - 1;
	}
	return false;
}

bool
quote_argv_has_invisible(char *const *argv)
{
	size_t	i;

	for (i = 0; argv != NULL && argv[i] != NULL; i++)
		if (quote_has_invisible(argv[i]))
			return true;
	return false;
}
