/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The renderer.  Fields are laid out left to right; when the width is
 * short, the least important are dropped first, and the bar (or the
 * activity indicator) takes whatever room is left.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "tach/render.h"
#include "tach/text.h"

#define FIELD_MAX	264	/* -A's 256 bytes, and a space */
#define BAR_MIN		8	/* brackets included */
#define PREFIX_MAX	256	/* escaped prefix, in bytes, before cutting */
#define NOTE_PRIORITY	2	/* the lowest: a live line's note goes first */
#define FINAL_NOTE_PRIORITY 9	/* a closing line's says why it is short */
#define URGENT_NOTE_PRIORITY 9	/* "flushing": the line is not hung */
#define PREFIX_COLS_MIN	10	/* a long prefix keeps this much, at least */

enum kind { TEXT, BAR, ACTIVITY };

struct field {
	enum kind	kind;
	int		priority;	/* higher is kept longer */
	int		cols;		/* width; the minimum for BAR, ACTIVITY */
	char		text[FIELD_MAX];
};

struct out {
	char	*p;
	char	*end;
};

static void
out_put(struct out *o, const char *s, size_t len)
{
	if (len > (size_t)(o->end - o->p))
		len = (size_t)(o->end - o->p);
	memcpy(o->p, s, len);
	o->p += len;
}

static void
put_repeat(struct out *o, const char *s, int times)
{
	for (int i = 0; i < times; i++)
		out_put(o, s, strlen(s));
}

void
render_iec(double value, char *buf, size_t buflen)
{
	static const char *units[] = { "KiB", "MiB", "GiB", "TiB", "PiB",
	    "EiB" };
	int u = -1;

	if (!(value >= 0))
		value = 0;
	/* a value that would print as 1024 goes up a unit: 1.00 MiB */
	if (value < 1023.5) {
		snprintf(buf, buflen, "%.0f B", value);
		return;
	}
	while (value >= 1023.5 && u < 5) {
		value /= 1024;
		u++;
	}
	if (value < 9.995)
		snprintf(buf, buflen, "%.2f %s", value, units[u]);
	else if (value < 99.95)
		snprintf(buf, buflen, "%.1f %s", value, units[u]);
	else
		snprintf(buf, buflen, "%.0f %s", value, units[u]);
}

void
render_amount(double value, enum render_unit unit, char *buf, size_t buflen)
{
	static const char units[] = "kMGTPE";
	const char *sep = unit == RENDER_LINES ? "" : " ";
	const char *name = unit == RENDER_BITS ? "b" : unit == RENDER_SI ?
	    "B" : " lines";
	int u = -1;

	if (unit == RENDER_BYTES) {
		render_iec(value, buf, buflen);
		return;
	}
	if (!(value >= 0))
		value = 0;
	if (unit == RENDER_BITS)
		value *= 8;
	while (value >= 999.5 && u < 5) {
		value /= 1000;
		u++;
	}
	if (u == -1)
		snprintf(buf, buflen, "%.0f%s%s", value, sep, name);
	else
		snprintf(buf, buflen, "%.*f%s%c%s", value < 9.995 ? 2 :
		    value < 99.95 ? 1 : 0, value, sep, units[u], name);
}

void
render_duration(double seconds, char *buf, size_t buflen)
{
	unsigned long long s, days;

	if (!(seconds >= 0) || seconds > 1e12) {
		snprintf(buf, buflen, "-:--:--");
		return;
	}
	s = (unsigned long long)seconds;
	days = s / 86400;
	if (days > 0)
		snprintf(buf, buflen, "%llud %02llu:%02llu:%02llu", days,
		    s / 3600 % 24, s / 60 % 60, s % 60);
	else
		snprintf(buf, buflen, "%llu:%02llu:%02llu", s / 3600,
		    s / 60 % 60, s % 60);
}

/* The columns a duration is padded to: "0:00:00", or the widest so far. */
static int
time_cols(const struct render_state *s)
{
	return s->time_cols > 7 ? s->time_cols : 7;
}

/*
 * Up to "9d 23:59:59": a wild first estimate of the time left, months
 * off, would otherwise narrow the bar for the whole run.
 */
#define TIME_COLS_KEPT	11

int
render_time_cols(const struct render_state *s, int cols)
{
	char num[32];
	int len;

	render_duration(s->elapsed, num, sizeof(num));
	if ((len = (int)strlen(num)) > cols && len <= TIME_COLS_KEPT)
		cols = len;
	if (s->eta >= 0 && !s->final) {
		render_duration(ceil(s->eta), num, sizeof(num));
		if ((len = (int)strlen(num)) > cols && len <= TIME_COLS_KEPT)
			cols = len;
	}
	return cols;
}

/*
 * The columns of the widest amount, "1023 KiB", "1.00k lines" or
 * "1.00 kb": every number is padded to it, so that no field changes its
 * width as values cross a unit (pv's tests for Debian bug 586763).
 */
static int
amount_cols(enum render_unit unit)
{
	return unit == RENDER_LINES ? 11 : unit == RENDER_BITS ||
	    unit == RENDER_SI ? 7 : 8;
}

/*
 * An amount, or with per "/s" a rate, right-aligned at the width of the
 * widest after the label before, which stays where it is.
 */
static void
steady_amount(double value, enum render_unit unit, const char *before,
    const char *per, char *buf, size_t buflen)
{
	char num[32], txt[40];

	render_amount(value, unit, num, sizeof(num));
	snprintf(txt, sizeof(txt), "%s%s", num, per);
	snprintf(buf, buflen, "%s%*s", before, amount_cols(unit) +
	    (int)strlen(per), txt);
}

static void
add_field(struct field *f, int *n, enum kind kind, int priority,
    const char *fmt, const char *arg)
{
	struct field *x = &f[(*n)++];

	x->kind = kind;
	x->priority = priority;
	snprintf(x->text, sizeof(x->text), fmt, arg);
	x->cols = kind == TEXT ? (int)strlen(x->text) : BAR_MIN;
}

/*
 * How full the bar is: done of size, or -g's rate of the highest seen;
 * -1: no bar (the activity indicator while live).
 */
static double
bar_fill(const struct render_state *s)
{
	if (s->size > 0)
		return (double)s->done / (double)s->size;
	if (s->gauge && !s->final) {
		double f = s->rate_max > 0 ? s->rate / s->rate_max : 0;

		return f > 1 ? 1 : f >= 0 ? f : 0;	/* NaN too */
	}
	return -1;
}

/* The whole percent beside it, computed as progress(1) does with a size. */
static int
bar_percent(const struct render_state *s, double fill)
{
	double pct = s->size > 0 ? (double)s->done * 100 / (double)s->size :
	    fill * 100;

	return pct > 100 ? 100 : (int)pct;
}

static void
draw_bar(struct out *o, double fraction, int cols,
    const struct render_caps *caps)
{
	static const char *eighths[] = { "", "\xe2\x96\x8f", "\xe2\x96\x8e",
	    "\xe2\x96\x8d", "\xe2\x96\x8c", "\xe2\x96\x8b", "\xe2\x96\x8a",
	    "\xe2\x96\x89" };
	static const char *shades[] = { "", "\xe2\x96\x91", "\xe2\x96\x92",
	    "\xe2\x96\x93" };
	bool plain = !caps->utf8 || caps->style == RENDER_PLAIN;
	const char **parts = caps->style == RENDER_SHADED ? shades : eighths;
	int cells = cols - 2, steps = parts == shades ? 4 : 8, full, part;
	long long units;

	if (!(fraction > 0))
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	units = (long long)(fraction * cells * steps);
	full = (int)(units / steps);
	part = (int)(units % steps);
	out_put(o, "[", 1);
	out_put(o, caps->colour_on, strlen(caps->colour_on));
	if (!plain) {
		put_repeat(o, "\xe2\x96\x88", full);
		if (part > 0)
			out_put(o, parts[part], 3);
	} else {
		put_repeat(o, "=", full);
		if (full < cells)
			out_put(o, part > 0 ? ">" : " ", 1);
	}
	out_put(o, caps->colour_off, strlen(caps->colour_off));
	put_repeat(o, " ", cells - full - (part > 0 || (plain &&
	    full < cells) ? 1 : 0));
	out_put(o, "]", 1);
}

/* A "<=>" that bounces from side to side. */
static void
draw_activity(struct out *o, const struct render_state *s, int cols)
{
	int cells = cols - 2, span = cells - 3, at = 0;

	if (span > 0 && !s->final) {
		at = (int)(s->phase % (unsigned)(2 * span));
		if (at > span)
			at = 2 * span - at;
	}
	out_put(o, "[", 1);
	if (span >= 0 && !s->final) {
		put_repeat(o, " ", at);
		out_put(o, "<=>", 3);
		put_repeat(o, " ", cells - at - 3);
	} else
		put_repeat(o, " ", cells);
	out_put(o, "]", 1);
}

/*
 * The most a line has: -A's bytes, its bar, amounts, -O's holes, a
 * buffer's three, times, note.
 */
#define FIELDS_MAX	13

/*
 * -A's bytes as text, as pv and hexdump show them: printable ASCII as it
 * is, any other byte a dot, so each is one column and none a control.
 */
static void
dotted(const unsigned char *data, size_t len, char *buf, size_t buflen)
{
	size_t i;

	for (i = 0; i < len && i + 1 < buflen; i++)
		buf[i] = data[i] >= 0x20 && data[i] < 0x7f ? (char)data[i] :
		    '.';
	buf[i] = '\0';
}

/* A running line's rates: a buffer's two sides and its fill, or one. */
static int
rate_fields(const struct render_state *s, struct field *f, int n)
{
	char txt[40];

	/* a buffer's sides apart: "in 128 MiB/s out 56.9 MiB/s buf 73%" */
	if (s->buffered) {
		steady_amount(s->rate_in, s->unit, "in ", "/s", txt,
		    sizeof(txt));
		add_field(f, &n, TEXT, 5, "%s", txt);
	}
	steady_amount(s->rate, s->unit, s->buffered ? "out " : "", "/s", txt,
	    sizeof(txt));
	if (s->stalled)
		snprintf(txt, sizeof(txt), "%s%*s", s->buffered ? "out " : "",
		    amount_cols(s->unit) + 2, "stalled");
	add_field(f, &n, TEXT, 7, "%s", txt);
	if (s->buffered) {
		snprintf(txt, sizeof(txt), "buf %3d%%", s->waiting);
		add_field(f, &n, TEXT, 6, "%s", txt);
	}
	return n;
}

/* The fields, in the order they stand on the line. */
static int
fields_of(const struct render_state *s, int avail, struct field *f)
{
	char num[32], txt[40], last[FIELD_MAX];
	int n = 0;
	bool known = s->size > 0;
	double fill = bar_fill(s);
	size_t shown;

	/* -A's bytes, the latest kept, in a third of the line at most */
	if (s->last != NULL) {
		shown = s->last_len;
		if (avail > 0 && shown > (size_t)avail / 3)
			shown = (size_t)avail / 3;
		dotted(s->last + s->last_len - shown, shown, last,
		    sizeof(last));
		add_field(f, &n, TEXT, 7, "%s", last);
	}

	if (fill >= 0) {
		snprintf(txt, sizeof(txt), "%3d%%", bar_percent(s, fill));
		add_field(f, &n, TEXT, 10, "%s", txt);
		add_field(f, &n, BAR, 8, "%s", "");
	}
	steady_amount((double)s->count, s->unit, "", "", txt, sizeof(txt));
	add_field(f, &n, TEXT, known && !s->final ? 6 : 9, "%s", txt);
	/* of them, left as holes: in bytes, whatever the line counts */
	if (s->sparse) {
		steady_amount((double)s->holes, s->unit == RENDER_LINES ?
		    RENDER_BYTES : s->unit, "holes ", "", txt, sizeof(txt));
		add_field(f, &n, TEXT, s->final ? 6 : 2, "%s", txt);
	}
	if (!s->final)
		n = rate_fields(s, f, n);
	if (!s->one_look) {
		steady_amount(s->average, s->unit, "avg ", "/s", txt,
		    sizeof(txt));
		add_field(f, &n, TEXT, s->final ? 8 : 3, "%s", txt);
	}
	render_duration(s->elapsed, num, sizeof(num));
	snprintf(txt, sizeof(txt), "%*s", time_cols(s), num);
	add_field(f, &n, TEXT, s->final ? 7 : 4, "%s", txt);
	if (known && !s->final && !s->note_urgent) {
		/*
		 * rounded up: never 0:00:00 while bytes remain; past the
		 * size, not known, but the field keeps its place
		 */
		render_duration(s->done < s->size ? ceil(s->eta) : -1, num,
		    sizeof(num));
		snprintf(txt, sizeof(txt), "ETA %*s", time_cols(s), num);
		add_field(f, &n, TEXT, 9, "%s", txt);
	}
	if (fill < 0 && !s->final)
		add_field(f, &n, ACTIVITY, 5, "%s", "");
	if (s->note != NULL)
		add_field(f, &n, TEXT, s->final ? FINAL_NOTE_PRIORITY :
		    s->note_urgent ? URGENT_NOTE_PRIORITY : NOTE_PRIORITY, "%s",
		    s->note);
	return n;
}

/*
 * Drops the least important fields until the rest fit in avail columns
 * beside the prefix; returns the columns used.
 */
static int
fit(const struct field *f, int n, int prefix_cols, int avail, bool *keep)
{
	int used, i, lowest;

	for (i = 0; i < n; i++)
		keep[i] = true;
	for (;;) {
		used = prefix_cols;
		for (i = 0; i < n; i++)
			if (keep[i])
				used += f[i].cols + (used > 0 ? 1 : 0);
		if (used <= avail)
			break;
		for (lowest = -1, i = 0; i < n; i++)
			if (keep[i] && (lowest == -1 ||
			    f[i].priority < f[lowest].priority))
				lowest = i;
		if (lowest == -1)
			return used;
		keep[lowest] = false;
	}
	/* a wide field let go may leave room for smaller ones it pushed out */
	for (i = 0; i < n; i++)
		if (!keep[i] && used + f[i].cols + (used > 0 ? 1 : 0) <= avail) {
			keep[i] = true;
			used += f[i].cols + (used > 0 ? 1 : 0);
		}
	return used;
}

/*
 * Of a label "NAME PID: /dir/file", the columns its start takes through
 * the ": " (0 if it has none), and in *tail those of "/file".
 */
static int
kept_ends(const char *label, const struct render_caps *caps, int *tail)
{
	const char *colon = strstr(label, ": "), *slash = strrchr(label, '/');
	char buf[4 * PREFIX_MAX];
	size_t len;

	*tail = 0;
	if (colon == NULL || slash == NULL || slash < colon)
		return 0;
	*tail = text_escape(slash, caps->utf8, INT_MAX, buf, sizeof(buf),
	    &len);
	snprintf(buf, sizeof(buf), "%.*s", (int)(colon + 2 - label), label);
	return text_escape(buf, caps->utf8, INT_MAX, buf + strlen(buf) + 1,
	    sizeof(buf) - strlen(buf) - 1, &len);
}

/*
 * The prefix, escaped, in at most room columns; returns its columns.  A
 * prefix too long loses its middle, so that a name and the end of a path
 * (the file's name) both stay.
 */
static int
prefix_of(const struct render_state *s, const struct render_caps *caps,
    int room, char *buf, size_t buflen, size_t *len, bool *cut)
{
	const char *dots = caps->utf8 ? "\xe2\x80\xa6" : "...";
	int cols = 0, dots_cols = caps->utf8 ? 1 : 3, head, must, tail_cols;
	size_t tail_len;

	*len = 0;
	*cut = false;
	if (s->prefix == NULL || *s->prefix == '\0' || room <= 0)
		return 0;
	/* whole, unless the buffer ends first: then it is cut anyway */
	cols = text_escape(s->prefix, caps->utf8, INT_MAX, buf, buflen, len);
	*cut = cols > room || *len + sizeof("\\xHH") >= buflen;
	if (*cut && room > dots_cols + 2) {
		/* a third for the start, the rest for the end */
		head = (room - dots_cols) / 3;
		must = s->whose_file ? kept_ends(s->prefix, caps,
		    &tail_cols) : 0;
		/*
		 * "cp 4242: /data/…/big.iso": the process and the file's
		 * name both whole where they fit, a directory's middle lost
		 */
		if (must > 0 && must + dots_cols + tail_cols <= room)
			head = must + (room - must - dots_cols - tail_cols) / 2;
		/* half the buffer at most, so the dots and the end fit */
		cols = text_escape(s->prefix, caps->utf8, head, buf, buflen / 2,
		    len);
		memcpy(buf + *len, dots, strlen(dots));
		*len += strlen(dots);
		cols += dots_cols + text_escape_tail(s->prefix, caps->utf8,
		    room - cols - dots_cols, buf + *len, buflen - *len,
		    &tail_len);
		*len += tail_len;
	} else if (*cut)
		cols = text_escape_tail(s->prefix, caps->utf8, room, buf,
		    buflen, len);
	/* "copy: " needs no second space before the next field */
	if (*len > 0 && buf[*len - 1] == ' ') {
		(*len)--;
		cols--;
	}
	return cols;
}

/*
 * The columns the prefix may have: what all the fields leave (the bar
 * at its narrowest), so a long name is shortened before a field is
 * dropped; at least PREFIX_COLS_MIN, never crowding out the first field.
 */
static int
prefix_room(const struct render_state *s, const struct render_caps *caps,
    const struct field *f, int n, int avail)
{
	int fields = 0, room, must, tail;

	/* a note ("flushing", a sample's age) is the first to go: not it */
	for (int i = 0; i < n; i++)
		if (f[i].priority > NOTE_PRIORITY)
			fields += f[i].cols + 1;
	room = avail - fields;
	if (room < PREFIX_COLS_MIN)
		room = PREFIX_COLS_MIN;
	/* -d's "cp 4242: …/big.iso" whole, in half the line at most */
	if (s->whose_file && s->prefix != NULL &&
	    (must = kept_ends(s->prefix, caps, &tail)) > 0 &&
	    (must += tail + (caps->utf8 ? 1 : 3)) > room && must <= avail / 2)
		room = must;
	if (n > 0 && room > avail - (f[0].cols + 1))
		room = avail - (f[0].cols + 1);
	return room;
}

/*
 * The columns a live line's bar gets beyond its narrowest, of the extra
 * the last line has: that line drops the rate and the time left, and
 * its bar would otherwise widen at the very end.
 */
static int
live_bar_extra(const struct render_state *s, int avail,
    const struct render_caps *caps, int extra)
{
	struct render_state live = *s;
	struct field f[FIELDS_MAX];
	char prefix[PREFIX_MAX];
	size_t prefix_len;
	int n, used, live_extra;
	bool keep[FIELDS_MAX], cut;

	live.final = false;
	live.eta = 0;
	n = fields_of(&live, avail, f);
	used = fit(f, n, prefix_of(&live, caps,
	    prefix_room(&live, caps, f, n, avail),
	    prefix, sizeof(prefix), &prefix_len, &cut), avail, keep);
	live_extra = avail - used;
	return live_extra < extra ? live_extra : extra;
}

size_t
render_line(const struct render_state *s, int width,
    const struct render_caps *caps, char *buf, size_t buflen)
{
	struct field f[FIELDS_MAX];
	struct out o = { buf, buf + buflen - 1 };
	char prefix[PREFIX_MAX];
	size_t prefix_len;
	int avail = width > 1 ? width - 1 : 0, n, i, extra, prefix_cols, used;
	int bar_extra;
	bool keep[FIELDS_MAX], first = true, cut;

	n = fields_of(s, avail, f);
	prefix_cols = prefix_of(s, caps, prefix_room(s, caps, f, n, avail),
	    prefix, sizeof(prefix), &prefix_len, &cut);
	used = fit(f, n, prefix_cols, avail, keep);
	/* what the fields kept leave goes to a cut prefix before the bar */
	if (cut && used < avail) {
		prefix_cols = prefix_of(s, caps, prefix_cols + avail - used,
		    prefix, sizeof(prefix), &prefix_len, &cut);
		used = fit(f, n, prefix_cols, avail, keep);
	}
	extra = avail - used;
	bar_extra = extra;
	/* the last line's bar as wide as the live ones: it must not jump */
	if (s->final && s->size > 0)
		bar_extra = live_bar_extra(s, avail, caps, extra);
	if (prefix_cols > 0) {
		out_put(&o, prefix, prefix_len);
		first = false;
	}
	for (i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		if (!first)
			out_put(&o, " ", 1);
		first = false;
		if (f[i].kind == TEXT)
			out_put(&o, f[i].text, strlen(f[i].text));
		else {
			if (f[i].kind == BAR)
				draw_bar(&o, bar_fill(s), f[i].cols + bar_extra,
				    caps);
			else
				draw_activity(&o, s, f[i].cols + bar_extra);
			extra -= bar_extra;
		}
	}
	put_repeat(&o, " ", extra > 0 ? extra : 0);
	*o.p = '\0';
	return (size_t)(o.p - buf);
}

/* -F's tokens: the letter, the long name, and what the field is. */
enum token { T_TEXT, T_BAR, T_TIMER, T_ETA, T_FINETA, T_RATE, T_AVERAGE,
    T_RATE_IN, T_RATE_OUT, T_BYTES, T_BUFFER, T_NAME, T_PERCENT, T_LAST,
    T_LINE, T_RATIO };

static const struct {
	char		 letter;
	const char	*name;
	enum token	 token;
} tokens[] = {
	{ 'p', "progress", T_BAR }, { 't', "timer", T_TIMER },
	{ 'e', "eta", T_ETA }, { 'I', "fineta", T_FINETA },
	{ 'r', "rate", T_RATE }, { 'a', "average-rate", T_AVERAGE },
	{ '\0', "rate-in", T_RATE_IN }, { '\0', "rate-out", T_RATE_OUT },
	{ 'b', "bytes", T_BYTES }, { 'T', "buffer-percent", T_BUFFER },
	{ 'N', "name", T_NAME }, { '%', "%", T_PERCENT },
	{ 'A', "last-written", T_LAST }, { 'L', "previous-line", T_LINE },
	{ '\0', "ratio", T_RATIO },
};

/*
 * The token at *p (just after a '%'); advances *p past it.  T_TEXT for
 * one that is not known.
 */
static enum token
token_at(const char **p)
{
	const char *s = *p, *close;
	size_t len;

	if (*s == '{' && (close = strchr(s, '}')) != NULL) {
		len = (size_t)(close - s - 1);
		for (size_t i = 0; i < sizeof(tokens) / sizeof(tokens[0]); i++)
			if (strlen(tokens[i].name) == len &&
			    strncmp(s + 1, tokens[i].name, len) == 0) {
				*p = close + 1;
				return tokens[i].token;
			}
		return T_TEXT;
	}
	for (size_t i = 0; i < sizeof(tokens) / sizeof(tokens[0]); i++)
		if (*s != '\0' && *s == tokens[i].letter) {
			*p = s + 1;
			return tokens[i].token;
		}
	return T_TEXT;
}

bool
render_format_check(const char *format, char *msg, size_t msglen)
{
	const char *p = format;
	bool fields = false;
	enum token t;

	while ((p = strchr(p, '%')) != NULL) {
		p++;
		if ((t = token_at(&p)) == T_TEXT) {
			snprintf(msg, msglen, "format `%s': unknown %%%.*s",
			    format, *p == '{' ? (int)strcspn(p, "}") + 1 : 1,
			    *p == '\0' ? "" : p);
			return false;
		}
		fields |= t != T_PERCENT;
	}
	/* a mistyped name, not a line of plain text */
	if (!fields)
		snprintf(msg, msglen, "format `%s': neither json nor a line "
		    "with a %%-field such as %%b", format);
	return fields;
}

unsigned
render_format_sees(const char *format)
{
	const char *p = format;
	unsigned seen = 0;
	enum token t;

	while (p != NULL && (p = strchr(p, '%')) != NULL) {
		p++;
		t = token_at(&p);
		seen |= t == T_LAST ? RENDER_SEES_LAST : t == T_LINE ?
		    RENDER_SEES_LINE : t == T_RATIO ? RENDER_SEES_RATIO : 0;
		if (t == T_TEXT && *p != '\0')
			p++;
	}
	return seen;
}

bool
render_format_seen(const char *format, unsigned seen, char *msg,
    size_t msglen)
{
	unsigned sees = render_format_sees(format);

	if ((sees & ~seen) == 0)
		return true;
	if ((sees & ~seen) & RENDER_SEES_RATIO)
		snprintf(msg, msglen, "%%{ratio} is cmd's output over its "
		    "input: give -M out or -M both, and a command");
	else if (!(seen & RENDER_SEES_LINE))
		snprintf(msg, msglen, "%s shows the bytes written, which tach "
		    "sees only in line mode (--line-mode, -0); elsewhere they "
		    "move without a copy", sees & RENDER_SEES_LAST ? "%A" :
		    "%L");
	else
		snprintf(msg, msglen, "%%A shows -A's last bytes: give -A N");
	return false;
}

/* %r and %{rate-out} are the output's rate, %a its average. */
static double
rate_of(const struct render_state *s, enum token t)
{
	return t == T_AVERAGE ? s->average : t == T_RATE_IN ? s->rate_in :
	    s->rate;
}

/* %I: when the copy should end, by the clock on the wall. */
static void
finish_time(const struct render_state *s, char *buf, size_t len)
{
	char when_text[32];
	time_t when;
	struct tm tm;

	/* within a year: further on, a time of day says little */
	if (s->eta >= 0 && s->eta < 366 * 86400.0 && !s->final &&
	    s->wall > 0 && s->wall < 1e11) {
		when = (time_t)(s->wall + ceil(s->eta));
		/* past six hours the day matters too, as pv says */
		if (localtime_r(&when, &tm) != NULL &&
		    strftime(when_text, sizeof(when_text), s->eta > 6 * 3600.0 ?
		    "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm) > 0) {
			snprintf(buf, len, "FIN %19s", when_text);
			return;
		}
	}
	/* as wide as the date form, so that nothing after it moves */
	snprintf(buf, len, "FIN %19s", "--:--:--");
}

/* A token's text, for all but the bar; "" when it has none. */
static void
token_text(const struct render_state *s, enum token t, char *buf,
    size_t len)
{
	char num[32];

	buf[0] = '\0';
	switch (t) {
	case T_TIMER:
		render_duration(s->elapsed, num, sizeof(num));
		snprintf(buf, len, "%*s", time_cols(s), num);
		break;
	case T_ETA:
		render_duration(s->eta >= 0 && !s->final ? ceil(s->eta) : -1,
		    num, sizeof(num));
		snprintf(buf, len, "ETA %*s", time_cols(s), num);
		break;
	case T_FINETA:
		finish_time(s, buf, len);
		break;
	case T_RATE:
	case T_AVERAGE:
	case T_RATE_IN:
	case T_RATE_OUT:
		steady_amount(rate_of(s, t), s->unit, "", "/s", buf, len);
		break;
	case T_BYTES:
		steady_amount((double)s->count, s->unit, "", "", buf, len);
		break;
	case T_BUFFER:
		if (s->waiting >= 0)
			snprintf(buf, len, "%3d%%", s->waiting);
		else
			snprintf(buf, len, "  -%%");
		break;
	case T_PERCENT:
		snprintf(buf, len, "%%");
		break;
	case T_RATIO:
		if (s->ratio_known)
			snprintf(buf, len, "%5.3f", s->ratio);
		else
			snprintf(buf, len, "-.---");
		break;
	default:
		break;
	}
}

/* %p: the percentage and bar, or the activity indicator, in cols. */
static void
format_bar(struct out *o, const struct render_state *s, int cols,
    const struct render_caps *caps)
{
	char pct[8];
	double fraction = bar_fill(s);

	if (fraction < 0) {
		draw_activity(o, s, cols);
		return;
	}
	snprintf(pct, sizeof(pct), "%3d%% ", bar_percent(s, fraction));
	out_put(o, pct, strlen(pct));
	draw_bar(o, fraction, cols - (int)strlen(pct), caps);
}

/* %N's name or %L's line, as text to escape ("" for none yet). */
static void
line_text(const struct render_state *s, enum token t, char *buf,
    size_t buflen)
{
	size_t len = s->line_len < buflen ? s->line_len : buflen - 1;

	if (t == T_NAME) {
		snprintf(buf, buflen, "%s", s->name != NULL ? s->name : "");
		return;
	}
	if (s->line != NULL)
		memcpy(buf, s->line, len);
	buf[s->line != NULL ? len : 0] = '\0';
}

/*
 * One piece of a format at p: literal text up to the next token, or a
 * token; *next is where the one after begins.  A text piece is escaped
 * into text, in at most room columns, *cols its width; a bar is left to
 * the caller (returns T_BAR).
 */
static enum token
format_piece(const struct render_state *s, const char *p, const char **next,
    const struct render_caps *caps, int room, char *text, size_t textlen,
    size_t *len, int *cols)
{
	char raw[PREFIX_MAX];
	enum token t = T_TEXT;

	if (*p == '%') {
		*next = p + 1;
		t = token_at(next);
	}
	if (t == T_TEXT) {
		if ((*next = strchr(p + 1, '%')) == NULL)
			*next = p + strlen(p);
		*len = (size_t)(*next - p) < sizeof(raw) ?
		    (size_t)(*next - p) : sizeof(raw) - 1;
		memcpy(raw, p, *len);
		raw[*len] = '\0';
		*cols = text_escape(raw, caps->utf8, room, text, textlen, len);
	} else if (t == T_NAME || t == T_LINE) {
		line_text(s, t, raw, sizeof(raw));
		*cols = text_escape(raw, caps->utf8, room, text, textlen, len);
	} else if (t == T_LAST) {
		dotted(s->last, s->last_len, text, textlen);
		*len = strlen(text);
		if ((int)*len > room)
			*len = (size_t)room;
		*cols = (int)*len;
	}
	else if (t != T_BAR) {
		token_text(s, t, text, textlen);
		*len = strlen(text);
		if ((int)*len > room)
			*len = (size_t)room;
		*cols = (int)*len;
	}
	return t;
}

/* -n: a token as a number; "-" where it has none yet. */
static void
token_number(const struct render_state *s, bool size_known, enum token t,
    char *buf, size_t len)
{
	unsigned per_byte = s->unit == RENDER_BITS ? 8 : 1;

	snprintf(buf, len, "-");
	switch (t) {
	case T_BAR:
		/* 100 only once the size is reached; no size: the amount */
		if (s->size == 0 && !size_known)
			snprintf(buf, len, "%llu",
			    (unsigned long long)s->count);
		else
			snprintf(buf, len, "%d", s->done >= s->size ? 100 :
			    (int)((double)s->done * 100 / (double)s->size));
		break;
	case T_TIMER:
		snprintf(buf, len, "%.4f", s->elapsed);
		break;
	case T_ETA:
	case T_FINETA:
		if (s->eta >= 0 && !s->final && s->eta < 1e12 &&
		    (t == T_ETA || s->wall > 0))
			snprintf(buf, len, "%.0f", ceil(s->eta) +
			    (t == T_FINETA ? floor(s->wall) : 0));
		break;
	case T_RATE:
	case T_AVERAGE:
	case T_RATE_IN:
	case T_RATE_OUT:
		snprintf(buf, len, "%.1f", rate_of(s, t) * per_byte);
		break;
	case T_BYTES:
		snprintf(buf, len, "%llu",
		    (unsigned long long)s->count * per_byte);
		break;
	case T_BUFFER:
		if (s->waiting >= 0)
			snprintf(buf, len, "%d", s->waiting);
		break;
	case T_RATIO:
		if (s->ratio_known)
			snprintf(buf, len, "%.6f", s->ratio);
		break;
	default:
		token_text(s, t, buf, len);
		break;
	}
}

size_t
render_numeric(const struct render_state *s, bool size_known,
    const char *format, bool utf8, char *buf, size_t buflen)
{
	struct out o = { buf, buf + buflen - 1 };
	char raw[PREFIX_MAX], text[PREFIX_MAX];
	const char *p, *next;
	size_t len;
	enum token t;

	for (p = format; *p != '\0'; p = next) {
		t = T_TEXT;
		if (*p == '%') {
			next = p + 1;
			t = token_at(&next);
		}
		if (t == T_LAST) {
			dotted(s->last, s->last_len, text, sizeof(text));
			len = strlen(text);
		} else if (t == T_TEXT || t == T_NAME || t == T_LINE) {
			if (t != T_TEXT)
				line_text(s, t, raw, sizeof(raw));
			else {
				if ((next = strchr(p + 1, '%')) == NULL)
					next = p + strlen(p);
				snprintf(raw, sizeof(raw), "%.*s",
				    (int)(next - p), p);
			}
			(void)text_escape(raw, utf8, INT_MAX, text,
			    sizeof(text), &len);
		} else {
			token_number(s, size_known, t, text, sizeof(text));
			len = strlen(text);
		}
		/* what does not fit is cut between characters, not inside one */
		if (len > (size_t)(o.end - o.p)) {
			len = (size_t)(o.end - o.p);
			while (len > 0 && ((unsigned char)text[len] & 0xc0) == 0x80)
				len--;
		}
		out_put(&o, text, len);
	}
	*o.p = '\0';
	return (size_t)(o.p - buf);
}

size_t
render_format(const struct render_state *s, const char *format, int width,
    const struct render_caps *caps, char *buf, size_t buflen)
{
	struct out o = { buf, buf + buflen - 1 };
	char text[PREFIX_MAX];
	const char *p, *next;
	size_t len;
	int avail = width > 1 ? width - 1 : 0, fixed = 0, bars = 0, used = 0;
	int share = 0, pass, cols;

	/* two passes: measure what is fixed, then lay it out */
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1 && bars > 0)
			share = (avail - fixed) / bars;
		for (p = format; *p != '\0'; p = next) {
			if (format_piece(s, p, &next, caps, pass == 0 ?
			    INT_MAX : avail - used, text, sizeof(text), &len,
			    &cols) == T_BAR) {
				bars += pass == 0;
				if (pass == 1 && share >= BAR_MIN &&
				    used + share <= avail) {
					format_bar(&o, s, share, caps);
					used += share;
				}
			} else if (pass == 0)
				fixed += cols;
			else {
				out_put(&o, text, len);
				used += cols;
			}
		}
	}
	put_repeat(&o, " ", avail - used);
	*o.p = '\0';
	return (size_t)(o.p - buf);
}

/* -x: a title is this wide at most, with -x's format. */
#define TITLE_WIDTH	100

size_t
render_title(const struct render_state *s, const char *format, char *buf,
    size_t buflen)
{
	const struct render_caps plain = { false, "", "", RENDER_PLAIN };
	char amount[32], rate[32], time[32], tail[96], pct[8] = "";
	char name[PREFIX_MAX];
	double fill = bar_fill(s);
	size_t len, used;

	if (format != NULL) {
		len = render_format(s, format, TITLE_WIDTH, &plain, buf,
		    buflen);
		/* a title has no steady columns to keep */
		while (len > 0 && buf[len - 1] == ' ')
			buf[--len] = '\0';
		used = strspn(buf, " ");
		memmove(buf, buf + used, len - used + 1);
		return len - used;
	}
	name[0] = '\0';
	if (s->name != NULL)
		(void)text_escape(s->name, false, 40, name, sizeof(name) - 2,
		    &used);
	if (name[0] != '\0')
		strcat(name, ": ");
	if (fill >= 0 && s->size > 0)
		snprintf(pct, sizeof(pct), "%d%% ", bar_percent(s, fill));
	render_amount((double)s->count, s->unit, amount, sizeof(amount));
	render_amount(s->final ? s->average : s->rate, s->unit, rate,
	    sizeof(rate));
	if (s->final) {
		render_duration(s->elapsed, time, sizeof(time));
		snprintf(tail, sizeof(tail), "avg %s/s in %s", rate, time);
	} else if (s->size > 0 && s->eta >= 0) {
		render_duration(ceil(s->eta), time, sizeof(time));
		snprintf(tail, sizeof(tail), "%s/s ETA %s", rate, time);
	} else
		snprintf(tail, sizeof(tail), "%s/s", rate);
	len = (size_t)snprintf(buf, buflen, "%s%s%s %s", name, pct, amount,
	    tail);
	return len < buflen ? len : buflen - 1;
}
