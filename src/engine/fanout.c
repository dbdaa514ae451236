/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The fanout (fanout.h): stages in threads, each taking the stream from
 * a pipe.  A stage with a next stage first tee(2)s what its pipe holds
 * into the next one's, then takes exactly that much out of its own: so
 * every stage sees every byte once, in order, whatever the others' pace.
 * With a buffer (-b), each output has a queue in memory and a writer of
 * its own: a stage queues its output's share and goes on, so that each
 * output keeps its own pace until the queues hold the buffer's size.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "tach/compat.h"
#include "tach/fanout.h"
#include "tach/message.h"
#include "tach/writeback.h"
#include "tier.h"

/* What one tee may pass on: a pipe's worth at most anyway. */
#define TEE_MAX	((size_t)INT_MAX)

/* An output's own state, beside what the caller reads (fanout_output). */
struct sink {
	unsigned char	*block;		/* --output-block: a block's bytes */
	size_t		 held;		/* of them */
	bool		 dead;		/* failed: nothing more is written */
	bool		 pipe;		/* written as far as it has room */
};

/* A share of the stream an output's writer has yet to write. */
struct chunk {
	struct chunk	*next;
	size_t		 len;
	unsigned char	 data[];
};

/* With a buffer: an output's queue, and its writer. */
struct queue {
	struct fanout	*fan;
	size_t		 out;		/* which output */
	struct chunk	*head;
	struct chunk	*tail;
	bool		 ended;		/* nothing more will come */
	pthread_cond_t	 more;		/* the writer waits on it */
	pthread_t	 writer;
};

struct stage {
	struct fanout	*fan;
	int		 in;		/* the pipe it takes the stream from */
	int		 next;		/* the next stage's pipe, or -1 */
	size_t		 first;		/* the outputs it writes, */
	size_t		 count;		/* from first on */
	bool		 hashes;	/* it feeds the digest */
	bool		 spliced;	/* its one output takes splice */
	bool		 blocks;	/* it reads into its one output's block */
	unsigned char	*buf;
	struct tier_pace pace;		/* lets its pipe fill between takes */
	pthread_t	 thread;
};

struct fanout {
	pthread_mutex_t	 lock;		/* guards out[] and live */
	struct fanout_output out[FANOUT_MAX];
	struct sink	 sinks[FANOUT_MAX];
	size_t		 n;
	size_t		 live;		/* outputs still taking */
	struct digest	*digest;
	size_t		 block;
	bool		 pad;
	bool		 flush;
	size_t		 flushing;	/* disks in their last flush */
	size_t		 bufsize;
	int		 devnull;	/* where a failed output's share goes */
	int		 cut;		/* a stage could not pass on: errno */
	struct stage	 stages[FANOUT_MAX + 1];
	size_t		 nstages;
	size_t		 running;	/* threads not yet done */
	int		 done[2];	/* the last of them writes a byte */
	size_t		 lag;		/* what the queues may hold, or 0 */
	size_t		 queued;	/* what they hold now */
	pthread_cond_t	 room;		/* the stages wait on it */
	struct queue	 queues[FANOUT_MAX];
};

/* A thread is done; the last tells fanout_drained. */
static void
thread_done(struct fanout *f)
{
	size_t done;
	int error;

	pthread_mutex_lock(&f->lock);
	/* a pipe of its own, empty: the byte fits */
	if (--f->running == 0 &&
	    (error = tier_put(f->done[1], "", 1, &done)) != 0)
		report_errc(1, error, "the outputs' end");
	pthread_mutex_unlock(&f->lock);
}

/* Output i failed with error: counted out, its error kept. */
static void
sink_fails(struct fanout *f, size_t i, int error)
{
	pthread_mutex_lock(&f->lock);
	if (!f->sinks[i].dead) {
		f->sinks[i].dead = true;
		f->out[i].error = error;
		f->live--;
	}
	/* a stage waiting to queue for it waits no more */
	if (f->lag > 0)
		pthread_cond_broadcast(&f->room);
	pthread_mutex_unlock(&f->lock);
}

static void
sink_took(struct fanout *f, size_t i, size_t n)
{
	pthread_mutex_lock(&f->lock);
	f->out[i].bytes += n;
	pthread_mutex_unlock(&f->lock);
}

static size_t
live(struct fanout *f)
{
	size_t n;

	pthread_mutex_lock(&f->lock);
	n = f->live;
	pthread_mutex_unlock(&f->lock);
	return n;
}

/* len bytes to output i, stream bytes of them (--pad's zeros are not). */
static void
sink_put(struct fanout *f, size_t i, const unsigned char *data, size_t len,
    size_t stream)
{
	size_t at = 0, part, done;
	int error = 0;

	/*
	 * A pipe takes what it has room for, so that no write waits there
	 * half done: tach may have to end with its reader stopped, and
	 * each byte it holds is then counted.  A write that went in partly
	 * counts too: the output holds it.
	 */
	while (at < len && error == 0) {
		part = len - at;
		/*
		 * Full: once poll says it takes more, PIPE_BUF fits whole (a
		 * reader gone: the write says so)
		 */
		if (f->sinks[i].pipe) {
			if ((part = compat_pipe_room(f->out[i].fd)) == 0)
				part = tier_writable(f->out[i].fd) ? PIPE_BUF :
				    len - at;
			part = part < len - at ? part : len - at;
		}
		error = tier_put(f->out[i].fd, data + at, part, &done);
		if (at < stream)
			sink_took(f, i, done < stream - at ? done : stream - at);
		at += done;
	}
	if (error != 0)
		sink_fails(f, i, error);
}

/* len bytes of the stream to output i, in --output-block's blocks. */
static void
sink_write(struct fanout *f, size_t i, const unsigned char *data, size_t len)
{
	struct sink *s = &f->sinks[i];
	size_t part;

	if (s->dead)
		return;
	if (f->block == 0) {
		sink_put(f, i, data, len, len);
		return;
	}
	while (len > 0 && !s->dead) {
		part = f->block - s->held < len ? f->block - s->held : len;
		memcpy(s->block + s->held, data, part);
		s->held += part;
		data += part;
		len -= part;
		if (s->held < f->block)
			break;
		sink_put(f, i, s->block, f->block, f->block);
		s->held = 0;
	}
}

/*
 * A disk's last flush, as the one output's: the output is done once the
 * device has it all (a stick can be pulled), and a failure is its own.
 */
static void
sink_flush(struct fanout *f, size_t i)
{
	int error;

	if (!f->flush || f->sinks[i].dead || !writeback_is_disk(f->out[i].fd))
		return;
	pthread_mutex_lock(&f->lock);
	f->flushing++;
	pthread_mutex_unlock(&f->lock);
	if ((error = writeback_sync(f->out[i].fd)) != 0)
		sink_fails(f, i, error);
	pthread_mutex_lock(&f->lock);
	f->flushing--;
	pthread_mutex_unlock(&f->lock);
}

/*
 * The stream ended: output i's last block, short or (--pad) padded, then
 * a disk's last flush.
 */
static void
sink_last(struct fanout *f, size_t i)
{
	struct sink *s = &f->sinks[i];

	if (!s->dead && s->held > 0) {
		if (f->pad)
			memset(s->block + s->held, 0, f->block - s->held);
		sink_put(f, i, s->block, f->pad ? f->block : s->held,
		    s->held);
		s->held = 0;
	}
	sink_flush(f, i);
}

/*
 * With a buffer: len bytes of the stream queued for output i, once the
 * queues have room (an empty queue always has); dropped if it failed.
 */
static void
queue_put(struct fanout *f, size_t i, const unsigned char *data, size_t len)
{
	struct queue *q = &f->queues[i];
	struct chunk *c;

	pthread_mutex_lock(&f->lock);
	while (!f->sinks[i].dead && q->head != NULL && f->queued + len > f->lag)
		pthread_cond_wait(&f->room, &f->lock);
	pthread_mutex_unlock(&f->lock);
	if (f->sinks[i].dead)
		return;
	if ((c = malloc(sizeof(*c) + len)) == NULL)
		report_err(1, "-b: the queue of %s", f->out[i].name);
	c->next = NULL;
	c->len = len;
	memcpy(c->data, data, len);
	pthread_mutex_lock(&f->lock);
	if (q->tail != NULL)
		q->tail->next = c;
	else
		q->head = c;
	q->tail = c;
	f->queued += len;
	pthread_cond_signal(&q->more);
	pthread_mutex_unlock(&f->lock);
}

/* Output i gets nothing more: its writer ends once its queue is empty. */
static void
queue_end(struct fanout *f, size_t i)
{
	pthread_mutex_lock(&f->lock);
	f->queues[i].ended = true;
	pthread_cond_signal(&f->queues[i].more);
	pthread_mutex_unlock(&f->lock);
}

/* An output's writer: its queue, oldest first, then its last block. */
static void *
queue_run(void *arg)
{
	struct queue *q = arg;
	struct fanout *f = q->fan;
	struct chunk *c;

	for (;;) {
		pthread_mutex_lock(&f->lock);
		while (q->head == NULL && !q->ended)
			pthread_cond_wait(&q->more, &f->lock);
		if ((c = q->head) != NULL && (q->head = c->next) == NULL)
			q->tail = NULL;
		pthread_mutex_unlock(&f->lock);
		if (c == NULL)
			break;
		sink_write(f, q->out, c->data, c->len);
		pthread_mutex_lock(&f->lock);
		f->queued -= c->len;
		pthread_cond_broadcast(&f->room);
		pthread_mutex_unlock(&f->lock);
		free(c);
	}
	sink_last(f, q->out);
	thread_done(f);
	return NULL;
}

/*
 * Splices up to len bytes of the stage's pipe to its output (or, once it
 * failed, to /dev/null): the bytes moved, 0 at the stream's end, or -1
 * where the output takes no splice (nothing was moved).
 */
static ssize_t
share_splice(struct stage *s, size_t len)
{
	struct fanout *f = s->fan;
	int fd;
	ssize_t n;

	for (;;) {
		fd = f->sinks[s->first].dead ? f->devnull : f->out[s->first].fd;
		if ((n = compat_splice(s->in, fd, len, false)) >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN) {
			tier_writable(fd);
			continue;
		}
		if (errno == EINVAL || errno == ENOSYS)
			return -1;
		sink_fails(f, s->first, errno);
	}
	if (n > 0 && fd != f->devnull)
		sink_took(f, s->first, (size_t)n);
	return n;
}

/*
 * --output-block with one output to write and nothing else: up to len
 * bytes (no more than its block has room for) read straight into its
 * block, written when it is whole.
 */
static ssize_t
read_block(struct stage *s, size_t len)
{
	struct fanout *f = s->fan;
	struct sink *k = &f->sinks[s->first];
	ssize_t n;

	if ((n = read(s->in, k->block + k->held, len)) <= 0)
		return n;
	k->held += (size_t)n;
	if (k->held == f->block) {
		if (!k->dead)
			sink_put(f, s->first, k->block, f->block, f->block);
		k->held = 0;
	}
	return n;
}

/* n bytes read into the stage's buffer, to its outputs and the digest. */
static void
deliver(struct stage *s, size_t n)
{
	struct fanout *f = s->fan;

	for (size_t i = s->first; i < s->first + s->count; i++)
		if (f->lag > 0)
			queue_put(f, i, s->buf, n);
		else
			sink_write(f, i, s->buf, n);
	if (s->hashes)
		digest_update(f->digest, s->buf, n);
}

/*
 * Takes up to len bytes out of the stage's pipe (exactly len where it
 * passed them on), to its outputs and the digest: false at the stream's
 * end, or where the pipe failed (f->cut).
 */
static bool
stage_take(struct stage *s, size_t len, bool exact)
{
	struct fanout *f = s->fan;
	size_t done = 0, want, room;
	ssize_t n;
	bool drained = false;

	while (done < len) {
		if (s->spliced && (n = share_splice(s, len - done)) != -1) {
			if (n == 0)
				return false;
			drained = (size_t)n < len - done;
			done += (size_t)n;
		} else {
			s->spliced = false;
			want = len - done < f->bufsize ? len - done : f->bufsize;
			if (s->blocks && want > (room = f->block -
			    f->sinks[s->first].held))
				want = room;
			if ((n = s->blocks ? read_block(s, want) :
			    read(s->in, s->buf, want)) == -1) {
				if (errno == EINTR)
					continue;
				f->cut = errno;
				return false;
			}
			if (n == 0)
				return false;
			if (!s->blocks)
				deliver(s, (size_t)n);
			drained = (size_t)n < want;
			done += (size_t)n;
		}
		if (!exact)
			break;
	}
	/*
	 * The relay's small moves, or a command's writes (-M out): one
	 * wake-up a half pipe, not one a write.  Only a take that got less
	 * than it asked for left the pipe empty; one that a block or the
	 * buffer cut short did not, and the pipe is asked what is left.
	 */
	tier_pace_after(&s->pace, done, drained);
	return true;
}

/* Nothing it does matters any more: its outputs failed, none follows. */
static bool
idle(struct stage *s)
{
	struct fanout *f = s->fan;

	if (s->next != -1 || (s->hashes && live(f) > 0))
		return false;
	for (size_t i = s->first; i < s->first + s->count; i++)
		if (!f->sinks[i].dead)
			return false;
	return true;
}

/*
 * Passes what its pipe holds on to the next stage: the bytes, or 0 at
 * the stream's end, or -1 where the stage must stop (f->cut).
 */
static ssize_t
pass_on(struct stage *s)
{
	ssize_t t;

	for (;;) {
		if ((t = compat_tee(s->in, s->next, TEE_MAX)) >= 0)
			return t;
		if (errno == EINTR)
			continue;
		if (errno != EPIPE) {
			s->fan->cut = errno;
			return -1;
		}
		/* the stages after it are done: it is the last now */
		close(s->next);
		s->next = -1;
		return (ssize_t)TEE_MAX;
	}
}

static void *
stage_run(void *arg)
{
	struct stage *s = arg;
	struct fanout *f = s->fan;
	ssize_t t;

	/* in its own thread: the timer slack is a thread's */
	tier_pace_start(&s->pace, s->in, -1);
	while (!idle(s)) {
		t = s->next != -1 ? pass_on(s) : (ssize_t)TEE_MAX;
		if (t <= 0 || !stage_take(s, (size_t)t, s->next != -1))
			break;
	}
	for (size_t i = s->first; i < s->first + s->count; i++) {
		if (f->cut != 0)
			sink_fails(f, i, f->cut);
		if (f->lag > 0)
			queue_end(f, i);
		else
			sink_last(f, i);
	}
	/* the stage before it sees EPIPE, the one after it the end */
	close(s->in);
	if (s->next != -1)
		close(s->next);
	thread_done(f);
	return NULL;
}

/* A pipe between stages, as large as a read: its ends, or exits. */
static void
stage_pipe(struct fanout *f, int fds[2])
{
	if (pipe(fds) == -1)
		report_err(1, "a pipe for the outputs");
	(void)fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	(void)compat_grow_pipe(fds[1], f->bufsize);
}

/*
 * The stages: on Linux one an output and one for the digest, chained by
 * pipes; elsewhere one for all.  Signals go to the main thread only.
 */
static void
stages_start(struct fanout *f, bool chained, int *in)
{
	sigset_t all, old;
	int fds[2], error;

	f->nstages = chained ? f->n + (f->digest != NULL) : 1;
	stage_pipe(f, fds);
	*in = fds[1];
	for (size_t k = 0; k < f->nstages; k++) {
		struct stage *s = &f->stages[k];

		s->fan = f;
		s->in = fds[0];
		s->next = -1;
		s->first = chained ? k : 0;
		s->count = chained ? (k < f->n) : f->n;
		s->hashes = f->digest != NULL && (!chained || k == f->n);
		s->spliced = chained && s->count == 1 && f->block == 0 &&
		    f->lag == 0;
		s->blocks = s->count == 1 && f->block > 0 && f->lag == 0 &&
		    !s->hashes;
		/* as the relay grows its own output's, for fewer wake-ups */
		if (chained && k < f->n)
			(void)compat_grow_pipe(f->out[k].fd, f->bufsize);
		if ((s->buf = compat_buffer(f->bufsize)) == NULL)
			report_err(1, "a buffer for the outputs");
		if (k + 1 < f->nstages) {
			stage_pipe(f, fds);
			s->next = fds[1];
		}
	}
	f->running = f->nstages + (f->lag > 0 ? f->n : 0);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (size_t k = 0; k < f->nstages; k++)
		if ((error = pthread_create(&f->stages[k].thread, NULL,
		    stage_run, &f->stages[k])) != 0)
			report_errc(1, error, "a thread for the outputs");
	for (size_t i = 0; i < f->n && f->lag > 0; i++)
		if ((error = pthread_create(&f->queues[i].writer, NULL,
		    queue_run, &f->queues[i])) != 0)
			report_errc(1, error, "a thread for %s", f->out[i].name);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

struct fanout *
fanout_start(const struct fanout_config *c, int *in)
{
	struct fanout *f;
	struct stat st;

	if ((f = calloc(1, sizeof(*f))) == NULL ||
	    pthread_mutex_init(&f->lock, NULL) != 0)
		report_err(1, "the outputs");
	f->n = c->n < FANOUT_MAX ? c->n : FANOUT_MAX;
	f->live = f->n;
	memcpy(f->out, c->outputs, f->n * sizeof(f->out[0]));
	f->digest = c->digest;
	f->block = c->block;
	f->pad = c->pad;
	f->flush = c->flush;
	f->bufsize = c->bufsize > 0 ? c->bufsize : 1;
	/* one output has nothing to keep pace with */
	f->lag = f->n > 1 ? c->lag : 0;
	if (pthread_cond_init(&f->room, NULL) != 0)
		report_err(1, "the outputs");
	for (size_t i = 0; i < f->n; i++) {
		f->queues[i].fan = f;
		f->queues[i].out = i;
		if (pthread_cond_init(&f->queues[i].more, NULL) != 0)
			report_err(1, "the outputs");
	}
	for (size_t i = 0; i < f->n; i++)
		f->sinks[i].pipe = fstat(f->out[i].fd, &st) == 0 &&
		    S_ISFIFO(st.st_mode);
	for (size_t i = 0; i < f->n && f->block > 0; i++)
		if ((f->sinks[i].block = compat_buffer(f->block)) == NULL)
			report_err(1, "--output-block: a block of %zu bytes",
			    f->block);
	if ((f->devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1)
		report_err(1, "/dev/null");
	if (pipe(f->done) == -1)
		report_err(1, "a pipe for the outputs");
	(void)fcntl(f->done[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(f->done[1], F_SETFD, FD_CLOEXEC);
	stages_start(f, c->zerocopy && TACH_USE_ZEROCOPY, in);
	return f;
}

size_t
fanout_count(const struct fanout *f)
{
	return f->n;
}

void
fanout_outputs(struct fanout *f, struct fanout_output *out)
{
	pthread_mutex_lock(&f->lock);
	memcpy(out, f->out, f->n * sizeof(*out));
	pthread_mutex_unlock(&f->lock);
}

uint64_t
fanout_slowest(struct fanout *f)
{
	uint64_t least = UINT64_MAX, most = 0;

	pthread_mutex_lock(&f->lock);
	for (size_t i = 0; i < f->n; i++) {
		if (!f->sinks[i].dead && f->out[i].bytes < least)
			least = f->out[i].bytes;
		if (f->out[i].bytes > most)
			most = f->out[i].bytes;
	}
	pthread_mutex_unlock(&f->lock);
	return least != UINT64_MAX ? least : most;
}

bool
fanout_drained(struct fanout *f, double seconds)
{
	struct pollfd p = { .fd = f->done[0], .events = POLLIN };

	return poll(&p, 1, (int)(seconds * 1000)) == 1;
}

bool
fanout_flushing(struct fanout *f)
{
	bool flushing;

	pthread_mutex_lock(&f->lock);
	flushing = f->flushing > 0;
	pthread_mutex_unlock(&f->lock);
	return flushing;
}

uint64_t
fanout_taken(struct fanout *f)
{
	uint64_t all = 0;

	pthread_mutex_lock(&f->lock);
	for (size_t i = 0; i < f->n; i++)
		all += f->out[i].bytes;
	pthread_mutex_unlock(&f->lock);
	return all;
}

size_t
fanout_end(struct fanout *f)
{
	size_t failed = 0;

	for (size_t k = 0; k < f->nstages; k++)
		pthread_join(f->stages[k].thread, NULL);
	for (size_t i = 0; i < f->n && f->lag > 0; i++)
		pthread_join(f->queues[i].writer, NULL);
	for (size_t i = 0; i < f->n; i++) {
		/*
		 * a late error (NFS, a disk's cache) shows at the close; a
		 * reader's pipe is closed by the exit, after the last frame
		 */
		if (!f->out[i].keep_open &&
		    close(f->out[i].fd) == -1 && errno != EINTR)
			sink_fails(f, i, errno);
		if (f->out[i].error != 0)
			failed++;
	}
	if (f->digest != NULL)
		digest_end(f->digest);
	return failed;
}

void
fanout_free(struct fanout *f)
{
	if (f == NULL)
		return;
	for (size_t k = 0; k < f->nstages; k++)
		free(f->stages[k].buf);
	for (size_t i = 0; i < f->n; i++)
		free(f->sinks[i].block);
	close(f->devnull);
	close(f->done[0]);
	close(f->done[1]);
	for (size_t i = 0; i < f->n; i++)
		pthread_cond_destroy(&f->queues[i].more);
	pthread_cond_destroy(&f->room);
	pthread_mutex_destroy(&f->lock);
	free(f);
}
