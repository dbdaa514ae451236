/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * One line's state from its meters, for a copy and a watched file alike.
 */
#include <stdio.h>
#include <string.h>

#include "tach/compat.h"
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

void
line_disk_start(struct line_disk *disk, uint64_t dev)
{
	memset(disk, 0, sizeof(*disk));
	disk->dev = dev;
	disk->known = compat_disk_written(dev, &disk->base) == 0;
}

bool
line_disk_note(struct line_disk *disk, enum render_unit unit, char *note,
    size_t notelen)
{
	char amount[32];
	uint64_t now;

	if (!disk->known)
		return false;
	/* a counter that fails once keeps its last look */
	if (compat_disk_written(disk->dev, &now) == 0)
		disk->written = now > disk->base ? now - disk->base : 0;
	render_amount((double)disk->written, unit, amount, sizeof(amount));
	snprintf(note, notelen, "disk wrote %s", amount);
	return true;
}
