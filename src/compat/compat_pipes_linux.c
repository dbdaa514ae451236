/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer's pipes on Linux with zero-copy built in
 * (TACH_ZEROCOPY): pipes grown with F_SETPIPE_SZ, within the user's
 * allowance, splice(2), and the finer timer slack the pacing pauses need.
 * Without zero-copy, compat_nosplice.c stands in, as on the BSDs.
 */
#define _GNU_SOURCE		/* F_SETPIPE_SZ, splice */
#include <sys/ioctl.h>
#include <sys/prctl.h>

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "tach/compat.h"

static long
pipe_max_size(void)
{
	FILE *f;
	long max = -1;

	if ((f = fopen("/proc/sys/fs/pipe-max-size", "re")) != NULL) {
		if (fscanf(f, "%ld", &max) != 1)
			max = -1;
		fclose(f);
	}
	return max;
}

size_t
compat_grow_pipe(int fd, size_t want)
{
	long max = pipe_max_size();
	int have = fcntl(fd, F_GETPIPE_SZ), grown = -1;

	if (have == -1)
		return 0;
	if ((size_t)have >= want)
		return (size_t)have;
	/* past fs/pipe-max-size only with CAP_SYS_RESOURCE; else up to it */
	if (want <= INT_MAX)
		grown = fcntl(fd, F_SETPIPE_SZ, (int)want);
	if (grown == -1 && max > have && (long)want > max)
		grown = fcntl(fd, F_SETPIPE_SZ, (int)max);
	/* EPERM (the user's pipe allowance), EBUSY: it keeps its size */
	return (size_t)(grown > 0 ? grown : have);
}

/*
 * The pipe allowance binds all but a process with CAP_SYS_RESOURCE or
 * CAP_SYS_ADMIN in effect: root in a container may have neither.
 */
static bool
unbounded_pipes(void)
{
	unsigned long long caps = 0;
	char line[256];
	FILE *f;

	if ((f = fopen("/proc/self/status", "re")) == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return (caps & (1ULL << 24 | 1ULL << 21)) != 0;
}

size_t
compat_pipe_budget(void)
{
	FILE *f;
	long pages = 0;

	if (unbounded_pipes())
		return SIZE_MAX;
	if ((f = fopen("/proc/sys/fs/pipe-user-pages-soft", "re")) != NULL) {
		if (fscanf(f, "%ld", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	if (pages <= 0)
		return SIZE_MAX;
	return (size_t)pages / 4 * (size_t)sysconf(_SC_PAGESIZE);
}

size_t
compat_pipe_room(int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	int size = fcntl(fd, F_GETPIPE_SZ), held = 0;
	long used;

	if (size == -1 || page <= 0 || ioctl(fd, FIONREAD, &held) == -1 ||
	    held < 0)
		return 0;
	/*
	 * A pipe is size / page slots of a page each: what it holds may
	 * take a part-read page at its tail and a part-written one at its
	 * head
	 */
	used = held == 0 ? 0 : (held + page - 1) / page + 1;
	return used < size / page ? (size_t)((size / page - used) * page) : 0;
}

ssize_t
compat_splice(int from, int to, size_t len, bool nonblock)
{
	return splice(from, NULL, to, NULL, len,
	    SPLICE_F_MOVE | (nonblock ? SPLICE_F_NONBLOCK : 0));
}

ssize_t
compat_tee(int from, int to, size_t len)
{
	return tee(from, to, len, 0);
}

void
compat_fine_timer(void)
{
	/*
	 * prctl is variadic: the unused arguments are given, or a 32-bit
	 * build passes the stack's garbage (valgrind saw it).
	 */
	(void)prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
}
