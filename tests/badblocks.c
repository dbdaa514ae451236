/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * A failing disk for -E's tests, preloaded (LD_PRELOAD): reads of the
 * file named by TACH_BAD_FILE fail with EIO when they touch a range of
 * TACH_BAD_RANGES ("START-END,..." in bytes, END excluded), as a read
 * through FUSE fails whole; copy_file_range, splice and sendfile from it
 * say they are not supported, so tach falls back to reading it.
 *
 * And a device that takes no more: writes to the file named by
 * TACH_ZERO_FILE return 0 once it holds TACH_ZERO_AT bytes (a write across
 * that point goes in partly), and no zero-copy call writes into it.
 */
/* pread and pread64 are both defined here, so neither may be renamed */
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS
#define _GNU_SOURCE
#include <sys/types.h>

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* fd is the file the environment variable var names. */
static bool
is_named(int fd, const char *var)
{
	const char *want = getenv(var);
	char link[64], path[PATH_MAX];
	ssize_t n;

	if (want == NULL)
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, sizeof(path) - 1)) == -1)
		return false;
	path[n] = '\0';
	return strcmp(path, want) == 0;
}

/* Whether [at, at + len) touches a bad range. */
static bool
touches(off64_t at, size_t len)
{
	const char *s = getenv("TACH_BAD_RANGES");
	long long start, end;
	int used;

	while (s != NULL && sscanf(s, "%lld-%lld%n", &start, &end, &used) == 2) {
		if (at < end && at + (off64_t)len > start)
			return true;
		s += used;
		s += *s == ',';
	}
	return false;
}

ssize_t
pread64(int fd, void *buf, size_t len, off64_t at)
{
	static ssize_t (*real)(int, void *, size_t, off64_t);

	if (real == NULL)
		real = (ssize_t (*)(int, void *, size_t, off64_t))dlsym(
		    RTLD_NEXT, "pread64");
	if (len > 0 && is_named(fd, "TACH_BAD_FILE") && touches(at, len)) {
		errno = EIO;
		return -1;
	}
	return real(fd, buf, len, at);
}

ssize_t
pread(int fd, void *buf, size_t len, off_t at)
{
	return pread64(fd, buf, len, at);
}

ssize_t
read(int fd, void *buf, size_t len)
{
	static ssize_t (*real)(int, void *, size_t);
	off_t at;

	if (real == NULL)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (len > 0 && is_named(fd, "TACH_BAD_FILE") && (at = lseek(fd, 0, SEEK_CUR)) != -1 &&
	    touches(at, len)) {
		errno = EIO;
		return -1;
	}
	return real(fd, buf, len);
}

ssize_t
write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);
	const char *full = getenv("TACH_ZERO_AT");
	off_t at;

	if (real == NULL)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT,
		    "write");
	if (len > 0 && full != NULL && is_named(fd, "TACH_ZERO_FILE") &&
	    (at = lseek(fd, 0, SEEK_CUR)) != -1) {
		if (at >= atoll(full))
			return 0;
		if (at + (off_t)len > atoll(full))
			len = (size_t)(atoll(full) - at);
	}
	return real(fd, buf, len);
}

/*
 * The zero-copy calls: not supported from the bad file, nor into the
 * full one.
 */
static ssize_t
unsupported(int fd, const char *name, long a, long b, long c, long d,
    long e)
{
	typedef ssize_t (*call)(long, long, long, long, long, long);
	call real = (call)dlsym(RTLD_NEXT, name);

	if (is_named(fd, "TACH_BAD_FILE") ||
	    is_named((int)b, "TACH_ZERO_FILE")) {
		errno = EINVAL;
		return -1;
	}
	return real(fd, a, b, c, d, e);
}

ssize_t
copy_file_range(int in, off64_t *in_at, int out, off64_t *out_at, size_t len,
    unsigned int flags)
{
	return unsupported(in, "copy_file_range", (long)in_at, out,
	    (long)out_at, (long)len, (long)flags);
}

ssize_t
splice(int in, off64_t *in_at, int out, off64_t *out_at, size_t len,
    unsigned int flags)
{
	return unsupported(in, "splice", (long)in_at, out, (long)out_at,
	    (long)len, (long)flags);
}

/* sendfile and sendfile64 (a 32-bit build's): refused from the file */
static ssize_t
send_file(const char *name, int out, int in, void *at, size_t len)
{
	typedef ssize_t (*call)(int, int, void *, size_t);
	call real = (call)dlsym(RTLD_NEXT, name);

	if (is_named(in, "TACH_BAD_FILE")) {
		errno = EINVAL;
		return -1;
	}
	return real(out, in, at, len);
}

ssize_t
sendfile(int out, int in, off_t *at, size_t len)
{
	return send_file("sendfile", out, in, at, len);
}

ssize_t
sendfile64(int out, int in, off64_t *at, size_t len)
{
	return send_file("sendfile64", out, in, at, len);
}
