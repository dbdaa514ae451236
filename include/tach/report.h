/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The reporter: the one output layer of the copy (session.c) and of watch
 * mode (watch.c).  It takes the state of each line as numbers and text
 * and writes it as a bar (one line, or a stacked block redrawn in place),
 * as -n percentages, as JSON objects, and as the --stats and SIGUSR1
 * lines on stderr.  Every untrusted string goes through text.h.
 */
#ifndef TACH_REPORT_H
#define TACH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tach/cursor.h"
#include "tach/message.h"
#include "tach/fill.h"
#include "tach/render.h"
#include "tach/stats.h"
#include "tach/term.h"

/*
 * How a line looks, as the command line asked, for every way of drawing
 * one (a copy's, a watch's, -Q's): the top fills it from its options.
 */
struct report_look {
	const char	*name;		/* -N, or NULL */
	const char	*prefix;	/* -p, or NULL */
	const char	*format;	/* -F's layout, or NULL */
	enum render_style bar_style;	/* -u */
	enum render_unit unit;		/* bytes, or bits (-8) */
	int		 width;		/* -w; 0: the terminal's */
	bool		 numeric;	/* -n */
	bool		 json;		/* --format json */
	bool		 force;		/* --force */
	bool		 gauge;		/* -g */
	bool		 cursor;	/* -c */
	bool		 stats;		/* --stats */
	double		 interval;	/* -i: seconds between redraws */
	double		 average_window; /* -m: seconds, or 0: the run */
};

/* Several -o: one output's share of the copy, for JSON. */
struct report_output {
	const char		*name;
	uint64_t		 bytes;		/* it took */
	int			 error;		/* errno it failed with, or 0 */
};

/* --hash: one algorithm's digest of the whole stream, for JSON. */
struct report_hash {
	const char		*alg;
	const char		*hex;
};

/* One line's state, for -n and JSON. */
struct report_line {
	struct render_state	 state;		/* what the bar shows */
	uint64_t		 bytes;		/* state.count counts lines
						   in line mode; this, bytes */
	bool			 size_known;	/* size 0 is empty, not unknown */
	bool			 buffered;	/* -b as a buffer: fill is its */
	struct relay_fill	 fill;
	const char		*result;	/* the closing object's, or NULL */
	const char		*reason;	/* a failed end's, or NULL */
	long			 pid;		/* -d: the process, or 0 */
	const char		*command;	/* -d NAME: its name, or NULL */
	int			 fd;		/* -d: the descriptor */
	const char		*path;		/* -d: the file, or NULL */
	bool			 numeric_fd;	/* -n lines start with fd */
	bool			 numeric_pid;	/* ... and before it, the pid */
	bool			 between_samples; /* -d: closed, seen once */
	double			 sample_age;	/* -d: its last, at the end; or -1 */
	const struct report_output *outputs;	/* several -o, or NULL */
	size_t			 noutputs;
	const struct report_hash *hashes;	/* --hash, final only */
	size_t			 nhashes;
	const char		*side;		/* -M: "in" or "out", or NULL */
	long			 fed_by;	/* -d: fd 0 a pipe from this
						   process's file, or 0 */
	bool			 whole;		/* -d: a tree's whole copy */
	uint64_t		 files;		/* its files done, */
	bool			 files_known;	/* if watched from its start, */
	uint64_t		 files_total;	/* of these */
	bool			 on_device_known; /* a disk's own count: */
	uint64_t		 on_device;	/* bytes it has written */
};

/* -d --pipeline: one stage's JSON object. */
struct report_stage {
	size_t			 stage;		/* 0: the first, upstream */
	long			 pid;
	const char		*command;
	double			 elapsed;
	uint64_t		 bytes_in, bytes_out;
	double			 rate_in, rate_out;
	bool			 known;		/* the shares, once a window */
	double			 working;	/* shares of the window */
	double			 waiting_in, waiting_out, waiting_disk;
	bool			 bottleneck;
	uint64_t		 done, size;	/* the pipeline's; size 0:
						   not known */
	double			 eta;		/* or < 0 */
	bool			 final;
	const char		*result;	/* the closing object's */
};

struct reporter {
	bool			 active;	/* drawing the bar */
	bool			 tty;		/* the display is a terminal */
	bool			 forced;	/* --force */
	bool			 pinning;	/* -c: on a row of its own */
	bool			 claimed;	/* -c: and asked for it */
	enum cursor_claim	 claim;		/* -c: what it got */
	struct pin		 pin;
	char			*pinned;	/* -c: the lines last drawn, */
	size_t			 pinned_len;	/* newline between each */
	size_t			 pinned_room;
	int			 rows;		/* rows drawn on screen now */
	size_t			 len;		/* the last line drawn */
	int			 time_cols;	/* the widest time drawn */
	uint64_t		 last_frame;	/* --force lines: its hash */
	uint64_t		 frames;	/* --force lines: written */
	size_t			 held_len;	/* --force lines: a live */
	bool			 holding;	/* frame at 100%, held back */
	uint64_t		 held_done;	/* ... and its count, */
	double			 held_at;	/* since when, */
	uint64_t		 spent_done;	/* a count held once */
	bool			 told_first_only; /* no cuu1: said so */
	int			 width;		/* -w, or 0 */
	const char		*format;	/* -F, or NULL */
	struct terminal		 term;
	struct render_caps	 caps;
	char			 line[RENDER_BUFSIZE(RENDER_WIDTH_MAX)];
	char			 held[RENDER_BUFSIZE(RENDER_WIDTH_MAX)];
};

/*
 * Draws on fd if draw is asked and fd is a terminal (or forced: then
 * plain lines, with no escape sequences, where fd is not a terminal); the
 * terminal's capabilities are read only then.
 */
void	report_open(struct reporter *r, int fd, bool draw, bool forced,
	    int width, const char *format, enum render_style style);
/* -c: the line goes on a row of its own, taken at the first frame. */
void	report_pin(struct reporter *r);
/*
 * How many of a block's lines report_draw can show: on a terminal, no
 * more than its window holds; SIZE_MAX elsewhere.  A caller with
 * thousands need make no more.
 */
size_t	report_rows(const struct reporter *r);
/*
 * Draws n lines (0 draws one empty line), stacked and redrawn in place;
 * nothing from a background job.  A terminal that cannot move up shows
 * the first only, and the block never grows past the window.
 */
void	report_draw(struct reporter *r, const struct render_state *lines,
	    size_t n);
/* Seconds the last frames may wait for a terminal that stopped reading. */
#define REPORT_PATIENCE	1.0
/*
 * The data has all moved: the last frames and report_end may wait up to
 * REPORT_PATIENCE for the terminal, then are dropped.  Stop the timer
 * with signals_timer(0) after report_end.
 */
void	report_closing(struct reporter *r);
/* Ends the block on screen; -c's row is given back. */
void	report_end(struct reporter *r);
/*
 * Clears the bar's row and leaves the cursor at its start: what another
 * program writes next starts there, and the next frame follows it.
 */
void	report_clear(struct reporter *r);
/*
 * Ends the bar's line, so that what another program writes next starts
 * on a line of its own; the next frame starts below.  -c's row stays.
 */
void	report_newline(struct reporter *r);
/* ^Z: -c's row given back, the process stopped; the seconds stopped. */
double	report_suspend(struct reporter *r);

/*
 * -n: a whole percentage a line, or the amount where the size is unknown;
 * with -F, its fields as numbers (render_numeric).
 */
void	report_numeric(const struct reporter *r, const struct report_line *l);
/* --format json: one object a line on stderr. */
void	report_json(const struct report_line *l);
/* A --pipeline stage's JSON object, a line on stderr. */
void	report_stage_json(const struct report_stage *s);
/*
 * --log: the columns' names, then a row a line of l's numbers (a column
 * that does not apply left empty); false when f took neither.
 */
bool	report_csv_header(FILE *f);
bool	report_csv(FILE *f, const struct report_line *l);
/*
 * --stats: "[whose: ]N bytes in T s, R/s[, tail]" on stderr: N lines in
 * lines; with bits, the rate in bits.
 */
void	report_moved(const char *whose, uint64_t count, enum render_unit unit,
	    double t, const char *tail);
/*
 * --stats: the per-interval rates' summary line on stderr, for whose;
 * when stderr is a UTF-8 terminal, their sparkline too, as wide as r's.
 */
void	report_rates(const struct reporter *r, const char *whose,
	    struct stats_intervals *rates, double interval,
	    enum render_unit unit);
/* The line's label: "NAME: " (-N), a file's name, then -p's text. */
char	*report_label(const char *name, const char *file, const char *prefix);

#endif
