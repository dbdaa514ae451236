/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -z: which decompressor a stream needs, from its first bytes.  Pure.
 */
#ifndef TACH_MAGIC_H
#define TACH_MAGIC_H

#include <stddef.h>

/* Bytes enough to tell every known format apart. */
#define MAGIC_MAX 6

/*
 * The tool that decompresses data starting with head (len bytes, fewer
 * when the input is that short): gzip, bzip2, xz, zstd or lz4.  Anything
 * else goes to gzip, as progress(1) sends everything, so gzip says why.
 */
const char	*magic_tool(const unsigned char *head, size_t len);

#endif
