/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * --hash: digests of the stream as it passes, from the system's crypto
 * library (libcrypto's EVP, which uses the CPU's SHA instructions); in a
 * build without it, every algorithm is refused with the reason.
 */
#ifndef TACH_DIGEST_H
#define TACH_DIGEST_H

#include <stdbool.h>
#include <stddef.h>

/* The most algorithms one --hash names. */
#define DIGEST_MAX	8
/* The longest digest, in hex, with its NUL (SHA-512: 128 digits). */
#define DIGEST_HEX_MAX	(2 * 64 + 1)

struct digest;

/*
 * The digests spec names: ALG[,ALG...], each ALG or ALG:HEX (a digest
 * the stream must have).  NULL, with the reason in msg, for an algorithm
 * the library lacks or a HEX of the wrong length.
 */
struct digest	*digest_new(const char *spec, char *msg, size_t msglen);
/* len more bytes of the stream; from one thread at a time. */
void		 digest_update(struct digest *d, const void *data, size_t len);
/* How many algorithms d has. */
size_t		 digest_count(const struct digest *d);
/*
 * Algorithm i's name and its digest in hex (hex: DIGEST_HEX_MAX bytes)
 * of all the stream so far, or "" where the library failed to make it;
 * callable from any thread while another updates.  Once digest_end was
 * called, the final one.
 */
const char	*digest_hex(struct digest *d, size_t i, char *hex);
/* The stream ended: every digest is final. */
void		 digest_end(struct digest *d);
/*
 * Algorithm i's expected digest (ALG:HEX), or NULL if none was given;
 * the comparison ignores case.
 */
const char	*digest_expected(const struct digest *d, size_t i);
void		 digest_free(struct digest *d);

#endif
