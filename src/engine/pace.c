/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The pacing decisions, pure functions of the stream's recent rate, the
 * pipes' fill and their capacity (see doc/PERFORMANCE.md for the figures
 * behind the bounds).
 */
#include "tach/pace.h"

/*
 * A stream slower than half the pipe in PACE_MAX_NS: whether a pause of
 * *wait, shortened to PACE_GATHER_NS, would gather enough to be worth it.
 * By this cycle's rate as well as the smoothed one: spaced lines after a
 * fast stream would otherwise be held while the estimate comes down.
 */
static bool
gathers(const struct pace *p, double rate, double *wait)
{
	double gathered;

	if (*wait > PACE_GATHER_NS)
		*wait = PACE_GATHER_NS;
	gathered = (rate < p->rate ? rate : p->rate) * *wait / 1e9;
	return gathered >= PACE_GATHER_BYTES &&
	    gathered >= 4 * (double)p->single;
}

long
pace_after(struct pace *p, double now, size_t moved, size_t queued,
    size_t capacity)
{
	double span = now - p->last, rate, wait;
	bool paused = p->paused;

	p->last = now;
	p->paused = false;
	if (span <= 0 || span > 1 || moved == 0) {
		p->rate = 0;	/* the first move, or after a long stall */
		return 0;
	}
	/* each cycle's rate, pause included, smoothed over a few cycles */
	rate = (double)moved / span;
	p->rate = p->rate == 0 ? rate : 0.7 * p->rate + 0.3 * rate;
	if (!paused)
		p->single = moved;
	if (pace_large_move(moved, capacity) || queued >= capacity / 2)
		return 0;
	wait = (double)(capacity / 2 - queued) / p->rate * 1e9;
	if (wait > PACE_MAX_NS && !gathers(p, rate, &wait))
		return 0;
	if (wait < PACE_MIN_NS)
		return 0;
	p->paused = true;
	return (long)wait;
}

bool
pace_large_move(size_t moved, size_t capacity)
{
	return moved >= capacity / 2;
}

long
pace_drain(const struct pace *p, size_t queued, size_t capacity)
{
	double wait;

	if (!pace_may_drain(p, capacity) || queued <= capacity / 2)
		return 0;
	wait = (double)(queued - capacity / 2) / p->rate * 1e9;
	if (wait < PACE_DRAIN_MIN_NS)
		return 0;
	return wait > PACE_DRAIN_MAX_NS ? PACE_DRAIN_MAX_NS : (long)wait;
}

bool
pace_may_drain(const struct pace *p, size_t capacity)
{
	return p->rate > 0 &&
	    (double)(capacity / 2) / p->rate * 1e9 >= PACE_DRAIN_MIN_NS;
}
