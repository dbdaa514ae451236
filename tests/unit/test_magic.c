/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Format detection for -z: every magic, short input, near misses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tach/magic.h"

#define TOOL(bytes) magic_tool((const unsigned char *)(bytes), sizeof(bytes) - 1)

static void
each_format(void **state)
{
	(void)state;
	assert_string_equal(TOOL("\x1f\x8b\x08\x00\x00\x00"), "gzip");
	assert_string_equal(TOOL("BZh91A"), "bzip2");
	assert_string_equal(TOOL("\xfd" "7zXZ\x00"), "xz");
	assert_string_equal(TOOL("\x28\xb5\x2f\xfd\x00\x00"), "zstd");
	assert_string_equal(TOOL("\x04\x22\x4d\x18\x64\x40"), "lz4");
}

static void
short_and_unknown(void **state)
{
	(void)state;
	/* too short for the magic: gzip gets it and says what is wrong */
	assert_string_equal(TOOL("\xfd" "7zX"), "gzip");
	assert_string_equal(TOOL("BZ"), "gzip");
	assert_string_equal(TOOL(""), "gzip");
	assert_string_equal(magic_tool(NULL, 0), "gzip");
	/* one byte off */
	assert_string_equal(TOOL("\xfd" "7zXZ\x01"), "gzip");
	assert_string_equal(TOOL("\x28\xb5\x2f\xfe"), "gzip");
	assert_string_equal(TOOL("plain text"), "gzip");
	/* the magic is only at the start */
	assert_string_equal(TOOL("xBZh"), "gzip");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_format),
		cmocka_unit_test(short_and_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
