/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The transfer engine's portable part: buffer sizing, waiting, and the
 * read/write loop that every system has and every other tier falls back to.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#ifdef HAVE_LINUX_FS_H
#include <linux/fs.h>		/* BLKSSZGET */
#endif

#include "tach/clock.h"
#include "tach/records.h"
#include "tach/signals.h"
#include "relay_tier.h"

/*
 * The smallest default buffers: splice and copy_file_range do best with
 * 1 MiB (pipes grow to it), a read/write loop with 256 KiB.  See
 * doc/PERFORMANCE.md for the measurements behind them.
 */
#define ZEROCOPY_BUFSIZE_MIN	(1024 * 1024)
#define COPY_BUFSIZE_MIN	(256 * 1024)

static size_t
block_size(int fd)
{
	struct stat sb;

	if (fstat(fd, &sb) == -1 || sb.st_blksize <= 0)
		return 4096;
	return (size_t)sb.st_blksize;
}

size_t
relay_default_bufsize(int in, int out, bool zerocopy)
{
	size_t blk, inblk = block_size(in), outblk = block_size(out);
	size_t min = zerocopy && TACH_USE_ZEROCOPY ? ZEROCOPY_BUFSIZE_MIN :
	    COPY_BUFSIZE_MIN;

	blk = inblk > outblk ? inblk : outblk;
	if (blk > RELAY_BUFSIZE_MAX)
		return RELAY_BUFSIZE_MAX;
	if (blk >= min)
		return blk;
	return (min + blk - 1) / blk * blk;
}

/*
 * The buffer is taken here, before the first byte moves: a copy must not
 * fail for want of memory after it has moved every byte.
 */
void
relay_init(struct relay *r, int in, int out, size_t bufsize, bool zerocopy)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t alloc;
	void *buf;

	memset(r, 0, sizeof(*r));
	r->in = in;
	r->out = out;
	if (bufsize == 0)
		bufsize = 1;
	r->bufsize = bufsize > RELAY_BUFSIZE_MAX ? RELAY_BUFSIZE_MAX : bufsize;
	r->zerocopy = zerocopy;
	r->separator = -1;
	r->writeback.fd = -1;
	alloc = (r->bufsize + (size_t)page - 1) / (size_t)page * (size_t)page;
	if ((errno = posix_memalign(&buf, (size_t)page, alloc)) != 0)
		err(1, "buffer of %zu bytes", alloc);
	r->buf = buf;
}

void
relay_free(struct relay *r)
{
	free(r->buf);
	r->buf = NULL;
}

void
relay_free_skipped(struct relay *r)
{
	free(r->skipped);
	r->skipped = NULL;
	r->nskipped = 0;
}

bool
relay_serviced(struct relay *r)
{
	if (!signal_pending || r->service == NULL)
		return true;
	return r->service(r->ctx);
}

bool
relay_count(struct relay *r, const unsigned char *data, size_t n,
    enum relay_end *end)
{
	size_t all;

	r->bytes += n;
	if (r->separator != -1 && data != NULL)
		r->records += records_count(data, n,
		    (unsigned char)r->separator, UINT64_MAX, &all);
	if (writeback_step(&r->writeback, r->bytes) == -1) {
		r->error = errno;
		*end = RELAY_WRITE_ERROR;
		return false;
	}
	if (!relay_serviced(r)) {
		*end = RELAY_STOPPED;
		return false;
	}
	return true;
}

bool
relay_reached(const struct relay *r)
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
relay_records_allowed(const struct relay *r, const unsigned char *data,
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

/* What -L counts: records in line mode (unless asked in bytes), else bytes. */
static uint64_t
limit_count(const struct relay *r)
{
	return r->limit_records ? r->records : r->bytes;
}

void
relay_suspended(struct relay *r, double seconds)
{
	r->limit_stopped += seconds;
}

void
relay_set_limit(struct relay *r, double limit, bool in_bytes)
{
	/* what moved so far counts as paid at the new rate: no burst, no debt */
	r->limit = limit;
	r->limit_records = r->separator != -1 && !in_bytes;
	/* before the first byte, the clock starts with the first move */
	if (r->limit_from != 0 || limit_count(r) > 0)
		r->limit_from = clock_now() - (double)limit_count(r) / limit;
	r->limit_stopped = 0;
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
relay_chunk(struct relay *r, enum relay_end *end)
{
	double now, due, step;
	struct timespec ts;
	size_t most = r->bufsize, chunk;	/* relay_init: at least 1 */

	*end = RELAY_EOF;	/* what a 0 means, unless a signal stops it */
	if (relay_reached(r))
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
		due = r->limit_from + (double)limit_count(r) / r->limit;
		if (now - due > 0.5)
			r->limit_from += now - due - 0.5;
		if (due <= now)
			return chunk;
		ts.tv_sec = (time_t)(due - now);
		ts.tv_nsec = (long)((due - now - (double)ts.tv_sec) * 1e9);
		if (nanosleep(&ts, NULL) == -1 && !relay_serviced(r)) {
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
relay_wait(struct relay *r, bool input, bool output, enum relay_end *end)
{
	struct pollfd pfd[2] = {
		{ .fd = input ? r->in : -1, .events = POLLIN },
		{ .fd = output ? r->out : -1, .events = POLLOUT },
	};
	double since = r->timed ? clock_now() : 0;

	while (pfd[0].fd != -1 || pfd[1].fd != -1) {
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR || errno == EAGAIN) {
				if (!relay_serviced(r)) {
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
relay_retry(struct relay *r, int error, bool input, enum relay_end *end)
{
	if (error == EINTR) {
		if (relay_serviced(r))
			return 1;
		*end = RELAY_STOPPED;
		return -1;
	}
	if (error == EAGAIN || error == EWOULDBLOCK)
		return relay_wait(r, input, !input, end) ? 1 : -1;
	return 0;
}

/*
 * read(2) or write(2), timed for --stats.  Only a call that had to block
 * is waiting: one whose descriptor was not ready just before.  Reading a
 * file from the page cache is work, not waiting.
 */
static ssize_t
transfer(struct relay *r, bool input, void *buf, size_t len)
{
	struct pollfd pfd = { .fd = input ? r->in : r->out,
	    .events = input ? POLLIN : POLLOUT };
	bool blocks = r->timed && poll(&pfd, 1, 0) == 0;
	double since = blocks ? clock_now() : 0;
	ssize_t n = input ? read(r->in, buf, len) : write(r->out, buf, len);

	if (blocks)
		*(input ? &r->wait_in : &r->wait_out) += clock_now() - since;
	return n;
}

enum relay_end
relay_write(struct relay *r, const void *data, size_t len)
{
	const unsigned char *p = data;
	enum relay_end end;
	ssize_t n;

	while (len > 0) {
		n = transfer(r, false, (void *)p, len);
		if (n > 0) {
			if (!relay_count(r, p, (size_t)n, &end))
				return end;
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0)
			errno = ENOSPC;		/* as gnulib's full_write */
		switch (relay_retry(r, errno, false, &end)) {
		case 1:
			continue;
		case -1:
			return end;
		}
		if (errno == EPIPE)
			return RELAY_BROKEN_PIPE;
		r->error = errno;
		return RELAY_WRITE_ERROR;
	}
	return RELAY_EOF;
}

/* The smallest piece a read can fail in: the disk's logical block. */
static size_t
logical_block(int fd, const struct stat *sb)
{
#ifdef BLKSSZGET
	int size;

	if (S_ISBLK(sb->st_mode) && ioctl(fd, BLKSSZGET, &size) == 0 &&
	    size >= 512)
		return (size_t)size;
#endif
	(void)fd;
	(void)sb;
	return 512;
}

/* -E: len bytes at offset at of the input were sent as zeros. */
static void
note_skipped(struct relay *r, uint64_t at, size_t len)
{
	struct relay_skip *s;

	r->lost += len;
	s = r->nskipped > 0 ? &r->skipped[r->nskipped - 1] : NULL;
	if (s != NULL && s->part == r->part && s->offset + s->length == at) {
		s->length += len;	/* the bad stretch goes on */
		return;
	}
	if ((s = realloc(r->skipped, (r->nskipped + 1) * sizeof(*s))) == NULL)
		err(1, "skipped ranges");
	r->skipped = s;
	r->skipped[r->nskipped++] = (struct relay_skip){ r->part, at, len };
}

/*
 * -E: a read of span bytes at the input's offset failed.  On a file or
 * block device the span is read again a logical block at a time, as
 * ddrescue splits: what reads is sent, what fails is sent as zeros (and
 * listed), so every later byte keeps its offset and only the unreadable
 * bytes are lost; then reading goes on after the span.  Returns 1 to go
 * on, 0 when the input cannot be read by offset (a pipe: the error
 * stands), -1 when the transfer ends with *end.
 */
static int
rescue(struct relay *r, size_t span, enum relay_end *end)
{
	struct stat sb;
	off_t at, size;
	size_t unit, piece, used, done = 0;
	ssize_t n;

	if (fstat(r->in, &sb) == -1 || !(S_ISREG(sb.st_mode) ||
	    S_ISBLK(sb.st_mode)) || (at = lseek(r->in, 0, SEEK_CUR)) == -1 ||
	    (size = lseek(r->in, 0, SEEK_END)) == -1 ||
	    lseek(r->in, at, SEEK_SET) == -1)
		return 0;
	if (at >= size) {
		*end = RELAY_EOF;	/* nothing is left to be unreadable */
		return -1;
	}
	unit = logical_block(r->in, &sb);
	if ((off_t)span > size - at)
		span = (size_t)(size - at);
	while (done < span && !relay_reached(r)) {
		piece = unit - (size_t)((at + (off_t)done) % (off_t)unit);
		if (piece > span - done)
			piece = span - done;
		if (r->stop_at > 0 && r->separator == -1 &&
		    piece > r->stop_at - r->bytes)
			piece = (size_t)(r->stop_at - r->bytes);  /* -S holds */
		if ((n = pread(r->in, r->buf, piece, at + (off_t)done)) == -1 &&
		    errno == EINTR) {
			if (relay_retry(r, errno, true, end) == -1)
				return -1;
			continue;
		}
		if (n == 0)
			break;		/* it ended sooner: the loop sees it */
		if (n == -1)
			memset(r->buf, 0, piece);
		used = relay_records_allowed(r, r->buf, n == -1 ? piece :
		    (size_t)n, false);
		if (n == -1)
			note_skipped(r, (uint64_t)(at + (off_t)done), used);
		if ((*end = relay_write(r, r->buf, used)) != RELAY_EOF)
			return -1;
		done += used;
	}
	return lseek(r->in, at + (off_t)done, SEEK_SET) == -1 ? 0 : 1;
}

/*
 * Whatever is read is written at once, so interactive streams stay live;
 * only -L in lines holds back the lines a read brought beyond the step,
 * for the steps after (a pipe's read cannot be put back).
 */
static enum relay_end
copy_loop(struct relay *r)
{
	enum relay_end end;
	size_t len, used, start = 0, held = r->held;
	ssize_t n;

	/* what a tier took and could not write comes first */
	r->held = 0;
	for (;;) {
		if ((len = relay_chunk(r, &end)) == 0) {
			/* -S in lines: what follows the record is left unread */
			if (held > 0)
				(void)lseek(r->in, -(off_t)held, SEEK_CUR);
			return end;
		}
		if (held == 0) {
			if ((n = transfer(r, true, r->buf, len)) == 0)
				return RELAY_EOF;
			if (n == -1) {
				switch (relay_retry(r, errno, true, &end)) {
				case 1:
					continue;
				case -1:
					return end;
				}
				r->error = errno;
				switch (r->skip_errors ? rescue(r, len, &end) :
				    0) {
				case 1:
					continue;
				case -1:
					return end;
				}
				errno = r->error;
				return RELAY_READ_ERROR;
			}
			start = 0;
			held = (size_t)n;
		}
		used = relay_records_allowed(r, r->buf + start, held, true);
		if ((end = relay_write(r, r->buf + start, used)) != RELAY_EOF)
			return end;
		start += used;
		held -= used;
	}
}

enum relay_end
relay_run(struct relay *r)
{
#if TACH_USE_ZEROCOPY
	enum relay_end end;

	if (r->zerocopy && zerocopy_run(r, &end))
		return end;
#endif
	return copy_loop(r);
}
