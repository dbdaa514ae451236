/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Magic numbers of the compressed formats -z knows.
 */
#include <string.h>

#include "tach/magic.h"

static const struct format {
	const char		*tool;
	const unsigned char	 magic[MAGIC_MAX];
	size_t			 len;
} formats[] = {
	{ "gzip",  { 0x1f, 0x8b }, 2 },
	{ "bzip2", { 'B', 'Z', 'h' }, 3 },
	{ "xz",    { 0xfd, '7', 'z', 'X', 'Z', 0x00 }, 6 },
	{ "zstd",  { 0x28, 0xb5, 0x2f, 0xfd }, 4 },
	{ "lz4",   { 0x04, 0x22, 0x4d, 0x18 }, 4 },
};

const char *
magic_tool(const unsigned char *head, size_t len)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (len >= formats[i].len &&
		    memcmp(head, formats[i].magic, formats[i].len) == 0)
			return formats[i].tool;
	return "gzip";
}
