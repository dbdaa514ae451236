/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The meter: rates and the time left, from samples of a byte count taken
 * on the transfer clock (which excludes time spent stopped).  Pure: every
 * time comes in as an argument.
 */
#ifndef TACH_METER_H
#define TACH_METER_H

#include <stdbool.h>
#include <stdint.h>

#define METER_SAMPLES	1024
#define METER_RATE_WINDOW	2.0	/* seconds behind the current rate */
#define METER_ETA_WINDOW	15.0	/* seconds behind the time left */
#define METER_STALL		3.0	/* seconds without progress: stalled */

struct meter_sample {
	double		t;
	uint64_t	bytes;
};

struct meter {
	struct meter_sample	ring[METER_SAMPLES];
	unsigned		newest;
	unsigned		count;
	double			last_move;	/* when the count last grew */
	double			window;		/* -m, or 0 */
	double			spacing;	/* the least between samples */
};

/*
 * window: -m's seconds behind the time left (and the caller's average),
 * or 0 for METER_ETA_WINDOW; the samples are spaced so that the ring
 * holds twice the window.
 */
void	meter_init(struct meter *m, double window);
void	meter_update(struct meter *m, double t, uint64_t bytes);
/* Bytes per second over the last window seconds; 0 before any time passed. */
double	meter_rate(const struct meter *m, double window);
/* Bytes per second since the start. */
double	meter_average(const struct meter *m);
/*
 * Seconds until size is reached at the rate of the last window (or
 * METER_ETA_WINDOW) seconds, or at the average when nothing moved in that
 * window; -1 when it cannot be told.
 */
double	meter_eta(const struct meter *m, uint64_t size);
/* Nothing moved for METER_STALL seconds. */
bool	meter_stalled(const struct meter *m);
/* Seconds since the count last moved, as of the latest sample. */
double	meter_idle(const struct meter *m);

#endif
