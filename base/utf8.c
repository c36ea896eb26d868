/*
 * utf8.c - stream sanitizer to valid UTF-8, and the UTF-8 helpers (see
 * utf8.h).
 *
 * Validation follows RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF.  Each byte that cannot start or continue a valid sequence
 * is replaced by one U+FFFD and decoding resumes at the next byte.
 */
#include "base/utf8.h"

#include <stdint.h>
#include <string.h>

static const char utf8_replacement[] = "\xef\xbf\xbd";

int
utf8_seq_len(const unsigned char *p, size_t len)
{
	unsigned char	c = p[0];
	unsigned char	lo = 0x80, hi = 0xbf;
	int		need, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		need = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 4;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else
		return -1;
	for (i = 1; i < need; i++) {
		if ((size_t)i >= len)
			return 0;
		if (i == 1 ? p[i] < lo || p[i] > hi : (p[i] & 0xc0) != 0x80)
			return -1;
	}
	return need;
}

/* Decode from p, appending to out; returns bytes used (a tail may remain). */
static size_t
sanitize_run(const unsigned char *p, size_t len, struct buf *out, int final)
{
	size_t	i = 0, start = 0;
	int	n;

	while (i < len) {
		if (p[i] < 0x80) {
			i++;
			/* ASCII, the usual output, eight bytes at a time. */
			while (i + sizeof(uint64_t) <= len) {
				uint64_t	w;

				memcpy(&w, p + i, sizeof w);
				if (w & UINT64_C(0x8080808080808080))
					break;
				i += sizeof w;
			}
			continue;
		}
		n = utf8_seq_len(p + i, len - i);
		if (n > 0) {
			i += (size_t)n;
			continue;
		}
		buf_add(out, p + start, i - start);
		if (n == 0 && !final)
			return i;	/* incomplete tail: carry it */
		buf_add(out, utf8_replacement, 3);
		i++;
		start = i;
	}
	buf_add(out, p + start, i - start);
	return i;
}

void
utf8_sanitize(struct utf8_carry *carry, const void *in, size_t len,
    struct buf *out)
{
	const unsigned char	*p = in;
	size_t			 used, i;
	int			 n;

	/*
	 * Complete the carried prefix byte by byte.  The carry is always a
	 * valid lead byte plus continuation bytes, so when a new byte breaks
	 * it each carried byte is replaced, exactly as if the two chunks had
	 * arrived as one.
	 */
	while (carry->len > 0 && len > 0) {
		carry->bytes[carry->len++] = *p;
		n = utf8_seq_len(carry->bytes, carry->len);
		if (n < 0) {
			for (i = 0; i < carry->len - 1; i++)
				buf_add(out, utf8_replacement, 3);
			carry->len = 0;
			break;		/* *p is decoded afresh below */
		}
		p++;
		len--;
		if (n > 0) {
			buf_add(out, carry->bytes, (size_t)n);
			carry->len = 0;
		}
	}
	if (carry->len > 0)
		return;		/* input used up, sequence still incomplete */
	used = sanitize_run(p, len, out, 0);
	carry->len = len - used;
	memcpy(carry->bytes, p + used, carry->len);
}

void
utf8_finish(struct utf8_carry *carry, struct buf *out)
{
	sanitize_run(carry->bytes, carry->len, out, 1);
	carry->len = 0;
}

size_t
utf8_put(uint32_t c, char out[4])
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if ((c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		c = 0xfffd;
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

uint32_t
utf8_decode(const unsigned char *p, int n)
{
	uint32_t	c;
	int		i;

	if (n <= 1)
		return p[0];
	c = p[0] & (0xff >> (n + 1));
	for (i = 1; i < n; i++)
		c = (c << 6) | (p[i] & 0x3f);
	return c;
}

bool
utf8_is_invisible(uint32_t c)
{
	return c == 0x061c || c == 0x200e || c == 0x200f ||
	    (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
	    (c >= 0x200b && c <= 0x200d) || c == 0x2060 || c == 0xfeff;
}

size_t
utf8_cut(const char *p, size_t len, size_t n)
{
	if (n >= len)
		return len;
	while (n > 0 && ((unsigned char)p[n] & 0xc0) == 0x80)
		n--;
	return n;
}
