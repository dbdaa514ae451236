/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * libFuzzer harness for the escaper: any bytes, as a JSON string and for
 * the terminal.  The JSON must be valid UTF-8, quoted, with no raw control
 * and no bidi or separator character; the terminal text must have no raw
 * control, be valid UTF-8 when asked, and stay within its columns.
 */
#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tach/text.h"
#include "utf8.h"

/* No raw control, and (in UTF-8) no character text_unsafe names. */
static void
clean(const char *s, bool utf8)
{
	size_t n = strlen(s), len;
	wchar_t cp;

	for (const unsigned char *p = (const unsigned char *)s; n > 0;
	    p += len, n -= len) {
		if (*p < 0x20 || *p == 0x7f)
			abort();
		len = utf8 ? text_utf8(p, n, &cp) : 1;
		if (len == 0 || (utf8 && (text_unsafe(cp) ||
		    (cp >= 0x80 && cp < 0xa0))))
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	char text[512], out[2048], *json = NULL;
	size_t len, jsonlen = 0, used;
	FILE *f;
	int cols, maxcols;

	if (!ready) {
		setlocale(LC_CTYPE, "C.UTF-8");
		ready = true;
	}
	if (size < 1)
		return 0;
	maxcols = data[0];
	len = size - 1 < sizeof(text) - 1 ? size - 1 : sizeof(text) - 1;
	memcpy(text, data + 1, len);
	text[len] = '\0';

	if ((f = open_memstream(&json, &jsonlen)) == NULL)
		abort();
	text_json(f, text);
	fclose(f);
	if (jsonlen < 2 || json[0] != '"' || json[jsonlen - 1] != '"' ||
	    !valid_utf8(json))
		abort();
	clean(json, true);
	free(json);

	for (int utf8 = 0; utf8 < 2; utf8++) {
		cols = text_escape(text, utf8, maxcols, out, sizeof(out), &used);
		if (cols > maxcols || used != strlen(out) ||
		    (utf8 && !valid_utf8(out)))
			abort();
		clean(out, utf8);
	}
	return 0;
}
