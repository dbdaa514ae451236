/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The buffer tier (-b beyond the pipes, tier.h): a thread of its own reads
 * the input into a buffer of -b bytes while this one writes it out, so
 * that a stalled output does not stop the input nor a stalled input the
 * output, as mbuffer's two threads do.  Only this thread counts, paces,
 * draws and takes signals: the reader has every signal blocked, and wakes
 * this thread through a pipe, whose poll(2) a signal interrupts, never
 * through a condition variable, whose wait it does not.
 *
 * The buffer is a queue of slots: pipes of tach's own where the system
 * can move bytes into and out of them without copying (compat_splice),
 * as many as the user's pipe allowance and descriptors spare, and chunks
 * of memory of a megabyte, read into and written out of.  A new slot is
 * a pipe while one is spare, so a buffer that holds little, as one
 * between two tools at the same pace does, copies nothing; what the pipes
 * cannot hold waits in memory.  Line mode looks at every byte it counts,
 * and takes memory only.
 */
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

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
#include "tach/tempfile.h"
#include "tach/text.h"
#include "tier.h"

/* A memory slot's size and the reader's largest read. */
#define FILL_MAX	(1024 * 1024)
/*
 * The size asked of a pipe slot: fs/pipe-max-size (1 MiB by default) is
 * what the unprivileged get; root's pipes may be larger, so fewer.
 */
#define PIPE_ASKED	(8 * 1024 * 1024)
/*
 * With --buffer-file, what pipes may hold beside it: pipe pages are
 * kernel memory that cannot be reclaimed, and the file is there so that
 * the buffer need not be memory.
 */
#define PIPES_BESIDE_FILE	(16 * 1024 * 1024)

/*
 * The bytes the memory part takes for a buffer of size: a chunk more, for
 * the writer's chunk, which is not read into again until it is empty, so
 * that the buffer holds its whole size while the writer is mid-chunk.
 */
static size_t
ring_span(size_t size)
{
	return size > SIZE_MAX - FILL_MAX ? SIZE_MAX : size + FILL_MAX;
}

struct slot {
	unsigned char	*mem;		/* its part of buf, or NULL: a pipe */
	int		 pipe[2];
	size_t		 room;		/* the most it holds */
	size_t		 off;		/* mem: where its bytes start */
	size_t		 len;		/* the bytes it holds */
	bool		 sealed;	/* the reader has moved on from it */
};

/* Slots not in the queue, the last freed on top (its pages are warm). */
struct spares {
	size_t		*top;
	size_t		 count;
};

struct relay_ring {
	unsigned char	*buf;
	size_t		 span;		/* buf's bytes: ring_span(size) */
	size_t		 size;		/* the most it holds at once */
	bool		 mapped;	/* buf is --buffer-file's mapping */
	struct slot	*slots;		/* the pipes first, then buf's */
	size_t		 nslots;
	size_t		 npipes;
	pthread_mutex_t	 lock;		/* guards all below */
	pthread_cond_t	 room;		/* the writer made room, or quit */
	size_t		*queue;		/* slots in use, oldest first: */
	size_t		 first;		/* the writer's, at queue[first] */
	size_t		 used;		/* the reader's is the last */
	struct spares	 pipes;
	struct spares	 chunks;
	bool		 no_splice;	/* memory only from now on: a side
					   refused splice, or the input's
					   pages came part-filled */
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
	size_t		 wake_at;	/* for a fill of this, or the end */
	double		 woke;		/* when its last wait ended */
	int		 more[2];	/* reader to writer: bytes, or the end */
	int		 stop[2];	/* writer to reader: quit */
};

/* Every slot spare and empty, the lowest on top. */
static void
ring_empty(struct relay_ring *g)
{
	g->first = g->used = 0;
	g->pipes.count = g->chunks.count = 0;
	for (size_t i = g->nslots; i-- > 0;) {
		g->slots[i].off = g->slots[i].len = 0;
		g->slots[i].sealed = false;
		if (i < g->npipes)
			g->pipes.top[g->pipes.count++] = i;
		else
			g->chunks.top[g->chunks.count++] = i;
	}
}

/*
 * The most pipe slots to try for: one a megabyte of want, and no more
 * than an eighth of the descriptors this process may open.
 */
static size_t
pipes_most(size_t want)
{
	struct rlimit rl;
	size_t most = want / FILL_MAX + 1;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && (uintmax_t)rl.rlim_cur / 16 < most)
		most = (size_t)(rl.rlim_cur / 16);
	return most;
}

/*
 * Pipe slots for want bytes, up to most of them, as many as the system
 * gives: one that cannot be had, or grown to a megabyte, ends the count.
 */
static void
ring_pipes(struct relay_ring *g, size_t want, size_t most)
{
	struct slot *s;
	size_t room;

	for (g->npipes = 0; want > 0 && g->npipes < most; g->npipes++) {
		s = &g->slots[g->npipes];
		if (pipe(s->pipe) == -1)
			break;
		room = compat_grow_pipe(s->pipe[1], want < PIPE_ASKED ?
		    want : PIPE_ASKED);
		if ((room < FILL_MAX && room < want) ||
		    fcntl(s->pipe[0], F_SETFD, FD_CLOEXEC) == -1 ||
		    fcntl(s->pipe[1], F_SETFD, FD_CLOEXEC) == -1) {
			close(s->pipe[0]);
			close(s->pipe[1]);
			break;
		}
		s->room = room;
		want -= room < want ? room : want;
	}
}

int
ring_file(const char *path, size_t size)
{
	struct statvfs vfs;
	struct stat sb;
	size_t span = ring_span(size);
	int fd, error;

	/* a symbolic link is not followed, to a directory either */
	if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode))
		report_errx(1, "--buffer-file %s: a symbolic link, not "
		    "followed: give a directory or a new file", text_safe(path));
	if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		fd = tempfile_open(path);
	else if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) != -1)
		/* made here, so removed here: its space goes with fd */
		(void)unlink(path);
	if (fd == -1)
		report_err(1, "--buffer-file %s", text_safe(path));
	/*
	 * A file in memory would take all of its size at once to be
	 * reserved: the buffer is memory, taken as it fills, as without it
	 */
	if (compat_in_memory(fd)) {
		/* one that could not hold it all is still refused now */
		if (fstatvfs(fd, &vfs) == 0 &&
		    (unsigned long long)vfs.f_bavail * vfs.f_frsize < span)
			report_errc(1, ENOSPC, "--buffer-file %s: %zu bytes",
			    text_safe(path), span);
		close(fd);
		return -1;
	}
	if ((error = compat_reserve(fd, span)) != 0)
		report_errc(1, error, "--buffer-file %s: %zu bytes",
		    text_safe(path), span);
	return fd;
}

/* The ring's bytes: fd's mapping (--buffer-file), or memory; NULL, errno. */
static void *
ring_memory(size_t size, int fd)
{
	void *buf;
	int error;

	if (fd != -1) {
		buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    0);
		return buf == MAP_FAILED ? NULL : buf;
	}
	if ((error = posix_memalign(&buf, (size_t)sysconf(_SC_PAGESIZE),
	    size)) != 0) {
		errno = error;
		return NULL;
	}
	return buf;
}

/* The bytes of a buffer of size that its own pipes may hold. */
static size_t
ring_budget(size_t size, bool splice, int fd)
{
	size_t budget = splice ? compat_pipe_budget() : 0;

	if (budget > size)
		budget = size;
	if (fd != -1 && budget > PIPES_BESIDE_FILE)
		budget = PIPES_BESIDE_FILE;
	return budget;
}

/* The memory's chunks, slots after the pipes': FILL_MAX each, the last less. */
static void
ring_chunks(struct relay_ring *g, size_t chunks)
{
	g->nslots = g->npipes + chunks;
	for (size_t i = 0; i < chunks; i++) {
		g->slots[g->npipes + i].mem = g->buf + i * FILL_MAX;
		g->slots[g->npipes + i].room = i + 1 < chunks ? FILL_MAX :
		    g->span - i * FILL_MAX;
		g->slots[g->npipes + i].pipe[0] = -1;
		g->slots[g->npipes + i].pipe[1] = -1;
	}
}

struct relay_ring *
ring_new(size_t size, int write_at, int read_at, bool splice, int fd)
{
	struct relay_ring *g;
	size_t span = ring_span(size), budget, most = 0;
	size_t chunks = span / FILL_MAX + (span % FILL_MAX != 0);
	int error;

	if ((g = calloc(1, sizeof(*g))) == NULL)
		return NULL;
	if ((error = pthread_mutex_init(&g->lock, NULL)) != 0) {
		free(g);
		errno = error;
		return NULL;
	}
	if ((error = pthread_cond_init(&g->room, NULL)) != 0) {
		pthread_mutex_destroy(&g->lock);
		free(g);
		errno = error;
		return NULL;
	}
	budget = ring_budget(size, splice, fd);
	if (budget > 0)
		most = pipes_most(budget);
	g->span = span;
	g->size = size;
	g->mapped = fd != -1;
	if (span == SIZE_MAX) {
		ring_free(g);
		errno = ENOMEM;
		return NULL;
	}
	if ((g->buf = ring_memory(span, fd)) == NULL ||
	    (g->slots = calloc(chunks + most, sizeof(*g->slots))) == NULL ||
	    (g->queue = calloc(chunks + most, sizeof(size_t))) == NULL ||
	    (g->pipes.top = calloc(chunks + most, sizeof(size_t))) == NULL ||
	    (g->chunks.top = calloc(chunks + most, sizeof(size_t))) == NULL) {
		error = errno;
		ring_free(g);
		errno = error;
		return NULL;
	}
	ring_pipes(g, budget, most);
	ring_chunks(g, chunks);
	ring_empty(g);
	/* a byte at least to start writing; reading again at once: size - 1 */
	g->write_at = (size_t)((double)size * write_at / 100);
	if (g->write_at == 0)
		g->write_at = 1;
	g->read_at = read_at < 100 ? (size_t)((double)size * read_at / 100) :
	    size - 1;
	g->more[0] = g->more[1] = g->stop[0] = g->stop[1] = -1;
	return g;
}

void
ring_free(struct relay_ring *g)
{
	if (g == NULL)
		return;
	pthread_cond_destroy(&g->room);
	pthread_mutex_destroy(&g->lock);
	for (size_t i = 0; i < g->npipes; i++) {
		close(g->slots[i].pipe[0]);
		close(g->slots[i].pipe[1]);
	}
	free(g->chunks.top);
	free(g->pipes.top);
	free(g->queue);
	free(g->slots);
	if (g->mapped && g->buf != NULL)
		(void)munmap(g->buf, g->span);
	else
		free(g->buf);
	free(g);
}

bool
ring_fill(const struct relay *r, struct relay_fill *f)
{
	struct relay_ring *g = r->ring;

	pthread_mutex_lock(&g->lock);
	*f = (struct relay_fill){
		.size = g->size, .held = g->filled, .most = g->most,
		.taken = g->taken, .full = g->full, .empty = g->empty,
		.filling = !g->writing && g->filled > 0 && !g->ended
	};
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

/* Tells the writer, if it waits for what the ring now holds.  Locked. */
static void
nudge(struct relay_ring *g)
{
	if (g->waiting && (g->filled >= g->wake_at || g->ended)) {
		g->waiting = false;
		tell(g->more[1]);
	}
}

/* Back among the spares, empty. */
static void
spare(struct relay_ring *g, struct slot *s)
{
	struct spares *to = s->mem == NULL ? &g->pipes : &g->chunks;

	s->off = s->len = 0;
	s->sealed = false;
	to->top[to->count++] = (size_t)(s - g->slots);
}

/*
 * The reader's slot, the queue's last, if it is open and has room; else
 * NULL, and it is sealed.  Locked.
 */
static struct slot *
current(struct relay_ring *g)
{
	struct slot *s;

	if (g->used == 0)
		return NULL;
	s = &g->slots[g->queue[(g->first + g->used - 1) % g->nslots]];
	if (s->sealed)
		return NULL;
	/* drained: from its start again, where the pages are warm */
	if (s->len == 0)
		s->off = 0;
	if (s->off + s->len < s->room)
		return s;
	s->sealed = true;
	return NULL;
}

/*
 * The reader is done with its slot: the writer moves on from it once
 * empty; one it put nothing in goes back at once.  Locked.
 */
static void
seal(struct relay_ring *g, struct slot *s)
{
	if (s->len > 0) {
		s->sealed = true;
		return;
	}
	g->used--;
	spare(g, s);
}

/*
 * The slot the reader fills: its own while it has room, else a spare
 * one, a pipe if there is one it may use; NULL when the buffer can take
 * nothing now.  Locked.
 */
static struct slot *
reader_slot(const struct relay *r, struct relay_ring *g)
{
	struct spares *from;
	struct slot *s;

	if (g->filled >= g->size)
		return NULL;
	if ((s = current(g)) != NULL)
		return s;
	from = g->pipes.count > 0 && !g->no_splice && r->separator == -1 ?
	    &g->pipes : &g->chunks;
	if (from->count == 0)
		return NULL;
	s = &g->slots[from->top[--from->count]];
	g->queue[(g->first + g->used++) % g->nslots] = s - g->slots;
	return s;
}

/*
 * The slot the reader reads into now, in *len how much and in *at where
 * (a memory slot's), waiting for room; NULL to stop.
 */
static struct slot *
room_for(struct relay *r, struct relay_ring *g, size_t *len,
    unsigned char **at)
{
	struct slot *s;
	double since;
	size_t n = 0;

	pthread_mutex_lock(&g->lock);
	/* once full, it waits until the writer has taken it down to read_at */
	if ((s = reader_slot(r, g)) == NULL && !g->quit) {
		since = clock_now();
		while (!g->quit && (g->filled > g->read_at ||
		    (s = reader_slot(r, g)) == NULL))
			pthread_cond_wait(&g->room, &g->lock);
		g->full += clock_now() - since;
	}
	if (s != NULL && !g->quit) {
		n = s->room - s->off - s->len;
		/* off and len change together under the lock, as it drains */
		*at = s->mem != NULL ? s->mem + s->off + s->len : NULL;
		if (n > g->size - g->filled)
			n = g->size - g->filled;
		/* -S in bytes: not a byte past the size is taken from the input */
		if (r->stop_at > 0 && r->separator == -1 &&
		    n > r->stop_at - g->taken)
			n = (size_t)(r->stop_at - g->taken);
	}
	pthread_mutex_unlock(&g->lock);
	*len = n > FILL_MAX ? FILL_MAX : n;
	return n > 0 ? s : NULL;
}

/*
 * Into a pipe slot: the input's pages, not copied.  EAGAIN from a pipe
 * that is full seals it; an input that takes no splice is read(2) from
 * then on.  Any other error is the input's own, and final: a socket
 * reports its reset once, and a read after it would see a clean end.
 * Returns what splice does, 0 at the input's end; -1 with errno 0 to try
 * again, or with the input's error.
 */
static ssize_t
splice_in(struct relay *r, struct relay_ring *g, struct slot *s, size_t len)
{
	struct pollfd pfd = { .fd = s->pipe[1], .events = POLLOUT };
	ssize_t n = compat_splice(r->in, s->pipe[1], len, true);
	int error = 0;

	if (n >= 0)
		return n;
	pthread_mutex_lock(&g->lock);
	if (errno == EAGAIN) {
		/* the input had nothing after all, or the pipe is full */
		if (poll(&pfd, 1, 0) == 0) {
			/*
			 * Full of pages that small writes left part-filled:
			 * memory holds what is left densely, each byte once
			 */
			if (s->len < s->room - s->room / 10)
				g->no_splice = true;
			seal(g, s);
		}
	} else if (tier_unsupported(errno)) {
		g->no_splice = true;
		seal(g, s);
	} else if (errno != EINTR) {
		error = errno;
	}
	pthread_mutex_unlock(&g->lock);
	errno = error;
	return -1;
}

/* Into slot s: spliced into its pipe, or read to at in memory. */
static ssize_t
take_in(struct relay *r, struct relay_ring *g, struct slot *s,
    unsigned char *at, size_t len)
{
	ssize_t n;

	if (at == NULL)
		return splice_in(r, g, s, len);
	/*
	 * The one place the writer may cancel it: a second reader of the
	 * input can take what poll saw, and this read then waits for more,
	 * which may never come.  No lock is held here.
	 */
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	n = read(r->in, at, len);
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	return n;
}

/* n bytes more held in slot s, and the writer told. */
static void
held(struct relay_ring *g, struct slot *s, size_t n)
{
	pthread_mutex_lock(&g->lock);
	s->len += n;
	g->filled += n;
	g->taken += (uint64_t)n;
	if (g->filled > g->most)
		g->most = g->filled;
	nudge(g);
	pthread_mutex_unlock(&g->lock);
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
	struct tier_pace pace;
	struct slot *s;
	unsigned char *at;
	size_t len;
	ssize_t n = 0;
	int error = 0;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	tier_pace_start(&pace, r->in, -1);
	while ((s = room_for(r, g, &len, &at)) != NULL &&
	    (len = paced(g, len)) > 0) {
		/* the input, or the writer's word to stop, whichever first */
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			error = errno;
			break;
		}
		if (pfd[1].revents != 0)
			break;
		n = take_in(r, g, s, at, len);
		if (n == -1) {
			if (errno == 0 || errno == EINTR || errno == EAGAIN ||
			    (at != NULL && tier_direct_refused(r, true, errno)))
				continue;
			error = errno;
			break;
		}
		if (n == 0)
			break;
		held(g, s, (size_t)n);
		/* fewer, larger moves: fewer wakes of the writer too */
		tier_pace_after(&pace, (size_t)n, (size_t)n < len);
	}
	pthread_mutex_lock(&g->lock);
	g->ended = true;
	g->error = error;
	nudge(g);
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/* The writer's wake-ups, read: one read, unless it found more than that. */
static void
drain_wakes(struct relay_ring *g)
{
	char drain[64];

	while (read(g->more[0], drain, sizeof(drain)) == (ssize_t)sizeof(drain))
		;
}

/*
 * Waits on more[0] with the lock let go, at most timeout ms (-1: no
 * bound), for a fill of wake_at or the reader's end; counts the wait as
 * the output's for the input.  False, with *end set, when a signal says
 * stop.  Returns with the lock held.
 */
static bool
wait_woken(struct relay *r, struct relay_ring *g, size_t wake_at,
    int timeout, enum relay_end *end)
{
	struct pollfd pfd = { .fd = g->more[0], .events = POLLIN };
	double since, waited;

	g->waiting = true;
	g->wake_at = wake_at;
	pthread_mutex_unlock(&g->lock);
	since = clock_now();
	(void)poll(&pfd, 1, timeout);
	waited = clock_now() - since;
	if (r->timed)
		r->wait_in += waited;
	drain_wakes(g);
	pthread_mutex_lock(&g->lock);
	g->waiting = false;
	g->empty += waited;
	pthread_mutex_unlock(&g->lock);
	if (!tier_serviced(r)) {
		*end = RELAY_STOPPED;
		return false;
	}
	pthread_mutex_lock(&g->lock);
	return true;
}

/*
 * A writer back within GATHER_S of its last wait's end meets a trickle:
 * it lets the bytes gather, to GATHER_BYTES or for GATHER_S from that
 * end, so that the output gets one write and this thread one wake every
 * few milliseconds, not one for each of the input's writes (mbuffer holds
 * them for a whole block, without bound).  Bytes after a pause, and a
 * stream that keeps GATHER_BYTES in the ring, are not held at all.
 */
#define GATHER_S	0.005
#define GATHER_BYTES	(64 * 1024)

/*
 * Waits until the ring holds bytes, as many as write_at once it ran
 * empty, or the reader has ended; false, with *end set, when a signal
 * says stop.  Returns with the lock held.
 */
static bool
wait_for_bytes(struct relay *r, struct relay_ring *g, enum relay_end *end)
{
	double until, now;
	bool waited = false;

	pthread_mutex_lock(&g->lock);
	if (g->filled == 0)
		g->writing = false;
	until = g->woke + GATHER_S;
	while (!g->ended && g->filled < GATHER_BYTES &&
	    (now = clock_now()) < until) {
		waited = true;
		if (!wait_woken(r, g, GATHER_BYTES,
		    (int)((until - now) * 1000) + 1, end))
			return false;
	}
	while (!g->ended && (g->writing ? g->filled == 0 :
	    g->filled < g->write_at)) {
		waited = true;
		if (!wait_woken(r, g, g->writing ? 1 : g->write_at, -1, end))
			return false;
	}
	if (waited)
		g->woke = clock_now();
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

/*
 * Out of a pipe slot: n bytes read back and written, where the output
 * takes no splice.  False, with *end set, when the run must end.
 */
static bool
copy_out(struct relay *r, int fd, size_t n, enum relay_end *end)
{
	ssize_t m;

	while (n > 0) {
		/* a pipe of tach's own that holds n: it never waits */
		m = read(fd, r->buf, n < r->bufsize ? n : r->bufsize);
		if (m == -1 && errno == EINTR)
			continue;
		if (m <= 0) {
			r->error = m == 0 ? EIO : errno;
			*end = RELAY_WRITE_ERROR;
			return false;
		}
		if (!tier_write(r, r->buf, (size_t)m, end))
			return false;
		n -= (size_t)m;
	}
	return true;
}

/*
 * Out of a pipe slot: n bytes passed on to the output, not copied, or
 * copied where it takes no splice (a terminal, a file opened to append);
 * a slow reader's pipe let drain between moves.
 * False, with *end set, when the run must end.
 */
static bool
splice_out(struct relay *r, struct relay_ring *g, struct slot *s, size_t n,
    struct tier_pace *pace, enum relay_end *end)
{
	ssize_t m;

	while (n > 0) {
		/* with --stats, EAGAIN tells a wait for the output */
		m = compat_splice(s->pipe[0], r->out, n, r->timed);
		if (m > 0) {
			if (!tier_count(r, NULL, (size_t)m, end))
				return false;
			n -= (size_t)m;
			tier_pace_after(pace, (size_t)m, false);
			continue;
		}
		if (m == 0)
			errno = EIO;	/* a pipe that holds n and is empty */
		if (tier_unsupported(errno)) {
			pthread_mutex_lock(&g->lock);
			g->no_splice = true;
			pthread_mutex_unlock(&g->lock);
			return copy_out(r, s->pipe[0], n, end);
		}
		if (!tier_write_again(r, errno, end))
			return false;
	}
	return true;
}

/* Writes the ring out until the reader ends and the ring is empty. */
static enum relay_end
drain(struct relay *r, struct relay_ring *g)
{
	enum relay_end end;
	struct tier_pace pace;
	struct slot *s;
	unsigned char *p;
	size_t len, n;

	tier_pace_start(&pace, -1, r->out);
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
		/* the oldest slot: it holds bytes, as the reader seals none empty */
		s = &g->slots[g->queue[g->first]];
		n = s->len < len ? s->len : len;
		p = s->mem != NULL ? s->mem + s->off : NULL;
		pthread_mutex_unlock(&g->lock);
		if (p != NULL) {
			n = tier_records_allowed(r, p, n, true);
			if (!tier_write(r, p, n, &end))
				return end;
		} else if (!splice_out(r, g, s, n, &pace, &end))
			return end;
		pthread_mutex_lock(&g->lock);
		s->off += p != NULL ? n : 0;
		s->len -= n;
		g->filled -= n;
		if (s->sealed && s->len == 0) {
			g->first = (g->first + 1) % g->nslots;
			g->used--;
			spare(g, s);
		}
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
	ring_empty(g);
	g->filled = 0;
	g->ended = g->quit = g->waiting = g->no_splice = false;
	g->wake_at = 1;
	g->woke = -1;
	g->error = 0;
	/* reads and writes of a megabyte, not of a small pipe's 64 KiB */
	compat_grow_pipe(r->in, FILL_MAX);
	compat_grow_pipe(r->out, FILL_MAX);
	if (!pipes(g))
		report_err(1, "buffer");
	if ((error = start_reader(r, &reader)) != 0)
		report_errc(1, error, "buffer: its reading thread");
	r->ring_fill = ring_fill;
	*end = drain(r, g);
	r->ring_fill = NULL;
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
