/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Files of tach's own (tempfile.h): made by mkstemp(3), and either
 * unlinked before anything is written or renamed into place when whole.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tach/tempfile.h"

int
tempfile_open(const char *dir)
{
	static const char stem[] = "/tach.XXXXXX";
	char *name;
	int fd, error = 0;

	if ((name = malloc(strlen(dir) + sizeof(stem))) == NULL)
		return -1;
	strcpy(name, dir);
	strcat(name, stem);
	if ((fd = mkstemp(name)) != -1) {
		(void)unlink(name);
		if (fcntl(fd, F_SETFD, FD_CLOEXEC) == -1) {
			error = errno;
			close(fd);
			fd = -1;
		}
	} else
		error = errno;
	free(name);
	errno = error;
	return fd;
}

int
tempfile_beside(const char *path, char **name)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash == NULL ? 0 : (size_t)(slash - path) + 1;
	size_t room = strlen(path) + sizeof("/..XXXXXX");
	mode_t mask;
	int fd, error;

	if ((*name = malloc(room)) == NULL)
		return -1;
	snprintf(*name, room, "%.*s.%s.XXXXXX", (int)dir, path, path + dir);
	mask = umask(0);
	umask(mask);
	if ((fd = mkstemp(*name)) == -1) {
		error = errno;
		free(*name);
		*name = NULL;
		errno = error;
		return -1;
	}
	/* mkstemp's 0600 would be a surprise in a file the user keeps */
	if (fchmod(fd, 0666 & ~mask) == -1 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) == -1) {
		error = errno;
		(void)unlink(*name);
		close(fd);
		free(*name);
		*name = NULL;
		errno = error;
		return -1;
	}
	return fd;
}

int
tempfile_place(const char *name, const char *path, bool replace)
{
	struct stat sb;

	if (replace)
		return rename(name, path);
	/* placed: the name it was made under goes, as best it can */
	if (link(name, path) == 0) {
		(void)unlink(name);
		return 0;
	}
	/* vfat, some network file systems: no hard links */
	if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP &&
	    errno != ENOSYS)
		return -1;
	if (lstat(path, &sb) == 0) {
		errno = EEXIST;
		return -1;
	}
	return errno == ENOENT ? rename(name, path) : -1;
}
