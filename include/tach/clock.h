/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The one clock tach reads: CLOCK_MONOTONIC, in seconds.
 */
#ifndef TACH_CLOCK_H
#define TACH_CLOCK_H

double	clock_now(void);

#endif
