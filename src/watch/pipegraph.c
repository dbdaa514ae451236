/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -d --pipeline's order of stages and its bottleneck (pipegraph.h).
 */
#include <stdlib.h>

#include "tach/pipegraph.h"

bool
pipegraph_order(size_t n, const struct pipegraph_edge *edges, size_t nedges,
    size_t *order)
{
	size_t *before, done = 0;
	bool *placed;

	before = calloc(n + 1, sizeof(*before));
	placed = calloc(n + 1, sizeof(*placed));
	if (before == NULL || placed == NULL) {
		free(before);
		free(placed);
		return false;
	}
	for (size_t e = 0; e < nedges; e++)
		if (edges[e].from != edges[e].to)
			before[edges[e].to]++;
	while (done < n) {
		size_t next = n;

		/* the first stage no unplaced stage writes into */
		for (size_t i = 0; i < n && next == n; i++)
			if (!placed[i] && before[i] == 0)
				next = i;
		/* a cycle: the first unplaced, in its own order */
		for (size_t i = 0; i < n && next == n; i++)
			if (!placed[i])
				next = i;
		placed[next] = true;
		order[done++] = next;
		for (size_t e = 0; e < nedges; e++)
			if (edges[e].from == next && edges[e].to != next &&
			    before[edges[e].to] > 0)
				before[edges[e].to]--;
	}
	free(before);
	free(placed);
	return true;
}

/*
 * A stage that waits for input more than for room, and for a tenth of
 * the time or more, has work to spare: it does not hold the others back,
 * even when a producer writing in bursts (pv -L) waits on it meanwhile.
 */
#define STARVED	0.1

static bool
starved(const struct pipegraph_time *t)
{
	return t->waiting_in >= STARVED && t->waiting_in > t->waiting_out;
}

long
pipegraph_bottleneck(const struct pipegraph_time *t, size_t n)
{
	long best = -1;
	double least = 0, wait;
	size_t fed = 0;

	if (n < 2)
		return -1;
	for (size_t i = 0; i < n; i++)
		fed += !starved(&t[i]);
	for (size_t i = 0; i < n; i++) {
		if (fed > 0 && starved(&t[i]))
			continue;
		wait = t[i].waiting_in + t[i].waiting_out;
		if (best < 0 || wait < least - 1e-9 ||
		    (wait < least + 1e-9 && t[i].working > t[best].working)) {
			best = (long)i;
			least = wait;
		}
	}
	return best;
}
