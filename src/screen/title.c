/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -x: the window's and the process's titles (title.h).
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "tach/compat.h"
#include "tach/signals.h"
#include "tach/title.h"

void
title_open(struct title *t, unsigned where, const char *format, int fd)
{
	memset(t, 0, sizeof(*t));
	t->where = where;
	t->format = format;
	if ((where & TITLE_WINDOW) && isatty(fd) &&
	    tcgetpgrp(fd) == getpgrp()) {
		term_open(&t->term, fd, false);
		t->window = t->term.tsl[0] != '\0';
	}
}

void
title_show(struct title *t, const struct render_state *s)
{
	char text[sizeof(t->shown)];

	if (t->where == 0)
		return;
	(void)render_title(s, t->format, text, sizeof(text));
	/* a redraw of the same text would only cost the terminal */
	if (strcmp(text, t->shown) == 0)
		return;
	strcpy(t->shown, text);
	if (t->window)
		(void)term_title(&t->term, text);
	if (t->where & TITLE_PROCESS)
		compat_title("%s", text);
}

/*
 * The title put back by a child that waits for a terminal stopped at
 * the end (^S), so that tach ends now.  Only the terminal stays open in
 * it: a data descriptor kept would keep its reader waiting for an end.
 */
static void
put_back_later(struct title *t)
{
	int null;

	if (fork() != 0)
		return;
	signals_reset_child();
	if (dup2(t->term.fd, 3) == -1)
		_exit(1);
	if ((null = open("/dev/null", O_RDWR)) != -1)
		for (int fd = 0; fd <= 2; fd++)
			(void)dup2(null, fd);
	compat_closefrom(4);
	t->term.fd = 3;
	compat_title("title for pid %ld", (long)getppid());
	term_title_end_waiting(&t->term);
	_exit(0);
}

/*
 * A terminal stopped (^S) at the end: the title is put back when it
 * reads again.  tach as the session's leader (a window opened to run it)
 * waits for that itself: its exit hangs the terminal up, and a child
 * could write nothing after it.
 */
void
title_close(struct title *t)
{
	if (!t->window || term_title_end(&t->term))
		return;
	if (getsid(0) == getpid())
		term_title_end_waiting(&t->term);
	else
		put_back_later(t);
}
