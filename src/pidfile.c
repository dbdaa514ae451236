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
#include "tach/text.h"
#include "tach/report.h"

static char *written;		/* the path, once written */
static pid_t writer;		/* who wrote it */
/*
 * The file written, held open for the run: while it is, its inode number
 * cannot be given to a newcomer at the path, so the number tells them
 * apart.
 */
static int written_fd = -1;

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
	size_t room = strlen(path) + sizeof(".XXXXXX");
	char *tmp = malloc(room), text[32];
	const char *kind;
	struct stat sb;
	int fd, len;
	mode_t mask;

	if (tmp == NULL)
		report_err(1, "-P");
	if (lstat(path, &sb) == 0 && (kind = kind_of(sb.st_mode)) != NULL)
		report_errx(1,
		    "-P %s: %s, not replaced: give a new or a regular "
		    "file", text_safe(path), kind);
	snprintf(tmp, room, "%s.XXXXXX", path);
	/* readable as a plain file would be, not mkstemp's 0600 */
	mask = umask(0);
	umask(mask);
	len = snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	if ((fd = mkstemp(tmp)) == -1)
		report_err(1, "-P %s", text_safe(path));
	if (fchmod(fd, 0666 & ~mask) == -1 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) == -1 ||
	    write(fd, text, (size_t)len) != len || rename(tmp, path) == -1) {
		int error = errno;

		(void)unlink(tmp);
		report_errc(1, error, "-P %s", text_safe(path));
	}
	free(tmp);
	if ((written = strdup(path)) == NULL)
		report_err(1, "-P");
	written_fd = fd;
	writer = getpid();
	atexit(pidfile_withdraw);
}

/* The path is still the regular file tach wrote, holding its PID. */
static bool
still_ours(void)
{
	struct stat sb, ours;
	char text[32], *end;
	ssize_t n;

	/* never open what is there: a FIFO would block */
	if (lstat(written, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    fstat(written_fd, &ours) == -1 || sb.st_dev != ours.st_dev ||
	    sb.st_ino != ours.st_ino)
		return false;
	n = pread(written_fd, text, sizeof(text) - 1, 0);
	text[n > 0 ? n : 0] = '\0';
	return strtol(text, &end, 10) == (long)writer && *end == '\n';
}

void
pidfile_withdraw(void)
{
	if (written == NULL || getpid() != writer)
		return;
	if (still_ours())
		(void)unlink(written);
	close(written_fd);
	written_fd = -1;
	free(written);
	written = NULL;
}
