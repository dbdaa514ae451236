/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * How a run ends, once the relay is done: the outputs, the command and
 * the children ended in their order, the outcome, the closing line, and
 * the exit status (ending.c).
 */
#ifndef TACH_ENDING_H
#define TACH_ENDING_H

#include <sys/types.h>

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tach/session.h"
#include "tach/fanout.h"
#include "tach/input.h"
#include "tach/options.h"
#include "tach/outputs.h"
#include "tach/relay.h"

/* One run: where it writes, and what its end has found so far. */
struct run {
	enum relay_end	 end;
	pid_t		 cmd;		/* or -1 */
	int		 out;		/* stdout, or the pipe to cmd */
	const char	*in_name;
	const char	*out_name;
	int		 error;		/* the errno of a failed end */
	int		 cmd_status;
	int		 source_status;	/* -z's decompressor, or 0 */
	bool		 failed;	/* several -f: one could not be read */
	bool		 log_failed;	/* -U's store found the log failed */
	bool		 at_size;	/* -S: stopped at the size */
	struct outputs	 outputs;	/* several -o, --hash */
	struct fanout	*side;		/* -M out, both: cmd's output */
	/*
	 * What the output that ended the run took, and what was read and not
	 * delivered to it: the relay's counts, or the fanout's output's
	 */
	uint64_t	 delivered;
	uint64_t	 held;
	bool		 disk;		/* out is a disk, flushed at the end */
	/* an output of several failed, or a digest did not match: why */
	char		 outputs_failed[2 * PATH_MAX + 128];
};

/* The relay is done: what it says of its end, for the run's. */
void		ending_relay(struct run *run, const struct relay *r);
/* All that was asked for was written: the input's end, or -S's size. */
bool		ending_complete(const struct run *run);
/* Complete when all moved (or cmd was content to stop early) and well. */
enum session_outcome ending_outcome(const struct run *run,
		    const struct relay *r);
/*
 * Why a run that did not complete failed, as its message words it (for
 * JSON's closing object too), in buf or a message's own; NULL if unknown.
 */
const char	*ending_reason(const struct run *run, const struct relay *r,
		    char *buf, size_t len);
/*
 * tach's exit for the run: the relay's error said (reason) and 1, a
 * child's status (its death by a signal tach's), or 0 or 1.
 */
int		ending_exit(const struct run *run, bool skipped,
		    const char *reason);
/*
 * After the copy: each end in its order, the closing line and digests,
 * -E's losses, the log closed; the exit status.
 */
int		ending_run(struct run *run, struct relay *relay,
		    struct session *session, const struct options *opts,
		    struct input *in, FILE *log);

#endif
