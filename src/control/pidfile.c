/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -P: the PID file, written whole and removed at every end.  It only ever
 * replaces or removes a regular file: a device node, FIFO, socket,
 * directory or symlink at the path is someone else's, and left alone.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/pidfile.h"
#include "tach/tempfile.h"
#include "tach/text.h"
#include "tach/message.h"

/* Kept without malloc(3): withdrawn from a fault's handler too. */
static char pid_path[PATH_MAX];	/* the path, once written; else "" */
static char pid_text[32];	/* what it holds */
static size_t pid_len;
static pid_t writer;		/* who wrote it */
/*
 * The file written, held open for the run: while it is, its inode number
 * cannot be given to a newcomer at the path, so the number tells them
 * apart.
 */
static int pid_fd = -1;

/* What the path holds, for a refusal; NULL for a regular file. */
static const char *
kind_of(mode_t mode)
{
	if (S_ISREG(mode))
		return NULL;
	if (S_ISLNK(mode))
		return "a symbolic link";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	return "not a regular file";
}

void
pidfile_publish(const char *path)
{
	const char *kind;
	struct stat sb;
	char *tmp;
	int fd;

	if (strlen(path) >= sizeof(pid_path))
		report_errc(1, ENAMETOOLONG, "-P %s", text_safe(path));
	if (lstat(path, &sb) == 0 && (kind = kind_of(sb.st_mode)) != NULL)
		report_errx(1,
		    "-P %s: %s, not replaced: give a new or a regular "
		    "file", text_safe(path), kind);
	pid_len = (size_t)snprintf(pid_text, sizeof(pid_text), "%ld\n",
	    (long)getpid());
	if ((fd = tempfile_beside(path, &tmp)) == -1)
		report_err(1, "-P %s", text_safe(path));
	if (write(fd, pid_text, pid_len) != (ssize_t)pid_len ||
	    tempfile_place(tmp, path, true) == -1) {
		int error = errno;

		(void)unlink(tmp);
		report_errc(1, error, "-P %s", text_safe(path));
	}
	free(tmp);
	strlcpy(pid_path, path, sizeof(pid_path));
	pid_fd = fd;
	writer = getpid();
	atexit(pidfile_withdraw);
}

/* The path is still the regular file tach wrote, holding its PID. */
static bool
still_ours(void)
{
	struct stat sb, ours;
	char text[sizeof(pid_text)];

	/* never open what is there: a FIFO would block */
	if (lstat(pid_path, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    fstat(pid_fd, &ours) == -1 || sb.st_dev != ours.st_dev ||
	    sb.st_ino != ours.st_ino)
		return false;
	/* a longer file is not ours either: one byte more is read */
	return pread(pid_fd, text, sizeof(text), 0) == (ssize_t)pid_len &&
	    memcmp(text, pid_text, pid_len) == 0;
}

void
pidfile_withdraw(void)
{
	if (pid_path[0] == '\0' || getpid() != writer)
		return;
	if (still_ours())
		(void)unlink(pid_path);
	close(pid_fd);
	pid_fd = -1;
	pid_path[0] = '\0';
}
