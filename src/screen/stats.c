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
#include "tach/compat.h"
#include "tach/message.h"

static int by_value(const void *, const void *);

/*
 * Each pair of neighbours becomes one sample of their weighted mean and
 * summed weight; returns how many are left.
 */
static size_t
merge_pairs(struct stats_sample *v, size_t n)
{
	size_t i, j;

	for (i = j = 0; i + 1 < n; i += 2, j++) {
		double w = v[i].weight + v[i + 1].weight;

		v[j] = (struct stats_sample){ (v[i].value * v[i].weight +
		    v[i + 1].value * v[i + 1].weight) / w, w };
	}
	if (i < n)
		v[j++] = v[i];
	return j;
}

/* Full: sorted and merged in pairs, so the median moves little. */
static void
halve(struct stats *s)
{
	qsort(s->samples, s->kept, sizeof(*s->samples), by_value);
	s->kept = merge_pairs(s->samples, s->kept);
}

void
stats_add(struct stats *s, double value, double weight)
{
	double before = s->mean;

	if (s->kept == STATS_KEPT)
		halve(s);
	if (s->kept == s->room) {
		size_t room = s->room == 0 ? 16 : s->room * 2;
		struct stats_sample *v = reallocarray(s->samples,
		    room, sizeof(*v));

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

/* The sparkline's series: every entry stands for the same stretch. */
static void
series_add(struct stats_intervals *iv, double rate, double weight)
{
	struct stats_sample *p = &iv->pending;
	double unit = iv->unit > 0 ? iv->unit : 1;

	p->value = (p->value * p->weight + rate * weight) /
	    (p->weight + weight);
	p->weight += weight;
	if (p->weight < unit)
		return;
	if (iv->nseries == STATS_SERIES) {
		/* pending goes on filling, to the new unit */
		iv->nseries = merge_pairs(iv->series, iv->nseries);
		iv->unit = unit * 2;
		return;
	}
	iv->series[iv->nseries++] = *p;
	*p = (struct stats_sample){ 0, 0 };
}

void
stats_interval(struct stats_intervals *iv, double interval, double t,
    uint64_t count, bool final)
{
	double span = t - iv->last_t, rate, weight;

	if (span <= 0 || (span < interval / 2 && !final))
		return;
	rate = (double)(count - iv->last_count) / span;
	weight = span >= interval ? 1 : span / interval;
	stats_add(&iv->rates, rate, weight);
	series_add(iv, rate, weight);
	if (span >= interval / 2)
		iv->full++;
	iv->last_t = t;
	iv->last_count = count;
}

int
stats_sparkline(const struct stats_intervals *iv, int cols, char *buf,
    size_t buflen)
{
	struct stats_sample all[STATS_SERIES + 1];
	double mean[STATS_SERIES + 1], top = 0;
	size_t n = iv->nseries, cells, at = 0;

	/* the run's tail, though short of a whole entry */
	memcpy(all, iv->series, n * sizeof(*all));
	if (iv->pending.weight > 0)
		all[n++] = iv->pending;
	buf[0] = '\0';
	if (cols <= 0 || n == 0)
		return 0;
	cells = (size_t)cols < n ? (size_t)cols : n;
	if (cells > (buflen - 1) / 3)
		cells = (buflen - 1) / 3;
	for (size_t c = 0; c < cells; c++) {
		double sum = 0, weight = 0;

		for (size_t i = c * n / cells; i < (c + 1) * n / cells; i++) {
			sum += all[i].value * all[i].weight;
			weight += all[i].weight;
		}
		mean[c] = weight > 0 ? sum / weight : 0;
		if (mean[c] > top)
			top = mean[c];
	}
	for (size_t c = 0; c < cells; c++) {
		/* the least that moved is the lowest bar, never nothing */
		int level = mean[c] > 0 ? (int)(mean[c] / top * 8 + 0.5) : 0;

		if (mean[c] > 0 && level == 0)
			level = 1;
		if (level == 0)
			buf[at++] = ' ';
		else {
			memcpy(buf + at, "\xe2\x96", 2);
			buf[at + 2] = (char)(0x80 + (level > 8 ? 8 : level));
			at += 3;
		}
	}
	buf[at] = '\0';
	return (int)cells;
}
