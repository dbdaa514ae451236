/* The cursor position report parser: good replies, and hostile ones. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "tach/dsr.h"

static bool
parse(const char *reply, int *row, int *col)
{
	*row = *col = -7;
	return dsr_parse(reply, strlen(reply), row, col);
}

static void
good_replies(void **state)
{
	int row, col;

	(void)state;
	assert_true(parse("\033[1;1R", &row, &col));
	assert_int_equal(row, 1);
	assert_int_equal(col, 1);
	assert_true(parse("\033[24;80R", &row, &col));
	assert_int_equal(row, 24);
	assert_int_equal(col, 80);
	assert_true(parse("\033[65535;65535R", &row, &col));
	assert_int_equal(row, 65535);
	assert_true(parse("\033[007;3R", &row, &col));
	assert_int_equal(row, 7);
}

static void
hostile_replies(void **state)
{
	static const char *bad[] = {
		"\033[-2147483648;1R", "\033[2147483648;1R",
		"\033[99999999999999999999;1R", "\033[65536;1R",
		"\033[1;65536R", "\033[0;1R", "\033[1;0R", "\033[-1;5R",
		"\033[+1;5R", "\033[ 1;5R", "\033[1 ;5R", "\033[;5R",
		"\033[5;R", "\033[5R", "\033[5;6", "\033[5;6RR", "x\033[5;6R",
		"\033]5;6R", "[5;6R", "\033[5;6;7R", "\033[5:6R", "", "\033",
		"\033[", "\033[1;1r",
	};
	int row, col;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_false(parse(bad[i], &row, &col));
		assert_int_equal(row, -7);	/* untouched */
		assert_int_equal(col, -7);
	}
}

static void
length_is_respected(void **state)
{
	int row, col;

	(void)state;
	/* the bytes after len are not part of the reply */
	assert_false(dsr_parse("\033[12;3R", 5, &row, &col));
	assert_true(dsr_parse("\033[12;3Rjunk", 7, &row, &col));
	assert_int_equal(row, 12);
	assert_int_equal(col, 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_replies),
		cmocka_unit_test(hostile_replies),
		cmocka_unit_test(length_is_respected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
