/*
 * The display.  The bar is drawn only on a terminal (or with --force),
 * only from the foreground, and only when the redraw timer or a signal
 * asks: never once per chunk.  -n, --format json and --stats write to
 * stderr whatever it is.
 */
#include <sys/ioctl.h>

#include <err.h>
#include <langinfo.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tach/clock.h"
#include "tach/cursor.h"
#include "tach/display.h"
#include "tach/signals.h"

/* Seconds of transfer: time spent stopped by ^Z does not count. */
static double
transfer_clock(const struct display *d)
{
	return clock_now() - d->origin - d->stopped;
}

bool
display_foreground(int fd, bool forced)
{
	pid_t pg = tcgetpgrp(fd);

	return pg == -1 ? forced : pg == getpgrp();
}

/* A background job draws nothing; a non-terminal only with --force. */
static bool
may_draw(const struct display *d)
{
	return d->active && display_foreground(d->term.fd, d->forced);
}

int
display_width(const struct terminal *t, int width, bool tty)
{
	int cols = term_width(t);

	/* -w may narrow the line on a terminal, never widen it: it would wrap */
	if (width > 0 && (!tty || width < cols))
		cols = width;
	return cols > RENDER_WIDTH_MAX ? RENDER_WIDTH_MAX : cols;
}

void
display_terminal(struct terminal *t, struct render_caps *caps, int fd)
{
	const char *no_colour = getenv("NO_COLOR");

	term_open(t, fd, isatty(fd) && (no_colour == NULL ||
	    *no_colour == '\0'));
	caps->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	caps->colour_on = t->colour_on;
	caps->colour_off = t->colour_off;
}

/* Which side tach waits for most, with --stats: the bottleneck. */
static const char *
bottleneck(const struct display *d, double t, char *buf, size_t len)
{
	double in = d->relay->wait_in, out = d->relay->wait_out;

	if (!d->stats || t <= 0 || (in < 0.1 * t && out < 0.1 * t))
		return NULL;
	snprintf(buf, len, "%s-wait %d%%", in > out ? "input" : "output",
	    (int)(100 * (in > out ? in : out) / t));
	return buf;
}

/* Fills the renderer's state from the meters at transfer time t. */
static void
state_at(struct display *d, double t, bool final, struct render_state *s,
    char *note, size_t notelen)
{
	const struct meter *progress = &d->meter;
	uint64_t bytes = d->lines ? d->relay->records : d->relay->bytes;

	meter_update(&d->meter, t, bytes);
	memset(s, 0, sizeof(*s));
	s->done = bytes;
	if (d->input->source != -1) {
		s->done = input_source_done(d->input);
		meter_update(&d->position, t, s->done);
		progress = &d->position;
	}
	s->prefix = d->prefix;
	s->bytes = bytes;
	s->lines = d->lines;
	s->size = d->size;
	s->rate = meter_rate(&d->meter, METER_RATE_WINDOW);
	s->average = meter_average(&d->meter);
	s->elapsed = t;
	s->eta = meter_eta(progress, d->size);
	s->stalled = meter_stalled(&d->meter);
	s->final = final;
	s->phase = d->phase++;
	s->note = d->flushing ? "flushing" : bottleneck(d, t, note, notelen);
	s->name = d->name;
	s->waiting = -1;
	if (d->format != NULL) {
		struct timespec now;
		int queued;

		if (clock_gettime(CLOCK_REALTIME, &now) == 0)
			s->wall = (double)now.tv_sec;
		/* %T: what waits in the input for tach, against its buffer */
		if (ioctl(d->relay->in, FIONREAD, &queued) == 0 &&
		    d->relay->bufsize > 0)
			s->waiting = (int)((double)queued * 100 /
			    (double)d->relay->bufsize + 0.5);
	}
}

static void
draw(struct display *d, const struct render_state *s)
{
	size_t len;
	int width;

	if (!may_draw(d))
		return;
	width = display_width(&d->term, d->width, d->tty);
	if (d->format != NULL)
		len = render_format(s, d->format, width, &d->caps, d->line,
		    sizeof(d->line));
	else
		len = render_line(s, width, &d->caps, d->line, sizeof(d->line));
	if (!d->drawn && !d->cursor)
		term_write(&d->term, d->term.civis, strlen(d->term.civis));
	if (d->cursor)
		cursor_draw(&d->term, d->row, d->line, len);
	else
		term_draw(&d->term, d->line, len);
	d->drawn = true;
}

/*
 * -n: a whole percentage a line, or the byte count if the size is unknown.
 * The last line is the real percentage: 100 only if the size was reached
 * (an empty file has reached its size of 0).
 */
static void
numeric(const struct display *d, const struct render_state *s)
{
	if (s->size == 0 && !(d->size_known && s->final))
		fprintf(stderr, "%llu\n", (unsigned long long)s->bytes);
	else if (s->done >= s->size)
		fprintf(stderr, "100\n");
	else
		fprintf(stderr, "%d\n", (int)((double)s->done * 100 /
		    (double)s->size));
}

void
display_json_string(const char *text)
{
	const unsigned char *p = (const unsigned char *)text;

	putc('"', stderr);
	for (; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(stderr, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\u%04x", *p);
		else
			putc(*p, stderr);
	}
	putc('"', stderr);
}

static void
json(const struct display *d, const struct render_state *s,
    enum display_outcome outcome)
{
	static const char *results[] = { "complete", "failed", "interrupted" };

	fputc('{', stderr);
	if (d->name != NULL) {
		fputs("\"name\":", stderr);
		display_json_string(d->name);
		fputc(',', stderr);
	}
	/* in line mode the rates, size and percentage count lines */
	fprintf(stderr, "\"elapsed\":%.3f,\"bytes\":%llu,", s->elapsed,
	    (unsigned long long)d->relay->bytes);
	if (s->lines)
		fprintf(stderr, "\"lines\":%llu,\"unit\":\"lines\",",
		    (unsigned long long)s->bytes);
	fprintf(stderr, "\"rate\":%.1f,\"average\":%.1f", s->rate,
	    s->average);
	if (s->size > 0 || (d->size_known && s->final))
		fprintf(stderr, ",\"size\":%llu,\"percent\":%.2f",
		    (unsigned long long)s->size, s->done >= s->size ? 100.0 :
		    (double)s->done * 100 / (double)s->size);
	else
		fprintf(stderr, ",\"size\":null,\"percent\":null");
	if (s->eta >= 0 && !s->final)
		fprintf(stderr, ",\"eta\":%.1f", ceil(s->eta * 10) / 10);
	else
		fprintf(stderr, ",\"eta\":null");
	fprintf(stderr, ",\"final\":%s", s->final ? "true" : "false");
	if (s->final)
		fprintf(stderr, ",\"result\":\"%s\"", results[outcome]);
	fputs("}\n", stderr);
}

/*
 * The state now, fed to every form of output asked for: a tick, or the
 * closing one with its outcome.
 */
static double
emit(struct display *d, bool final, enum display_outcome outcome)
{
	struct render_state s;
	char note[32];
	double t = transfer_clock(d);

	state_at(d, t, final, &s, note, sizeof(note));
	if (d->stats)
		stats_interval(&d->rates, d->interval, t, s.bytes, final);
	/* -W leaves a password prompt alone; -D keeps short copies quiet */
	if ((d->wait && s.bytes == 0) || t < d->delay)
		return t;
	if (d->numeric)
		numeric(d, &s);
	if (d->json)
		json(d, &s, outcome);
	draw(d, &s);
	return t;
}

/* Ends the line on screen and shows the cursor again. */
static void
release(struct display *d)
{
	if (!d->drawn)
		return;
	if (!d->cursor)
		term_write(&d->term, "\n", 1);
	term_write(&d->term, d->term.cnorm, strlen(d->term.cnorm));
	d->drawn = false;
}

void
display_aside(struct display *d)
{
	if (d->term.fd == STDERR_FILENO && !d->cursor)
		release(d);
}

/* SIGUSR1 (SIGINFO): the counters, once, on stderr, as dd does. */
static void
report(struct display *d)
{
	char amount[32], rate[32], elapsed[32], lines[48] = "";
	double t = transfer_clock(d);
	uint64_t bytes = d->relay->bytes, records = d->relay->records;

	display_aside(d);
	render_iec((double)bytes, amount, sizeof(amount));
	render_iec(t > 0 ? (double)bytes / t : 0, rate, sizeof(rate));
	if (d->lines)
		snprintf(lines, sizeof(lines), "%llu lines, ",
		    (unsigned long long)records);
	/* a short run in seconds and milliseconds, as dd */
	if (t < 60)
		snprintf(elapsed, sizeof(elapsed), "%.3f s", t);
	else
		render_duration(t, elapsed, sizeof(elapsed));
	fprintf(stderr, "%s: %s%llu bytes (%s) in %s, %s/s\n", getprogname(),
	    lines, (unsigned long long)bytes, amount, elapsed, rate);
}

/* ^Z: tidy the terminal, stop, and on fg leave the stop out of the clock. */
static void
suspend(struct display *d)
{
	double t0 = clock_now();

	if (d->drawn)
		term_write(&d->term, d->term.cnorm, strlen(d->term.cnorm));
	signals_stop_self();
	d->stopped += clock_now() - t0;
	d->relay->stopped += clock_now() - t0;
	if (d->drawn && !d->cursor)
		term_write(&d->term, d->term.civis, strlen(d->term.civis));
}

char *
display_label(const char *name, const char *file, const char *prefix)
{
	size_t len = 1;
	char *s;

	if (name == NULL && file == NULL)
		return prefix == NULL ? NULL : strdup(prefix);
	len += (name ? strlen(name) + 2 : 0) + (file ? strlen(file) + 1 : 0) +
	    (prefix ? strlen(prefix) : 0);
	if ((s = malloc(len)) == NULL)
		err(1, "label");
	snprintf(s, len, "%s%s%s%s%s", name ? name : "", name ? ": " : "",
	    file ? file : "", file && prefix ? " " : "", prefix ? prefix : "");
	return s;
}

void
display_start(struct display *d, const struct options *opts,
    const struct input *in, struct relay *r)
{
	int fd = opts->cmd != NULL && !opts->stderr_bar ? STDOUT_FILENO :
	    STDERR_FILENO;
	bool machine = opts->numeric || opts->json;

	memset(d, 0, sizeof(*d));
	d->input = in;
	d->relay = r;
	d->label = opts->prefix;
	d->prefix = display_label(opts->name, opts->nfiles > 1 ? in->name : NULL,
	    opts->prefix);
	d->name = opts->name;
	d->format = opts->format;
	d->size = in->size;
	d->size_known = in->size_known;
	d->tty = isatty(fd);
	d->width = opts->width;
	d->interval = opts->interval;
	d->wait = opts->wait;
	d->delay = opts->delay;
	d->forced = opts->force;
	d->numeric = opts->numeric;
	d->json = opts->json;
	d->stats = opts->stats;
	d->lines = opts->records != -1;
	/* -n and --format json replace the bar, as pv -n does */
	d->active = !opts->quiet && !machine && (opts->force || isatty(fd));
	d->origin = clock_now();
	d->term.fd = fd;
	meter_init(&d->meter);
	meter_init(&d->position);
	/* -L needs ^Z seen, so a stop earns no burst (relay.stopped) */
	if (!d->active && !machine && !d->stats && opts->rate_limit == 0)
		return;
	signals_install_display();
	if (d->active) {
		display_terminal(&d->term, &d->caps, fd);
		d->cursor = opts->cursor && isatty(fd) &&
		    cursor_claim(fd, &d->row);
	}
	signals_timer(d->interval);
	(void)emit(d, false, DISPLAY_COMPLETE);
}

void
display_flushing(struct display *d)
{
	d->flushing = true;
	(void)emit(d, false, DISPLAY_COMPLETE);
}

void
display_reading(struct display *d, const char *file)
{
	free(d->prefix);
	d->prefix = display_label(d->name, file, d->label);
}

bool
display_service(void *ctx)
{
	struct display *d = ctx;
	int bits = signals_take();

	if (bits & SIGNAL_TERMINATE)
		return false;
	if (bits & SIGNAL_TSTP) {
		suspend(d);
		bits |= SIGNAL_TICK;
	}
	if (bits & SIGNAL_INFO)
		report(d);
	if (bits & (SIGNAL_TICK | SIGNAL_WINCH | SIGNAL_CONT))
		(void)emit(d, false, DISPLAY_COMPLETE);
	return true;
}

void
display_rates(struct stats_intervals *rates, double interval, bool lines)
{
	struct stats_summary sum;
	char a[5][32];

	stats_summary(&rates->rates, &sum);
	render_amount(sum.min, lines, a[0], sizeof(a[0]));
	render_amount(sum.median, lines, a[1], sizeof(a[1]));
	render_amount(sum.mean, lines, a[2], sizeof(a[2]));
	render_amount(sum.max, lines, a[3], sizeof(a[3]));
	render_amount(sum.stddev, lines, a[4], sizeof(a[4]));
	if (rates->full == 0)
		fprintf(stderr, "%s: rate not measured: the run was shorter "
		    "than half an interval (%g s)\n", getprogname(),
		    interval / 2);
	else
		fprintf(stderr, "%s: rate over %zu intervals: min %s/s, "
		    "median %s/s, mean %s/s, max %s/s, stddev %s/s\n",
		    getprogname(), sum.count, a[0], a[1], a[2], a[3], a[4]);
}

static void
print_stats(struct display *d, double t)
{
	char a[32];
	const struct relay *r = d->relay;

	render_iec(t > 0 ? (double)r->bytes / t : 0, a, sizeof(a));
	fprintf(stderr, "%s: %llu bytes in %.3f s, %s/s\n", getprogname(),
	    (unsigned long long)r->bytes, t, a);
	if (d->lines) {
		render_amount(t > 0 ? (double)r->records / t : 0, true, a,
		    sizeof(a));
		fprintf(stderr, "%s: %llu lines in %.3f s, %s/s\n",
		    getprogname(), (unsigned long long)r->records, t, a);
	}
	display_rates(&d->rates, d->interval, d->lines);
	fprintf(stderr, "%s: input-wait %d%%, output-wait %d%%\n",
	    getprogname(), t > 0 ? (int)(100 * r->wait_in / t + 0.5) : 0,
	    t > 0 ? (int)(100 * r->wait_out / t + 0.5) : 0);
}

void
display_finish(struct display *d, enum display_outcome outcome)
{
	double t;

	signals_timer(0);
	d->flushing = false;
	t = emit(d, true, outcome);
	release(d);
	if (d->stats)
		print_stats(d, t);
	stats_free(&d->rates.rates);
	free(d->prefix);
	d->prefix = NULL;
}
