/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer on Linux (compat.h): libbsd's setproctitle and
 * closefrom, pidfd_open(2), abstract socket names.
 */
#include <sys/syscall.h>

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
