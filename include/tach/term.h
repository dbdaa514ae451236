/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The terminal layer: terminfo through setupterm() on the display
 * descriptor (never initscr(): stdout may carry the data), with a plain
 * carriage return and padding where terminfo knows nothing.
 */
#ifndef TACH_TERM_H
#define TACH_TERM_H

#include <stdbool.h>
#include <stddef.h>

#define TERM_CAP_MAX 64
/* One frame: a line of RENDER_WIDTH_MAX columns and its sequences. */
#define TERM_FRAME_MAX 8192

struct terminal {
	int	fd;
	int	cols;			/* terminfo's, or 0 */
	int	rows;			/* terminfo's, or 0 */
	char	cr[TERM_CAP_MAX];
	char	el[TERM_CAP_MAX];	/* clear to end of line, or "" */
	char	ed[TERM_CAP_MAX];	/* clear to end of screen, or "" */
	char	colour_on[TERM_CAP_MAX];
	char	colour_off[TERM_CAP_MAX];
	char	sc[TERM_CAP_MAX];	/* save the cursor, or "" */
	char	rc[TERM_CAP_MAX];	/* restore it, or "" */
	char	cup[TERM_CAP_MAX];	/* move it: unexpanded, for tiparm */
	char	csr[TERM_CAP_MAX];	/* scrolling region: unexpanded */
	char	cuu1[TERM_CAP_MAX];	/* up a row, or "" */
	char	tsl[TERM_CAP_MAX];	/* -x: into the title, or "" */
	char	fsl[TERM_CAP_MAX];	/* and out of it */
	bool	title_stack;		/* xterm's: titles pushed, popped */
	bool	title_pushed;		/* the user's, by term_title */
	/*
	 * 0 while data moves: a frame the terminal cannot take at once is
	 * dropped.  Then, until when the last ones may wait for it.
	 */
	double	deadline;
};

/*
 * A capability with numeric parameters (cup, csr, setaf) expanded, its
 * padding left out (valid until the next call), or NULL when the entry
 * reads a parameter as a string or has a % sequence terminfo does not
 * define.
 */
const char *term_param(const char *cap, int p1, int p2);
/*
 * Reads the terminal's capabilities; colour only if wanted and possible.
 * The cursor is never hidden: tach may be reading what the user types,
 * and a kill -9 would leave it hidden.
 */
void	term_open(struct terminal *t, int fd, bool colour);
/* Columns: the window's size, else terminfo's, else 80. */
int	term_width(const struct terminal *t);
/* Rows: the window's size, else terminfo's, else 0 (unknown). */
int	term_height(const struct terminal *t);
/*
 * Draws the line up rows higher (t->cuu1 must not be "" for up > 0), or
 * on the next row if down, in one write.
 */
void	term_draw_at(const struct terminal *t, int up, bool down,
	    const char *line, size_t len);
/*
 * Whether a frame may be written now: the terminal takes it at once, or
 * takes it before t->deadline.  One that stopped reading (^S, a stalled
 * ssh) loses the frame, so the display never holds the data or the exit.
 */
bool	term_ready(const struct terminal *t);
/*
 * -x: sets the window's title to text (printable), if the terminal has
 * one: a status line in terminfo (hs, tsl, fsl), or, where TERM names an
 * xterm-like terminal, xterm's title sequence, the old title pushed on
 * xterm's stack the first time.  False where there is none.  Like a
 * frame, one a stopped terminal cannot take is dropped.
 */
bool	term_title(struct terminal *t, const char *text);
/*
 * -x: the title as it was before term_title, where the terminal keeps
 * it.  False when a terminal that stopped reading (^S) has no room for
 * it now: term_title_end_waiting, in a process that may wait, writes it.
 */
bool	term_title_end(struct terminal *t);
void	term_title_end_waiting(struct terminal *t);
/*
 * Writes raw bytes, ignoring errors; an interrupted write (the redraw
 * timer) loses the rest of the frame.
 */
void	term_write(const struct terminal *t, const char *s, size_t len);

#endif
