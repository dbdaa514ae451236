/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * libFuzzer harness for -c's layout: for any window height, count and
 * rank (negative and huge ones too), the rows kept leave two for other
 * output, and each line's row is below that region, on the window, and
 * its own.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tach/pinrows.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int v[3] = { 0, 0, 0 }, kept, row;

	memcpy(v, data, size < sizeof(v) ? size : sizeof(v));
	kept = pinrows_kept(v[0], v[1]);
	/* two rows at least are left to the scrolling region */
	if (kept < 0 || (kept > 0 && (kept > v[1] || kept > v[0] - 2)))
		abort();
	row = pinrows_row(v[0], v[1], v[2]);
	if (row == 0)
		return (v[2] < 0 || v[2] >= kept) ? 0 : (abort(), 0);
	if (v[2] < 0 || v[2] >= kept || row != v[0] - kept + 1 + v[2] ||
	    row <= v[0] - kept || row > v[0])
		abort();
	/* the next rank is the next row */
	if (v[2] < kept - 1 && pinrows_row(v[0], v[1], v[2] + 1) != row + 1)
		abort();
	return 0;
}
