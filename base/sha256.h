/*
 * sha256.h - SHA-256 (FIPS 180-4) of a byte string, for fingerprints an
 * agent's settings want (Codex's trusted hooks); not for secrets.
 */
#ifndef PTYVISOR_SHA256_H
#define PTYVISOR_SHA256_H

#include <stddef.h>

/* The digest of len bytes at p, as 64 lowercase hex digits and a NUL. */
void	sha256_hex(const void *p, size_t len, char out[65]);

#endif
