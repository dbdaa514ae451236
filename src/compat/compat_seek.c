/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer's holes (compat.h), on every system: SEEK_DATA and
 * SEEK_HOLE where lseek(2) has them (Linux, the BSDs, macOS, Solaris).
 */
#define _GNU_SOURCE		/* SEEK_DATA, SEEK_HOLE in glibc */
#include <errno.h>
#include <unistd.h>

#include "tach/compat.h"

off_t
compat_seek_next(int fd, off_t at, bool hole)
{
#if defined(SEEK_DATA) && defined(SEEK_HOLE)
	return lseek(fd, at, hole ? SEEK_HOLE : SEEK_DATA);
#else
	(void)fd;
	(void)at;
	(void)hole;
	errno = EINVAL;
	return -1;
#endif
}
