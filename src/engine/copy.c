/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The read/write tier: every system has it, and every other tier falls
 * back to it.  -E's rescue of unreadable blocks lives here, since only a
 * read can be split block by block.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#ifdef HAVE_LINUX_FS_H
#include <linux/fs.h>		/* BLKSSZGET */
#endif

#include "tier.h"
#include "tach/compat.h"
#include "tach/message.h"

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
	if ((s = reallocarray(r->skipped, r->nskipped + 1, sizeof(*s))) == NULL)
		report_err(1, "skipped ranges");
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
	while (done < span && !tier_reached(r)) {
		piece = unit - (size_t)((at + (off_t)done) % (off_t)unit);
		if (piece > span - done)
			piece = span - done;
		if (r->stop_at > 0 && r->separator == -1 &&
		    piece > r->stop_at - r->bytes)
			piece = (size_t)(r->stop_at - r->bytes);  /* -S holds */
		if ((n = pread(r->in, r->buf, piece, at + (off_t)done)) == -1 &&
		    errno == EINTR) {
			if (tier_retry(r, errno, true, end) == -1)
				return -1;
			continue;
		}
		/* -K: a piece direct I/O cannot take is not unreadable */
		if (n == -1 && tier_direct_refused(r, true, errno))
			continue;
		if (n == 0)
			break;		/* it ended sooner: the loop sees it */
		if (n == -1)
			memset(r->buf, 0, piece);
		used = tier_records_allowed(r, r->buf, n == -1 ? piece :
		    (size_t)n, false);
		if (n == -1)
			note_skipped(r, (uint64_t)(at + (off_t)done), used);
		if (!tier_write(r, r->buf, used, end))
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
	off_t hole;

	/* what a tier took and could not write comes first */
	r->held = 0;
	for (;;) {
		if ((len = tier_chunk(r, &end)) == 0) {
			/* -S in lines: what follows the record is left unread */
			if (held > 0)
				(void)lseek(r->in, -(off_t)held, SEEK_CUR);
			return end;
		}
		if (held == 0 && r->sparse && (hole = tier_input_hole(r, &len)) != 0) {
			if (hole == -1) {
				r->error = errno;
				return RELAY_READ_ERROR;
			}
			if (!tier_hole(r, NULL, (size_t)hole, &end))
				return end;
			continue;
		}
		if (held == 0) {
			if ((n = tier_transfer(r, true, r->buf, len)) == 0)
				return RELAY_EOF;
			if (n == -1) {
				switch (tier_retry(r, errno, true, &end)) {
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
		used = tier_records_allowed(r, r->buf + start, held, true);
		if (!tier_write(r, r->buf + start, used, &end))
			return end;
		start += used;
		held -= used;
	}
}

/* The last tier: it always finishes the transfer. */
static bool
readwrite_run(struct relay *r, enum relay_end *end)
{
	*end = copy_loop(r);
	return true;
}

const struct tier copy_tier = { "read/write", readwrite_run };
