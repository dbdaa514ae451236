/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -P: the PID file, written whole and removed at every end.  It only ever
 * replaces or removes a regular file: a device node, FIFO, socket,
 * directory or symlink at the path is someone else's, and left alone.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/pidfile.h"
#include "tach/text.h"

static char *written;		/* the path, once written */
static pid_t writer;		/* who wrote it */
static struct stat written_sb;	/* the file written, told from a newcomer */

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
		err(1, "-P");
	if (lstat(path, &sb) == 0 && (kind = kind_of(sb.st_mode)) != NULL)
		errx(1, "-P %s: %s, not replaced: give a new or a regular "
		    "file", text_safe(path), kind);
	snprintf(tmp, room, "%s.XXXXXX", path);
	/* readable as a plain file would be, not mkstemp's 0600 */
	mask = umask(0);
	umask(mask);
	len = snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	if ((fd = mkstemp(tmp)) == -1)
		err(1, "-P %s", text_safe(path));
	/* the stat after the rename, which may change the ctime */
	if (fchmod(fd, 0666 & ~mask) == -1 ||
	    write(fd, text, (size_t)len) != len || rename(tmp, path) == -1 ||
	    fstat(fd, &written_sb) == -1 || close(fd) == -1) {
		int error = errno;

		(void)unlink(tmp);
		errc(1, error, "-P %s", text_safe(path));
	}
	free(tmp);
	if ((written = strdup(path)) == NULL)
		err(1, "-P");
	writer = getpid();
	atexit(pidfile_withdraw);
}

/*
 * The same file: a number freed by a removal is soon given again, so the
 * inode's change time must match too.
 */
static bool
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	    a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	    a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* The path is still the regular file tach wrote, holding its PID. */
static bool
still_ours(void)
{
	struct stat sb, fb;
	char text[32], *end;
	ssize_t n;
	int fd;

	/* never open what is not a plain file: a FIFO would block */
	if (lstat(written, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    !same_file(&sb, &written_sb))
		return false;
	if ((fd = open(written, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1)
		return false;
	n = fstat(fd, &fb) == 0 && same_file(&fb, &sb) ?
	    read(fd, text, sizeof(text) - 1) : -1;
	close(fd);
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
	free(written);
	written = NULL;
}
