/*
 * libFuzzer harness for the cursor position report parser: any bytes.  An
 * accepted reply must hold two numbers in range, and must print back to
 * exactly the bytes it came from, less leading zeros.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tach/dsr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char again[32];
	int row = 0, col = 0, n;

	if (!dsr_parse((const char *)data, size, &row, &col))
		return 0;
	if (row < 1 || row > DSR_MAX || col < 1 || col > DSR_MAX)
		abort();
	n = snprintf(again, sizeof(again), "\033[%d;%dR", row, col);
	if (n < 0 || (size_t)n > size || data[size - 1] != 'R' ||
	    memcmp(data, "\033[", 2) != 0)
		abort();
	return 0;
}
