/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Private to the transfer engine: the tier interface.  A tier is one way
 * of moving bytes (copy.c's read/write loop, zerocopy_linux.c's splice
 * and copy_file_range); relay_run tries each in turn until one finishes
 * the transfer.  Tiers share only tier.c's helpers: none calls relay.c or
 * another tier.  Nothing outside the engine includes this.
 */
#ifndef TACH_TIER_H
#define TACH_TIER_H

#include <sys/types.h>

#include "config.h"
#include "tach/pace.h"
#include "tach/relay.h"

struct tier {
	const char	*name;
	/*
	 * Moves from r->in to r->out until the transfer ends, with *end
	 * saying how, and returns true; or returns false, having moved
	 * nothing it has not counted, for the next tier to go on.  Bytes it
	 * read and could not write are left at the head of r->buf, r->held
	 * of them, for the next tier to write first.
	 */
	bool		(*run)(struct relay *r, enum relay_end *end);
};

extern const struct tier buffer_tier;
#if TACH_USE_ZEROCOPY
extern const struct tier zerocopy_tier;
#endif
extern const struct tier copy_tier;

/*
 * -b as a buffer: the ring of size bytes (NULL, errno set), in pipes too
 * where splice is true and the system can, its memory fd's mapping unless
 * fd is -1; and its end.
 */
struct relay_ring	*ring_new(size_t size, int write_at, int read_at,
			    bool splice, int fd);
/*
 * --buffer-file: a file of size bytes that only tach reaches, for the
 * ring's memory (ring_new's fd): made new at path, or nameless in path
 * when it is a directory, its name removed at once so that nothing is
 * left however tach ends, and its blocks taken now.  Its descriptor, or
 * -1 where the file would be in memory (tmpfs) anyway: then the ring is
 * memory.  If it cannot be had, tach exits saying why.
 */
int			 ring_file(const char *path, size_t size);
/* r's ring's fill now, under its lock (relay_fill; r->ring_fill). */
bool			 ring_fill(const struct relay *r, struct relay_fill *f);
void			 ring_free(struct relay_ring *g);

/*
 * After a move out of a pipe, let the pipe fill to about half before the
 * next: a producer writing 4 KiB or 64 KiB blocks otherwise wakes tach
 * for every block.  The pause follows the stream's rate (pace_after), so
 * a small pipe is not left full with its writer stopped; a slower stream
 * of small writes is let gather for up to 10 ms, and a trickle is never
 * held back.  No byte waits in tach: it waits in the pipe (the buffer
 * tier alone gathers a trickle, for at most a few milliseconds).  After
 * a move into a pipe that a slow reader leaves full, let it drain to
 * about half (pace_drain): the reader has the other half meanwhile.
 */
struct tier_pace {
	struct pace	 pace;
	int		 in, out;	/* the pipes, or -1 */
	size_t		 capacity;	/* of the input pipe; 0: not one */
	size_t		 out_capacity;	/* of the output pipe; 0: not one */
};

/*
 * Pacing for the input pipe in and the output pipe out (-1: not a pipe,
 * or not paced), from the thread that moves between them.
 */
void		tier_pace_start(struct tier_pace *p, int in, int out);
/*
 * moved bytes went from in to out: waits while in fills and out drains,
 * if p is not NULL.  drained: fewer came than were asked for, so in is
 * taken as empty without asking it (a trickle's every move would ask).
 */
void		tier_pace_after(struct tier_pace *p, size_t moved,
		    bool drained);
/*
 * --stall-timeout's one clock: moved is the count that shows the run is
 * moving (the relay's, or its outputs' once it has ended); true once it
 * has stayed the same for the timeout.
 */
bool		tier_unmoved(struct relay *r, uint64_t moved);
/*
 * Bytes the next call may move (paced by -L, bounded by -S); 0 to stop,
 * with *end saying why (RELAY_AT_SIZE or RELAY_STOPPED).  *end is
 * always written.
 */
size_t		tier_chunk(struct relay *r, enum relay_end *end);
/* -S: the bytes (records, in line mode) to stop at have been written. */
bool		tier_reached(const struct relay *r);
/* What -L counts: records in line mode (unless asked in bytes), else bytes. */
uint64_t	tier_limit_count(const struct relay *r);
/* A zero-copy call the system or these descriptors cannot make: copy. */
bool		tier_unsupported(int error);
/* Lets the main loop act on signals; false means stop. */
bool		tier_serviced(struct relay *r);
/*
 * n more bytes were written: counts them (and in line mode the records
 * in data, which is NULL outside it), keeps -Y's unwritten pages
 * bounded, and services signals.  False, with *end set, to stop.
 */
bool		tier_count(struct relay *r, const unsigned char *data, size_t n,
		    enum relay_end *end);
/*
 * Line mode with -S: of the n bytes in data, how many may move without
 * passing the record to stop at; paced (a tier that can leave the rest
 * where it lies, or hold it), with -L in records too, no more than one
 * step's.
 */
size_t		tier_records_allowed(const struct relay *r,
		    const unsigned char *data, size_t n, bool paced);
/*
 * Waits until each named side has been ready once; false, with *end set,
 * when the transfer must end.
 */
bool		tier_wait(struct relay *r, bool input, bool output,
		    enum relay_end *end);
/*
 * A call failed with error.  EINTR services signals, EAGAIN (EWOULDBLOCK)
 * waits for the named side.  Returns 1 to try the call again, -1 to stop
 * (*end set), 0 when error is some other error, for the caller to judge.
 */
int		tier_retry(struct relay *r, int error, bool input,
		    enum relay_end *end);
/* read(2) from r->in or write(2) to r->out, its wait timed for --stats. */
ssize_t		tier_transfer(struct relay *r, bool input, void *buf,
		    size_t len);
/*
 * A write to r->out failed with error: true to try again (EINTR, or
 * EAGAIN once it is ready), else false with *end set (EPIPE a broken
 * pipe, the rest a write error).
 */
bool		tier_write_again(struct relay *r, int error, enum relay_end *end);
/*
 * -K: a read (input) or write that failed with error, on a side set
 * direct: an EINVAL is a block direct I/O cannot take (the last, short
 * one; a pipe's odd read; a buffer's part page), so that side goes
 * through the page cache from now on.  True to try the call again.
 */
bool		tier_direct_refused(struct relay *r, bool input, int error);
/*
 * Of the next *len bytes of the input, those in a hole of its file,
 * skipped unread: its offset is moved past them (where r->sparse).  0
 * where it holds data (*len cut to where the next hole starts), where
 * the output's hole would keep what the file held, in -0's line mode
 * (its zeros are records, counted as they are read), and where the
 * system cannot say; -1 with errno if the input's offset is lost.
 */
off_t		tier_input_hole(struct relay *r, size_t *len);
/*
 * len bytes of zeros (data, or NULL for an input's hole, which holds no
 * line) become a hole: the output's offset moves past them.  Counted:
 * true, or false with *end set.
 */
bool		tier_hole(struct relay *r, const unsigned char *data,
		    size_t len, enum relay_end *end);
/*
 * Writes all of data, counting it, with -O its blocks of zeros past the
 * output's old end as holes: true, or false with *end set.
 */
/*
 * All of len bytes to fd, for a thread of the fanout's (no relay, no
 * signals served): EINTR taken again, EAGAIN (an output its owner set
 * non-blocking) waited out with tier_writable, a write that takes nothing
 * ENOSPC.  0, or the errno that ended it; *done is what fd took either way.
 */
int		tier_put(int fd, const void *data, size_t len, size_t *done);
/* Waits for fd to take more: false if it never will (POLLERR, POLLHUP). */
bool		tier_writable(int fd);
bool		tier_write(struct relay *r, const void *data, size_t len,
		    enum relay_end *end);

#endif
