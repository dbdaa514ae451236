/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The renderer: a pure function from the transfer's state, a width and
 * the terminal's capabilities to the bytes of one status line.
 */
#ifndef TACH_RENDER_H
#define TACH_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

/* The widest line drawn: -w above it is refused, a wider terminal cut. */
#define RENDER_WIDTH_MAX	1000
/* Enough for any line of width columns, colour sequences included. */
#define RENDER_BUFSIZE(width)	((size_t)(width) * 4 + 256)

/*
 * -u: how the bar fills: whole blocks and eighths of one (the default),
 * "=>", or whole blocks and shades.  Without UTF-8, "=>" whatever it says.
 */
enum render_style { RENDER_BLOCK, RENDER_PLAIN, RENDER_SHADED };

struct render_caps {
	bool		 utf8;		/* eighth blocks, UTF-8 in the prefix */
	const char	*colour_on;	/* before the bar's filled part, or "" */
	const char	*colour_off;	/* after it, or "" */
	enum render_style style;	/* -u */
};

/*
 * What the amounts count: bytes, --line-mode's records, --bits, or bytes
 * in powers of 1000 (-k).
 */
enum render_unit { RENDER_BYTES, RENDER_LINES, RENDER_BITS, RENDER_SI };

struct render_state {
	const char	*prefix;	/* untrusted text, or NULL */
	uint64_t	 count;		/* moved: bytes, or lines in line mode */
	uint64_t	 done;		/* progress toward size, same units */
	enum render_unit unit;		/* what the amounts show */
	uint64_t	 size;		/* 0: unknown */
	double		 rate;		/* current, count per second */
	bool		 gauge;		/* -g: no size, a bar of rate_max's */
	bool		 one_look;	/* --once: a position, no rate */
	bool		 whose_file;	/* -d's "cp 4242: /dir/file" prefix:
					   its process and file kept whole */
	double		 rate_max;	/* the highest rate so far */
	const unsigned char *last;	/* -A: the last bytes written, or NULL */
	size_t		 last_len;
	const unsigned char *line;	/* %{previous-line}, or NULL */
	size_t		 line_len;
	bool		 sparse;	/* -O: holes shows */
	uint64_t	 holes;		/* -O: bytes of count left as holes */
	double		 rate_in;	/* the input's, with a buffer; else rate */
	bool		 buffered;	/* -b's buffer: rate_in, waiting its fill */
	double		 average;	/* since the start */
	double		 elapsed;	/* seconds */
	double		 eta;		/* seconds left, or < 0 if unknown */
	double		 ratio;		/* -M: out's bytes over in's, */
	bool		 ratio_known;	/* once in has some */
	const char	*note;		/* the bottleneck, or NULL */
	/*
	 * the note says what the line is doing ("flushing"): it outranks
	 * every field but the percentage and the bar, and no ETA is shown
	 */
	bool		 note_urgent;
	const char	*name;		/* -N, untrusted, or NULL: for %N */
	double		 wall;		/* seconds since the epoch: for %I */
	int		 waiting;	/* input queued, % of the buffer, or -1 */
	bool		 stalled;
	bool		 final;		/* the closing line: totals */
	unsigned	 phase;		/* moves the activity indicator */
	int		 time_cols;	/* durations padded to it, 7 or more */
};

/*
 * Writes one line of exactly width - 1 columns (the last column is left
 * alone so no terminal wraps) into buf, NUL-terminated; returns its length
 * in bytes.  buflen must be at least RENDER_BUFSIZE(width).
 */
size_t	render_line(const struct render_state *s, int width,
	    const struct render_caps *caps, char *buf, size_t buflen);
/*
 * -F: the line laid out by format, pv's tokens: %p bar (and percentage),
 * %t elapsed, %e time left, %I time of day it ends, %r rate, %a average,
 * %b bytes, %T input queued for tach, %N name, %% a percent sign; or
 * %{progress}, %{timer}, %{eta}, %{fineta}, %{rate}, %{average-rate},
 * %{bytes}, %{buffer-percent}, %{name}, and %{rate-in} and %{rate-out}
 * (a buffer's sides; rate_in is rate without one); %A %{last-written},
 * the last bytes written, each one not printable ASCII a dot, and %L
 * %{previous-line}, the last whole line, escaped like a prefix; %{ratio},
 * cmd's output over its input (-M).  Other text is drawn
 * as it is, escaped like a prefix.  The bars share the room the rest
 * leaves.  The same contract as render_line: exactly width - 1 columns.
 */
size_t	render_format(const struct render_state *s, const char *format,
	    int width, const struct render_caps *caps, char *buf,
	    size_t buflen);
/*
 * -n with -F: the format's tokens as plain numbers, into buf (no newline):
 * %p the percentage (the amount while no size is known), %b the amount
 * (in bits with RENDER_BITS, as %r and %a),
 * %t seconds elapsed, %e seconds left, %I the second it ends (since the
 * epoch), %r and %a per second, %T the queue's percentage; "-" for one
 * not known yet.  %N and other text are escaped as in a line.  Returns
 * the length.
 */
size_t	render_numeric(const struct render_state *s, bool size_known,
	    const char *format, bool utf8, char *buf, size_t buflen);
/*
 * Checks a -F format: false, with the reason in msg, when it has a token
 * render_format does not know, or no field at all ("xml").
 */
bool	render_format_check(const char *format, char *msg, size_t msglen);
/*
 * -x: the state as a window's or process's title, one line, no control
 * characters: "name: 42% 1.20 GiB 120 MiB/s ETA 0:01:00", or the
 * closing "100% 5.00 GiB avg 120 MiB/s in 0:00:42"; or format's fields
 * as -F lays them out in 100 columns, the blanks around cut.  Returns the
 * length; buflen must be at least RENDER_BUFSIZE(100).
 */
size_t	render_title(const struct render_state *s, const char *format,
	    char *buf, size_t buflen);
/* What a format (or NULL) shows of the bytes written: %A, %L. */
#define RENDER_SEES_LAST	0x1
#define RENDER_SEES_LINE	0x2
#define RENDER_SEES_RATIO	0x4	/* %{ratio}: both of cmd's sides */
unsigned render_format_sees(const char *format);
/*
 * Whether a copy that sees seen (RENDER_SEES_LINE in line mode, with -A
 * RENDER_SEES_LAST too) can draw format; else msg says what it lacks.
 */
bool	render_format_seen(const char *format, unsigned seen, char *msg,
	    size_t msglen);
/* "1.50 MiB": three significant digits and an IEC unit. */
void	render_iec(double value, char *buf, size_t buflen);
/*
 * An amount of unit: render_iec's bytes, "1.50M lines", bits from a
 * value in bytes, with SI prefixes as link speeds are quoted: "12.0 Mb",
 * or -k's bytes: "1.50 MB".
 */
void	render_amount(double value, enum render_unit unit, char *buf,
	    size_t buflen);
/* "1:02:03", or "2d 01:02:03" past a day. */
void	render_duration(double seconds, char *buf, size_t buflen);
/*
 * The columns the durations of s need, or cols if it is more: kept across
 * a run as time_cols, so that neither time moves what follows it when it
 * widens past 10 hours or a day, nor when the time left shrinks back.
 * Only widths up to ten days' are kept; a longer time is drawn wider.
 */
int	render_time_cols(const struct render_state *s, int cols);

#endif
