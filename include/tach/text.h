/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Untrusted text (file names, watched paths, -p, -N, a decompressor's
 * name) made safe for where it goes: the terminal, a message on stderr,
 * a JSON string.  No byte of such text ever reaches those raw.
 */
#ifndef TACH_TEXT_H
#define TACH_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <wchar.h>

/* The length of a valid UTF-8 sequence at s (at most n bytes), or 0. */
size_t	text_utf8(const unsigned char *s, size_t n, wchar_t *cp);
/*
 * Characters a terminal draws in no column that still do harm as text:
 * bidirectional overrides and isolates, line and paragraph separators.
 */
bool	text_unsafe(wchar_t cp);
/*
 * Printable characters as they are, with their real widths, everything
 * else (controls, escapes, invalid UTF-8, text_unsafe; every byte above
 * 0x7f unless utf8) as \xHH, cut to at most maxcols columns and to what
 * fits buf.  Returns the columns used; *used is the length written.
 */
int	text_escape(const char *text, bool utf8, int maxcols, char *buf,
	    size_t buflen, size_t *used);
/* text_escape, but what is cut is the start: the end is kept. */
int	text_escape_tail(const char *text, bool utf8, int maxcols, char *buf,
	    size_t buflen, size_t *used);
/*
 * text_escape for a message on stderr, whole, in the locale's encoding.
 * The result lives until the fourth call after this one.
 */
const char *text_safe(const char *text);
/*
 * A JSON string, quotes included: always valid UTF-8, with invalid bytes
 * as \ufffd and controls and text_unsafe characters as \u escapes.
 */
void	text_json(FILE *out, const char *text);

#endif
