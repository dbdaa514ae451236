/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -d PID --pipeline: the pipeline PID is part of, a line a stage, and
 * the stage that holds the others back.
 */
#ifndef TACH_PIPELINE_H
#define TACH_PIPELINE_H

#include <sys/types.h>

#include <stdint.h>

#include "tach/watch.h"

/*
 * Watches until every stage has ended, or a signal ends the watch: 0;
 * exits 1 with a message where the process is not found, or the system
 * does not tell how pipes join processes.
 */
int	pipeline_run(const struct watch_config *c);
/*
 * The first process of the pipes that feed pid's standard input (each
 * stage's writer on its standard output), or 0 where it is no pipe.
 */
pid_t	pipeline_head(pid_t pid);
/*
 * The file pid reads (open to read only, with a size, the furthest in):
 * its offset, size and path (free it).  0, ENOENT where it reads none,
 * or procfd_list's errno.
 */
int	pipeline_source(pid_t pid, uint64_t *offset, uint64_t *size,
	    char **path);

#endif
