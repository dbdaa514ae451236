/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Every process started in the same clock tick, preloaded (LD_PRELOAD):
 * /proc/PID/stat opened through open(2) reads 1 as its start time (field
 * 22), so that watch mode must tell a reused PID from the process it
 * watched by other means than the start time, as it must when both
 * started within one tick of Linux's clock.  tach reads /proc with open
 * and one read (procfd_text); a preload on fopen alone once saw nothing
 * of it, and the test it serves passed without trying anything.
 */
/* open and open64 are both defined here */
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS
#define _GNU_SOURCE
#include <sys/mman.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

/* Field 22 of the text in buf (fields counted after the ")"), set to 1. */
static void
same_start(char *buf)
{
	char *p = strrchr(buf, ')'), *end;

	if (p == NULL)
		return;
	for (int field = 2; field < 22 && p != NULL; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL || (end = strchr(p + 1, ' ')) == NULL)
		return;
	memmove(p + 2, end, strlen(end) + 1);
	p[1] = '1';
}

/*
 * fd, opened as path: itself, or for a process's stat a file in memory
 * with the start time changed; -1 with errno as the read left it.
 */
static int
patched(const char *path, int fd)
{
	char text[1024];
	ssize_t got;
	int m, error;

	if (fd == -1 || fnmatch("/proc/[0-9]*/stat", path, FNM_PATHNAME) != 0)
		return fd;
	got = read(fd, text, sizeof(text) - 1);
	error = errno;
	close(fd);
	if (got == -1) {
		errno = error;
		return -1;
	}
	text[got] = '\0';
	same_start(text);
	if ((m = memfd_create("sametick", MFD_CLOEXEC)) == -1)
		return -1;
	if (write(m, text, strlen(text)) != (ssize_t)strlen(text) ||
	    lseek(m, 0, SEEK_SET) != 0) {
		close(m);
		errno = EIO;
		return -1;
	}
	return m;
}

/* Both names, one call: open64 (tach's off_t is 64 bits in every build) */
int
open(const char *path, int flags, ...)
{
	int (*real)(const char *, int, ...) =
	    (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open64");
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if ((flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE)
		mode = va_arg(ap, mode_t);
	va_end(ap);
	return patched(path, real(path, flags, mode));
}

int open64(const char *, int, ...) __attribute__((alias("open")));
