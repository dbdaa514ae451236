/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Linux's /proc text, parsed for -d (procfd_linux.c).  Pure, so that the
 * fuzz harness reaches it: the text comes from another process's files.
 */
#ifndef TACH_PROCPARSE_H
#define TACH_PROCPARSE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * /proc/PID/stat: ESRCH for a zombie, a dead process, one in exit(2)
 * (whose files close at any moment) or a line that cannot be read, else
 * 0, with the start time (field 22, in clock ticks since boot) in
 * *started unless it is NULL.
 */
int	procparse_stat(const char *text, uint64_t *started);
/*
 * /proc/PID/fdinfo/FD: the "pos:" and "flags:" (octal) lines; false if
 * there is no "pos:" line.
 */
bool	procparse_fdinfo(const char *text, uint64_t *pos, int *flags);

#endif
