/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The clocks tach reads, in seconds: CLOCK_MONOTONIC for every interval,
 * the wall clock only for the time of day shown.
 */
#ifndef TACH_CLOCK_H
#define TACH_CLOCK_H

double	clock_now(void);
/* The time of day (-F's %I): whole seconds since the epoch, or 0. */
double	clock_wall(void);

#endif
