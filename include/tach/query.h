/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -Q: another copy's progress, drawn here.
 */
#ifndef TACH_QUERY_H
#define TACH_QUERY_H

#include "tach/options.h"

/*
 * Draws the copy opts->query_pid's state as it sends it (control.h),
 * with this tach's display options, until its closing state; the exit
 * status: 0 if that copy completed, else 1, saying why.
 */
int	query_run(const struct options *opts);

#endif
