/*
 * Summary statistics of the per-interval rates, as ministat(1) reports
 * them: count, minimum, median, mean, maximum and standard deviation.
 * Pure apart from memory.
 */
#ifndef TACH_STATS_H
#define TACH_STATS_H

#include <stddef.h>

struct stats {
	double	*values;
	size_t	 count;
	size_t	 room;
};

struct stats_summary {
	size_t	count;
	double	min;
	double	median;
	double	mean;
	double	max;
	double	stddev;		/* sample standard deviation (n - 1) */
};

void	stats_add(struct stats *s, double value);
/* Summarises (sorting the values); all zero when there are none. */
void	stats_summary(struct stats *s, struct stats_summary *out);
void	stats_free(struct stats *s);

#endif
