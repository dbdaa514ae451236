/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The texts a user asks for or is shown on a mistake: --help under each
 * name, --version, and the usage.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tach/help.h"
#include "tach/message.h"

/*
 * tach's usage, a form a line where a line starts with "=": each form's
 * first, the others its continuations; as tach(1)'s SYNOPSIS.
 */
static const char *const usage_lines[] = {
	"=[-08cEegKknOqSWXYz] [-A bytes] [-b size] [-D seconds] [-f file]...",
	"[-i seconds] [-L rate] [-l length] [-M side] [-m seconds]",
	"[-N name] [-o file]... [-P pidfile] [-p prefix] [-U file]",
	"[-u style] [-w width] [-x where[:format]] [--force]",
	"[-F format | --format json] [--line-mode] [--no-flush]",
	"[--no-splice] [--stall-timeout=seconds] [--log=file] [--stats]",
	"[--write-at=percent] [--read-at=percent] [--read-limit=rate]",
	"[--buffer-file=path] [--hash=alg[:hex],...]",
	"[--output-block=size [--pad]] [cmd [args ...]]",
	"=-d [pid[:fd] | name | path] [-8egkn] [-D seconds] [-i seconds]",
	"[-l @dir] [-m seconds] [-N name] [-P pidfile] [-p prefix] [-u style]",
	"[-w width] [--force] [-F format | --format json]",
	"[--reading | --writing] [--stats] [--wait-for | --once] [--pipeline]",
	"=-R pid [-F format] [-i seconds] [-k] [-L rate] [--read-limit=rate]",
	"[-N name] [-p prefix] [-w width]",
	"=-Q pid [-8knq] [-N name] [-p prefix] [-u style] [-w width] [--force]",
	"[-F format | --format json]",
};

void
help_usage(bool as_progress)
{
	const char *name = getprogname(), *line;
	int pad = (int)strlen(name);
	bool first = true;

	if (as_progress) {
		fprintf(stderr,
		    "usage: %s [-ez] [-b buffersize] [-f file] [-l length]\n"
		    "       %*s [-p prefix] cmd [args...]\n", name, pad, "");
		exit(1);
	}
	for (size_t i = 0; i < sizeof(usage_lines) / sizeof(usage_lines[0]);
	    i++) {
		line = usage_lines[i];
		if (line[0] == '=')
			fprintf(stderr, "%s %s %s\n", first ? "usage:" :
			    "      ", name, line + 1);
		else
			fprintf(stderr, "       %*s %s\n", pad, "", line);
		first = false;
	}
	exit(1);
}

/*
 * Ends a run that printed on stdout: 0, or, as OpenBSD's cat, 1 if it
 * could not be written.
 */
static _Noreturn void
help_exit(void)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		report_err(1, "stdout");
	exit(0);
}

/* The number syntax of -b and -l, in progress's help (tach's has a line). */
static const char size_syntax[] =
    "SIZE is a number with an optional suffix b (512), k, m, g, t, w,\n"
    "or K, M, G, T with an optional iB; factors join with x.\n";

/* Invoked as progress: its options only, as tach takes them. */
static const char help_progress_text[] =
    "Feed the input (standard input, or -f file) to cmd, drawing a "
    "progress bar\non standard output.\n\n"
    "  -b SIZE    read in buffers of SIZE bytes\n"
    "  -e         draw on standard error instead\n"
    "  -f FILE    read FILE instead of standard input\n"
    "  -l SIZE    expected length of the input\n"
    "  -p TEXT    text to the left of the bar\n"
    "  -z         decompress the input (gzip, bzip2, xz, zstd, lz4)\n"
    "  --help     show this help\n"
    "  --version  show the version\n\n";
static const char help_progress_end[] =
    "Invoked as tach, the same program has more options: tach --help.\n";

/* --help's first lines: the three ways tach runs. */
static const char help_head[] =
    "usage: %s [options] [cmd [args ...]]         meter a pipe, feed cmd\n"
    "       %s -d [pid[:fd] | name] [options]     watch a copy already running\n"
    "       %s -R pid | -Q pid [options]          change or watch a running copy\n";

/* By task, in tach(1)'s order; within 60 lines of 80 columns. */
static const char help_text[] =
    "Copy stdin (or -f files) to stdout or into cmd with a progress bar. See tach(1).\n"
    "Meter a pipe, feed a command:\n"
    "  -f, --file FILE         read FILE, not stdin; repeated, each in turn\n"
    "  -l, --size SIZE         expected length, @FILE's, @DIR's;  -S, --stop-at-size\n"
    "  -z, --decompress        decompress the input (gzip, bzip2, xz, zstd, lz4)\n"
    "  -M, --monitor SIDE      with cmd: meter its input (in), output (out), both\n"
    "  -e, --stderr            with cmd: draw on stderr, not stdout\n"
    "  -L, --rate-limit RATE   at most RATE bytes a second (lines in line mode)\n"
    "  -X, --discard           read and count, write nothing\n"
    "      --line-mode         count lines;  -0, --null: NUL-ended records\n"
    "Copy a file or a disk:\n"
    "  -o, --output FILE       write FILE, not stdout; repeated, each (-: stdout)\n"
    "  -Y, --sync              keep the unwritten cache small, flush at the end\n"
    "      --no-flush          a disk as the output: end before its last flush\n"
    "  -K, --direct-io         past the page cache (O_DIRECT)\n"
    "  -O, --sparse            holes for blocks of zeros, the input's skipped\n"
    "  -E, --skip-errors       a failing disk: zeros for what cannot be read\n"
    "      --hash ALG[:HEX]    sha256, sha512, sha1, md5, blake2b; HEX: verify\n"
    "      --no-splice         plain read and write, no zero-copy calls\n"
    "Buffer a bursty sender, a tape:\n"
    "  -b, --buffer-size SIZE  transfer size; from 4m (or N%) a buffer of SIZE\n"
    "      --write-at PCT      start writing when PCT full;  --read-at PCT:\n"
    "                          once full, read again when down to PCT\n"
    "      --read-limit RATE   read at most RATE bytes a second into the buffer\n"
    "      --buffer-file PATH  keep the buffer in a file, not in memory\n"
    "      --output-block SIZE every write SIZE bytes;  --pad: fill the last\n"
    "  -U, --store-and-forward FILE  read all into FILE, then send it, sized\n"
    "      --stall-timeout SEC fail when nothing moved for SEC seconds\n"
    "Watch a copy already running:\n"
    "  -d, --watchfd PID[:FD]  its files, a line each, and all of a tree's copy;\n"
    "                          -d NAME: each such; -d PATH: its holders; -d alone\n"
    "      --wait-for          keep finding new ones;  --once: look once, exit\n"
    "      --reading           only files read;  --writing: only files written\n"
    "      --pipeline          with -d PID: its pipeline's stages, the slow named\n"
    "Change or query a running copy:\n"
    "  -R, --remote PID        change its -L, --read-limit, -N, -p, -i, -w, -F\n"
    "  -Q, --query PID         draw its progress here until it ends\n"
    "  -P, --pidfile FILE      write tach's PID to FILE while it runs\n"
    "The line:\n"
    "  -N, --name NAME         a label;  -p, --prefix TEXT: text left of the bar\n"
    "  -F, --format FORMAT     fields in pv's tokens: %p %t %e %I %r %a %b %T %N\n"
    "                          %{rate-in} %{rate-out} %{ratio} and long names\n"
    "  -w, --width N           N columns;  -i, --interval SEC: redraw period\n"
    "  -m, --average-rate-window SEC  the average and ETA over SEC seconds\n"
    "  -u, --bar-style STYLE   block, plain, shaded;  -g, --gauge: rate's bar\n"
    "  -k, --si                powers of 1000;  -8, --bits: amounts in bits\n"
    "  -A, --last-written N    line mode: the last N bytes written, before the bar\n"
    "  -c, --cursor            rows of its own at the bottom (a line each)\n"
    "  -W, --wait              draw once data moves;  -D, --delay-start SEC\n"
    "  -x, --extra-display WHERE[:FORMAT]  in the window title, in ps, or both\n"
    "  -q, --quiet             draw nothing;  --force: draw, though no terminal\n"
    "Machine output:\n"
    "  -n, --numeric           a percentage a line (with -F, its fields)\n"
    "      --format json       a JSON object each interval, messages too\n"
    "      --log FILE          a CSV row each interval;  --stats: at the end\n"
    "      --help              this help;  --version: the version\n"
    "SIZE: a number and b (512), k, m, g, t, w, or K, M, G, T [iB]; 2x64k: products\n";

void
help_show(bool as_progress)
{
	if (as_progress) {
		printf("usage: %s [-ez] [-b buffersize] [-f file] [-l length] "
		    "[-p prefix] cmd [args ...]\n", getprogname());
		fputs(help_progress_text, stdout);
	} else {
		printf(help_head, getprogname(), getprogname(), getprogname());
		fputs(help_text, stdout);
	}
	if (as_progress) {
		fputs(size_syntax, stdout);
		fputs(help_progress_end, stdout);
	}
	help_exit();
}

void
help_version(void)
{
	printf("tach %s\n", TACH_VERSION);
	help_exit();
}
