/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer on FreeBSD, NetBSD and the other systems with the
 * BSDs' own setproctitle(3) and closefrom(2) (compat.h).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tach/compat.h"

const bool compat_abstract_sockets = false;

void
compat_title_init(int argc, char *argv[])
{
	(void)argc;
	(void)argv;
}

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

int
compat_process_hold(pid_t pid)
{
	(void)pid;
	return -1;
}
