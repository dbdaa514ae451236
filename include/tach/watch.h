/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -d PID[:FD]: how far another process has got in the files it has open,
 * one line each, from procfd's samples; nothing is moved.
 */
#ifndef TACH_WATCH_H
#define TACH_WATCH_H

#include "tach/options.h"

/*
 * Watches until the process exits (or, with a descriptor, until that
 * descriptor is closed) and returns 0; exits 1 with a message when the
 * process does not exist or may not be inspected.
 */
int	watch_run(const struct options *opts);

#endif
