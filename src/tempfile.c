/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Files of tach's own with no name (tempfile.h): made by mkstemp(3) in
 * the directory asked for, and unlinked before anything is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
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
