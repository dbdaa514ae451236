/* Summary statistics over a growing array of weighted samples. */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tach/stats.h"

void
stats_add(struct stats *s, double value, double weight)
{
	if (s->count == s->room) {
		size_t room = s->room == 0 ? 256 : s->room * 2;
		struct stats_sample *v = realloc(s->samples,
		    room * sizeof(*v));

		if (v == NULL)
			err(1, "statistics");
		s->samples = v;
		s->room = room;
	}
	s->samples[s->count++] = (struct stats_sample){ value, weight };
	s->weight += weight;
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
	size_t n = s->count, i;
	double sum = 0, squares = 0, w = s->weight;

	memset(out, 0, sizeof(*out));
	if (n == 0 || w <= 0)
		return;
	qsort(s->samples, n, sizeof(*s->samples), by_value);
	for (i = 0; i < n; i++)
		sum += s->samples[i].value * s->samples[i].weight;
	out->count = n;
	out->min = s->samples[0].value;
	out->max = s->samples[n - 1].value;
	out->mean = sum / w;
	out->median = median(s->samples, n, w);
	for (i = 0; i < n; i++)
		squares += s->samples[i].weight *
		    (s->samples[i].value - out->mean) *
		    (s->samples[i].value - out->mean);
	/* frequency weights: n - 1 becomes the total weight less one */
	out->stddev = w > 1 ? sqrt(squares / (w - 1)) : 0;
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
