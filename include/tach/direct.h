/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -K: reading and writing past the page cache (direct.c).
 */
#ifndef TACH_DIRECT_H
#define TACH_DIRECT_H

#include <stdbool.h>

/*
 * fd past the page cache, if it is a file or a disk (a pipe or a
 * terminal has no cache to pass); where the system refuses, the copy
 * goes through the cache, saying so.  An inherited standard input or
 * output (inherited) is shared with the shell: tach takes a description
 * of its own for it, and gives the shell's back at direct_return.
 */
bool	direct_io(int fd, const char *name, bool inherited);
/*
 * The shell's standard input and output back, each at the offset tach
 * reached; async-signal-safe (a fault's handler runs it).
 */
void	direct_return(void);

#endif
