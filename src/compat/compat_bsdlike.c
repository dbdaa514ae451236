/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer's calls that every system but macOS has alike
 * (compat.h): setproctitle(3) and closefrom(2), the BSDs' own and
 * libbsd's on Linux, and posix_fallocate(3).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tach/compat.h"

void
compat_title(const char *fmt, ...)
{
	char title[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(title, sizeof(title), fmt, ap);
	va_end(ap);
	setproctitle("%s", title);
}

int
compat_reserve(int fd, size_t size)
{
	return posix_fallocate(fd, 0, (off_t)size);
}

void
compat_closefrom(int lowfd)
{
	closefrom(lowfd);
}
