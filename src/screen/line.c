/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * One line's state from its meters, for a copy and a watched file alike.
 */
#include <string.h>

#include "tach/line.h"

void
line_state(const struct line_source *src, double *rate_max,
    struct render_state *s)
{
	memset(s, 0, sizeof(*s));
	s->prefix = src->prefix;
	s->name = src->name;
	s->count = src->count;
	s->done = src->done;
	s->size = src->size;
	s->unit = src->unit;
	s->rate = meter_rate(src->meter, METER_RATE_WINDOW);
	if (s->rate > *rate_max)
		*rate_max = s->rate;
	s->rate_max = *rate_max;
	s->rate_in = s->rate;
	s->gauge = src->gauge;
	/* -m: over its window while live; the whole run's at the end */
	s->average = src->window > 0 && !src->final ?
	    meter_rate(src->meter, src->window) : meter_average(src->meter);
	s->elapsed = src->elapsed;
	s->eta = src->eta_size > 0 ? meter_eta(src->progress, src->eta_size) :
	    -1;
	s->stalled = meter_stalled(src->meter);
	s->final = src->final;
	s->phase = src->phase;
	s->waiting = -1;
}
