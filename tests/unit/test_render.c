/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The renderer: golden lines, and the width rule at every width.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "tach/render.h"
#include "utf8.h"

static const struct render_caps ascii = { false, "", "" };
static const struct render_caps utf8 = { true, "", "" };
static const struct render_caps colour = { true, "\033[32m", "\033(B\033[m" };

static char line[RENDER_BUFSIZE(1000)];

/*
 * Visible columns: escape sequences take none, a character what wcwidth
 * says (a combining mark none, a wide character two).
 */
static int
columns(const char *s)
{
	mbstate_t mb;
	wchar_t wc;
	size_t len;
	int cols = 0;

	while (*s != '\0') {
		if (*s == '\033') {
			s++;
			if (*s == '(') {
				s += 2;
				continue;
			}
			while (*s != '\0' && !(*s >= '@' && *s <= '~' &&
			    *s != '['))
				s++;
			if (*s != '\0')
				s++;
			continue;
		}
		memset(&mb, 0, sizeof(mb));
		len = mbrtowc(&wc, s, strlen(s), &mb);
		assert_true(len > 0 && len <= 4);
		cols += (unsigned char)*s < 0x80 ? 1 : wcwidth(wc);
		s += len;
	}
	return cols;
}

static struct render_state
half(void)
{
	struct render_state s = { .count = 500, .done = 500, .size = 1000,
	    .rate = 100, .average = 100, .elapsed = 5, .eta = 5 };

	return s;
}

static void
golden_known_ascii(void **state)
{
	struct render_state s = half();

	(void)state;
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_string_equal(line, " 50% [========>        ]    500 B    100 B/s"
	    " avg    100 B/s 0:00:05 ETA 0:00:05");
	/* the time left is rounded up: never 0:00:00 while bytes remain */
	s.eta = 0.2;
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_non_null(strstr(line, "ETA 0:00:01"));
	s.eta = 4.01;
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_non_null(strstr(line, "ETA 0:00:05"));
}

/* Like progress(1), the percentage is cut, never rounded: 100 means all */
static void
percent_cut_not_rounded(void **state)
{
	struct render_state s = half();

	(void)state;
	s.count = s.done = 995;
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_memory_equal(line, " 99% ", 5);
	s.count = s.done = 999;
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_memory_equal(line, " 99% ", 5);
	s.count = s.done = 1000;
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_memory_equal(line, "100% ", 5);
}

static void
golden_known_utf8(void **state)
{
	struct render_state s = half();

	(void)state;
	/* 17 cells at 50%: 8 full blocks and a half block */
	render_line(&s, 80, &utf8, line, sizeof(line));
	assert_string_equal(line, " 50% [████████▌        ]    500 B    100 B/s"
	    " avg    100 B/s 0:00:05 ETA 0:00:05");
}

static void
golden_start_and_end(void **state)
{
	struct render_state s = half();

	(void)state;
	s.count = s.done = 0;
	s.rate = s.average = s.elapsed = 0;
	s.eta = -1;
	render_line(&s, 60, &ascii, line, sizeof(line));
	assert_string_equal(line,
	    "  0% [            ]      0 B      0 B/s 0:00:00 ETA -:--:--");
	s = half();
	s.count = s.done = 1000;
	s.final = true;
	/* the bar as wide as the live lines' (the first above), not wider */
	render_line(&s, 60, &ascii, line, sizeof(line));
	assert_string_equal(line,
	    "100% [============]   1000 B avg    100 B/s 0:00:05        ");
	/* an interrupted run's last line tells where it stopped */
	s.count = s.done = 250;
	render_line(&s, 60, &ascii, line, sizeof(line));
	assert_string_equal(line,
	    " 25% [===         ]    250 B avg    100 B/s 0:00:05        ");
}

static void
golden_unknown(void **state)
{
	struct render_state s = { .count = 1 << 20, .rate = 1 << 19,
	    .average = 1 << 19, .elapsed = 2, .eta = -1, .phase = 2 };

	(void)state;
	render_line(&s, 60, &ascii, line, sizeof(line));
	assert_string_equal(line, "1.00 MiB  512 KiB/s avg  512 KiB/s 0:00:02"
	    " [  <=>         ]");
	s.final = true;
	render_line(&s, 40, &ascii, line, sizeof(line));
	assert_string_equal(line, "1.00 MiB avg  512 KiB/s 0:00:02        ");
}

static void
over_one_hundred_percent(void **state)
{
	struct render_state s = half();

	(void)state;
	s.count = s.done = 1500;
	s.eta = -1;
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_non_null(strstr(line, "100% [====="));
	/* the time left is not known, but its field keeps its place */
	assert_non_null(strstr(line, " ETA -:--:--"));
	assert_null(strstr(line, "150"));
}

static void
stalled_mark(void **state)
{
	struct render_state s = half();

	(void)state;
	s.stalled = true;
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_non_null(strstr(line, "   stalled"));
}

static void
fields_drop_in_order(void **state)
{
	struct render_state s = half();

	(void)state;
	/* average, elapsed, bytes, rate, bar, time left, percentage */
	render_line(&s, 40, &ascii, line, sizeof(line));
	assert_string_equal(line, " 50% [====>    ]    100 B/s ETA 0:00:05");
	render_line(&s, 30, &ascii, line, sizeof(line));
	assert_string_equal(line, " 50% [=====     ] ETA 0:00:05");
	render_line(&s, 6, &ascii, line, sizeof(line));
	assert_string_equal(line, " 50% ");
	render_line(&s, 1, &ascii, line, sizeof(line));
	assert_string_equal(line, "");
}

static void
prefix_is_sanitized(void **state)
{
	struct render_state s = half();

	(void)state;
	s.prefix = "\033]0;owned\007x\xff";
	render_line(&s, 200, &utf8, line, sizeof(line));
	assert_null(strchr(line, '\033'));
	assert_null(strchr(line, '\007'));
	assert_memory_equal(line, "\\x1b]0;owned\\x07x\\xff  50%", 25);
	s.prefix = "caf\xc3\xa9: ";	/* its trailing space is the gap */
	render_line(&s, 120, &utf8, line, sizeof(line));
	assert_memory_equal(line, "caf\xc3\xa9:  50% [", 13);
	render_line(&s, 120, &ascii, line, sizeof(line));
	assert_memory_equal(line, "caf\\xc3\\xa9:  50% [", 19);
}

/* Valid printable UTF-8 is text, drawn with its real width. */
static void
unicode_prefix(void **state)
{
	static const struct { const char *prefix, *shown; int cols; } cases[] = {
		{ "e\xcc\x81:", "e\xcc\x81:", 2 },	/* e + U+0301 */
		{ "a\xe2\x80\x8b" "b", "a\xe2\x80\x8b" "b", 2 },	/* ZWSP */
		/* man, ZWJ, woman: the joiner is kept and takes no column */
		{ "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9",
		  "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9", 4 },
		{ "\xe6\x97\xa5", "\xe6\x97\xa5", 2 },	/* a wide CJK */
		/* a right-to-left override is escaped, byte by byte */
		{ "a\xe2\x80\xae" "b", "a\\xe2\\x80\\xae" "b", 14 },
		{ "a\xe2\x80\xa8" "b", "a\\xe2\\x80\\xa8" "b", 14 },
	};
	struct render_state s = half();
	char want[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s.prefix = cases[i].prefix;
		render_line(&s, 120, &utf8, line, sizeof(line));
		snprintf(want, sizeof(want), "%s  50%% [", cases[i].shown);
		assert_memory_equal(line, want, strlen(want));
		assert_int_equal(columns(line), 119);
		/* the prefix's columns, counted the same way */
		line[strlen(cases[i].shown)] = '\0';
		assert_int_equal(columns(line), cases[i].cols);
	}
}

/* -F: pv's tokens, the bar taking what is left, exactly width - 1. */
static void
format_strings(void **state)
{
	struct render_state s = half();
	char msg[128];

	(void)state;
	s.name = "disk";
	s.waiting = 42;
	s.wall = 0;		/* 1970-01-01 00:00:00 UTC */
	render_format(&s, "%b %r", 20, &ascii, line, sizeof(line));
	/* each number at its widest amount's width, for the whole run */
	assert_string_equal(line, "   500 B    100 B/s");
	render_format(&s, "%N: %a|%t|%e|%T|%%|%{bytes}", 60, &ascii, line,
	    sizeof(line));
	assert_string_equal(line, "disk:    100 B/s|0:00:05|ETA 0:00:05| 42%|%|"
	    "   500 B       ");
	/* the bar takes the rest: 30 columns less "[x] " */
	render_format(&s, "[x] %p", 31, &ascii, line, sizeof(line));
	assert_string_equal(line, "[x]  50% [=========>         ]");
	/* two bars share it */
	render_format(&s, "%p|%{progress}", 41, &ascii, line, sizeof(line));
	assert_int_equal(columns(line), 40);
	assert_non_null(strchr(line, '|'));
	/* %I: the time of day it ends, 5 s after the wall clock */
	s.wall = 3600;
	/* as wide as the date form: what follows %I never moves */
	render_format(&s, "%I|", 26, &ascii, line, sizeof(line));
	assert_string_equal(line, "FIN            01:00:05| ");
	/* more than six hours away: the date too; the ETA counts days */
	s.eta = 2 * 86400 + 5;
	render_format(&s, "%I|%e", 41, &ascii, line, sizeof(line));
	assert_string_equal(line, "FIN 1970-01-03 01:00:05|ETA 2d 00:00:05 ");
	s.eta = 6 * 3600;
	render_format(&s, "%I|", 26, &ascii, line, sizeof(line));
	assert_string_equal(line, "FIN            07:00:00| ");
	s.eta = 5;
	s.final = true;
	render_format(&s, "%I|%e", 37, &ascii, line, sizeof(line));
	assert_string_equal(line, "FIN            --:--:--|ETA -:--:-- ");
	s.final = false;
	/* literal text is escaped as a prefix is, and cut at the width */
	render_format(&s, "\033[2J%b", 40, &utf8, line, sizeof(line));
	assert_memory_equal(line, "\\x1b[2J   500 B", 15);
	render_format(&s, "abcdefghijklmnop %b", 6, &ascii, line,
	    sizeof(line));
	assert_string_equal(line, "abcde");
	/* every width, every token: exactly width - 1 columns */
	for (int w = 1; w <= 300; w++) {
		render_format(&s, "%N %p %t %e %I %r %a %b %T %% caf\xc3\xa9 "
		    "%{fineta}", w, &colour, line, sizeof(line));
		assert_int_equal(columns(line), w - 1);
		assert_true(valid_utf8(line));
	}
	assert_true(render_format_check("%p %{average-rate} 100%%", msg,
	    sizeof(msg)));
	assert_false(render_format_check("%x", msg, sizeof(msg)));
	assert_string_equal(msg, "format `%x': unknown %x");
	assert_false(render_format_check("%{nope} %b", msg, sizeof(msg)));
	assert_string_equal(msg, "format `%{nope} %b': unknown %{nope}");
	assert_false(render_format_check("50%", msg, sizeof(msg)));
	assert_false(render_format_check("%{bytes", msg, sizeof(msg)));
	assert_false(render_format_check("xml", msg, sizeof(msg)));
	assert_false(render_format_check("100%%", msg, sizeof(msg)));
}

static void
long_prefix_is_cut(void **state)
{
	struct render_state s = half();

	(void)state;
	/* the middle goes: a name's start and a path's end both stay */
	s.prefix = "abcdefghijklmnopqrstuvwxyz";
	render_line(&s, 20, &ascii, line, sizeof(line));
	assert_string_equal(line, "abc...stuvwxyz  50%");
	render_line(&s, 20, &utf8, line, sizeof(line));
	assert_string_equal(line, "abcd\xe2\x80\xa6rstuvwxyz  50%");
	s.prefix = "\033\033\033\033\033\033";
	render_line(&s, 20, &ascii, line, sizeof(line));
	/* an escape is never cut in half */
	assert_string_equal(line, "...\\x1b\\x1b  50%   ");
	/* at 80 columns a long path loses its middle, never a field */
	s.prefix = "copy: /srv/backups/2026/december/host.example.org/"
	    "volume-snapshot-42.img";
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_memory_equal(line, "co...2.img  50% [===   ]", 24);
	assert_non_null(strstr(line, " avg "));
	assert_non_null(strstr(line, " ETA 0:00:05"));
	assert_int_equal(strlen(line), 79);
	/*
	 * Three bytes a column, and none for a mark: the cut stays inside
	 * its buffer, the dots and the end included.
	 */
	{
		static char marks[6001];

		for (int i = 0; i < 2000; i++)
			memcpy(marks + 3 * i, "e\xcc\x81", 3);
		s.prefix = marks;
		render_line(&s, 1000, &utf8, line, sizeof(line));
		assert_non_null(strstr(line, "\xe2\x80\xa6"));
		assert_int_equal(columns(line), 999);
	}
}

/*
 * -d's label, cut: the process ("cp 4242: ") and the file's name whole, a
 * directory's middle lost; a closing line keeps its note.
 */
static void
watched_label_is_cut_in_its_path(void **state)
{
	struct render_state s = half();

	(void)state;
	s.whose_file = true;
	s.prefix = "cp 4242: /data/backups/2026/december/host.example.org/"
	    "snapshots/big.iso";
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_memory_equal(line, "cp 4242: /", 10);
	assert_non_null(strstr(line, "...ots/big.iso  50% ["));
	s.final = true;
	s.note = "as seen 0.52 s before the end";
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_memory_equal(line, "cp 4242: ", 9);
	assert_non_null(strstr(line, "/big.iso"));
	assert_non_null(strstr(line, " as seen 0.52 s before the end"));
}

/* Every width from 1 to 1000: exactly width - 1 columns, valid UTF-8. */
static void
width_rule(void **state)
{
	static const char *prefixes[] = { NULL, "", "copy: ",
	    "\xe2\x82\xac\xe2\x82\xac long prefix \x01\xfe", "p" };
	struct render_state s = half();
	const struct render_caps *caps[] = { &ascii, &utf8, &colour };

	(void)state;
	for (int w = 1; w <= 1000; w++)
		for (size_t c = 0; c < 3; c++)
			for (size_t p = 0; p < 5; p++)
				for (int k = 0; k < 4; k++) {
					s = half();
					s.prefix = prefixes[p];
					s.size = k == 1 ? 0 : 1000;
					s.final = k == 2;
					s.done = s.count = k == 3 ? 999 : 500;
					s.phase = (unsigned)w * 7;
					render_line(&s, w, caps[c], line,
					    sizeof(line));
					assert_int_equal(columns(line), w - 1);
					assert_true(valid_utf8(line));
				}
}

/* Where each '|' of line stands, as a string of column numbers. */
static void
bars_at(const char *text, char *where, size_t len)
{
	size_t used = 0;

	where[0] = '\0';
	for (const char *p = text; *p != '\0' && used < len; p++)
		if (*p == '|')
			used += (size_t)snprintf(where + used, len - used, "%d,",
			    (int)(p - text));
}

/*
 * Steady lines (pv's tests for Debian bug 586763): as amounts, rates and
 * times cross every unit, no field changes its width, so nothing moves.
 */
/* mark is in line, at the column noted when first. */
static void
stays_at(const char *mark, bool first, ptrdiff_t *at)
{
	const char *p = strstr(line, mark);

	assert_non_null(p);
	if (first)
		*at = p - line;
	assert_int_equal(p - line, *at);
}

static void
steady_widths(void **state)
{
	static const double values[] = { 0, 1, 999, 1000, 1023, 1023.4,
	    1023.5, 1024, 10239, 10240, 102399, 102400, 1023999, 1048575,
	    1048576, 1536003, 10485759, 104857599, 1073217536, 1e12, 1e15,
	    1e18 };
	struct render_state s = half();
	char first[256], where[256];
	ptrdiff_t avg = 0, eta = 0;

	(void)state;
	s.wall = 3600;
	for (int lines = 0; lines < 2; lines++) {
		s.unit = lines ? RENDER_LINES : RENDER_BYTES;
		for (size_t i = 0; i < sizeof(values) / sizeof(*values); i++) {
			s.count = (uint64_t)values[i];
			s.rate = s.average = values[i];
			s.elapsed = s.eta = (double)(i * 1111 % 36000);
			render_format(&s, "%b|%r|%a|%t|%e|%I|%T|", 200, &ascii,
			    line, sizeof(line));
			bars_at(line, where, sizeof(where));
			if (i == 0 && lines == 0)
				memcpy(first, where, sizeof(first));
			else if (lines == 0)
				assert_string_equal(where, first);
			/* the default bar: every field where it was */
			render_line(&s, 120, &ascii, line, sizeof(line));
			assert_int_equal(columns(line), 119);
			stays_at("avg", i == 0, &avg);
			stays_at("ETA", i == 0, &eta);
		}
	}
	/* line mode and bits, at their own widths: the same at every value */
	for (int bits = 0; bits < 2; bits++) {
		s.unit = bits ? RENDER_BITS : RENDER_LINES;
		s.size = 0;
		s.count = 0;
		s.rate = s.average = 0;
		render_format(&s, "%b|%r|%a|", 100, &ascii, line, sizeof(line));
		bars_at(line, first, sizeof(first));
		for (size_t i = 0; i < sizeof(values) / sizeof(*values); i++) {
			/* bits count bytes too: the largest stays below 2^64 */
			s.count = (uint64_t)(values[i] / (bits ? 8 : 1));
			s.rate = s.average = values[i];
			render_format(&s, "%b|%r|%a|", 100, &ascii, line,
			    sizeof(line));
			bars_at(line, where, sizeof(where));
			assert_string_equal(where, first);
			render_line(&s, 120, &ascii, line, sizeof(line));
			stays_at("avg", i == 0, &avg);
		}
	}
}

/* --bits: bytes shown as bits, SI steps as link speeds are quoted. */
static void
bit_amounts(void **state)
{
	static const struct { double bytes; const char *shown; } cases[] = {
		{ 0, "0 b" }, { 100, "800 b" }, { 124.9, "999 b" },
		{ 125, "1.00 kb" }, { 1249, "9.99 kb" }, { 1250, "10.0 kb" },
		{ 124937, "999 kb" }, { 124938, "1.00 Mb" },
		{ 125e6, "1.00 Gb" }, { 117.5e6, "940 Mb" },
		{ 1e18, "8.00 Eb" }, { 1e21, "8000 Eb" }, { -1, "0 b" },
	};
	struct render_state s = { .count = 100, .rate = 125e6,
	    .average = 117.5e6, .elapsed = 2, .eta = -1, .phase = 2,
	    .unit = RENDER_BITS };
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		render_amount(cases[i].bytes, RENDER_BITS, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].shown);
	}
	render_format(&s, "%b|%r|%a", 60, &ascii, line, sizeof(line));
	assert_int_equal(columns(line), 59);
	assert_memory_equal(line, "  800 b|1.00 Gb/s| 940 Mb/s ", 28);
	/* -n -F: the numbers in bits too */
	render_numeric(&s, false, "%b %r %a", false, line, sizeof(line));
	assert_string_equal(line, "800 1000000000.0 940000000.0");
}

/* -k: bytes in powers of 1000, with a space and B as pv -k shows them. */
static void
si_amounts(void **state)
{
	static const struct { double bytes; const char *shown; } cases[] = {
		{ 0, "0 B" }, { 999, "999 B" }, { 999.5, "1.00 kB" },
		{ 1024, "1.02 kB" }, { 9994, "9.99 kB" }, { 10000, "10.0 kB" },
		{ 999499, "999 kB" }, { 1e6, "1.00 MB" }, { 1.5e9, "1.50 GB" },
		{ 1e18, "1.00 EB" }, { 1e21, "1000 EB" }, { -1, "0 B" },
	};
	struct render_state s = half();
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		render_amount(cases[i].bytes, RENDER_SI, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].shown);
	}
	s.unit = RENDER_SI;
	s.count = 2000000;
	s.rate = s.average = 1500;
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_string_equal(line, " 50% [==========          ] 2.00 MB 1.50 kB/s"
	    " avg 1.50 kB/s 0:00:05 ETA 0:00:05");
}

/* -u: plain "=>" even on UTF-8; shaded quarters; block the default. */
static void
bar_styles(void **state)
{
	static const struct render_caps plain = { true, "", "", RENDER_PLAIN };
	static const struct render_caps shaded = { true, "", "",
	    RENDER_SHADED };
	static const struct render_caps shaded_ascii = { false, "", "",
	    RENDER_SHADED };
	struct render_state s = half();

	(void)state;
	render_line(&s, 80, &plain, line, sizeof(line));
	assert_string_equal(line, " 50% [========>        ]    500 B    100 B/s"
	    " avg    100 B/s 0:00:05 ETA 0:00:05");
	/* 17 cells at 50%: 8 full and a half, in quarters: two, ▒ */
	render_line(&s, 80, &shaded, line, sizeof(line));
	assert_string_equal(line, " 50% [████████▒        ]    500 B    100 B/s"
	    " avg    100 B/s 0:00:05 ETA 0:00:05");
	s.done = 470;	/* 7.99 cells: 7 full, three quarters */
	render_line(&s, 80, &shaded, line, sizeof(line));
	assert_non_null(strstr(line, "[███████▓         ]"));
	s.done = 450;	/* 7.65 cells: 7 full, two quarters */
	render_line(&s, 80, &shaded, line, sizeof(line));
	assert_non_null(strstr(line, "[███████▒         ]"));
	s.done = 430;	/* 7.31 cells: 7 full, one quarter */
	render_line(&s, 80, &shaded, line, sizeof(line));
	assert_non_null(strstr(line, "[███████░         ]"));
	/* no UTF-8: "=>" whatever the style */
	s = half();
	render_line(&s, 80, &shaded_ascii, line, sizeof(line));
	assert_non_null(strstr(line, "[========>        ]"));
	/* %p too: 23 cells, 11 and a half */
	render_format(&s, "%p", 31, &shaded, line, sizeof(line));
	assert_string_equal(line, " 50% [███████████▒           ]");
}

/* -g: no size, the bar is the rate against the highest seen. */
static void
gauge(void **state)
{
	struct render_state s = { .count = 1 << 20, .rate = 1 << 19,
	    .average = 1 << 19, .elapsed = 2, .eta = -1, .phase = 2,
	    .gauge = true, .rate_max = 1 << 20 };

	(void)state;
	render_line(&s, 70, &ascii, line, sizeof(line));
	assert_string_equal(line, " 50% [=========>         ] 1.00 MiB  512 KiB/s"
	    " avg  512 KiB/s 0:00:02");
	render_format(&s, "%p", 20, &ascii, line, sizeof(line));
	assert_string_equal(line, " 50% [======      ]");
	/* nothing measured yet: empty, not a division by zero */
	s.rate = s.rate_max = 0;
	render_format(&s, "%p", 20, &ascii, line, sizeof(line));
	assert_string_equal(line, "  0% [            ]");
	/* the last line has no gauge, as it has no activity indicator */
	s.final = true;
	render_line(&s, 40, &ascii, line, sizeof(line));
	assert_string_equal(line, "1.00 MiB avg  512 KiB/s 0:00:02        ");
	/* a known size wins */
	s = half();
	s.gauge = true;
	s.rate_max = 1000;
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_non_null(strstr(line, " 50% [========>        ]"));
}

/* --line-mode: the amounts and rates count lines, in SI steps. */
static void
line_amounts(void **state)
{
	struct render_state s = { .count = 1500000, .rate = 250000,
	    .average = 999, .elapsed = 2, .eta = -1, .phase = 2,
	    .unit = RENDER_LINES };
	char buf[32];

	(void)state;
	render_line(&s, 70, &ascii, line, sizeof(line));
	assert_string_equal(line, "1.50M lines  250k lines/s avg   999 lines/s "
	    "0:00:02 [  <=>          ]");
	render_format(&s, "%b|%r|%a", 40, &ascii, line, sizeof(line));
	assert_string_equal(line, "1.50M lines| 250k lines/s|  999 lines/s");
	render_amount(0, RENDER_LINES, buf, sizeof(buf));
	assert_string_equal(buf, "0 lines");
	render_amount(999.4, RENDER_LINES, buf, sizeof(buf));
	assert_string_equal(buf, "999 lines");
	render_amount(999.6, RENDER_LINES, buf, sizeof(buf));
	assert_string_equal(buf, "1.00k lines");
	render_amount(12345678, RENDER_LINES, buf, sizeof(buf));
	assert_string_equal(buf, "12.3M lines");
	render_amount(1024, RENDER_BYTES, buf, sizeof(buf));
	assert_string_equal(buf, "1.00 KiB");
}

static void
units(void **state)
{
	char buf[32];

	(void)state;
	render_iec(0, buf, sizeof(buf));
	assert_string_equal(buf, "0 B");
	render_iec(1023, buf, sizeof(buf));
	assert_string_equal(buf, "1023 B");
	render_iec(1024, buf, sizeof(buf));
	assert_string_equal(buf, "1.00 KiB");
	render_iec(10.5 * 1024 * 1024, buf, sizeof(buf));
	assert_string_equal(buf, "10.5 MiB");
	render_iec(700.0 * (1 << 30), buf, sizeof(buf));
	assert_string_equal(buf, "700 GiB");
	render_iec(5.0 * (1ULL << 60), buf, sizeof(buf));
	assert_string_equal(buf, "5.00 EiB");
	/* what would round to 1024 of a unit is 1.00 of the next */
	render_iec(1023.4, buf, sizeof(buf));
	assert_string_equal(buf, "1023 B");
	render_iec(1023.5, buf, sizeof(buf));
	assert_string_equal(buf, "1.00 KiB");
	render_iec(1048575, buf, sizeof(buf));
	assert_string_equal(buf, "1.00 MiB");
	render_iec(1073217536, buf, sizeof(buf));
	assert_string_equal(buf, "1.00 GiB");
	render_iec(1072693248, buf, sizeof(buf));	/* 1023 MiB */
	assert_string_equal(buf, "1023 MiB");
	render_amount(1048575, RENDER_BYTES, buf, sizeof(buf));
	assert_string_equal(buf, "1.00 MiB");
	render_amount(999499, RENDER_LINES, buf, sizeof(buf));
	assert_string_equal(buf, "999k lines");
	render_amount(999500, RENDER_LINES, buf, sizeof(buf));
	assert_string_equal(buf, "1.00M lines");
	render_duration(0, buf, sizeof(buf));
	assert_string_equal(buf, "0:00:00");
	render_duration(3723, buf, sizeof(buf));
	assert_string_equal(buf, "1:02:03");
	render_duration(90061, buf, sizeof(buf));
	assert_string_equal(buf, "1d 01:01:01");
	render_duration(-1, buf, sizeof(buf));
	assert_string_equal(buf, "-:--:--");
}

/*
 * A buffer's line: its input's rate, the output's, and its fill, as
 * mbuffer shows them, kept before the average and the time when room
 * is short; the closing line has none of them.
 */
static void
buffered_line(void **state)
{
	struct render_state s = half();

	(void)state;
	s.buffered = true;
	s.rate_in = 2048;
	s.waiting = 73;
	render_line(&s, 120, &ascii, line, sizeof(line));
	assert_string_equal(line, " 50% [===============               ]    "
	    "500 B in 2.00 KiB/s out    100 B/s buf  73% avg    100 B/s "
	    "0:00:05 ETA 0:00:05");
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_null(strstr(line, "avg"));
	assert_non_null(strstr(line, "in 2.00 KiB/s out    100 B/s buf  73%"));
	render_line(&s, 60, &ascii, line, sizeof(line));
	assert_null(strstr(line, "in "));
	assert_non_null(strstr(line, "out    100 B/s buf  73%"));
	s.stalled = true;
	render_line(&s, 120, &ascii, line, sizeof(line));
	assert_non_null(strstr(line, "out    stalled buf  73%"));
	s.final = true;
	render_line(&s, 120, &ascii, line, sizeof(line));
	assert_null(strstr(line, "in "));
	assert_null(strstr(line, "buf"));
	for (int w = 1; w <= 300; w++) {
		s.final = w % 2 == 0;
		render_line(&s, w, &utf8, line, sizeof(line));
		assert_int_equal(columns(line), w - 1);
	}
	/* the fields by name: the sides apart, %r the output's */
	s.final = false;
	render_format(&s, "%{rate-in}|%{rate-out}|%r|%T", 60, &ascii, line,
	    sizeof(line));
	assert_string_equal(line, "2.00 KiB/s|   100 B/s|   100 B/s| 73%"
	    "                      ");
	render_numeric(&s, true, "%{rate-in} %{rate-out}", false, line,
	    sizeof(line));
	assert_string_equal(line, "2048.0 100.0");
}

/*
 * -O: the bytes left as holes, in a field of its own beside the amount,
 * the first to go when room is short, but kept on the closing line; in
 * bytes when the line counts lines.
 */
static void
holes_field(void **state)
{
	struct render_state s = half();

	(void)state;
	s.sparse = true;
	s.holes = 3 << 20;
	render_line(&s, 120, &ascii, line, sizeof(line));
	assert_non_null(strstr(line, "    500 B holes 3.00 MiB "));
	render_line(&s, 60, &ascii, line, sizeof(line));
	assert_null(strstr(line, "holes"));
	assert_non_null(strstr(line, "ETA"));
	s.final = true;
	render_line(&s, 70, &ascii, line, sizeof(line));
	assert_non_null(strstr(line, "500 B holes 3.00 MiB avg"));
	s.final = false;
	s.unit = RENDER_LINES;
	render_line(&s, 120, &ascii, line, sizeof(line));
	assert_non_null(strstr(line, "holes 3.00 MiB"));
	s.sparse = false;
	render_line(&s, 120, &ascii, line, sizeof(line));
	assert_null(strstr(line, "holes"));
	for (int w = 1; w <= 200; w++) {
		s.sparse = true;
		s.final = w % 2 == 0;
		render_line(&s, w, &utf8, line, sizeof(line));
		assert_int_equal(columns(line), w - 1);
	}
}

/*
 * -x: the title, one line with no blanks around it: the percentage with
 * a size, the time left while live, the average and the time at the
 * end; a name escaped; -F's fields after a colon.
 */
static void
title_text(void **state)
{
	struct render_state s = half();
	char title[RENDER_BUFSIZE(100)];

	(void)state;
	render_title(&s, NULL, title, sizeof(title));
	assert_string_equal(title, "50% 500 B 100 B/s ETA 0:00:05");
	s.name = "disk\033]2;x\007";
	s.final = true;
	s.average = 2048;
	render_title(&s, NULL, title, sizeof(title));
	assert_string_equal(title,
	    "disk\\x1b]2;x\\x07: 50% 500 B avg 2.00 KiB/s in 0:00:05");
	s.name = NULL;
	s.final = false;
	s.size = 0;
	s.eta = -1;
	render_title(&s, NULL, title, sizeof(title));
	assert_string_equal(title, "500 B 100 B/s");
	render_title(&s, "%b at %r", title, sizeof(title));
	assert_string_equal(title, "500 B at    100 B/s");	/* -F's columns */
	s.size = 1000;
	render_title(&s, "%p", title, sizeof(title));
	assert_non_null(strstr(title, "50% [="));
	assert_int_equal(title[strlen(title) - 1], ']');
}

/*
 * -A: the last bytes, a dot for each that is not printable ASCII, before
 * the bar; %A places them, %L shows the last line escaped as a prefix.
 */
static void
last_written(void **state)
{
	struct render_state s = half();
	static const unsigned char last[] = "ok\n\033]2;\xc3\xa9";
	static const unsigned char prev[] = "t\033x\xc3\xa9";
	char msg[200];

	(void)state;
	s.last = last;
	s.last_len = sizeof(last) - 1;
	render_line(&s, 80, &ascii, line, sizeof(line));
	assert_int_equal(strncmp(line, "ok..]2;..  50% [", 16), 0);
	/* short of room, it goes before the percentage and the time left */
	render_line(&s, 30, &ascii, line, sizeof(line));
	assert_null(strstr(line, "ok.."));
	assert_non_null(strstr(line, "50%"));
	s.line = prev;
	s.line_len = sizeof(prev) - 1;
	render_format(&s, "%A|%{previous-line}|", 40, &utf8, line,
	    sizeof(line));
	assert_int_equal(strncmp(line, "ok..]2;..|t\\x1bx", 16), 0);
	render_numeric(&s, true, "%{last-written} %L", false, line,
	    sizeof(line));
	assert_string_equal(line, "ok..]2;.. t\\x1bx\\xc3\\xa9");
	assert_int_equal(render_format_sees("%b %A"), RENDER_SEES_LAST);
	assert_int_equal(render_format_sees("%{previous-line}%%A"),
	    RENDER_SEES_LINE);
	assert_int_equal(render_format_sees(NULL), 0);
	/* what a copy sees decides what its format may show */
	assert_true(render_format_seen(NULL, 0, msg, sizeof(msg)));
	assert_true(render_format_seen("%b %L", RENDER_SEES_LINE, msg,
	    sizeof(msg)));
	assert_false(render_format_seen("%A %L", RENDER_SEES_LINE, msg,
	    sizeof(msg)));
	assert_string_equal(msg, "%A shows -A's last bytes: give -A N");
	assert_false(render_format_seen("%{previous-line}", 0, msg,
	    sizeof(msg)));
	assert_int_equal(strncmp(msg, "%L shows the bytes written, which tach "
	    "sees only in line mode", 61), 0);
	assert_true(render_format_seen("%A", RENDER_SEES_LINE |
	    RENDER_SEES_LAST, msg, sizeof(msg)));
	for (int w = 1; w <= 120; w++) {
		render_line(&s, w, &utf8, line, sizeof(line));
		assert_int_equal(columns(line), w - 1);
	}
}

/* -n -F: every token as a plain number, "-" for one not known yet. */
static void
numeric_fields(void **state)
{
	struct render_state s = half();
	size_t len;

	(void)state;
	s.elapsed = 12.34567;
	s.rate = 1048576.04;
	s.average = 524288;
	s.eta = 9.2;
	s.wall = 1800000000.7;
	s.waiting = 37;
	s.name = "img";
	s.ratio_known = true;
	s.ratio = 0.25;
	len = render_numeric(&s, true,
	    "%t %b %p %r %a %e %I %T %N %{ratio} %%", false, line,
	    sizeof(line));
	assert_string_equal(line, "12.3457 500 50 1048576.0 524288.0 10 "
	    "1800000010 37 img 0.250000 %");
	assert_int_equal(len, strlen(line));
	/* the long names are the same fields */
	render_numeric(&s, true, "%{bytes}/%{progress}", false, line,
	    sizeof(line));
	assert_string_equal(line, "500/50");
	/* what is not known yet, and the closing line's time left */
	s.eta = -1;
	s.waiting = -1;
	s.ratio_known = false;
	render_numeric(&s, true, "%e %I %T %{ratio}", false, line,
	    sizeof(line));
	assert_string_equal(line, "- - - -");
	s.eta = 5;
	s.final = true;
	render_numeric(&s, true, "%e", false, line, sizeof(line));
	assert_string_equal(line, "-");
}

/* %p as -n alone: 100 only at the size, the amount when there is none. */
static void
numeric_percentage(void **state)
{
	struct render_state s = half();

	(void)state;
	s.done = s.size - 1;
	render_numeric(&s, true, "%p", false, line, sizeof(line));
	assert_string_equal(line, "99");
	s.done = s.size + 5;
	render_numeric(&s, true, "%p", false, line, sizeof(line));
	assert_string_equal(line, "100");
	s.size = 0;
	s.count = 777;
	render_numeric(&s, false, "%p", false, line, sizeof(line));
	assert_string_equal(line, "777");
	/* an empty input's size, 0, is known: it is complete */
	s.done = s.count = 0;
	render_numeric(&s, true, "%p", false, line, sizeof(line));
	assert_string_equal(line, "100");
}

/* Literal text and %N go out escaped, as in a drawn line. */
static void
numeric_text_escaped(void **state)
{
	struct render_state s = half();

	(void)state;
	s.name = "a\033[2Jb";
	render_numeric(&s, true, "\033]0;x\a %N %b", false, line,
	    sizeof(line));
	assert_null(strchr(line, '\033'));
	assert_null(strchr(line, '\a'));
	assert_string_equal(line, "\\x1b]0;x\\x07 a\\x1b[2Jb 500");
	/* a line longer than its buffer is cut between characters */
	s.name = "\xc3\xa9\xc3\xa9\xc3\xa9";
	assert_int_equal(render_numeric(&s, true, "%N", true, line, 6), 4);
	assert_string_equal(line, "\xc3\xa9\xc3\xa9");
}

/*
 * Times through a long run: elapsed and time left share one width, kept
 * from the widest seen (the time left shows it from the start), so the
 * bar's fields stay put past 10 hours and past a day.
 */
static void
steady_times(void **state)
{
	static const double runs[] = { 60, 12 * 3600.0, 36 * 3600.0,
	    9 * 86400.0 };
	struct render_state s = half();
	ptrdiff_t eta = 0, bar = 0;
	int cols;

	(void)state;
	for (size_t r = 0; r < sizeof(runs) / sizeof(*runs); r++) {
		cols = 0;
		for (int step = 0; step < 1000; step++) {
			s.elapsed = runs[r] * step / 1000;
			s.eta = runs[r] - s.elapsed;
			s.done = s.count = (uint64_t)(s.elapsed * 10);
			s.size = (uint64_t)(runs[r] * 10);
			s.time_cols = cols = render_time_cols(&s, cols);
			render_line(&s, 120, &ascii, line, sizeof(line));
			assert_int_equal(columns(line), 119);
			stays_at("ETA", step == 0, &eta);
			stays_at("]", step == 0, &bar);
			render_format(&s, "%t|%e|", 60, &ascii, line,
			    sizeof(line));
			assert_int_equal(strchr(line, '|') - line, cols);
		}
	}
	/* the widths: 7, 8 past 10 hours, 11 past a day */
	s.final = false;
	s.elapsed = 5;
	s.eta = 5;
	assert_int_equal(render_time_cols(&s, 0), 7);
	s.eta = 10 * 3600;
	assert_int_equal(render_time_cols(&s, 7), 8);
	s.eta = 86400;
	assert_int_equal(render_time_cols(&s, 8), 11);
	/* never narrower than it was */
	s.eta = 1;
	assert_int_equal(render_time_cols(&s, 11), 11);
	/* a wild estimate, past ten days, is not kept */
	s.eta = 1e9;
	assert_int_equal(render_time_cols(&s, 7), 7);
	/* the closing line has no time left */
	s.eta = 86400;
	s.final = true;
	assert_int_equal(render_time_cols(&s, 7), 7);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(golden_known_ascii),
		cmocka_unit_test(golden_known_utf8),
		cmocka_unit_test(golden_start_and_end),
		cmocka_unit_test(golden_unknown),
		cmocka_unit_test(over_one_hundred_percent),
		cmocka_unit_test(stalled_mark),
		cmocka_unit_test(fields_drop_in_order),
		cmocka_unit_test(prefix_is_sanitized),
		cmocka_unit_test(unicode_prefix),
		cmocka_unit_test(format_strings),
		cmocka_unit_test(long_prefix_is_cut),
		cmocka_unit_test(watched_label_is_cut_in_its_path),
		cmocka_unit_test(width_rule),
		cmocka_unit_test(units),
		cmocka_unit_test(line_amounts),
		cmocka_unit_test(steady_widths),
		cmocka_unit_test(steady_times),
		cmocka_unit_test(bit_amounts),
		cmocka_unit_test(si_amounts),
		cmocka_unit_test(bar_styles),
		cmocka_unit_test(gauge),
		cmocka_unit_test(buffered_line),
		cmocka_unit_test(holes_field),
		cmocka_unit_test(percent_cut_not_rounded),
		cmocka_unit_test(title_text),
		cmocka_unit_test(last_written),
		cmocka_unit_test(numeric_fields),
		cmocka_unit_test(numeric_percentage),
		cmocka_unit_test(numeric_text_escaped),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		setlocale(LC_CTYPE, "en_US.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
