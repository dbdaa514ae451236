/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -x: the progress in more places than the bar: the terminal window's
 * title and the process's (ps, top), each tick.
 */
#ifndef TACH_TITLE_H
#define TACH_TITLE_H

#include <stdbool.h>

#include "tach/render.h"
#include "tach/term.h"

#define TITLE_WINDOW	0x1
#define TITLE_PROCESS	0x2

struct title {
	unsigned	 where;		/* TITLE_WINDOW | TITLE_PROCESS, or 0 */
	const char	*format;	/* -x's, or NULL: render_title's own */
	bool		 window;	/* the terminal has a title to set */
	struct terminal	 term;
	char		 shown[RENDER_BUFSIZE(100)];
};

/*
 * Where to show it, on the terminal fd for the window's title: one that
 * is not a terminal, or is a background job's, has none to set.
 */
void	title_open(struct title *t, unsigned where, const char *format,
	    int fd);
/* The state s, where it differs from the last shown. */
void	title_show(struct title *t, const struct render_state *s);
/* The window's title back as it was, where the terminal keeps it. */
void	title_close(struct title *t);

#endif
