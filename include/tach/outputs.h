/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The run's outputs: -o's files opened as the shell's > opens them, and
 * where there are several (or --hash, --output-block, or files beside a
 * command), the fanout that takes the relay's stream to each; at the end
 * what each took, its failure named, the digests printed and checked.
 */
#ifndef TACH_OUTPUTS_H
#define TACH_OUTPUTS_H

#include <sys/stat.h>

#include <stdbool.h>
#include <stddef.h>

#include "tach/digest.h"
#include "tach/fanout.h"
#include "tach/options.h"

struct outputs {
	struct fanout	*fan;		/* or NULL: the relay writes out */
	struct digest	*digest;	/* --hash, or NULL */
	struct fanout_output list[FANOUT_MAX];	/* at the end: each's */
	size_t		 n;
	int		 kept_stdout;	/* -o - after a file: the shell's */
	size_t		 failed;	/* outputs that failed, named */
	bool		 broken;	/* all failed, by a reader gone */
	bool		 ended;		/* outputs_end waited for each */
};

/* The input (an -f, or "stdin") that is the file st is, or NULL. */
const char	*outputs_an_input(const struct options *opts,
		    const struct stat *st);
/*
 * path opened to write, as > opens it (option names it): a FIFO waits
 * for its reader, SIGUSR1 meanwhile says so, and a terminating signal
 * ends the wait, and tach.  The descriptor, or -1 with errno.
 */
int		outputs_open_waiting(const char *path, const char *option);
/*
 * Before anything is opened: --hash's algorithms (a bad one ends tach),
 * then the first -o made stdout (-X: /dev/null), the shell's stdout kept
 * where a later -o - names it.
 */
void		outputs_open(struct outputs *o, const struct options *opts);
/*
 * The fanout, where the options ask for one, from out (stdout or cmd's
 * pipe, named name) and every other -o: returns the descriptor the relay
 * writes, out itself where there is no fanout.
 */
int		outputs_start(struct outputs *o, const struct options *opts,
		    int out, const char *name, size_t bufsize);
/*
 * The relay's end was closed: every output's end awaited; where there
 * are several, each that failed is named with its count (cmd's reader
 * gone speaks for itself); the digests are final, and checked where the
 * stream was whole.  The failure's words in reason (len bytes), or "".
 */
void		outputs_end(struct outputs *o, bool cmd, bool whole,
		    char *reason, size_t len);
/* Frees what outputs_end waited for; threads never ended are left. */
void		outputs_free(struct outputs *o);
/* The digests, as sha256sum prints them, named for the input. */
void		outputs_print_hashes(struct outputs *o, const char *name);

#endif
