/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * libFuzzer harness for -z's format detection: any bytes name one of the
 * five tools, and a known magic always wins over the gzip default.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tach/magic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *tools[] = { "gzip", "bzip2", "xz", "zstd", "lz4" };
	const char *tool = magic_tool(data, size);
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (strcmp(tool, tools[i]) == 0)
			break;
	if (i == sizeof(tools) / sizeof(tools[0]))
		abort();
	/* the answer depends on the first MAGIC_MAX bytes only */
	if (size > MAGIC_MAX && strcmp(tool, magic_tool(data, MAGIC_MAX)) != 0)
		abort();
	return 0;
}
