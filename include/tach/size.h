/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Numbers in progress(1)'s syntax: base 10, an optional suffix
 * (b=512, k, m, g, t, w; K M G T with an optional "iB" or "B"; a bare "B"),
 * and products joined by 'x' or '*', e.g. "2x64k".  With si (-k), k, m,
 * g and t and their B forms are powers of 1000; KiB, MiB... stay 1024's.
 */
#ifndef TACH_SIZE_H
#define TACH_SIZE_H

#include <stdbool.h>
#include <stddef.h>

enum size_error {
	SIZE_OK,
	SIZE_ILLEGAL,		/* not a number in this syntax */
	SIZE_OVERFLOW,		/* does not fit in 64 bits */
	SIZE_TOO_SMALL,		/* below the caller's minimum */
	SIZE_TOO_LARGE		/* above the caller's maximum */
};

enum size_error	size_parse(const char *text, bool si, long long min,
		    long long max, long long *value);
/*
 * Parses an option's value into *value; false with progress(1)'s message
 * in msg when it is not a number in range.
 */
bool		size_arg(const char *what, const char *text, bool si,
		    long long min, long long max, long long *value, char *msg,
		    size_t msglen);

/*
 * Seconds, as -i, -D, -m and --stall-timeout take them (and -R sends -i):
 * a decimal number from a minimum to a day.
 */
#define SECONDS_MAX		86400
#define SECONDS_INTERVAL_MIN	0.01	/* -i: a redraw at most this often */
/* Parses text into *v; false when it is not a number from min to a day. */
bool		seconds_parse(const char *text, double min, double *v);

#endif
