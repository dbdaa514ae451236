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

/*
 * The rates in the order they came, for the sparkline, each of as many
 * intervals as unit: when full, each two neighbours become one and the
 * unit doubles, so a long run keeps its whole shape in as many.
 */
#define STATS_SERIES	512

/* --stats: a count (bytes, lines, a file's position) cut into intervals. */
struct stats_intervals {
	struct stats	 rates;		/* per interval */
	struct stats_sample series[STATS_SERIES];
	size_t		 nseries;
	struct stats_sample pending;	/* filling up to unit */
	double		 unit;		/* intervals an entry; 0: 1 */
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
/*
 * The rates over the run in at most cols cells of UTF-8 eighth bars
 * (U+2581 to U+2588), each the weighted mean of its stretch of the run
 * against the highest cell, a space for a stretch where nothing moved;
 * into buf (3 bytes a cell and a NUL).  Returns the cells, 0 with none.
 */
int	stats_sparkline(const struct stats_intervals *iv, int cols, char *buf,
	    size_t buflen);

#endif
