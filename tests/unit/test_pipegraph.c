/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -d --pipeline's order of stages and its bottleneck.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tach/pipegraph.h"

static void
order_chain(void **state)
{
	/* xz (0) reads cat (2), and writes into the last cat (1) */
	const struct pipegraph_edge e[] = { { 2, 0 }, { 0, 1 } };
	size_t order[3];

	(void)state;
	assert_true(pipegraph_order(3, e, 2, order));
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 0);
	assert_int_equal(order[2], 1);
}

static void
order_branches(void **state)
{
	/* tee (1) writes into 0 and 2; a cycle of 3 and 4 left as it is */
	const struct pipegraph_edge e[] = { { 1, 0 }, { 1, 2 }, { 3, 4 },
	    { 4, 3 }, { 2, 2 } };
	size_t order[5];

	(void)state;
	assert_true(pipegraph_order(5, e, 5, order));
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 0);
	assert_int_equal(order[2], 2);
	assert_int_equal(order[3], 3);
	assert_int_equal(order[4], 4);
}

static void
bottleneck(void **state)
{
	/* cat waits to write, xz works, the last cat waits to read */
	const struct pipegraph_time xz[] = { { 0.02, 0, 0.97 },
	    { 0.99, 0.01, 0 }, { 0.01, 0.98, 0 } };
	/* a producer sleeping at its rate: it waits on no pipe */
	const struct pipegraph_time slow[] = { { 0.05, 0, 0 },
	    { 0.4, 0.6, 0 }, { 0.01, 0.99, 0 } };
	/*
	 * pv -L writing in bursts: it waits on gzip while gzip drains each
	 * one, and gzip then waits for the next: gzip has work to spare
	 */
	const struct pipegraph_time bursts[] = { { 0.01, 0, 0.54 },
	    { 0.67, 0.31, 0 }, { 0.01, 0.95, 0 } };
	/* every stage starved: the least waiting still */
	const struct pipegraph_time all[] = { { 0.1, 0.5, 0 },
	    { 0.1, 0.3, 0.1 } };
	/* a tie on waits: the one working most */
	const struct pipegraph_time tie[] = { { 0.2, 0, 0 }, { 1.9, 0, 0 } };

	(void)state;
	assert_int_equal(pipegraph_bottleneck(xz, 3), 1);
	assert_int_equal(pipegraph_bottleneck(slow, 3), 0);
	assert_int_equal(pipegraph_bottleneck(bursts, 3), 0);
	assert_int_equal(pipegraph_bottleneck(all, 2), 1);
	assert_int_equal(pipegraph_bottleneck(tie, 2), 1);
	assert_int_equal(pipegraph_bottleneck(xz, 1), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(order_chain),
		cmocka_unit_test(order_branches),
		cmocka_unit_test(bottleneck),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
