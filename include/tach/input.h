/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * What tach reads: standard input or -f file, its expected length, and
 * with -z the decompressor that stands between it and the relay.
 */
#ifndef TACH_INPUT_H
#define TACH_INPUT_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

#include "tach/options.h"

struct input {
	int		 fd;		/* what the relay reads */
	const char	*name;		/* for messages */
	/*
	 * Expected length, 0 if unknown.  It counts the relay's bytes,
	 * except with -z on a seekable file without -l, where it counts
	 * compressed bytes: the decompressor's offset in source.
	 */
	uint64_t	 size;
	bool		 size_known;	/* -l, or a file's or device's size */
	int		 source;	/* -z: the compressed input, else -1 */
	off_t		 source_start;
	uint64_t	 source_before;	/* -z: compressed bytes of earlier -f */
	int64_t		 source_end;	/* -z: where source was closed, or -1 */
	pid_t		 decompressor;	/* -1 if none */
	const char	*decompressor_name;
	pid_t		 feeder;	/* -z on a pipe: writes it to the decompressor */
};

/*
 * Opens file (NULL: standard input), starting -z's decompressor; false,
 * after a message naming it, when it cannot be read.  In filter mode it
 * refuses an input that is the output file (tach <f >>f).  An error in
 * starting the decompressor exits.
 */
bool		input_open(struct input *in, const struct options *opts,
		    const char *file);
/*
 * -U: the store, for "-" a file of no name in $TMPDIR (or /tmp), else a
 * new one beside path under a name of its own (*made, to be freed; NULL
 * for "-"), put at path by input_store_kept once whole, so that a store
 * cut short (kill -9) never stands at path looking whole.  A path where
 * something is already is refused.  Its descriptor; if it cannot be
 * made, tach exits saying why.
 */
int		input_store(const char *path, char **made);
/*
 * -U: the whole store, made, put at path; if path was taken meanwhile,
 * tach exits saying so, the store kept whole under its own name.
 */
void		input_store_kept(const char *made, const char *path);
/*
 * -U: what the relay reads from now on is the store, fd, rewound: name
 * for messages, size (bytes, or lines in line mode) known.
 */
void		input_stored(struct input *in, int fd, const char *name,
		    uint64_t size);
/*
 * Several -f: the sum of their lengths (compressed, with -z), known only
 * when every file's is; a file that cannot be opened counts for nothing.
 */
uint64_t	input_total(const struct options *opts, bool *known);
/*
 * Closes what the relay read and reaps any children, killing them first
 * if stop.  Unless stop, returns the wait status of the first child that
 * failed (the decompressor, then the process that fed it), after a
 * message when it died of a signal; else 0.
 */
int		input_close(struct input *in, bool stop);
/*
 * With -z on a seekable file: compressed bytes consumed so far, those of
 * the earlier files included.
 */
uint64_t	input_source_done(const struct input *in);

#endif
