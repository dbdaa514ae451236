/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * libFuzzer harness for the whole option parser: the input, split at NUL
 * bytes, is argv.  Whatever it holds, the parse ends in one of its
 * results, and a run's values are within the ranges the man page gives.
 */
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tach/options.h"
#include "tach/relay.h"
#include "tach/render.h"

#define ARGS_MAX 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *argv[ARGS_MAX + 2], msg[256];
	struct options opts;
	enum options_result r;
	int argc = 0;

	if ((text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* the first word is argv[0], so "progress" is reached too */
	for (char *p = text; argc < ARGS_MAX && p <= text + size;
	    p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	optind = 0;		/* glibc: start getopt afresh */
	opterr = 0;
	r = options_parse(&opts, argc, argv, msg, sizeof(msg));
	if (r == OPTIONS_BAD && memchr(msg, '\0', sizeof(msg)) == NULL)
		abort();
	if (r == OPTIONS_RUN && ((opts.transfer != 0 && opts.buffer != 0) ||
	    opts.transfer >= RELAY_BUFFER_MIN ||
	    (opts.buffer != 0 && opts.buffer < RELAY_BUFFER_MIN) ||
	    opts.width < 0 || opts.width > RENDER_WIDTH_MAX ||
	    opts.rate_limit < 0 || opts.size < -1 ||
	    !(opts.interval >= 0.01 && opts.interval <= 86400) ||
	    !(opts.delay >= 0 && opts.delay <= 86400) ||
	    (opts.stop_at_size && opts.size <= 0) ||
	    (opts.as_progress && opts.cmd == NULL) ||
	    opts.nfiles > (size_t)argc || (opts.as_progress && opts.nfiles > 1) ||
	    opts.nwatch_pids + opts.nwatch_names > (size_t)argc ||
	    (opts.separator != -1 && opts.separator != '\n' &&
	    opts.separator != '\0')))
		abort();
	/* as progress, nothing but progress(1)'s options can be set */
	if (r == OPTIONS_RUN && opts.as_progress && (opts.quiet ||
	    opts.cursor || opts.force || opts.stats || opts.numeric ||
	    opts.json || opts.format != NULL || opts.name != NULL ||
	    opts.rate_limit != 0 || opts.width != 0 || opts.interval != 0.2 ||
	    opts.delay != 0 || opts.stop_at_size || opts.wait ||
	    opts.skip_errors || opts.sync || opts.no_splice ||
	    opts.separator != -1 || opts.nwatch_pids != 0 ||
	    opts.nwatch_names != 0 || opts.store != NULL ||
	    opts.output != NULL || opts.discard || opts.buffer_file != NULL ||
	    opts.once))
		abort();
	options_free(&opts);
	/* the program name points into text, as into argv: not past it */
	setprogname("fuzz_options");
	free(text);
	return 0;
}
