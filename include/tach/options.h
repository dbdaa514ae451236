/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The command line, in progress(1)'s syntax plus tach's long options.
 */
#ifndef TACH_OPTIONS_H
#define TACH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "tach/control.h"
#include "tach/query.h"
#include "tach/render.h"
#include "tach/watch.h"

/* -M: which of cmd's sides the bar meters; 0 is not given (in). */
enum monitor { MONITOR_IN = 1, MONITOR_OUT, MONITOR_BOTH };

struct options {
	/* -b, decided here: below RELAY_BUFFER_MIN a transfer size, from
	   it on a buffer (mbuffer's) */
	size_t		  transfer;	/* each read's and write's; 0: derived */
	size_t		  buffer;	/* bytes held between in and out; 0: none */
	long long	  size;		/* -l; -1 means find it out */
	const char	**files;	/* -f, in order; NULL means stdin */
	size_t		  nfiles;
	const char	 *prefix;	/* -p */
	double		  interval;	/* -i, seconds between redraws */
	double		  average_window; /* -m: seconds, or 0: the run */
	double		  stall_timeout; /* seconds without a move; 0: none */
	int		  write_at;	/* -b's buffer: % full to start writing */
	int		  read_at;	/* and % full to read again once full */
	long long	  read_limit;	/* its input, bytes a second; 0: none */
	const char	 *buffer_file;	/* its file, or directory; or NULL */
	const char	 *store;	/* -U: the file, "-" for a nameless one */
	const char	 *output;	/* the first -o (stdout's file), or NULL */
	const char	**outputs;	/* every -o, in order ("-": stdout) */
	size_t		  noutputs;
	const char	 *hash;		/* --hash: ALG[:HEX][,...], or NULL */
	size_t		  output_block;	/* --output-block: bytes, or 0 */
	bool		  pad;		/* --pad: the last block too */
	int		  monitor;	/* -M: an enum monitor, or 0 */
	bool		  no_flush;	/* --no-flush: a disk's end as a file's */
	int		  buffer_percent; /* -b N%: of the memory, or 0 */
	const char	 *size_file;	/* -l @FILE's file, or NULL */
	const char	 *log;		/* --log: the CSV file, or NULL */
	bool		  discard;	/* -X: write nothing */
	bool		  sparse;	/* -O: holes for zeros */
	bool		  direct;	/* -K: O_DIRECT on files and disks */
	unsigned	  extra;	/* -x: TITLE_WINDOW, TITLE_PROCESS */
	const char	 *extra_format;	/* -x's :FORMAT, or NULL */
	size_t		  last_written;	/* -A: bytes, or 0 */
	bool		  interval_given; /* -i was given */
	long long	  rate_limit;	/* -L, per second; 0: none */
	bool		  rate_in_bytes; /* -L in a byte unit (1MiB): bytes
					   even in line mode */
	const char	 *name;		/* -N */
	int		  width;	/* -w; 0 means ask the terminal */
	bool		  stderr_bar;	/* -e */
	bool		  decompress;	/* -z */
	bool		  quiet;	/* -q */
	bool		  force;	/* --force */
	bool		  no_splice;	/* --no-splice */
	bool		  numeric;	/* -n: a percentage a line */
	bool		  bits;		/* -8: amounts in bits */
	bool		  si;		/* -k: powers of 1000, shown and read */
	/* what a byte count is shown in: bytes, -8's bits, -k's SI */
	enum render_unit  byte_unit;
	enum render_style bar_style;	/* -u */
	bool		  gauge;	/* -g: no size, a bar of the rate */
	bool		  json;		/* --format json */
	const char	 *format;	/* -F: the line's layout, or NULL */
	bool		  stats;	/* --stats */
	bool		  stop_at_size;	/* -S: stop after size bytes */
	bool		  wait;		/* -W: draw from the first byte */
	bool		  skip_errors;	/* -E: zeros for unreadable blocks */
	bool		  sync;		/* -Y: bound the output's dirty pages */
	int		  separator;	/* --line-mode: '\n' or '\0'; else -1 */
	double		  delay;	/* -D: seconds before the first draw */
	bool		  cursor;	/* -c: one line per instance */
	bool		  as_progress;	/* invoked as progress(1) */
	const char	 *pidfile;	/* -P */
	bool		  watching;	/* -d, with a value or without */
	struct watch_target *watch_pids; /* each -d PID[:FD], in order */
	size_t		  nwatch_pids;
	const char	**watch_names;	/* each -d NAME, in order */
	size_t		  nwatch_names;
	bool		  wait_for;	/* --wait-for: new ones too, until ^C */
	bool		  once;		/* --once: one look, then exit */
	bool		  pipeline;	/* --pipeline: -d PID's whole pipeline */
	int		  watch_open;	/* --reading 'r', --writing 'w', or 0 */
	long		  remote_pid;	/* -R: the copy to change, or 0 */
	long		  query_pid;	/* -Q: the copy to show, or 0 */
	char		**cmd;		/* NULL in filter mode */
};

enum options_result {
	OPTIONS_RUN,		/* opts is filled in: go */
	OPTIONS_HELP,		/* --help */
	OPTIONS_VERSION,	/* --version */
	OPTIONS_USAGE,		/* unknown option or missing cmd; msg may
				   name what tach calls a pv option */
	OPTIONS_BAD		/* a bad value, explained in msg */
};

/*
 * Fills opts from argv without printing or exiting (getopt aside, which
 * reports unknown options when opterr is set).  argv must outlive opts;
 * options_free releases it after any result.
 */
enum options_result	options_parse(struct options *opts, int argc,
			    char *argv[], char *msg, size_t msglen);
/* Several -o, --hash or --output-block: the outputs' own threads. */
bool			options_fan(const struct options *opts);
/* Frees what options_parse allocated (the -f and -o lists). */
void			options_free(struct options *opts);
/* What of the bytes moved a copy sees, for %A and %L (RENDER_SEES_*). */
unsigned		options_sees(const struct options *opts);
/*
 * What the layers below the top are given of the options: a line's look
 * (-N, -p, -F, -u, -8, -w, -n, --format json, --force, -g, -c, --stats,
 * -i, -m), -d's watch, -Q's query, -R's request.
 */
struct report_look	options_look(const struct options *opts);
struct watch_config	options_watch(const struct options *opts);
struct query_config	options_query(const struct options *opts);
struct control_request	options_request(const struct options *opts);
/*
 * options_parse, then acts on its result: returns only to run; exits 0
 * after --help or --version (1 if stdout cannot take them), 1 on misuse.
 */
void			options_get(struct options *opts, int argc,
			    char *argv[]);

#endif
