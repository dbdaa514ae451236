/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Files of tach's own: with no name (-b's --buffer-file in a directory,
 * -U's store "-"), or made under a name of their own beside the one they
 * will have, and put there only when whole (-P, -U FILE).
 */
#ifndef TACH_TEMPFILE_H
#define TACH_TEMPFILE_H

#include <stdbool.h>

/*
 * A new file in dir, readable and writable by this user only, its name
 * removed at once so nothing is left however tach ends; close-on-exec.
 * The descriptor, or -1 with errno set.
 */
int	tempfile_open(const char *dir);
/*
 * A new file beside path, named .BASE.XXXXXX in path's directory,
 * readable as a plain file would be (0666 less the umask),
 * close-on-exec; *name its name, to be freed.  The descriptor, or -1
 * with errno set.
 */
int	tempfile_beside(const char *path, char **name);
/*
 * name, made by tempfile_beside, put at path: renamed over what is there
 * (replace), or else only where nothing is (a hard link, then the name
 * removed; where the file system has no links, a rename after looking).
 * 0, or -1 with errno set (EEXIST: path was taken) and name kept.
 */
int	tempfile_place(const char *name, const char *path, bool replace);

#endif
