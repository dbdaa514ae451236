/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Untrusted text for the terminal, for messages and for JSON.
 */
#include <langinfo.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tach/text.h"

size_t
text_utf8(const unsigned char *s, size_t n, wchar_t *cp)
{
	size_t len;
	unsigned long c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	} else if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = (wchar_t)c;
	return len;
}

bool
text_unsafe(wchar_t cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	    cp == 0x2028 || cp == 0x2029;
}

/* A control (C0, DEL, C1) or a character that is not safe to show. */
static bool
hidden(wchar_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || text_unsafe(cp);
}

/*
 * The piece that stands for the character at s (n bytes left) on the
 * screen: itself, or \xHH for its first byte.  Sets *len to the bytes of
 * s it stands for and *w to its columns.
 */
static void
piece_of(const unsigned char *s, size_t n, bool utf8, char piece[8],
    size_t *len, int *w)
{
	wchar_t cp;

	*len = utf8 ? text_utf8(s, n, &cp) : 1;
	if (!utf8)
		cp = s[0];
	*w = 1;
	if (*len == 0 || hidden(cp) || (cp >= 0x80 && (!utf8 ||
	    (*w = wcwidth(cp)) < 0))) {
		snprintf(piece, 8, "\\x%02x", s[0]);
		*len = 1;
		*w = 4;
	} else {
		if (cp < 0x80)
			*w = 1;
		memcpy(piece, s, *len);
		piece[*len] = '\0';
	}
}

int
text_escape(const char *text, bool utf8, int maxcols, char *buf,
    size_t buflen, size_t *used)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text), len, at = 0, plen;
	char piece[8];
	int cols = 0, w;

	while (n > 0) {
		piece_of(s, n, utf8, piece, &len, &w);
		plen = strlen(piece);
		if (cols + w > maxcols || at + plen >= buflen)
			break;
		memcpy(buf + at, piece, plen);
		at += plen;
		cols += w;
		s += len;
		n -= len;
	}
	buf[at] = '\0';
	*used = at;
	return cols;
}

int
text_escape_tail(const char *text, bool utf8, int maxcols, char *buf,
    size_t buflen, size_t *used)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text), len, bytes = 0;
	char piece[8];
	int cols = 0, w;

	/* the whole, measured; then what does not fit is passed over */
	for (const unsigned char *p = s; p < s + n; p += len) {
		piece_of(p, (size_t)(s + n - p), utf8, piece, &len, &w);
		cols += w;
		bytes += strlen(piece);
	}
	while (n > 0 && (cols > maxcols || bytes >= buflen)) {
		piece_of(s, n, utf8, piece, &len, &w);
		cols -= w;
		bytes -= strlen(piece);
		s += len;
		n -= len;
	}
	return text_escape((const char *)s, utf8, maxcols, buf, buflen,
	    used);
}

const char *
text_safe(const char *text)
{
	/* PATH_MAX bytes, each of which may become \xHH */
	static char ring[4][4 * PATH_MAX + 1];
	static unsigned next;
	char *buf = ring[next++ % 4];
	size_t used;

	(void)text_escape(text, strcmp(nl_langinfo(CODESET), "UTF-8") == 0,
	    INT_MAX, buf, sizeof(ring[0]), &used);
	return buf;
}

void
text_json(FILE *out, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text), len;
	wchar_t cp;

	putc('"', out);
	for (; n > 0; s += len, n -= len) {
		if ((len = text_utf8(s, n, &cp)) == 0) {
			fputs("\\ufffd", out);	/* not UTF-8: replaced */
			len = 1;
		} else if (cp == '"' || cp == '\\')
			fprintf(out, "\\%c", (char)cp);
		else if (hidden(cp))
			fprintf(out, "\\u%04x", (unsigned)cp);
		else
			fwrite(s, 1, len, out);
	}
	putc('"', out);
}
