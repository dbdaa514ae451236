/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Private to the transfer engine: what its tiers (the read/write loop in
 * relay.c, the Linux zero-copy calls in zerocopy_linux.c) share.  Nothing
 * outside src/relay*.c and src/zerocopy_*.c includes this.
 */
#ifndef TACH_RELAY_TIER_H
#define TACH_RELAY_TIER_H

#include "config.h"
#include "tach/relay.h"

/*
 * Bytes the next call may move (paced by -L, bounded by -S); 0 to stop,
 * with *end saying why (RELAY_EOF: -S reached).  *end is always written.
 */
size_t	relay_chunk(struct relay *r, enum relay_end *end);
/* Lets the main loop act on signals; false means stop. */
bool	relay_serviced(struct relay *r);
/*
 * n more bytes were written: counts them (and in line mode the records
 * in data, which is NULL outside it), keeps -Y's unwritten pages
 * bounded, and services signals.  False, with *end set, to stop.
 */
bool	relay_count(struct relay *r, const unsigned char *data, size_t n,
	    enum relay_end *end);
/*
 * Line mode with -S: of the n bytes in data, how many may move without
 * passing the record to stop at; paced (a tier that can leave the rest
 * where it lies, or hold it), with -L in records too, no more than one
 * step's.
 */
size_t	relay_records_allowed(const struct relay *r,
	    const unsigned char *data, size_t n, bool paced);
/*
 * Waits until each named side has been ready once; false, with *end set,
 * when the transfer must end.
 */
bool	relay_wait(struct relay *r, bool input, bool output,
	    enum relay_end *end);
/*
 * A call failed with error.  EINTR services signals, EAGAIN (EWOULDBLOCK)
 * waits for the named side.  Returns 1 to try the call again, -1 to stop
 * (*end set), 0 when error is some other error, for the caller to judge.
 */
int	relay_retry(struct relay *r, int error, bool input,
	    enum relay_end *end);
#if TACH_USE_ZEROCOPY
/* Returns true when it finished the transfer, false to fall back. */
bool	zerocopy_run(struct relay *r, enum relay_end *end);
#endif

#endif
