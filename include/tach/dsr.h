/*
 * The terminal's cursor position report (DSR 6, answered as
 * ESC [ row ; col R), which -c reads.  Pure.
 */
#ifndef TACH_DSR_H
#define TACH_DSR_H

#include <stdbool.h>
#include <stddef.h>

/* No terminal has more rows or columns than a winsize can hold. */
#define DSR_MAX	65535

/*
 * Parses exactly one report of len bytes.  The reply comes from outside:
 * anything but two decimal numbers from 1 to DSR_MAX in that frame (a
 * sign, a missing field, leading junk, more digits) is refused.
 */
bool	dsr_parse(const char *reply, size_t len, int *row, int *col);

#endif
