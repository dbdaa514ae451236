/* Summary statistics over a growing array of samples. */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tach/stats.h"

void
stats_add(struct stats *s, double value)
{
	if (s->count == s->room) {
		size_t room = s->room == 0 ? 256 : s->room * 2;
		double *v = realloc(s->values, room * sizeof(*v));

		if (v == NULL)
			err(1, "statistics");
		s->values = v;
		s->room = room;
	}
	s->values[s->count++] = value;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void
stats_summary(struct stats *s, struct stats_summary *out)
{
	size_t n = s->count, i;
	double sum = 0, squares = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	qsort(s->values, n, sizeof(*s->values), by_value);
	for (i = 0; i < n; i++)
		sum += s->values[i];
	out->count = n;
	out->min = s->values[0];
	out->max = s->values[n - 1];
	out->mean = sum / (double)n;
	out->median = n % 2 ? s->values[n / 2] :
	    (s->values[n / 2 - 1] + s->values[n / 2]) / 2;
	for (i = 0; i < n; i++)
		squares += (s->values[i] - out->mean) * (s->values[i] - out->mean);
	out->stddev = n > 1 ? sqrt(squares / (double)(n - 1)) : 0;
}

void
stats_free(struct stats *s)
{
	free(s->values);
	memset(s, 0, sizeof(*s));
}
