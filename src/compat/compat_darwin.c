/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer on macOS (compat.h): no setproctitle(3), no
 * closefrom(2).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "tach/compat.h"

void
compat_title(const char *fmt, ...)
{
	(void)fmt;	/* ps shows the command line as it was */
}

int
compat_reserve(int fd, size_t size)
{
	fstore_t store = { F_ALLOCATEALL, F_PEOFPOSMODE, 0, (off_t)size, 0 };

	if (fcntl(fd, F_PREALLOCATE, &store) == -1 ||
	    ftruncate(fd, (off_t)size) == -1)
		return errno;
	return 0;
}

int
compat_direct(int fd, bool on)
{
	return fcntl(fd, F_NOCACHE, on ? 1 : 0) == -1 ? -1 : 0;
}

void
compat_closefrom(int lowfd)
{
	for (int fd = lowfd; fd < getdtablesize(); fd++)
		(void)close(fd);
}
