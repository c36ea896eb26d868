/*
 * proto-encoding.c - how output bytes travel in the control protocol's
 * JSON strings (see proto.h): where text may be cut without splitting a
 * UTF-8 sequence, and RFC 4648 base64 with padding for exact bytes.
 *
 * Invariants: decoding is strict and canonical (any bad length, digit,
 * padding or non-zero padding bits gives -1); neither direction reads past
 * the n bytes it is given.
 */
#include "control/proto.h"

#include <stdint.h>
#include <string.h>

#include "base/utf8.h"
#include "base/util.h"

size_t
proto_utf8_complete(const void *data, size_t n)
{
	const unsigned char	*p = data;
	size_t			 back, start;

	/* Find the last lead byte within the final 3 bytes. */
	for (back = 1; back <= 3 && back <= n; back++) {
		start = n - back;
		if ((p[start] & 0xc0) == 0x80)
			continue;
		/* Valid so far but short: wait; anything else goes now. */
		return utf8_seq_len(p + start, back) == 0 ? start : n;
	}
	return n;
}

static const char proto_b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void
proto_base64_encode(struct buf *out, const void *data, size_t n)
{
	const unsigned char	*p = data;
	char			 q[4];
	size_t			 i;
	uint32_t		 v;

	buf_reserve(out, (n + 2) / 3 * 4);
	for (i = 0; i + 3 <= n; i += 3) {
		v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		q[0] = proto_b64[v >> 18];
		q[1] = proto_b64[(v >> 12) & 63];
		q[2] = proto_b64[(v >> 6) & 63];
		q[3] = proto_b64[v & 63];
		buf_add(out, q, 4);
	}
	if (i < n) {
		v = (uint32_t)p[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		q[0] = proto_b64[v >> 18];
		q[1] = proto_b64[(v >> 12) & 63];
		q[2] = i + 1 < n ? proto_b64[(v >> 6) & 63] : '=';
		q[3] = '=';
		buf_add(out, q, 4);
	}
}

/* Value of a base64 digit, or -1 (computed: the relay decodes MiBs). */
static int
proto_b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

int
proto_base64_decode(struct buf *out, const char *s, size_t n)
{
	size_t		i, k, pad;
	int		d[4];
	uint32_t	v;
	char		bytes[3];

	if (n % 4 != 0)
		return -1;
	for (i = 0; i < n; i += 4) {
		pad = 0;
		for (k = 0; k < 4; k++) {
			if (s[i + k] == '=' && i + 4 == n && k >= 2) {
				pad++;
				d[k] = 0;
				continue;
			}
			if (pad > 0 || (d[k] = proto_b64_value(s[i + k])) < 0)
				return -1;
		}
		v = (uint32_t)d[0] << 18 | (uint32_t)d[1] << 12 |
		    (uint32_t)d[2] << 6 | (uint32_t)d[3];
		/* Canonical only: bits under the padding must be zero. */
		if ((pad == 1 && (v & 0xff) != 0) ||
		    (pad == 2 && (v & 0xffff) != 0))
			return -1;
		bytes[0] = (char)(v >> 16);
		bytes[1] = (char)(v >> 8);
		bytes[2] = (char)v;
		buf_add(out, bytes, 3 - pad);
	}
	return 0;
}
