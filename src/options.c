/*
 * Option parsing.  Parsing stops at the first operand ("+"), so options
 * after cmd belong to cmd, as with progress(1) on NetBSD.
 */
#include <sys/types.h>

#include <err.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tach/options.h"
#include "tach/size.h"

#define WIDTH_MAX 1000

enum {
	OPT_FORCE = CHAR_MAX + 1,
	OPT_FORMAT,
	OPT_NO_SPLICE,
	OPT_STATS,
	OPT_HELP,
	OPT_VERSION
};

static const struct option long_options[] = {
	{ "buffer-size",	required_argument, NULL, 'b' },
	{ "cursor",		no_argument,	   NULL, 'c' },
	{ "stderr",		no_argument,	   NULL, 'e' },
	{ "file",		required_argument, NULL, 'f' },
	{ "interval",		required_argument, NULL, 'i' },
	{ "size",		required_argument, NULL, 'l' },
	{ "rate-limit",		required_argument, NULL, 'L' },
	{ "numeric",		no_argument,	   NULL, 'n' },
	{ "name",		required_argument, NULL, 'N' },
	{ "prefix",		required_argument, NULL, 'p' },
	{ "quiet",		no_argument,	   NULL, 'q' },
	{ "width",		required_argument, NULL, 'w' },
	{ "decompress",		no_argument,	   NULL, 'z' },
	{ "force",		no_argument,	   NULL, OPT_FORCE },
	{ "format",		required_argument, NULL, OPT_FORMAT },
	{ "no-splice",		no_argument,	   NULL, OPT_NO_SPLICE },
	{ "stats",		no_argument,	   NULL, OPT_STATS },
	{ "help",		no_argument,	   NULL, OPT_HELP },
	{ "version",		no_argument,	   NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static _Noreturn void
usage(bool as_progress)
{
	const char *name = getprogname();
	int pad = (int)strlen(name);

	if (as_progress)
		fprintf(stderr,
		    "usage: %s [-ez] [-b buffersize] [-f file] [-l length]\n"
		    "       %*s [-p prefix] cmd [args...]\n", name, pad, "");
	else
		fprintf(stderr,
		    "usage: %s [-cenqz] [-b size] [-f file] [-i seconds] "
		    "[-L rate] [-l length]\n"
		    "       %*s [-N name] [-p prefix] [-w width] [--force] "
		    "[--format json]\n"
		    "       %*s [--no-splice] [--stats] [cmd [args ...]]\n",
		    name, pad, "", pad, "");
	exit(1);
}

static _Noreturn void
help(void)
{
	printf("usage: %s [options] [cmd [args ...]]\n"
	    "Copy standard input (or -f file) to standard output, or into cmd,\n"
	    "drawing a progress and rate bar on the terminal.\n\n"
	    "  -b, --buffer-size SIZE  transfer buffer size (e.g. 1m, 2x64k)\n"
	    "  -c, --cursor            keep a line of its own beside other "
	    "tach -c\n"
	    "  -e, --stderr            draw on stderr in command mode\n"
	    "  -f, --file FILE         read FILE instead of standard input\n"
	    "  -i, --interval SEC      seconds between redraws (default 0.2)\n"
	    "  -L, --rate-limit RATE   move at most RATE bytes a second\n"
	    "  -l, --size SIZE         expected length of the input\n"
	    "  -N, --name NAME         label the line (with -c, above all)\n"
	    "  -n, --numeric           print a percentage a line on stderr\n"
	    "  -p, --prefix TEXT       text to the left of the bar\n"
	    "  -q, --quiet             draw nothing\n"
	    "  -w, --width N           draw N columns wide\n"
	    "  -z, --decompress        decompress the input (gzip, bzip2, "
	    "xz, zstd, lz4)\n"
	    "      --force             draw even when not on a terminal\n"
	    "      --format json       print a JSON object each interval "
	    "on stderr\n"
	    "      --no-splice         plain read/write, no zero-copy calls\n"
	    "      --stats             print rate statistics and waits at "
	    "the end\n"
	    "      --help              show this help\n"
	    "      --version           show the version\n\n"
	    "SIZE is a number with an optional suffix b (512), k, m, g, t, "
	    "w,\nor K, M, G, T with an optional iB; factors join with x.\n",
	    getprogname());
	exit(0);
}

static double
seconds_arg(const char *text)
{
	char *end;
	double v = strtod(text, &end);

	if (end == text || *end != '\0' || !(v >= 0.01 && v <= 86400))
		errx(1, "interval `%s': not a number of seconds from "
		    "0.01 to 86400", text);
	return v;
}

void
options_parse(struct options *opts, int argc, char *argv[])
{
	const char *base;
	int ch;

	memset(opts, 0, sizeof(*opts));
	opts->size = -1;
	opts->interval = 0.2;
	base = strrchr(argv[0], '/');
	base = base != NULL ? base + 1 : argv[0];
	opts->as_progress = strcmp(base, "progress") == 0;
	setprogname(base);
	argv[0] = (char *)base;		/* getopt's messages name it */

	while ((ch = getopt_long(argc, argv, "+b:cef:i:L:l:N:np:qw:z",
	    long_options, NULL)) != -1) {
		switch (ch) {
		case 'b':
			opts->bufsize = size_arg("buffer size", optarg, 1,
			    LLONG_MAX);
			break;
		case 'c':
			opts->cursor = true;
			break;
		case 'e':
			opts->stderr_bar = true;
			break;
		case 'f':
			opts->file = optarg;
			break;
		case 'i':
			opts->interval = seconds_arg(optarg);
			break;
		case 'L':
			opts->rate_limit = size_arg("rate limit", optarg, 1,
			    LLONG_MAX);
			break;
		case 'l':
			opts->size = size_arg("input size", optarg, 0,
			    LLONG_MAX);
			break;
		case 'N':
			opts->name = optarg;
			break;
		case 'n':
			opts->numeric = true;
			break;
		case 'p':
			opts->prefix = optarg;
			break;
		case 'q':
			opts->quiet = true;
			break;
		case 'w':
			opts->width = (int)size_arg("width", optarg, 1,
			    WIDTH_MAX);
			break;
		case 'z':
			opts->decompress = true;
			break;
		case OPT_FORCE:
			opts->force = true;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "json") != 0)
				errx(1, "format `%s': only json is known",
				    optarg);
			opts->json = true;
			break;
		case OPT_NO_SPLICE:
			opts->no_splice = true;
			break;
		case OPT_STATS:
			opts->stats = true;
			break;
		case OPT_HELP:
			help();
		case OPT_VERSION:
			printf("tach %s\n", TACH_VERSION);
			exit(0);
		default:
			usage(opts->as_progress);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 0)
		opts->cmd = argv;
	else if (opts->as_progress)
		usage(true);
}
