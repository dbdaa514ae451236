/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Summary statistics: exact running sums (Welford's, weighted) and a
 * bounded set of samples for the median.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tach/stats.h"
#include "tach/message.h"

static int by_value(const void *, const void *);

/*
 * Full: sorted, each pair of neighbours becomes one sample of their
 * weighted mean and summed weight, so the median moves little.
 */
static void
halve(struct stats *s)
{
	size_t i, j;

	qsort(s->samples, s->kept, sizeof(*s->samples), by_value);
	for (i = j = 0; i + 1 < s->kept; i += 2, j++) {
		struct stats_sample *a = &s->samples[i], *b = &s->samples[i + 1];
		double w = a->weight + b->weight;

		s->samples[j] = (struct stats_sample){ (a->value * a->weight +
		    b->value * b->weight) / w, w };
	}
	if (i < s->kept)
		s->samples[j++] = s->samples[i];
	s->kept = j;
}

void
stats_add(struct stats *s, double value, double weight)
{
	double before = s->mean;

	if (s->kept == STATS_KEPT)
		halve(s);
	if (s->kept == s->room) {
		size_t room = s->room == 0 ? 16 : s->room * 2;
		struct stats_sample *v = realloc(s->samples,
		    room * sizeof(*v));

		if (v == NULL)
			report_err(1, "statistics");
		s->samples = v;
		s->room = room;
	}
	s->samples[s->kept++] = (struct stats_sample){ value, weight };
	s->min = s->count == 0 || value < s->min ? value : s->min;
	s->max = s->count == 0 || value > s->max ? value : s->max;
	s->count++;
	s->weight += weight;
	s->mean += weight / s->weight * (value - before);
	s->squares += weight * (value - before) * (value - s->mean);
}

static int
by_value(const void *a, const void *b)
{
	double x = ((const struct stats_sample *)a)->value;
	double y = ((const struct stats_sample *)b)->value;

	return x < y ? -1 : x > y;
}

/* The value at half the total weight; between two when it falls on one. */
static double
median(const struct stats_sample *v, size_t n, double total)
{
	double below = 0;
	size_t i;

	for (i = 0; i + 1 < n; i++) {
		below += v[i].weight;
		if (fabs(below - total / 2) <= 1e-9 * total)
			return (v[i].value + v[i + 1].value) / 2;
		if (below > total / 2)
			break;
	}
	return v[i].value;
}

void
stats_summary(struct stats *s, struct stats_summary *out)
{
	double w = s->weight;

	memset(out, 0, sizeof(*out));
	if (s->count == 0 || w <= 0)
		return;
	qsort(s->samples, s->kept, sizeof(*s->samples), by_value);
	out->count = s->count;
	out->min = s->min;
	out->max = s->max;
	out->mean = s->mean;
	out->median = median(s->samples, s->kept, w);
	/* frequency weights: n - 1 becomes the total weight less one */
	out->stddev = w > 1 && s->squares > 0 ? sqrt(s->squares / (w - 1)) : 0;
}

void
stats_free(struct stats *s)
{
	free(s->samples);
	memset(s, 0, sizeof(*s));
}

void
stats_interval(struct stats_intervals *iv, double interval, double t,
    uint64_t count, bool final)
{
	double span = t - iv->last_t;

	if (span <= 0 || (span < interval / 2 && !final))
		return;
	stats_add(&iv->rates, (double)(count - iv->last_count) / span,
	    span >= interval ? 1 : span / interval);
	if (span >= interval / 2)
		iv->full++;
	iv->last_t = t;
	iv->last_count = count;
}
