/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -c's layout: rows kept at the bottom, one row each, in rank order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tach/pinrows.h"

static void
bottom_rows(void **state)
{
	(void)state;
	/* two lines on 14 rows: rows 13 and 14, the region 1 to 12 */
	assert_int_equal(pinrows_kept(14, 2), 2);
	assert_int_equal(pinrows_row(14, 2, 0), 13);
	assert_int_equal(pinrows_row(14, 2, 1), 14);
	assert_int_equal(pinrows_row(14, 1, 0), 14);
	/* a third line pushes the first two up */
	assert_int_equal(pinrows_row(14, 3, 0), 12);
	assert_int_equal(pinrows_row(14, 3, 2), 14);
}

static void
one_row_for_the_rest(void **state)
{
	(void)state;
	/*
	 * two rows always stay for other output (a one-row scrolling region
	 * is refused by terminals): the rest are not drawn
	 */
	assert_int_equal(pinrows_kept(4, 5), 2);
	assert_int_equal(pinrows_row(4, 5, 0), 3);
	assert_int_equal(pinrows_row(4, 5, 1), 4);
	assert_int_equal(pinrows_row(4, 5, 2), 0);
	assert_int_equal(pinrows_kept(3, 3), 1);
	assert_int_equal(pinrows_row(3, 3, 0), 3);
	/* a window of two rows or fewer, or none known, keeps nothing */
	assert_int_equal(pinrows_kept(2, 1), 0);
	assert_int_equal(pinrows_row(2, 1, 0), 0);
	assert_int_equal(pinrows_kept(1, 1), 0);
	assert_int_equal(pinrows_kept(0, 1), 0);
	assert_int_equal(pinrows_row(0, 1, 0), 0);
	assert_int_equal(pinrows_kept(14, 0), 0);
	assert_int_equal(pinrows_row(14, 2, -1), 0);
}

static void
every_layout(void **state)
{
	(void)state;
	for (int height = 0; height <= 70; height++)
		for (int live = 0; live <= 70; live++) {
			int kept = pinrows_kept(height, live), last = 0;

			assert_true(kept >= 0 && kept <= live);
			assert_true(kept == 0 || kept <= height - 2);
			for (int rank = 0; rank < live; rank++) {
				int row = pinrows_row(height, live, rank);

				if (rank >= kept) {
					assert_int_equal(row, 0);
					continue;
				}
				/* below the region, one after another */
				assert_int_equal(row, last == 0 ?
				    height - kept + 1 : last + 1);
				assert_true(row > 2 && row <= height);
				last = row;
			}
			assert_true(kept == 0 || last == height);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bottom_rows),
		cmocka_unit_test(one_row_for_the_rest),
		cmocka_unit_test(every_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
