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
	"=[-0cEegKknOqSWXYz] [-A bytes] [-b size] [-D seconds] [-f file]...",
	"[-i seconds] [-L rate] [-l length] [-M side] [-m seconds]",
	"[-N name] [-o file]... [-P pidfile] [-p prefix] [-U file]",
	"[-u style] [-w width] [-x where[:format]] [--force]",
	"[-F format | --format json] [--line-mode] [--no-flush]",
	"[--no-splice] [--stall-timeout=seconds] [--log=file] [--stats]",
	"[--write-at=percent] [--read-at=percent] [--read-limit=rate]",
	"[--buffer-file=path] [--hash=alg[:hex],...]",
	"[--output-block=size [--pad]] [cmd [args ...]]",
	"=-d [pid[:fd] | name] [-8egkn] [-D seconds] [-i seconds] [-l @dir]",
	"[-m seconds] [-N name] [-P pidfile] [-p prefix] [-u style]",
	"[-w width] [--force] [-F format | --format json]",
	"[--reading | --writing] [--stats] [--wait-for | --once]",
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

/* As OpenBSD's cat: output that could not be written is an error. */
void
help_exit(void)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		report_err(1, "stdout");
	exit(0);
}

/* The number syntax of -b, -l, -L and -w, for both helps. */
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

static const char help_text[] =
    "Copy standard input (or each -f file in turn) to standard output,\n"
    "or into cmd, drawing a progress and rate bar on the terminal.\n\n"
    "  -0, --null              count NUL-terminated records: "
    "--line-mode with \\0\n"
    "  -8, --bits              amounts and rates in bits, SI (1 Mb is "
    "10^6 bits)\n"
    "  -A, --last-written N    in line mode, the last N bytes written "
    "(up to 256),\n"
    "                          before the bar; -F's %A\n"
    "  -b, --buffer-size SIZE  transfer buffer size (e.g. 256k, 2x64k); "
    "4m and up, a\n"
    "                          buffer that holds up to SIZE between "
    "input and output;\n"
    "                          N%: a buffer of N% of the memory\n"
    "  -c, --cursor            a line of its own at the bottom, below "
    "other output\n"
    "  -D, --delay-start SEC   draw nothing for the first SEC seconds\n"
    "  -d, --watchfd PID[:FD]  watch how far process PID has got in "
    "the files\n"
    "                          (or in descriptor FD) it has open, a "
    "line each;\n"
    "  -d NAME, -d             every process named NAME, or the usual "
    "copy tools;\n"
    "                          repeat -d to watch several at once; "
    "a tree's copy\n"
    "                          (cp -r, tar) gets a line for all of it "
    "above\n"
    "  -E, --skip-errors       zeros for only what cannot be read of a "
    "file or disk\n"
    "  -e, --stderr            draw on stderr in command mode\n"
    "  -F, --format FORMAT     the line's fields, pv's tokens: %p %t "
    "%e %I %r %a\n"
    "                          %b %T %N %% and %{name}, "
    "%{rate-in} %{rate-out},\n"
    "                          %{ratio} (-M's out over in);\n"
    "                          or json: a JSON object each interval "
    "on stderr,\n"
    "                          messages too\n"
    "  -f, --file FILE         read FILE instead of standard input; "
    "repeat it\n"
    "                          to read several files in turn, as "
    "cat does\n"
    "  -g, --gauge             no size known: a bar of the rate "
    "against the\n"
    "                          highest it has been\n"
    "  -i, --interval SEC      seconds between redraws (default 0.2)\n"
    "  -K, --direct-io         direct I/O (O_DIRECT) on input and "
    "output files and\n"
    "                          disks: past the page cache\n"
    "  -k, --si                amounts in powers of 1000 (1 MB is "
    "10^6 bytes),\n"
    "                          and in the sizes after it (1m; 1MiB "
    "stays 2^20)\n"
    "  -L, --rate-limit RATE   move at most RATE bytes a second (lines "
    "with\n"
    "                          --line-mode, unless RATE ends in B: "
    "1MiB)\n"
    "  -l, --size SIZE         expected length of the input; @FILE: "
    "FILE's,\n"
    "                          @DIR: its files' (with -d: the tree "
    "copied)\n"
    "  -M, --monitor SIDE      with cmd, meter its input (in), its "
    "output (out:\n"
    "                          tach passes it on to stdout), or both\n"
    "  -m, --average-rate-window SEC\n"
    "                          the average and the time left over "
    "the last SEC\n"
    "                          seconds (default: the average of the "
    "run, the\n"
    "                          time left from the last 15 s)\n"
    "  -N, --name NAME         label the line (with -c, above all)\n"
    "  -n, --numeric           print a percentage a line on stderr;\n"
    "                          with -F, its fields as numbers\n"
    "  -P, --pidfile FILE      write tach's PID to FILE while it runs\n"
    "  -O, --sparse            leave holes in the output file for "
    "blocks of zeros,\n"
    "                          and skip the input file's holes "
    "unread\n"
    "  -o, --output FILE       write to FILE, not to standard output; "
    "repeat it\n"
    "                          to write each (- is stdout), beside "
    "cmd's input too\n"
    "  -p, --prefix TEXT       text to the left of the bar\n"
    "  -q, --quiet             draw no bar\n"
    "  -Q, --query PID         draw the running copy PID's progress "
    "here, until it\n"
    "                          ends (its exit status)\n"
    "  -R, --remote PID        change the running copy PID's -L, "
    "--read-limit,\n"
    "                          -N, -p, -i, -w or -F\n"
    "  -S, --stop-at-size      stop after the -l length, exit 0\n"
    "  -U, --store-and-forward FILE\n"
    "                          read all of the input into FILE (new; "
    "- for a\n"
    "                          file of no name), then send it on, its "
    "size known\n"
    "  -u, --bar-style STYLE   the bar: block (the default), plain "
    "(=>), or shaded;\n"
    "                          granular is block, which has eighths\n"
    "  -W, --wait              draw nothing until data moves and "
    "is read\n"
    "  -w, --width N           draw N columns wide\n"
    "  -X, --discard           read and count, write nothing\n"
    "  -Y, --sync              keep little unwritten in the output's "
    "page cache,\n"
    "                          and flush it before the end\n"
    "  -x, --extra-display WHERE[:FORMAT]\n"
    "                          the progress in the window's title "
    "(window) and\n"
    "                          in ps (process), or both: "
    "window,process\n"
    "  -z, --decompress        decompress the input (gzip, bzip2, "
    "xz, zstd, lz4)\n"
    "      --force             draw even when not on a terminal: "
    "plain lines\n"
    "      --line-mode         count lines: the amounts, rates, -l "
    "and -S in lines\n"
    "      --no-splice         plain read/write, no zero-copy calls\n"
    "      --no-flush          a disk as the output: end without "
    "waiting for it\n"
    "                          to have every byte (drawn as flushing)\n"
    "      --write-at PCT      with a buffer: start writing when it is "
    "PCT full,\n"
    "                          and again each time it ran empty (for "
    "tapes)\n"
    "      --read-at PCT       with a buffer: once full, read again "
    "only when it\n"
    "                          is down to PCT full\n"
    "      --read-limit RATE   with a buffer: read at most RATE bytes "
    "a second\n"
    "                          (-L limits its output)\n"
    "      --buffer-file PATH  with a buffer: keep it in a new file "
    "PATH, or in\n"
    "                          directory PATH, not in memory; removed "
    "at once\n"
    "      --hash ALG[,ALG]    the stream's digests at the end "
    "(sha256, sha512,\n"
    "                          sha1, md5, blake2b); ALG:HEX: fail "
    "unless it is HEX\n"
    "      --output-block SIZE every write exactly SIZE bytes (a "
    "tape's block),\n"
    "                          the last short, or zero-filled with "
    "--pad\n"
    "      --stall-timeout SEC fail when nothing has moved for SEC "
    "seconds,\n"
    "                          naming the side that stalled\n"
    "      --log FILE          a CSV row each interval in FILE: "
    "elapsed, bytes,\n"
    "                          rates, percentage, time left, "
    "buffer fill\n"
    "      --stats             print rate statistics and waits at "
    "the end;\n"
    "                          on a terminal, the rate's sparkline "
    "too\n"
    "      --wait-for          with -d NAME or -d: watch for new ones "
    "until ^C\n"
    "      --once              with -d: show where each file is, once, "
    "and exit\n"
    "      --reading           with -d: only files open for reading\n"
    "      --writing           with -d: only files open for writing\n"
    "      --help              show this help\n"
    "      --version           show the version\n\n";

void
help_show(bool as_progress)
{
	if (as_progress) {
		printf("usage: %s [-ez] [-b buffersize] [-f file] [-l length] "
		    "[-p prefix] cmd [args ...]\n", getprogname());
		fputs(help_progress_text, stdout);
	} else {
		printf("usage: %s [options] [cmd [args ...]]\n", getprogname());
		fputs(help_text, stdout);
	}
	fputs(size_syntax, stdout);
	if (as_progress)
		fputs(help_progress_end, stdout);
	help_exit();
}

void
help_version(void)
{
	printf("tach %s\n", TACH_VERSION);
	help_exit();
}
