/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * One line's state, as a copy (session.c) and a watched file (watch.c)
 * both draw it: the numbers a meter gives, put into a render_state the
 * same way for both.  What only one of them has (a buffer's fill, -A's
 * bytes, a file's note) each adds after.
 */
#ifndef TACH_LINE_H
#define TACH_LINE_H

#include <stdbool.h>
#include <stdint.h>

#include "tach/meter.h"
#include "tach/render.h"

struct line_source {
	const struct meter *meter;	/* count's: the rate, the average */
	const struct meter *progress;	/* done's toward eta_size: the ETA */
	uint64_t	 eta_size;	/* what progress goes to; 0: no ETA */
	uint64_t	 count, done, size;
	enum render_unit unit;
	double		 window;	/* -m: the average's, live; 0: all */
	double		 elapsed;
	bool		 gauge, final;
	unsigned	 phase;
	const char	*prefix, *name;
};

/*
 * Fills s (cleared first) from src; *rate_max is the highest rate so far,
 * kept by the caller and raised here.
 */
void	line_state(const struct line_source *src, double *rate_max,
	    struct render_state *s);

/*
 * What a disk (a disk's st_rdev, or a file's st_dev) says it has written
 * since line_disk_start: every writer's bytes, the file system's own too.
 */
struct line_disk {
	uint64_t	 dev;
	uint64_t	 base;		/* its count at the start */
	uint64_t	 written;	/* since, at the last look */
	bool		 known;		/* its counters can be read */
};

void	line_disk_start(struct line_disk *disk, uint64_t dev);
/* Looks again; "disk wrote AMOUNT" into note, or false where not known. */
bool	line_disk_note(struct line_disk *disk, enum render_unit unit,
	    char *note, size_t notelen);

#endif
