/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * reallocarray(3) where libc has none (macOS): the BSDs', glibc's and
 * musl's check that nmemb * size does not wrap before it reaches realloc.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "tach/compat.h"

void *
reallocarray(void *p, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, nmemb * size);
}
