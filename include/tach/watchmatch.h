/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Watch mode's matching of one sample's files with those seen before: the
 * same descriptor holding the same file (device and inode) continues it;
 * anything else is a new file, and what is not matched has closed.  Pure,
 * so that the fuzz harness reaches it.
 */
#ifndef TACH_WATCHMATCH_H
#define TACH_WATCHMATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct watchmatch_key {
	int		fd;
	uint64_t	dev, ino;
};

/*
 * For each of the nnow files now, the index in old of the file it
 * continues, or -1 for a new one, in which[]; an old file continues in
 * one new file at most.  kept[j] tells whether old[j] is still there.
 * In O(n log n): a process may hold thousands.  False when out of memory.
 */
bool	watchmatch(const struct watchmatch_key *old, size_t nold,
	    const struct watchmatch_key *now, size_t nnow, long *which,
	    bool *kept);

#endif
