/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Windowed rates over a ring of (time, bytes) samples.
 */
#include "tach/meter.h"

void
meter_init(struct meter *m, double window)
{
	/* only the start: the ring is read no further than count */
	m->ring[0] = (struct meter_sample){ 0, 0 };
	m->newest = 0;
	m->count = 1;		/* the start: no bytes at time 0 */
	m->last_move = 0;
	m->window = window;
	m->spacing = window / (METER_SAMPLES / 2);
}

static const struct meter_sample *
sample(const struct meter *m, unsigned age)
{
	return &m->ring[(m->newest + METER_SAMPLES - age) % METER_SAMPLES];
}

void
meter_update(struct meter *m, double t, uint64_t bytes)
{
	const struct meter_sample *last = sample(m, 0);

	if (bytes > last->bytes)
		m->last_move = t;
	if (t <= last->t && m->count > 1) {
		m->ring[m->newest].bytes = bytes;	/* same instant */
		return;
	}
	/* the newest too close to the one before it: it moves on to t */
	if (m->count > 1 && last->t - sample(m, 1)->t < m->spacing) {
		m->ring[m->newest] = (struct meter_sample){ t, bytes };
		return;
	}
	m->newest = (m->newest + 1) % METER_SAMPLES;
	m->ring[m->newest] = (struct meter_sample){ t, bytes };
	if (m->count < METER_SAMPLES)
		m->count++;
}

double
meter_rate(const struct meter *m, double window)
{
	const struct meter_sample *now = sample(m, 0), *then;
	unsigned age = 1;

	if (m->count < 2)
		return 0;
	/* The oldest sample inside the window, but at least one step back. */
	while (age + 1 < m->count && now->t - sample(m, age + 1)->t <= window)
		age++;
	then = sample(m, age);
	if (now->t <= then->t)
		return 0;
	return (double)(now->bytes - then->bytes) / (now->t - then->t);
}

double
meter_average(const struct meter *m)
{
	const struct meter_sample *now = sample(m, 0);

	return now->t > 0 ? (double)now->bytes / now->t : 0;
}

double
meter_eta(const struct meter *m, uint64_t size)
{
	uint64_t done = sample(m, 0)->bytes;
	double rate = meter_rate(m, m->window > 0 ? m->window :
	    METER_ETA_WINDOW);

	if (rate <= 0)
		rate = meter_average(m);	/* a stall: the long view */
	if (size == 0 || done >= size || rate <= 0)
		return -1;
	return (double)(size - done) / rate;
}

bool
meter_stalled(const struct meter *m)
{
	return meter_idle(m) >= METER_STALL;
}

double
meter_idle(const struct meter *m)
{
	return sample(m, 0)->t - m->last_move;
}
