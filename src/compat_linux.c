/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer on Linux (compat.h): libbsd's setproctitle and
 * closefrom, pidfd_open(2), abstract socket names, pipes grown with
 * F_SETPIPE_SZ, splice(2).
 */
#define _GNU_SOURCE		/* F_SETPIPE_SZ, splice */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tach/compat.h"

const bool compat_abstract_sockets = true;

/*
 * libbsd makes room for a title by moving the environment and the
 * arguments elsewhere, and the title then overwrites where they were:
 * done before anything keeps a pointer into them (the options do).
 */
void
compat_title_init(int argc, char *argv[])
{
	extern char **environ;
	/* held for the run: getprogname() points into it */
	static char *name;

	setproctitle_init(argc, argv, environ);
	/* libbsd copies all but the name, which getprogname() will keep */
	if ((name = strdup(argv[0])) != NULL)
		argv[0] = name;
}

void
compat_title(const char *fmt, ...)
{
	char title[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(title, sizeof(title), fmt, ap);
	va_end(ap);
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

size_t
compat_grow_pipe(int fd, size_t want)
{
	long max = pipe_max_size();
	int have = fcntl(fd, F_GETPIPE_SZ), grown = -1;

	if (have == -1)
		return 0;
	if ((size_t)have >= want)
		return (size_t)have;
	/* past fs/pipe-max-size only with CAP_SYS_RESOURCE; else up to it */
	if (want <= INT_MAX)
		grown = fcntl(fd, F_SETPIPE_SZ, (int)want);
	if (grown == -1 && max > have && (long)want > max)
		grown = fcntl(fd, F_SETPIPE_SZ, (int)max);
	/* EPERM (the user's pipe allowance), EBUSY: it keeps its size */
	return (size_t)(grown > 0 ? grown : have);
}

/*
 * The pipe allowance binds all but a process with CAP_SYS_RESOURCE or
 * CAP_SYS_ADMIN in effect: root in a container may have neither.
 */
static bool
unbounded_pipes(void)
{
	unsigned long long caps = 0;
	char line[256];
	FILE *f;

	if ((f = fopen("/proc/self/status", "re")) == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return (caps & (1ULL << 24 | 1ULL << 21)) != 0;
}

size_t
compat_pipe_budget(void)
{
	FILE *f;
	long pages = 0;

	if (unbounded_pipes())
		return SIZE_MAX;
	if ((f = fopen("/proc/sys/fs/pipe-user-pages-soft", "re")) != NULL) {
		if (fscanf(f, "%ld", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	if (pages <= 0)
		return SIZE_MAX;
	return (size_t)pages / 4 * (size_t)sysconf(_SC_PAGESIZE);
}

ssize_t
compat_splice(int from, int to, size_t len, bool nonblock)
{
	return splice(from, NULL, to, NULL, len,
	    SPLICE_F_MOVE | (nonblock ? SPLICE_F_NONBLOCK : 0));
}

void
compat_fine_timer(void)
{
	/*
	 * prctl is variadic: the unused arguments are given, or a 32-bit
	 * build passes the stack's garbage (valgrind saw it).
	 */
	(void)prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
}

int
compat_reserve(int fd, size_t size)
{
	return posix_fallocate(fd, 0, (off_t)size);
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

int
compat_reopen(int fd, int flags)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, flags | O_CLOEXEC);
}

long
compat_peer_pid(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == -1)
		return -1;
	return (long)cred.pid;
}

/* A cgroup file's limit: a number, or "max"; ULLONG_MAX if none. */
static unsigned long long
cgroup_value(const char *path)
{
	unsigned long long v = ULLONG_MAX;
	FILE *f;

	if ((f = fopen(path, "re")) != NULL) {
		if (fscanf(f, "%llu", &v) != 1)
			v = ULLONG_MAX;
		fclose(f);
	}
	return v;
}

/* The lowest limit of dir and each cgroup above it; file under each. */
static unsigned long long
cgroup_limit(const char *root, char *dir, const char *file)
{
	unsigned long long most = ULLONG_MAX, v;
	char path[PATH_MAX];
	char *slash;

	for (;;) {
		snprintf(path, sizeof(path), "%s%s/%s", root, dir, file);
		if ((v = cgroup_value(path)) < most)
			most = v;
		if ((slash = strrchr(dir, '/')) == NULL || slash == dir)
			break;
		*slash = '\0';
	}
	return most;
}

unsigned long long
compat_memory_limit(const char **why)
{
	unsigned long long most = (unsigned long long)sysconf(_SC_PHYS_PAGES) *
	    (unsigned long long)sysconf(_SC_PAGESIZE), v;
	char line[PATH_MAX], *dir;
	FILE *f;

	*why = "physical memory";
	if ((f = fopen("/proc/self/cgroup", "re")) == NULL)
		return most;
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		v = ULLONG_MAX;
		/* cgroup v2's one line, "0::/path"; v1's memory controller */
		if (strncmp(line, "0::/", 4) == 0) {
			dir = line + 3;
			v = cgroup_limit("/sys/fs/cgroup", dir, "memory.max");
			if (v == ULLONG_MAX)
				v = cgroup_limit("/sys/fs/cgroup/unified", dir,
				    "memory.max");
		} else if ((dir = strstr(line, ":memory:/")) != NULL)
			v = cgroup_limit("/sys/fs/cgroup/memory", dir + 8,
			    "memory.limit_in_bytes");
		if (v < most) {
			most = v;
			*why = "its memory cgroup's limit";
		}
	}
	fclose(f);
	return most;
}
