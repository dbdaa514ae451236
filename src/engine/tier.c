/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * What every tier of the transfer engine shares (tier.h): the pace of -L
 * and the stop of -S, counting what moved, and the answers to EINTR and
 * EAGAIN.  No tier calls another, or relay.c.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tach/clock.h"
#include "tach/compat.h"
#include "tach/records.h"
#include "tach/signals.h"
#include "tier.h"

bool
tier_unmoved(struct relay *r, uint64_t moved)
{
	double now = clock_now();

	if (moved != r->moved) {
		r->moved = moved;
		r->moved_at = now;
	}
	return now - r->moved_at >= r->stall_timeout;
}

/*
 * --stall-timeout: whether nothing was read or written for that long; if
 * so, which side held it up.  A buffer that holds bytes waits on its
 * output, unless the output waits for --write-at's fill; without one, an
 * output that takes nothing now does.
 */
static bool
stalled(struct relay *r)
{
	struct pollfd pfd = { .fd = r->out, .events = POLLOUT };
	struct relay_fill f;
	bool ring = r->ring_fill != NULL && r->ring_fill(r, &f);

	if (!tier_unmoved(r, r->bytes + (ring ? f.taken : 0)))
		return false;
	r->stalled_side = (ring ? f.held > 0 && !f.filling :
	    poll(&pfd, 1, 0) == 0) ?
	    RELAY_OUTPUT : RELAY_INPUT;
	return true;
}

void
tier_pace_start(struct tier_pace *p, int in, int out)
{
	p->pace = (struct pace){ 0 };
	p->in = in;
	p->out = out;
	p->capacity = in == -1 ? 0 : compat_grow_pipe(in, 0);
	p->out_capacity = out == -1 ? 0 : compat_grow_pipe(out, 0);
	/* an input's pauses of tens of microseconds, against a slack of 50 */
	if (p->capacity > 0)
		compat_fine_timer();
}

/* Bytes in a pipe, from either end; 0 if it cannot be told. */
static size_t
in_pipe(int fd)
{
	int queued;

	if (ioctl(fd, FIONREAD, &queued) == -1 || queued < 0)
		return 0;
	return (size_t)queued;
}

void
tier_pace_after(struct tier_pace *p, size_t moved, bool drained)
{
	struct timespec pause;
	size_t queued = 0;
	long ns, drain;

	if (p == NULL || (p->capacity == 0 && p->out_capacity == 0))
		return;		/* files: no pipe to fill or drain */
	/* with no input pipe, a move of 0 capacity is large: rate only */
	if (p->capacity > 0 && !drained &&
	    !pace_large_move(moved, p->capacity))
		queued = in_pipe(p->in);
	ns = pace_after(&p->pace, clock_now(), moved, queued, p->capacity);
	/* a fast reader is not asked: it could not be waited for */
	if (p->out_capacity > 0 && pace_may_drain(&p->pace, p->out_capacity) &&
	    (drain = pace_drain(&p->pace, in_pipe(p->out),
	    p->out_capacity)) > ns)
		ns = drain;
	if (ns > 0) {
		pause.tv_sec = ns / 1000000000;
		pause.tv_nsec = ns % 1000000000;
		(void)nanosleep(&pause, NULL);
	}
}

bool
tier_unsupported(int error)
{
	return error == EINVAL || error == ENOSYS || error == EXDEV ||
	    error == EOPNOTSUPP || error == ENOTSUP;
}

bool
tier_serviced(struct relay *r)
{
	if (!signal_pending || r->service == NULL)
		return true;
	if (!r->service(r->ctx))
		return false;
	return r->stall_timeout == 0 || !stalled(r);
}

/* Appends n bytes of data to buf, *len long, as far as it has room. */
static void
keep_start(unsigned char *buf, size_t *len, const unsigned char *data,
    size_t n)
{
	if (n > RELAY_SEEN_MAX - *len)
		n = RELAY_SEEN_MAX - *len;
	memcpy(buf + *len, data, n);
	*len += n;
}

/* Where the last separator in n bytes of data is, or n if none is. */
static size_t
last_separator(const unsigned char *data, size_t n, unsigned char sep)
{
	for (size_t i = n; i > 0; i--)
		if (data[i - 1] == sep)
			return i - 1;
	return n;
}

/*
 * -A: the last bytes written; %{previous-line}: the last whole line
 * (its first RELAY_SEEN_MAX bytes), found from the end of each write.
 */
static void
seen(struct relay_seen *s, const unsigned char *data, size_t n,
    unsigned char sep)
{
	size_t drop, last, prev;

	if (n >= s->keep) {
		memcpy(s->last, data + n - s->keep, s->keep);
		s->len = s->keep;
	} else {
		drop = s->len + n > s->keep ? s->len + n - s->keep : 0;
		memmove(s->last, s->last + drop, s->len - drop);
		memcpy(s->last + s->len - drop, data, n);
		s->len += n - drop;
	}
	if (!s->lines)
		return;
	if ((last = last_separator(data, n, sep)) == n) {
		keep_start(s->partial, &s->partial_len, data, n);
		return;
	}
	if ((prev = last_separator(data, last, sep)) == last) {
		keep_start(s->partial, &s->partial_len, data, last);
		memcpy(s->line, s->partial, s->partial_len);
		s->line_len = s->partial_len;
	} else {
		s->line_len = 0;
		keep_start(s->line, &s->line_len, data + prev + 1,
		    last - prev - 1);
	}
	s->has_line = true;
	s->partial_len = 0;
	keep_start(s->partial, &s->partial_len, data + last + 1, n - last - 1);
}

bool
tier_count(struct relay *r, const unsigned char *data, size_t n,
    enum relay_end *end)
{
	size_t all;

	/* every byte the output is given passes here, holes too */
	r->bytes += n;
	r->out_at += n;
	if (r->separator != -1 && data != NULL)
		r->records += records_count(data, n,
		    (unsigned char)r->separator, UINT64_MAX, &all);
	if ((r->seen.keep > 0 || r->seen.lines) && data != NULL)
		seen(&r->seen, data, n, (unsigned char)r->separator);
	if (writeback_step(&r->writeback, r->bytes) == -1) {
		r->error = errno;
		*end = RELAY_WRITE_ERROR;
		return false;
	}
	if (!tier_serviced(r)) {
		*end = RELAY_STOPPED;
		return false;
	}
	return true;
}

bool
tier_reached(const struct relay *r)
{
	return r->stop_at > 0 &&
	    (r->separator == -1 ? r->bytes : r->records) >= r->stop_at;
}

/* -L in records: a step's worth, 50 ms at the limit, at least one. */
static uint64_t
records_step(const struct relay *r)
{
	return r->limit >= 20 ? (uint64_t)(r->limit / 20) : 1;
}

size_t
tier_records_allowed(const struct relay *r, const unsigned char *data,
    size_t n, bool paced)
{
	uint64_t most = UINT64_MAX;
	size_t used = n;

	if (r->separator == -1)
		return n;
	if (r->stop_at > r->records)
		most = r->stop_at - r->records;
	if (paced && r->limit_records && r->limit > 0 &&
	    records_step(r) < most)
		most = records_step(r);
	if (most != UINT64_MAX)
		(void)records_count(data, n, (unsigned char)r->separator,
		    most, &used);
	return used;
}

uint64_t
tier_limit_count(const struct relay *r)
{
	return r->limit_records ? r->records : r->bytes;
}

/*
 * With -S, no call moves past the size to stop at, and reaching it ends
 * the transfer.  With -L, a call may move the bytes it is due: tach
 * sleeps until the bytes so far are paid for at the limit, then moves at
 * most 50 ms' worth, so zero-copy calls stay zero-copy, only shorter.  A
 * slow source does not bank more than half a second of credit for a burst
 * later; time stopped by ^Z banks none.
 */
size_t
tier_chunk(struct relay *r, enum relay_end *end)
{
	double now, due, step;
	struct timespec ts;
	size_t most = r->bufsize, chunk;	/* relay_init: at least 1 */

	*end = RELAY_AT_SIZE;	/* what a 0 means, unless a signal stops it */
	if (tier_reached(r))
		return 0;
	/* in line mode the tiers cut at the record */
	if (r->stop_at > 0 && r->separator == -1 &&
	    most > r->stop_at - r->bytes)
		most = (size_t)(r->stop_at - r->bytes);
	if (r->limit <= 0)
		return most;
	/*
	 * In records, as many bytes as a step's records took so far (a page
	 * before any): each tier then cuts at the step's last one.
	 */
	step = r->limit / 20;
	if (r->limit_records)
		step = (double)records_step(r) * (r->records > 0 ?
		    (double)r->bytes / (double)r->records : 4096);
	chunk = step < 1 ? 1 : step >= (double)most ? most : (size_t)step;
	for (;;) {
		now = clock_now();
		if (r->limit_from == 0)
			r->limit_from = now;
		/* time spent stopped earns no credit for a burst */
		r->limit_from += r->limit_stopped;
		r->limit_stopped = 0;
		due = r->limit_from + (double)tier_limit_count(r) / r->limit;
		if (now - due > 0.5)
			r->limit_from += now - due - 0.5;
		if (due <= now)
			return chunk;
		ts.tv_sec = (time_t)(due - now);
		ts.tv_nsec = (long)((due - now - (double)ts.tv_sec) * 1e9);
		if (nanosleep(&ts, NULL) == -1 && !tier_serviced(r)) {
			*end = RELAY_STOPPED;
			return 0;
		}
	}
}

/*
 * Waits until each named side has been ready once: a descriptor inherited
 * with O_NONBLOCK answered EAGAIN, and spinning on it would burn a core.
 * A signal cuts the wait short so the main loop can run.  Returns false,
 * with *end set, when the transfer must end.
 */
bool
tier_wait(struct relay *r, bool input, bool output, enum relay_end *end)
{
	struct pollfd pfd[2] = {
		{ .fd = input ? r->in : -1, .events = POLLIN },
		{ .fd = output ? r->out : -1, .events = POLLOUT },
	};
	double since = r->timed ? clock_now() : 0;

	while (pfd[0].fd != -1 || pfd[1].fd != -1) {
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR || errno == EAGAIN) {
				if (!tier_serviced(r)) {
					*end = RELAY_STOPPED;
					return false;
				}
				continue;
			}
			r->error = errno;
			*end = input ? RELAY_READ_ERROR : RELAY_WRITE_ERROR;
			return false;
		}
		for (int i = 0; i < 2; i++)
			if (pfd[i].revents != 0)
				pfd[i].fd = -1;
	}
	if (r->timed) {
		/* a wait on both sides is charged to the input */
		if (input)
			r->wait_in += clock_now() - since;
		else
			r->wait_out += clock_now() - since;
	}
	return true;
}

int
tier_retry(struct relay *r, int error, bool input, enum relay_end *end)
{
	if (error == EINTR) {
		if (tier_serviced(r))
			return 1;
		*end = RELAY_STOPPED;
		return -1;
	}
	if (error == EAGAIN || error == EWOULDBLOCK)
		return tier_wait(r, input, !input, end) ? 1 : -1;
	return 0;
}

/*
 * read(2) or write(2), timed for --stats.  Only a call that had to block
 * is waiting: one whose descriptor was not ready just before, or a write
 * to a pipe, which blocks partway when it is larger than the room left.
 * Reading a file from the page cache is work, not waiting.
 */
ssize_t
tier_transfer(struct relay *r, bool input, void *buf, size_t len)
{
	struct pollfd pfd = { .fd = input ? r->in : r->out,
	    .events = input ? POLLIN : POLLOUT };
	bool blocks = r->timed && (poll(&pfd, 1, 0) == 0 ||
	    (!input && r->out_streams));
	double since = blocks ? clock_now() : 0;
	ssize_t n;

	do
		n = input ? read(r->in, buf, len) : write(r->out, buf, len);
	while (n == -1 && tier_direct_refused(r, input, errno));
	if (blocks)
		*(input ? &r->wait_in : &r->wait_out) += clock_now() - since;
	return n;
}

static bool
write_all(struct relay *r, const unsigned char *p, size_t len,
    enum relay_end *end)
{
	ssize_t n;

	while (len > 0) {
		n = tier_transfer(r, false, (void *)p, len);
		if (n > 0) {
			if (!tier_count(r, p, (size_t)n, end))
				return false;
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0)
			errno = ENOSPC;		/* as gnulib's full_write */
		if (!tier_write_again(r, errno, end))
			return false;
	}
	return true;
}

bool
tier_hole(struct relay *r, const unsigned char *data, size_t len,
    enum relay_end *end)
{
	if (lseek(r->out, (off_t)len, SEEK_CUR) == -1) {
		r->error = errno;
		*end = RELAY_WRITE_ERROR;
		return false;
	}
	r->holes += len;
	return tier_count(r, data, len, end);
}

static bool
all_zeros(const unsigned char *p, size_t n)
{
	return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

/*
 * -O: how many of the n bytes at p are of one kind with the first block:
 * whole blocks of the output, zeros past its old end (a hole), or else
 * data; *hole says which.
 */
static size_t
sparse_run(const struct relay *r, const unsigned char *p, size_t n,
    bool *hole)
{
	size_t blk = r->sparse_block, done, step;

	done = blk - (size_t)(r->out_at % blk);
	if (done > n)
		done = n;
	*hole = r->out_at >= r->sparse_from && all_zeros(p, done);
	for (; done < n; done += step) {
		step = n - done < blk ? n - done : blk;
		if ((r->out_at + done >= r->sparse_from &&
		    all_zeros(p + done, step)) != *hole)
			break;
	}
	return done;
}

off_t
tier_input_hole(struct relay *r, size_t *len)
{
	uint64_t most = *len;
	struct stat sb;
	off_t at, data, hole;

	if (!r->in_holes || r->separator == '\0' ||
	    r->out_at < r->sparse_from)
		return 0;
	/* a pipe, a socket, a terminal: asked once an input */
	if ((at = lseek(r->in, 0, SEEK_CUR)) == -1) {
		r->in_holes = false;
		return 0;
	}
	/* within the data last found: its hole is known, nothing to ask */
	if (at < r->data_end) {
		if ((uint64_t)(r->data_end - at) < *len)
			*len = (size_t)(r->data_end - at);
		return 0;
	}
	if ((data = compat_seek_next(r->in, at, false)) == -1) {
		/* past the last data: a hole to the end, or the end */
		if (errno != ENXIO || fstat(r->in, &sb) == -1)
			return 0;
		data = sb.st_size;
	}
	if (data <= at) {
		/* data here: the offset has not moved; *len ends at a hole */
		hole = compat_seek_next(r->in, at, true);
		r->data_end = hole > at ? hole : 0;
		if (hole > at && (uint64_t)(hole - at) < *len)
			*len = (size_t)(hole - at);
		if (lseek(r->in, at, SEEK_SET) == -1)
			return -1;
		return 0;
	}
	/* unpaced, a hole is passed whole, up to -S's size */
	if (r->limit <= 0)
		most = r->stop_at > 0 && r->separator == -1 &&
		    r->stop_at - r->bytes < SIZE_MAX ? r->stop_at - r->bytes :
		    SIZE_MAX;
	if ((uint64_t)(data - at) > most)
		data = at + (off_t)most;
	if (lseek(r->in, data, SEEK_SET) == -1)
		return -1;	/* where it is is not known: an error */
	return data - at;
}

bool
tier_writable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	return poll(&p, 1, -1) != 1 || p.revents == POLLOUT;
}

int
tier_put(int fd, const void *data, size_t len, size_t *done)
{
	const unsigned char *p = data;
	ssize_t n;

	*done = 0;
	while (*done < len) {
		if ((n = write(fd, p + *done, len - *done)) > 0) {
			*done += (size_t)n;
			continue;
		}
		if (n == 0)
			return ENOSPC;	/* as write_all: never spun on */
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			tier_writable(fd);
		else if (errno != EINTR)
			return errno;
	}
	return 0;
}

bool
tier_direct_refused(struct relay *r, bool input, int error)
{
	bool *direct = input ? &r->direct_in : &r->direct_out;

	if (error != EINVAL || !*direct)
		return false;
	*direct = false;
	return compat_direct(input ? r->in : r->out, false) == 0;
}

bool
tier_write(struct relay *r, const void *data, size_t len,
    enum relay_end *end)
{
	const unsigned char *p = data;
	size_t n;
	bool hole;

	if (!r->zeros)
		return write_all(r, p, len, end);
	for (; len > 0; p += n, len -= n) {
		n = sparse_run(r, p, len, &hole);
		if (!(hole ? tier_hole(r, p, n, end) :
		    write_all(r, p, n, end)))
			return false;
	}
	return true;
}

bool
tier_write_again(struct relay *r, int error, enum relay_end *end)
{
	switch (tier_retry(r, error, false, end)) {
	case 1:
		return true;
	case -1:
		return false;
	}
	if (error == EPIPE)
		*end = RELAY_BROKEN_PIPE;
	else {
		r->error = error;
		*end = RELAY_WRITE_ERROR;
	}
	return false;
}
