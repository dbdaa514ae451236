/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Starting and reaping the processes tach feeds: cmd, a decompressor.
 */
#ifndef TACH_COMMAND_H
#define TACH_COMMAND_H

#include <sys/types.h>

/*
 * Starts argv (found by execvp, never through a shell) with in as its
 * standard input and out, unless -1, as its standard output.  Returns the
 * pid, or -1 with errno set to why it could not be run.
 */
pid_t	command_spawn(char *const argv[], int in, int out);
/* Waits for pid, retrying after signals; returns its wait status. */
int	command_wait(pid_t pid);
/*
 * Says why name could not be run and exits 127 (not found) or 126 (not
 * executable), as a shell does.
 * When name is a file that cannot be run (as pv users type "tach FILE"),
 * says how to read it instead.
 */
_Noreturn void	command_failed(const char *name, int error);
/* A pipe whose ends are closed on exec. */
void	command_pipe(int fds[2]);

#endif
