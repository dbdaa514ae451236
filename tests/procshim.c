/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * /proc as the kernel's timing can show it, preloaded (LD_PRELOAD) into a
 * watch; PROCSHIM in its environment says how:
 * - "same-tick": /proc/PID/stat's start time (field 22) reads 1, as when
 *   a reused PID's newcomer started in its predecessor's clock tick: the
 *   watch must tell them apart by other means than the start time;
 * - "late-count": /proc/PID/io's wchar reads as the open before read it,
 *   as when a write's bytes show in the file before its count does: the
 *   watch must not lose the growth it saw a look too early.
 * tach reads /proc with open and one read (procfd_text); a preload on
 * fopen alone once saw nothing of it, and the test it serves passed
 * without trying anything.
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
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Each io file's wchar as its last open read it. */
static struct {
	char	path[64];
	char	wchar[32];
} counts[8];

/* wchar in the text in buf (of room bytes), made the one read before. */
static void
late_count(const char *path, char *buf, size_t room)
{
	char *w = strstr(buf, "wchar: "), now[32];
	size_t i, len, was;

	if (w == NULL)
		return;
	w += strlen("wchar: ");
	len = strcspn(w, "\n");
	snprintf(now, sizeof(now), "%.*s", (int)len, w);
	for (i = 0; i < 8 && counts[i].path[0] != '\0' &&
	    strcmp(counts[i].path, path) != 0; i++)
		;
	if (i == 8)
		return;
	was = strlen(counts[i].wchar);
	if (counts[i].path[0] != '\0' &&
	    strlen(buf) - len + was < room) {
		memmove(w + was, w + len, strlen(w + len) + 1);
		memcpy(w, counts[i].wchar, was);
	}
	snprintf(counts[i].path, sizeof(counts[i].path), "%s", path);
	snprintf(counts[i].wchar, sizeof(counts[i].wchar), "%s", now);
}

/*
 * fd, opened as path: itself, or for a file PROCSHIM fakes a file in
 * memory with the text changed; -1 with errno as the read left it.
 */
static int
patched(const char *path, int fd)
{
	const char *how = getenv("PROCSHIM");
	char text[1024];
	ssize_t got;
	int m, error;
	bool stat, io;

	stat = how != NULL && strcmp(how, "same-tick") == 0 &&
	    fnmatch("/proc/[0-9]*/stat", path, FNM_PATHNAME) == 0;
	io = how != NULL && strcmp(how, "late-count") == 0 &&
	    fnmatch("/proc/[0-9]*/io", path, FNM_PATHNAME) == 0;
	if (fd == -1 || (!stat && !io))
		return fd;
	got = read(fd, text, sizeof(text) - 1);
	error = errno;
	close(fd);
	if (got == -1) {
		errno = error;
		return -1;
	}
	text[got] = '\0';
	if (stat)
		same_start(text);
	else
		late_count(path, text, sizeof(text));
	if ((m = memfd_create("procshim", MFD_CLOEXEC)) == -1)
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
