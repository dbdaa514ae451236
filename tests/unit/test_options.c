/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The option parser as a pure function: values, errors, operands.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <getopt.h>
#include <string.h>
#include <cmocka.h>

#include "tach/fanout.h"
#include "tach/options.h"

static struct options opts;
static char msg[256];
static char *argv[32];

/* Parses the NULL-terminated arguments after argv[0]. */
static enum options_result
parse(const char *argv0, ...)
{
	va_list ap;
	int argc = 0;
	const char *a;

	options_free(&opts);
	argv[argc++] = (char *)argv0;
	va_start(ap, argv0);
	while ((a = va_arg(ap, const char *)) != NULL) {
		assert_true(argc < (int)(sizeof(argv) / sizeof(argv[0])) - 1);
		argv[argc++] = (char *)a;
	}
	va_end(ap);
	argv[argc] = NULL;
	optind = 0;		/* glibc: start getopt afresh */
	opterr = 0;
	/* stale text, so a test sees whether options_parse set msg */
	strcpy(msg, "stale");
	return options_parse(&opts, argc, argv, msg, sizeof(msg));
}

static void
defaults(void **state)
{
	(void)state;
	assert_int_equal(parse("tach", NULL), OPTIONS_RUN);
	assert_int_equal(opts.size, -1);
	assert_int_equal(opts.transfer, 0);
	assert_int_equal(opts.buffer, 0);
	/* cast: x87 would compare the constant in long double */
	assert_true(opts.interval == (double)0.2);
	assert_null(opts.cmd);
	assert_false(opts.as_progress);
}

static void
values(void **state)
{
	(void)state;
	assert_int_equal(parse("/usr/bin/tach", "-b", "2x64k", "-l", "1m",
	    "-L", "3k", "-w", "1000", "-i", "0.5", "-N", "n", "-p", "p",
	    "-ceqzSWE", "-D", "2.5", "--force", "--format", "json", "--no-splice",
	    "--stats", NULL), OPTIONS_RUN);
	assert_int_equal(opts.transfer, 131072);
	assert_int_equal(opts.size, 1048576);
	assert_int_equal(opts.rate_limit, 3072);
	assert_int_equal(opts.width, 1000);
	assert_true(opts.stop_at_size && opts.wait && opts.skip_errors);
	assert_true(opts.delay == 2.5);
	assert_true(opts.interval == 0.5);
	assert_string_equal(opts.name, "n");
	assert_string_equal(opts.prefix, "p");
	assert_true(opts.cursor && opts.stderr_bar && !opts.numeric &&
	    opts.quiet && opts.decompress && opts.force && opts.json &&
	    opts.no_splice && opts.stats);
}

static void
operands(void **state)
{
	(void)state;
	/* options after cmd are cmd's */
	assert_int_equal(parse("tach", "-q", "cat", "-n", NULL), OPTIONS_RUN);
	assert_non_null(opts.cmd);
	assert_string_equal(opts.cmd[0], "cat");
	assert_string_equal(opts.cmd[1], "-n");
	assert_null(opts.cmd[2]);
	/* progress(1) requires cmd */
	assert_int_equal(parse("/bin/progress", "-e", NULL), OPTIONS_USAGE);
	assert_true(opts.as_progress);
	assert_int_equal(parse("progress", "-e", "tar", "xf", "-", NULL),
	    OPTIONS_RUN);
	assert_string_equal(opts.cmd[0], "tar");
	/* as progress, progress(1)'s options only, and --help, --version */
	assert_int_equal(parse("progress", "-ez", "-b", "1k", "-f", "x", "-l",
	    "2", "-p", "p: ", "cat", NULL), OPTIONS_RUN);
	assert_true(opts.stderr_bar && opts.decompress);
	assert_int_equal(opts.transfer, 1024);
	assert_int_equal(opts.size, 2);
	assert_string_equal(opts.prefix, "p: ");
	static const char *const not_progress[] = { "-q", "-S", "-c", "-n",
	    "-E", "-W", "-Y", "-0", "-D1", "-d1", "-i1", "-L1", "-Nx", "-w9",
	    "-F%p", "--force", "--stats", "--quiet", "--line-mode",
	    "--no-splice", "--size=3", "--file=x", "--prefix=x", "--rate",
	    "-k", "-g", "-ushaded", "--si", "--gauge", "--bar-style=plain",
	    "-m5", "--average-rate-window=5" };
	for (size_t i = 0; i < sizeof(not_progress) / sizeof(*not_progress);
	    i++)
		assert_int_equal(parse("progress", not_progress[i], "cat",
		    NULL), OPTIONS_USAGE);
	assert_int_equal(parse("progress", "--help", NULL), OPTIONS_HELP);
	assert_int_equal(parse("progress", "--version", NULL),
	    OPTIONS_VERSION);
}

/* pv's display options: -k reads the sizes after it in 1000s. */
static void
display_options(void **state)
{
	(void)state;
	assert_int_equal(parse("tach", "-l", "1m", "-k", "-L", "2k", "-b",
	    "1MiB", NULL), OPTIONS_RUN);
	assert_int_equal(opts.size, 1048576);
	assert_int_equal(opts.rate_limit, 2000);
	assert_int_equal(opts.transfer, 1048576);
	assert_true(opts.si);
	assert_int_equal(opts.byte_unit, RENDER_SI);
	assert_int_equal(parse("tach", "--si", "-l", "1G", NULL), OPTIONS_RUN);
	assert_int_equal(opts.size, 1000000000);
	/* -8's bits are powers of 1000 already, and shown as bits */
	assert_int_equal(parse("tach", "-8k", NULL), OPTIONS_RUN);
	assert_int_equal(opts.byte_unit, RENDER_BITS);
	assert_int_equal(parse("tach", "-k8", NULL), OPTIONS_RUN);
	assert_int_equal(opts.byte_unit, RENDER_BITS);
	assert_int_equal(parse("tach", NULL), OPTIONS_RUN);
	assert_int_equal(opts.byte_unit, RENDER_BYTES);
	assert_int_equal(opts.bar_style, RENDER_BLOCK);
	assert_false(opts.gauge);
	assert_int_equal(parse("tach", "-g", "-u", "plain", NULL),
	    OPTIONS_RUN);
	assert_true(opts.gauge);
	assert_int_equal(opts.bar_style, RENDER_PLAIN);
	assert_int_equal(parse("tach", "--bar-style=shaded", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.bar_style, RENDER_SHADED);
	assert_int_equal(parse("tach", "-u", "granular", NULL), OPTIONS_RUN);
	assert_int_equal(opts.bar_style, RENDER_BLOCK);
	assert_int_equal(parse("tach", "-ushaded", "-ublock", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.bar_style, RENDER_BLOCK);
	/* -m: seconds, a second at least; pv's --average-rate is no -m */
	assert_int_equal(parse("tach", "-m", "30", NULL), OPTIONS_RUN);
	assert_true(opts.average_window == 30);
	assert_int_equal(parse("tach", "--average-rate-window=2.5", NULL),
	    OPTIONS_RUN);
	assert_true(opts.average_window == 2.5);
	assert_int_equal(parse("tach", "-m", "0.5", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "average rate window `0.5': not a number of "
	    "seconds from 1 to 86400");
	assert_int_equal(parse("tach", "--average-rate", NULL), OPTIONS_USAGE);
	assert_string_equal(msg, "pv's --average-rate is -F %a here");
	assert_int_equal(parse("tach", "-d", "1", "-m", "9", NULL),
	    OPTIONS_RUN);
	assert_int_equal(parse("tach", "-u", "fancy", NULL), OPTIONS_BAD);
	assert_string_equal(msg,
	    "-u `fancy': not plain, block, granular or shaded");
	/* the display's options go with -d; -R takes -k for -L's value */
	assert_int_equal(parse("tach", "-d", "1", "-gk", "-u", "plain", NULL),
	    OPTIONS_RUN);
	assert_int_equal(parse("tach", "-R", "1", "-k", "-L", "3M", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.rate_limit, 3000000);
	assert_int_equal(parse("tach", "-R", "1", "-g", NULL), OPTIONS_BAD);
	assert_int_equal(parse("tach", "-R", "1", "-u", "plain", NULL),
	    OPTIONS_BAD);
}

static void
bad_values(void **state)
{
	(void)state;
	assert_int_equal(parse("tach", "-b", "abc", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "buffer size `abc': illegal number");
	assert_int_equal(parse("tach", "-b", "0", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "buffer size 0 is less than 1");
	assert_int_equal(parse("tach", "-w", "1001", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "width 1001 is greater than 1000");
	assert_int_equal(parse("tach", "-l", "99999999999999999999", NULL),
	    OPTIONS_BAD);
	assert_string_equal(msg,
	    "input size `99999999999999999999': Result too large");
	assert_int_equal(parse("tach", "-i", "0", NULL), OPTIONS_BAD);
	assert_string_equal(msg,
	    "interval `0': not a number of seconds from 0.01 to 86400");
	assert_int_equal(parse("tach", "--format", "xml", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "format `xml': neither json nor a line with "
	    "a %-field such as %b");
	assert_int_equal(parse("tach", "-S", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "-S needs the length to stop at: -l");
	assert_int_equal(parse("tach", "-D", "-1", NULL), OPTIONS_BAD);
	assert_string_equal(msg,
	    "delay `-1': not a number of seconds from 0 to 86400");
	assert_int_equal(parse("tach", "-n", "--format", "json", NULL),
	    OPTIONS_BAD);
	assert_string_equal(msg,
	    "-n and --format json both write to stderr: choose one");
	/* the first bad value stops the parse */
	assert_int_equal(parse("tach", "-b", "x", "-l", "y", NULL),
	    OPTIONS_BAD);
	assert_string_equal(msg, "buffer size `x': illegal number");
}

/* pv's options that tach refuses, and what it says of them. */
static const struct {
	const char	*arg, *said;
} pv_said[] = {
	{ "--eta", "pv's --eta is -F %e here" },
	{ "--timer", "pv's --timer is -F %t here" },
	{ "--bytes", "pv's --bytes is -F %b here" },
	{ "--progress", "pv's --progress is the default bar (or -F %p) here" },
	{ "--average-rate", "pv's --average-rate is -F %a here" },
	/* not --rate-limit abbreviated, taking -q as its argument */
	{ "--rate", "pv's --rate is -F %r here" },
	{ "--fineta=x", "pv's --fineta is -F %I here" },
	{ "-h", "pv's -h is --help here" },
	{ "-V", "pv's -V is --version here" },
};

static void
usage_help_version(void **state)
{
	(void)state;
	assert_int_equal(parse("tach", "--bogus", NULL), OPTIONS_USAGE);
	assert_int_equal(parse("tach", "-j", NULL), OPTIONS_USAGE);
	assert_string_equal(msg, "");
	assert_int_equal(parse("tach", "-b", NULL), OPTIONS_USAGE);
	assert_string_equal(msg, "");
	/* pv's letters that tach lacks are named in tach's terms */
	assert_int_equal(parse("tach", "-s", "1G", NULL), OPTIONS_USAGE);
	assert_string_equal(msg, "pv's -s is -l SIZE here");
	assert_int_equal(parse("tach", "-q", "-B1m", NULL), OPTIONS_USAGE);
	assert_string_equal(msg, "pv's -B is -b SIZE here");
	assert_int_equal(parse("tach", "-v", NULL), OPTIONS_USAGE);
	assert_string_equal(msg, "pv's -v is --stats here");
	assert_int_equal(parse("tach", "-t", NULL), OPTIONS_USAGE);
	assert_string_equal(msg, "pv's -t is -F %t here");
	/* pv's -l (line mode) meets tach's -l SIZE */
	assert_int_equal(parse("tach", "-l", NULL), OPTIONS_USAGE);
	assert_string_equal(msg, "pv's -l is --line-mode here");
	assert_int_equal(parse("tach", "-l", "-q", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "input size `-q': illegal number; "
	    "pv's -l is --line-mode here");
	assert_int_equal(parse("progress", "-l", "-q", "cat", NULL),
	    OPTIONS_BAD);
	assert_string_equal(msg, "input size `-q': illegal number");
	assert_int_equal(parse("tach", "-q", "-f", NULL), OPTIONS_USAGE);
	assert_string_equal(msg, "pv's -f is --force here");
	/* pv's long display options, -h and -V */
	for (size_t i = 0; i < sizeof(pv_said) / sizeof(pv_said[0]); i++) {
		assert_int_equal(parse("tach", pv_said[i].arg, "-q", NULL),
		    OPTIONS_USAGE);
		assert_string_equal(msg, pv_said[i].said);
	}
	/* pv's -pterb, run together: refused; -p terb is a prefix */
	assert_int_equal(parse("tach", "-pterb", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "-pterb: pv's display switches run "
	    "together are the default bar here; for the prefix \"terb\" "
	    "write -p terb");
	assert_int_equal(parse("tach", "-qpta", NULL), OPTIONS_BAD);
	assert_int_equal(parse("tach", "-p", "terb", NULL), OPTIONS_RUN);
	assert_int_equal(parse("tach", "-pfoo", NULL), OPTIONS_RUN);
	/* progress(1) has no such hints: -pterb is its prefix "terb" */
	assert_int_equal(parse("progress", "-s", "1G", "cat", NULL),
	    OPTIONS_USAGE);
	assert_string_equal(msg, "");
	assert_int_equal(parse("progress", "-pterb", "cat", NULL),
	    OPTIONS_RUN);
	assert_int_equal(parse("tach", "--help", "-b", "x", NULL),
	    OPTIONS_HELP);
	assert_int_equal(parse("tach", "--version", NULL), OPTIONS_VERSION);
}

/* -f repeats: tach reads each in turn, progress(1) only the last. */
static void
several_files(void **state)
{
	(void)state;
	assert_int_equal(parse("tach", NULL), OPTIONS_RUN);
	assert_int_equal(opts.nfiles, 0);
	assert_int_equal(parse("tach", "-f", "a", "-qfb", "--file=c", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.nfiles, 3);
	assert_string_equal(opts.files[0], "a");
	assert_string_equal(opts.files[1], "b");
	assert_string_equal(opts.files[2], "c");
	assert_int_equal(parse("progress", "-f", "a", "-f", "b", "cat", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.nfiles, 1);
	assert_string_equal(opts.files[0], "b");
}

/* --line-mode counts lines, -0 and --null NUL records; -Y is --sync. */
static void
line_mode_and_sync(void **state)
{
	(void)state;
	assert_int_equal(parse("tach", NULL), OPTIONS_RUN);
	assert_int_equal(opts.separator, -1);
	assert_false(opts.sync);
	assert_int_equal(parse("tach", "--line-mode", "-Y", NULL), OPTIONS_RUN);
	assert_int_equal(opts.separator, '\n');
	assert_true(opts.sync);
	assert_int_equal(parse("tach", "-0", NULL), OPTIONS_RUN);
	assert_int_equal(opts.separator, '\0');
	assert_int_equal(parse("tach", "--null", "--line-mode", "--sync", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.separator, '\0');	/* --null wins either way */
	assert_true(opts.sync);
	assert_int_equal(parse("tach", "--line-mode", "-S", "-l", "10", NULL),
	    OPTIONS_RUN);
	assert_true(opts.stop_at_size && opts.size == 10);
}

/* -O and -K, pv's letters: off by default; -O needs a file to write. */
static void
sparse_and_direct(void **state)
{
	(void)state;
	assert_int_equal(parse("tach", NULL), OPTIONS_RUN);
	assert_false(opts.sparse || opts.direct);
	assert_int_equal(parse("tach", "-O", "-K", NULL), OPTIONS_RUN);
	assert_true(opts.sparse && opts.direct);
	assert_int_equal(parse("tach", "--sparse", "--direct-io", "-o", "f",
	    NULL), OPTIONS_RUN);
	assert_true(opts.sparse && opts.direct);
	assert_int_equal(parse("tach", "-O", "cat", NULL), OPTIONS_BAD);
	assert_int_equal(parse("tach", "-O", "-X", NULL), OPTIONS_BAD);
	/* direct reads still make sense: into a command, or read through */
	assert_int_equal(parse("tach", "-K", "-X", NULL), OPTIONS_RUN);
	assert_int_equal(parse("tach", "-K", "cat", NULL), OPTIONS_RUN);
	assert_int_equal(parse("tach", "-d", "1", "-O", NULL), OPTIONS_BAD);
	assert_int_equal(parse("tach", "-R", "1", "-K", "-L", "1", NULL),
	    OPTIONS_BAD);
	assert_int_equal(parse("progress", "-O", "cat", NULL), OPTIONS_USAGE);
}

/* -Q PID: the display's options only; -i is the copy's own. */
static void
query(void **state)
{
	(void)state;
	assert_int_equal(parse("tach", "-Q", "42", NULL), OPTIONS_RUN);
	assert_int_equal(opts.query_pid, 42);
	assert_int_equal(parse("tach", "--query", "42", "-n", "-k", "-8",
	    "-q", "-N", "x", "-p", "y", "-w", "60", "-u", "plain", "--force",
	    "-F", "%b", NULL), OPTIONS_RUN);
	assert_int_equal(parse("tach", "-Q", "42", "--format", "json", NULL),
	    OPTIONS_RUN);
	assert_int_equal(parse("tach", "-Q", "0", NULL), OPTIONS_BAD);
	assert_int_equal(parse("tach", "-Q", "x", NULL), OPTIONS_BAD);
	assert_int_equal(parse("tach", "-Q", "42", "-i", "1", NULL),
	    OPTIONS_BAD);
	assert_int_equal(parse("tach", "-Q", "42", "-R", "42", "-L", "1",
	    NULL), OPTIONS_BAD);
	assert_int_equal(parse("tach", "-Q", "42", "-d", "1", NULL),
	    OPTIONS_BAD);
	assert_int_equal(parse("tach", "-Q", "42", "-f", "x", NULL),
	    OPTIONS_BAD);
	assert_int_equal(parse("tach", "-Q", "42", "cat", NULL), OPTIONS_BAD);
	/* -d and -R still take -i */
	assert_int_equal(parse("tach", "-d", "1", "-i", "1", NULL),
	    OPTIONS_RUN);
	assert_int_equal(parse("tach", "-R", "1", "-i", "1", NULL),
	    OPTIONS_RUN);
}

static int
free_options(void **state)
{
	(void)state;
	options_free(&opts);
	return 0;
}

/* -d PID[:FD]: the watch mode's target, and what it refuses. */
static void
watch(void **state)
{
	(void)state;
	assert_int_equal(parse("tach", NULL), OPTIONS_RUN);
	assert_int_equal(opts.nwatch_pids, 0);
	assert_int_equal(opts.nwatch_names, 0);
	assert_int_equal(parse("tach", "-d", "1234", "-n", "--stats", "-i",
	    "0.5", "-N", "n", "-p", "p", "-w", "80", "-D", "1", "-e",
	    "--force", NULL), OPTIONS_RUN);
	assert_int_equal(opts.nwatch_pids, 1);
	assert_int_equal(opts.watch_pids[0].pid, 1234);
	assert_int_equal(opts.watch_pids[0].fd, -1);
	assert_int_equal(parse("tach", "--watchfd=7:0", NULL), OPTIONS_RUN);
	assert_int_equal(opts.watch_pids[0].pid, 7);
	assert_int_equal(opts.watch_pids[0].fd, 0);
	assert_int_equal(parse("tach", "-d", "7:12", "--format", "json", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.watch_pids[0].fd, 12);
	assert_true(opts.json);
	for (const char **bad = (const char *[]){ "0", "7:", ":3",
	    "99999999999", "7:99999999999", NULL };
	    *bad != NULL; bad++) {
		assert_int_equal(parse("tach", "--watchfd", *bad, NULL),
		    OPTIONS_BAD);
		assert_non_null(strstr(msg, "not a process id"));
	}
	/* anything else is a command name: 7z, cp; -d alone, the usual */
	for (const char **name = (const char *[]){ "cp", "7z", "x", "7:x",
	    "rsync", NULL }; *name != NULL; name++) {
		assert_int_equal(parse("tach", "-d", *name, NULL), OPTIONS_RUN);
		assert_int_equal(opts.nwatch_names, 1);
		assert_string_equal(opts.watch_names[0], *name);
		assert_int_equal(opts.nwatch_pids, 0);
	}
	/* every -d given is watched, in order, each once */
	assert_int_equal(parse("tach", "-d", "12", "-d", "dd", "-d", "12:3",
	    "-d", "12", "-d", "pv", "-d", "dd", "-d", "12:3", "-d", "9", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.nwatch_pids, 3);
	assert_int_equal(opts.watch_pids[0].pid, 12);
	assert_int_equal(opts.watch_pids[0].fd, -1);
	assert_int_equal(opts.watch_pids[1].pid, 12);
	assert_int_equal(opts.watch_pids[1].fd, 3);
	assert_int_equal(opts.watch_pids[2].pid, 9);
	assert_int_equal(opts.nwatch_names, 2);
	assert_string_equal(opts.watch_names[0], "dd");
	assert_string_equal(opts.watch_names[1], "pv");
	/* --wait-for waits for names: not with a PID among them */
	assert_int_equal(parse("tach", "-d", "dd", "-d", "12", "--wait-for",
	    NULL), OPTIONS_BAD);
	/* a value that begins with - is the next option: -d alone */
	assert_int_equal(parse("tach", "-d", "-1", NULL), OPTIONS_USAGE);
	assert_int_equal(parse("tach", "-d-x", NULL), OPTIONS_BAD);
	assert_int_equal(parse("tach", "-d", NULL), OPTIONS_RUN);
	assert_true(opts.watching);
	assert_int_equal(opts.nwatch_names, 0);
	assert_int_equal(parse("tach", "-d", "-i", "0.5", "--wait-for",
	    "--reading", NULL), OPTIONS_RUN);
	assert_true(opts.watching && opts.wait_for);
	assert_int_equal(opts.nwatch_names, 0);
	assert_true(opts.interval == 0.5);
	assert_int_equal(opts.watch_open, 'r');
	assert_int_equal(parse("tach", "-i", "0.5", "-d", "--writing",
	    NULL), OPTIONS_RUN);
	assert_int_equal(opts.watch_open, 'w');
	/* after cmd, -d is cmd's: sort -d */
	assert_int_equal(parse("tach", "sort", "-d", NULL), OPTIONS_RUN);
	assert_false(opts.watching);
	assert_string_equal(opts.cmd[1], "-d");
	assert_int_equal(parse("tach", "--wait-for", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "--wait-for goes with -d");
	assert_int_equal(parse("tach", "-d", "7", "--wait-for", NULL),
	    OPTIONS_BAD);
	assert_int_equal(parse("tach", "--reading", "-f", "x", NULL),
	    OPTIONS_BAD);
	assert_int_equal(parse("tach", "-d", "7", "-q", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "-d watches another process: -q does not "
	    "apply");
	assert_int_equal(parse("tach", "-d", "7", "cat", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "-d watches another process: a command "
	    "does not apply");
	assert_int_equal(parse("tach", "-0", "-d", "7", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "-d watches another process: -0 does not "
	    "apply");
	/* progress(1) has no -d */
	assert_int_equal(parse("progress", "-d", "7", "cat", NULL),
	    OPTIONS_USAGE);
}

/* -b's two meanings, decided once: a transfer size, or from 4 MiB a buffer. */
static void
buffer_or_transfer(void **state)
{
	(void)state;
	assert_int_equal(parse("tach", "-b", "4194303", NULL), OPTIONS_RUN);
	assert_int_equal(opts.transfer, 4194303);
	assert_int_equal(opts.buffer, 0);
	assert_int_equal(parse("tach", "-b", "4m", NULL), OPTIONS_RUN);
	assert_int_equal(opts.transfer, 0);
	assert_int_equal(opts.buffer, 4194304);
	/* the last -b wins whole */
	assert_int_equal(parse("tach", "-b", "8m", "-b", "64k", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.transfer, 65536);
	assert_int_equal(opts.buffer, 0);
	assert_int_equal(parse("progress", "-b", "16m", "cat", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.buffer, 16777216);
	/* a buffer's options with a transfer size only */
	assert_int_equal(parse("tach", "-b", "1m", "--write-at", "50", NULL),
	    OPTIONS_BAD);
	assert_string_equal(msg, "--write-at needs a buffer: -b of 4 MiB or "
	    "more");
	assert_int_equal(parse("tach", "-b", "4m", "--write-at", "50", NULL),
	    OPTIONS_RUN);
}

/*
 * -o repeated, --hash, --output-block, -b N%: what each leaves for main,
 * and what is refused while parsing.
 */
static void
stream_tools(void **state)
{
	char *many[40] = { "tach" };
	int n = 1;

	(void)state;
	assert_int_equal(parse("tach", "-o", "a", "-o", "-", "-o", "b", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.noutputs, 3);
	assert_string_equal(opts.output, "a");	/* stdout's file */
	assert_string_equal(opts.outputs[1], "-");
	assert_true(options_fan(&opts));
	assert_int_equal(parse("tach", "-o", "-", "-o", "b", NULL),
	    OPTIONS_RUN);
	assert_null(opts.output);		/* stdout itself */
	assert_int_equal(parse("tach", "-o", "a", NULL), OPTIONS_RUN);
	assert_false(options_fan(&opts));	/* one output: no fanout */
	/* beside a command, every -o is a copy of its input */
	assert_int_equal(parse("tach", "-o", "a", "cat", NULL), OPTIONS_RUN);
	assert_null(opts.output);
	assert_true(options_fan(&opts));
	assert_int_equal(parse("tach", "-o", "-", "cat", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "-o -: stdout is the command's output");
	assert_int_equal(parse("tach", "-o", "-", "-o", "-", NULL),
	    OPTIONS_BAD);
	assert_string_equal(msg, "-o - given twice: stdout is one output");
	for (int i = 0; i <= FANOUT_MAX; i++) {
		many[n++] = "-o";
		many[n++] = "f";
	}
	many[n] = NULL;
	options_free(&opts);
	optind = 0;
	assert_int_equal(options_parse(&opts, n, many, msg, sizeof(msg)),
	    OPTIONS_BAD);
	assert_string_equal(msg, "-o: at most 16 outputs");
	assert_int_equal(parse("tach", "--hash", "sha256:AB,md5", NULL),
	    OPTIONS_RUN);
	assert_string_equal(opts.hash, "sha256:AB,md5");
	assert_true(options_fan(&opts));
	assert_int_equal(parse("tach", "--hash", "md5", "--hash", "sha1",
	    NULL), OPTIONS_BAD);
	assert_int_equal(parse("tach", "--output-block", "256k", "--pad",
	    NULL), OPTIONS_RUN);
	assert_int_equal(opts.output_block, 262144);
	assert_true(opts.pad);
	assert_int_equal(parse("tach", "-b", "10%", NULL), OPTIONS_RUN);
	assert_int_equal(opts.buffer_percent, 10);
	assert_int_equal(opts.buffer, 0);	/* main takes it of the memory */
	assert_int_equal(opts.transfer, 0);
	/* a later -b replaces it, as any option given twice */
	assert_int_equal(parse("tach", "-b", "10%", "-b", "8m", NULL),
	    OPTIONS_RUN);
	assert_int_equal(opts.buffer_percent, 0);
	assert_int_equal(opts.buffer, 8 << 20);
	/* a share is a buffer: the buffer's rules hold */
	assert_int_equal(parse("tach", "-b", "5%", "-E", NULL), OPTIONS_BAD);
	for (const char **bad = (const char *[]){ "0%", "91%", "x%", "%",
	    "-5%", "5.5%", NULL }; *bad != NULL; bad++)
		assert_int_equal(parse("tach", "-b", *bad, NULL), OPTIONS_BAD);
	assert_int_equal(parse("tach", "-b", "95%", NULL), OPTIONS_BAD);
	assert_string_equal(msg, "-b 95%: a buffer of 1% to 90% of the "
	    "memory (the rest is the system's)");
}

/* Each rule of the table, broken once, says its own words. */
static void
rules(void **state)
{
	static const struct { const char *args[6], *said; } broken[] = {
		{ { "-R", "7", "-q" }, "-R changes a running copy: -q does not "
		    "apply" },
		{ { "-Q", "7", "-R", "7", "-L", "1" }, "-Q shows a running copy: "
		    "-R does not apply" },
		{ { "-R", "7" }, "-R needs a change to send: -L, --read-limit, "
		    "-N, -p, -i, -w or -F" },
		{ { "-S" }, "-S needs the length to stop at: -l" },
		{ { "-S", "-l", "0" }, "-S needs the length to stop at: -l" },
		{ { "-8", "-0" }, "-8 shows bytes as bits: not with -0" },
		{ { "-b", "8m", "-E" }, "-b of 4 MiB or more is a buffer, which "
		    "reads ahead: not with -E" },
		{ { "-b", "8m", "-S", "-l", "9", "--line-mode" }, "-b of 4 MiB or "
		    "more is a buffer, which reads ahead: not with -S in line "
		    "mode" },
		{ { "--read-at", "5", "--buffer-file", "f" }, "--read-at needs a "
		    "buffer: -b of 4 MiB or more" },
		{ { "-X", "-o", "f", "cat" }, "-X: the command takes the "
		    "output" },
		{ { "--pad" }, "--pad fills the last block: it needs "
		    "--output-block" },
		{ { "-o", "f", "-o", "g", "-O" }, "-O acts on the one output "
		    "tach writes: not with several -o, --hash or "
		    "--output-block" },
		{ { "--hash", "md5", "-K" }, "-K acts on the one output tach "
		    "writes: not with several -o, --hash or --output-block" },
		{ { "--output-block", "4k", "-Y" }, "-Y acts on the one output "
		    "tach writes: not with several -o, --hash or "
		    "--output-block" },
		{ { "-o", "f", "-W", "cat" }, "-W acts on the one output tach "
		    "writes: not with several -o, --hash or --output-block" },
		{ { "-O", "-X" }, "-O makes holes in a file: -X writes "
		    "nothing" },
		{ { "-O", "cat" }, "-O makes holes in a file: the command takes "
		    "the output, through a pipe" },
		{ { "-X", "-o", "f" }, "-X writes nothing: not with -o" },
		{ { "-U", "f", "-E" }, "-U stores the input before sending it: "
		    "not with -E" },
		{ { "-A", "5" }, "-A needs line mode (--line-mode, -0), where "
		    "tach sees the bytes it moves" },
		{ { "-d", "7", "-F", "%A %L" }, "%A shows the bytes written: -d "
		    "sees only how far another process has come" },
		{ { "-d", "7", "-F", "%L" }, "%L shows the bytes written: -d "
		    "sees only how far another process has come" },
		{ { "-Q", "7", "-F", "%L" }, "%L shows the bytes written: -Q is "
		    "sent a copy's numbers, not its bytes" },
		{ { "-n", "-F", "json" }, "-n and --format json both write to "
		    "stderr: choose one" },
		{ { "--writing" }, "--writing goes with -d" },
		{ { "--once", "--reading" }, "--once goes with -d" },
		{ { "-d", "--once", "--stats", "-D", "1" }, "--once looks once: "
		    "not with -D" },
		{ { "-d", "--once", "--stats" }, "--once looks once: not with "
		    "--stats" },
		{ { "-d", "7", "--wait-for" }, "--wait-for waits for processes "
		    "by name: -d NAME, or -d alone" },
		{ { "-d", "7", "--log", "f" }, "-d watches another process: "
		    "--log does not apply" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		const char *const *a = broken[i].args;

		assert_int_equal(parse("tach", a[0], a[1], a[2], a[3], a[4],
		    a[5], NULL), OPTIONS_BAD);
		assert_string_equal(msg, broken[i].said);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(values),
		cmocka_unit_test(operands),
		cmocka_unit_test(display_options),
		cmocka_unit_test(bad_values),
		cmocka_unit_test(usage_help_version),
		cmocka_unit_test(several_files),
		cmocka_unit_test(line_mode_and_sync),
		cmocka_unit_test(sparse_and_direct),
		cmocka_unit_test(query),
		cmocka_unit_test(watch),
		cmocka_unit_test(buffer_or_transfer),
		cmocka_unit_test(rules),
		cmocka_unit_test(stream_tools),
	};

	return cmocka_run_group_tests(tests, NULL, free_options);
}
