/*
 * outcap.c - head and tail of a text within a cap (see outcap.h).
 *
 * Invariants: the head never exceeds max/2 bytes and ends between
 * characters; the tail holds at least the last max/2 bytes added after the
 * head (less only when fewer were added) and at most twice that, so adding
 * costs amortised O(len); head + dropped + tail == total.
 */
#include "mcp/outcap.h"

#include <string.h>

void
outcap_init(struct outcap *c, size_t max)
{
	memset(c, 0, sizeof *c);
	c->max = max < 16 ? 16 : max;
}

void
outcap_free(struct outcap *c)
{
	buf_free(&c->head);
	buf_free(&c->tail);
}

/* Whether p[i] starts a character (or is past the end). */
static bool
outcap_boundary(const char *p, size_t len, size_t i)
{
	return i >= len || ((unsigned char)p[i] & 0xC0) != 0x80;
}

void
outcap_add(struct outcap *c, const char *p, size_t len)
{
	size_t	half = c->max / 2, room, n;

	c->total += len;
	if (!c->full) {
		room = half - c->head.len;
		n = len <= room ? len : room;
		while (n < len && n > 0 && !outcap_boundary(p, len, n))
			n--;
		buf_add(&c->head, p, n);
		p += n;
		len -= n;
		if (len == 0)
			return;
		c->full = true;
	}
	buf_add(&c->tail, p, len);
	if (c->tail.len > 2 * half)
		buf_consume(&c->tail, c->tail.len - half);
}

bool
outcap_truncated(const struct outcap *c)
{
	return c->head.len + c->tail.len < c->total;
}

void
outcap_text(const struct outcap *c, const char *where, struct buf *out)
{
	size_t		 half = c->max / 2, hlen, tstart, i;
	const char	*t = c->tail.data, *nl;
	uint64_t	 gap;

	if (!outcap_truncated(c)) {
		buf_add(out, c->head.data, c->head.len);
		buf_add(out, c->tail.data, c->tail.len);
		return;
	}
	/* The head up to its last newline, if one is in its second half. */
	hlen = c->head.len;
	for (i = hlen; i > hlen / 2; i--)
		if (c->head.data[i - 1] == '\n') {
			hlen = i;
			break;
		}
	/* The last half bytes of the tail, from a character start... */
	tstart = c->tail.len > half ? c->tail.len - half : 0;
	while (!outcap_boundary(t, c->tail.len, tstart))
		tstart++;
	/* ...and from a line start, if one is in its first half. */
	nl = memchr(t + tstart, '\n', (c->tail.len - tstart) / 2);
	if (nl != NULL)
		tstart = (size_t)(nl - t) + 1;
	gap = c->total - hlen - (c->tail.len - tstart);
	buf_add(out, c->head.data, hlen);
	if (hlen > 0 && c->head.data[hlen - 1] != '\n')
		buf_addc(out, '\n');
	buf_printf(out, "[... %llu bytes not shown%s%s%s ...]\n",
	    (unsigned long long)gap, where != NULL ? "; all of it is in " :
	    "", where != NULL ? where : "", "");
	if (tstart < c->tail.len)
		buf_add(out, t + tstart, c->tail.len - tstart);
}
