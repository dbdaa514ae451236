/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * A buffer's fill: what the engine tells (relay_fill) and the screen
 * draws, a type of its own so that neither layer includes the other.
 */
#ifndef TACH_FILL_H
#define TACH_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* -b as a buffer: what it holds now, the most it held, all it read. */
struct relay_fill {
	size_t		 size;
	size_t		 held;
	size_t		 most;
	uint64_t	 taken;
	double		 full;		/* seconds it was full: input held */
	double		 empty;		/* seconds it was empty: output idle */
	bool		 filling;	/* the output waits for --write-at */
};

#endif
