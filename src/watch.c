/*
 * The watch mode.  Each tick samples the process's files through procfd,
 * matches them with those seen before (same descriptor, same file), and
 * draws one line each, stacked: the block is redrawn in place by moving
 * up over it.  Files that close lose their line; the process's exit ends
 * the watch.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tach/clock.h"
#include "tach/meter.h"
#include "tach/procfd.h"
#include "tach/render.h"
#include "tach/report.h"
#include "tach/signals.h"
#include "tach/stats.h"
#include "tach/text.h"
#include "tach/watch.h"
#include "tach/watchmatch.h"

/* A file seen in the process, followed from the sample it first showed in. */
struct watched {
	struct procfd_file	 file;		/* the latest sample */
	char			*label;
	double			 since;		/* when first seen */
	uint64_t		 first;		/* its offset then */
	struct meter		 meter;		/* offset - first, since then */
	struct stats_intervals	 rates;		/* --stats */
	bool			 present;	/* in the latest sample */
	bool			 grown;		/* its size grew: no known end */
	unsigned		 samples;	/* how many it showed in */
};

struct watch {
	const struct options	*opts;
	pid_t			 pid;
	struct watched		*files;
	size_t			 n, room;
	struct render_state	*lines;		/* the block, one a file */
	uint64_t		 started;	/* the process's start time */
	bool			 start_known;
	int			 hold;		/* procfd_hold's, or -1 */
	bool			 told_none;	/* "no file open" said */
	double			 origin;
	unsigned		 phase;
	struct reporter		 out;
};

enum end { END_NONE, END_CLOSED, END_EXITED, END_INTERRUPTED };
static const char *const ends[] = {
	[END_NONE] = NULL,
	[END_CLOSED] = "closed",
	[END_EXITED] = "exited",
	[END_INTERRUPTED] = "interrupted"
};

static uint64_t
moved(const struct watched *w)
{
	return w->file.offset - w->first;
}

/*
 * Its size, unless it is being written or has grown (rsync's temporary
 * file, a database): then the end is not known.
 */
static uint64_t
size_of(const struct watched *w)
{
	return w->file.writing || w->grown ? 0 : w->file.size;
}

static void
state_at(struct watch *ws, struct watched *w, double now, bool final,
    struct render_state *s)
{
	struct timespec wall;
	uint64_t size = size_of(w);

	memset(s, 0, sizeof(*s));
	s->prefix = w->label;
	s->bytes = w->file.offset;
	s->done = w->file.offset;
	s->size = size;
	s->rate = meter_rate(&w->meter, METER_RATE_WINDOW);
	s->average = meter_average(&w->meter);
	s->elapsed = now - w->since;
	/* the meter counts from where the file was when first seen */
	s->eta = size > w->file.offset ? meter_eta(&w->meter, size - w->first) :
	    -1;
	s->stalled = meter_stalled(&w->meter);
	s->final = final;
	s->phase = ws->phase;
	s->name = ws->opts->name;
	s->waiting = -1;
	if (clock_gettime(CLOCK_REALTIME, &wall) == 0)
		s->wall = (double)wall.tv_sec;
}

/* "fd N (path)": which file a message is about, its path made safe. */
static const char *
whose(const struct watched *w, char *buf, size_t len)
{
	snprintf(buf, len, "fd %d (%s)", w->file.fd, text_safe(w->file.path));
	return buf;
}

static void
print_stats(struct watch *ws, struct watched *w, double now)
{
	char who[4 * PATH_MAX + 32], at[32];

	/* seen once, then gone: what it read after that was never seen */
	if (w->samples < 2) {
		report_message("%s: read between samples, at %llu when seen: "
		    "not measured", whose(w, who, sizeof(who)),
		    (unsigned long long)w->file.offset);
		return;
	}
	report_break();
	snprintf(at, sizeof(at), "at %llu", (unsigned long long)w->file.offset);
	report_moved(whose(w, who, sizeof(who)), moved(w), false,
	    now - w->since, at);
	report_rates(&w->rates, ws->opts->interval, false);
}

/* The block: one line a file, stacked, redrawn in place. */
static void
draw(struct watch *ws, double now, bool final)
{
	for (size_t i = 0; i < ws->n; i++)
		state_at(ws, &ws->files[i], now, final, &ws->lines[i]);
	report_draw(&ws->out, ws->lines, ws->n);
}

/* The outputs of one tick, or of a file's end. */
static void
emit(struct watch *ws, struct watched *w, double now, enum end end)
{
	struct report_line l;

	if (ws->opts->stats)
		stats_interval(&w->rates, ws->opts->interval, now, moved(w),
		    end != END_NONE);
	if (now - ws->origin < ws->opts->delay)
		return;
	memset(&l, 0, sizeof(l));
	state_at(ws, w, now, end != END_NONE, &l.state);
	l.bytes = l.state.bytes;
	l.result = ends[end];
	l.pid = (long)ws->pid;
	l.fd = w->file.fd;
	l.path = w->file.path;
	l.numeric_fd = ws->opts->watch_fd < 0;
	l.between_samples = end != END_NONE && w->samples < 2;
	if (ws->opts->numeric)
		report_numeric(&l);
	if (ws->opts->json)
		report_json(&l);
}

static void
forget(struct watch *ws, size_t i, double now, enum end end)
{
	struct watched *w = &ws->files[i];

	emit(ws, w, now, end);
	if (ws->opts->stats)
		print_stats(ws, w, now);
	stats_free(&w->rates.rates);
	free(w->label);
	free(w->file.path);
	memmove(w, w + 1, (ws->n - i - 1) * sizeof(*w));
	ws->n--;
}

static void
start(struct watch *ws, struct watched *w, const struct procfd_file *f,
    double now)
{
	char fallback[32];

	memset(w, 0, sizeof(*w));
	w->file = *f;
	if (f->path[0] == '\0')
		snprintf(fallback, sizeof(fallback), "fd %d", f->fd);
	w->label = report_label(ws->opts->name, f->path[0] != '\0' ?
	    f->path : fallback, ws->opts->prefix);
	w->since = now;
	w->rates.last_t = now;
	w->first = f->offset;
	w->present = true;
	w->samples = 1;
	meter_init(&w->meter);
}

/* Room for more files, and for as many lines in the block. */
static void
grow(struct watch *ws)
{
	struct watched *w;
	struct render_state *l;

	ws->room = ws->room ? ws->room * 2 : 8;
	if ((w = realloc(ws->files, ws->room * sizeof(*w))) == NULL)
		err(1, "file list");
	ws->files = w;
	if ((l = realloc(ws->lines, ws->room * sizeof(*l))) == NULL)
		err(1, "file list");
	ws->lines = l;
}

static int
by_fd(const void *a, const void *b)
{
	const struct watched *x = a, *y = b;

	return (x->file.fd > y->file.fd) - (x->file.fd < y->file.fd);
}

/*
 * The PID still names the process first seen, checked after a listing: one
 * that exited and whose PID went to another is gone from the hold, or has
 * another start time.
 */
static bool
same_process(struct watch *ws)
{
	uint64_t started;
	int error = procfd_started(ws->pid, &started);

	if (procfd_gone(ws->hold))
		return false;

	if (error == ENOSYS || (error == 0 && !ws->start_known)) {
		ws->started = started;
		ws->start_known = error == 0;
		return true;
	}
	return error == 0 && started == ws->started;
}

/* A file seen before, seen again now: its position and state follow. */
static void
carry_on(struct watched *w, struct procfd_file *f, double now)
{
	free(w->file.path);
	/* a seek back starts the count again */
	if (f->offset < w->file.offset) {
		w->first = f->offset;
		meter_init(&w->meter);
		w->since = w->rates.last_t = now;
		w->rates.last_count = 0;
	}
	w->grown |= f->size > w->file.size;
	w->file = *f;
	f->path = NULL;		/* the watched file owns it */
	w->present = true;
	w->samples++;
	meter_update(&w->meter, now - w->since, moved(w));
}

/* Matches a sample's files with those seen: new ones join, gone ones go. */
static void
merge(struct watch *ws, struct procfd_file *got, size_t n, double now)
{
	struct watchmatch_key *old, *cur;
	long *which;
	bool *kept;
	size_t had = ws->n;

	old = calloc(had + 1, sizeof(*old));
	cur = calloc(n + 1, sizeof(*cur));
	which = calloc(n + 1, sizeof(*which));
	kept = calloc(had + 1, sizeof(*kept));
	if (old == NULL || cur == NULL || which == NULL || kept == NULL)
		err(1, "file list");
	for (size_t j = 0; j < had; j++)
		old[j] = (struct watchmatch_key){ ws->files[j].file.fd,
		    ws->files[j].file.dev, ws->files[j].file.ino };
	for (size_t i = 0; i < n; i++)
		cur[i] = (struct watchmatch_key){ got[i].fd, got[i].dev,
		    got[i].ino };
	watchmatch(old, had, cur, n, which, kept);
	for (size_t j = 0; j < had; j++)
		ws->files[j].present = kept[j];
	for (size_t i = 0; i < n; i++) {
		if (which[i] >= 0 && (size_t)which[i] < had) {
			carry_on(&ws->files[which[i]], &got[i], now);
			continue;
		}
		if (ws->n == ws->room)
			grow(ws);
		start(ws, &ws->files[ws->n++], &got[i], now);
		got[i].path = NULL;	/* the watched file owns it */
	}
	free(old);
	free(cur);
	free(which);
	free(kept);
	for (size_t j = ws->n; j-- > 0;)
		if (!ws->files[j].present)
			forget(ws, j, now, END_CLOSED);
}

/* Takes a sample and merges it.  Returns procfd's error. */
static int
sample(struct watch *ws, double now)
{
	struct procfd_file *got;
	size_t n;
	int error;

	if ((error = procfd_list(ws->pid, ws->opts->watch_fd, &got, &n)) != 0)
		return error;
	if (!same_process(ws)) {
		procfd_free(got, n);
		return ESRCH;
	}
	/* the one descriptor followed now holds another file: it closed */
	if (ws->opts->watch_fd >= 0 && ws->n == 1 && n == 1 &&
	    (got[0].dev != ws->files[0].file.dev ||
	    got[0].ino != ws->files[0].file.ino)) {
		procfd_free(got, n);
		return EBADF;
	}
	merge(ws, got, n, now);
	procfd_free(got, n);
	if (ws->n > 1)
		qsort(ws->files, ws->n, sizeof(*ws->files), by_fd);
	return 0;
}

/* SIGUSR1 (SIGINFO): where each file is, once, on stderr. */
static void
report(struct watch *ws)
{
	char size[32], who[4 * PATH_MAX + 32];

	for (size_t i = 0; i < ws->n; i++) {
		const struct watched *w = &ws->files[i];

		if (size_of(w) > 0)
			snprintf(size, sizeof(size), " of %llu",
			    (unsigned long long)size_of(w));
		else
			size[0] = '\0';
		report_message("%s: at %llu%s bytes",
		    whose(w, who, sizeof(who)),
		    (unsigned long long)w->file.offset, size);
	}
}


/* The last lines, each file's end, the screen as it was. */
static void
finish(struct watch *ws, enum end end)
{
	double now = clock_now();

	signals_timer(0);
	if (now - ws->origin >= ws->opts->delay)
		draw(ws, now, true);
	report_end(&ws->out);
	while (ws->n > 0)
		forget(ws, 0, now, end);
	if (ws->hold >= 0)
		close(ws->hold);
	free(ws->files);
	free(ws->lines);
}

/* A first sample's error: the process cannot be watched at all. */
static _Noreturn void
refuse(const struct watch *ws, int error)
{
	int fd = ws->opts->watch_fd;

	if (error == ENOSYS)
		errx(1, "-d: this system offers no way to see another "
		    "process's files");
	/* blame another user only when it is one: root may be refused too */
	if ((error == EACCES || error == EPERM) && kill(ws->pid, 0) == -1 &&
	    errno == EPERM)
		errc(1, error, "process %d: its files may not be inspected: it "
		    "runs as another user", (int)ws->pid);
	if (error == EACCES || error == EPERM)
		errc(1, error, "process %d: its files may not be inspected, "
		    "though tach may signal it: the system's rules forbid it "
		    "(ptrace access, another namespace or jail)", (int)ws->pid);
	if (fd >= 0 && error == PROCFD_NOT_FILE)
		errx(1, "process %d: fd %d: not a regular file or disk",
		    (int)ws->pid, fd);
	if (fd >= 0 && error != ESRCH && error != ENOMEM)
		errc(1, error, "process %d: fd %d", (int)ws->pid, fd);
	errc(1, error, "process %d", (int)ws->pid);
}

/*
 * The next sample's delay: the interval, or much sooner when a file is
 * about to end, so that its last line is close to the truth (pv polls
 * every 50 ms); never more than until the next frame is due.
 */
static double
next_sample(const struct watch *ws, double until_frame)
{
	double next = until_frame, left;

	for (size_t i = 0; i < ws->n; i++) {
		const struct watched *w = &ws->files[i];
		double rate = meter_rate(&w->meter, METER_RATE_WINDOW);

		if (size_of(w) <= w->file.offset || rate <= 0)
			continue;
		left = (double)(size_of(w) - w->file.offset) / rate;
		if (left < 2 * ws->opts->interval && left / 20 < next)
			next = left / 20;
	}
	return next < 0.005 ? 0.005 : next;
}

/* A frame: each file's -n and JSON output, the block, and a word if none. */
static void
frame(struct watch *ws, double now)
{
	for (size_t i = 0; i < ws->n; i++)
		emit(ws, &ws->files[i], now, END_NONE);
	/* -n or JSON into a reader that left: die of it, as pv */
	if (ferror(stderr) && errno == EPIPE && !signals_ignored(SIGPIPE))
		signals_die(SIGPIPE);
	if (now - ws->origin < ws->opts->delay)
		return;
	/* a kernel thread, sleep on a tty: nothing to show, and it says so */
	if (ws->n == 0 && !ws->told_none && ws->out.active)
		report_message("process %d has no regular file or disk open: "
		    "waiting for one", (int)ws->pid);
	ws->told_none = ws->n == 0;
	draw(ws, now, false);
	ws->phase++;
}

int
watch_run(const struct options *opts)
{
	struct watch ws;
	double now, drawn;
	int bits = SIGNAL_TICK, error;

	memset(&ws, 0, sizeof(ws));
	ws.opts = opts;
	ws.pid = (pid_t)opts->watch_pid;
	ws.origin = clock_now();
	/* held before the first listing, so that it is of the held process */
	ws.hold = procfd_hold(ws.pid);
	if ((error = sample(&ws, ws.origin)) != 0)
		refuse(&ws, error);
	report_open(&ws.out, STDERR_FILENO, !opts->numeric && !opts->json,
	    opts->force, opts->width, opts->format);
	signals_install_display();
	drawn = ws.origin - opts->interval;
	for (;;) {
		now = clock_now();
		if (now - drawn >= opts->interval * 0.99 ||
		    (bits & (SIGNAL_WINCH | SIGNAL_CONT | SIGNAL_TSTP))) {
			frame(&ws, now);
			drawn = now;
		}
		signals_timer(next_sample(&ws, opts->interval - (now - drawn)));
		bits = signals_wait();
		if (bits & SIGNAL_TERMINATE) {
			finish(&ws, END_INTERRUPTED);
			signals_die(signals_fatal());
		}
		if (bits & SIGNAL_TSTP)
			(void)report_suspend(&ws.out);
		if (bits & SIGNAL_INFO)
			report(&ws);
		error = sample(&ws, clock_now());
		/* the process, or the one descriptor followed, is done */
		if (error == ESRCH || (opts->watch_fd >= 0 && (error == EBADF ||
		    error == PROCFD_NOT_FILE || ws.n == 0))) {
			finish(&ws, error == ESRCH ? END_EXITED : END_CLOSED);
			return 0;
		}
		if (error != 0) {
			finish(&ws, END_INTERRUPTED);
			refuse(&ws, error);
		}
	}
}
