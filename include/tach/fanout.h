/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Several outputs, --hash and --output-block: the stream's own tools,
 * after the relay.  The relay writes into a pipe of the fanout's; threads
 * of its own take the stream from there to every output, in order, and
 * to the digest.  On Linux each output has a stage that tee(2)s the pipe
 * on to the next stage and splices its own copy out, so no byte is
 * copied through tach; elsewhere one thread reads once and writes each
 * output.  The slowest output sets the pace, or with a buffer each its
 * own until the others are a buffer ahead.  An output that fails is
 * left with its count and error; the others go on to the end.
 */
#ifndef TACH_FANOUT_H
#define TACH_FANOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tach/digest.h"

/* The most outputs (-o) one run has. */
#define FANOUT_MAX	16

struct fanout_output {
	const char	*name;		/* as messages name it */
	int		 fd;		/* closed by fanout_end */
	uint64_t	 bytes;		/* the stream's bytes it took */
	int		 error;		/* errno of what failed, or 0 */
	/*
	 * a reader's pipe downstream: not closed by fanout_end but by
	 * tach's exit, after its last frame (writeback_to_reader)
	 */
	bool		 keep_open;
};

struct fanout_config {
	const struct fanout_output *outputs;	/* name and fd of each */
	size_t		 n;
	struct digest	*digest;	/* --hash, or NULL */
	size_t		 block;		/* --output-block, or 0 */
	bool		 pad;		/* --pad: the last block too */
	bool		 zerocopy;	/* tee and splice where they work */
	size_t		 bufsize;	/* each read's, where bytes are read */
	/*
	 * -b: of several outputs, each keeps its own pace while their
	 * queues hold less than this; 0: the slowest sets the pace
	 */
	size_t		 lag;
	bool		 flush;		/* each disk's end flushed, as one's */
};

struct fanout;

/*
 * Starts the threads: the fanout, and in *in the pipe's end the relay
 * writes to (closed by the caller when the stream ends).  Exits saying
 * why if a pipe or thread cannot be had.
 */
struct fanout	*fanout_start(const struct fanout_config *c, int *in);
/* How many outputs f has. */
size_t		 fanout_count(const struct fanout *f);
/* Every output's name, bytes and error so far, into out (n of them). */
void		 fanout_outputs(struct fanout *f, struct fanout_output *out);
/* The bytes the slowest output still taking has taken. */
uint64_t	 fanout_slowest(struct fanout *f);
/*
 * After the relay's end was closed: waits up to seconds for every output
 * to have taken what is left; false at the timeout, or sooner when a
 * signal arrives, so that the caller can draw, stop, or call it stalled.
 */
bool		 fanout_drained(struct fanout *f, double seconds);
/* An output that is a disk has taken all and is in its last flush. */
bool		 fanout_flushing(struct fanout *f);
/* All the bytes the outputs took so far, together. */
uint64_t	 fanout_taken(struct fanout *f);
/*
 * After the relay's end was closed: waits for every output to take what
 * is left, closes each (a late error counts), ends the digest.  Returns
 * how many outputs failed.
 */
size_t		 fanout_end(struct fanout *f);
void		 fanout_free(struct fanout *f);

#endif
