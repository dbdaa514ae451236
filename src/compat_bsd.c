/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer on FreeBSD, NetBSD and the other systems with the
 * BSDs' own setproctitle(3) and closefrom(2) (compat.h).
 */
#include <errno.h>
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

int
compat_reopen(int fd, int flags)
{
	/* /dev/fd here dup(2)s: the description would be the same one */
	(void)fd;
	(void)flags;
	errno = ENOTSUP;
	return -1;
}

long
compat_peer_pid(int fd)
{
	(void)fd;
	errno = ENOTSUP;
	return -1;
}

unsigned long long
compat_memory_limit(const char **why)
{
	*why = "physical memory";
	return (unsigned long long)sysconf(_SC_PHYS_PAGES) *
	    (unsigned long long)sysconf(_SC_PAGESIZE);
}

off_t
compat_next_data(int fd, off_t at)
{
#ifdef SEEK_DATA
	return lseek(fd, at, SEEK_DATA);
#else
	(void)fd;
	(void)at;
	errno = EINVAL;
	return -1;
#endif
}

off_t
compat_next_hole(int fd, off_t at)
{
#ifdef SEEK_HOLE
	return lseek(fd, at, SEEK_HOLE);
#else
	(void)fd;
	(void)at;
	errno = EINVAL;
	return -1;
#endif
}

bool
compat_in_memory(int fd)
{
	(void)fd;
	return false;	/* tmpfs reserves nothing ahead here */
}
