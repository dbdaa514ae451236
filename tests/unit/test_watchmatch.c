/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Watch mode's matching of a sample's files with those seen before.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tach/watchmatch.h"

static void
continues_joins_closes(void **state)
{
	const struct watchmatch_key old[] = { { 3, 1, 10 }, { 4, 1, 11 },
	    { 5, 1, 12 } };
	/* 3 goes on; 4 now holds another file; 5 closed; 6 is new */
	const struct watchmatch_key now[] = { { 6, 1, 13 }, { 4, 1, 99 },
	    { 3, 1, 10 } };
	long which[3];
	bool kept[3];

	(void)state;
	assert_true(watchmatch(old, 3, now, 3, which, kept));
	assert_int_equal(which[0], -1);
	assert_int_equal(which[1], -1);
	assert_int_equal(which[2], 0);
	assert_true(kept[0]);
	assert_false(kept[1]);
	assert_false(kept[2]);
}

static void
same_file_other_device(void **state)
{
	const struct watchmatch_key old[] = { { 3, 1, 10 } };
	const struct watchmatch_key now[] = { { 3, 2, 10 }, { 3, 1, 10 } };
	long which[2];
	bool kept[1];

	(void)state;
	assert_true(watchmatch(old, 1, now, 2, which, kept));
	assert_int_equal(which[0], -1);
	assert_int_equal(which[1], 0);
	assert_true(kept[0]);
	/* nothing before: all new; nothing now: all closed */
	assert_true(watchmatch(old, 0, now, 2, which, kept));
	assert_int_equal(which[0], -1);
	assert_int_equal(which[1], -1);
	assert_true(watchmatch(old, 1, now, 0, which, kept));
	assert_false(kept[0]);
}

/* In fd order, as listings come: matched in one pass, the same rules. */
static void
in_order(void **state)
{
	const struct watchmatch_key old[] = { { 3, 1, 10 }, { 4, 1, 11 },
	    { 5, 1, 12 } };
	/* 3 goes on; 4 holds its inode on another device; 5 closed; 6 new */
	const struct watchmatch_key now[] = { { 3, 1, 10 }, { 4, 2, 11 },
	    { 6, 1, 13 } };
	long which[3];
	bool kept[3];

	(void)state;
	assert_true(watchmatch(old, 3, now, 3, which, kept));
	assert_int_equal(which[0], 0);
	assert_int_equal(which[1], -1);
	assert_int_equal(which[2], -1);
	assert_true(kept[0]);
	assert_false(kept[1]);
	assert_false(kept[2]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(continues_joins_closes),
		cmocka_unit_test(same_file_other_device),
		cmocka_unit_test(in_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
