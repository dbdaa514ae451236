/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -Y on Linux: sync_file_range starts writing each full window out at
 * once and then waits for the window before it, so at most two windows
 * are dirty or in flight and the writing never stops for a whole flush.
 * Elsewhere, or where the file system refuses ranges, fdatasync at each
 * window bounds the same pages, at the cost of waiting for each one.
 */
#define _GNU_SOURCE	/* sync_file_range */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "config.h"
#include "tach/writeback.h"

#ifndef HAVE_FDATASYNC
#define fdatasync fsync		/* macOS declares no fdatasync */
#endif

void
writeback_init(struct writeback *w, int fd)
{
	struct stat sb;
	int flags;

	w->fd = -1;
	if (fd == -1 || fstat(fd, &sb) == -1 ||
	    !(S_ISREG(sb.st_mode) || S_ISBLK(sb.st_mode)) ||
	    (flags = fcntl(fd, F_GETFL)) == -1)
		return;
	/* appending writes land at the end, wherever the offset is */
	w->base = flags & O_APPEND ? sb.st_size : lseek(fd, 0, SEEK_CUR);
	if (w->base == -1)
		return;
	w->fd = fd;
	w->started = w->waited = w->base;
#ifdef HAVE_SYNC_FILE_RANGE
	w->ranges = true;
#endif
}

#ifdef HAVE_SYNC_FILE_RANGE
/* Starts writing [started, pos) out; waits for [waited, started). */
static int
write_ranges(struct writeback *w, off_t pos)
{
	if (sync_file_range(w->fd, w->started, pos - w->started,
	    SYNC_FILE_RANGE_WRITE) == -1)
		return -1;
	if (w->started == w->waited)
		return 0;	/* the first window: nothing before it */
	return sync_file_range(w->fd, w->waited, w->started - w->waited,
	    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
	    SYNC_FILE_RANGE_WAIT_AFTER);
}
#endif

int
writeback_step(struct writeback *w, uint64_t written)
{
	off_t pos;

	if (w->fd == -1)
		return 0;
	pos = w->base + (off_t)written;
	if (pos - w->started < WRITEBACK_WINDOW)
		return 0;
#ifdef HAVE_SYNC_FILE_RANGE
	if (w->ranges && write_ranges(w, pos) == -1) {
		if (errno != EINVAL && errno != ENOSYS && errno != ESPIPE)
			return -1;
		w->ranges = false;	/* a file system without ranges */
	}
#endif
	if (!w->ranges && fdatasync(w->fd) == -1)
		return -1;
	w->waited = w->started;
	w->started = pos;
	return 0;
}

int
writeback_finish(struct writeback *w)
{
	if (w->fd == -1)
		return 0;
	return fdatasync(w->fd);
}
