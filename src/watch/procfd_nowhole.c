/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Where only Linux's /proc gives another process's byte counts, calls and
 * command line: elsewhere -d draws no whole copy, and says nothing of it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "tach/procfd.h"

int
procfd_io(pid_t pid, uint64_t *read, uint64_t *written)
{
	(void)pid;
	*read = *written = 0;
	return ENOSYS;
}

int
procfd_writing(pid_t pid, int in, int out, bool *writing)
{
	(void)pid;
	(void)in;
	(void)out;
	*writing = false;
	return ENOSYS;
}

int
procfd_command(pid_t pid, char ***argv, int *argc, char **cwd)
{
	(void)pid;
	*argv = NULL;
	*argc = 0;
	*cwd = NULL;
	return ENOSYS;
}

int
procfd_start_dir(pid_t pid, char **dir)
{
	(void)pid;
	*dir = NULL;
	return ENOSYS;
}

int
procfd_parent(pid_t pid, pid_t *parent)
{
	(void)pid;
	*parent = 0;
	return ENOSYS;
}

int
procfd_holders(uint64_t dev, uint64_t ino, struct procfd_held **found,
    size_t *n)
{
	(void)dev;
	(void)ino;
	*found = NULL;
	*n = 0;
	return ENOSYS;
}
