/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -d PID --pipeline: the pipeline PID is part of, a line a stage, and
 * the stage that holds the others back.
 */
#ifndef TACH_PIPELINE_H
#define TACH_PIPELINE_H

#include "tach/options.h"

/*
 * Watches until every stage has ended, or a signal ends the watch: 0;
 * exits 1 with a message where the process is not found, or the system
 * does not tell how pipes join processes.
 */
int	pipeline_run(const struct options *opts);

#endif
