/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The copy's session: while the relay moves the bytes, it decides whether
 * and where to draw, keeps the meter fed on the transfer clock, hands each
 * state to the reporter (the bar, -n, --format json, --stats, --log's
 * rows), and acts on the signals and -R's requests the relay's calls to
 * session_service bring.
 */
#ifndef TACH_SESSION_H
#define TACH_SESSION_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "tach/digest.h"
#include "tach/fanout.h"
#include "tach/input.h"
#include "tach/line.h"
#include "tach/meter.h"
#include "tach/options.h"
#include "tach/relay.h"
#include "tach/report.h"
#include "tach/stats.h"
#include "tach/title.h"

/* How a run ended, for the closing line and the final JSON object. */
enum session_outcome {
	SESSION_COMPLETE,	/* all of the input moved, every child well */
	SESSION_FAILED,		/* an error, or a child that failed */
	SESSION_INTERRUPTED	/* a signal stopped it */
};

struct session {
	bool			 numeric;	/* -n */
	bool			 json;		/* --format json */
	bool			 stats;		/* --stats */
	bool			 lines;		/* --line-mode: count records */
	enum render_unit	 unit;		/* what the amounts show */
	enum render_unit	 byte_unit;	/* what a byte count shows */
	bool			 gauge;		/* -g */
	double			 rate_max;	/* -g: the highest rate yet */
	bool			 flushing;	/* -Y: the last flush is on */
	bool			 storing;	/* -U's store, not the copy */
	const struct input	*input;
	struct relay		*relay;		/* read; told of stops */
	char			*label;		/* as drawn: name, file, prefix */
	const char		*prefix;	/* -p, or NULL */
	const char		*name;		/* -N, or NULL */
	const char		*file;		/* several -f: the one read now */
	char			*sent_prefix;	/* -R's -p, owned */
	char			*sent_name;	/* -R's -N, owned */
	char			*sent_format;	/* -R's -F, owned */
	bool			 ticking;	/* the redraw timer runs */
	bool			 starting;	/* session_start's own state */
	bool			 files_only;	/* no side can be waited for */
	bool			 formatted;	/* -F: %T and %I need more */
	uint64_t		 size;
	bool			 size_known;	/* size 0: empty, not unknown */
	double			 interval;
	double			 window;	/* -m, or 0 */
	bool			 wait;		/* -W: silent until read */
	bool			 out_is_pipe;	/* -W asks it what is unread */
	double			 delay;		/* -D: silent for this long */
	double			 origin;	/* monotonic time of the start */
	double			 stopped;	/* seconds spent stopped */
	unsigned		 phase;
	struct stats_intervals	 rates;		/* --stats */
	struct reporter		 out;
	struct title		 title;		/* -x */
	FILE			*log;		/* --log, or NULL */
	const char		*log_name;
	bool			 log_failed;	/* it took a row no more */
	long long		 logged_ms;	/* its last row's time, or -1 */
	struct fanout		*fan;		/* several -o, --hash, or NULL */
	struct digest		*digest;	/* --hash, or NULL */
	struct report_output	 outs[FANOUT_MAX];	/* the fanout's, */
	size_t			 nouts;			/* for JSON */
	struct fanout		*side;		/* -M out, both: cmd's output */
	int			 monitor;	/* -M, or 0 */
	double			 side_rate_max;
	char			*side_label;	/* -M both: "out"'s line */
	struct line_disk	 disk;		/* the output's, or its file's */
	struct report_hash	 hashes[DIGEST_MAX];	/* the final */
	char			 hexes[DIGEST_MAX][DIGEST_HEX_MAX];
	/*
	 * The meters last: session_start zeroes what comes before them
	 * and meter_init the little of each that needs it, so that a short
	 * run does not clear (and fault in) their 80 KiB of samples.
	 */
	struct meter		 meter;		/* bytes moved */
	struct meter		 position;	/* -z: compressed bytes read */
	struct meter		 intake;	/* -b's buffer: bytes read */
	struct meter		 side_meter;	/* -M: the bytes cmd passed on */
	struct meter		 disk_meter;	/* of what the disk wrote */
};

/*
 * side: -M out, -M both's fanout, carrying cmd's output to stdout, or
 * NULL; its line is drawn (out), or under the input's (both), and both
 * have %{ratio}.
 */
void	session_start(struct session *d, const struct options *opts,
	    const struct input *in, struct relay *r, struct fanout *side);
/*
 * --log: a row to log (named name) at every tick; none once it failed
 * (failed: in -U's store, which has said so).
 */
void	session_log(struct session *d, FILE *log, const char *name,
	    bool failed);
/*
 * The fanout (several -o, --hash, --output-block): the bar counts what
 * the slowest output took; JSON and --stats show each; SIGUSR1 and the
 * final JSON object the digests.
 */
void	session_outputs(struct session *d, struct fanout *fan,
	    struct digest *digest);
/* Several -f: the line names file, the one being read now. */
void	session_reading(struct session *d, const char *file);
/*
 * The last flush (-Y's, a disk's) has begun: the line says what the disk
 * has yet to write, at the disk's own rate, where its counters say.
 */
void	session_flushing(struct session *d);
/* The output is about to close: -W's last look at its reader. */
void	session_output_ends(struct session *d);
/*
 * Clears the bar before cmd's last output: that output starts on a clean
 * line, and the last line follows it, or takes the bar's row if cmd wrote
 * nothing.
 */
void	session_clear(struct session *d);
/* The relay's service hook: false when a signal says stop. */
bool	session_service(void *ctx);
/*
 * The closing line and a newline, the cursor back as it was; the final
 * -n, JSON and --stats output.  reason: why a failed run failed, for
 * JSON's closing object, or NULL.
 */
void	session_finish(struct session *d, enum session_outcome outcome,
	    const char *reason);

#endif
