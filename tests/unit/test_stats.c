/* The statistics against examples worked by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

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
		stats_add(&s, v[i]);
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
		stats_add(&s, i);
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
	stats_add(&s, 3.5);
	stats_summary(&s, &sum);
	assert_float_equal(sum.median, 3.5, 0);
	assert_float_equal(sum.stddev, 0, 0);
	stats_free(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(worked_example),
		cmocka_unit_test(odd_count_and_growth),
		cmocka_unit_test(edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
