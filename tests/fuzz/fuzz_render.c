/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * libFuzzer harness for the renderer: random state, width and prefix.  The
 * line must stay inside its buffer, be exactly width - 1 columns wide and,
 * in a UTF-8 locale, be valid UTF-8 with no raw control characters; -n's
 * numeric line of a format too, but for the width.
 */
#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tach/render.h"
#include "tach/text.h"
#include "utf8.h"

static uint64_t
take(const uint8_t **p, size_t *n, size_t len)
{
	uint64_t v = 0;

	for (size_t i = 0; i < len && *n > 0; i++, (*p)++, (*n)--)
		v = v << 8 | **p;
	return v;
}

static double
take_double(const uint8_t **p, size_t *n)
{
	uint64_t bits = take(p, n, 8);
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

/* Columns as a terminal counts them, skipping the colour sequences. */
static int
columns(const char *s, const char *on, const char *off)
{
	mbstate_t mb;
	wchar_t wc;
	size_t len;
	int cols = 0, w;

	while (*s != '\0') {
		if (strncmp(s, on, strlen(on)) == 0 && *on != '\0') {
			s += strlen(on);
			continue;
		}
		if (strncmp(s, off, strlen(off)) == 0 && *off != '\0') {
			s += strlen(off);
			continue;
		}
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			abort();	/* a raw control character */
		memset(&mb, 0, sizeof(mb));
		len = mbrtowc(&wc, s, strlen(s), &mb);
		if (len == (size_t)-1 || len == (size_t)-2 || len == 0)
			abort();
		w = (unsigned char)*s < 0x80 ? 1 : wcwidth(wc);
		if (w < 0 || text_unsafe(wc))
			abort();	/* unprintable: should have been escaped */
		cols += w;
		s += len;
	}
	return cols;
}

/*
 * An amount never prints as 1000 or more of a unit it could go up from
 * (1024 KiB is 1.00 MiB), nor under 1 of a unit above the first.
 */
static void
amounts(double value, enum render_unit kind)
{
	static const char *const tops[] = { "EiB", "E lines", "Eb", "EB" };
	static const char *const firsts[] = { "B", "lines", "b", "B" };
	char buf[512], *unit;	/* DBL_MAX's 309 digits fit */
	double shown;
	bool top, first;

	render_amount(value, kind, buf, sizeof(buf));
	/* strtod, not scanf: "1.00E lines" is a number and a unit */
	shown = strtod(buf, &unit);
	unit += strspn(unit, " ");
	if (unit == buf || shown < 0)
		abort();
	top = strcmp(unit, tops[kind]) == 0;
	first = strcmp(unit, firsts[kind]) == 0;
	if ((!top && shown >= (kind == RENDER_BYTES ? 1024 : 1000)) ||
	    (!first && shown < 1))
		abort();
}

/* -n -F: inside its buffer, valid UTF-8, no raw control character. */
static void
numeric(const struct render_state *s, bool size_known, const char *format,
    bool utf8)
{
	static char buf[RENDER_BUFSIZE(1000) + 1];
	size_t len;

	buf[sizeof(buf) - 1] = 'X';
	len = render_numeric(s, size_known, format, utf8, buf,
	    sizeof(buf) - 1);
	if (buf[sizeof(buf) - 1] != 'X' || len != strlen(buf))
		abort();
	for (const char *p = buf; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			abort();
	if (!valid_utf8(buf))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char line[RENDER_BUFSIZE(1000) + 1];
	static bool ready;
	struct render_caps caps = { false, "\033[32m", "\033(B\033[m" };
	struct render_state s;
	char prefix[512], msg[600];
	int width;
	unsigned flags;
	size_t len;

	if (!ready) {
		setlocale(LC_CTYPE, "C.UTF-8");
		ready = true;
	}
	memset(&s, 0, sizeof(s));
	width = (int)(take(&data, &size, 2) % 1000) + 1;
	flags = (unsigned)take(&data, &size, 1);
	caps.utf8 = flags & 1;
	if (flags & 2)
		caps.colour_on = caps.colour_off = "";
	s.final = flags & 4;
	s.stalled = flags & 8;
	s.count = take(&data, &size, 8);
	s.done = take(&data, &size, 8);
	s.size = take(&data, &size, 8);
	s.rate = take_double(&data, &size);
	s.average = take_double(&data, &size);
	s.elapsed = take_double(&data, &size);
	s.eta = take_double(&data, &size);
	s.phase = (unsigned)take(&data, &size, 4);
	s.unit = (enum render_unit)(take(&data, &size, 1) % 4);
	s.rate_max = take_double(&data, &size);
	s.gauge = s.rate_max != 0;
	caps.style = (enum render_style)(take(&data, &size, 1) % 3);
	s.time_cols = render_time_cols(&s, (int)(take(&data, &size, 1) % 16));
	len = size < sizeof(prefix) - 1 ? size : sizeof(prefix) - 1;
	memcpy(prefix, data, len);
	prefix[len] = '\0';
	s.prefix = (flags & 16) ? NULL : prefix;
	s.name = prefix;
	s.waiting = (int)(flags >> 5) - 1;

	line[sizeof(line) - 1] = 'X';
	/* with flag 32 the rest is a -F format, when it is a valid one */
	if ((flags & 32) && render_format_check(prefix, msg, sizeof(msg))) {
		len = render_format(&s, prefix, width, &caps, line,
		    sizeof(line) - 1);
		numeric(&s, flags & 64, prefix, caps.utf8);
	} else
		len = render_line(&s, width, &caps, line, sizeof(line) - 1);
	if (line[sizeof(line) - 1] != 'X' || len != strlen(line))
		abort();
	if (columns(line, caps.colour_on, caps.colour_off) != width - 1)
		abort();
	if (caps.utf8 && !valid_utf8(line))
		abort();
	amounts(s.rate, s.unit);
	return 0;
}
