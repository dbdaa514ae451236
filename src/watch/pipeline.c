/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -d PID --pipeline: every process joined to PID by pipes, both ways, a
 * line each, upstream first: its bytes in and out, and where its time
 * went over the last PIPE_WINDOW seconds (working, waiting for input,
 * for room to write, for the disk), the stage that holds the others back
 * named.  Where the first stage reads a file of known size, every stage
 * shows the pipeline's percentage and time left.  Each stage is looked
 * at every PIPE_LOOK seconds; the pipes are followed again every
 * PIPE_FOLLOW seconds and when a stage ends.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/clock.h"
#include "tach/compat.h"
#include "tach/line.h"
#include "tach/meter.h"
#include "tach/pipegraph.h"
#include "tach/pipeline.h"
#include "tach/procfd.h"
#include "tach/procpipe.h"
#include "tach/render.h"
#include "tach/report.h"
#include "tach/signals.h"

#define PIPE_LOOK	0.05
#define PIPE_WINDOW	3.0
#define PIPE_FOLLOW	2.0
#define PIPE_MARKS	128	/* PIPE_WINDOW / PIPE_LOOK, and room */
#define PIPE_KNOWN	1.0	/* seconds of looks before shares are told */
#define PIPE_STAGES	256	/* followed at most */

/* A pipe from one stage into the next. */
struct pipeline_link {
	pid_t		 from, to;
};
struct pipeline_links {
	struct pipeline_link *links;
	size_t		 n;
};

/* A stage's counts at one look, each since it was first looked at. */
struct mark {
	double		 t;
	uint64_t	 cpu;
	unsigned	 looks, in, out, disk;
};

struct stage {
	pid_t		 pid;
	int		 hold;		/* procfd_hold's, or -1 */
	struct procpipe_look first, last;
	double		 since;
	bool		 ended;
	bool		 told;		/* its final object written */
	struct mark	 now;		/* the counts so far */
	struct mark	 marks[PIPE_MARKS];
	size_t		 nmarks, head;
	struct meter	 in, out;
	double		 rate_max;
	struct report_stage share;	/* at the last frame */
	char		 label[96];
	char		 note[96];
};

struct pipeline {
	const struct watch_config *cfg;
	struct stage	*stages;	/* in order, upstream first */
	size_t		 n;
	double		 origin, followed;
	uint64_t	 done, size;	/* the first stage's file, or 0 0 */
	uint64_t	 first;		/* done when first seen, */
	double		 first_at;	/* then */
	struct meter	 progress;
	struct render_state *lines;
	struct reporter	*out;
	unsigned	 phase;
};

static bool
has_pid(const pid_t *pids, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

/*
 * The pipe on pid's fd (its write end when writes): 0 if none.  Only a
 * stage's standard input and output join it to the next: a pipe every
 * process of a session shares (a terminal's, a job's) is no stage's.
 */
static uint64_t
pipe_on(pid_t pid, int fd, bool writes)
{
	struct procpipe_end *own;
	uint64_t pipe = 0;
	size_t n;

	if (procpipe_ends(pid, NULL, 0, &own, &n) != 0)
		return 0;
	for (size_t k = 0; k < n; k++)
		if (own[k].fd == fd && own[k].writes == writes)
			pipe = own[k].pipe;
	free(own);
	return pipe;
}

static void
add_link(struct pipeline_links *l, pid_t from, pid_t to)
{
	struct pipeline_link *more;

	if ((more = reallocarray(l->links, l->n + 1, sizeof(*more))) == NULL)
		report_err(1, "--pipeline");
	l->links = more;
	l->links[l->n++] = (struct pipeline_link){ from, to };
}

static void
add_pid(pid_t **pids, size_t *n, pid_t pid)
{
	pid_t *more;

	if ((more = reallocarray(*pids, *n + 1, sizeof(**pids))) == NULL)
		report_err(1, "--pipeline");
	*pids = more;
	(*pids)[(*n)++] = pid;
}

/* A stage's end of a pipe: its standard output's write end, or input's. */
static bool
stage_end(const struct procpipe_end *e)
{
	return e->fd == (e->writes ? 1 : 0);
}

/*
 * Everyone on pipe as a stage, writers and readers, joined to pids, each
 * writer linked to each reader.  0, or procpipe's errno.
 */
static int
join_pipe(uint64_t pipe, pid_t **pids, size_t *n,
    struct pipeline_links *links)
{
	struct procpipe_end *ends;
	size_t nends;
	int error;

	if ((error = procpipe_ends(0, &pipe, 1, &ends, &nends)) != 0)
		return error;
	for (size_t w = 0; w < nends; w++) {
		if (!stage_end(&ends[w]))
			continue;
		if (!has_pid(*pids, *n, ends[w].pid) && *n < PIPE_STAGES)
			add_pid(pids, n, ends[w].pid);
		for (size_t r = 0; r < nends && ends[w].writes; r++)
			if (stage_end(&ends[r]) && !ends[r].writes &&
			    ends[r].pid != ends[w].pid)
				add_link(links, ends[w].pid, ends[r].pid);
	}
	free(ends);
	return 0;
}

/*
 * From the processes in pids, through the pipes on their standard input
 * (and output, when down), to everyone else on those pipes, and on from
 * each: a pipe's other writers join too, as xargs's children do.  The
 * processes met are added to pids, each pipe between two to links.  0,
 * or procpipe's errno.
 */
static int
follow(pid_t **pids, size_t *n, struct pipeline_links *links, bool down)
{
	uint64_t seen[2 * PIPE_STAGES], pipe;
	size_t nseen = 0, k;
	int error;

	for (size_t at = 0; at < *n; at++)
		for (int fd = 0; fd <= (down ? 1 : 0); fd++) {
			if ((pipe = pipe_on((*pids)[at], fd, fd == 1)) == 0)
				continue;
			for (k = 0; k < nseen && seen[k] != pipe; k++)
				;
			if (k < nseen || nseen == 2 * PIPE_STAGES)
				continue;
			seen[nseen++] = pipe;
			if ((error = join_pipe(pipe, pids, n, links)) != 0)
				return error;
		}
	return 0;
}

/* The stages of pids, in the order the data goes (pipegraph_order). */
static void
order_stages(pid_t *pids, size_t n, const struct pipeline_links *l)
{
	struct pipegraph_edge *edges;
	size_t *order, from, to;
	pid_t *sorted;

	edges = calloc(l->n + 1, sizeof(*edges));
	order = calloc(n + 1, sizeof(*order));
	sorted = calloc(n + 1, sizeof(*sorted));
	if (edges == NULL || order == NULL || sorted == NULL)
		report_err(1, "--pipeline");
	for (size_t e = 0; e < l->n; e++) {
		for (from = 0; pids[from] != l->links[e].from; from++)
			;
		for (to = 0; pids[to] != l->links[e].to; to++)
			;
		edges[e] = (struct pipegraph_edge){ from, to };
	}
	if (!pipegraph_order(n, edges, l->n, order))
		report_err(1, "--pipeline");
	for (size_t i = 0; i < n; i++)
		sorted[i] = pids[order[i]];
	memcpy(pids, sorted, n * sizeof(*pids));
	free(edges);
	free(order);
	free(sorted);
}

static bool
known_live(const struct pipeline *pl, pid_t pid)
{
	for (size_t i = 0; i < pl->n; i++)
		if (pl->stages[i].pid == pid && !pl->stages[i].ended)
			return true;
	return false;
}

/* A stage first seen: its counts start from this look. */
static bool
stage_start(const struct pipeline *pl, struct stage *s, pid_t pid, double now)
{
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	if (procpipe_look(pid, &s->first) != 0)
		return false;
	s->last = s->first;
	s->since = now;
	s->hold = procfd_hold(pid);
	meter_init(&s->in, pl->cfg->look.average_window);
	meter_init(&s->out, pl->cfg->look.average_window);
	return true;
}

/*
 * The stages as the pipes join them now: those known keep their counts,
 * new ones join, those gone keep their last line.  Returns the errno of
 * the first following, or 0.
 */
static int
find_stages(struct pipeline *pl, pid_t seed, double now)
{
	struct pipeline_links links = { NULL, 0 };
	struct stage *next;
	size_t n = 0, k = 0;
	pid_t *pids = NULL;
	int error;

	add_pid(&pids, &n, seed);
	if ((error = follow(&pids, &n, &links, true)) != 0) {
		free(pids);
		free(links.links);
		return error;
	}
	order_stages(pids, n, &links);
	free(links.links);
	pl->followed = now;
	/* none new: the stages keep their places, and their numbers */
	for (k = 0; k < n && known_live(pl, pids[k]); k++)
		;
	if (k == n && pl->n > 0) {
		free(pids);
		return 0;
	}
	k = 0;
	/* the ended first, where they were; then the pipeline's order */
	if ((next = calloc(pl->n + n + 1, sizeof(*next))) == NULL)
		report_err(1, "--pipeline");
	for (size_t i = 0; i < pl->n; i++)
		if (pl->stages[i].ended || !has_pid(pids, n, pl->stages[i].pid))
			next[k++] = pl->stages[i];
	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < pl->n && (pl->stages[j].pid != pids[i] ||
		    pl->stages[j].ended); j++)
			;
		if (j < pl->n)
			next[k++] = pl->stages[j];
		else if (stage_start(pl, &next[k], pids[i], now))
			k++;
	}
	free(pl->stages);
	free(pids);
	pl->stages = next;
	pl->n = k;
	free(pl->lines);
	if ((pl->lines = calloc(pl->n + 1, sizeof(*pl->lines))) == NULL)
		report_err(1, "--pipeline");
	return 0;
}

/* One look at a stage: false when it has ended. */
static bool
look_at(struct stage *s, double now)
{
	struct procpipe_look l;

	if ((s->hold >= 0 && procfd_gone(s->hold)) ||
	    procpipe_look(s->pid, &l) != 0 ||
	    strcmp(l.command, s->first.command) != 0)
		return false;
	s->last = l;
	s->now.t = now;
	s->now.cpu = l.cpu - s->first.cpu;
	s->now.looks++;
	/* waiting is all a stage does when no thread of it runs */
	if (l.running == 0) {
		if (l.pipe_out > 0)
			s->now.out++;
		else if (l.pipe_in > 0)
			s->now.in++;
		else if (l.disk > 0)
			s->now.disk++;
	}
	s->marks[s->head] = s->now;
	s->head = (s->head + 1) % PIPE_MARKS;
	if (s->nmarks < PIPE_MARKS)
		s->nmarks++;
	meter_update(&s->in, now - s->since, l.read - s->first.read);
	meter_update(&s->out, now - s->since, l.written - s->first.written);
	return true;
}

/* Its shares over the window's looks; false before PIPE_KNOWN of them. */
static bool
shares(const struct stage *s, struct pipegraph_time *t, double *disk)
{
	const struct mark *old = NULL, *m;
	double dt;
	unsigned looks;

	for (size_t i = 0; i < s->nmarks; i++) {
		m = &s->marks[(s->head + PIPE_MARKS - 1 - i) % PIPE_MARKS];
		if (s->now.t - m->t > PIPE_WINDOW)
			break;
		old = m;
	}
	if (old == NULL || (dt = s->now.t - old->t) < PIPE_KNOWN ||
	    (looks = s->now.looks - old->looks) == 0)
		return false;
	t->working = (double)(s->now.cpu - old->cpu) / procpipe_ticks() / dt;
	t->waiting_in = (double)(s->now.in - old->in) / looks;
	t->waiting_out = (double)(s->now.out - old->out) / looks;
	*disk = (double)(s->now.disk - old->disk) / looks;
	return true;
}

int
pipeline_source(pid_t pid, uint64_t *offset, uint64_t *size, char **path)
{
	struct procfd_file *files;
	size_t n, best = SIZE_MAX;
	int error;

	*path = NULL;
	if ((error = procfd_list(pid, -1, NULL, &files, &n)) != 0)
		return error;
	/* the file it reads: open to read only, the furthest into it */
	for (size_t i = 0; i < n; i++)
		if (!files[i].writable && files[i].size > 0 &&
		    files[i].offset <= files[i].size && (best == SIZE_MAX ||
		    files[i].offset > files[best].offset))
			best = i;
	if (best != SIZE_MAX) {
		*offset = files[best].offset;
		*size = files[best].size;
		*path = files[best].path;
		files[best].path = NULL;
	}
	procfd_free(files, n);
	return best == SIZE_MAX ? ENOENT : 0;
}

pid_t
pipeline_head(pid_t pid)
{
	struct pipeline_links links = { NULL, 0 };
	size_t n = 0;
	pid_t *pids = NULL, head = 0;

	add_pid(&pids, &n, pid);
	if (follow(&pids, &n, &links, false) == 0 && n > 1) {
		order_stages(pids, n, &links);
		head = pids[0];
	}
	free(pids);
	free(links.links);
	return head;
}

/* The first stage's file, read from: the pipeline's done and size. */
static void
source_file(struct pipeline *pl, double now)
{
	uint64_t offset, size;
	char *path;

	if (pl->n == 0 || pl->stages[0].ended ||
	    pipeline_source(pl->stages[0].pid, &offset, &size, &path) != 0)
		return;
	free(path);
	/* the meter counts from where the file was when first seen */
	if (pl->size != size || offset < pl->first) {
		meter_init(&pl->progress, pl->cfg->look.average_window);
		pl->first = offset;
		pl->first_at = now;
	}
	pl->done = offset;
	pl->size = size;
	meter_update(&pl->progress, now - pl->first_at, pl->done - pl->first);
}

/* Every stage's shares, and the one that holds the others back. */
static void
weigh(struct pipeline *pl)
{
	struct pipegraph_time *t;
	size_t *which, live = 0;
	bool all = true;
	double disk;
	long b;

	t = calloc(pl->n + 1, sizeof(*t));
	which = calloc(pl->n + 1, sizeof(*which));
	if (t == NULL || which == NULL)
		report_err(1, "--pipeline");
	for (size_t i = 0; i < pl->n; i++) {
		struct stage *s = &pl->stages[i];

		s->share.bottleneck = false;
		if (s->ended)
			continue;
		s->share.known = shares(s, &t[live], &disk);
		all &= s->share.known;
		s->share.working = t[live].working;
		s->share.waiting_in = t[live].waiting_in;
		s->share.waiting_out = t[live].waiting_out;
		s->share.waiting_disk = s->share.known ? disk : 0;
		which[live++] = i;
	}
	if (all && (b = pipegraph_bottleneck(t, live)) >= 0)
		pl->stages[which[b]].share.bottleneck = true;
	free(t);
	free(which);
}

/* A stage's line: its bytes in, their rate, and its shares in a note. */
static void
stage_state(struct pipeline *pl, struct stage *s, size_t index, double now,
    struct render_state *r)
{
	uint64_t in = s->last.read - s->first.read;
	struct line_source src = { .meter = &s->in, .progress = &pl->progress,
	    .eta_size = pl->size - pl->first, .count = in, .done = pl->done,
	    .size = pl->size, .unit = pl->cfg->look.unit,
	    .window = pl->cfg->look.average_window, .elapsed = now - s->since,
	    .gauge = pl->cfg->look.gauge, .final = s->ended, .phase = pl->phase,
	    .prefix = s->label, .name = pl->cfg->look.name };
	char out[32];

	snprintf(s->label, sizeof(s->label), "%zu %s %d%s", index,
	    s->first.command, (int)s->pid,
	    s->share.bottleneck ? " (bottleneck)" : "");
	line_state(&src, &s->rate_max, r);
	r->whose_file = true;
	render_amount((double)(s->last.written - s->first.written),
	    pl->cfg->look.unit, out, sizeof(out));
	if (s->ended)
		snprintf(s->note, sizeof(s->note), "out %s, exited", out);
	else if (!s->share.known)
		snprintf(s->note, sizeof(s->note), "out %s", out);
	else
		snprintf(s->note, sizeof(s->note), "out %s, works %.0f%%, "
		    "waits in %.0f%% out %.0f%% disk %.0f%%", out,
		    100 * s->share.working, 100 * s->share.waiting_in,
		    100 * s->share.waiting_out, 100 * s->share.waiting_disk);
	r->note = s->note;
}

/* Each stage's JSON object, at a frame, or its last. */
static void
emit_stages(struct pipeline *pl, double now, bool final)
{
	for (size_t i = 0; i < pl->n; i++) {
		struct stage *s = &pl->stages[i];
		struct report_stage *o = &s->share;

		if (!pl->cfg->look.json || s->told)
			continue;
		o->stage = i;
		o->pid = (long)s->pid;
		o->command = s->first.command;
		o->elapsed = now - s->since;
		o->bytes_in = s->last.read - s->first.read;
		o->bytes_out = s->last.written - s->first.written;
		o->rate_in = meter_rate(&s->in, pl->cfg->look.average_window);
		o->rate_out = meter_rate(&s->out, pl->cfg->look.average_window);
		o->done = pl->done;
		o->size = pl->size;
		o->eta = pl->size > 0 ? meter_eta(&pl->progress, pl->size -
		    pl->first) : -1;
		o->final = final || s->ended;
		o->result = s->ended ? "exited" : final ? "interrupted" : NULL;
		report_stage_json(o);
		s->told = s->ended;
	}
}

static void
draw_stages(struct pipeline *pl, double now)
{
	size_t rows = report_rows(pl->out), k = 0;

	for (size_t i = 0; i < pl->n && k < rows; i++)
		stage_state(pl, &pl->stages[i], i, now, &pl->lines[k++]);
	report_draw(pl->out, pl->lines, k);
	pl->phase++;
}

/* A look at every stage; false once every one has ended. */
static bool
look_all(struct pipeline *pl, pid_t seed, double now)
{
	bool left = false, gone = false;

	for (size_t i = 0; i < pl->n; i++) {
		struct stage *s = &pl->stages[i];

		if (s->ended)
			continue;
		if (look_at(s, now))
			left = true;
		else {
			s->ended = gone = true;
			if (s->hold >= 0)
				close(s->hold);
			s->hold = -1;
		}
	}
	/* a stage that ended may have handed its pipe on; a new one joined */
	for (size_t i = 0; i < pl->n && left; i++)
		if (!pl->stages[i].ended) {
			seed = pl->stages[i].pid;
			break;
		}
	if (left && (gone || now - pl->followed >= PIPE_FOLLOW))
		(void)find_stages(pl, seed, now);
	return left;
}

static void
end_stages(struct pipeline *pl, double now, bool interrupted)
{
	report_closing(pl->out);
	if (!interrupted)
		for (size_t i = 0; i < pl->n; i++)
			pl->stages[i].ended = true;
	weigh(pl);
	emit_stages(pl, now, true);
	draw_stages(pl, now);
	report_end(pl->out);
	signals_timer(0);
	for (size_t i = 0; i < pl->n; i++)
		if (pl->stages[i].hold >= 0)
			close(pl->stages[i].hold);
	free(pl->stages);
	free(pl->lines);
}

/* --once: the stages and their bytes at one look, no shares over time. */
static int
once_stages(struct pipeline *pl, pid_t seed)
{
	double now = clock_now();

	(void)look_all(pl, seed, now);
	weigh(pl);
	emit_stages(pl, now, false);
	report_closing(pl->out);
	draw_stages(pl, now);
	report_end(pl->out);
	for (size_t i = 0; i < pl->n; i++)
		if (pl->stages[i].hold >= 0)
			close(pl->stages[i].hold);
	free(pl->stages);
	free(pl->lines);
	return 0;
}

int
pipeline_run(const struct watch_config *c)
{
	const struct watch_target *t = &c->pids[0];
	struct pipeline pl;
	struct reporter out;
	double now, drawn;
	int error, bits;

	if (c->npids != 1 || c->nnames > 0 || t->fd >= 0)
		report_errx(1, "--pipeline follows the pipes of one process: "
		    "-d PID");
	memset(&pl, 0, sizeof(pl));
	memset(&out, 0, sizeof(out));
	pl.cfg = c;
	pl.out = &out;
	pl.origin = clock_now();
	if ((error = find_stages(&pl, (pid_t)t->pid, pl.origin)) != 0) {
		if (error == ENOSYS)
			report_errx(1, "--pipeline: this system does not tell "
			    "tach which processes a pipe joins");
		report_errc(1, error, "--pipeline: process %d", (int)t->pid);
	}
	if (pl.n == 0)
		report_errx(1, "--pipeline: process %d: no such process",
		    (int)t->pid);
	report_open(pl.out, STDERR_FILENO, !c->look.json,
	    c->look.force || c->once, c->look.width, c->look.format,
	    c->look.bar_style);
	if (c->look.cursor && !c->once)
		report_pin(pl.out);	/* a row a stage */
	source_file(&pl, pl.origin);
	if (c->once)
		return once_stages(&pl, (pid_t)t->pid);
	signals_install_display();
	drawn = pl.origin;
	for (;;) {
		signals_timer(PIPE_LOOK);
		bits = signals_wait();
		now = clock_now();
		if (bits & SIGNAL_TERMINATE) {
			end_stages(&pl, now, true);
			signals_die(signals_fatal());
		}
		if (bits & SIGNAL_TSTP)
			(void)report_suspend(pl.out);
		if (!look_all(&pl, (pid_t)t->pid, now)) {
			end_stages(&pl, now, false);
			return 0;
		}
		if (now - drawn >= c->look.interval * 0.99 ||
		    (bits & (SIGNAL_WINCH | SIGNAL_CONT))) {
			source_file(&pl, now);
			weigh(&pl);
			emit_stages(&pl, now, false);
			draw_stages(&pl, now);
			drawn = now;
		}
	}
}
