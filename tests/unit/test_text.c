/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The one escaper: untrusted text for the terminal, messages and JSON.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tach/text.h"

/* text_json's output for text, in a buffer of the test's own. */
static char *
json_of(const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	text_json(f, text);
	fclose(f);
	return buf;
}

static void
json_plain_and_quoted(void **state)
{
	char *s;

	(void)state;
	s = json_of("a \"b\" \\ c/d é");
	assert_string_equal(s, "\"a \\\"b\\\" \\\\ c/d é\"");
	free(s);
}

static void
json_controls_and_bidi(void **state)
{
	char *s;

	(void)state;
	/* ESC, a newline, BEL, DEL, a C1 control, RLO, LRI, U+2028 */
	s = json_of("\033]0;x\a\n\x7f\xc2\x85\xe2\x80\xae\xe2\x81\xa6\xe2\x80\xa8");
	assert_string_equal(s, "\"\\u001b]0;x\\u0007\\u000a\\u007f\\u0085"
	    "\\u202e\\u2066\\u2028\"");
	free(s);
}

static void
json_invalid_utf8_replaced(void **state)
{
	char *s;

	(void)state;
	/* a lone byte, a truncated sequence, an overlong one, a surrogate */
	s = json_of("a\xff" "b\xe2\x82" "c\xc0\xaf" "d\xed\xa0\x80");
	assert_string_equal(s, "\"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffdd"
	    "\\ufffd\\ufffd\\ufffd\"");
	free(s);
}

static void
escape_for_the_terminal(void **state)
{
	char buf[128];
	size_t used;
	int cols;

	(void)state;
	cols = text_escape("a\033[2Jb\nc\xe2\x80\xae", true, 100, buf,
	    sizeof(buf), &used);
	assert_string_equal(buf, "a\\x1b[2Jb\\x0ac\\xe2\\x80\\xae");
	assert_int_equal(used, strlen(buf));
	assert_int_equal(cols, (int)strlen(buf));
	/* cut to the columns, never in the middle of an escape */
	cols = text_escape("ab\033cd", true, 5, buf, sizeof(buf), &used);
	assert_string_equal(buf, "ab");
	assert_int_equal(cols, 2);
	/* wide characters count two columns; without UTF-8 they are bytes */
	cols = text_escape("\xe6\x97\xa5", true, 10, buf, sizeof(buf), &used);
	assert_int_equal(cols, 2);
	cols = text_escape("\xe6\x97\xa5", false, 20, buf, sizeof(buf), &used);
	assert_string_equal(buf, "\\xe6\\x97\\xa5");
}

static void
safe_for_messages(void **state)
{
	const char *a, *b;

	(void)state;
	a = text_safe("one\033]0;t\a");
	b = text_safe("two\n");
	assert_string_equal(a, "one\\x1b]0;t\\x07");
	assert_string_equal(b, "two\\x0a");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_plain_and_quoted),
		cmocka_unit_test(json_controls_and_bidi),
		cmocka_unit_test(json_invalid_utf8_replaced),
		cmocka_unit_test(escape_for_the_terminal),
		cmocka_unit_test(safe_for_messages),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
