/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Time: monotonic for every interval, immune to the wall clock being set
 * or slewed; the wall clock only for the time of day shown.
 */
#include <time.h>

#include "tach/clock.h"

double
clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double
clock_wall(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) == -1)
		return 0;
	return (double)ts.tv_sec;
}
