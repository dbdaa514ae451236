/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * --help, --version and the usage, under the name tach or progress.
 */
#ifndef TACH_HELP_H
#define TACH_HELP_H

#include <stdbool.h>

/* The usage on stderr; exit 1. */
_Noreturn void	help_usage(bool as_progress);
/* --help on stdout; exit 0, or 1 if it could not be written. */
_Noreturn void	help_show(bool as_progress);
/* --version on stdout, as help_show ends. */
_Noreturn void	help_version(void);

#endif
