/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The transfer engine's front: the buffer, -L's setting, and the run
 * through the tiers (tier.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/clock.h"
#include "tach/message.h"
#include "tier.h"

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
 * Holes only past the output's end: bytes beyond it read back as zeros,
 * and a hole within it would leave what was there.  -O's output must be
 * a file (main checks); else holes are kept only where it is one, not
 * opened to append.  False where none can be made.
 */
static bool
sparse_start(struct relay *r, bool zeros)
{
	struct stat sb;
	off_t at;
	int flags;

	if (!zeros && (fstat(r->out, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    (flags = fcntl(r->out, F_GETFL)) == -1 || (flags & O_APPEND)))
		return false;
	if (fstat(r->out, &sb) == -1 ||
	    (at = lseek(r->out, 0, SEEK_CUR)) == -1) {
		if (zeros)
			report_err(1, "-O: the output");
		return false;
	}
	r->sparse = true;
	r->zeros = zeros;
	r->out_at = (uint64_t)at;
	r->sparse_from = (uint64_t)sb.st_size;
	r->sparse_block = sb.st_blksize >= 512 && sb.st_blksize <= 1 << 20 ?
	    (size_t)sb.st_blksize : 4096;
	return true;
}

void
relay_init(struct relay *r, int in, int out, const struct relay_config *c)
{
	long page = sysconf(_SC_PAGESIZE);
	struct stat sb;
	size_t alloc;
	void *buf;
	int fd = -1;

	memset(r, 0, sizeof(*r));
	r->in = in;
	r->out = out;
	r->bufsize = c->bufsize == 0 ? 1 : c->bufsize > RELAY_BUFSIZE_MAX ?
	    RELAY_BUFSIZE_MAX : c->bufsize;
	/* holes and direct I/O are made in tach's buffer, not in a pipe */
	r->zerocopy = c->zerocopy && !c->sparse && !c->direct;
	r->stop_at = c->stop_at;
	r->separator = c->lines ? c->separator : -1;
	r->skip_errors = c->skip_errors;
	r->timed = c->timed;
	r->stall_timeout = c->stall_timeout;
	r->moved_at = clock_now();
	r->service = c->service;
	r->ctx = c->ctx;
	r->writeback.fd = -1;
	if (c->sync)
		writeback_init(&r->writeback, out);
	(void)sparse_start(r, c->sparse);
	r->out_streams = fstat(out, &sb) == 0 && (S_ISFIFO(sb.st_mode) ||
	    S_ISSOCK(sb.st_mode) || S_ISCHR(sb.st_mode));
	r->in_holes = true;
	r->data_end = 0;
	r->seen.keep = c->last_written < RELAY_SEEN_MAX ? c->last_written :
	    RELAY_SEEN_MAX;
	r->seen.lines = c->previous_line;
	if (c->limit > 0)
		relay_set_limit(r, c->limit, c->limit_in_bytes);
	if (c->buffer_file != NULL)
		fd = ring_file(c->buffer_file, c->buffer);
	if (c->buffer > 0 && (r->ring = ring_new(c->buffer, c->write_at,
	    c->read_at, r->zerocopy && TACH_USE_ZEROCOPY && !c->lines,
	    fd)) == NULL)
		report_err(1, "-b: a buffer of %zu bytes", c->buffer);
	/* the mapping keeps the file */
	if (fd != -1)
		close(fd);
	if (c->read_limit > 0)
		relay_set_read_limit(r, c->read_limit);
	alloc = (r->bufsize + (size_t)page - 1) / (size_t)page * (size_t)page;
	if ((errno = posix_memalign(&buf, (size_t)page, alloc)) != 0)
		report_err(1, "buffer of %zu bytes", alloc);
	r->buf = buf;
}

void
relay_next_input(struct relay *r, int in, size_t part)
{
	r->in = in;
	r->part = part;
	r->in_holes = true;
	r->data_end = 0;
}

int
relay_sparse_end(struct relay *r)
{
	struct stat sb;

	if (!r->sparse)
		return 0;
	if (fstat(r->out, &sb) == -1)
		return -1;
	if ((uint64_t)sb.st_size >= r->out_at)
		return 0;
	return ftruncate(r->out, (off_t)r->out_at);
}

void
relay_free(struct relay *r)
{
	free(r->buf);
	r->buf = NULL;
	/* the closing line still shows what the buffer did */
	r->has_fill = relay_fill(r, &r->fill);
	ring_free(r->ring);
	r->ring = NULL;
}

void
relay_free_skipped(struct relay *r)
{
	free(r->skipped);
	r->skipped = NULL;
	r->nskipped = 0;
}

void
relay_suspended(struct relay *r, double seconds)
{
	r->limit_stopped += seconds;
}

void
relay_direct(struct relay *r, bool input, bool on)
{
	if (input)
		r->direct_in = on;
	else
		r->direct_out = on;
}

void
relay_continued(struct relay *r)
{
	r->moved_at = clock_now();
}

void
relay_set_limit(struct relay *r, double limit, bool in_bytes)
{
	/* what moved so far counts as paid at the new rate: no burst, no debt */
	r->limit = limit;
	r->limit_records = r->separator != -1 && !in_bytes;
	/* before the first byte, the clock starts with the first move */
	if (r->limit_from != 0 || tier_limit_count(r) > 0)
		r->limit_from = clock_now() -
		    (double)tier_limit_count(r) / limit;
	r->limit_stopped = 0;
}

/* The tiers, fastest first; the read/write loop always finishes. */
static const struct tier *const tiers[] = {
	&buffer_tier,		/* with -b beyond the pipes only */
#if TACH_USE_ZEROCOPY
	&zerocopy_tier,
#endif
	&copy_tier,
};

enum relay_end
relay_run(struct relay *r)
{
	enum relay_end end = RELAY_EOF;

	for (size_t i = 0; i < sizeof(tiers) / sizeof(tiers[0]); i++)
		if (tiers[i]->run(r, &end))
			break;
	if (end == RELAY_STOPPED && r->stalled_side != 0)
		end = RELAY_STALLED;
	return end;
}

bool
relay_fill(const struct relay *r, struct relay_fill *f)
{
	if (r->ring == NULL) {
		*f = r->fill;	/* its last, once freed */
		return r->has_fill;
	}
	return ring_fill(r, f);
}

bool
relay_outputs_stalled(struct relay *r, uint64_t taken, bool flushing)
{
	/* a disk in its last flush takes nothing new, and is no stall */
	if (flushing)
		r->moved_at = clock_now();
	if (r->stall_timeout == 0 || !tier_unmoved(r, taken))
		return false;
	r->stalled_side = RELAY_OUTPUT;
	return true;
}

bool
relay_reached(const struct relay *r)
{
	return tier_reached(r);
}

bool
relay_write(struct relay *r, const void *data, size_t len,
    enum relay_end *end)
{
	return tier_write(r, data, len, end);
}
