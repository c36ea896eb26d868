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

/*
 * Both directions write straight into the buffer, reserved once: a call
 * per 3 bytes was most of the cost of relaying output (perf, `exec --raw`
 * of 6.9 MB).
 */
void
proto_base64_encode(struct buf *out, const void *data, size_t n)
{
	const unsigned char	*p = data;
	char			*q;
	size_t			 i;
	uint32_t		 v;

	buf_reserve(out, (n + 2) / 3 * 4);
	q = out->data + out->len;
	for (i = 0; i + 3 <= n; i += 3) {
		v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		*q++ = proto_b64[v >> 18];
		*q++ = proto_b64[(v >> 12) & 63];
		*q++ = proto_b64[(v >> 6) & 63];
		*q++ = proto_b64[v & 63];
	}
	if (i < n) {
		v = (uint32_t)p[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		*q++ = proto_b64[v >> 18];
		*q++ = proto_b64[(v >> 12) & 63];
		*q++ = i + 1 < n ? proto_b64[(v >> 6) & 63] : '=';
		*q++ = '=';
	}
	out->len = (size_t)(q - out->data);
	out->data[out->len] = '\0';
}

/* Values of the base64 digits, -1 for any other byte (made on first use). */
static const signed char *
proto_b64_table(void)
{
	static signed char	value[256];
	static int		made;
	int			i;

	if (!made) {
		memset(value, -1, sizeof value);
		for (i = 0; i < 64; i++)
			value[(unsigned char)proto_b64[i]] = (signed char)i;
		made = 1;
	}
	return value;
}

int
proto_base64_decode(struct buf *out, const char *s, size_t n)
{
	const signed char	*value = proto_b64_table();
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i, k, pad;
	int			 d[4];
	uint32_t		 v;
	char			*q;

	if (n % 4 != 0)
		return -1;
	buf_reserve(out, n / 4 * 3);
	q = out->data + out->len;
	/* Every group but the last: four digits, no padding. */
	for (i = 0; i + 4 < n; i += 4) {
		d[0] = value[u[i]];
		d[1] = value[u[i + 1]];
		d[2] = value[u[i + 2]];
		d[3] = value[u[i + 3]];
		if ((d[0] | d[1] | d[2] | d[3]) < 0)
			goto bad;
		v = (uint32_t)d[0] << 18 | (uint32_t)d[1] << 12 |
		    (uint32_t)d[2] << 6 | (uint32_t)d[3];
		*q++ = (char)(v >> 16);
		*q++ = (char)(v >> 8);
		*q++ = (char)v;
	}
	/* The last group, which may end in one or two '='. */
	if (i < n) {
		pad = 0;
		for (k = 0; k < 4; k++) {
			if (s[i + k] == '=' && k >= 2) {
				pad++;
				d[k] = 0;
				continue;
			}
			if (pad > 0 || (d[k] = value[u[i + k]]) < 0)
				goto bad;
		}
		v = (uint32_t)d[0] << 18 | (uint32_t)d[1] << 12 |
		    (uint32_t)d[2] << 6 | (uint32_t)d[3];
		/* Canonical only: bits under the padding must be zero. */
		if ((pad == 1 && (v & 0xff) != 0) ||
		    (pad == 2 && (v & 0xffff) != 0))
			goto bad;
		*q++ = (char)(v >> 16);
		if (pad < 2)
			*q++ = (char)(v >> 8);
		if (pad < 1)
			*q++ = (char)v;
	}
	out->len = (size_t)(q - out->data);
	out->data[out->len] = '\0';
	return 0;

bad:
	/* What came before the bad group stays, as it always did. */
	out->len = (size_t)(q - out->data);
	out->data[out->len] = '\0';
	return -1;
}

void
proto_frame_head(unsigned char head[PROTO_FRAME_HEAD], char type,
    uint32_t len)
{
	head[0] = (unsigned char)type;
	head[1] = (unsigned char)(len >> 24);
	head[2] = (unsigned char)(len >> 16);
	head[3] = (unsigned char)(len >> 8);
	head[4] = (unsigned char)len;
}

bool
proto_frame_peek(const void *p, size_t n, char *type, uint32_t *len)
{
	const unsigned char	*h = p;

	if (n < PROTO_FRAME_HEAD)
		return false;
	*type = (char)h[0];
	*len = (uint32_t)h[1] << 24 | (uint32_t)h[2] << 16 |
	    (uint32_t)h[3] << 8 | h[4];
	return true;
}

void
proto_frame_size(unsigned char p[4], unsigned int rows, unsigned int cols)
{
	p[0] = (unsigned char)(rows >> 8);
	p[1] = (unsigned char)rows;
	p[2] = (unsigned char)(cols >> 8);
	p[3] = (unsigned char)cols;
}

void
proto_frame_size_read(const unsigned char p[4], unsigned int *rows,
    unsigned int *cols)
{
	*rows = (unsigned int)(p[0] << 8 | p[1]);
	*cols = (unsigned int)(p[2] << 8 | p[3]);
}
