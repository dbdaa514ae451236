/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -Y: keeps the pages an output file or disk has not yet written bounded
 * while tach copies, so the bar shows what reached the device, and the
 * last flush is short.  The last flush itself, -Y's or a disk's.
 */
#ifndef TACH_WRITEBACK_H
#define TACH_WRITEBACK_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

/* Writeback starts at every this many bytes written. */
#define WRITEBACK_WINDOW	(8 * 1024 * 1024)

struct writeback {
	int		 fd;		/* -1: nothing to keep (not -Y, a pipe) */
	bool		 ranges;	/* sync_file_range works on fd */
	off_t		 base;		/* fd's offset before the first write */
	off_t		 started;	/* writeback begun up to here */
	off_t		 waited;	/* written to the device up to here */
};

/* fd only if it is a regular file or a block device; else nothing to do. */
void	writeback_init(struct writeback *w, int fd);
/*
 * written bytes have gone to fd since writeback_init: at each window,
 * starts writing the last one out and waits for the one before.  Returns
 * -1 with errno when the device reports an error.
 */
int	writeback_step(struct writeback *w, uint64_t written);
/* fd is a disk (a block device): its end is flushed, unless --no-flush. */
bool	writeback_is_disk(int fd);
/*
 * fd is a pipe or a socket: a reader's, which nothing flushes and whose
 * close tells nothing; left open until tach exits, so that the reader's
 * end of input comes after tach's last frame.
 */
bool	writeback_to_reader(int fd);
/* Everything of fd to the device: 0, or the errno it failed with. */
int	writeback_sync(int fd);
/*
 * The last flush (-Y's, a disk's): everything of fd to the device, by
 * fdatasync in a thread of its own, so that the caller draws meanwhile.
 * Exits saying why if no thread can be had.
 */
struct writeback_flush	*writeback_flush(int fd);
/*
 * Waits up to seconds for the flush: true once it is done, with 0 or the
 * errno it failed with in *error, and f freed; false at the timeout or
 * when a signal comes first.  A flush never done is left to the exit.
 */
bool	writeback_flushed(struct writeback_flush *f, double seconds,
	    int *error);

#endif
