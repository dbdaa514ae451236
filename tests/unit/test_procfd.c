/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * procfd_match, the one rule every system's procfd_find applies: a
 * process counts when its command name, as the system cut it, is one of
 * the names asked for.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tach/procfd.h"

static const char *const copy_names[] = { "cp", "dd",
    "a-name-longer-than-fifteen" };

static size_t
match(struct procfd_named **found, size_t *n, size_t *room, pid_t pid,
    const char *comm, size_t cut)
{
	assert_int_equal(procfd_match(found, n, room, pid, comm, cut,
	    copy_names, 3), 0);
	return *n;
}

static void
exact_names_only(void **state)
{
	struct procfd_named *found = NULL;
	size_t n = 0, room = 0;

	(void)state;
	assert_int_equal(match(&found, &n, &room, 100, "cp", 15), 1);
	assert_int_equal(found[0].pid, 100);
	assert_string_equal(found[0].name, "cp");
	/* neither a prefix nor a longer name */
	assert_int_equal(match(&found, &n, &room, 101, "c", 15), 1);
	assert_int_equal(match(&found, &n, &room, 102, "cpio", 15), 1);
	assert_int_equal(match(&found, &n, &room, 103, "dd", 15), 2);
	assert_int_equal(found[1].pid, 103);
	assert_string_equal(found[1].name, "dd");
	free(found);
}

static void
cut_names(void **state)
{
	struct procfd_named *found = NULL;
	size_t n = 0, room = 0;

	(void)state;
	/* Linux keeps 15 bytes, FreeBSD 19: each cut matches the long name */
	assert_int_equal(match(&found, &n, &room, 200,
	    "a-name-longer-t", 15), 1);
	assert_string_equal(found[0].name, "a-name-longer-than-fifteen");
	assert_int_equal(match(&found, &n, &room, 201,
	    "a-name-longer-than-", 19), 2);
	/* a name of the cut's length that is not cut: no match */
	assert_int_equal(match(&found, &n, &room, 202,
	    "a-name-longer-t", 19), 2);
	/* shorter than the cut: the system kept it whole */
	assert_int_equal(match(&found, &n, &room, 203, "a-name", 15), 2);
	free(found);
}

static void
not_this_process(void **state)
{
	struct procfd_named *found = NULL;
	size_t n = 0, room = 0;

	(void)state;
	assert_int_equal(match(&found, &n, &room, getpid(), "cp", 15), 0);
	assert_int_equal(match(&found, &n, &room, 0, "cp", 15), 0);
	assert_int_equal(match(&found, &n, &room, -1, "cp", 15), 0);
	free(found);
}

static void
grows(void **state)
{
	struct procfd_named *found = NULL;
	size_t n = 0, room = 0;

	(void)state;
	for (pid_t pid = 1000; pid < 1100; pid++)
		match(&found, &n, &room, pid, pid % 2 ? "cp" : "dd", 15);
	assert_int_equal(n, 100);
	assert_true(room >= n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(found[i].pid, 1000 + (pid_t)i);
		assert_string_equal(found[i].name, i % 2 ? "cp" : "dd");
	}
	free(found);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_names_only),
		cmocka_unit_test(cut_names),
		cmocka_unit_test(not_this_process),
		cmocka_unit_test(grows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
