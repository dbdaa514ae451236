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
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#include "tach/message.h"
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

bool
writeback_is_disk(int fd)
{
	struct stat sb;

	return fstat(fd, &sb) == 0 && S_ISBLK(sb.st_mode);
}

bool
writeback_to_reader(int fd)
{
	struct stat sb;

	return fstat(fd, &sb) == 0 &&
	    (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode));
}

int
writeback_sync(int fd)
{
	return fdatasync(fd) == -1 ? errno : 0;
}

struct writeback_flush {
	int		 fd;
	int		 error;		/* fdatasync's, once done */
	int		 done[2];	/* the thread writes a byte when done */
};

static void *
flush_run(void *arg)
{
	struct writeback_flush *f = arg;

	f->error = writeback_sync(f->fd);
	/* a pipe of its own, empty: the byte fits */
	if (write(f->done[1], "", 1) == -1)
		f->error = errno;
	return NULL;
}

struct writeback_flush *
writeback_flush(int fd)
{
	struct writeback_flush *f;
	sigset_t all, old;
	pthread_t thread;
	int error;

	if ((f = calloc(1, sizeof(*f))) == NULL || pipe(f->done) == -1)
		report_err(1, "the last flush");
	(void)fcntl(f->done[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(f->done[1], F_SETFD, FD_CLOEXEC);
	f->fd = fd;
	/* signals go to the main thread, which draws and may stop */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	error = pthread_create(&thread, NULL, flush_run, f);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (error != 0)
		report_errc(1, error, "a thread for the last flush");
	(void)pthread_detach(thread);
	return f;
}

bool
writeback_flushed(struct writeback_flush *f, double seconds, int *error)
{
	struct pollfd p = { .fd = f->done[0], .events = POLLIN };

	if (poll(&p, 1, (int)(seconds * 1000)) != 1)
		return false;
	*error = f->error;
	close(f->done[0]);
	close(f->done[1]);
	free(f);
	return true;
}
