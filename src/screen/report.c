/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The reporter.  The bar is drawn only on a terminal (or with --force),
 * only from the foreground; -n, JSON and --stats go to stderr whatever it
 * is.  Numbers are written in the C locale's form (main() keeps
 * LC_NUMERIC at "C"), so JSON stays JSON in any locale.
 */
#include <sys/stat.h>

#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/clock.h"
#include "tach/cursor.h"
#include "tach/report.h"
#include "tach/signals.h"
#include "tach/text.h"

/* The reporter whose bar shares a terminal with stderr, for report_break. */
static struct reporter *beside_stderr;

static void	report_break(void);

static bool
same_terminal(int a, int b)
{
	struct stat sa, sb;

	return isatty(a) && isatty(b) && fstat(a, &sa) == 0 &&
	    fstat(b, &sb) == 0 && sa.st_rdev == sb.st_rdev;
}

void
report_open(struct reporter *r, int fd, bool draw, bool forced, int width,
    const char *format, enum render_style style)
{
	const char *no_colour = getenv("NO_COLOR");

	report_before_message(report_break);
	memset(r, 0, sizeof(*r));
	r->term.fd = fd;
	r->tty = isatty(fd);
	r->forced = forced;
	r->width = width;
	r->format = format;
	r->active = draw && (forced || r->tty);
	r->caps.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	r->caps.style = style;
	r->caps.colour_on = r->term.colour_on;
	r->caps.colour_off = r->term.colour_off;
	/* a file or pipe gets plain lines, with no escape sequences */
	if (!r->active || !r->tty)
		return;
	if (same_terminal(fd, STDERR_FILENO))
		beside_stderr = r;
	term_open(&r->term, fd, no_colour == NULL || *no_colour == '\0');
}

void
report_pin(struct reporter *r)
{
	r->pinning = r->active && r->tty;
}

/* A background job draws nothing; a non-terminal only when forced. */
static bool
foreground(const struct reporter *r)
{
	pid_t pg = tcgetpgrp(r->term.fd);

	return pg == -1 ? r->forced : pg == getpgrp();
}

/*
 * The width the renderer is given, which draws one column less: a
 * terminal's last column is left alone, where writing would wrap.  -w N
 * narrows (never widens) the line on a terminal, and draws N columns.
 */
static int
width_of(const struct reporter *r)
{
	int cols = term_width(&r->term);

	if (r->width > 0 && (!r->tty || r->width < cols))
		return r->width + 1;
	return cols > RENDER_WIDTH_MAX ? RENDER_WIDTH_MAX : cols;
}

static size_t
render(struct reporter *r, const struct render_state *s, int width)
{
	struct render_state steady = *s;

	/* the times as wide as they have been this run, on every line */
	steady.time_cols = r->time_cols = render_time_cols(s, r->time_cols);
	if (r->format != NULL)
		return render_format(&steady, r->format, width, &r->caps,
		    r->line, sizeof(r->line));
	return render_line(&steady, width, &r->caps, r->line,
	    sizeof(r->line));
}

/* FNV-1a, 64 bits: a frame told from the last one without keeping it. */
static uint64_t
frame_hash(uint64_t h, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ULL;
	return h;
}

/*
 * A line for a log: the padding that erases a longer line on a terminal
 * is only trailing blanks there.
 */
static size_t
render_logged(struct reporter *r, const struct render_state *s, int width)
{
	size_t len = render(r, s, width);

	while (len > 0 && r->line[len - 1] == ' ')
		len--;
	r->line[len] = '\0';
	return len;
}

/* A frame whose hash is h goes in the log: it is not the last one again. */
static bool
log_fresh(struct reporter *r, uint64_t h)
{
	if (r->frames > 0 && h == r->last_frame)
		return false;
	r->last_frame = h;
	r->frames++;
	return true;
}

/* Seconds a live frame at 100% waits in a log for the closing line. */
#define LOG_HOLD	1.0

/* The held frame goes in the log after all (unless it is the last again). */
static void
release(struct reporter *r)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	if (r->holding && log_fresh(r, frame_hash(h, r->held,
	    r->held_len + 1))) {
		r->held[r->held_len] = '\n';
		term_write(&r->term, r->held, r->held_len + 1);
	}
	r->holding = false;
}

/*
 * --force to a file or pipe: each frame's lines, ended, as a log; a frame
 * the same as the last is not written again, so that a stalled copy does
 * not fill the log with copies of one line.  A copy's live frame at 100%
 * is held back, and replaced by the next at 100% with no more moved, for
 * up to LOG_HOLD: if the closing line comes by then it takes the frame's
 * place, so the log ends in one 100% line however many ticks come before
 * the end of input is seen; if not, the frame is written and the log goes
 * on as it would.
 */
static void
draw_lines(struct reporter *r, const struct render_state *lines, size_t n,
    int width)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	bool full = n == 1 && !lines[0].final && lines[0].size > 0 &&
	    lines[0].done >= lines[0].size && lines[0].note == NULL;
	bool same = full && r->holding && lines[0].done == r->held_done;

	if (same) {
		r->held_len = render_logged(r, &lines[0], width);
		memcpy(r->held, r->line, r->held_len + 1);
		if (clock_now() - r->held_at < LOG_HOLD)
			return;
		/* waited long enough: the newest of them goes in */
		release(r);
		return;
	}
	if (n == 1 && lines[0].final)
		r->holding = false;	/* the closing line takes its place */
	release(r);
	if (full && !same && lines[0].done != r->spent_done) {
		r->held_len = render_logged(r, &lines[0], width);
		memcpy(r->held, r->line, r->held_len + 1);
		r->held_done = r->spent_done = lines[0].done;
		r->held_at = clock_now();
		r->holding = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		h = frame_hash(h, r->line, render_logged(r, &lines[i],
		    width) + 1);
	if (!log_fresh(r, h))
		return;
	for (size_t i = 0; i < (n > 0 ? n : 1); i++) {
		r->len = n > 0 ? render_logged(r, &lines[i], width) : 0;
		r->line[r->len] = '\n';
		term_write(&r->term, r->line, r->len + 1);
	}
}

/* -c: the line just rendered added to the rows' text; false if no room. */
static bool
pinned_add(struct reporter *r, bool first)
{
	size_t want = r->pinned_len * !first + 1 + r->len;
	char *more;

	if (first)
		r->pinned_len = 0;
	if (want > r->pinned_room) {
		if ((more = realloc(r->pinned, want)) == NULL)
			return false;
		r->pinned = more;
		r->pinned_room = want;
	}
	if (!first)
		r->pinned[r->pinned_len++] = '\n';
	memcpy(r->pinned + r->pinned_len, r->line, r->len);
	r->pinned_len += r->len;
	return true;
}

/*
 * -c: rows of its own, a line each (-d's files, a pipeline's stages),
 * taken now; false if the line is drawn plain.
 */
static bool
draw_pinned(struct reporter *r, const struct render_state *lines, size_t n,
    int width)
{
	int want = n < CURSOR_SLOTS ? (n > 0 ? (int)n : 1) : CURSOR_SLOTS;
	int rows;

	if (!r->claimed) {
		r->claim = cursor_claim(&r->pin, &r->term, want);
		r->claimed = true;
	}
	if (r->claim == CURSOR_PLAIN)
		return false;
	r->len = n > 0 ? render(r, &lines[0], width) : 0;
	if (r->claim == CURSOR_PINNED) {
		rows = cursor_hold(&r->pin, want);
		pinned_add(r, true);
		for (int i = 1; i < rows && (size_t)i < n; i++) {
			r->len = render(r, &lines[i], width);
			if (!pinned_add(r, false))
				break;
		}
		cursor_draw(&r->pin, &r->term, r->pinned, r->pinned_len);
		r->rows = rows;
	}
	return true;
}

/* The block on the terminal, redrawn in place from its first line. */
static void
draw_block(struct reporter *r, const struct render_state *lines, size_t n,
    int width)
{
	int height = term_height(&r->term), rows = n > 0 ? (int)n : 1;

	/* no way up: the first line live, every line at the end, below */
	if (r->term.cuu1[0] == '\0' && n > 1 && !lines[0].final) {
		if (!r->told_first_only)
			report_warnx("this terminal cannot move the cursor "
			    "up: one line is shown, every line at the end");
		r->told_first_only = true;
		rows = 1;
	}
	if (height > 1 && rows > height - 1)
		rows = height - 1;
	for (int i = 0; i < rows; i++) {
		r->len = (size_t)i < n ? render(r, &lines[i], width) : 0;
		term_draw_at(&r->term, i == 0 && r->rows > 0 ? r->rows - 1 : 0,
		    i > 0, r->line, r->len);
	}
	if (r->rows > rows) {
		/* rows the block no longer needs are cleared */
		for (int i = rows; i < r->rows; i++)
			term_draw_at(&r->term, 0, true, "", 0);
		/* back up to the block's last line */
		term_draw_at(&r->term, r->rows - rows, false, r->line, r->len);
	}
	r->rows = rows;
}

size_t
report_rows(const struct reporter *r)
{
	int height = term_height(&r->term);

	/* as draw_block: one row of the window left for the cursor */
	return r->tty && height > 1 ? (size_t)height - 1 : SIZE_MAX;
}

void
report_draw(struct reporter *r, const struct render_state *lines, size_t n)
{
	int width;

	if (!r->active || !foreground(r) || !term_ready(&r->term))
		return;
	width = width_of(r);
	if (!r->tty)
		draw_lines(r, lines, n, width);
	else if (!r->pinning || !draw_pinned(r, lines, n, width)) {
		/* nothing to show (-d waiting for a process): no blank row */
		if (n == 0 && r->rows == 0)
			return;
		draw_block(r, lines, n, width);
		if (n == 0)
			r->rows = 0;	/* the cursor at the cleared row's start */
	}
}

/* -c: the rows given back, the last lines left as text if asked. */
static void
unpin(struct reporter *r, bool keep_line)
{
	if (!r->claimed)
		return;
	if (r->claim == CURSOR_PINNED) {
		cursor_release(&r->pin, &r->term, r->pinned, r->rows > 0 &&
		    keep_line ? r->pinned_len : 0);
		r->rows = 0;
		free(r->pinned);
		r->pinned = NULL;
		r->pinned_len = r->pinned_room = 0;
	} else {
		report_newline(r);
		cursor_release(&r->pin, &r->term, NULL, 0);
	}
	r->claimed = false;
}

void
report_closing(struct reporter *r)
{
	r->term.deadline = clock_now() + REPORT_PATIENCE;
	/* ticks cut a write that blocks midway */
	signals_timer(REPORT_PATIENCE / 4);
}

void
report_end(struct reporter *r)
{
	if (r->active && !term_ready(&r->term))
		return;
	unpin(r, true);
	report_newline(r);
}

void
report_newline(struct reporter *r)
{
	if (r->rows > 0 && r->tty && !(r->claimed &&
	    r->claim == CURSOR_PINNED)) {
		term_write(&r->term, "\n", 1);
		r->rows = 0;
	}
}

void
report_clear(struct reporter *r)
{
	char blank[RENDER_WIDTH_MAX];
	int cols;

	if (r->rows == 0 || !r->tty || (r->claimed &&
	    r->claim == CURSOR_PINNED) || !term_ready(&r->term))
		return;
	/* blanks only for a terminal that cannot clear to the line's end */
	cols = r->term.el[0] != '\0' ? 0 : width_of(r) - 1;
	memset(blank, ' ', (size_t)(cols > 0 ? cols : 0));
	term_draw_at(&r->term, r->rows - 1, false, blank, (size_t)(cols > 0 ?
	    cols : 0));
	term_write(&r->term, r->term.cr, strlen(r->term.cr));
	r->rows = 0;
}

/*
 * Before anything is written on stderr: ends the bar's line if it is on
 * the same terminal, so that the text starts on a line of its own.  The
 * next frame starts below it.
 */
static void
report_break(void)
{
	if (beside_stderr != NULL)
		report_newline(beside_stderr);
}

double
report_suspend(struct reporter *r)
{
	double t0 = clock_now();

	/* the shell's job lines come next; the row comes back on fg */
	unpin(r, false);
	signals_stop_self();
	/* the shell wrote below the line: the next frame starts afresh */
	r->rows = 0;
	return clock_now() - t0;
}

/*
 * -n: the last line is the real percentage: 100 only if the size was
 * reached (an empty input has reached its size of 0), and never more, for
 * dialog --gauge: input beyond a -l that was too small stays at 100.
 * With -F, its fields as numbers.
 */
void
report_numeric(const struct reporter *r, const struct report_line *l)
{
	char line[RENDER_BUFSIZE(RENDER_WIDTH_MAX)];

	if (l->numeric_pid)
		fprintf(stderr, "%ld ", l->pid);
	if (l->numeric_fd && l->whole)
		fputs("all ", stderr);
	else if (l->numeric_fd)
		fprintf(stderr, "%d ", l->fd);
	render_numeric(&l->state, l->size_known, r->format != NULL ?
	    r->format : "%p", r->caps.utf8, line, sizeof(line));
	fprintf(stderr, "%s\n", line);
}

/* A JSON line's first members: its name, and -d's process and file. */
static void
json_whose(const struct report_line *l)
{
	if (l->state.name != NULL) {
		fputs("\"name\":", stderr);
		text_json(stderr, l->state.name);
		fputc(',', stderr);
	}
	if (l->path == NULL)
		return;
	fprintf(stderr, "\"pid\":%ld,", l->pid);
	if (l->command != NULL) {
		fputs("\"command\":", stderr);
		text_json(stderr, l->command);
		fputc(',', stderr);
	}
	/* a whole copy's path is its first source, and no descriptor's */
	if (!l->whole)
		fprintf(stderr, "\"fd\":%d,", l->fd);
	fputs("\"path\":", stderr);
	text_json(stderr, l->path);
	fputc(',', stderr);
}

/* -M's side and -d's whole copy, where they apply. */
static void
json_extras(const struct report_line *l)
{
	if (l->side != NULL)
		fprintf(stderr, "\"side\":\"%s\",", l->side);
	if (l->fed_by != 0)
		fprintf(stderr, "\"fed_by\":%ld,", l->fed_by);
	if (l->whole && l->files_known)
		fprintf(stderr, "\"whole\":true,\"files\":%llu,",
		    (unsigned long long)l->files);
	else if (l->whole)
		fputs("\"whole\":true,\"files\":null,", stderr);
	if (l->whole)
		fprintf(stderr, "\"files_total\":%llu,",
		    (unsigned long long)l->files_total);
}

/* Several -o: each output's bytes and rate; --hash: the digests. */
static void
json_outputs(const struct report_line *l)
{
	double t = l->state.elapsed;

	if (l->noutputs > 0)
		fputs(",\"outputs\":[", stderr);
	for (size_t i = 0; i < l->noutputs; i++) {
		const struct report_output *o = &l->outputs[i];

		fprintf(stderr, "%s{\"name\":", i > 0 ? "," : "");
		text_json(stderr, o->name);
		fprintf(stderr, ",\"bytes\":%llu,\"rate\":%.1f",
		    (unsigned long long)o->bytes,
		    t > 0 ? (double)o->bytes / t : 0);
		if (o->error != 0) {
			fputs(",\"error\":", stderr);
			text_json(stderr, strerror(o->error));
		}
		fputc('}', stderr);
	}
	if (l->noutputs > 0)
		fputc(']', stderr);
	if (l->nhashes > 0)
		fputs(",\"hash\":{", stderr);
	for (size_t i = 0; i < l->nhashes; i++) {
		fprintf(stderr, "%s\"%s\":", i > 0 ? "," : "",
		    l->hashes[i].alg);
		/* null: the library failed to make it (said beside) */
		if (l->hashes[i].hex[0] != '\0')
			fprintf(stderr, "\"%s\"", l->hashes[i].hex);
		else
			fputs("null", stderr);
	}
	if (l->nhashes > 0)
		fputc('}', stderr);
}
/*
 * JSON's and --log's size, percent and eta, in one form: the size if
 * known, the share of it done (100 at the end, never past it), the ETA
 * rounded up to a tenth, so that none reads 0.0 before the end.  JSON's
 * members, each null where unknown, or CSV's three fields.
 */
static void
size_and_eta(FILE *f, bool json, bool known, uint64_t size, uint64_t done,
    double eta, bool final)
{
	if (known)
		fprintf(f, json ? ",\"size\":%llu,\"percent\":%.2f" :
		    "%llu,%.2f", (unsigned long long)size, done >= size ?
		    100.0 : (double)done * 100 / (double)size);
	else
		fputs(json ? ",\"size\":null,\"percent\":null" : ",", f);
	if (!json)
		fputc(',', f);
	if (eta >= 0 && !final)
		fprintf(f, json ? ",\"eta\":%.1f" : "%.1f",
		    ceil(eta * 10) / 10);
	else if (json)
		fputs(",\"eta\":null", f);
}


void
report_json(const struct report_line *l)
{
	const struct render_state *s = &l->state;

	fputc('{', stderr);
	json_whose(l);
	json_extras(l);
	/* in line mode the rates, size and percentage count lines */
	fprintf(stderr, "\"elapsed\":%.3f,\"bytes\":%llu,", s->elapsed,
	    (unsigned long long)l->bytes);
	if (s->unit == RENDER_LINES)
		fprintf(stderr, "\"lines\":%llu,\"unit\":\"lines\",",
		    (unsigned long long)s->count);
	/* beside what was handed to the disk, what the disk says it has */
	if (l->on_device_known)
		fprintf(stderr, "\"on_device\":%llu,",
		    (unsigned long long)l->on_device);
	if (s->sparse)
		fprintf(stderr, "\"holes\":%llu,",
		    (unsigned long long)s->holes);
	if (l->buffered)
		fprintf(stderr, "\"read\":%llu,\"buffered\":%llu,",
		    (unsigned long long)l->fill.taken,
		    (unsigned long long)l->fill.held);
	/* in bytes, as the buffer reads: not in line mode */
	if (s->buffered)
		fprintf(stderr, "\"rate_in\":%.1f,", s->rate_in);
	fprintf(stderr, "\"rate\":%.1f,\"average\":%.1f", s->rate,
	    s->average);
	/* an empty file's size, 0, is known from the start */
	size_and_eta(stderr, true, s->size > 0 || l->size_known, s->size,
	    s->done, s->eta, s->final);
	json_outputs(l);
	fprintf(stderr, ",\"final\":%s", s->final ? "true" : "false");
	if (s->final && l->result != NULL)
		fprintf(stderr, ",\"result\":\"%s\"", l->result);
	if (s->final && l->reason != NULL) {
		fputs(",\"reason\":", stderr);
		text_json(stderr, l->reason);
	}
	/* -d: what it read after the one sample it showed in is unknown */
	if (l->between_samples)
		fputs(",\"between_samples\":true", stderr);
	/* -d: a last line short of the end says how old its sample is */
	if (l->path != NULL && l->sample_age >= 0)
		fprintf(stderr, ",\"sample_age\":%.3f", l->sample_age);
	fputs("}\n", stderr);
}

/* A share, or null before the window has enough looks. */
static void
json_share(const char *name, bool known, double v)
{
	if (known)
		fprintf(stderr, ",\"%s\":%.3f", name, v);
	else
		fprintf(stderr, ",\"%s\":null", name);
}

void
report_stage_json(const struct report_stage *s)
{
	fprintf(stderr, "{\"stage\":%zu,\"pid\":%ld,\"command\":", s->stage,
	    s->pid);
	text_json(stderr, s->command);
	fprintf(stderr, ",\"elapsed\":%.3f,\"bytes_in\":%llu,"
	    "\"bytes_out\":%llu,\"rate_in\":%.1f,\"rate_out\":%.1f",
	    s->elapsed, (unsigned long long)s->bytes_in,
	    (unsigned long long)s->bytes_out, s->rate_in, s->rate_out);
	if (s->bytes_in > 0)
		fprintf(stderr, ",\"ratio\":%.4f",
		    (double)s->bytes_out / (double)s->bytes_in);
	else
		fputs(",\"ratio\":null", stderr);
	json_share("working", s->known, s->working);
	json_share("waiting_in", s->known, s->waiting_in);
	json_share("waiting_out", s->known, s->waiting_out);
	json_share("waiting_disk", s->known, s->waiting_disk);
	fprintf(stderr, ",\"bottleneck\":%s", s->bottleneck ? "true" :
	    s->known ? "false" : "null");
	size_and_eta(stderr, true, s->size > 0, s->size, s->done, s->eta,
	    s->final);
	fprintf(stderr, ",\"final\":%s", s->final ? "true" : "false");
	if (s->final && s->result != NULL)
		fprintf(stderr, ",\"result\":\"%s\"", s->result);
	fputs("}\n", stderr);
}

/*
 * text to the log whole: a write a signal cut short (the redraw timer's,
 * while a FIFO's reader is slow) goes on, as stdio's would not.
 */
static bool
log_write(FILE *f, char *text, size_t len)
{
	int fd = fileno(f);
	ssize_t n;

	for (size_t at = 0; at < len; at += (size_t)n)
		if ((n = write(fd, text + at, len - at)) == -1) {
			if (errno != EINTR)
				return false;
			n = 0;
		} else if (n == 0) {
			errno = ENOSPC;		/* a write that takes nothing */
			return false;
		}
	return true;
}

bool
report_csv_header(FILE *f)
{
	static char header[] = "elapsed,bytes,lines,rate,average,size,"
	    "percent,eta,buffered,rate_in,final\n";

	return log_write(f, header, strlen(header));
}

bool
report_csv(FILE *f, const struct report_line *l)
{
	const struct render_state *s = &l->state;
	bool lines = s->unit == RENDER_LINES, ok;
	char *row = NULL;
	size_t len;
	FILE *m;

	/* the row made whole first, then written past any EINTR */
	if ((m = open_memstream(&row, &len)) == NULL)
		return false;
	fprintf(m, "%.3f,%llu,", s->elapsed, (unsigned long long)l->bytes);
	if (lines)
		fprintf(m, "%llu", (unsigned long long)s->count);
	fprintf(m, ",%.1f,%.1f,", s->rate, s->average);
	size_and_eta(m, false, s->size > 0 || l->size_known, s->size, s->done,
	    s->eta, s->final);
	fputc(',', m);
	if (l->buffered)
		fprintf(m, "%llu", (unsigned long long)l->fill.held);
	fputc(',', m);
	if (s->buffered)
		fprintf(m, "%.1f", s->rate_in);
	fprintf(m, ",%d\n", s->final);
	if (fclose(m) == EOF) {
		free(row);
		return false;
	}
	ok = log_write(f, row, len);
	free(row);
	return ok;
}

void
report_moved(const char *whose, uint64_t count, enum render_unit unit,
    double t, const char *tail)
{
	char rate[32];

	render_amount(t > 0 ? (double)count / t : 0, unit, rate,
	    sizeof(rate));
	report_info("%s%s%llu %s in %.3f s, %s/s%s%s",
	    whose != NULL ? whose : "", whose != NULL ? ": " : "",
	    (unsigned long long)count,
	    unit == RENDER_LINES ? "lines" : "bytes", t, rate,
	    tail != NULL ? ", " : "", tail != NULL ? tail : "");
}

void
report_rates(const struct reporter *r, const char *whose,
    struct stats_intervals *rates, double interval, enum render_unit unit)
{
	static const char shape[] = "rate over the run: ";
	struct stats_summary sum;
	char a[5][32], line[3 * RENDER_WIDTH_MAX + 1];
	int room;

	stats_summary(&rates->rates, &sum);
	render_amount(sum.min, unit, a[0], sizeof(a[0]));
	render_amount(sum.median, unit, a[1], sizeof(a[1]));
	render_amount(sum.mean, unit, a[2], sizeof(a[2]));
	render_amount(sum.max, unit, a[3], sizeof(a[3]));
	render_amount(sum.stddev, unit, a[4], sizeof(a[4]));
	if (rates->full == 0)
		report_info("%s%srate not measured: the run was "
		    "shorter than half an interval (%g s)",
		    whose != NULL ? whose : "", whose != NULL ? ": " : "",
		    interval / 2);
	else
		report_info("%s%srate over %zu intervals: min %s/s, "
		    "median %s/s, mean %s/s, max %s/s, stddev %s/s",
		    whose != NULL ? whose : "",
		    whose != NULL ? ": " : "", sum.count, a[0], a[1], a[2],
		    a[3], a[4]);
	/* a terminal that shows UTF-8 sees the run's shape at a glance */
	if (rates->full < 2 || !r->caps.utf8 || !isatty(STDERR_FILENO))
		return;
	room = (r->tty ? width_of(r) : 80) - 1 - (int)strlen(getprogname()) -
	    2 - (whose != NULL ? (int)strlen(whose) + 2 : 0) -
	    (int)sizeof(shape) + 1;
	if (stats_sparkline(rates, room, line, sizeof(line)) > 0)
		report_info("%s%s%s%s", whose != NULL ? whose : "",
		    whose != NULL ? ": " : "", shape, line);
}

char *
report_label(const char *name, const char *file, const char *prefix)
{
	size_t len = 1;
	char *s;

	if (name == NULL && file == NULL)
		return prefix == NULL ? NULL : strdup(prefix);
	len += (name ? strlen(name) + 2 : 0) + (file ? strlen(file) + 1 : 0) +
	    (prefix ? strlen(prefix) : 0);
	if ((s = malloc(len)) == NULL)
		report_err(1, "label");
	snprintf(s, len, "%s%s%s%s%s", name ? name : "", name ? ": " : "",
	    file ? file : "", file && prefix ? " " : "", prefix ? prefix : "");
	return s;
}
