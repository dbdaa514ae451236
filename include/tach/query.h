/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -Q: another copy's progress, drawn here.
 */
#ifndef TACH_QUERY_H
#define TACH_QUERY_H

#include <stdbool.h>

#include "tach/report.h"

/* -Q: the copy to show, and how. */
struct query_config {
	struct report_look	 look;
	long			 pid;
	bool			 quiet;		/* -q: the closing state only */
};

/*
 * Draws the copy c->pid's state as it sends it (control.h), as c->look
 * says, until its closing state; the exit
 * status: 0 if that copy completed, else 1, saying why.
 */
int	query_run(const struct query_config *c);

#endif
