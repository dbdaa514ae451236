/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -d --pipeline's reasoning, pure: the stages in the order the data goes
 * through them, and the one that holds the others back.
 */
#ifndef TACH_PIPEGRAPH_H
#define TACH_PIPEGRAPH_H

#include <stdbool.h>
#include <stddef.h>

/* A pipe from stage from (its writer) to stage to (its reader). */
struct pipegraph_edge {
	size_t	from, to;
};
/*
 * The n stages in order, upstream first, into order[0..n): a stage comes
 * after every stage that writes into it; ties, and stages of a cycle, in
 * their own order.  false if memory runs out.
 */
bool	pipegraph_order(size_t n, const struct pipegraph_edge *edges,
	    size_t nedges, size_t *order);

/* A stage's time over the window, each a share of it (0 to 1). */
struct pipegraph_time {
	double	working;	/* on a CPU: every thread's, may pass 1 */
	double	waiting_in;	/* nothing running, waiting for input */
	double	waiting_out;	/* nothing running, waiting for room */
};
/*
 * The stage that holds the others back, of n (2 or more): of those not
 * starved (waiting for input a tenth of the time or more, and more than
 * for room), the one that waits least on its pipes, busy at its own work
 * (a CPU, a disk, a sleep of its own), ties to the one working most; -1
 * below 2 stages.
 */
long	pipegraph_bottleneck(const struct pipegraph_time *t, size_t n);

#endif
