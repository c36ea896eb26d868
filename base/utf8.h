/*
 * utf8.h - turn a stream of terminal bytes into valid UTF-8, chunk by
 * chunk; and the small UTF-8 helpers the other folders share: a
 * sequence's length, a cut that splits no character, encode, decode, and
 * which characters are invisible.
 *
 * A sequence split across chunks is carried to the next call and never
 * broken; each invalid byte becomes U+FFFD.  That replacement is the only
 * change: valid input comes out byte for byte.
 */
#ifndef PTYVISOR_UTF8_H
#define PTYVISOR_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* An incomplete sequence waiting for its continuation bytes. */
struct utf8_carry {
	unsigned char	bytes[4];
	size_t		len;
};

/* Append the valid UTF-8 of carry + in to out; keep an incomplete tail. */
void	utf8_sanitize(struct utf8_carry *carry, const void *in, size_t len,
	    struct buf *out);

/* End of stream: an incomplete tail becomes U+FFFD in out. */
void	utf8_finish(struct utf8_carry *carry, struct buf *out);

/*
 * Length of the valid sequence at p (1-4), 0 when p starts an incomplete
 * but so far valid sequence of fewer than len bytes, -1 when invalid.
 */
int	utf8_seq_len(const unsigned char *p, size_t len);

/*
 * Where to cut p[0..len) at most n bytes in without splitting a character:
 * n, or less, back to the start of the character p[n] continues (len and
 * more when n >= len).
 */
size_t	utf8_cut(const char *p, size_t len, size_t n);

/* Encode code point c (invalid ones as U+FFFD) into out; returns 1-4. */
size_t	utf8_put(uint32_t c, char out[4]);

/* The code point of a valid sequence of n bytes (utf8_seq_len's n > 1). */
uint32_t utf8_decode(const unsigned char *p, int n);

/*
 * Whether c changes how text around it shows without showing itself:
 * bidirectional controls (U+061C, U+200E-200F, U+202A-202E, U+2066-2069)
 * and zero-width characters (U+200B-200D, U+2060, U+FEFF).  Text from
 * agents shows these escaped, so a terminal cannot reorder or hide what a
 * person approves.
 */
bool	utf8_is_invisible(uint32_t c);

#endif
