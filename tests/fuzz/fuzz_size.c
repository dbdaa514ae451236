/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * libFuzzer harness for the size parser: no crash, no overflow, and every
 * value it accepts is within the bounds it was given. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tach/size.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[256];
	long long v;
	enum size_error e;

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* the first byte picks -k's powers of 1000 or progress(1)'s 1024 */
	e = size_parse(text, size > 0 && (data[0] & 1), 1, 1LL << 40, &v);
	if (e == SIZE_OK && (v < 1 || v > 1LL << 40))
		abort();
	if (e == SIZE_TOO_SMALL && v >= 1)
		abort();
	if (e == SIZE_TOO_LARGE && v <= 1LL << 40)
		abort();
	return 0;
}
