/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -c: several tach instances on one terminal, each with a line of its
 * own.  The lines are pinned to the bottom rows, below a scrolling region
 * that holds everything else written there, so other programs' output
 * scrolls above them and is never drawn over.  Locks on /dev/tty
 * serialise the instances and count them: nothing is left behind on any
 * exit, no file and no shared memory.
 */
#ifndef TACH_CURSOR_H
#define TACH_CURSOR_H

#include <stdbool.h>
#include <stddef.h>

#include "tach/term.h"

/* Instances that can pin a line on one terminal at once. */
#define CURSOR_SLOTS	64

struct pin {
	int	tty;		/* /dev/tty, holding the locks, or -1 */
	int	term;		/* the terminal, as a lock range */
	int	slot;		/* this instance's first lock byte in it */
	int	count;		/* and how many it holds: its rows */
	int	pinned;		/* rows kept at the bottom when last laid out */
	int	height;		/* the window's height then */
	int	janitor;	/* tells the janitor the layout, or -1 */
};

enum cursor_claim {
	CURSOR_PINNED,		/* a row at the bottom */
	CURSOR_PLAIN,		/* the terminal cannot: the one plain line */
	CURSOR_NONE		/* another instance has the plain line */
};

/*
 * Takes rows for this instance's lines on the terminal t is on: as many
 * as asked, or one where no run that long is free.  A terminal without a
 * scrolling region, cursor addressing and saved cursor has one plain
 * line, for the first instance to ask.  The rows p had before (a ^Z gave
 * them back) are asked for first, so the lines keep their order.
 */
enum cursor_claim cursor_claim(struct pin *p, const struct terminal *t,
	    int rows);
/*
 * A pinned instance's rows made as many as its lines, where they are
 * free (a pipeline grew a stage): the rows it holds after.
 */
int	cursor_hold(struct pin *p, int rows);
/*
 * Draws text's lines (separated by newlines) on the rows held, leaving
 * the cursor where it was; lays the rows out again when instances came
 * or went or the window changed.
 */
void	cursor_draw(struct pin *p, const struct terminal *t, const char *text,
	    size_t len);
/*
 * Gives the rows back.  The lines of a text of len > 0 are written where
 * the cursor is, as text that scrolls with the rest.  A janitor, forked with each pinned
 * row into a process group of its own, is told so; should tach die
 * without giving the row back (kill -9), the janitor resets the scrolling
 * region and clears the rows.
 */
void	cursor_release(struct pin *p, const struct terminal *t,
	    const char *line, size_t len);

#endif
