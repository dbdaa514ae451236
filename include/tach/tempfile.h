/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Files of tach's own with no name: -b's --buffer-file in a directory,
 * -U's store "-".
 */
#ifndef TACH_TEMPFILE_H
#define TACH_TEMPFILE_H

/*
 * A new file in dir, readable and writable by this user only, its name
 * removed at once so nothing is left however tach ends; close-on-exec.
 * The descriptor, or -1 with errno set.
 */
int	tempfile_open(const char *dir);

#endif
