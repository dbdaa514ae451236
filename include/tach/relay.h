/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The transfer engine: moves every byte from one descriptor to another,
 * by copy_file_range or splice where the kernel offers them, else by a
 * read/write loop through a page-aligned buffer.
 */
#ifndef TACH_RELAY_H
#define TACH_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tach/fill.h"
#include "tach/writeback.h"

/* Buffers above this are reduced to it (see tach(1), -b). */
#define RELAY_BUFSIZE_MAX	(64 * 1024 * 1024)
/* -b from this size on is a buffer between input and output (tach(1)). */
#define RELAY_BUFFER_MIN	(4 * 1024 * 1024)

enum relay_end {
	RELAY_EOF,		/* the input ended and all of it was written */
	RELAY_AT_SIZE,		/* -S: the size to stop at was written */
	RELAY_READ_ERROR,	/* errno in relay.error */
	RELAY_WRITE_ERROR,	/* errno in relay.error */
	RELAY_MOVE_ERROR,	/* a splice between two pipes: either side */
	RELAY_BROKEN_PIPE,	/* the reader went away */
	RELAY_STOPPED,		/* the service hook asked to stop */
	RELAY_STALLED		/* --stall-timeout: relay.stalled_side */
};

/* --stall-timeout: the side that held the copy up. */
enum relay_side {
	RELAY_INPUT = 1,	/* nothing came in */
	RELAY_OUTPUT		/* nothing was taken */
};

/* -E: a range of the input that could not be read, sent as zeros. */
struct relay_ring;

/* -A's most, and the longest line %{previous-line} keeps (its start). */
#define RELAY_SEEN_MAX	256

/*
 * -A and %{previous-line}: what was written last, where tach sees the
 * bytes it moves (line mode, which counts them); written by the thread
 * that writes, read by the display between writes.
 */
struct relay_seen {
	size_t		 keep;		/* -A: the last keep bytes, or 0 */
	size_t		 len;		/* of last */
	unsigned char	 last[RELAY_SEEN_MAX];
	bool		 lines;		/* %{previous-line}: keep it */
	bool		 has_line;	/* a whole line has been written */
	size_t		 line_len;
	unsigned char	 line[RELAY_SEEN_MAX];
	size_t		 partial_len;	/* the line being written */
	unsigned char	 partial[RELAY_SEEN_MAX];
};

struct relay_skip {
	size_t		 part;		/* which input (several -f), from 0 */
	uint64_t	 offset;
	uint64_t	 length;
};

struct relay {
	int		 in;
	int		 out;
	size_t		 bufsize;
	bool		 zerocopy;	/* false with --no-splice */
	uint64_t	 bytes;		/* written so far */
	int		 separator;	/* --line-mode: '\n' or '\0'; else -1 */
	uint64_t	 records;	/* --line-mode: written so far */
	int		 error;
	bool		 timed;		/* measure the waits (--stats) */
	double		 wait_in;	/* seconds spent waiting for input */
	double		 wait_out;	/* seconds spent waiting to write */
	/* -S: end after this many bytes (records in line mode), or 0 */
	uint64_t	 stop_at;
	struct writeback writeback;	/* -Y, else its fd is -1 */
	bool		 skip_errors;	/* -E: zeros for unreadable blocks */
	size_t		 part;		/* -E: which input in is, from 0 */
	struct relay_skip *skipped;	/* -E: the ranges, in order */
	size_t		 nskipped;
	uint64_t	 lost;		/* -E: bytes sent as zeros */
	double		 limit;		/* -L: per second, or 0 */
	bool		 limit_records;	/* -L counts records, not bytes */
	double		 limit_from;	/* -L: when its clock started */
	double		 limit_stopped;	/* -L: seconds stopped (^Z), unpaid */
	unsigned char	*buf;		/* page-aligned, bufsize bytes */
	struct relay_ring *ring;	/* -b as a buffer, or NULL */
	/*
	 * The buffer tier's fill, while it runs (else NULL): set by the
	 * tier, so that what all tiers share (tier.c) calls nothing above
	 */
	bool		(*ring_fill)(const struct relay *, struct relay_fill *);
	bool		 has_fill;	/* relay_free kept its last fill: */
	struct relay_fill fill;
	uint64_t	 undelivered;	/* read into it, not written: lost */
	size_t		 held;		/* buf's first bytes, a tier's to write */
	double		 stall_timeout;	/* seconds, or 0 */
	struct relay_seen seen;		/* -A, %{previous-line} */
	/*
	 * Holes: an input's are kept where the output is a regular file
	 * (as cp's --sparse=auto); with -O, zeros in data become holes too.
	 */
	bool		 sparse;	/* holes are made in the output */
	bool		 zeros;		/* -O: and zeros in data become holes */
	bool		 in_holes;	/* the input may have holes (not a pipe) */
	off_t		 data_end;	/* its data runs to here, or 0: unknown */
	/* out is a pipe, socket or terminal: a write may block partway */
	bool		 out_streams;
	uint64_t	 holes;		/* bytes left as holes */
	uint64_t	 out_at;	/* the output's offset */
	uint64_t	 sparse_from;	/* holes only here on (its size) */
	size_t		 sparse_block;	/* the output's block */
	/* -K: in or out was set direct; a call it refuses turns it off */
	bool		 direct_in;
	bool		 direct_out;
	uint64_t	 moved;		/* read and written, when last seen */
	double		 moved_at;	/* when it last changed */
	enum relay_side	 stalled_side;	/* set when the timeout passed */
	/*
	 * Called whenever a signal has left work for the main loop;
	 * returns false to stop the transfer.
	 */
	bool		(*service)(void *ctx);
	void		*ctx;
};

/* What a transfer is asked to do; zeroed, a plain copy. */
struct relay_config {
	size_t		 bufsize;	/* 0 counts as 1; at most _MAX */
	size_t		 buffer;	/* -b as a buffer: its size, or 0 */
	const char	*buffer_file;	/* --buffer-file: its path, or NULL */
	int		 write_at;	/* its --write-at, % (0: at once) */
	int		 read_at;	/* its --read-at, % (100: at once) */
	double		 read_limit;	/* its --read-limit, or 0 */
	bool		 zerocopy;	/* false with --no-splice */
	uint64_t	 stop_at;	/* -S, or 0 */
	bool		 lines;		/* --line-mode */
	unsigned char	 separator;	/* --line-mode: '\n' or '\0' */
	bool		 skip_errors;	/* -E */
	bool		 sync;		/* -Y */
	bool		 timed;		/* --stats */
	double		 limit;		/* -L, or 0 */
	bool		 limit_in_bytes; /* -L in bytes in line mode */
	double		 stall_timeout;	/* --stall-timeout, or 0 */
	size_t		 last_written;	/* -A, or 0; line mode only */
	bool		 previous_line;	/* %{previous-line}; line mode only */
	bool		 sparse;	/* -O: out is a regular file */
	bool		 direct;	/* -K: through tach's buffer only */
	bool		(*service)(void *ctx);	/* as struct relay's */
	void		*ctx;
};

size_t		relay_default_bufsize(int in, int out, bool zerocopy);
/*
 * The relay for the config, its buffer taken now: a copy must not fail
 * for want of memory after it has moved every byte.
 */
void		relay_init(struct relay *r, int in, int out,
		    const struct relay_config *config);
/* Several -f: the next input, part of them (from 0), goes on the count. */
void		relay_next_input(struct relay *r, int in, size_t part);
/* -b as a buffer: its fill in *f (its last, once freed); false if none. */
bool		relay_fill(const struct relay *r, struct relay_fill *f);
enum relay_end	relay_run(struct relay *r);
/* ^Z stopped tach for seconds: under -L they earn no burst. */
void		relay_suspended(struct relay *r, double seconds);
/*
 * -K: whether the input's (input) or the output's descriptor was set
 * direct, for the calls on it to expect direct I/O's rules.
 */
void		relay_direct(struct relay *r, bool input, bool on);
/*
 * SIGCONT: a stop, ^Z's or SIGSTOP's, is no stall; --stall-timeout's
 * wait starts again.
 */
void		relay_continued(struct relay *r);
/*
 * -L, and -R's: moves at limit a second from now on, in records in line
 * mode unless in_bytes, else in bytes.
 */
void		relay_set_limit(struct relay *r, double limit, bool in_bytes);
/*
 * --read-limit, and -R's: -b's buffer reads at most limit bytes a second
 * from now on (what it read so far counts as paid).  No-op without one.
 */
void		relay_set_read_limit(struct relay *r, double limit);
/*
 * The relay has ended; the outputs it fed (the fanout's) may still be
 * taking: taken is what they have taken so far, flushing whether a disk
 * is in its last flush.  True, with stalled_side RELAY_OUTPUT, once
 * --stall-timeout passed with nothing taken, as during the run.
 */
bool		relay_outputs_stalled(struct relay *r, uint64_t taken,
		    bool flushing);
/* -S: the bytes (records, in line mode) to stop at have been written. */
bool		relay_reached(const struct relay *r);
/*
 * Writes a whole buffer, counting it, for bytes read before the relay
 * ran: true, or false with *end set.
 */
bool		relay_write(struct relay *r, const void *data, size_t len,
		    enum relay_end *end);
/*
 * -O: the output ends where its last byte or hole does (a hole at the end
 * leaves a file short until its size is set): 0, or -1 with errno.
 */
int		relay_sparse_end(struct relay *r);
/* Frees the buffer; the skipped ranges stay for the report. */
void		relay_free(struct relay *r);
void		relay_free_skipped(struct relay *r);

#endif
