/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -K: the copy's input and output past the page cache (direct.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/compat.h"
#include "tach/direct.h"
#include "tach/report.h"
#include "tach/text.h"

/*
 * -K on an inherited stdin (0) or stdout (1): tach reads or writes its
 * own description of the file, opened anew, and keeps the shell's here,
 * untouched (O_DIRECT on a shared description would fail every write of
 * whoever else holds it, stderr among them), to put it back at the end.
 */
static int direct_saved[2] = { -1, -1 };

/* Async-signal-safe: withdraw runs it in a fault's handler too. */
void
direct_return(void)
{
	off_t at;

	for (int fd = STDIN_FILENO; fd <= STDOUT_FILENO; fd++) {
		if (direct_saved[fd] == -1)
			continue;
		at = lseek(fd, 0, SEEK_CUR);
		(void)dup2(direct_saved[fd], fd);
		/* the next read or write goes on from where tach stopped */
		if (at != -1)
			(void)lseek(fd, at, SEEK_SET);
		close(direct_saved[fd]);
		direct_saved[fd] = -1;
	}
}

/* fd, inherited, becomes a description of tach's own; false if not. */
static bool
direct_own(int fd, const struct stat *sb, const char *name)
{
	struct stat err;
	int flags, own, saved;
	off_t at;

	/*
	 * >f 2>&1: stderr's writes would land at its own offset, over the
	 * data; and a warning would be in the data too: the cache, quietly
	 */
	if (fd == STDOUT_FILENO && fstat(STDERR_FILENO, &err) == 0 &&
	    err.st_dev == sb->st_dev && err.st_ino == sb->st_ino)
		return false;
	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    (own = compat_reopen(fd, flags & (O_ACCMODE | O_APPEND))) == -1) {
		report_warnx("-K: %s: no description of its own to read or "
		    "write past the cache (%s): through the page cache",
		    text_safe(name), strerror(errno));
		return false;
	}
	if ((at = lseek(fd, 0, SEEK_CUR)) == -1 ||
	    lseek(own, at, SEEK_SET) == -1 ||
	    (saved = fcntl(fd, F_DUPFD_CLOEXEC, 3)) == -1 ||
	    dup2(own, fd) == -1)
		report_err(1, "-K: %s", text_safe(name));
	close(own);
	if (direct_saved[0] == -1 && direct_saved[1] == -1)
		atexit(direct_return);
	direct_saved[fd] = saved;
	return true;
}

/*
 * -K: fd past the page cache, if it is a file or a disk (a pipe or a
 * terminal has no cache to pass); where the system refuses, the copy
 * goes through the cache, saying so.  A standard input or output tach
 * was given (inherited) is shared with the shell: see direct_own.
 */
bool
direct_io(int fd, const char *name, bool inherited)
{
	struct stat sb;

	if (fstat(fd, &sb) == -1 ||
	    !(S_ISREG(sb.st_mode) || S_ISBLK(sb.st_mode)))
		return false;
	if (inherited && !direct_own(fd, &sb, name))
		return false;
	if (compat_direct(fd, true) == -1) {
		report_warnx("-K: %s: no direct I/O here (%s): through the "
		    "page cache", text_safe(name), strerror(errno));
		return false;
	}
	return true;
}
