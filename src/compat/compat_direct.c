/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer's -K where it is O_DIRECT (Linux and the BSDs; a
 * system without it says ENOTSUP).  macOS's F_NOCACHE is in
 * compat_darwin.c.
 */
#define _GNU_SOURCE		/* O_DIRECT, in glibc */

#include <errno.h>
#include <fcntl.h>

#include "tach/compat.h"

int
compat_direct(int fd, bool on)
{
#ifdef O_DIRECT
	int flags = fcntl(fd, F_GETFL);

	if (flags == -1)
		return -1;
	return fcntl(fd, F_SETFL, on ? flags | O_DIRECT : flags & ~O_DIRECT);
#else
	(void)fd;
	(void)on;
	errno = ENOTSUP;
	return -1;
#endif
}
