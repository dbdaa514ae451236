/*
 * The display.  It draws only on a terminal (or with --force), only from
 * the foreground, and only when the redraw timer or a signal asks: never
 * once per chunk.
 */
#include <err.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tach/display.h"
#include "tach/signals.h"

static double
monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds of transfer: time spent stopped by ^Z does not count. */
static double
transfer_clock(const struct display *d)
{
	return monotonic() - d->origin - d->stopped;
}

/* A background job draws nothing; a non-terminal only with --force. */
static bool
may_draw(const struct display *d)
{
	pid_t pg;

	if (!d->active)
		return false;
	pg = tcgetpgrp(d->term.fd);
	return pg == -1 ? d->forced : pg == getpgrp();
}

static void
draw(struct display *d, uint64_t bytes, bool final)
{
	double t = transfer_clock(d);
	const struct meter *progress = &d->meter;
	struct render_state s;
	size_t len;
	int width;

	meter_update(&d->meter, t, bytes);
	memset(&s, 0, sizeof(s));
	s.done = bytes;
	if (d->input->source != -1) {
		s.done = input_source_done(d->input);
		meter_update(&d->position, t, s.done);
		progress = &d->position;
	}
	if (!may_draw(d))
		return;
	s.prefix = d->prefix;
	s.bytes = bytes;
	s.size = d->size;
	s.rate = meter_rate(&d->meter, METER_RATE_WINDOW);
	s.average = meter_average(&d->meter);
	s.elapsed = t;
	s.eta = meter_eta(progress, d->size);
	s.stalled = meter_stalled(&d->meter);
	s.final = final;
	s.phase = d->phase++;
	width = d->width > 0 ? d->width : term_width(&d->term);
	if (width > DISPLAY_WIDTH_MAX)
		width = DISPLAY_WIDTH_MAX;
	len = render_line(&s, width, &d->caps, d->line, sizeof(d->line));
	if (!d->drawn)
		term_write(&d->term, d->term.civis, strlen(d->term.civis));
	term_draw(&d->term, d->line, len);
	d->drawn = true;
}

/* Ends the line on screen and shows the cursor again. */
static void
release(struct display *d)
{
	if (!d->drawn)
		return;
	term_write(&d->term, "\n", 1);
	term_write(&d->term, d->term.cnorm, strlen(d->term.cnorm));
	d->drawn = false;
}

/* SIGUSR1 (SIGINFO): the counters, once, on stderr, as dd does. */
static void
report(struct display *d, uint64_t bytes)
{
	char amount[32], rate[32], elapsed[32];
	double t = transfer_clock(d);

	if (d->term.fd == STDERR_FILENO)
		release(d);
	render_iec((double)bytes, amount, sizeof(amount));
	render_iec(t > 0 ? (double)bytes / t : 0, rate, sizeof(rate));
	render_duration(t, elapsed, sizeof(elapsed));
	fprintf(stderr, "%s: %llu bytes (%s) in %s, %s/s\n", getprogname(),
	    (unsigned long long)bytes, amount, elapsed, rate);
}

/* ^Z: tidy the terminal, stop, and on fg leave the stop out of the clock. */
static void
suspend(struct display *d)
{
	double t0 = monotonic();

	if (d->drawn)
		term_write(&d->term, d->term.cnorm, strlen(d->term.cnorm));
	signals_stop_self();
	d->stopped += monotonic() - t0;
	if (d->drawn)
		term_write(&d->term, d->term.civis, strlen(d->term.civis));
}

void
display_start(struct display *d, const struct options *opts,
    const struct input *in)
{
	int fd = opts->cmd != NULL && !opts->stderr_bar ? STDOUT_FILENO :
	    STDERR_FILENO;
	const char *no_colour = getenv("NO_COLOR");

	memset(d, 0, sizeof(*d));
	d->input = in;
	d->prefix = opts->prefix;
	d->size = in->size;
	d->width = opts->width;
	d->interval = opts->interval;
	d->forced = opts->force;
	d->active = !opts->quiet && (opts->force || isatty(fd));
	d->origin = monotonic();
	d->term.fd = fd;
	meter_init(&d->meter);
	meter_init(&d->position);
	if (!d->active)
		return;
	term_open(&d->term, fd, isatty(fd) && (no_colour == NULL ||
	    *no_colour == '\0'));
	d->caps.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	d->caps.colour_on = d->term.colour_on;
	d->caps.colour_off = d->term.colour_off;
	signals_install_display();
	signals_timer(d->interval);
	draw(d, 0, false);
}

bool
display_service(void *ctx, uint64_t bytes)
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
		report(d, bytes);
	if (bits & (SIGNAL_TICK | SIGNAL_WINCH | SIGNAL_CONT))
		draw(d, bytes, false);
	return true;
}

void
display_finish(struct display *d, uint64_t bytes)
{
	if (!d->active)
		return;
	signals_timer(0);
	draw(d, bytes, true);
	release(d);
}
