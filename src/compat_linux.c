/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer on Linux (compat.h): libbsd's setproctitle and
 * closefrom, pidfd_open(2), abstract socket names, pipes grown with
 * F_SETPIPE_SZ.
 */
#define _GNU_SOURCE		/* F_SETPIPE_SZ */
#include <sys/syscall.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "tach/compat.h"

const bool compat_abstract_sockets = true;

static int	  title_argc;
static char	**title_argv;

void
compat_title_init(int argc, char *argv[])
{
	title_argc = argc;
	title_argv = argv;
}

void
compat_title(const char *fmt, ...)
{
	extern char **environ;
	char title[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(title, sizeof(title), fmt, ap);
	va_end(ap);
	/* libbsd moves argv to make room; its copies live until _exit */
	setproctitle_init(title_argc, title_argv, environ);
	setproctitle("%s", title);
}

static long
pipe_max_size(void)
{
	FILE *f;
	long max = -1;

	if ((f = fopen("/proc/sys/fs/pipe-max-size", "re")) != NULL) {
		if (fscanf(f, "%ld", &max) != 1)
			max = -1;
		fclose(f);
	}
	return max;
}

void
compat_grow_pipe(int fd, size_t want)
{
	long max = pipe_max_size();
	int have = fcntl(fd, F_GETPIPE_SZ);

	if (max > 0 && (long)want > max)
		want = (size_t)max;
	if (have == -1 || (size_t)have >= want)
		return;
	(void)fcntl(fd, F_SETPIPE_SZ, (int)want);	/* EPERM, EBUSY: keep */
}

void
compat_closefrom(int lowfd)
{
	closefrom(lowfd);
}

int
compat_process_hold(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);	/* close-on-exec */
#else
	(void)pid;	/* headers older than Linux 5.3 */
	return -1;
#endif
}
