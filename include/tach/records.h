/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * --line-mode: the records (lines, or NUL-terminated) in what tach moves.
 */
#ifndef TACH_RECORDS_H
#define TACH_RECORDS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The separators in buf[0, len), counting at most most of them.  *used is
 * the bytes up to and including the last one counted if most was
 * reached, else len: what may be moved without passing the most'th.
 */
uint64_t	records_count(const void *buf, size_t len, unsigned char sep,
		    uint64_t most, size_t *used);

#endif
