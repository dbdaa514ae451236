/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer on Linux (compat.h): room made for libbsd's
 * setproctitle, pidfd_open(2), abstract socket names, descriptors
 * reopened through /proc, the peer's PID, the memory cgroup's limit, a
 * disk's counters in sysfs, the files closed by inotify.  The title
 * itself, closefrom and posix_fallocate are compat_bsdlike.c's; the
 * pipes' part is compat_pipes_linux.c (or compat_nosplice.c).
 */
#define _GNU_SOURCE		/* struct ucred */
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
	/*
	 * Held for the run by its start, since getprogname() points into its
	 * middle (volatile: a store never read is otherwise left out)
	 */
	static char *volatile name;

	setproctitle_init(argc, argv, environ);
	/* libbsd copies all but the name, which getprogname() will keep */
	if ((name = strdup(argv[0])) != NULL)
		argv[0] = name;
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

void *
compat_buffer(size_t len)
{
	const size_t huge = 2 * 1024 * 1024;
	size_t size = (len + huge - 1) / huge * huge;
	void *p;

	/* less than an eighth of a huge page: not worth a whole one */
	if (len < huge / 8)
		return malloc(len);
	if ((errno = posix_memalign(&p, huge, size)) != 0)
		return NULL;
	(void)madvise(p, size, MADV_HUGEPAGE);
	return p;
}

int
compat_disk_written(uint64_t dev, uint64_t *bytes)
{
	char path[64];
	unsigned long long f[7];
	FILE *stat;
	int n;

	*bytes = 0;
	/* a partition has its own; a file system on no disk has none */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat",
	    major((dev_t)dev), minor((dev_t)dev));
	if ((stat = fopen(path, "re")) == NULL)
		return errno;
	/* Documentation/block/stat.rst: the seventh is sectors written */
	n = fscanf(stat, "%llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1],
	    &f[2], &f[3], &f[4], &f[5], &f[6]);
	fclose(stat);
	if (n != 7)
		return EINVAL;
	/* sysfs counts 512-byte sectors, whatever the disk's own size */
	*bytes = (uint64_t)f[6] * 512;
	return 0;
}

struct compat_closes {
	int		 fd;		/* inotify's */
	size_t		 at, len;	/* the events read, not yet given */
	/* as inotify(7) advises: room for one event with the longest name */
	char		 buf[64 * (sizeof(struct inotify_event) + NAME_MAX + 1)]
			    __attribute__((aligned(8)));
};

void
compat_wait(struct pollfd *fds, size_t n, const sigset_t *mask)
{
	if (n == 0)
		sigsuspend(mask);
	else
		(void)ppoll(fds, (nfds_t)n, NULL, mask);
}

struct compat_closes *
compat_closes_open(void)
{
	struct compat_closes *c;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	if ((c->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) == -1) {
		free(c);
		return NULL;
	}
	return c;
}

int
compat_closes_add(struct compat_closes *c, const char *dir)
{
	return inotify_add_watch(c->fd, dir, IN_CLOSE_NOWRITE | IN_ONLYDIR |
	    IN_DONT_FOLLOW);
}

bool
compat_closes_next(struct compat_closes *c, int *id, const char **name)
{
	const struct inotify_event *e;
	ssize_t n;

	for (;;) {
		if (c->at >= c->len) {
			if ((n = read(c->fd, c->buf, sizeof(c->buf))) <= 0)
				return false;
			c->at = 0;
			c->len = (size_t)n;
		}
		e = (const struct inotify_event *)(c->buf + c->at);
		c->at += sizeof(*e) + e->len;
		if (e->len > 0 && !(e->mask & IN_ISDIR)) {
			*id = e->wd;
			*name = e->name;
			return true;
		}
	}
}

void
compat_closes_free(struct compat_closes *c)
{
	if (c == NULL)
		return;
	close(c->fd);
	free(c);
}

bool
compat_in_memory(int fd)
{
	struct statfs sf;

	/* tmpfs's and ramfs's magic numbers (linux/magic.h) */
	return fstatfs(fd, &sf) == 0 && ((unsigned long)sf.f_type ==
	    0x01021994UL || (unsigned long)sf.f_type == 0x858458f6UL);
}
