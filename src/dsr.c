/* A strict parser for the cursor position report. */
#include "tach/dsr.h"

/* One number of 1 to DSR_MAX at *p, ending at stop; advances *p past it. */
static bool
number(const char **p, const char *end, char stop, int *value)
{
	long v = 0;
	const char *s = *p;

	while (s < end && *s >= '0' && *s <= '9') {
		v = v * 10 + (*s++ - '0');
		if (v > DSR_MAX)
			return false;
	}
	if (s == *p || s == end || *s != stop || v < 1)
		return false;
	*value = (int)v;
	*p = s + 1;
	return true;
}

bool
dsr_parse(const char *reply, size_t len, int *row, int *col)
{
	const char *p = reply, *end = reply + len;
	int r, c;

	if (len < 2 || p[0] != '\033' || p[1] != '[')
		return false;
	p += 2;
	if (!number(&p, end, ';', &r) || !number(&p, end, 'R', &c) ||
	    p != end)
		return false;
	*row = r;
	*col = c;
	return true;
}
