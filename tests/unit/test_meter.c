/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The meter's maths: windowed and average rates, the time left, stalls.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tach/meter.h"

static void
empty(void **state)
{
	struct meter m;

	(void)state;
	meter_init(&m, 0);
	assert_true(meter_rate(&m, 2) == 0);
	assert_true(meter_average(&m) == 0);
	assert_true(meter_eta(&m, 1000) == -1);
}

static void
steady(void **state)
{
	struct meter m;

	(void)state;
	meter_init(&m, 0);
	for (int t = 1; t <= 10; t++)
		meter_update(&m, t, (uint64_t)t * 100);
	assert_float_equal(meter_rate(&m, 2), 100, 1e-9);
	assert_float_equal(meter_average(&m), 100, 1e-9);
	/* 1000 of 2000 bytes done at 100 bytes per second */
	assert_float_equal(meter_eta(&m, 2000), 10, 1e-9);
}

static void
window_follows_change(void **state)
{
	struct meter m;

	(void)state;
	meter_init(&m, 0);
	for (int t = 1; t <= 10; t++)
		meter_update(&m, t, (uint64_t)t * 100);
	/* then 1000 bytes per second for three seconds */
	for (int t = 11; t <= 13; t++)
		meter_update(&m, t, 1000 + (uint64_t)(t - 10) * 1000);
	assert_float_equal(meter_rate(&m, 2), 1000, 1e-9);
	/* the 15 s window reaches back to t = 0: 4000 bytes in 13 s */
	assert_float_equal(meter_rate(&m, 15), 4000.0 / 13, 1e-9);
	assert_float_equal(meter_average(&m), 4000.0 / 13, 1e-9);
	/* the window spans at least one step even when samples are sparse */
	assert_float_equal(meter_rate(&m, 0.1), 1000, 1e-9);
}

static void
eta_edges(void **state)
{
	struct meter m;

	(void)state;
	meter_init(&m, 0);
	meter_update(&m, 1, 500);
	assert_true(meter_eta(&m, 0) == -1);		/* size unknown */
	assert_true(meter_eta(&m, 500) == -1);		/* reached */
	assert_true(meter_eta(&m, 400) == -1);		/* overshot */
	assert_float_equal(meter_eta(&m, 1500), 2, 1e-9);
	meter_update(&m, 2, 500);
	meter_update(&m, 20, 500);
	/* nothing moved in the window: the average, 25 B/s, for 1000 B */
	assert_float_equal(meter_eta(&m, 1500), 40, 1e-9);
	meter_init(&m, 0);
	meter_update(&m, 1, 0);
	assert_true(meter_eta(&m, 1500) == -1);		/* nothing ever moved */
}

static void
stalls(void **state)
{
	struct meter m;

	(void)state;
	meter_init(&m, 0);
	meter_update(&m, 1, 10);
	assert_false(meter_stalled(&m));
	meter_update(&m, 3.9, 10);
	assert_false(meter_stalled(&m));
	meter_update(&m, 4.0, 10);
	assert_true(meter_stalled(&m));
	meter_update(&m, 4.2, 11);
	assert_false(meter_stalled(&m));
	/* idle: since the count last moved, as of the latest sample */
	assert_true(meter_idle(&m) == 0);
	meter_update(&m, 5.45, 11);
	assert_true(meter_idle(&m) > 1.24 && meter_idle(&m) < 1.26);
}

static void
same_instant(void **state)
{
	struct meter m;

	(void)state;
	meter_init(&m, 0);
	meter_update(&m, 1, 100);
	meter_update(&m, 1, 300);	/* replaces, does not divide by zero */
	assert_float_equal(meter_rate(&m, 2), 300, 1e-9);
}

static void
ring_wraps(void **state)
{
	struct meter m;

	(void)state;
	meter_init(&m, 0);
	for (int i = 1; i <= 10 * METER_SAMPLES; i++)
		meter_update(&m, i * 0.1, (uint64_t)i * 1000);
	assert_float_equal(meter_rate(&m, 2), 10000, 1e-6);
	assert_float_equal(meter_average(&m), 10000, 1e-6);
}

static void
beyond_four_gib(void **state)
{
	struct meter m;
	uint64_t big = (uint64_t)5 << 30;

	(void)state;
	meter_init(&m, 0);
	meter_update(&m, 1, big);
	meter_update(&m, 2, 2 * big);
	assert_float_equal(meter_rate(&m, 2), (double)big, 1);
	assert_float_equal(meter_eta(&m, 3 * big), 1, 1e-9);
}

/* -m: a window longer than the ring's samples at this pace still fits. */
static void
long_window(void **state)
{
	struct meter m;
	uint64_t count = 0;

	(void)state;
	meter_init(&m, 100);
	/* 200 s at 1000/s then 100 s at 4000/s, sampled every 0.1 s */
	for (int i = 1; i <= 3000; i++) {
		count += i <= 2000 ? 100 : 400;
		meter_update(&m, i * 0.1, count);
	}
	assert_true(m.count <= METER_SAMPLES);
	assert_float_equal(meter_rate(&m, 100), 4000, 1);
	/* 100 s back from 300: half at each rate */
	assert_float_equal(meter_rate(&m, 200), 2500, 25);
	/* the current rate is still of the last seconds */
	assert_float_equal(meter_rate(&m, 2), 4000, 1);
	/* the time left from the window: 4000/s */
	assert_float_equal(meter_eta(&m, count + 40000), 10, 0.01);
	assert_float_equal(meter_average(&m), 2000, 1e-6);
	/* without a window: the last METER_ETA_WINDOW seconds, as before */
	meter_init(&m, 0);
	for (int i = 1; i <= 100; i++)
		meter_update(&m, i, (uint64_t)i * 500);
	assert_float_equal(meter_eta(&m, 100 * 500 + 5000), 10, 1e-9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty),
		cmocka_unit_test(steady),
		cmocka_unit_test(window_follows_change),
		cmocka_unit_test(eta_edges),
		cmocka_unit_test(stalls),
		cmocka_unit_test(same_instant),
		cmocka_unit_test(ring_wraps),
		cmocka_unit_test(beyond_four_gib),
		cmocka_unit_test(long_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
