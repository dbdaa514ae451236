/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * /proc's stat and fdinfo text, as -d reads them on Linux.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tach/procparse.h"

static void
stat_line(void **state)
{
	uint64_t started = 0;

	(void)state;
	assert_int_equal(procparse_stat("1234 (sleep) S 1 1234 1234 34816 "
	    "1234 4194304 90 0 0 0 0 0 0 0 20 0 1 0 8812345 8601600 200\n",
	    &started), 0);
	assert_int_equal(started, 8812345);
	/* a command name with ") " and spaces: the last ')' counts */
	assert_int_equal(procparse_stat("7 (a) S b) R 1 7 7 0 -1 0 0 0 0 0 "
	    "0 0 0 0 20 0 1 0 42 0 0\n", &started), 0);
	assert_int_equal(started, 42);
	/* a zombie or a dead process has closed its files */
	assert_int_equal(procparse_stat("7 (z) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 "
	    "0 20 0 1 0 42 0 0\n", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (x) X", NULL), ESRCH);
	assert_int_equal(procparse_stat("7 (r) R", NULL), 0);
	/* one in exit(2) (PF_EXITING) closes its files at any moment */
	assert_int_equal(procparse_stat("7 (e) R 1 7 7 0 -1 4194308 0 0 0 "
	    "0 0 0 0 0 20 0 1 0 42 0 0\n", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (e) D 1 7 7 0 -1 4", NULL), ESRCH);
}

static void
stat_refused(void **state)
{
	uint64_t started = 99;

	(void)state;
	assert_int_equal(procparse_stat("", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (no paren", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (r)", &started), ESRCH);
	/* too few fields, a sign, a number too large */
	assert_int_equal(procparse_stat("7 (r) R 1 2 3", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (r) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 "
	    "0 20 0 1 0 -42 0 0", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (r) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 "
	    "0 20 0 1 0 99999999999999999999 0", &started), ESRCH);
	assert_int_equal(started, 99);
}

static void
fdinfo(void **state)
{
	uint64_t pos = 0;
	int flags = 0;

	(void)state;
	assert_true(procparse_fdinfo("pos:\t1048576\nflags:\t0100002\n"
	    "mnt_id:\t29\n", &pos, &flags));
	assert_int_equal(pos, 1048576);
	assert_int_equal(flags, 0100002);
	/* flags missing: 0; the order does not matter */
	assert_true(procparse_fdinfo("mnt_id: 1\npos: 5\n", &pos, &flags));
	assert_int_equal(pos, 5);
	assert_int_equal(flags, 0);
	/* "pos:" only at a line's start, and a number */
	assert_false(procparse_fdinfo("xpos: 5\n", &pos, &flags));
	assert_false(procparse_fdinfo("pos: x\n", &pos, &flags));
	assert_false(procparse_fdinfo("", &pos, &flags));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stat_line),
		cmocka_unit_test(stat_refused),
		cmocka_unit_test(fdinfo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
