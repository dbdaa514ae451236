/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The statistics against examples worked by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>

#include "tach/stats.h"

static void
worked_example(void **state)
{
	/*
	 * 2, 4, 4, 4, 5, 5, 7, 9: mean 40/8 = 5; squares about the mean
	 * 9+1+1+1+0+0+4+16 = 32; sample variance 32/7; median (4+5)/2.
	 */
	static const double v[] = { 9, 4, 2, 5, 4, 7, 4, 5 };
	struct stats s = { 0 };
	struct stats_summary sum;

	(void)state;
	for (size_t i = 0; i < 8; i++)
		stats_add(&s, v[i], 1);
	stats_summary(&s, &sum);
	assert_int_equal(sum.count, 8);
	assert_float_equal(sum.min, 2, 0);
	assert_float_equal(sum.max, 9, 0);
	assert_float_equal(sum.mean, 5, 1e-12);
	assert_float_equal(sum.median, 4.5, 1e-12);
	assert_float_equal(sum.stddev, 2.138089935299395, 1e-12);
	stats_free(&s);
}

static void
odd_count_and_growth(void **state)
{
	struct stats s = { 0 };
	struct stats_summary sum;

	(void)state;
	/* 1..1001 in reverse: grows the array past its first allocation */
	for (int i = 1001; i >= 1; i--)
		stats_add(&s, i, 1);
	stats_summary(&s, &sum);
	assert_int_equal(sum.count, 1001);
	assert_float_equal(sum.median, 501, 0);
	assert_float_equal(sum.mean, 501, 1e-9);
	/* sample stddev of 1..n is sqrt(n(n+1)/12) */
	assert_float_equal(sum.stddev, 289.1081113, 1e-6);
	stats_free(&s);
}

static void
edges(void **state)
{
	struct stats s = { 0 };
	struct stats_summary sum;

	(void)state;
	stats_summary(&s, &sum);
	assert_int_equal(sum.count, 0);
	assert_float_equal(sum.mean, 0, 0);
	stats_add(&s, 3.5, 1);
	stats_summary(&s, &sum);
	assert_float_equal(sum.median, 3.5, 0);
	assert_float_equal(sum.stddev, 0, 0);
	stats_free(&s);
}

/*
 * A partial interval counts for its length: 10, 10 and a quarter interval
 * at 50.  Weight 2.25; mean (10 + 10 + 12.5) / 2.25 = 14.444...; median
 * 10 (half the weight, 1.125, lies in the second 10); the variance sums
 * 2 * (10 - m)^2 + 0.25 * (50 - m)^2 over 1.25.
 */
static void
partial_interval(void **state)
{
	struct stats s = { 0 };
	struct stats_summary sum;
	double m = 32.5 / 2.25;

	(void)state;
	stats_add(&s, 10, 1);
	stats_add(&s, 10, 1);
	stats_add(&s, 50, 0.25);
	stats_summary(&s, &sum);
	assert_int_equal(sum.count, 3);
	assert_float_equal(sum.max, 50, 0);
	assert_float_equal(sum.mean, m, 1e-12);
	assert_float_equal(sum.median, 10, 0);
	assert_float_equal(sum.stddev, sqrt((2 * (10 - m) * (10 - m) +
	    0.25 * (50 - m) * (50 - m)) / 1.25), 1e-12);
	stats_free(&s);
	/* data that came late: a lone partial interval is its own max */
	stats_add(&s, 0, 1);
	stats_add(&s, 0, 1);
	stats_add(&s, 1e6, 0.1);
	stats_summary(&s, &sum);
	assert_float_equal(sum.max, 1e6, 0);
	assert_float_equal(sum.median, 0, 0);
	stats_free(&s);
}

/* A count cut into intervals of 1 s, as --stats samples it. */
static void
intervals(void **state)
{
	struct stats_intervals iv = { 0 };

	(void)state;
	stats_interval(&iv, 1, 1.0, 100, false);	/* 100/s, whole */
	stats_interval(&iv, 1, 1.2, 180, false);	/* a sliver: waits */
	assert_int_equal(iv.rates.kept, 1);
	stats_interval(&iv, 1, 1.6, 200, false);	/* 0.6 s: joins, part */
	assert_int_equal(iv.rates.kept, 2);
	assert_float_equal(iv.rates.samples[1].value, 100 / 0.6, 1e-9);
	assert_float_equal(iv.rates.samples[1].weight, 0.6, 1e-12);
	assert_int_equal(iv.full, 2);
	stats_interval(&iv, 1, 1.7, 260, true);	/* the end: a sliver too */
	assert_int_equal(iv.rates.kept, 3);
	assert_float_equal(iv.rates.samples[2].value, 600, 1e-9);
	assert_float_equal(iv.rates.samples[2].weight, 0.1, 1e-9);
	assert_int_equal(iv.full, 2);			/* not a measured one */
	stats_interval(&iv, 1, 1.7, 260, true);	/* no time: nothing */
	assert_int_equal(iv.rates.kept, 3);
	assert_float_equal(iv.last_t, 1.7, 0);
	assert_int_equal(iv.last_count, 260);
	stats_free(&iv.rates);
}

/* A long run: memory stays bounded, the exact figures stay exact. */
static void
bounded(void **state)
{
	struct stats s = { 0 };
	struct stats_summary sum;

	(void)state;
	for (int i = 0; i < 100000; i++)
		stats_add(&s, (double)((i * 7919) % 100000), 1);
	assert_true(s.kept <= STATS_KEPT);
	assert_true(s.room <= STATS_KEPT);
	stats_summary(&s, &sum);
	assert_int_equal(sum.count, 100000);
	assert_float_equal(sum.min, 0, 0);
	assert_float_equal(sum.max, 99999, 0);
	assert_float_equal(sum.mean, 49999.5, 1e-6);
	/* of 0..n-1: sqrt(n (n + 1) / 12) */
	assert_float_equal(sum.stddev, sqrt(100000.0 * 100001 / 12), 1e-3);
	/* the median from merged neighbours: within 1% of the range */
	assert_float_equal(sum.median, 49999.5, 1000);
	stats_free(&s);
}

/* The rates' shape over the run: one cell a stretch, against the top. */
static void
sparkline(void **state)
{
	struct stats_intervals iv = { 0 };
	char buf[3 * 64 + 1];
	uint64_t count = 0;

	(void)state;
	assert_int_equal(stats_sparkline(&iv, 40, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	/* 8 intervals: a ramp of 100..800 a second, then a stall */
	for (int i = 1; i <= 8; i++) {
		count += 100 * (uint64_t)i;
		stats_interval(&iv, 1, i, count, false);
	}
	stats_interval(&iv, 1, 9, count, false);
	assert_int_equal(stats_sparkline(&iv, 40, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "▁▂▃▄▅▆▇█ ");
	/* fewer cells than intervals: each the mean of its stretch */
	assert_int_equal(stats_sparkline(&iv, 3, buf, sizeof(buf)), 3);
	/* 200, 500 and 500 a second: 3.2, 8 and 8 eighths of the top */
	assert_string_equal(buf, "▃██");
	/* too little room for a cell */
	assert_int_equal(stats_sparkline(&iv, 0, buf, sizeof(buf)), 0);
	/* room for one cell: the whole run, the top of itself */
	assert_int_equal(stats_sparkline(&iv, 9, buf, 4), 1);
	assert_string_equal(buf, "█");
	stats_free(&iv.rates);
}

/* A long run keeps its whole shape in bounded memory. */
static void
sparkline_long_run(void **state)
{
	struct stats_intervals iv = { 0 };
	char buf[3 * 8 + 1];
	uint64_t count = 0;

	(void)state;
	/* 100000 intervals: the first half at 1000/s, the second at 125 */
	for (int i = 1; i <= 100000; i++) {
		count += i <= 50000 ? 1000 : 125;
		stats_interval(&iv, 1, i, count, false);
	}
	assert_true(iv.nseries <= STATS_SERIES);
	assert_int_equal(stats_sparkline(&iv, 8, buf, sizeof(buf)), 8);
	assert_string_equal(buf, "████▁▁▁▁");
	stats_free(&iv.rates);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(worked_example),
		cmocka_unit_test(odd_count_and_growth),
		cmocka_unit_test(edges),
		cmocka_unit_test(partial_interval),
		cmocka_unit_test(intervals),
		cmocka_unit_test(bounded),
		cmocka_unit_test(sparkline),
		cmocka_unit_test(sparkline_long_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
