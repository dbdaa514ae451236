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

#include <stdbool.h>
#include <stddef.h>

#include "tach/report.h"

/* -d PID[:FD]: a process, and one descriptor of it or (-1) every file. */
struct watch_target {
	long		 pid;
	int		 fd;
};

/* What -d watches, and how. */
struct watch_config {
	struct report_look	 look;
	const struct watch_target *pids;	/* each -d PID[:FD], in order */
	size_t			 npids;
	const char *const	*names;		/* each -d NAME, in order */
	size_t			 nnames;
	bool			 wait_for;	/* --wait-for */
	bool			 once;		/* --once */
	bool			 pipeline;	/* --pipeline */
	int			 open;		/* 'r' --reading, 'w' --writing */
	const char		*size_file;	/* -l @FILE's file, or NULL */
	double			 delay;		/* -D */
};

/*
 * Watches until every process watched has exited (with a descriptor,
 * until it is closed), or a signal ends the watch; --wait-for waits on
 * for new ones until a signal.  Returns 0; exits 1 with a message when no
 * process is found, or one may not be inspected.
 */
int	watch_run(const struct watch_config *c);

#endif
