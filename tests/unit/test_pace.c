/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The pacing decision as a pure function of rate, pipe fill and capacity.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tach/pace.h"

#define MiB	(1024 * 1024)

/* n moves of moved bytes, one every step seconds, from t = 1. */
static long
steady(struct pace *p, int n, size_t moved, double step, size_t queued,
    size_t capacity)
{
	long ns = 0;

	for (int i = 1; i <= n; i++)
		ns = pace_after(p, 1 + i * step, moved, queued, capacity);
	return ns;
}

static void
first_move_goes_on(void **state)
{
	struct pace p = { 0, 0 };

	(void)state;
	assert_int_equal(pace_after(&p, 5, 65536, 0, MiB), 0);
	assert_true(p.rate == 0);
}

/* 64 KiB every 20 us, 3.28 GB/s: half of 1 MiB fills in 160 us. */
static void
fast_stream_fills_half_the_pipe(void **state)
{
	struct pace p = { 0, 0 };
	long ns = steady(&p, 50, 65536, 20e-6, 0, MiB);

	(void)state;
	assert_true(p.rate > 3.2768e9 * 0.999 && p.rate < 3.2768e9 * 1.001);
	assert_true(ns > 159000 && ns < 161000);
	/* what is queued already counts toward the half */
	ns = pace_after(&p, 1 + 51 * 20e-6, 65536, 256 * 1024, MiB);
	assert_true(ns > 79000 && ns < 81000);
}

static void
half_full_goes_on(void **state)
{
	struct pace p = { 0, 0 };

	(void)state;
	assert_int_equal(steady(&p, 10, 65536, 20e-6, MiB / 2, MiB), 0);
	assert_int_equal(steady(&p, 10, 65536, 20e-6, MiB, MiB), 0);
}

/*
 * 1 MiB writes into a 1 MiB pipe, each move most of it: the pipe fills
 * with no pause, at any rate, so none is made.
 */
static void
large_moves_go_on(void **state)
{
	struct pace p = { 0, 0 };

	(void)state;
	assert_int_equal(steady(&p, 20, MiB, 400e-6, 0, MiB), 0);
	assert_int_equal(steady(&p, 20, MiB / 2, 200e-6, 0, MiB), 0);
	assert_true(p.rate > 0);
	/* just under half, at the same rate: a pause of a few us more */
	assert_true(steady(&p, 20, MiB / 2 - 16384, 200e-6, 0, MiB) > 0);
}

/* A line every 10 ms: half the pipe would take hours, so no pause. */
static void
trickle_is_never_held(void **state)
{
	struct pace p = { 0, 0 };

	(void)state;
	assert_int_equal(steady(&p, 20, 100, 0.01, 0, MiB), 0);
	/* just slower than half a pipe per PACE_MAX_NS: one write a pause */
	assert_int_equal(steady(&p, 50, 512 * 1024 - 4096, 1e-3, 0, MiB), 0);
}

/*
 * A compressor's output, 8 KiB every 1.2 ms (6.8 MB/s): half the pipe
 * would take 77 ms; a pause of PACE_GATHER_NS gathers eight writes.
 */
static void
slower_stream_is_gathered(void **state)
{
	struct pace p = { 0, 0 };
	long ns;

	(void)state;
	assert_int_equal(steady(&p, 20, 8192, 1.2e-3, 0, MiB), PACE_GATHER_NS);
	/* and goes on being, each move now eight writes */
	assert_int_equal(pace_after(&p, 1 + 20 * 1.2e-3 + 0.0112, 8 * 8192,
	    0, MiB), PACE_GATHER_NS);
	/* never past half the pipe: a 128 KiB one fills it in 9.6 ms */
	p = (struct pace){ 0, 0 };
	ns = steady(&p, 20, 8192, 1.2e-3, 0, 131072);
	assert_true(ns > 9500000 && ns < 9700000);
}

/* A pause that would gather fewer than four writes is not made. */
static void
gathering_needs_several_writes(void **state)
{
	struct pace p = { 0, 0 };

	(void)state;
	/* 64 KiB every 20 ms, 3.3 MB/s: 33 KB in 10 ms, half a write */
	assert_int_equal(steady(&p, 20, 65536, 20e-3, 0, MiB), 0);
	/* 1 KiB every 0.5 ms, 2 MB/s: 20 KB in 10 ms, under 32 KiB */
	assert_int_equal(steady(&p, 20, 1024, 0.5e-3, 0, MiB), 0);
}

/*
 * Spaced lines right after a fast stream: the smoothed rate is still
 * high, but each line's own is not, and none is held.
 */
static void
lines_after_a_burst_are_not_gathered(void **state)
{
	struct pace p = { 0, 0 };
	double t = 1 + 50 * 20e-6;

	(void)state;
	(void)steady(&p, 50, 65536, 20e-6, 0, MiB);
	for (int i = 1; i <= 10; i++)
		assert_true(pace_after(&p, t + i * 0.01, 80, 0, MiB) <=
		    PACE_MAX_NS);
}

/*
 * An output pipe left full by a slow reader: a pause while it drains to
 * half, at the moves' rate, at most PACE_DRAIN_MAX_NS; none for a fast
 * reader, a pipe half empty, or a rate not yet known.
 */
static void
slow_reader_is_let_drain(void **state)
{
	struct pace p = { 0, 0 };

	(void)state;
	assert_int_equal(pace_drain(&p, MiB, MiB), 0);	/* no rate yet */
	assert_false(pace_may_drain(&p, MiB));
	p.rate = 100e6;		/* 100 MB/s: half of 1 MiB in 5.2 ms */
	assert_true(pace_may_drain(&p, MiB));
	assert_true(pace_drain(&p, MiB, MiB) > 5200000 &&
	    pace_drain(&p, MiB, MiB) < 5300000);
	/* what the reader has already taken counts */
	assert_true(pace_drain(&p, 768 * 1024, MiB) > 2600000 &&
	    pace_drain(&p, 768 * 1024, MiB) < 2700000);
	assert_int_equal(pace_drain(&p, MiB / 2, MiB), 0);
	p.rate = 7e6;		/* xz's pace: 75 ms, cut to the longest */
	assert_int_equal(pace_drain(&p, MiB, MiB), PACE_DRAIN_MAX_NS);
	p.rate = 1e9;		/* 0.5 ms: a fast reader is left alone */
	assert_false(pace_may_drain(&p, MiB));
	assert_int_equal(pace_drain(&p, MiB, MiB), 0);
}

/* A 64 KiB pipe at 3.2 GB/s would need 10 us: below what a timer keeps. */
static void
small_pipe_goes_on(void **state)
{
	struct pace p = { 0, 0 };

	(void)state;
	assert_int_equal(steady(&p, 50, 16384, 5e-6, 0, 65536), 0);
	/* the same pipe at 200 MB/s: 164 us, worth a pause */
	assert_true(steady(&p, 200, 16384, 81.92e-6, 0, 65536) > PACE_MIN_NS);
}

static void
stall_forgets_the_rate(void **state)
{
	struct pace p = { 0, 0 };

	(void)state;
	(void)steady(&p, 10, 65536, 20e-6, 0, MiB);
	assert_true(p.rate > 0);
	assert_int_equal(pace_after(&p, 10, 65536, 0, MiB), 0);
	assert_true(p.rate == 0);
	assert_int_equal(pace_after(&p, 10, 0, 0, MiB), 0);	/* no move */
	assert_int_equal(pace_after(&p, 9, 65536, 0, MiB), 0);	/* backwards */
}

/* Each cycle's rate moves the estimate 30% of the way. */
static void
rate_is_smoothed(void **state)
{
	struct pace p = { 1, 1e9 };

	(void)state;
	(void)pace_after(&p, 1.001, 2000000, 0, MiB);	/* 2 GB/s */
	assert_true(p.rate > 1.3e9 - 1 && p.rate < 1.3e9 + 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_move_goes_on),
		cmocka_unit_test(fast_stream_fills_half_the_pipe),
		cmocka_unit_test(half_full_goes_on),
		cmocka_unit_test(large_moves_go_on),
		cmocka_unit_test(trickle_is_never_held),
		cmocka_unit_test(slower_stream_is_gathered),
		cmocka_unit_test(gathering_needs_several_writes),
		cmocka_unit_test(lines_after_a_burst_are_not_gathered),
		cmocka_unit_test(slow_reader_is_let_drain),
		cmocka_unit_test(small_pipe_goes_on),
		cmocka_unit_test(stall_forgets_the_rate),
		cmocka_unit_test(rate_is_smoothed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
