/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The pacing decision, a pure function of the stream's recent rate, the
 * pipe's fill and its capacity (see doc/PERFORMANCE.md for the figures
 * behind the bounds).
 */
#include "tach/pace.h"

long
pace_after(struct pace *p, double now, size_t moved, size_t queued,
    size_t capacity)
{
	double span = now - p->last, rate, wait;

	p->last = now;
	if (span <= 0 || span > 1 || moved == 0) {
		p->rate = 0;	/* the first move, or after a long stall */
		return 0;
	}
	/* each cycle's rate, pause included, smoothed over a few cycles */
	rate = (double)moved / span;
	p->rate = p->rate == 0 ? rate : 0.7 * p->rate + 0.3 * rate;
	if (pace_large_move(moved, capacity) || queued >= capacity / 2)
		return 0;
	wait = (double)(capacity / 2 - queued) / p->rate * 1e9;
	if (wait < PACE_MIN_NS || wait > PACE_MAX_NS)
		return 0;
	return (long)wait;
}

bool
pace_large_move(size_t moved, size_t capacity)
{
	return moved >= capacity / 2;
}
