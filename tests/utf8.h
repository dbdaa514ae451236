/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Shared by the renderer's unit test and fuzz harness.
 */
#ifndef TACH_TESTS_UTF8_H
#define TACH_TESTS_UTF8_H

#include <stdbool.h>

/* Whether s is well-formed UTF-8 by its lead and continuation bytes. */
static inline bool
valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		int n = *p < 0x80 ? 0 : *p >= 0xf0 && *p <= 0xf4 ? 3 :
		    *p >= 0xe0 && *p < 0xf0 ? 2 : *p >= 0xc2 && *p < 0xe0 ?
		    1 : -1;

		if (n < 0)
			return false;
		for (p++; n > 0; n--, p++)
			if ((*p & 0xc0) != 0x80)
				return false;
	}
	return true;
}

#endif
