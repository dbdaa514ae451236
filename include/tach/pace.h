/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Pacing the zero-copy relay: how long to let an input pipe fill before
 * the next splice, so that a producer writing small blocks does not wake
 * tach for every one of them.
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
 * A stream that takes longer than this to fill half the pipe is a
 * trickle (someone typing, tail -f): it is never held back.
 */
#define PACE_MAX_NS	1000000

struct pace {
	double	 last;		/* when the previous move ended, or 0 */
	double	 rate;		/* bytes per second, smoothed; 0: unknown */
};

/*
 * A move of moved bytes ended at now (seconds, monotonic), leaving queued
 * bytes in an input pipe of capacity bytes.  Returns the nanoseconds to
 * wait before the next move so the pipe is about half full, or 0 to go
 * on at once: for a trickle, a small pipe, a pipe already half full, or
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

#endif
