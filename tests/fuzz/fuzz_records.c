/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * libFuzzer harness for the record counter: the first byte picks the
 * separator and the limit, the rest is data.  The word-at-a-time count
 * must agree with a plain byte loop, and stop where the byte loop does.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tach/records.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char sep;
	uint64_t most, n, want = 0;
	size_t used, want_used;

	if (size < 1)
		return 0;
	sep = data[0] & 1 ? '\n' : data[0];
	most = data[0] & 2 ? data[0] >> 2 : UINT64_MAX;
	data++;
	size--;
	want_used = size;
	for (size_t i = 0; i < size && most > 0; i++)
		if (data[i] == sep && ++want == most) {
			want_used = i + 1;
			break;
		}
	if (most == 0)
		want_used = 0;
	n = records_count(data, size, sep, most, &used);
	if (n != want || used != want_used)
		abort();
	return 0;
}
