/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Pacing the zero-copy relay: how long to let an input pipe fill before
 * the next splice, so that a producer writing small blocks does not wake
 * tach for every one of them; and how long to let an output pipe drain,
 * so that a consumer reading small blocks (xz, gzip, ssh) does not wake
 * tach for every one of them either.
 */
#ifndef TACH_PACE_H
#define TACH_PACE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A pause shorter than this costs more than it saves: the timer wakes
 * late by about as much, and a small pipe fills and stops its writer.
 */
#define PACE_MIN_NS	20000
/*
 * A stream that takes longer than this to fill half the pipe is held
 * back only to gather its writes, as below.
 */
#define PACE_MAX_NS	1000000
/*
 * A slower stream (a compressor's output, a network's) is let gather for
 * at most PACE_GATHER_NS, and only where that gathers PACE_GATHER_BYTES
 * and four of its writes: 3.2 MB/s or more.  A trickle (someone typing,
 * tail -f) gathers neither and is never held back.
 */
#define PACE_GATHER_NS		10000000
#define PACE_GATHER_BYTES	32768

/*
 * An output pipe a reader takes less time than this to drain to half is
 * left to wake tach as it reads: the pause would buy a few wake-ups and
 * risk leaving a fast reader without bytes.
 */
#define PACE_DRAIN_MIN_NS	1000000
/*
 * The longest pause for a slow reader: if it suddenly reads faster, it
 * finds half a pipe to read meanwhile, and is never left waiting long.
 */
#define PACE_DRAIN_MAX_NS	10000000

struct pace {
	double	 last;		/* when the previous move ended, or 0 */
	double	 rate;		/* bytes per second, smoothed; 0: unknown */
	size_t	 single;	/* the last move after no pause: one write */
	bool	 paused;	/* the last move was followed by a pause */
};

/*
 * A move of moved bytes ended at now (seconds, monotonic), leaving queued
 * bytes in an input pipe of capacity bytes.  Returns the nanoseconds to
 * wait before the next move so the pipe is about half full (at most
 * PACE_GATHER_NS for a slower stream), or 0 to go on at once: for a
 * trickle, a small pipe, a pipe already half full, or
 * a large move (pace_large_move): queued is not looked at for one, so
 * the caller need not ask the kernel.
 */
long	pace_after(struct pace *p, double now, size_t moved, size_t queued,
	    size_t capacity);
/*
 * A move of half the pipe or more: it found the pipe that full with no
 * pause (a writer in large blocks, or one faster than tach), and a pause
 * after it would buy nothing but a wake-up.
 */
bool	pace_large_move(size_t moved, size_t capacity);
/*
 * After a move (pace_after has taken its rate), an output pipe of
 * capacity bytes holds queued: returns the nanoseconds to wait for its
 * reader to take it down to half, at the rate the moves have had (a full
 * pipe's moves go at its reader's pace), or 0 to go on at once: for a
 * pipe half empty, a fast reader, or an unknown rate.  No byte waits: the
 * reader has half a pipe meanwhile.
 */
long	pace_drain(const struct pace *p, size_t queued, size_t capacity);
/* Whether a reader at the moves' rate could be slow enough to wait for. */
bool	pace_may_drain(const struct pace *p, size_t capacity);

#endif
