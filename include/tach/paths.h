/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Every file a run names (the inputs, the output, -P, --log, -U,
 * --buffer-file, -l @) checked against every other by what it is, before
 * anything is created, replaced or removed.
 */
#ifndef TACH_PATHS_H
#define TACH_PATHS_H

#include "tach/options.h"

/*
 * Exits 1 with a message naming both when two of the run's files are one
 * and the run would lose or mix data through that: the same file, FIFO,
 * socket or disk by device and inode, through any alias (a hard or
 * symbolic link, /dev/fd, /dev/stdin), or one new name made twice.  Two
 * inputs may be one file, and a terminal or /dev/null may be shared.
 */
void	paths_check(const struct options *opts);

#endif
