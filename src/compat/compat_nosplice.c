/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer's pipes where a pipe has the size the system gives it
 * and nothing moves bytes without copying them (the BSDs, macOS, and
 * Linux built without zero-copy): -b's buffer is memory only there, and
 * no pacing pause needs finer timers.
 */
#include <sys/ioctl.h>

#include <errno.h>

#include "tach/compat.h"

/* the smallest size a pipe has: FreeBSD's and NetBSD's PIPE_SIZE */
#define PIPE_SMALLEST	16384

size_t
compat_grow_pipe(int fd, size_t want)
{
	(void)fd;
	(void)want;
	return 0;
}

size_t
compat_pipe_budget(void)
{
	return 0;
}

size_t
compat_pipe_room(int fd)
{
	int held = 0;

	/* a write end that does not say what it holds: taken as empty */
	if (ioctl(fd, FIONREAD, &held) == -1 || held < 0)
		held = 0;
	return held < PIPE_SMALLEST ? (size_t)(PIPE_SMALLEST - held) : 0;
}

void
compat_fine_timer(void)
{
}

ssize_t
compat_splice(int from, int to, size_t len, bool nonblock)
{
	(void)from;
	(void)to;
	(void)len;
	(void)nonblock;
	errno = ENOSYS;
	return -1;
}

ssize_t
compat_tee(int from, int to, size_t len)
{
	(void)from;
	(void)to;
	(void)len;
	errno = ENOSYS;
	return -1;
}
