/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The copy's session (session.h): what a running copy shows and answers.
 * The reporter draws only when the redraw timer or a signal asks: never
 * once per chunk.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tach/clock.h"
#include "tach/compat.h"
#include "tach/control.h"
#include "tach/session.h"
#include "tach/line.h"
#include "tach/render.h"
#include "tach/signals.h"
#include "tach/text.h"
#include "tach/report.h"

static const char *const outcomes[] = {
	[SESSION_COMPLETE] = "complete",
	[SESSION_FAILED] = "failed",
	[SESSION_INTERRUPTED] = "interrupted"
};

/* Seconds of transfer: time spent stopped by ^Z does not count. */
static double
transfer_clock(const struct session *d)
{
	return clock_now() - d->origin - d->stopped;
}

/* Which side tach waits for most, with --stats: the bottleneck. */
static const char *
bottleneck(const struct session *d, double t, char *buf, size_t len)
{
	double in = d->relay->wait_in, out = d->relay->wait_out;

	if (!d->stats || t <= 0 || (in < 0.1 * t && out < 0.1 * t))
		return NULL;
	snprintf(buf, len, "%s-wait %d%%", in > out ? "input" : "output",
	    (int)(100 * (in > out ? in : out) / t));
	return buf;
}

/* Several -o: each output's count; --hash, at the end: the digests. */
static void
outputs_state(struct session *d, bool final, struct report_line *l)
{
	struct fanout_output outs[FANOUT_MAX];

	if (d->nouts > 1) {
		fanout_outputs(d->fan, outs);
		for (size_t i = 0; i < d->nouts; i++)
			d->outs[i] = (struct report_output){ outs[i].name,
			    outs[i].bytes, outs[i].error };
		l->outputs = d->outs;
		l->noutputs = d->nouts;
	}
	for (size_t i = 0; final && d->digest != NULL &&
	    i < digest_count(d->digest); i++) {
		d->hashes[i].alg = digest_hex(d->digest, i, d->hexes[i]);
		d->hashes[i].hex = d->hexes[i];
		l->hashes = d->hashes;
		l->nhashes = i + 1;
	}
}

/*
 * -F's %I (the wall clock) and %T without -b's buffer: the input queued,
 * % of the buffer.
 */
static void
format_extras(const struct session *d, struct render_state *s)
{
	int queued;

	s->wall = clock_wall();
	/* -b's buffer's fill is set already, in line mode too */
	if (s->waiting >= 0)
		return;
	/*
	 * A file's FIONREAD is all that is left of it: the buffer is full.
	 * Where it says nothing (a disk, the input closed), nothing waits.
	 */
	s->waiting = 0;
	if (ioctl(d->relay->in, FIONREAD, &queued) == 0 &&
	    d->relay->bufsize > 0)
		s->waiting = queued <= 0 ? 0 :
		    (size_t)queued >= d->relay->bufsize ? 100 :
		    (int)((double)queued * 100 / (double)d->relay->bufsize +
		    0.5);
}

/*
 * The disk the output is, or is on: what its own counters say it wrote
 * since the start (every writer's, the file system's own too), beside
 * the count handed to it; in the last flush, what it has yet to write,
 * at its rate.
 */
static void
on_device(struct session *d, double t, struct report_line *l, char *note,
    size_t notelen)
{
	struct render_state *s = &l->state;
	char amount[32], seen[48];
	bool known = line_disk_note(&d->disk, d->byte_unit, seen,
	    sizeof(seen));
	uint64_t left = l->bytes > d->disk.written ?
	    l->bytes - d->disk.written : 0;

	l->on_device_known = known;
	l->on_device = d->disk.written;
	if (known)
		meter_update(&d->disk_meter, t, d->disk.written);
	if (d->flushing && known) {
		render_amount((double)left, d->byte_unit, amount,
		    sizeof(amount));
		snprintf(note, notelen, "flushing %s", amount);
		s->note = note;
		s->note_urgent = true;
		s->rate = meter_rate(&d->disk_meter, METER_RATE_WINDOW);
	} else if (d->flushing) {
		s->note = "flushing";
		s->note_urgent = true;
	}
	else if (known && s->note == NULL) {
		/* a slow side's note, a bottleneck, says more */
		snprintf(note, notelen, "%s", seen);
		s->note = note;
	}
}

/* The line's state from the meters at transfer time t. */
static void
state_at(struct session *d, double t, bool final, struct report_line *l,
    char *note, size_t notelen)
{
	struct render_state *s = &l->state;
	uint64_t count = d->lines ? d->relay->records : d->fan != NULL ?
	    fanout_slowest(d->fan) : d->relay->bytes;
	struct line_source src = { .meter = &d->meter,
	    .progress = &d->meter, .eta_size = d->size, .count = count,
	    .done = count, .size = d->size, .unit = d->unit,
	    .window = d->window, .elapsed = t, .gauge = d->gauge,
	    .final = final, .phase = d->phase++, .prefix = d->label,
	    .name = d->name };

	meter_update(&d->meter, t, count);
	/* -f's file read by a decompressor: progress is its position */
	if (d->input->source != -1) {
		src.done = input_source_done(d->input);
		meter_update(&d->position, t, src.done);
		src.progress = &d->position;
	}
	memset(l, 0, sizeof(*l));
	line_state(&src, &d->rate_max, s);
	l->bytes = d->relay->bytes;
	if (d->monitor != 0)
		l->side = "in";
	if (relay_fill(d->relay, &l->fill))
		l->buffered = true;
	l->size_known = d->size_known;
	s->note = bottleneck(d, t, note, notelen);
	on_device(d, t, l, note, notelen);
	if (d->relay->seen.keep > 0) {
		s->last = d->relay->seen.last;
		s->last_len = d->relay->seen.len;
	}
	if (d->relay->seen.has_line) {
		s->line = d->relay->seen.line;
		s->line_len = d->relay->seen.line_len;
	}
	s->sparse = d->relay->zeros || d->relay->holes > 0;
	s->holes = d->relay->holes;
	/* a buffer's fill, and its input's rate: in bytes, as it reads */
	if (l->buffered) {
		s->waiting = (int)((double)l->fill.held * 100 /
		    (double)l->fill.size + 0.5);
		s->buffered = !d->lines;
		meter_update(&d->intake, t, l->fill.taken);
		/* a silent input reads 0 within a second, as mbuffer's */
		if (s->buffered)
			s->rate_in = meter_idle(&d->intake) >= 1 ? 0 :
			    meter_rate(&d->intake, METER_RATE_WINDOW);
	}
	if (d->formatted)
		format_extras(d, s);
	outputs_state(d, final, l);
}

/*
 * -M out, -M both: cmd's output's line, counted as the side's fanout
 * passes it on; its size is not known.  Both lines get the ratio.
 */
static void
side_state(struct session *d, double t, bool final, struct report_line *in,
    struct report_line *l)
{
	uint64_t count = fanout_taken(d->side);
	struct line_source src = { .meter = &d->side_meter,
	    .progress = &d->side_meter, .count = count, .done = count,
	    .unit = d->byte_unit, .window = d->window, .elapsed = t,
	    .gauge = d->gauge, .final = final, .phase = in->state.phase,
	    .prefix = d->monitor == MONITOR_BOTH ? d->side_label : d->label,
	    .name = d->name };

	meter_update(&d->side_meter, t, count);
	memset(l, 0, sizeof(*l));
	line_state(&src, &d->side_rate_max, &l->state);
	l->bytes = count;
	l->side = "out";
	if (d->formatted)
		format_extras(d, &l->state);
	if (d->relay->bytes > 0) {
		in->state.ratio = l->state.ratio = (double)count /
		    (double)d->relay->bytes;
		in->state.ratio_known = l->state.ratio_known = true;
	}
}

/*
 * -W: whether the reader downstream has taken a byte (for a pipe, FIONREAD
 * on it says how many still wait there unread; once closed, nothing more
 * is learned).  When it first has, the clocks start.
 */
static bool
reader_started(struct session *d, bool final)
{
	int queued;

	if (!d->wait)
		return true;
	/* a pipe closed before its reader was seen reading: draw nothing */
	if (d->relay->bytes == 0 || (final && d->out_is_pipe))
		return false;
	if (d->out_is_pipe && ioctl(d->relay->out, FIONREAD, &queued) == 0 &&
	    queued >= 0 && (uint64_t)queued >= d->relay->bytes)
		return false;
	d->wait = false;
	/* at the last line the bytes are long gone: the clock keeps its start */
	if (!final) {
		d->origin = clock_now();
		d->stopped = 0;
		meter_init(&d->meter, d->window);
		meter_init(&d->position, d->window);
		meter_init(&d->intake, 0);
	}
	return true;
}

/* --log's time of a row at t: whole milliseconds, as it is written. */
static long long
row_ms(double t)
{
	return t > 0 ? (long long)(t * 1000) : 0;
}

/*
 * The last row is an instant of its own: a tick's row may have been
 * written within the same millisecond, and a reader of the log takes
 * each row's rate over the time since the row before.
 */
static void
after_last_row(const struct session *d)
{
	while (d->log != NULL && row_ms(transfer_clock(d)) <= d->logged_ms)
		(void)nanosleep(&(struct timespec){ .tv_nsec = 100000 },
		    NULL);
}

/* What is kept of each line whether it is drawn or not (-q, -D). */
static void
keep_line(struct session *d, double t, bool final,
    const struct report_line *l)
{
	struct report_line row;

	if (d->stats)
		stats_interval(&d->rates, d->interval, t, l->state.count,
		    final);
	/* a row an instant, not a redraw's: to the row's millisecond */
	if (d->log != NULL && row_ms(t) > d->logged_ms) {
		row = *l;
		d->logged_ms = row_ms(t);
		row.state.elapsed = (double)d->logged_ms / 1000;
		if (!report_csv(d->log, &row)) {
			report_warn("--log %s", text_safe(d->log_name));
			d->log = NULL;
			d->log_failed = true;
		}
	}
	/* -U's store is not the copy: its end is not the copy's */
	if (!final || !d->storing)
		control_publish(l);
}

/*
 * The state now, fed to every form of output asked for: a tick, or the
 * closing one with its outcome.
 */
static double
emit(struct session *d, bool final, enum session_outcome outcome,
    const char *reason)
{
	struct report_line l, out, *first = &l;
	struct render_state both[2];
	bool two = d->side != NULL && d->monitor == MONITOR_BOTH;
	char note[64];
	double t;

	/* -W leaves a password prompt alone; -D keeps short copies quiet */
	if (!reader_started(d, final))
		return transfer_clock(d);
	if (final)
		after_last_row(d);
	t = transfer_clock(d);
	state_at(d, t, final, &l, note, sizeof(note));
	/* the last line of a run that failed says so */
	if (final && outcome == SESSION_FAILED)
		l.state.note = outcomes[outcome];
	l.result = outcomes[outcome];
	l.reason = reason;
	if (d->side != NULL) {
		side_state(d, t, final, &l, &out);
		out.result = l.result;
		out.reason = l.reason;
		if (final && outcome == SESSION_FAILED)
			out.state.note = l.state.note;
		/* -M out: the line, the log, -Q and the title are the side's */
		if (d->monitor == MONITOR_OUT)
			first = &out;
	}
	keep_line(d, t, final, first);
	if (t < d->delay)
		return t;
	if (d->numeric)
		report_numeric(&d->out, first);
	if (d->json)
		report_json(first);
	/* -M both: the output's line after the input's */
	if (two && d->numeric)
		report_numeric(&d->out, &out);
	if (two && d->json)
		report_json(&out);
	/*
	 * The bar's first frame waits for the first tick, so that what the
	 * other programs of the pipeline say as they start (ssh's refusal)
	 * gets a row of its own; progress(1) draws at once.
	 */
	if (d->starting)
		return t;
	if (two) {
		both[0] = l.state;
		both[1] = out.state;
		report_draw(&d->out, both, 2);
	} else
		report_draw(&d->out, &first->state, 1);
	title_show(&d->title, &first->state);
	return t;
}

void
session_outputs(struct session *d, struct fanout *fan, struct digest *digest)
{
	d->fan = fan;
	d->digest = digest;
	d->nouts = fan != NULL ? fanout_count(fan) : 0;
}

void
session_log(struct session *d, FILE *log, const char *name, bool failed)
{
	d->log_failed = failed;
	d->log = failed ? NULL : log;
	d->log_name = name;
	d->logged_ms = -1;
}

void
session_output_ends(struct session *d)
{
	(void)reader_started(d, false);
}

void
session_clear(struct session *d)
{
	report_clear(&d->out);
}

/* -N's name for a line on stderr, escaped, or NULL. */
static const char *
whose(const struct session *d)
{
	return d->name != NULL ? text_safe(d->name) : NULL;
}

/* SIGUSR1 with --hash: each digest of the stream so far. */
static void
report_hashes(struct session *d)
{
	char hex[DIGEST_HEX_MAX];
	const char *alg;

	for (size_t i = 0; d->digest != NULL && i < digest_count(d->digest);
	    i++) {
		alg = digest_hex(d->digest, i, hex);
		report_info("%s so far: %s", alg, hex);
	}
}

/* SIGUSR1 (SIGINFO): the counters, once, on stderr, as dd does. */
static void
report_now(struct session *d)
{
	char amount[32], rate[32], elapsed[32], lines[48] = "";
	double t = transfer_clock(d);
	uint64_t bytes = d->relay->bytes, records = d->relay->records;

	render_amount((double)bytes, d->byte_unit, amount, sizeof(amount));
	render_amount(t > 0 ? (double)bytes / t : 0, d->byte_unit, rate,
	    sizeof(rate));
	if (d->lines)
		snprintf(lines, sizeof(lines), "%llu lines, ",
		    (unsigned long long)records);
	/* a short run in seconds and milliseconds, as dd */
	if (t < 60)
		snprintf(elapsed, sizeof(elapsed), "%.3f s", t);
	else
		render_duration(t, elapsed, sizeof(elapsed));
	report_info("%s%s%s%llu bytes (%s) in %s, %s/s",
	    whose(d) != NULL ? whose(d) : "", whose(d) != NULL ? ": " : "",
	    lines, (unsigned long long)bytes, amount, elapsed, rate);
	report_hashes(d);
}

/* ^Z: stop; on fg the stop is left out of the clocks, -L's included. */
static void
suspend(struct session *d)
{
	double stopped = report_suspend(&d->out);

	d->stopped += stopped;
	relay_suspended(d->relay, stopped);
}

/* fd is a pipe, a socket or a terminal, whose other end can keep it. */
static bool
can_wait(int fd)
{
	struct stat sb;

	return fstat(fd, &sb) == -1 || !(S_ISREG(sb.st_mode) ||
	    S_ISBLK(sb.st_mode));
}

/*
 * The ticks that draw, or, undrawn, a slow one: -L needs ^Z seen, so a
 * stop earns no burst, and --stall-timeout needs SIGCONT seen, so a stop
 * is no stall; a signal that arrived just before a call blocked (on an
 * input that never speaks) is acted on within a second.
 */
static void
session_ticks(struct session *d, const struct options *opts)
{
	if (!d->out.active && !d->numeric && !d->json && !d->stats &&
	    opts->rate_limit == 0 && opts->stall_timeout == 0 &&
	    opts->log == NULL && opts->extra == 0) {
		signals_timer(1);
		return;
	}
	signals_install_display();
	if (opts->cursor)
		report_pin(&d->out);
	signals_timer(d->interval);
	d->ticking = true;
	d->starting = !opts->as_progress;
	(void)emit(d, false, SESSION_COMPLETE, NULL);
	d->starting = false;
}

void
session_start(struct session *d, const struct options *opts,
    const struct input *in, struct relay *r, struct fanout *side)
{
	/*
	 * --force never draws into cmd's output, which is data; nor does a
	 * bar of -M out, where tach's stdout is cmd's output
	 */
	int fd = opts->cmd != NULL && !opts->stderr_bar &&
	    !(opts->monitor & MONITOR_OUT) &&
	    (!opts->force || isatty(STDOUT_FILENO)) ? STDOUT_FILENO :
	    STDERR_FILENO;
	bool machine = opts->numeric || opts->json;
	struct stat sb;

	memset(d, 0, offsetof(struct session, meter));
	d->input = in;
	d->relay = r;
	d->prefix = opts->prefix;
	d->name = opts->name;
	d->file = opts->nfiles > 1 ? in->name : NULL;
	d->monitor = opts->monitor;
	d->side = side;
	session_reading(d, d->file);
	d->formatted = opts->format != NULL;
	d->size = in->size;
	d->size_known = in->size_known;
	d->interval = opts->interval;
	d->wait = opts->wait;
	d->out_is_pipe = fstat(r->out, &sb) == 0 && S_ISFIFO(sb.st_mode);
	/* the disk's counters only for a line that can show them: -q
	 * draws none, but its JSON objects still carry on_device */
	if ((!opts->quiet || opts->json) && fstat(r->out, &sb) == 0 &&
	    (S_ISBLK(sb.st_mode) || S_ISREG(sb.st_mode))) {
		line_disk_start(&d->disk, S_ISBLK(sb.st_mode) ?
		    (uint64_t)sb.st_rdev : (uint64_t)sb.st_dev);
	}
	d->files_only = !can_wait(in->fd) && !can_wait(r->out);
	d->delay = opts->delay;
	d->numeric = opts->numeric;
	d->json = opts->json;
	d->stats = opts->stats;
	d->lines = opts->separator != -1;
	d->byte_unit = opts->byte_unit;
	d->unit = d->lines ? RENDER_LINES : d->byte_unit;
	d->origin = clock_now();
	d->window = opts->average_window;
	meter_init(&d->meter, d->window);
	meter_init(&d->position, d->window);
	meter_init(&d->intake, 0);
	meter_init(&d->side_meter, d->window);
	meter_init(&d->disk_meter, 0);
	/* -n and --format json replace the bar, as pv -n does */
	report_open(&d->out, fd, !opts->quiet && !machine, opts->force,
	    opts->width, opts->format, opts->bar_style);
	title_open(&d->title, opts->extra, opts->extra_format, fd);
	d->gauge = opts->gauge;
	session_ticks(d, opts);
}

void
session_flushing(struct session *d)
{
	d->flushing = true;
	(void)emit(d, false, SESSION_COMPLETE, NULL);
}

void
session_reading(struct session *d, const char *file)
{
	char side[PATH_MAX + 8];

	d->file = file;
	free(d->label);
	free(d->side_label);
	d->label = d->side_label = NULL;
	/* -M both: each of the two lines says which side it is */
	if (d->monitor != MONITOR_BOTH) {
		d->label = report_label(d->name, file, d->prefix);
		return;
	}
	snprintf(side, sizeof(side), "in%s%s", file != NULL ? " " : "",
	    file != NULL ? file : "");
	d->label = report_label(d->name, side, d->prefix);
	d->side_label = report_label(d->name, "out", d->prefix);
}

/*
 * -R: each waiting request's changes, from now on; false if none came (a
 * refused connection must cost nothing visible, not even a frame).
 */
static bool
take_requests(struct session *d)
{
	struct control_change c;
	bool took = false;

	while (control_take(&c)) {
		took = true;
		/* -Q: a querier is sent the state each tick, drawn or not */
		if (c.query && !d->ticking) {
			signals_timer(d->interval);
			d->ticking = true;
		}
		if (c.rate_limit > 0)
			relay_set_limit(d->relay, (double)c.rate_limit,
			    c.rate_in_bytes);
		if (c.read_limit > 0)
			relay_set_read_limit(d->relay, (double)c.read_limit);
		if (c.name != NULL) {
			free(d->sent_name);
			d->name = d->sent_name = c.name;
			c.name = NULL;
		}
		if (c.prefix != NULL) {
			free(d->sent_prefix);
			d->prefix = d->sent_prefix = c.prefix;
			c.prefix = NULL;
		}
		session_reading(d, d->file);
		if (c.interval > 0) {
			d->interval = c.interval;
			if (d->ticking)
				signals_timer(d->interval);
		}
		if (c.width > 0)
			d->out.width = c.width;
		if (c.format != NULL) {
			free(d->sent_format);
			d->out.format = d->sent_format = c.format;
			d->formatted = true;
			c.format = NULL;
		}
		control_free(&c);
	}
	return took;
}

bool
session_service(void *ctx)
{
	struct session *d = ctx;
	int bits = signals_take();

	if (bits & SIGNAL_TERMINATE)
		return false;
	if (bits & SIGNAL_TSTP) {
		suspend(d);
		bits |= SIGNAL_TICK;
	}
	/* back from a stop (^Z just now, or anyone's SIGSTOP) */
	if (bits & (SIGNAL_TSTP | SIGNAL_CONT))
		relay_continued(d->relay);
	if (bits & SIGNAL_INFO)
		report_now(d);
	if ((bits & SIGNAL_CONTROL) && !take_requests(d))
		bits &= ~SIGNAL_CONTROL;
	if (bits & (SIGNAL_TICK | SIGNAL_WINCH | SIGNAL_CONT |
	    SIGNAL_CONTROL))
		(void)emit(d, false, SESSION_COMPLETE, NULL);
	return true;
}

static void
print_stats(struct session *d, double t)
{
	const struct relay *r = d->relay;
	const char *name = whose(d);
	struct relay_fill f;
	char most[32], size[32];

	report_moved(name, r->bytes, d->byte_unit, t, NULL);
	if (d->lines)
		report_moved(name, r->records, RENDER_LINES, t, NULL);
	report_rates(&d->out, name, &d->rates, d->interval, d->unit);
	/* -M out, -M both: what cmd's output passed on */
	if (d->side != NULL)
		report_moved(d->monitor == MONITOR_BOTH ? "out" : name,
		    fanout_taken(d->side), d->byte_unit, t, NULL);
	/* several -o: what each took, a failed one with its error */
	for (size_t i = 0; d->nouts > 1 && i < d->nouts; i++)
		report_moved(text_safe(d->outs[i].name), d->outs[i].bytes,
		    d->byte_unit, t, d->outs[i].error != 0 ?
		    strerror(d->outs[i].error) : NULL);
	if (r->zeros || r->holes > 0) {
		render_amount((double)(r->bytes - r->holes), d->byte_unit,
		    most, sizeof(most));
		render_amount((double)r->holes, d->byte_unit, size,
		    sizeof(size));
		report_info("%s%ssparse: %s written, %s left as holes (%d%%)",
		    name != NULL ? name : "", name != NULL ? ": " : "", most,
		    size, r->bytes > 0 ? (int)((double)r->holes * 100 /
		    (double)r->bytes + 0.5) : 0);
	}
	if (relay_fill(r, &f)) {
		render_amount((double)f.most, d->byte_unit, most, sizeof(most));
		render_amount((double)f.size, d->byte_unit, size, sizeof(size));
		report_info("%s%sbuffer: at most %s of %s (%d%%), full %.3f s, "
		    "empty %.3f s", name != NULL ? name : "",
		    name != NULL ? ": " : "", most, size,
		    (int)((double)f.most * 100 / (double)f.size + 0.5), f.full,
		    f.empty);
	}
	/* a file or a disk is never waited for: its time is the copy's own */
	if (d->files_only && !r->has_fill)
		report_info("%s%sinput-wait n/a, output-wait n/a (files: "
		    "none is waited for)", name != NULL ? name : "",
		    name != NULL ? ": " : "");
	else
		report_info("%s%sinput-wait %d%%, output-wait %d%%",
		    name != NULL ? name : "", name != NULL ? ": " : "",
		    t > 0 ? (int)(100 * r->wait_in / t + 0.5) : 0,
		    t > 0 ? (int)(100 * r->wait_out / t + 0.5) : 0);
}

void
session_finish(struct session *d, enum session_outcome outcome,
    const char *reason)
{
	double t;

	report_closing(&d->out);
	d->ticking = false;
	d->flushing = false;
	t = emit(d, true, outcome, reason);
	report_end(&d->out);
	title_close(&d->title);
	signals_timer(0);
	if (d->stats)
		print_stats(d, t);
	stats_free(&d->rates.rates);
	free(d->label);
	free(d->side_label);
	d->label = d->side_label = NULL;
	free(d->sent_name);
	free(d->sent_prefix);
	free(d->sent_format);
	d->sent_name = d->sent_prefix = d->sent_format = NULL;
}
