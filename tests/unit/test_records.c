/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * --line-mode's counter: every separator in every position of a word,
 * bytes next to the separator's value, the stop at the most'th record.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "tach/records.h"

static uint64_t
all(const char *s, size_t len, unsigned char sep)
{
	size_t used;
	uint64_t n = records_count(s, len, sep, UINT64_MAX, &used);

	assert_int_equal(used, len);
	return n;
}

static void
counts_lines(void **state)
{
	(void)state;
	assert_int_equal(all("", 0, '\n'), 0);
	assert_int_equal(all("abc", 3, '\n'), 0);
	assert_int_equal(all("\n", 1, '\n'), 1);
	assert_int_equal(all("a\nb\nc", 5, '\n'), 2);	/* as wc -l */
	assert_int_equal(all("\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n", 17, '\n'),
	    17);
	assert_int_equal(all("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", 21, '\n'), 10);
}

static void
counts_nul_records(void **state)
{
	(void)state;
	assert_int_equal(all("a\0b\0c\0", 6, '\0'), 3);
	assert_int_equal(all("a\nb\n", 4, '\0'), 0);
	assert_int_equal(all("\0\0\0\0\0\0\0\0\0", 9, '\0'), 9);
}

/* A separator alone at each offset, among neighbours that differ by a bit. */
static void
every_position(void **state)
{
	const unsigned char near[] = { 0x0b, 0x08, 0x8a, 0x09, 0x00, 0xff,
	    0x1a, 0x4a };
	unsigned char buf[40];

	(void)state;
	for (size_t k = 0; k < sizeof(near); k++)
		for (size_t at = 0; at < sizeof(buf); at++) {
			memset(buf, near[k], sizeof(buf));
			buf[at] = '\n';
			assert_int_equal(all((char *)buf, sizeof(buf), '\n'), 1);
			memset(buf, near[k], sizeof(buf));
			assert_int_equal(all((char *)buf, sizeof(buf), '\n'), 0);
		}
	/* 0x80 next to a match: no borrow may spill into a neighbour */
	memset(buf, 0x80, sizeof(buf));
	buf[3] = buf[4] = '\0';
	assert_int_equal(all((char *)buf, sizeof(buf), '\0'), 2);
}

static void
stops_at_most(void **state)
{
	const char *s = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n";
	size_t used;

	(void)state;
	assert_int_equal(records_count(s, strlen(s), '\n', 3, &used), 3);
	assert_int_equal(used, 6);		/* "1\n2\n3\n" */
	assert_int_equal(records_count(s, strlen(s), '\n', 10, &used), 10);
	assert_int_equal(used, 21);		/* past a full word */
	assert_int_equal(records_count(s, strlen(s), '\n', 11, &used), 11);
	assert_int_equal(used, strlen(s));
	assert_int_equal(records_count(s, strlen(s), '\n', 50, &used), 11);
	assert_int_equal(used, strlen(s));	/* fewer: all may move */
	assert_int_equal(records_count(s, strlen(s), '\n', 0, &used), 0);
	assert_int_equal(used, 0);
	assert_int_equal(records_count("abc", 3, '\n', 1, &used), 0);
	assert_int_equal(used, 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_lines),
		cmocka_unit_test(counts_nul_records),
		cmocka_unit_test(every_position),
		cmocka_unit_test(stops_at_most),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
