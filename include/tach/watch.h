/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -d: how far other processes have got in the files they have open, one
 * line each, from procfd's samples; nothing is moved.  -d PID watches
 * one process, -d PID:FD one descriptor of it, -d NAME every process of
 * that command name (--reading and --writing pick the files), and with
 * --wait-for those started later too.
 */
#ifndef TACH_WATCH_H
#define TACH_WATCH_H

#include "tach/options.h"

/*
 * Watches until every process watched has exited (with a descriptor,
 * until it is closed), or a signal ends the watch; --wait-for waits on
 * for new ones until a signal.  Returns 0; exits 1 with a message when no
 * process is found, or one may not be inspected.
 */
int	watch_run(const struct options *opts);

#endif
