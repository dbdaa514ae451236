/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -P: tach's PID in a file while it runs, so that a script can find the
 * instance to control (-R) or watch (-d).
 */
#ifndef TACH_PIDFILE_H
#define TACH_PIDFILE_H

/*
 * Writes the PID to path whole (a temporary file renamed over it), or
 * exits 1 with a message; a path that holds anything but a regular file
 * (a device, FIFO, socket, directory, symbolic link) is refused.  The
 * file stays open, close-on-exec, until pidfile_withdraw.
 */
void	pidfile_publish(const char *path);
/*
 * Removes the file if the path is still the regular file written, with
 * this process's PID: not in a child, not once another instance (or
 * anything else) has taken the name; what is there is never opened.
 * Safe to call again, and from a signal handler.
 */
void	pidfile_withdraw(void);

#endif
