/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The watch mode.  Each tick samples each watched process's files through
 * procfd, matches them with those seen before (same descriptor, same
 * file), and draws one line each, stacked, process after process: the
 * block is redrawn in place by moving up over it.  Files that close lose
 * their line, a process that exits its lines; the last one's exit ends
 * the watch, unless --wait-for looks for more.  By name (-d NAME, or -d
 * alone for the usual copy tools) the processes are found by procfd_find,
 * again each second with --wait-for.
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tach/clock.h"
#include "tach/compat.h"
#include "tach/line.h"
#include "tach/meter.h"
#include "tach/pipeline.h"
#include "tach/procfd.h"
#include "tach/render.h"
#include "tach/report.h"
#include "tach/signals.h"
#include "tach/stats.h"
#include "tach/text.h"
#include "tach/watch.h"
#include "tach/watchmatch.h"
#include "tach/whole.h"

/* A file seen in the process, followed from the sample it first showed in. */
struct watched {
	struct procfd_file	 file;		/* the latest sample */
	char			*label;
	double			 since;		/* when first seen */
	uint64_t		 first;		/* its offset then */
	/*
	 * offset - first, since then: made when it first moves (a process
	 * may hold thousands that never do), ws->still till then
	 */
	struct meter		*meter;
	double			 quiet_at;	/* its last look before it moved */
	double			 rate_max;	/* -g: its highest rate yet */
	struct stats_intervals	*rates;		/* --stats, or NULL */
	bool			 present;	/* in the latest sample */
	bool			 grown;		/* its size grew: no known end */
	unsigned		 samples;	/* how many it showed in */
	/*
	 * Where it has got: its offset, or for a file read by one long
	 * copy_file_range (GNU cp), how far the output it is copied into
	 * has grown while the offset stood still.
	 */
	uint64_t		 position;
	uint64_t		 copy_of;	/* the size of the file it copies,
					   0 unknown */
	bool			 still;		/* the offset did not move */
	double			 moved_at;	/* when it last moved, or began */
	bool			 growing;	/* its size grew at this sample */
	bool			 grew_before;	/* at the sample before */
	double			 seen_at;	/* its latest sample */
	/*
	 * Its process's bytes read just before that sample, where it was
	 * then the one file the process had open for reading only
	 */
	uint64_t		 read_then;
	bool			 alone;
	char			 note[48];	/* its last line's, or "" */
	struct line_disk	 disk;		/* written, to this disk */
	char			 device[48];	/* "disk wrote 1.20 GiB" */
};

/* A process watched: its files, and what tells it from a later one. */
struct proc {
	pid_t			 pid;
	int			 fd;		/* -d PID:FD's, or -1: all */
	const char		*name;		/* by name: the one it has */
	char			 command[32];	/* else argv[0]'s last part, or "" */
	struct watched		*files;
	size_t			 n, room;
	uint64_t		 started;	/* the process's start time */
	bool			 start_known;
	int			 hold;		/* procfd_hold's, or -1 */
	bool			 exit_told;	/* the hold said it exited */
	bool			 told_none;	/* "no file open" said */
	int			 ended;		/* an enum end, once it ended */
	struct whole		*whole;		/* its whole copy, or NULL */
	uint64_t		 read;		/* its bytes read by any call, */
	uint64_t		 written;	/* and written, */
	double			 read_at;	/* read then (0: never) */
	bool			 wrote;		/* since the look before, or
					   may have (its count unread) */
	char			 whole_note[48]; /* its last line's, or "" */
	bool			 whole_final;	/* none to look for again */
	double			 whole_at;	/* when last looked for */
	double			 listed_at;	/* its descriptors last listed */
	double			 whole_since;	/* when found */
	struct meter		 whole_meter;
	double			 whole_rate_max;
	char			*whole_label;	/* its line's, as last drawn */
	/*
	 * Fed by a pipe and reading no file: the file the pipeline's first
	 * process reads, its line the process's progress (cat f | xz)
	 */
	pid_t			 feed_head;	/* that process, or 0 */
	double			 feed_at;	/* when last looked for */
	char			*feed_path;	/* its file, or NULL: no line */
	uint64_t		 feed_done, feed_size;
	uint64_t		 feed_first;	/* feed_done when found */
	double			 feed_since;
	struct meter		 feed_meter;
	double			 feed_rate_max;
	char			*feed_label;
};

struct watch {
	const struct watch_config *cfg;
	struct proc		*procs;
	size_t			 nprocs, room;
	const char *const	*names;		/* by name, else NULL */
	size_t			 nnames;
	bool			 several;	/* more than one -d given */
	struct render_state	*lines;		/* the block, one a file */
	struct meter		 still;		/* a file's that has not moved */
	double			 wall;		/* the frame's time of day (%I) */
	size_t			 nlines;
	double			 origin;
	double			 found;		/* when procfd_find last ran */
	unsigned		 phase;
	struct reporter		*out;		/* watch_run's */
	struct pollfd		*waits;		/* the holds waited on */
	size_t			 nwaits;
};

enum end { END_NONE, END_CLOSED, END_EXITED, END_INTERRUPTED };
static const char *const ends[] = {
	[END_NONE] = NULL,
	[END_CLOSED] = "closed",
	[END_EXITED] = "exited",
	[END_INTERRUPTED] = "interrupted"
};

/* The usual copy tools, for -d alone (tach(1) lists them too). */
static const char *const copy_tools[] = {
	"cp", "mv", "dd", "cat", "tar", "bsdtar", "cpio", "rsync", "scp",
	"sftp", "pv", "gzip", "gunzip", "pigz", "bzip2", "bunzip2", "xz",
	"unxz", "zstd", "unzstd", "lz4", "7z", "zcat", "split", "md5sum",
	"sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum",
};

static uint64_t
file_moved(const struct watched *w)
{
	return w->position - w->first;
}

/*
 * Its size, unless it is being written or has grown (rsync's temporary
 * file, a database): then the end is not known, but for the size of the
 * file it is a copy of, where a watched process reads that (copies_of).
 */
static uint64_t
size_of(const struct watched *w)
{
	return w->file.writing || w->grown ? w->copy_of : w->file.size;
}

/* The command a process's lines name, or NULL where it is not known. */
static const char *
named(const struct proc *p)
{
	return p->name != NULL ? p->name : p->command[0] != '\0' ?
	    p->command : NULL;
}

/* A line of the watch's from src: each is a file's, as of one look or many. */
static void
watch_line(const struct watch *ws, const struct line_source *src,
    double *rate_max, struct render_state *s)
{
	line_state(src, rate_max, s);
	s->one_look = ws->cfg->once;
	s->whose_file = true;
	s->wall = ws->wall;
}

/* *label made anew from text, with -N and -p as every line has them. */
static const char *
relabel(const struct watch *ws, char **label, const char *text)
{
	free(*label);
	*label = report_label(ws->cfg->look.name, text, ws->cfg->look.prefix);
	return *label;
}

static void
file_state(const struct watch *ws, struct watched *w, double now, bool final,
    struct render_state *s)
{
	uint64_t size = size_of(w);
	const struct meter *m = w->meter != NULL ? w->meter : &ws->still;
	/* the meter counts from where the file was when first seen */
	struct line_source src = { .meter = m, .progress = m,
	    .eta_size = size > w->position ? size - w->first : 0,
	    .count = w->position, .done = w->position, .size = size,
	    .unit = ws->cfg->look.unit, .window = ws->cfg->look.average_window,
	    .elapsed = now - w->since, .gauge = ws->cfg->look.gauge,
	    .final = final, .phase = ws->phase, .prefix = w->label,
	    .name = ws->cfg->look.name };

	watch_line(ws, &src, &w->rate_max, s);
	if (w->meter == NULL)
		s->stalled = w->seen_at - w->since >= METER_STALL;
	if (final && w->note[0] != '\0')
		s->note = w->note;
	/* written to a disk, or a file on one: what the disk says it has */
	else if (line_disk_note(&w->disk, ws->cfg->look.unit, w->device,
	    sizeof(w->device)))
		s->note = w->device;
}

/*
 * How old the whole copy's figure is at the process's exit: 0 where its
 * last I/O count was read as it ended (or all of the tree is done), else
 * the time since it was read (its parent reaped it first).
 */
static double
whole_age(const struct proc *p, double now)
{
	if (p->ended != END_EXITED || p->read_at == 0 ||
	    p->whole->done >= p->whole->tree.size || p->read_at >= now)
		return 0;
	return now - p->read_at;
}

/*
 * A whole copy's line: the bytes done over every file, against the
 * tree's size, and its files done (where it was watched from the start).
 */
static void
whole_state(const struct watch *ws, struct proc *p, double now, bool final,
    struct render_state *s)
{
	const struct whole *w = p->whole;
	char text[PATH_MAX + 160], files[96];
	struct line_source src = { .meter = &p->whole_meter,
	    .progress = &p->whole_meter, .eta_size = w->tree.size,
	    .count = w->done, .done = w->done, .size = w->tree.size,
	    .unit = ws->cfg->look.unit, .window = ws->cfg->look.average_window,
	    .elapsed = now - p->whole_since, .gauge = ws->cfg->look.gauge,
	    .final = final, .phase = ws->phase, .name = ws->cfg->look.name };
	size_t n;

	/* --once: the files closed before its one look are not known */
	n = w->nroots > 1 ? (size_t)snprintf(files, sizeof(files), " +%zu",
	    w->nroots - 1) : 0;
	files[n] = '\0';
	if (w->files_known && !ws->cfg->once)
		snprintf(files + n, sizeof(files) - n, ", %llu/%llu files",
		    (unsigned long long)(w->files < w->tree.files ? w->files :
		    w->tree.files), (unsigned long long)w->tree.files);
	else
		snprintf(files + n, sizeof(files) - n, ", %llu files",
		    (unsigned long long)w->tree.files);
	if (named(p) != NULL)
		snprintf(text, sizeof(text), "%s %d: all of %s%s", named(p),
		    (int)p->pid, w->root, files);
	else if (ws->several)
		snprintf(text, sizeof(text), "%d: all of %s%s", (int)p->pid,
		    w->root, files);
	else
		snprintf(text, sizeof(text), "all of %s%s", w->root, files);
	src.prefix = relabel(ws, &p->whole_label, text);
	watch_line(ws, &src, &p->whole_rate_max, s);
	if (final && whole_age(p, now) > 0) {
		snprintf(p->whole_note, sizeof(p->whole_note), "as seen %.2f s "
		    "before the end", whole_age(p, now));
		s->note = p->whole_note;
	}
}

static void
free_whole(struct proc *p)
{
	whole_free(p->whole);
	free(p->whole_label);
	p->whole = NULL;
	p->whole_label = NULL;
}

/* ancestor is child's parent, or its parent's, and so on. */
static bool
descends(pid_t child, pid_t ancestor)
{
	pid_t parent;

	for (int up = 0; up < 64 && child > 1; up++) {
		if (procfd_parent(child, &parent) != 0)
			return false;
		if (parent == ancestor)
			return true;
		child = parent;
	}
	return false;
}

/*
 * One line for one tree's copy in one family of processes: rsync's
 * receiver and generator, children of its sender, name the same sources
 * and read other things (the sender's pipe): the eldest's line is the
 * copy's.
 */
static void
one_a_family(struct watch *ws, struct proc *p)
{
	for (size_t i = 0; i < ws->nprocs && p->whole != NULL; i++) {
		struct proc *q = &ws->procs[i];

		if (q == p || q->whole == NULL ||
		    q->whole->nroots != p->whole->nroots ||
		    strcmp(q->whole->root, p->whole->root) != 0)
			continue;
		if (descends(p->pid, q->pid)) {
			free_whole(p);
			p->whole_final = true;
		} else if (descends(q->pid, p->pid)) {
			free_whole(q);
			q->whole_final = true;
		}
	}
}

/*
 * Looks for p's whole copy (-l @DIR's, or its command line's sources):
 * at its first sample, then once a second until found, for a process
 * watched before it exec(2)s its copy tool.
 */
static void
find_whole(struct watch *ws, struct proc *p, double now)
{
	if (p->whole != NULL || p->whole_final || (p->whole_at > 0 &&
	    now - p->whole_at < 1))
		return;
	p->whole_at = now;
	p->whole = whole_open(p->pid, ws->cfg->size_file, &p->whole_final);
	one_a_family(ws, p);
	p->whole_since = now;
	meter_init(&p->whole_meter, ws->cfg->look.average_window);
}

/*
 * The bytes p has read and written by any call, now; the last counts kept
 * once they cannot be read (its parent reaped it).  Returns whether it
 * wrote since the counts before, or may have.
 */
static bool
read_count(struct proc *p, double now)
{
	uint64_t read, written;
	bool wrote;

	if (procfd_io(p->pid, &read, &written) != 0)
		return true;
	/* at the first count, its files are new: none grew */
	wrote = p->read_at > 0 && written != p->written;
	p->read = read;
	p->written = written;
	p->read_at = now;
	return wrote;
}

/* A sample of p's whole copy: its files closed, its bytes read. */
static void
sample_whole(struct proc *p, double now)
{
	if (p->whole == NULL)
		return;
	whole_sample(p->whole, p->read_at > 0 ? 0 : ENOSYS, p->read);
	meter_update(&p->whole_meter, now - p->whole_since, p->whole->done);
}

/* Looks again for the pipeline that feeds a process, every FEED_LOOK s. */
#define FEED_LOOK	2.0

static void
free_feed(struct proc *p)
{
	free(p->feed_path);
	free(p->feed_label);
	p->feed_path = p->feed_label = NULL;
}

/*
 * A process reading no file, fed by a pipe: where the pipeline's first
 * process is in the file it reads is how far this one has got.
 */
static void
sample_feed(const struct watch *ws, struct proc *p, double now)
{
	uint64_t done, size;
	char *path;
	bool reads = p->fd >= 0;

	/* -d PID:FD follows one descriptor; a file read is its own line */
	for (size_t j = 0; j < p->n && !reads; j++)
		reads = !p->files[j].file.writable;
	if (reads) {
		free_feed(p);
		return;
	}
	if (p->feed_head == 0 && now - p->feed_at < FEED_LOOK)
		return;
	if (p->feed_head == 0) {
		p->feed_at = now;
		if ((p->feed_head = pipeline_head(p->pid)) == 0)
			return;
	}
	if (pipeline_source(p->feed_head, &done, &size, &path) != 0) {
		p->feed_head = 0;	/* it ended, or reads another way */
		return;
	}
	if (p->feed_path == NULL || strcmp(path, p->feed_path) != 0) {
		free_feed(p);
		p->feed_since = now;
		p->feed_first = done;
		meter_init(&p->feed_meter, ws->cfg->look.average_window);
		p->feed_rate_max = 0;
	}
	free(p->feed_path);
	p->feed_path = path;
	p->feed_done = done;
	p->feed_size = size;
	/* the meter counts from where the file was when first seen */
	meter_update(&p->feed_meter, now - p->feed_since,
	    done > p->feed_first ? done - p->feed_first : 0);
}

/* Its line: "xz 4243: stdin from 4242: /data/big", the file's progress. */
static void
feed_state(const struct watch *ws, struct proc *p, double now, bool final,
    struct render_state *s)
{
	char text[PATH_MAX + 160];
	struct line_source src = { .meter = &p->feed_meter,
	    .progress = &p->feed_meter,
	    .eta_size = p->feed_size > p->feed_first ?
	    p->feed_size - p->feed_first : 0,
	    .count = p->feed_done, .done = p->feed_done,
	    .size = p->feed_size, .unit = ws->cfg->look.unit,
	    .window = ws->cfg->look.average_window,
	    .elapsed = now - p->feed_since, .gauge = ws->cfg->look.gauge,
	    .final = final, .phase = ws->phase, .name = ws->cfg->look.name };

	if (named(p) != NULL)
		snprintf(text, sizeof(text), "%s %d: stdin from %d: %s",
		    named(p), (int)p->pid, (int)p->feed_head, p->feed_path);
	else
		snprintf(text, sizeof(text), "stdin from %d: %s",
		    (int)p->feed_head, p->feed_path);
	src.prefix = relabel(ws, &p->feed_label, text);
	watch_line(ws, &src, &p->feed_rate_max, s);
}

/* "fd N (path)", and the process by name: which file a message is about. */
static const char *
file_whose(const struct proc *p, const struct watched *w, char *buf, size_t len)
{
	if (p->name != NULL)
		snprintf(buf, len, "%s %d: fd %d (%s)", p->name, (int)p->pid,
		    w->file.fd, text_safe(w->file.path));
	else
		snprintf(buf, len, "fd %d (%s)", w->file.fd,
		    text_safe(w->file.path));
	return buf;
}

static void
file_stats(struct watch *ws, struct proc *p, struct watched *w, double now)
{
	char who[4 * PATH_MAX + 64], at[32];

	/* seen once, then gone: what it read after that was never seen */
	if (w->samples < 2) {
		report_info("%s: read between samples, at %llu when seen: "
		    "not measured", file_whose(p, w, who, sizeof(who)),
		    (unsigned long long)w->file.offset);
		return;
	}
	snprintf(at, sizeof(at), "at %llu", (unsigned long long)w->position);
	report_moved(file_whose(p, w, who, sizeof(who)), file_moved(w),
	    ws->cfg->look.unit, now - w->since, at);
	report_rates(ws->out, who, w->rates, ws->cfg->look.interval,
	    ws->cfg->look.unit);
}

/* The files of every process, and their whole copies: the block's lines. */
static size_t
all_files(const struct watch *ws)
{
	size_t total = 0;

	for (size_t i = 0; i < ws->nprocs; i++)
		total += ws->procs[i].n + (ws->procs[i].whole != NULL) +
		    (ws->procs[i].feed_path != NULL);
	return total;
}

/* Room in the block for every file, after a sample added some. */
static void
lines_room(struct watch *ws)
{
	size_t total = all_files(ws);
	struct render_state *l;

	if (total <= ws->nlines)
		return;
	if ((l = reallocarray(ws->lines, total, sizeof(*l))) == NULL)
		report_err(1, "file list");
	ws->lines = l;
	ws->nlines = total;
}

/* The time of day, once for the lines drawn or ended now (%I). */
static void
time_of_day(struct watch *ws)
{
	ws->wall = clock_wall();
}

/*
 * The block: one line a file, stacked, process after process, each one's
 * whole copy above its files.
 */
static void
draw(struct watch *ws, double now, bool final)
{
	size_t k = 0, rows = report_rows(ws->out);

	time_of_day(ws);
	/* those the window holds: a process may have thousands */
	for (size_t i = 0; i < ws->nprocs && k < rows; i++) {
		if (ws->procs[i].whole != NULL)
			whole_state(ws, &ws->procs[i], now, final,
			    &ws->lines[k++]);
		if (ws->procs[i].feed_path != NULL && k < rows)
			feed_state(ws, &ws->procs[i], now, final,
			    &ws->lines[k++]);
		for (size_t j = 0; j < ws->procs[i].n && k < rows; j++)
			file_state(ws, &ws->procs[i].files[j], now, final,
			    &ws->lines[k++]);
	}
	report_draw(ws->out, ws->lines, k);
}

/*
 * A line's -n and JSON output, at a tick or at its end: what every line
 * of p's has, then out (each caller has set what is its own).
 */
static void
emit_line(const struct watch *ws, const struct proc *p, struct report_line *l,
    enum end end)
{
	l->bytes = l->state.count;
	l->result = ends[end];
	l->pid = (long)p->pid;
	l->command = p->name;
	l->numeric_pid = ws->names != NULL || ws->several;
	if (ws->cfg->look.numeric)
		report_numeric(ws->out, l);
	if (ws->cfg->look.json)
		report_json(l);
}

/* The outputs of one tick, or of a file's end. */
static void
emit_file(struct watch *ws, struct proc *p, struct watched *w, double now,
    enum end end)
{
	struct report_line l;

	if (ws->cfg->look.stats)
		stats_interval(w->rates, ws->cfg->look.interval, now,
		    file_moved(w), end != END_NONE);
	if (now - ws->origin < ws->cfg->delay ||
	    (!ws->cfg->look.numeric && !ws->cfg->look.json))
		return;
	memset(&l, 0, sizeof(l));
	file_state(ws, w, now, end != END_NONE, &l.state);
	l.fd = w->file.fd;
	l.path = w->file.path;
	l.numeric_fd = p->fd < 0;
	l.between_samples = end != END_NONE && w->samples < 2;
	l.sample_age = end != END_NONE && w->note[0] != '\0' ?
	    now - w->seen_at : -1;
	l.on_device_known = w->disk.known;
	l.on_device = w->disk.written;
	emit_line(ws, p, &l, end);
}

/* A line that is not one file's: one of p's copy, fd its own or -1. */
static void
copy_line(struct report_line *l, int fd, const char *path)
{
	memset(l, 0, sizeof(*l));
	l->size_known = true;
	l->fd = fd;
	l->path = path;
	l->numeric_fd = true;
}

/*
 * p's copy's -n and JSON output, at a tick or at its end: the whole tree's
 * line, and the feed's (its file's, fd 0 the pipe's end).
 */
static void
emit_copy(struct watch *ws, struct proc *p, double now, enum end end)
{
	struct report_line l;
	bool final = end != END_NONE;

	if (now - ws->origin < ws->cfg->delay ||
	    (!ws->cfg->look.numeric && !ws->cfg->look.json))
		return;
	if (p->whole != NULL) {
		copy_line(&l, -1, p->whole->root);
		whole_state(ws, p, now, final, &l.state);
		l.sample_age = final && whole_age(p, now) > 0 ?
		    whole_age(p, now) : -1;
		l.whole = true;
		l.files = p->whole->files < p->whole->tree.files ?
		    p->whole->files : p->whole->tree.files;
		l.files_known = p->whole->files_known && !ws->cfg->once;
		l.files_total = p->whole->tree.files;
		emit_line(ws, p, &l, end);
	}
	if (p->feed_path != NULL) {
		copy_line(&l, 0, p->feed_path);
		feed_state(ws, p, now, final, &l.state);
		l.fed_by = (long)p->feed_head;
		l.sample_age = -1;
		emit_line(ws, p, &l, end);
	}
}

/*
 * A file ended short of its end (md5sum, tar read it to the end): what it
 * read after its latest sample is unknown, and its last line says how old
 * that sample is.
 */
static void
note_age(struct watched *w, double now)
{
	if (size_of(w) > 0 && w->position >= size_of(w))
		w->note[0] = '\0';
	else
		snprintf(w->note, sizeof(w->note), "as seen %.2f s before "
		    "the end", now - w->seen_at);
}

/*
 * A file closed, or its process gone, short of its end, which it was
 * reading alone at its last look: if its process has read (by any call)
 * at least what was left of it since, it read it to its end (dd, an rsync
 * sender, each closing between two looks); else its position stands,
 * with its age.
 */
static void
read_to_end(const struct proc *p, struct watched *w)
{
	uint64_t size = size_of(w);

	if (w->alone && p->read_at > 0 && size > w->position &&
	    p->read >= w->read_then &&
	    p->read - w->read_then >= size - w->position)
		w->position = size;
}

/* A file's last word: where it got, and how old that is if short. */
static void
file_last(const struct proc *p, struct watched *w, double now, enum end end)
{
	if (end != END_INTERRUPTED)
		read_to_end(p, w);
	note_age(w, now);
}

/* What a file's record holds, let go. */
static void
forget_file(struct watched *w)
{
	if (w->rates != NULL)
		stats_free(&w->rates->rates);
	free(w->rates);
	free(w->meter);
	free(w->label);
	free(w->file.path);
}

/* A file's end: its last outputs, and what it held let go. */
static void
file_end(struct watch *ws, struct proc *p, struct watched *w, double now,
    enum end end)
{
	file_last(p, w, now, end);
	emit_file(ws, p, w, now, end);
	if (ws->cfg->look.stats)
		file_stats(ws, p, w, now);
	forget_file(w);
}

/*
 * The files closed since the last sample: each one's end, and the list
 * closed up in one pass (cp -r closes thousands).
 */
static void
forget_closed(struct watch *ws, struct proc *p, double now)
{
	size_t kept = 0;

	for (size_t j = 0; j < p->n; j++) {
		if (!p->files[j].present) {
			file_end(ws, p, &p->files[j], now, END_CLOSED);
			continue;
		}
		if (kept != j)
			p->files[kept] = p->files[j];
		kept++;
	}
	p->n = kept;
}

static void
start(struct watch *ws, struct proc *p, struct watched *w,
    const struct procfd_file *f, double now)
{
	char fallback[32], *path = NULL;
	const char *shown = f->path;
	size_t len;

	memset(w, 0, sizeof(*w));
	w->file = *f;
	if (f->path[0] == '\0') {
		snprintf(fallback, sizeof(fallback), "fd %d", f->fd);
		shown = fallback;
	}
	/* each line says whose it is: the command and PID, or the PID */
	if (named(p) != NULL || ws->several) {
		len = (named(p) != NULL ? strlen(named(p)) : 0) +
		    strlen(shown) + 16;
		if ((path = malloc(len)) == NULL)
			report_err(1, "file list");
		if (named(p) != NULL)
			snprintf(path, len, "%s %d: %s", named(p), (int)p->pid,
			    shown);
		else
			snprintf(path, len, "%d: %s", (int)p->pid, shown);
	}
	w->label = report_label(ws->cfg->look.name, path != NULL ? path : shown,
	    ws->cfg->look.prefix);
	free(path);
	w->since = w->moved_at = now;
	if (ws->cfg->look.stats) {
		if ((w->rates = calloc(1, sizeof(*w->rates))) == NULL)
			report_err(1, "file list");
		w->rates->last_t = now;
	}
	w->first = f->offset;
	w->position = f->offset;
	if (f->writable && f->disk != 0)
		line_disk_start(&w->disk, f->disk);
	w->seen_at = now;
	w->present = true;
	w->samples = 1;
}

/* Room for one more file. */
static void
grow(struct proc *p)
{
	struct watched *w;

	p->room = p->room ? p->room * 2 : 8;
	if ((w = reallocarray(p->files, p->room, sizeof(*w))) == NULL)
		report_err(1, "file list");
	p->files = w;
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
same_process(struct proc *p)
{
	uint64_t started;
	int error = procfd_started(p->pid, &started);

	if (procfd_gone(p->hold))
		return false;
	if (error == ENOSYS || (error == 0 && !p->start_known)) {
		p->started = started;
		p->start_known = error == 0;
		return true;
	}
	return error == 0 && started == p->started;
}

/* A file seen before, seen again now: its position and state follow. */
static void
carry_on(struct watched *w, struct procfd_file *f, double now)
{
	if (f->path == NULL)	/* as it was */
		f->path = w->file.path;
	else
		free(w->file.path);
	/* a seek back starts the count again */
	if (f->offset < w->file.offset) {
		w->first = f->offset;
		free(w->meter);
		w->meter = NULL;
		w->since = now;
		if (w->rates != NULL) {
			w->rates->last_t = now;
			w->rates->last_count = 0;
		}
	}
	w->grew_before = w->growing;
	w->growing = f->size > w->file.size;
	w->grown |= w->growing;
	w->still = f->offset == w->file.offset;
	if (!w->still)
		w->moved_at = now;
	/* a position the output told holds while the offset stands still */
	if (!w->still || w->position < f->offset)
		w->position = f->offset;
	w->file = *f;
	f->path = NULL;		/* the watched file owns it */
	w->present = true;
	/* a position kept from the sample before is as old as that one */
	if (f->fresh) {
		w->seen_at = now;
		w->samples++;
	}
}

/*
 * Whether out's growth may be p's own doing, not another process's that
 * shares the file (a log p inherited, as a test under ctest does): p
 * wrote since the look before, or may have; or a thread of it may be
 * writing to out now, or copying in to out in one call, which counts
 * only when it returns.
 */
static bool
grown_by(const struct proc *p, const struct watched *in,
    const struct watched *out)
{
	bool writing;

	if (p->wrote)
		return true;
	return procfd_writing(p->pid, in->file.fd, out->file.fd,
	    &writing) != 0 || writing;
}

/*
 * GNU cp copies up to 2 GiB in one copy_file_range call, and its source's
 * offset moves only when the call returns.  A process with one file open
 * for reading only, standing still, and one file open for writing that
 * grows meanwhile, by its doing (others open for writing, a log,
 * nohup.out, a lock, do not grow): the growing one's size, up to the
 * input's, is how far the input has got.  Two inputs, or two files
 * growing, cannot be told apart, and are not.  A write's bytes show
 * before its count does: growth seen at the look before counts too.
 */
static void
follow_output(struct proc *p)
{
	struct watched *in = NULL, *out = NULL;
	size_t ins = 0, outs = 0;
	uint64_t by_out;

	for (size_t j = 0; j < p->n; j++) {
		/* a log, nohup.out or a lock open beside it does not grow */
		if (p->files[j].file.writing && (p->files[j].growing ||
		    p->files[j].grew_before)) {
			out = &p->files[j];
			outs++;
		} else if (!p->files[j].file.writable) {
			in = &p->files[j];
			ins++;
		}
	}
	if (ins != 1 || outs != 1 || !in->still || in->file.size == 0 ||
	    !grown_by(p, in, out))
		return;
	by_out = out->file.size < in->file.size ? out->file.size :
	    in->file.size;
	if (by_out > in->position)
		in->position = by_out;
}

/*
 * What a file read alone at its last look is told at its end: the bytes
 * its process read by then (-d PID:FD's lists one file of several).
 */
static void
reads_alone(struct proc *p, double now)
{
	struct watched *in = NULL;
	size_t ins = 0;

	for (size_t j = 0; j < p->n; j++)
		if (!p->files[j].file.writable) {
			in = &p->files[j];
			ins++;
		}
	if (ins == 1 && p->fd < 0 && p->read_at == now && in->seen_at == now) {
		in->read_then = p->read;
		in->alone = true;
	} else if (in != NULL && ins > 1)
		for (size_t j = 0; j < p->n; j++)
			p->files[j].alone = false;
}

/* Matches a sample's files with those seen: new ones join, gone ones go. */
static void
merge(struct watch *ws, struct proc *p, struct procfd_file *got, size_t n,
    double now)
{
	struct watchmatch_key *old, *cur;
	long *which;
	bool *kept;
	size_t had = p->n;

	old = calloc(had + 1, sizeof(*old));
	cur = calloc(n + 1, sizeof(*cur));
	which = calloc(n + 1, sizeof(*which));
	kept = calloc(had + 1, sizeof(*kept));
	if (old == NULL || cur == NULL || which == NULL || kept == NULL)
		report_err(1, "file list");
	for (size_t j = 0; j < had; j++)
		old[j] = (struct watchmatch_key){ p->files[j].file.fd,
		    p->files[j].file.dev, p->files[j].file.ino };
	for (size_t i = 0; i < n; i++)
		cur[i] = (struct watchmatch_key){ got[i].fd, got[i].dev,
		    got[i].ino };
	if (!watchmatch(old, had, cur, n, which, kept))
		report_err(1, "file list");
	for (size_t j = 0; j < had; j++)
		p->files[j].present = kept[j];
	for (size_t i = 0; i < n; i++) {
		if (which[i] >= 0 && (size_t)which[i] < had) {
			carry_on(&p->files[which[i]], &got[i], now);
			continue;
		}
		if (p->n == p->room)
			grow(p);
		start(ws, p, &p->files[p->n++], &got[i], now);
		got[i].path = NULL;	/* the watched file owns it */
	}
	free(old);
	free(cur);
	free(which);
	free(kept);
	forget_closed(ws, p, now);
}

/* --reading, --writing: the files the user asked about, the rest freed. */
static size_t
only_open(const struct watch *ws, struct procfd_file *got, size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		if (ws->cfg->open == 0 ||
		    (ws->cfg->open == 'r' && !got[i].writing) ||
		    (ws->cfg->open == 'w' && got[i].writable))
			got[kept++] = got[i];
		else
			free(got[i].path);
	}
	return kept;
}

/*
 * What the last sample saw, for procfd to spare looks where they cost, so
 * that the cost grows with the files that move, not with those that sit:
 * a file that moved is looked at again at every sample, one that stands
 * still after a quarter of the time it has stood, from LOOK_STILL seconds
 * to LOOK_STILLEST (its line keeps its age meanwhile); a process with
 * LIST_ALWAYS files or more has its descriptors listed again every
 * LOOK_STILL seconds, its files known looked at in between.
 */
#define LOOK_STILL	1.0
#define LOOK_STILLEST	4.0
#define LIST_ALWAYS	64

static bool
look_due(const struct watched *w, double now)
{
	double wait = (now - w->moved_at) / 4;

	if (wait < LOOK_STILL)
		wait = LOOK_STILL;
	if (wait > LOOK_STILLEST)
		wait = LOOK_STILLEST;
	return !w->still || now - w->seen_at >= wait;
}

static struct procfd_known
known_files(struct proc *p, double now, struct procfd_file **files,
    bool **look)
{
	bool relist = p->n < LIST_ALWAYS || now - p->listed_at >= LOOK_STILL;
	size_t n = p->n;
	struct procfd_file *f = NULL;
	bool *l = NULL;

	if (n > 0 && ((f = reallocarray(NULL, n, sizeof(*f))) == NULL ||
	    (l = calloc(n, sizeof(*l))) == NULL))
		report_err(1, "file list");
	for (size_t j = 0; j < n; j++) {
		f[j] = p->files[j].file;
		l[j] = look_due(&p->files[j], now);
	}
	if (relist)
		p->listed_at = now;
	*files = f;
	*look = l;
	return (struct procfd_known){ f, l, n, relist };
}

/* A fresh look at w on its meter, made when it first moves. */
static void
measure(const struct watch *ws, struct watched *w, double now)
{
	if (w->meter == NULL) {
		if (file_moved(w) == 0) {
			w->quiet_at = now;
			return;
		}
		if ((w->meter = malloc(sizeof(*w->meter))) == NULL)
			report_err(1, "file list");
		meter_init(w->meter, ws->cfg->look.average_window);
		/* it stood still until its last look */
		if (w->quiet_at > w->since)
			meter_update(w->meter, w->quiet_at - w->since, 0);
	}
	meter_update(w->meter, now - w->since, file_moved(w));
}

/* p's files by descriptor, as procfd_known wants them: mostly already. */
static bool
files_by_fd(const struct proc *p)
{
	for (size_t j = 1; j < p->n; j++)
		if (p->files[j - 1].file.fd > p->files[j].file.fd)
			return false;
	return true;
}

/* Takes a sample of p and merges it.  Returns procfd's error. */
static int
sample_proc(struct watch *ws, struct proc *p, double now)
{
	struct procfd_file *got, *was;
	struct procfd_known known;
	size_t n;
	bool *look;
	int error;

	known = known_files(p, now, &was, &look);
	/* before the listing: no more than it had read of what it lists */
	p->wrote = read_count(p, now);
	/* the files it closed as it ended count too */
	error = procfd_list(p->pid, p->fd, &known, &got, &n);
	free(was);
	free(look);
	if (error != 0) {
		sample_whole(p, now);
		return error;
	}
	if (!same_process(p)) {
		p->read_at = 0;		/* another's count */
		procfd_free(got, n);
		return ESRCH;
	}
	/* the one descriptor followed now holds another file: it closed */
	if (p->fd >= 0 && p->n == 1 && n == 1 &&
	    (got[0].dev != p->files[0].file.dev ||
	    got[0].ino != p->files[0].file.ino)) {
		procfd_free(got, n);
		return EBADF;
	}
	n = only_open(ws, got, n);
	merge(ws, p, got, n, now);
	procfd_free(got, n);
	follow_output(p);
	reads_alone(p, now);
	if (p->fd < 0)
		find_whole(ws, p, now);
	sample_whole(p, now);
	sample_feed(ws, p, now);
	for (size_t j = 0; j < p->n; j++)
		if (p->files[j].samples > 1 && p->files[j].seen_at == now)
			measure(ws, &p->files[j], now);
	if (!files_by_fd(p))
		qsort(p->files, p->n, sizeof(*p->files), by_fd);
	return 0;
}

/* SIGUSR1 (SIGINFO): where each file is, once, on stderr. */
static void
report(struct watch *ws)
{
	char size[32], who[4 * PATH_MAX + 64];

	for (size_t i = 0; i < ws->nprocs; i++) {
		const struct whole *all = ws->procs[i].whole;

		if (all != NULL)
			report_info("%d: all of %s: at %llu of %llu bytes, "
			    "%llu files closed of %llu", (int)ws->procs[i].pid,
			    text_safe(all->root), (unsigned long long)all->done,
			    (unsigned long long)all->tree.size,
			    (unsigned long long)all->files,
			    (unsigned long long)all->tree.files);
		for (size_t j = 0; j < ws->procs[i].n; j++) {
			const struct watched *w = &ws->procs[i].files[j];

			if (size_of(w) > 0)
				snprintf(size, sizeof(size), " of %llu",
				    (unsigned long long)size_of(w));
			else
				size[0] = '\0';
			report_info("%s: at %llu%s bytes",
			    file_whose(&ws->procs[i], w, who, sizeof(who)),
			    (unsigned long long)w->position, size);
		}
	}
}

/* A process's end: its files' last outputs; it leaves the list. */
static void
drop(struct watch *ws, size_t i, double now, enum end end)
{
	struct proc *p = &ws->procs[i];

	emit_copy(ws, p, now, end);
	/* each in its order, none moved: a process with many files ends
	   at once */
	for (size_t j = 0; j < p->n; j++)
		file_end(ws, p, &p->files[j], now, end);
	p->n = 0;
	free_whole(p);
	free_feed(p);
	free(p->files);
	if (p->hold >= 0)
		close(p->hold);
	memmove(p, p + 1, (ws->nprocs - i - 1) * sizeof(*p));
	ws->nprocs--;
}

/* The last lines, each file's end, the screen as it was. */
static void
finish(struct watch *ws, enum end end)
{
	double now = clock_now();

	report_closing(ws->out);
	for (size_t i = 0; i < ws->nprocs; i++)
		for (size_t j = 0; j < ws->procs[i].n; j++)
			file_last(&ws->procs[i], &ws->procs[i].files[j], now,
			    ws->procs[i].ended != END_NONE ?
			    (enum end)ws->procs[i].ended : end);
	if (now - ws->origin >= ws->cfg->delay)
		draw(ws, now, true);
	report_end(ws->out);
	signals_timer(0);
	while (ws->nprocs > 0)
		drop(ws, 0, now, ws->procs[0].ended != END_NONE ?
		    (enum end)ws->procs[0].ended : end);
	free(ws->procs);
	free(ws->waits);
	free(ws->lines);
}

/* A first sample's error: the process cannot be watched at all. */
static _Noreturn void
refuse_watch(pid_t pid, int fd, int error)
{
	if (error == ENOSYS)
		report_errx(1, "-d: this system offers no way to see another "
		    "process's files");
	/* blame another user only when it is one: root may be refused too */
	if ((error == EACCES || error == EPERM) && kill(pid, 0) == -1 &&
	    errno == EPERM)
		report_errc(1, error,
		    "process %d: its files may not be inspected: it "
		    "runs as another user", (int)pid);
	if (error == EACCES || error == EPERM)
		report_errc(1, error,
		    "process %d: its files may not be inspected, "
		    "though tach may signal it: the system's rules forbid it "
		    "(ptrace access, another namespace or jail)", (int)pid);
	if (fd >= 0 && error == PROCFD_NOT_FILE)
		report_errx(1, "process %d: fd %d: not a regular file or disk",
		    (int)pid, fd);
	if (fd >= 0 && error != ESRCH && error != ENOMEM)
		report_errc(1, error, "process %d: fd %d", (int)pid, fd);
	report_errc(1, error, "process %d", (int)pid);
}

/* A process given by its PID: its command, for its lines, where known. */
static void
command_of(struct proc *p)
{
	const char *base;
	char **argv, *cwd;
	int argc;

	if (procfd_command(p->pid, &argv, &argc, &cwd) != 0)
		return;
	if (argc > 0 && argv[0][0] != '\0') {
		base = strrchr(argv[0], '/');
		snprintf(p->command, sizeof(p->command), "%s",
		    base != NULL && base[1] != '\0' ? base + 1 : argv[0]);
	}
	free(argv);
	free(cwd);
}

/*
 * Starts watching pid (its descriptor fd, or -1: every file): held before
 * its first listing, so that the listing is of the held process.  Returns
 * the first sample's error; on one, pid is not watched.
 */
static int
add_proc(struct watch *ws, pid_t pid, int fd, const char *name, double now)
{
	struct proc *p;
	int error;

	if (ws->nprocs == ws->room) {
		ws->room = ws->room ? ws->room * 2 : 4;
		if ((p = reallocarray(ws->procs, ws->room, sizeof(*p))) == NULL)
			report_err(1, "process list");
		ws->procs = p;
	}
	p = &ws->procs[ws->nprocs];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->fd = fd;
	p->name = name;
	if (name == NULL)
		command_of(p);
	p->hold = procfd_hold(pid);
	ws->nprocs++;
	if ((error = sample_proc(ws, p, now)) != 0) {
		if (p->hold >= 0)
			close(p->hold);
		free_whole(p);
		free(p->files);
		ws->nprocs--;
	}
	return error;
}

/* -d PATH: a name with a slash is a file's, no command's. */
static bool
is_path(const char *name)
{
	return strchr(name, '/') != NULL;
}

/*
 * -d PATH: each descriptor of the user's processes open to the file,
 * watched as -d PID:FD is.
 */
static void
find_holders(struct watch *ws, double now)
{
	struct procfd_held *held;
	struct stat sb;
	size_t n;
	bool known;
	int error;

	for (size_t k = 0; k < ws->nnames; k++) {
		if (!is_path(ws->names[k]) || stat(ws->names[k], &sb) != 0)
			continue;
		if ((error = procfd_holders((uint64_t)sb.st_dev,
		    (uint64_t)sb.st_ino, &held, &n)) != 0) {
			if (error == ENOSYS)
				report_errx(1, "-d %s: this system does not "
				    "tell tach who has a file open: give a "
				    "process id", text_safe(ws->names[k]));
			report_warnc(error, "-d %s", text_safe(ws->names[k]));
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			known = false;
			for (size_t j = 0; j < ws->nprocs && !known; j++)
				known = ws->procs[j].pid == held[i].pid &&
				    ws->procs[j].fd == held[i].fd;
			if (!known)
				(void)add_proc(ws, held[i].pid, held[i].fd,
				    NULL, now);
		}
		free(held);
	}
}

/*
 * By name: the processes of those names not watched yet join.  One that
 * may not be inspected is said once, and left; false if procfd cannot
 * look at all.
 */
static bool
find_more(struct watch *ws, double now)
{
	struct procfd_named *found;
	size_t n;
	int error;
	bool known;

	ws->found = now;
	find_holders(ws, now);
	if ((error = procfd_find(ws->names, ws->nnames, &found, &n)) != 0) {
		if (error == ENOSYS)
			report_errx(1,
			    "-d: watching by name is not supported on this "
			    "system: give a process id");
		report_warnc(error, "-d: the process list");
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		known = false;
		for (size_t j = 0; j < ws->nprocs && !known; j++)
			known = ws->procs[j].pid == found[i].pid;
		/* the names outlive the list: they are the options' own */
		for (size_t k = 0; k < ws->nnames && !known; k++)
			if (strcmp(ws->names[k], found[i].name) == 0) {
				error = add_proc(ws, found[i].pid, -1,
				    ws->names[k], now);
				if (error == EACCES || error == EPERM)
					report_warnx("%s %d: its files may "
					    "not be inspected: left out",
					    ws->names[k], (int)found[i].pid);
				break;
			}
	}
	free(found);
	return true;
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

	for (size_t i = 0; i < ws->nprocs; i++)
		for (size_t j = 0; j < ws->procs[i].n; j++) {
			const struct watched *w = &ws->procs[i].files[j];
			double rate;

			if (w->meter == NULL || size_of(w) <= w->position ||
			    (rate = meter_rate(w->meter, METER_RATE_WINDOW)) <= 0)
				continue;
			left = (double)(size_of(w) - w->position) / rate;
			if (left < 2 * ws->cfg->look.interval &&
			    left / 20 < next)
				next = left / 20;
		}
	return next < 0.005 ? 0.005 : next;
}

/*
 * Until a signal (the sample's tick among them), or until a process
 * exits (its pidfd, Linux): then it is sampled at once, before its
 * parent reaps it, so that its last I/O count is read.
 */
static int
wait_for_exits(struct watch *ws)
{
	struct pollfd *more;
	size_t n = 0;
	int bits;

	if (ws->nprocs > ws->nwaits) {
		if ((more = reallocarray(ws->waits, ws->nprocs,
		    sizeof(*more))) == NULL)
			report_err(1, "-d: the processes' exits");
		ws->waits = more;
		ws->nwaits = ws->nprocs;
	}
	for (size_t i = 0; i < ws->nprocs; i++)
		if (ws->procs[i].hold >= 0 && !ws->procs[i].exit_told)
			ws->waits[n++] = (struct pollfd){
			    .fd = ws->procs[i].hold, .events = POLLIN };
	bits = signals_wait_fds(ws->waits, n);
	for (size_t i = 0, k = 0; i < ws->nprocs && k < n; i++) {
		struct proc *p = &ws->procs[i];

		if (p->hold < 0 || p->exit_told)
			continue;
		/* first of all: the parent may reap it any moment */
		if ((p->exit_told = ws->waits[k++].revents != 0)) {
			read_count(p, clock_now());
			sample_whole(p, clock_now());
		}
	}
	return bits;
}

/* A frame: each file's -n and JSON output, the block, and a word if none. */
static void
frame(struct watch *ws, double now)
{
	for (size_t i = 0; i < ws->nprocs; i++) {
		struct proc *p = &ws->procs[i];

		emit_copy(ws, p, now, END_NONE);
		for (size_t j = 0; j < p->n; j++)
			emit_file(ws, p, &p->files[j], now, END_NONE);
	}
	/* -n or JSON into a reader that left: die of it, as pv */
	if (ferror(stderr) && errno == EPIPE && !signals_ignored(SIGPIPE))
		signals_die(SIGPIPE);
	if (now - ws->origin < ws->cfg->delay)
		return;
	/*
	 * A PID given (a kernel thread, sleep on a tty): nothing to show, and
	 * it says so.  A process matched by name (rsync's helpers) with no
	 * file is nobody's concern: it is left out of the block unsaid.
	 */
	for (size_t i = 0; i < ws->nprocs; i++) {
		struct proc *p = &ws->procs[i];

		if (p->n == 0 && !p->told_none && ws->out->active &&
		    p->name == NULL && p->whole == NULL &&
		    p->feed_path == NULL)
			report_warnx("process %d has no regular file or "
			    "disk open: waiting for one", (int)p->pid);
		p->told_none = p->n == 0;
	}
	draw(ws, now, false);
	ws->phase++;
}

/*
 * The processes to watch at the start: each one given, and those of each
 * name given; the usual copy tools when none is.
 */
static void
begin(struct watch *ws)
{
	const struct watch_config *c = ws->cfg;
	const struct watch_target *t;
	struct stat sb;
	int error;

	ws->several = c->npids + c->nnames > 1;
	for (size_t i = 0; i < c->npids; i++) {
		t = &c->pids[i];
		if ((error = add_proc(ws, (pid_t)t->pid, t->fd, NULL,
		    ws->origin)) != 0)
			refuse_watch((pid_t)t->pid, t->fd, error);
	}
	if (c->nnames > 0) {
		ws->names = c->names;
		ws->nnames = c->nnames;
	} else if (c->npids == 0) {
		ws->names = copy_tools;
		ws->nnames = sizeof(copy_tools) / sizeof(copy_tools[0]);
	}
	if (ws->names != NULL && !find_more(ws, ws->origin))
		exit(1);
	if (ws->nprocs == 0 && !c->wait_for) {
		if (c->nnames == 1 && c->names != NULL &&
		    is_path(c->names[0]) &&
		    stat(c->names[0], &sb) != 0)
			report_err(1, "-d %s", text_safe(c->names[0]));
		if (c->nnames == 1 && c->names != NULL &&
		    is_path(c->names[0]))
			report_errx(1, "-d %s: no process of yours has it "
			    "open (--wait-for waits for one)",
			    text_safe(c->names[0]));
		if (c->nnames == 1 && c->names != NULL)
			report_errx(1,
			    "-d %s: no process of that name is running "
			    "(--wait-for waits for one)",
			    text_safe(c->names[0]));
		if (c->nnames > 1)
			report_errx(1, "-d: no process of the names given is "
			    "running (--wait-for waits for one)");
		report_errx(1, "-d: none of the usual copy tools is running "
		    "(--wait-for waits for one)");
	}
}

/*
 * A process that ended while others go on leaves its files' last lines
 * on the screen, as a copy leaves its closing line; the block of the
 * others starts below them.
 */
static void
leave_lines(struct watch *ws, struct proc *p, double now)
{
	size_t k = 0;

	if (p->n + (p->whole != NULL) + (p->feed_path != NULL) == 0 ||
	    !ws->out->active ||
	    now - ws->origin < ws->cfg->delay)
		return;
	if (p->whole != NULL)
		whole_state(ws, p, now, true, &ws->lines[k++]);
	if (p->feed_path != NULL)
		feed_state(ws, p, now, true, &ws->lines[k++]);
	for (size_t j = 0; j < p->n; j++) {
		file_last(p, &p->files[j], now, (enum end)p->ended);
		file_state(ws, &p->files[j], now, true, &ws->lines[k++]);
	}
	report_draw(ws->out, ws->lines, k);
	report_newline(ws->out);
}

/*
 * The file base is a copy of, by rsync's name for it (".NAME.XXXXXX" in
 * the destination's directory): NAME's length, or 0.
 */
static size_t
copied_name(const char *base)
{
	size_t len = strlen(base);

	return base[0] == '.' && len >= 9 && base[len - 7] == '.' ?
	    len - 8 : 0;
}

/*
 * rsync's receiver writes a temporary file whose end it does not tell:
 * where a watched process (its sender) reads a file of the name it is a
 * copy of, that file's size is its end (Xfennec/progress#140).
 */
static void
copies_of(struct watch *ws)
{
	for (size_t i = 0; i < ws->nprocs; i++)
		for (size_t j = 0; j < ws->procs[i].n; j++) {
			struct watched *w = &ws->procs[i].files[j];
			const char *base = strrchr(w->file.path, '/');
			size_t len;

			w->copy_of = 0;
			if (!w->file.writable || base == NULL ||
			    (len = copied_name(++base)) == 0)
				continue;
			for (size_t k = 0; k < ws->nprocs; k++)
				for (size_t m = 0; m < ws->procs[k].n; m++) {
					const struct watched *in =
					    &ws->procs[k].files[m];
					const char *b = strrchr(in->file.path,
					    '/');

					if (!in->file.writable && b != NULL &&
					    strlen(b + 1) == len &&
					    strncmp(b + 1, base + 1, len) == 0)
						w->copy_of = in->file.size;
				}
		}
}

/*
 * Samples each process; those that ended (or whose one descriptor closed)
 * leave.  Returns false when the watch is over.
 */
static bool
sample_all(struct watch *ws, double now)
{
	const struct watch_config *c = ws->cfg;
	size_t left = 0;
	int error;

	time_of_day(ws);	/* for the files that end */

	for (size_t i = 0; i < ws->nprocs; i++) {
		struct proc *p = &ws->procs[i];

		error = sample_proc(ws, p, now);
		/* the process, or the one descriptor followed, is done */
		if (error == ESRCH || (p->fd >= 0 && (error == EBADF ||
		    error == PROCFD_NOT_FILE || p->n == 0)))
			p->ended = error == ESRCH ? END_EXITED : END_CLOSED;
		else if (error != 0) {
			pid_t pid = p->pid;

			int fd = p->fd;

			finish(ws, END_INTERRUPTED);
			refuse_watch(pid, fd, error);
		} else
			left++;
	}
	copies_of(ws);
	lines_room(ws);
	/* the last to end keep their lines on the screen, as the watch ends */
	if (left == 0 && !c->wait_for)
		return false;
	for (size_t i = ws->nprocs; i-- > 0;)
		if (ws->procs[i].ended != END_NONE) {
			leave_lines(ws, &ws->procs[i], now);
			drop(ws, i, now, (enum end)ws->procs[i].ended);
		}
	/* --wait-for: new ones, once a second */
	if (ws->names != NULL && c->wait_for && now - ws->found >= 1)
		(void)find_more(ws, now);
	lines_room(ws);
	return true;
}

/* Some process watched has a file open for writing that grew. */
static bool
output_grew(const struct watch *ws)
{
	for (size_t i = 0; i < ws->nprocs; i++)
		for (size_t j = 0; j < ws->procs[i].n; j++)
			if (ws->procs[i].files[j].file.writing &&
			    ws->procs[i].files[j].growing)
				return true;
	return false;
}

/*
 * --once and GNU cp: its source's offset stands still through one long
 * copy_file_range while its destination grows, which one look cannot
 * tell.  Where a file is open for writing, more looks a tenth of a
 * second apart (half a second at most) until one grows: the source is
 * then shown where its destination is (follow_output), as the live watch
 * shows it.  A process gone meanwhile keeps its first look.
 */
static void
looks_for_growth(struct watch *ws)
{
	struct timespec tenth = { 0, 100000000 };
	bool writing = false;

	for (size_t i = 0; i < ws->nprocs; i++)
		for (size_t j = 0; j < ws->procs[i].n; j++)
			writing |= ws->procs[i].files[j].file.writing;
	for (int k = 0; k < 5 && writing && !output_grew(ws); k++) {
		(void)nanosleep(&tenth, NULL);
		for (size_t i = 0; i < ws->nprocs; i++)
			(void)sample_proc(ws, &ws->procs[i], clock_now());
	}
}

/*
 * --once: where each file is, as one frame (-n and JSON too), its lines
 * left on the screen; 1, with a message, when no file is to be seen.
 */
static int
look_once(struct watch *ws)
{
	double now;

	looks_for_growth(ws);
	copies_of(ws);
	now = clock_now();
	if (all_files(ws) == 0)
		report_errx(1, "-d: nothing to show: no regular file or disk "
		    "is open in the processes watched");
	for (size_t i = 0; i < ws->nprocs; i++) {
		emit_copy(ws, &ws->procs[i], now, END_NONE);
		for (size_t j = 0; j < ws->procs[i].n; j++)
			emit_file(ws, &ws->procs[i], &ws->procs[i].files[j],
			    now, END_NONE);
	}
	report_closing(ws->out);
	draw(ws, now, true);
	report_end(ws->out);
	/* what the watch holds, let go without the ends' outputs */
	for (size_t i = 0; i < ws->nprocs; i++) {
		struct proc *p = &ws->procs[i];

		for (size_t j = 0; j < p->n; j++)
			forget_file(&p->files[j]);
		free_whole(p);
		free_feed(p);
		free(p->files);
		if (p->hold >= 0)
			close(p->hold);
	}
	free(ws->procs);
	free(ws->waits);
	free(ws->lines);
	return 0;
}

int
watch_run(const struct watch_config *c)
{
	struct watch ws;
	struct reporter out;
	double now, drawn;
	int bits = SIGNAL_TICK;

	if (c->pipeline)
		return pipeline_run(c);
	memset(&ws, 0, sizeof(ws));
	memset(&out, 0, sizeof(out));
	ws.cfg = c;
	ws.out = &out;
	ws.origin = clock_now();
	meter_init(&ws.still, c->look.average_window);
	begin(&ws);
	lines_room(&ws);
	/* --once is asked for its one frame: on a terminal or not (watch(1)) */
	report_open(ws.out, STDERR_FILENO, !c->look.numeric && !c->look.json,
	    c->look.force || c->once, c->look.width, c->look.format,
	    c->look.bar_style);
	if (c->look.cursor && !c->once)
		report_pin(ws.out);	/* the lines on rows of their own */
	if (c->once)
		return look_once(&ws);
	if (ws.nprocs == 0)
		report_info("-d: waiting for %s%s", c->nnames == 1 ?
		    "a process named " : c->nnames > 1 ?
		    "a process of the names given" :
		    "one of the usual copy tools", c->nnames == 1 &&
		    c->names != NULL ?
		    text_safe(c->names[0]) : "");
	signals_install_display();
	drawn = ws.origin - c->look.interval;
	for (;;) {
		now = clock_now();
		if (now - drawn >= c->look.interval * 0.99 ||
		    (bits & (SIGNAL_WINCH | SIGNAL_CONT | SIGNAL_TSTP))) {
			frame(&ws, now);
			drawn = now;
		}
		signals_timer(next_sample(&ws,
		    c->look.interval - (now - drawn)));
		bits = wait_for_exits(&ws);
		if (bits & SIGNAL_TERMINATE) {
			finish(&ws, END_INTERRUPTED);
			signals_die(signals_fatal());
		}
		if (bits & SIGNAL_TSTP)
			(void)report_suspend(ws.out);
		if (bits & SIGNAL_INFO)
			report(&ws);
		if (!sample_all(&ws, clock_now())) {
			finish(&ws, END_EXITED);
			return 0;
		}
	}
}
