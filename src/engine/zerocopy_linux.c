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
 * they move: taken into a pipe of tach's own by splice, copied out of it
 * by tee(2) and read, and moved on from it by splice.
 *
 * vmsplice is left out on purpose: it lends our buffer's pages to the pipe,
 * and a downstream splice (tach | tach) can hold them long after the call
 * returns, so reusing the buffer could change bytes in flight.  See
 * doc/PERFORMANCE.md.
 */
#define _GNU_SOURCE	/* splice, copy_file_range, F_SETPIPE_SZ */
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#include "tach/compat.h"
#include "tier.h"

/* Errors that can only come from the writing side. */
static bool
write_side(int error)
{
	return error == ENOSPC || error == EDQUOT || error == EFBIG;
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
		return tier_wait(r, true, true, end);
	if (pfd[0].revents == 0)
		return tier_wait(r, true, false, end);
	if (pfd[1].revents == 0)
		return tier_wait(r, false, true, end);
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
splice_moved(struct relay *r, ssize_t n, const unsigned char *data,
    enum side side, struct tier_pace *paced, enum relay_end *end)
{
	if (n > 0) {
		if (!tier_count(r, data, (size_t)n, end))
			return -1;
		tier_pace_after(paced, (size_t)n, false);
		return 1;
	}
	if (n == 0)
		return 0;	/* read/write confirms the end of input */
	if (tier_unsupported(errno))
		return 0;
	if (errno == EAGAIN)
		return wait_for_side(r, end) ? 1 : -1;
	if (errno == EINTR)
		return tier_retry(r, errno, true, end);
	if (errno == EPIPE) {
		*end = RELAY_BROKEN_PIPE;
		return -1;
	}
	if (write_side(errno))
		side = SIDE_WRITE;
	/*
	 * EIO out of a pipe into a file: a page spliced into the pipe
	 * upstream that could not be read, or the file's own device;
	 * the kernel does not say which, nor does tach
	 */
	else if (errno == EIO && side == SIDE_WRITE)
		side = SIDE_EITHER;
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

/*
 * Line mode: the input's bytes are first taken into a pipe of tach's own
 * (the hold), looked at through a tee of it (the peek), and then moved on
 * from the hold: what is counted is exactly what moves, whoever else
 * reads the input or writes the file.  r->buf holds the bytes looked at
 * and not yet moved, buf[at, looked); the hold has them at its head.
 */
struct hold {
	int		 pipe[2];
	int		 peek[2];
	size_t		 at;		/* moved, of buf[0, looked) */
	size_t		 looked;
	size_t		 ahead;		/* may move, up to -S's and -L's cut */
};

static bool
hold_open(struct hold *h, const struct relay *r)
{
	h->at = h->looked = h->ahead = 0;
	h->peek[0] = h->peek[1] = -1;
	if (pipe2(h->pipe, O_CLOEXEC) == -1)
		return false;
	if (pipe2(h->peek, O_CLOEXEC) == -1) {
		close(h->pipe[0]);
		close(h->pipe[1]);
		return false;
	}
	/* the peek as large as the hold, so one tee copies all of it */
	compat_grow_pipe(h->pipe[1], r->bufsize);
	compat_grow_pipe(h->peek[1], (size_t)fcntl(h->pipe[1], F_GETPIPE_SZ));
	return true;
}

/* Bytes in the hold, looked at or not. */
static size_t
hold_bytes(const struct hold *h)
{
	int queued;

	if (ioctl(h->pipe[0], FIONREAD, &queued) == -1 || queued < 0)
		return 0;
	return (size_t)queued;
}

/*
 * At the end of line mode's tier: -S left bytes in the hold that the
 * input still had; a file gets them back where they were.  Bytes the
 * read/write loop must still write (the output would not take a
 * splice) are read back into r->buf for it; false, with r->error set, if
 * they could not all be.
 */
static bool
hold_close(struct hold *h, struct relay *r, bool handing_over)
{
	size_t n = hold_bytes(h);
	ssize_t m = 0;

	if (handing_over) {
		/* a timer's EINTR must not drop a byte: read again */
		for (r->held = 0; r->held < n; r->held += (size_t)m)
			if ((m = read(h->pipe[0], r->buf + r->held,
			    n - r->held)) <= 0 && !(m == -1 && errno == EINTR))
				break;
			else if (m == -1)
				m = 0;
		if (r->held < n)
			r->error = m == 0 ? EIO : errno;
	} else if (n > 0)
		(void)lseek(r->in, -(off_t)n, SEEK_CUR);
	close(h->pipe[0]);
	close(h->pipe[1]);
	close(h->peek[0]);
	close(h->peek[1]);
	return !handing_over || r->held == n;
}

/*
 * Line mode: takes up to len bytes of input into the hold if it is empty,
 * then copies its head into r->buf to be counted.  Returns 1 to go on, 0
 * to fall back to read/write with the hold empty (which also confirms the
 * end of input), -1 with *end set.
 */
static int
look(struct relay *r, struct hold *h, size_t len, enum relay_end *end)
{
	unsigned char *buf = r->buf;
	ssize_t n, got, m;
	int go;

	while (hold_bytes(h) == 0) {
		n = splice(r->in, NULL, h->pipe[1], NULL, len,
		    SPLICE_F_MOVE | (r->timed ? SPLICE_F_NONBLOCK : 0));
		if (n > 0)
			break;
		if (n == 0 || tier_unsupported(errno) ||
		    (r->skip_errors && errno != EINTR && errno != EAGAIN))
			return 0;	/* read/write meets it again */
		if ((go = tier_retry(r, errno, true, end)) == -1)
			return -1;
		if (go == 0) {
			r->error = errno;
			*end = RELAY_READ_ERROR;
			return -1;
		}
	}
	if ((n = tee(h->pipe[0], h->peek[1], len, 0)) <= 0) {
		r->error = n == 0 ? EIO : errno;
		*end = RELAY_READ_ERROR;
		return -1;
	}
	for (got = 0; got < n; got += m)
		if ((m = read(h->peek[0], buf + got, (size_t)(n - got))) <= 0) {
			if (m == -1 && errno == EINTR) {
				m = 0;
				continue;
			}
			r->error = m == 0 ? EIO : errno;
			*end = RELAY_READ_ERROR;
			return -1;
		}
	h->at = 0;
	h->looked = (size_t)n;
	return 1;
}

/*
 * Line mode's tier: moves the input through the hold.  Returns as
 * zerocopy_run does.
 */
static bool
lines_run(struct relay *r, struct tier_pace *paced, enum relay_end *end)
{
	struct hold h;
	size_t len;
	ssize_t n;
	int go = 1;

	if (!hold_open(&h, r))
		return false;
	while (go == 1) {
		if (h.at == h.ahead) {
			if ((len = tier_chunk(r, end)) == 0) {
				go = -1;
				break;
			}
			if (h.at == h.looked && (go = look(r, &h, len,
			    end)) != 1)
				break;
			/* -L and -S cut at a record: the rest waits its turn */
			h.ahead = h.at + tier_records_allowed(r, r->buf + h.at,
			    h.looked - h.at, true);
		}
		n = splice(h.pipe[0], NULL, r->out, NULL, h.ahead - h.at,
		    SPLICE_F_MOVE | (r->timed ? SPLICE_F_NONBLOCK : 0));
		if (n == -1 && errno == EAGAIN) {
			go = tier_wait(r, false, true, end) ? 1 : -1;
			continue;
		}
		go = splice_moved(r, n, r->buf + h.at, SIDE_WRITE, paced, end);
		if (n > 0)
			h.at += (size_t)n;
	}
	/* bytes the hold had and could not give back: the run fails */
	if (!hold_close(&h, r, go == 0)) {
		r->held = 0;
		*end = RELAY_READ_ERROR;
		return true;
	}
	return go == -1;
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

static bool
zerocopy_run(struct relay *r, enum relay_end *end)
{
	struct stat in, out;
	struct tier_pace paced;
	size_t len;
	ssize_t n;
	off_t hole;
	int go, flags;
	bool files;

	if (!r->zerocopy || fstat(r->in, &in) == -1 ||
	    fstat(r->out, &out) == -1)
		return false;
	flags = fcntl(r->out, F_GETFL);
	files = S_ISREG(in.st_mode) && S_ISREG(out.st_mode) && flags != -1 &&
	    !(flags & O_APPEND);
	if (!files && !S_ISFIFO(in.st_mode) && !S_ISFIFO(out.st_mode))
		return false;
	if (S_ISFIFO(in.st_mode))
		compat_grow_pipe(r->in, r->bufsize);
	if (S_ISFIFO(out.st_mode))
		compat_grow_pipe(r->out, r->bufsize);
	tier_pace_start(&paced, S_ISFIFO(in.st_mode) ? r->in : -1,
	    S_ISFIFO(out.st_mode) ? r->out : -1);
	if (r->separator != -1)
		return lines_run(r, &paced, end);
	do {
		if ((len = tier_chunk(r, end)) == 0) {
			go = -1;
			break;
		}
		/* the input's holes kept, as cp --sparse=auto keeps them */
		if (files && r->sparse && (hole = tier_input_hole(r, &len)) != 0) {
			if (hole == -1) {
				r->error = errno;
				*end = RELAY_READ_ERROR;
				go = -1;
			} else
				go = tier_hole(r, NULL, (size_t)hole, end) ? 1 :
				    -1;
			continue;
		}
		n = move(r, files, len);
		go = splice_moved(r, n, NULL, files ? SIDE_READ :
		    splice_side(&in, &out), &paced, end);
	} while (go == 1);
	return go == -1;
}

const struct tier zerocopy_tier = { "zero-copy", zerocopy_run };
