/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * procfd where tach knows no way to read another process's files.
 */
#include <errno.h>
#include <stddef.h>

#include "tach/procfd.h"

int
procfd_list(pid_t pid, int fd, const struct procfd_known *known,
    struct procfd_file **files, size_t *n)
{
	(void)pid;
	(void)fd;
	(void)known;
	*files = NULL;
	*n = 0;
	return ENOSYS;
}

int
procfd_started(pid_t pid, uint64_t *started)
{
	(void)pid;
	*started = 0;
	return ENOSYS;
}

int
procfd_find(const char *const *names, size_t nnames,
    struct procfd_named **found, size_t *n)
{
	(void)names;
	(void)nnames;
	*found = NULL;
	*n = 0;
	return ENOSYS;
}
