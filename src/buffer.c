/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The buffer tier (-b beyond the pipes, tier.h): a thread of its own reads
 * the input into a ring of -b bytes while this one writes the ring out,
 * so that a stalled output does not stop the input nor a stalled input the
 * output, as mbuffer's two threads do.  Only this thread counts, paces,
 * draws and takes signals: the reader has every signal blocked, and wakes
 * this thread through a pipe, whose poll(2) a signal interrupts, never
 * through a condition variable, whose wait it does not.
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/clock.h"
#include "tach/compat.h"
#include "tach/message.h"
#include "tier.h"

/* The reader's largest read: a grown pipe's worth. */
#define FILL_MAX	(1024 * 1024)

struct relay_ring {
	unsigned char	*buf;
	size_t		 size;
	pthread_mutex_t	 lock;		/* guards all below */
	pthread_cond_t	 room;		/* the writer made room, or quit */
	size_t		 head;		/* where the reader reads to */
	size_t		 tail;		/* where the writer writes from */
	size_t		 filled;
	size_t		 most;		/* the highest fill of the run */
	size_t		 write_at;	/* the fill the writer starts at */
	size_t		 read_at;	/* the fill the reader starts again at */
	bool		 writing;	/* write_at was reached: until empty */
	double		 read_limit;	/* bytes a second, or 0 */
	double		 read_from;	/* when its clock started */
	uint64_t	 read_base;	/* taken by then */
	double		 full;		/* seconds the reader waited for room */
	double		 empty;		/* seconds the writer waited for bytes */
	uint64_t	 taken;		/* read from the input, in all */
	bool		 ended;		/* the reader is done: error says why */
	int		 error;		/* 0: the input's end (or -S's) */
	bool		 quit;		/* the writer is done: stop reading */
	bool		 waiting;	/* the writer waits on more[0] */
	int		 more[2];	/* reader to writer: bytes, or the end */
	int		 stop[2];	/* writer to reader: quit */
};

struct relay_ring *
ring_new(size_t size, int write_at, int read_at)
{
	struct relay_ring *g;
	long page = sysconf(_SC_PAGESIZE);
	void *buf;
	int error;

	if ((g = calloc(1, sizeof(*g))) == NULL)
		return NULL;
	if ((error = posix_memalign(&buf, (size_t)page, size)) != 0) {
		free(g);
		errno = error;
		return NULL;
	}
	g->buf = buf;
	g->size = size;
	/* a byte at least to start writing; reading again at once: size - 1 */
	g->write_at = (size_t)((double)size * write_at / 100);
	if (g->write_at == 0)
		g->write_at = 1;
	g->read_at = read_at < 100 ? (size_t)((double)size * read_at / 100) :
	    size - 1;
	g->more[0] = g->more[1] = g->stop[0] = g->stop[1] = -1;
	if ((error = pthread_mutex_init(&g->lock, NULL)) != 0 ||
	    (error = pthread_cond_init(&g->room, NULL)) != 0) {
		free(buf);
		free(g);
		errno = error;
		return NULL;
	}
	return g;
}

void
ring_free(struct relay_ring *g)
{
	if (g == NULL)
		return;
	pthread_cond_destroy(&g->room);
	pthread_mutex_destroy(&g->lock);
	free(g->buf);
	free(g);
}

bool
relay_fill(const struct relay *r, struct relay_fill *f)
{
	struct relay_ring *g = r->ring;

	if (g == NULL) {
		*f = r->fill;
		return r->has_fill;
	}
	pthread_mutex_lock(&g->lock);
	f->size = g->size;
	f->held = g->filled;
	f->most = g->most;
	f->taken = g->taken;
	f->full = g->full;
	f->empty = g->empty;
	f->filling = !g->writing && g->filled > 0 && !g->ended;
	pthread_mutex_unlock(&g->lock);
	return true;
}

void
relay_set_read_limit(struct relay *r, double limit)
{
	struct relay_ring *g = r->ring;

	if (g == NULL)
		return;
	pthread_mutex_lock(&g->lock);
	g->read_limit = limit;
	g->read_from = clock_now();
	g->read_base = g->taken;
	pthread_mutex_unlock(&g->lock);
}

/*
 * --read-limit: the reader waits until what it read is paid for, then
 * reads at most 50 ms' worth; a slow input banks at most half a second
 * of credit.  Its wait is on the stop pipe, so quitting cuts it short.
 * Returns len, cut to the step, or 0 to stop.
 */
static size_t
paced(struct relay_ring *g, size_t len)
{
	struct pollfd pfd = { .fd = g->stop[0], .events = POLLIN };
	double now, due, step;

	for (;;) {
		pthread_mutex_lock(&g->lock);
		if (g->read_limit <= 0) {
			pthread_mutex_unlock(&g->lock);
			return len;
		}
		now = clock_now();
		due = g->read_from + (double)(g->taken - g->read_base) /
		    g->read_limit;
		if (now - due > 0.5)
			g->read_from += now - due - 0.5;
		step = g->read_limit / 20;
		pthread_mutex_unlock(&g->lock);
		if (due <= now)
			return step < 1 ? 1 : step < (double)len ?
			    (size_t)step : len;
		if (poll(&pfd, 1, (int)((due - now) * 1000) + 1) > 0)
			return 0;
	}
}

/* One byte down a pipe of the ring's own: it has room, being drained. */
static void
tell(int fd)
{
	while (write(fd, "", 1) == -1 && errno == EINTR)
		;
}

/* Tells the writer, if it waits, that the ring changed.  Locked. */
static void
nudge(struct relay_ring *g)
{
	if (g->waiting) {
		g->waiting = false;
		tell(g->more[1]);
	}
}

/* How much the reader may read now, waiting for room; 0 to stop. */
static size_t
room_for(struct relay *r, struct relay_ring *g)
{
	double since;
	size_t n;

	pthread_mutex_lock(&g->lock);
	/* once full, it waits until the writer has taken it down to read_at */
	if (g->filled == g->size && !g->quit) {
		since = clock_now();
		while (g->filled > g->read_at && !g->quit)
			pthread_cond_wait(&g->room, &g->lock);
		g->full += clock_now() - since;
	}
	/* up to the tail, or to the ring's end when it wraps before */
	n = g->quit ? 0 : g->head < g->tail ? g->tail - g->head :
	    g->size - g->head;
	/* -S in bytes: not a byte past the size is taken from the input */
	if (r->stop_at > 0 && r->separator == -1 &&
	    n > r->stop_at - g->taken)
		n = (size_t)(r->stop_at - g->taken);
	pthread_mutex_unlock(&g->lock);
	return n > FILL_MAX ? FILL_MAX : n;
}

static void *
fill(void *arg)
{
	struct relay *r = arg;
	struct relay_ring *g = r->ring;
	struct pollfd pfd[2] = {
		{ .fd = r->in, .events = POLLIN },
		{ .fd = g->stop[0], .events = POLLIN },
	};
	size_t len;
	ssize_t n = 0;
	int error = 0;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	while ((len = room_for(r, g)) > 0 && (len = paced(g, len)) > 0) {
		/* the input, or the writer's word to stop, whichever first */
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			error = errno;
			break;
		}
		if (pfd[1].revents != 0)
			break;
		/*
		 * The one place the writer may cancel it: a second reader of
		 * the input can take what poll saw, and this read then waits
		 * for more, which may never come.  No lock is held here.
		 */
		pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
		n = read(r->in, g->buf + g->head, len);
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
		if (n == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			error = errno;
			break;
		}
		if (n == 0)
			break;
		pthread_mutex_lock(&g->lock);
		g->head = (g->head + (size_t)n) % g->size;
		g->filled += (size_t)n;
		g->taken += (uint64_t)n;
		if (g->filled > g->most)
			g->most = g->filled;
		nudge(g);
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_lock(&g->lock);
	g->ended = true;
	g->error = error;
	nudge(g);
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/*
 * Waits until the ring holds bytes, as many as write_at once it ran
 * empty, or the reader has ended; false, with *end set, when a signal
 * says stop.  Returns with the lock held.
 */
static bool
wait_for_bytes(struct relay *r, struct relay_ring *g, enum relay_end *end)
{
	struct pollfd pfd = { .fd = g->more[0], .events = POLLIN };
	char drain[64];
	double since, waited;

	pthread_mutex_lock(&g->lock);
	if (g->filled == 0)
		g->writing = false;
	while (!g->ended && (g->writing ? g->filled == 0 :
	    g->filled < g->write_at)) {
		g->waiting = true;
		pthread_mutex_unlock(&g->lock);
		since = clock_now();
		(void)poll(&pfd, 1, -1);
		waited = clock_now() - since;
		/* the output waits for the input */
		if (r->timed)
			r->wait_in += waited;
		while (read(g->more[0], drain, sizeof(drain)) > 0)
			;
		pthread_mutex_lock(&g->lock);
		g->empty += waited;
		pthread_mutex_unlock(&g->lock);
		if (!tier_serviced(r)) {
			*end = RELAY_STOPPED;
			return false;
		}
		pthread_mutex_lock(&g->lock);
	}
	g->writing = true;
	return true;
}

/* Opens the ring's two pipes, the reader's end of more non-blocking. */
static bool
pipes(struct relay_ring *g)
{
	if (pipe(g->more) == -1 || pipe(g->stop) == -1)
		return false;
	for (int i = 0; i < 2; i++)
		if (fcntl(g->more[i], F_SETFD, FD_CLOEXEC) == -1 ||
		    fcntl(g->stop[i], F_SETFD, FD_CLOEXEC) == -1)
			return false;
	return fcntl(g->more[0], F_SETFL, O_NONBLOCK) != -1;
}

static void
close_pipes(struct relay_ring *g)
{
	for (int i = 0; i < 2; i++) {
		if (g->more[i] != -1)
			close(g->more[i]);
		if (g->stop[i] != -1)
			close(g->stop[i]);
		g->more[i] = g->stop[i] = -1;
	}
}

/* Starts the reader with every signal blocked: this thread takes them. */
static int
start_reader(struct relay *r, pthread_t *reader)
{
	sigset_t all, old;
	int error;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	error = pthread_create(reader, NULL, fill, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return error;
}

/* Writes the ring out until the reader ends and the ring is empty. */
static enum relay_end
drain(struct relay *r, struct relay_ring *g)
{
	enum relay_end end;
	size_t len, n;

	for (;;) {
		if ((len = tier_chunk(r, &end)) == 0)
			return end;
		if (!wait_for_bytes(r, g, &end))
			return end;
		if (g->filled == 0) {
			/* ended, and all of it written */
			end = g->error == 0 ? RELAY_EOF : RELAY_READ_ERROR;
			r->error = g->error;
			pthread_mutex_unlock(&g->lock);
			return end;
		}
		n = g->filled < g->size - g->tail ? g->filled :
		    g->size - g->tail;
		pthread_mutex_unlock(&g->lock);
		if (n > len)
			n = len;
		n = tier_records_allowed(r, g->buf + g->tail, n, true);
		if (!tier_write(r, g->buf + g->tail, n, &end))
			return end;
		pthread_mutex_lock(&g->lock);
		g->tail = (g->tail + n) % g->size;
		g->filled -= n;
		pthread_cond_signal(&g->room);
		pthread_mutex_unlock(&g->lock);
	}
}

static bool
buffer_run(struct relay *r, enum relay_end *end)
{
	struct relay_ring *g = r->ring;
	pthread_t reader;
	int error;

	if (g == NULL)
		return false;
	g->head = g->tail = g->filled = 0;
	g->ended = g->quit = g->waiting = false;
	g->error = 0;
	/* reads and writes of a megabyte, not of a small pipe's 64 KiB */
	compat_grow_pipe(r->in, FILL_MAX);
	compat_grow_pipe(r->out, FILL_MAX);
	if (!pipes(g))
		report_err(1, "buffer");
	if ((error = start_reader(r, &reader)) != 0)
		report_errc(1, error, "buffer: its reading thread");
	*end = drain(r, g);
	/* the reader stops, wherever it is */
	pthread_mutex_lock(&g->lock);
	g->quit = true;
	pthread_cond_signal(&g->room);
	pthread_mutex_unlock(&g->lock);
	tell(g->stop[1]);
	/* a read that poll promised and a second reader emptied: cut short */
	pthread_cancel(reader);
	pthread_join(reader, NULL);
	/* read, and not written: a failed output's loss, said in its message */
	r->undelivered = g->taken - r->bytes;
	close_pipes(g);
	return true;
}

const struct tier buffer_tier = { "buffer", buffer_run };
