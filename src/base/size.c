/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Number parsing in the syntax of NetBSD's strsuftoll(3), a little extended.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tach/size.h"

#define MAX_FACTORS 16		/* as NetBSD's recursion limit */

static int
checked_mul(long long a, long long b, long long *out)
{
	if (a != 0 && b != 0) {
		if (a > 0 ? (b > 0 ? a > LLONG_MAX / b : b < LLONG_MIN / a)
		    : (b > 0 ? a < LLONG_MIN / b : a < LLONG_MAX / b))
			return -1;
	}
	*out = a * b;
	return 0;
}

/*
 * One factor: a base-10 integer and an optional unit suffix, whose k, m,
 * g and t are powers of 1000 with si (pv's -k), but KiB, MiB... never.
 */
static enum size_error
parse_factor(const char *s, bool si, const char **end, long long *value)
{
	long long n, unit = 1;
	int kilo;
	char *p;

	errno = 0;
	n = strtoll(s, &p, 10);
	if (p == s)
		return SIZE_ILLEGAL;
	if (errno == ERANGE)
		return SIZE_OVERFLOW;
	/* KiB is 1024 bytes whatever -k says */
	kilo = si && *p != '\0' && strncmp(p + 1, "iB", 2) != 0 ? 1000 :
	    1024;
	switch (*p) {
	case 'b':
		unit = 512;
		p++;
		break;
	case 'w':
		unit = sizeof(int);
		p++;
		break;
	case 't': case 'T':
		unit *= kilo;
		/* FALLTHROUGH */
	case 'g': case 'G':
		unit *= kilo;
		/* FALLTHROUGH */
	case 'm': case 'M':
		unit *= kilo;
		/* FALLTHROUGH */
	case 'k': case 'K':
		unit *= kilo;
		p++;
		if (strncmp(p, "iB", 2) == 0)
			p += 2;
		else if (*p == 'B')
			p++;
		break;
	case 'B':
		p++;
		break;
	}
	if (checked_mul(n, unit, value) == -1)
		return SIZE_OVERFLOW;
	*end = p;
	return SIZE_OK;
}

enum size_error
size_parse(const char *text, bool si, long long min, long long max,
    long long *value)
{
	const char *p = text;
	long long product = 1, factor;
	enum size_error e;
	int i;

	for (i = 0; i < MAX_FACTORS; i++) {
		if ((e = parse_factor(p, si, &p, &factor)) != SIZE_OK)
			return e;
		if (checked_mul(product, factor, &product) == -1)
			return SIZE_OVERFLOW;
		if (*p == '\0') {
			*value = product;
			if (product < min)
				return SIZE_TOO_SMALL;
			if (product > max)
				return SIZE_TOO_LARGE;
			return SIZE_OK;
		}
		if (*p != 'x' && *p != '*')
			return SIZE_ILLEGAL;
		p++;
	}
	return SIZE_ILLEGAL;
}

bool
size_arg(const char *what, const char *text, bool si, long long min,
    long long max, long long *value, char *msg, size_t msglen)
{
	*value = 0;
	switch (size_parse(text, si, min, max, value)) {
	case SIZE_OK:
		return true;
	case SIZE_ILLEGAL:
		snprintf(msg, msglen, "%s `%s': illegal number", what, text);
		break;
	case SIZE_OVERFLOW:
		/* strerror(ERANGE) as NetBSD spells it, the same everywhere */
		snprintf(msg, msglen, "%s `%s': Result too large", what, text);
		break;
	case SIZE_TOO_SMALL:
		snprintf(msg, msglen, "%s %lld is less than %lld", what, *value,
		    min);
		break;
	case SIZE_TOO_LARGE:
		snprintf(msg, msglen, "%s %lld is greater than %lld", what,
		    *value, max);
		break;
	}
	return false;
}

bool
seconds_parse(const char *text, double min, double *v)
{
	char *end;

	*v = strtod(text, &end);
	return end != text && *end == '\0' && *v >= min && *v <= SECONDS_MAX;
}
