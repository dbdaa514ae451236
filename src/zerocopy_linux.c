/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Linux zero-copy tiers: copy_file_range between regular files, splice when
 * either end is a pipe, with the pipes grown first.  Each call either moves
 * bytes (and says how many) or moves none, so falling back to read/write at
 * any point loses and repeats nothing.
 *
 * In line mode the records are counted from a look at the bytes before
 * they move: a tee(2) of an input pipe into a pipe of tach's own, or a
 * pread of a file; the data itself still moves by splice or
 * copy_file_range.
 *
 * vmsplice is left out on purpose: it lends our buffer's pages to the pipe,
 * and a downstream splice (tach | tach) can hold them long after the call
 * returns, so reusing the buffer could change bytes in flight.  See
 * doc/PERFORMANCE.md.
 */
#define _GNU_SOURCE	/* splice, copy_file_range, F_SETPIPE_SZ */
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "tach/pace.h"
#include "relay_tier.h"

static bool
unsupported(int error)
{
	return error == EINVAL || error == ENOSYS || error == EXDEV ||
	    error == EOPNOTSUPP || error == ENOTSUP;
}

/* Errors that can only come from the writing side. */
static bool
write_side(int error)
{
	return error == ENOSPC || error == EDQUOT || error == EFBIG;
}

static long
pipe_max_size(void)
{
	FILE *f;
	long max = -1;

	if ((f = fopen("/proc/sys/fs/pipe-max-size", "re")) != NULL) {
		if (fscanf(f, "%ld", &max) != 1)
			max = -1;
		fclose(f);
	}
	return max;
}

/* Grows a pipe toward the buffer size; a refusal keeps the size it has. */
static void
grow_pipe(int fd, size_t want)
{
	long max = pipe_max_size();
	int have = fcntl(fd, F_GETPIPE_SZ);

	if (max > 0 && (long)want > max)
		want = (size_t)max;
	if (have == -1 || (size_t)have >= want)
		return;
	(void)fcntl(fd, F_SETPIPE_SZ, (int)want);	/* EPERM, EBUSY: keep */
}

/*
 * After a splice from a pipe, let the pipe fill to about half before the
 * next: a producer writing 4 KiB or 64 KiB blocks otherwise wakes tach for
 * every block.  The pause follows the stream's rate (pace_after), so a
 * small pipe is not left full with its writer stopped, and a trickle is
 * never held back.  No byte waits in tach: it waits in the kernel's pipe.
 */
struct paced {
	struct pace	 pace;
	size_t		 capacity;	/* of the input pipe */
};

static void
paced_start(struct paced *p, int in)
{
	int capacity = fcntl(in, F_GETPIPE_SZ);

	p->pace.last = p->pace.rate = 0;
	p->capacity = capacity > 0 ? (size_t)capacity : 0;
	/* pauses of tens of microseconds, against a default slack of 50 */
	(void)prctl(PR_SET_TIMERSLACK, 1000UL);
}

static void
let_fill(const struct relay *r, struct paced *p, size_t moved)
{
	struct timespec now, pause;
	int queued;
	long ns;

	if (p == NULL || p->capacity == 0 ||
	    clock_gettime(CLOCK_MONOTONIC, &now) == -1)
		return;		/* files: no pipe to fill */
	if (ioctl(r->in, FIONREAD, &queued) == -1 || queued < 0)
		queued = 0;
	ns = pace_after(&p->pace, (double)now.tv_sec +
	    (double)now.tv_nsec / 1e9, moved, (size_t)queued, p->capacity);
	if (ns > 0) {
		pause.tv_sec = 0;
		pause.tv_nsec = ns;
		(void)nanosleep(&pause, NULL);
	}
}

/*
 * A splice answered EAGAIN: wait on the side that is not ready.  With
 * --stats, splice runs with SPLICE_F_NONBLOCK just so this tells which
 * side tach waits for.
 */
static bool
wait_for_side(struct relay *r, enum relay_end *end)
{
	struct pollfd pfd[2] = {
		{ .fd = r->in, .events = POLLIN },
		{ .fd = r->out, .events = POLLOUT },
	};

	if (poll(pfd, 2, 0) == -1)
		return relay_wait(r, true, true, end);
	if (pfd[0].revents == 0)
		return relay_wait(r, true, false, end);
	if (pfd[1].revents == 0)
		return relay_wait(r, false, true, end);
	return true;		/* both ready by now: try again */
}

/* Which side an error that is not EPIPE came from, if it can be told. */
enum side { SIDE_READ, SIDE_WRITE, SIDE_EITHER };

/*
 * After a call that moved n bytes (data: them, in line mode), or failed.
 * Returns 1 to go on, 0 to fall back to read/write, -1 when the transfer
 * ended (with *end set).
 */
static int
moved(struct relay *r, ssize_t n, const unsigned char *data, enum side side,
    struct paced *paced, enum relay_end *end)
{
	if (n > 0) {
		if (!relay_count(r, data, (size_t)n, end))
			return -1;
		let_fill(r, paced, (size_t)n);
		return 1;
	}
	if (n == 0)
		return 0;	/* read/write confirms the end of input */
	if (unsupported(errno))
		return 0;
	if (errno == EAGAIN)
		return wait_for_side(r, end) ? 1 : -1;
	if (errno == EINTR)
		return relay_retry(r, errno, true, end);
	if (errno == EPIPE) {
		*end = RELAY_BROKEN_PIPE;
		return -1;
	}
	if (write_side(errno))
		side = SIDE_WRITE;
	else if (r->skip_errors && side == SIDE_READ)
		return 0;	/* -E: the read/write loop skips the bad block */
	r->error = errno;
	*end = side == SIDE_READ ? RELAY_READ_ERROR : side == SIDE_WRITE ?
	    RELAY_WRITE_ERROR : RELAY_MOVE_ERROR;
	return -1;
}

/*
 * A splice fails on the side that is not a pipe; between two pipes the
 * kernel does not say which.
 */
static enum side
splice_side(const struct stat *in, const struct stat *out)
{
	if (S_ISFIFO(in->st_mode) && S_ISFIFO(out->st_mode))
		return SIDE_EITHER;
	return S_ISFIFO(in->st_mode) ? SIDE_WRITE : SIDE_READ;
}

/* Line mode: where tach looks at the input's bytes before they move. */
struct tap {
	int		 pipe[2];	/* a tee of an input pipe, or -1 */
	bool		 seekable;	/* else pread of the input file */
};

static void
tap_open(struct tap *t, const struct relay *r, const struct stat *in)
{
	t->pipe[0] = t->pipe[1] = -1;
	t->seekable = !S_ISFIFO(in->st_mode) &&
	    lseek(r->in, 0, SEEK_CUR) != -1;
	if (S_ISFIFO(in->st_mode) && pipe2(t->pipe, O_CLOEXEC) == 0)
		grow_pipe(t->pipe[1], r->bufsize);
}

static void
tap_close(struct tap *t)
{
	if (t->pipe[0] != -1) {
		close(t->pipe[0]);
		close(t->pipe[1]);
	}
}

/*
 * Line mode: copies up to len of the bytes at the head of the input into
 * r->buf without taking them, and sets *ahead to how many of them may
 * move (up to -S's record).  Returns 1 to go on, 0 to fall back to
 * read/write (which also confirms the end of input), -1 with *end set.
 */
static int
look(struct relay *r, const struct tap *t, size_t len, size_t *ahead,
    enum relay_end *end)
{
	unsigned char *buf = relay_buffer(r);
	ssize_t n, got, m;
	int go;

	for (;;) {
		if (t->pipe[1] != -1)
			n = tee(r->in, t->pipe[1], len,
			    r->timed ? SPLICE_F_NONBLOCK : 0);
		else if (t->seekable)
			n = pread(r->in, buf, len, lseek(r->in, 0, SEEK_CUR));
		else
			return 0;
		if (n > 0)
			break;
		if (n == 0 || (go = relay_retry(r, errno, true, end)) == 0)
			return 0;	/* read/write meets it again */
		if (go == -1)
			return -1;
	}
	/* the tee's copy, all of it, so the tap is empty again */
	for (got = 0; t->pipe[0] != -1 && got < n; got += m)
		if ((m = read(t->pipe[0], buf + got, (size_t)(n - got))) <= 0) {
			if (m == -1 && errno == EINTR) {
				m = 0;
				continue;
			}
			r->error = m == 0 ? EIO : errno;
			*end = RELAY_READ_ERROR;
			return -1;
		}
	/* the tee and pread leave the rest in place: -L may cut it too */
	*ahead = relay_records_allowed(r, buf, (size_t)n, true);
	return 1;
}

/* One call of the tier: copy_file_range between files, else splice. */
static ssize_t
move(const struct relay *r, bool files, size_t len)
{
	if (files)
		return copy_file_range(r->in, NULL, r->out, NULL, len, 0);
	return splice(r->in, NULL, r->out, NULL, len,
	    SPLICE_F_MOVE | (r->timed ? SPLICE_F_NONBLOCK : 0));
}

bool
zerocopy_run(struct relay *r, enum relay_end *end)
{
	struct stat in, out;
	struct tap tap;
	struct paced paced;
	size_t len, at = 0, ahead = 0;
	ssize_t n;
	int go, flags;
	bool files, lines = r->separator != -1;

	if (fstat(r->in, &in) == -1 || fstat(r->out, &out) == -1)
		return false;
	flags = fcntl(r->out, F_GETFL);
	files = S_ISREG(in.st_mode) && S_ISREG(out.st_mode) && flags != -1 &&
	    !(flags & O_APPEND);
	if (!files && !S_ISFIFO(in.st_mode) && !S_ISFIFO(out.st_mode))
		return false;
	if (S_ISFIFO(in.st_mode)) {
		grow_pipe(r->in, r->bufsize);
		paced_start(&paced, r->in);
	}
	if (S_ISFIFO(out.st_mode))
		grow_pipe(r->out, r->bufsize);
	if (lines)
		tap_open(&tap, r, &in);
	do {
		/* line mode moves all it looked at before it looks again */
		if (!lines || at == ahead) {
			if ((len = relay_chunk(r, end)) == 0) {
				go = -1;
				break;
			}
			if (lines && (go = look(r, &tap, len, &ahead,
			    end)) != 1)
				break;
			at = 0;
		}
		if (lines)
			len = ahead - at;
		n = move(r, files, len);
		go = moved(r, n, lines ? r->buf + at : NULL, files ?
		    SIDE_READ : splice_side(&in, &out), S_ISFIFO(in.st_mode) ?
		    &paced : NULL, end);
		if (n > 0)
			at += (size_t)n;
	} while (go == 1);
	if (lines)
		tap_close(&tap);
	return go == -1;
}
