/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * procpipe where tach does not know how the system tells pipes' ends and
 * threads' waits (FreeBSD's kinfo_getfile and wmesg would: not yet read).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "tach/procpipe.h"

int
procpipe_ends(pid_t pid, const uint64_t *pipes, size_t npipes,
    struct procpipe_end **ends, size_t *n)
{
	(void)pid;
	(void)pipes;
	(void)npipes;
	*ends = NULL;
	*n = 0;
	return ENOSYS;
}

int
procpipe_look(pid_t pid, struct procpipe_look *look)
{
	(void)pid;
	memset(look, 0, sizeof(*look));
	return ENOSYS;
}

long
procpipe_ticks(void)
{
	return 100;
}
