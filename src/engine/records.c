/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Counting records eight bytes at a time: a line of seq(1) is under ten
 * bytes, so a call per separator (memchr) would cost more than the move.
 */
#include <string.h>

#include "tach/records.h"

#define ONES	0x0101010101010101ULL
#define LOW7	0x7f7f7f7f7f7f7f7fULL

/* The top bit of each byte of word that equals sep, and no other bit. */
static uint64_t
matches(uint64_t word, uint64_t seps)
{
	uint64_t x = word ^ seps;	/* a match is a zero byte */

	/* no carry crosses bytes: each byte's low 7 bits plus 0x7f */
	return ~(((x & LOW7) + LOW7) | x | LOW7);
}

static unsigned
bits_in(uint64_t v)
{
	unsigned n = 0;

	for (; v != 0; v &= v - 1)
		n++;
	return n;
}

uint64_t
records_count(const void *buf, size_t len, unsigned char sep, uint64_t most,
    size_t *used)
{
	const unsigned char *p = buf;
	uint64_t seps = ONES * sep, word, n = 0, hits;
	size_t i = 0;

	*used = len;
	if (most == 0) {
		*used = 0;
		return 0;
	}
	for (; i + 8 <= len; i += 8) {
		memcpy(&word, p + i, 8);
		hits = bits_in(matches(word, seps));
		if (n + hits >= most)
			break;		/* the most'th is in this word */
		n += hits;
	}
	for (; i < len; i++)
		if (p[i] == sep && ++n == most) {
			*used = i + 1;
			break;
		}
	return n;
}
