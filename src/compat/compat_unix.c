/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer where Linux's /proc and cgroups are not (the BSDs,
 * macOS): no abstract socket names, no room to make for a title (the
 * BSDs' setproctitle needs none; macOS has none), no descriptor that
 * holds a process (pidfd), no file reopened by its descriptor, no peer's
 * PID to check (the control socket is a file there, which no other
 * namespace reaches), the physical memory as the limit, no file system
 * in memory to tell apart, no disk's own counters, no watch on the files
 * closed (kqueue's EVFILT_VNODE sees writes, not a reader's close),
 * buffers as malloc gives them.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "tach/compat.h"

const bool compat_abstract_sockets = false;

void
compat_title_init(int argc, char *argv[])
{
	(void)argc;
	(void)argv;
}

int
compat_process_hold(pid_t pid)
{
	(void)pid;
	return -1;
}

int
compat_reopen(int fd, int flags)
{
	/* /dev/fd here dup(2)s: the description would be the same one */
	(void)fd;
	(void)flags;
	errno = ENOTSUP;
	return -1;
}

long
compat_peer_pid(int fd)
{
	(void)fd;
	errno = ENOTSUP;
	return -1;
}

unsigned long long
compat_memory_limit(const char **why)
{
	*why = "physical memory";
	return (unsigned long long)sysconf(_SC_PHYS_PAGES) *
	    (unsigned long long)sysconf(_SC_PAGESIZE);
}

void *
compat_buffer(size_t len)
{
	return malloc(len);
}

int
compat_disk_written(uint64_t dev, uint64_t *bytes)
{
	/* devstat(3) needs libdevstat and a device's name: not read yet */
	(void)dev;
	*bytes = 0;
	return ENOSYS;
}

void
compat_wait(struct pollfd *fds, size_t n, const sigset_t *mask)
{
	(void)fds;
	(void)n;
	sigsuspend(mask);
}

struct compat_closes *
compat_closes_open(void)
{
	errno = ENOSYS;
	return NULL;
}

int
compat_closes_add(struct compat_closes *c, const char *dir)
{
	(void)c;
	(void)dir;
	errno = ENOSYS;
	return -1;
}

bool
compat_closes_next(struct compat_closes *c, int *id, const char **name)
{
	(void)c;
	(void)id;
	(void)name;
	return false;
}

void
compat_closes_free(struct compat_closes *c)
{
	(void)c;
}

bool
compat_in_memory(int fd)
{
	(void)fd;
	return false;	/* tmpfs reserves nothing ahead here */
}

