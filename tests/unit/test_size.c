/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The size parser: every suffix, products, overflow, junk, boundaries.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <limits.h>
#include <cmocka.h>

#include "tach/size.h"

static long long
ok(const char *text)
{
	long long v = -1;

	assert_int_equal(size_parse(text, false, LLONG_MIN, LLONG_MAX, &v),
	    SIZE_OK);
	return v;
}

static enum size_error
fails(const char *text)
{
	long long v;

	return size_parse(text, false, 0, LLONG_MAX, &v);
}

static void
plain_numbers(void **state)
{
	(void)state;
	assert_int_equal(ok("0"), 0);
	assert_int_equal(ok("1"), 1);
	assert_int_equal(ok("4097"), 4097);
	assert_int_equal(ok(" 12"), 12);	/* strtoll skips blanks */
	assert_int_equal(ok("+7"), 7);
	assert_int_equal(ok("010"), 10);	/* base 10, not octal */
	assert_int_equal(ok("-5"), -5);
}

static void
progress_suffixes(void **state)
{
	(void)state;
	assert_int_equal(ok("1b"), 512);
	assert_int_equal(ok("3b"), 1536);
	assert_int_equal(ok("1k"), 1024);
	assert_int_equal(ok("1m"), 1048576);
	assert_int_equal(ok("1g"), 1073741824LL);
	assert_int_equal(ok("1t"), 1099511627776LL);
	assert_int_equal(ok("2w"), 2 * (long long)sizeof(int));
	assert_int_equal(ok("120g"), 120LL << 30);
}

static void
extended_suffixes(void **state)
{
	(void)state;
	assert_int_equal(ok("1K"), 1024);
	assert_int_equal(ok("1M"), 1 << 20);
	assert_int_equal(ok("1G"), 1 << 30);
	assert_int_equal(ok("1T"), 1LL << 40);
	assert_int_equal(ok("4KiB"), 4096);
	assert_int_equal(ok("4kiB"), 4096);
	assert_int_equal(ok("4KB"), 4096);
	assert_int_equal(ok("2MiB"), 2 << 20);
	assert_int_equal(ok("100B"), 100);
}

static void
products(void **state)
{
	(void)state;
	assert_int_equal(ok("2x64k"), 131072);
	assert_int_equal(ok("2*64k"), 131072);
	assert_int_equal(ok("2x3x4"), 24);
	assert_int_equal(ok("1kx1k"), 1 << 20);
	assert_int_equal(ok("0x10"), 0);	/* 0 times 10, as strsuftoll */
	/* sixteen factors are allowed, a seventeenth is not */
	assert_int_equal(ok("1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2"), 2);
	assert_int_equal(fails("1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2"),
	    SIZE_ILLEGAL);
}

static void
junk(void **state)
{
	(void)state;
	assert_int_equal(fails(""), SIZE_ILLEGAL);
	assert_int_equal(fails("abc"), SIZE_ILLEGAL);
	assert_int_equal(fails("1x"), SIZE_ILLEGAL);
	assert_int_equal(fails("x1"), SIZE_ILLEGAL);
	assert_int_equal(fails("1kk"), SIZE_ILLEGAL);
	assert_int_equal(fails("1q"), SIZE_ILLEGAL);
	assert_int_equal(fails("1 "), SIZE_ILLEGAL);
	assert_int_equal(fails("1.5k"), SIZE_ILLEGAL);
	assert_int_equal(fails("1Ki"), SIZE_ILLEGAL);
	assert_int_equal(fails("1bB"), SIZE_ILLEGAL);
	assert_int_equal(fails("-"), SIZE_ILLEGAL);
	assert_int_equal(fails("k"), SIZE_ILLEGAL);
}

static void
overflow(void **state)
{
	(void)state;
	assert_int_equal(ok("9223372036854775807"), LLONG_MAX);
	assert_int_equal(fails("9223372036854775808"), SIZE_OVERFLOW);
	assert_int_equal(fails("99999999999999999999"), SIZE_OVERFLOW);
	assert_int_equal(fails("8388608t"), SIZE_OVERFLOW);	/* 2^63 */
	assert_int_equal(ok("8388607t"), 8388607LL << 40);
	assert_int_equal(fails("4gx4gx4g"), SIZE_OVERFLOW);
	assert_int_equal(fails("3037000500x3037000500"), SIZE_OVERFLOW);
	assert_int_equal(ok("3037000499x3037000499"),
	    3037000499LL * 3037000499LL);
}

/* -k: k, M, G, T and their B forms in powers of 1000; KiB never. */
static void
si_suffixes(void **state)
{
	static const struct { const char *text; long long si, binary; } n[] = {
		{ "5", 5, 5 }, { "2k", 2000, 2048 }, { "3KB", 3000, 3072 },
		{ "1M", 1000000, 1048576 }, { "1g", 1000000000, 1073741824 },
		{ "2TB", 2000000000000LL, 2199023255552LL },
		{ "1KiB", 1024, 1024 }, { "1GiB", 1073741824, 1073741824 },
		{ "2b", 1024, 1024 }, { "3x1k", 3000, 3072 },
	};
	long long v;

	(void)state;
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		assert_int_equal(size_parse(n[i].text, true, 0, LLONG_MAX, &v),
		    SIZE_OK);
		assert_int_equal(v, n[i].si);
		assert_int_equal(size_parse(n[i].text, false, 0, LLONG_MAX,
		    &v), SIZE_OK);
		assert_int_equal(v, n[i].binary);
	}
}

static void
boundaries(void **state)
{
	long long v = 0;

	(void)state;
	assert_int_equal(size_parse("0", false, 1, 100, &v), SIZE_TOO_SMALL);
	assert_int_equal(v, 0);
	assert_int_equal(size_parse("-5", false, 1, 100, &v), SIZE_TOO_SMALL);
	assert_int_equal(v, -5);
	assert_int_equal(size_parse("1", false, 1, 100, &v), SIZE_OK);
	assert_int_equal(size_parse("100", false, 1, 100, &v), SIZE_OK);
	assert_int_equal(size_parse("101", false, 1, 100, &v), SIZE_TOO_LARGE);
	assert_int_equal(v, 101);
	assert_int_equal(size_parse("1k", false, 1, 1023, &v), SIZE_TOO_LARGE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_numbers),
		cmocka_unit_test(progress_suffixes),
		cmocka_unit_test(extended_suffixes),
		cmocka_unit_test(products),
		cmocka_unit_test(junk),
		cmocka_unit_test(overflow),
		cmocka_unit_test(si_suffixes),
		cmocka_unit_test(boundaries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
