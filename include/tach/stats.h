/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Summary statistics of the per-interval rates, as ministat(1) reports
 * them: count, minimum, median, mean, maximum and standard deviation,
 * with a weight for each value so that a partial interval counts for its
 * length.  Pure apart from memory.
 */
#ifndef TACH_STATS_H
#define TACH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stats_sample {
	double	value;
	double	weight;		/* 1 for a whole interval, less for a part */
};

/*
 * Memory stays bounded however long it runs: the count, minimum, maximum,
 * mean and deviation are kept exactly as values come; the median comes
 * from at most STATS_KEPT samples, neighbours merged by weight when more
 * come.
 */
#define STATS_KEPT	1024

struct stats {
	struct stats_sample	*samples;	/* for the median */
	size_t			 kept;
	size_t			 room;
	size_t			 count;		/* values added */
	double			 weight;	/* the sum of the weights */
	double			 min, max;
	double			 mean;		/* weighted, as they come */
	double			 squares;	/* Welford's sum, weighted */
};

struct stats_summary {
	size_t	count;
	double	min;
	double	median;		/* weighted */
	double	mean;		/* weighted */
	double	max;
	double	stddev;		/* weighted sample standard deviation */
};

/* Adds a value that stands for weight intervals (0 < weight <= 1). */
void	stats_add(struct stats *s, double value, double weight);
/*
 * Summarises (sorting the values); all zero when there are none.  With
 * every weight 1 these are the plain statistics, stddev with n - 1.
 */
void	stats_summary(struct stats *s, struct stats_summary *out);
void	stats_free(struct stats *s);

/* --stats: a count (bytes, lines, a file's position) cut into intervals. */
struct stats_intervals {
	struct stats	 rates;		/* per interval */
	double		 last_t;	/* the previous interval's end */
	uint64_t	 last_count;	/* the count then */
	size_t		 full;		/* intervals of at least half of one */
};

/*
 * The count is count at time t: the rate since the previous interval's
 * end joins iv->rates.  A sliver shorter than half an interval (a redraw
 * for a signal) waits to join the next one, unless final; a partial
 * interval counts for its length.
 */
void	stats_interval(struct stats_intervals *iv, double interval, double t,
	    uint64_t count, bool final);

#endif
