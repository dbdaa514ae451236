/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Option parsing.  Parsing stops at the first operand ("+"), so options
 * after cmd belong to cmd, as with progress(1) on NetBSD.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/compat.h"
#include "tach/fanout.h"
#include "tach/help.h"
#include "tach/options.h"
#include "tach/relay.h"
#include "tach/text.h"
#include "tach/render.h"
#include "tach/size.h"
#include "tach/message.h"
#include "tach/title.h"
#include "tach/tree.h"

enum {
	OPT_FORCE = CHAR_MAX + 1,
	OPT_NO_SPLICE,
	OPT_STATS,
	OPT_LINE_MODE,
	OPT_HELP,
	OPT_VERSION,
	OPT_PV_WORD,
	OPT_WAIT_FOR,
	OPT_PIPELINE,
	OPT_ONCE,
	OPT_READING,
	OPT_WRITING,
	OPT_STALL_TIMEOUT,
	OPT_WRITE_AT,
	OPT_READ_AT,
	OPT_READ_LIMIT,
	OPT_BUFFER_FILE,
	OPT_LOG,
	OPT_HASH,
	OPT_OUTPUT_BLOCK,
	OPT_PAD,
	OPT_NO_FLUSH
};

/* An option alone, and one that takes a value (the next word or "=v"). */
#define FLAG(name, val)		{ name, no_argument, NULL, val }
#define WITH_VALUE(name, val)	{ name, required_argument, NULL, val }

static const struct option long_options[] = {
	FLAG("bits", '8'),
	WITH_VALUE("buffer-size", 'b'),
	FLAG("cursor", 'c'),
	FLAG("stderr", 'e'),
	WITH_VALUE("file", 'f'),
	WITH_VALUE("interval", 'i'),
	WITH_VALUE("size", 'l'),
	WITH_VALUE("rate-limit", 'L'),
	FLAG("numeric", 'n'),
	WITH_VALUE("name", 'N'),
	WITH_VALUE("prefix", 'p'),
	FLAG("quiet", 'q'),
	WITH_VALUE("width", 'w'),
	FLAG("decompress", 'z'),
	WITH_VALUE("delay-start", 'D'),
	WITH_VALUE("watchfd", 'd'),
	FLAG("wait-for", OPT_WAIT_FOR),
	FLAG("pipeline", OPT_PIPELINE),
	FLAG("once", OPT_ONCE),
	FLAG("reading", OPT_READING),
	FLAG("writing", OPT_WRITING),
	WITH_VALUE("stall-timeout", OPT_STALL_TIMEOUT),
	WITH_VALUE("write-at", OPT_WRITE_AT),
	WITH_VALUE("read-at", OPT_READ_AT),
	WITH_VALUE("read-limit", OPT_READ_LIMIT),
	WITH_VALUE("buffer-file", OPT_BUFFER_FILE),
	WITH_VALUE("log", OPT_LOG),
	WITH_VALUE("store-and-forward", 'U'),
	WITH_VALUE("output", 'o'),
	WITH_VALUE("hash", OPT_HASH),
	WITH_VALUE("output-block", OPT_OUTPUT_BLOCK),
	FLAG("pad", OPT_PAD),
	WITH_VALUE("monitor", 'M'),
	FLAG("no-flush", OPT_NO_FLUSH),
	FLAG("discard", 'X'),
	FLAG("sparse", 'O'),
	FLAG("direct-io", 'K'),
	WITH_VALUE("extra-display", 'x'),
	WITH_VALUE("query", 'Q'),
	WITH_VALUE("last-written", 'A'),
	FLAG("si", 'k'),
	WITH_VALUE("bar-style", 'u'),
	FLAG("gauge", 'g'),
	WITH_VALUE("average-rate-window", 'm'),
	FLAG("skip-errors", 'E'),
	FLAG("stop-at-size", 'S'),
	FLAG("wait", 'W'),
	FLAG("sync", 'Y'),
	FLAG("null", '0'),
	WITH_VALUE("pidfile", 'P'),
	WITH_VALUE("remote", 'R'),
	FLAG("line-mode", OPT_LINE_MODE),
	FLAG("force", OPT_FORCE),
	WITH_VALUE("format", 'F'),
	FLAG("no-splice", OPT_NO_SPLICE),
	FLAG("stats", OPT_STATS),
	FLAG("help", OPT_HELP),
	FLAG("version", OPT_VERSION),
	/*
	 * pv's, or getopt would take them for --rate-limit and
	 * --average-rate-window, abbreviated
	 */
	FLAG("rate", OPT_PV_WORD),
	FLAG("average-rate", OPT_PV_WORD),
	{ NULL, 0, NULL, 0 }
};

/*
 * The one table of tach's options: the short ones are its letters (a
 * value after those with required_argument), for getopt and takes_next.
 */
static const char *
short_options(void)
{
	static char letters[2 + 2 * sizeof(long_options) /
	    sizeof(long_options[0])];
	size_t n = 0;

	if (letters[0] != '\0')
		return letters;
	letters[n++] = '+';	/* the command's options are its own */
	for (size_t i = 0; long_options[i].name != NULL; i++) {
		if (long_options[i].val > CHAR_MAX)
			continue;
		letters[n++] = (char)long_options[i].val;
		if (long_options[i].has_arg == required_argument)
			letters[n++] = ':';
	}
	letters[n] = '\0';
	return letters;
}

/* Invoked as progress: progress(1)'s options, and help and version only. */
static const struct option progress_long_options[] = {
	FLAG("help", OPT_HELP),
	FLAG("version", OPT_VERSION),
	{ NULL, 0, NULL, 0 }
};
#undef FLAG
#undef WITH_VALUE

/* A number of seconds from min to a day, for -i, -D, -m, --stall-timeout. */
static bool
seconds_arg(const char *what, const char *text, double min, double *v,
    char *msg, size_t msglen)
{
	if (!seconds_parse(text, min, v)) {
		snprintf(msg, msglen, "%s `%s': not a number of seconds "
		    "from %g to %d", what, text, min, SECONDS_MAX);
		return false;
	}
	return true;
}

/* --write-at, --read-at: a share of the buffer, 0 to 100, "%" or not. */
static bool
percent_arg(const char *what, const char *text, int *v, char *msg,
    size_t msglen)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(text, &end, 10);
	if (end != text && *end == '%')
		end++;
	if (end == text || *end != '\0' || errno != 0 || n < 0 || n > 100 ||
	    !isdigit((unsigned char)*text)) {
		snprintf(msg, msglen, "%s `%s': not a percentage from 0 to 100",
		    what, text);
		return false;
	}
	*v = (int)n;
	return true;
}

/*
 * -l @DIR: the apparent size of the regular files under path, as du -sb
 * --apparent-size counts it less the directories: what a copy reads.
 */
static bool
size_of_tree(const char *path, long long *size, char *msg, size_t msglen)
{
	struct tree t;
	char where[PATH_MAX];
	int error = tree_read(&t, &path, 1, where, sizeof(where));
	uint64_t total = t.size;

	tree_free(&t);
	if (error == 0 && total > LLONG_MAX)
		error = ERANGE;
	if (error != 0) {
		snprintf(msg, msglen, "input size `@%s': %s: %s",
		    text_safe(path), text_safe(error == ERANGE ? path : where),
		    strerror(error));
		return false;
	}
	*size = (long long)total;
	return true;
}

/*
 * -l @FILE (pv's -s @FILE): the length of FILE, a file's or a disk's, as
 * its end's offset says; a directory's is the total of what it holds.
 */
static bool
size_of_file(const char *path, long long *size, char *msg, size_t msglen)
{
	/* a FIFO must not wait for a writer: its end is not known anyway */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), error;
	struct stat sb;
	off_t end;

	if (fd != -1 && fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		close(fd);
		return size_of_tree(path, size, msg, msglen);
	}
	end = fd == -1 ? -1 : lseek(fd, 0, SEEK_END);
	error = errno;
	if (fd != -1)
		close(fd);
	if (end == -1) {
		snprintf(msg, msglen, "input size `@%s': %s", text_safe(path),
		    strerror(error));
		return false;
	}
	*size = (long long)end;
	return true;
}

/* -R PID: the process id of a running copy. */
static bool
remote_arg(int letter, const char *text, long *pid, char *msg,
    size_t msglen)
{
	char *end;

	errno = 0;
	*pid = strtol(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || *pid <= 0 ||
	    *pid > INT_MAX) {
		snprintf(msg, msglen, "-%c `%s': not a process id", letter,
		    text_safe(text));
		return false;
	}
	return true;
}

/*
 * -d: every target given is watched, a process by PID (all its files, or
 * its descriptor FD) or every process of a NAME; one given twice counts
 * once.  The lists have room for every argument, so each is allocated
 * once.  -d alone adds none: the usual copy tools, when nothing else is
 * named.  It reaches getopt as "--watchfd=" (bare_watch), its value the
 * end of bare; an empty word the user gave is refused.
 */
static char bare[] = "--watchfd=";

static bool
watch_arg(struct options *opts, int argc, const char *text, char *msg,
    size_t msglen)
{
	struct watch_target t = { 0, -1 };
	char *end;
	long n;

	opts->watching = true;
	/* -d alone: the usual copy tools */
	if (text == bare + sizeof(bare) - 1)
		return true;
	/* an empty word given: `-d $(pgrep -nx cp)' once cp has ended */
	if (text[0] == '\0') {
		snprintf(msg, msglen, "-d: an empty process id or name (a "
		    "process that has ended?)");
		return false;
	}
	if (text[0] == '-') {
		snprintf(msg, msglen, "-d `%s': not a process id, pid:fd or "
		    "command name", text_safe(text));
		return false;
	}
	if ((opts->watch_pids == NULL && (opts->watch_pids =
	    calloc((size_t)argc, sizeof(*opts->watch_pids))) == NULL) ||
	    (opts->watch_names == NULL && (opts->watch_names =
	    calloc((size_t)argc, sizeof(*opts->watch_names))) == NULL))
		report_err(1, "-d list");
	if (text[strspn(text, "0123456789:")] != '\0') {
		for (size_t i = 0; i < opts->nwatch_names; i++) {
			const char *given = opts->watch_names[i];

			if (given != NULL && strcmp(given, text) == 0)
				return true;
		}
		opts->watch_names[opts->nwatch_names++] = text;
		return true;
	}
	errno = 0;
	t.pid = strtol(text, &end, 10);
	if (end != text && *end == ':' && end[1] >= '0' && end[1] <= '9') {
		n = strtol(end + 1, &end, 10);
		t.fd = n <= INT_MAX ? (int)n : -1;
	}
	if (errno != 0 || end == text || *end != '\0' ||
	    t.pid <= 0 || t.pid > INT_MAX ||
	    (strchr(text, ':') != NULL && t.fd < 0)) {
		snprintf(msg, msglen, "-d `%s': not a process id, pid:fd or "
		    "command name", text);
		return false;
	}
	for (size_t i = 0; i < opts->nwatch_pids; i++)
		if (opts->watch_pids[i].pid == t.pid &&
		    opts->watch_pids[i].fd == t.fd)
			return true;
	opts->watch_pids[opts->nwatch_pids++] = t;
	return true;
}

/*
 * -f: tach reads each file in turn; progress(1) reads only the last.  The
 * list has room for every argument, so it is allocated once.
 */
static void
add_file(struct options *opts, int argc, const char *file)
{
	if (opts->files == NULL &&
	    (opts->files = calloc((size_t)argc, sizeof(*opts->files))) == NULL)
		report_err(1, "file list");
	if (opts->as_progress)
		opts->nfiles = 0;
	opts->files[opts->nfiles++] = file;
}


/*
 * What tach calls a pv option that getopt refused: one tach lacks, or pv's
 * -l and -f given without the argument tach's -l and -f take.  Else NULL.
 */
static const char *
pv_equivalent(int ch)
{
	const struct { int ch; const char *here; } pv[] = {
		{ 's', "-l SIZE" }, { 'B', "-b SIZE" }, { 'C', "--no-splice" },
		{ 'v', "--stats" }, { 't', "-F %t" }, { 'I', "-F %I" },
		{ 'r', "-F %r" }, { 'a', "-F %a" }, { 'T', "-F %T" },
		{ 'l', "--line-mode" }, { 'f', "--force" }, { 'h', "--help" },
		{ 'V', "--version" },
	};

	for (size_t i = 0; i < sizeof(pv) / sizeof(pv[0]); i++)
		if (pv[i].ch == ch)
			return pv[i].here;
	return NULL;
}

/* What tach calls a pv long option that getopt refused, or NULL. */
static const char *
pv_long_equivalent(const char *arg)
{
	const struct { const char *name, *here; } pv[] = {
		{ "progress", "the default bar (or -F %p)" },
		{ "timer", "-F %t" }, { "eta", "-F %e" }, { "fineta", "-F %I" },
		{ "rate", "-F %r" }, { "average-rate", "-F %a" },
		{ "bytes", "-F %b" }, { "buffer-percent", "-F %T" },
		{ "show-stats", "--stats" },
	};
	size_t len;

	if (arg == NULL || strncmp(arg, "--", 2) != 0)
		return NULL;
	arg += 2;
	len = strcspn(arg, "=");
	for (size_t i = 0; i < sizeof(pv) / sizeof(pv[0]); i++)
		if (strlen(pv[i].name) == len &&
		    strncmp(pv[i].name, arg, len) == 0)
			return pv[i].here;
	return NULL;
}

/*
 * "-pterb", pv's display switches run together: to progress(1) and to
 * tach, -p with the prefix "terb".  Under the name tach, a prefix given
 * in the same word and made of pv's display letters only is refused.
 */
static bool
pv_run_together(const char *word, const char *value)
{
	size_t len = strlen(word);

	return value > word && value < word + len && word[0] == '-' &&
	    word[1] != '-' && strspn(value, "pterbaITA") == strlen(value);
}

/*
 * "-d" with no value (at the end, or before another option) watches the
 * usual copy tools: it becomes "--watchfd=", so that getopt does not take
 * the next option for its value.
 */
static bool
takes_next(const char *word)
{
	bool letter = word[1] != '-';	/* the last of -qN takes it */
	int last = (unsigned char)word[strlen(word) - 1];

	for (size_t i = 0; long_options[i].name != NULL; i++)
		if (long_options[i].has_arg == required_argument &&
		    (letter ? long_options[i].val == last :
		    strcmp(word + 2, long_options[i].name) == 0))
			return true;
	return false;
}

static void
bare_watch(int argc, char *argv[])
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return;
		if ((strcmp(argv[i], "-d") == 0 ||
		    strcmp(argv[i], "--watchfd") == 0) &&
		    (i + 1 == argc || argv[i + 1][0] == '-')) {
			argv[i] = bare;
			continue;
		}
		/* the operand, cmd: what follows is cmd's */
		if (argv[i][0] != '-')
			return;
		/* an option's value in the next word is no operand */
		if (takes_next(argv[i]))
			i++;
	}
}

/* A switch without an argument: sets it and returns true; else false. */
static bool
flag_option(struct options *opts, int ch)
{
	switch (ch) {
	case '8': opts->bits = true; opts->byte_unit = RENDER_BITS; break;
	case 'c': opts->cursor = true; break;
	case 'E': opts->skip_errors = true; break;
	case 'e': opts->stderr_bar = true; break;
	case 'n': opts->numeric = true; break;
	case 'q': opts->quiet = true; break;
	case 'X': opts->discard = true; break;
	case 'O': opts->sparse = true; break;
	case 'K': opts->direct = true; break;
	case 'k':
		opts->si = true;
		if (!opts->bits)
			opts->byte_unit = RENDER_SI;
		break;
	case 'g': opts->gauge = true; break;
	case 'S': opts->stop_at_size = true; break;
	case 'W': opts->wait = true; break;
	case 'Y': opts->sync = true; break;
	case 'z': opts->decompress = true; break;
	case '0': opts->separator = '\0'; break;
	case OPT_LINE_MODE:
		if (opts->separator == -1)
			opts->separator = '\n';
		break;
	case OPT_FORCE: opts->force = true; break;
	case OPT_NO_SPLICE: opts->no_splice = true; break;
	case OPT_STATS: opts->stats = true; break;
	case OPT_PAD: opts->pad = true; break;
	case OPT_NO_FLUSH: opts->no_flush = true; break;
	case OPT_WAIT_FOR: opts->wait_for = true; break;
	case OPT_PIPELINE: opts->pipeline = true; break;
	case OPT_ONCE: opts->once = true; break;
	case OPT_READING: opts->watch_open = 'r'; break;
	case OPT_WRITING: opts->watch_open = 'w'; break;
	default:
		return false;
	}
	return true;
}

/* -l's message, when pv's -l (line mode) was meant: -l -q, or -lq. */
static void
hint_line_mode(const struct options *opts, const char *arg, char *msg,
    size_t msglen)
{
	size_t used = strlen(msg);

	if (!opts->as_progress &&
	    !isdigit((unsigned char)arg[strspn(arg, " \t+-")]))
		snprintf(msg + used, msglen - used,
		    "; pv's -l is --line-mode here");
}

/* A path's value: taken, or (empty) refused with why, which names it. */
static bool
path_arg(const char *why, const char *arg, const char **path, char *msg,
    size_t msglen)
{
	if (*arg == '\0') {
		snprintf(msg, msglen, "%s", why);
		return false;
	}
	*path = arg;
	return true;
}

/*
 * -o, repeated: every output in order, "-" for stdout; the first that is
 * not stdout becomes stdout's file, as the shell's > makes it.
 */
static bool
output_arg(struct options *opts, int argc, const char *arg, char *msg,
    size_t msglen)
{
	if (!path_arg("-o needs a file, or -", arg, &arg, msg, msglen))
		return false;
	if (opts->noutputs == FANOUT_MAX) {
		snprintf(msg, msglen, "-o: at most %d outputs", FANOUT_MAX);
		return false;
	}
	for (size_t i = 0; i < opts->noutputs; i++)
		if (strcmp(arg, "-") == 0 && strcmp(opts->outputs[i], "-") == 0) {
			snprintf(msg, msglen, "-o - given twice: stdout is "
			    "one output");
			return false;
		}
	/* argc bounds the -o given: the list is allocated once */
	if (opts->outputs == NULL && (opts->outputs =
	    calloc((size_t)argc, sizeof(*opts->outputs))) == NULL)
		report_err(1, "output list");
	opts->outputs[opts->noutputs++] = arg;
	if (opts->noutputs == 1 && strcmp(arg, "-") != 0)
		opts->output = arg;
	return true;
}

/* --hash ALG[:HEX][,...]: main asks the crypto library for each ALG. */
static bool
hash_arg(struct options *opts, const char *arg, char *msg, size_t msglen)
{
	if (opts->hash != NULL) {
		snprintf(msg, msglen, "--hash given twice: name every "
		    "algorithm in one, as sha256,md5");
		return false;
	}
	return path_arg("--hash needs an algorithm: sha256, sha512, sha1, "
	    "md5 or blake2b", arg, &opts->hash, msg, msglen);
}

/* -u: pv's four names; granular is block, which draws eighths already. */
static bool
style_arg(const char *arg, enum render_style *style, char *msg,
    size_t msglen)
{
	const struct { const char *name; enum render_style style; } names[] = {
		{ "block", RENDER_BLOCK }, { "granular", RENDER_BLOCK },
		{ "plain", RENDER_PLAIN }, { "shaded", RENDER_SHADED },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(arg, names[i].name) == 0) {
			*style = names[i].style;
			return true;
		}
	snprintf(msg, msglen, "-u `%s': not plain, block, granular or "
	    "shaded", arg);
	return false;
}

/*
 * -x: pv's places, window and process (or pv's longer names for them),
 * with commas between, then :FORMAT for -F's fields instead of the
 * default title.
 */
static bool
extra_arg(struct options *opts, const char *arg, char *msg, size_t msglen)
{
	const struct { const char *name; unsigned where; } names[] = {
		{ "window", TITLE_WINDOW }, { "windowtitle", TITLE_WINDOW },
		{ "process", TITLE_PROCESS }, { "processtitle", TITLE_PROCESS },
		{ "proctitle", TITLE_PROCESS },
	};
	const char *p = arg;
	size_t len, i;

	opts->extra = 0;
	for (; *p != '\0' && *p != ':'; p += len + (p[len] == ',')) {
		len = strcspn(p, ",:");
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len &&
			    strncmp(p, names[i].name, len) == 0)
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			snprintf(msg, msglen, "-x `%.*s': not window or "
			    "process", (int)len, p);
			return false;
		}
		opts->extra |= names[i].where;
	}
	if (opts->extra == 0) {
		snprintf(msg, msglen, "-x needs a place: window, process, or "
		    "both (window,process)");
		return false;
	}
	opts->extra_format = *p == ':' ? p + 1 : NULL;
	return opts->extra_format == NULL ||
	    render_format_check(opts->extra_format, msg, msglen);
}

/* -b N%: the most of the memory a buffer may be. */
#define BUFFER_PERCENT_MAX	90

/*
 * -b: a transfer size below RELAY_BUFFER_MIN, a buffer from it on; N%,
 * a buffer of that share of the memory.
 */
static bool
buffer_arg(struct options *opts, const char *arg, char *msg, size_t msglen)
{
	long long n;

	opts->transfer = opts->buffer = 0;
	opts->buffer_percent = 0;
	/* mbuffer's -m 10%: main takes it of the memory */
	if (arg[0] != '\0' && arg[strlen(arg) - 1] == '%') {
		if (!percent_arg("-b", arg, &opts->buffer_percent, msg, msglen))
			return false;
		if (opts->buffer_percent == 0 ||
		    opts->buffer_percent > BUFFER_PERCENT_MAX) {
			snprintf(msg, msglen, "-b %s: a buffer of 1%% to %d%% "
			    "of the memory (the rest is the system's)", arg,
			    BUFFER_PERCENT_MAX);
			return false;
		}
		return true;
	}
	if (!size_arg("buffer size", arg, opts->si, 1, LLONG_MAX, &n, msg,
	    msglen))
		return false;
	if (n < RELAY_BUFFER_MIN)
		opts->transfer = (size_t)n;
	else if ((unsigned long long)n > SIZE_MAX) {
		snprintf(msg, msglen, "-b: a buffer of %lld bytes: more than "
		    "this system can address", n);
		return false;
	} else
		opts->buffer = (size_t)n;
	return true;
}

/* A numeric option's value: taken, true; bad, false; not one, -1. */
static int
number_option(struct options *opts, int ch, const char *arg, char *msg,
    size_t msglen)
{
	long long n;
	bool ok;

	switch (ch) {
	case 'b':
		return buffer_arg(opts, arg, msg, msglen);
	case 'D':
		return seconds_arg("delay", arg, 0, &opts->delay, msg, msglen);
	case 'm':
		return seconds_arg("average rate window", arg, 1,
		    &opts->average_window, msg, msglen);
	case 'i':
		opts->interval_given = true;
		return seconds_arg("interval", arg, SECONDS_INTERVAL_MIN,
		    &opts->interval, msg, msglen);
	case OPT_STALL_TIMEOUT:
		return seconds_arg("stall timeout", arg, 0.1,
		    &opts->stall_timeout, msg, msglen);
	case OPT_WRITE_AT:
		return percent_arg("--write-at", arg, &opts->write_at, msg,
		    msglen);
	case OPT_READ_AT:
		return percent_arg("--read-at", arg, &opts->read_at, msg,
		    msglen);
	case OPT_READ_LIMIT:
		return size_arg("read limit", arg, opts->si, 1, LLONG_MAX,
		    &opts->read_limit, msg, msglen);
	case 'L':
		/* line mode counts lines; 1MiB or 64KB still means bytes */
		opts->rate_in_bytes = arg[0] != '\0' &&
		    arg[strlen(arg) - 1] == 'B';
		return size_arg("rate limit", arg, opts->si, 1, LLONG_MAX,
		    &opts->rate_limit, msg, msglen);
	case 'l':
		opts->size_file = NULL;
		if (arg[0] == '@' && !opts->as_progress) {
			opts->size_file = arg + 1;
			return size_of_file(arg + 1, &opts->size, msg, msglen);
		}
		if (!(ok = size_arg("input size", arg, opts->si, 0, LLONG_MAX,
		    &opts->size, msg, msglen)))
			hint_line_mode(opts, arg, msg, msglen);
		return ok;
	case 'A':
		ok = size_arg("-A", arg, false, 1, RELAY_SEEN_MAX, &n, msg,
		    msglen);
		opts->last_written = (size_t)n;
		return ok;
	case 'w':
		ok = size_arg("width", arg, false, 1, RENDER_WIDTH_MAX, &n,
		    msg, msglen);
		opts->width = (int)n;
		return ok;
	}
	return -1;
}

/* -M SIDE: which of cmd's sides the bar meters (pv 1.11's --monitor). */
static bool
monitor_arg(struct options *opts, const char *arg, char *msg, size_t msglen)
{
	static const char *const sides[] = { [MONITOR_IN] = "in",
	    [MONITOR_OUT] = "out", [MONITOR_BOTH] = "both" };

	for (int i = MONITOR_IN; i <= MONITOR_BOTH; i++)
		if (strcmp(arg, sides[i]) == 0) {
			opts->monitor = i;
			return true;
		}
	snprintf(msg, msglen, "-M `%s': in, out or both", text_safe(arg));
	return false;
}

/* --output-block: a tape's block, every write exactly this long. */
static bool
output_block_arg(struct options *opts, const char *arg, char *msg,
    size_t msglen)
{
	long long n = 0;
	bool ok = size_arg("output block", arg, opts->si, 1,
	    RELAY_BUFSIZE_MAX, &n, msg, msglen);

	opts->output_block = (size_t)n;
	return ok;
}

/*
 * An option with an argument: takes it and returns true, or false with
 * msg saying why the value is bad.
 */
static bool
value_option(struct options *opts, int argc, int ch, const char *arg,
    char *msg, size_t msglen)
{
	int number = number_option(opts, ch, arg, msg, msglen);

	if (number != -1)
		return number;
	switch (ch) {
	case OPT_BUFFER_FILE:
		return path_arg("--buffer-file needs a path", arg,
		    &opts->buffer_file, msg, msglen);
	case OPT_LOG:
		return path_arg("--log needs a file", arg, &opts->log, msg,
		    msglen);
	case 'd':
		return watch_arg(opts, argc, arg, msg, msglen);
	case 'F':
		/* "json" is a name; anything else lays out the line */
		opts->json = strcmp(arg, "json") == 0;
		opts->format = opts->json ? NULL : arg;
		return opts->json || render_format_check(arg, msg, msglen);
	case 'f':
		add_file(opts, argc, arg);
		return true;
	case 'R':
		return remote_arg('R', arg, &opts->remote_pid, msg, msglen);
	case 'Q':
		return remote_arg('Q', arg, &opts->query_pid, msg, msglen);
	case 'N':
		opts->name = arg;
		return true;
	case 'P':
		opts->pidfile = arg;
		return true;
	case 'o':
		return output_arg(opts, argc, arg, msg, msglen);
	case OPT_HASH:
		return hash_arg(opts, arg, msg, msglen);
	case OPT_OUTPUT_BLOCK:
		return output_block_arg(opts, arg, msg, msglen);
	case 'U':
		return path_arg("-U needs a file, or -", arg, &opts->store, msg,
		    msglen);
	case 'p':
		opts->prefix = arg;
		return true;
	case 'u':
		return style_arg(arg, &opts->bar_style, msg, msglen);
	case 'x':
		return extra_arg(opts, arg, msg, msglen);
	case 'M':
		return monitor_arg(opts, arg, msg, msglen);
	}
	return true;
}

/*
 * What a rule can name: each option given, and a few states of them.  A
 * rule names the first that set it off, in this order.
 */
enum given {
	G_NONE,		/* ends a rule's list */
	G_R, G_Q, G_CMD, G_i, G_f, G_q, G_L, G_l, G_S, G_b, G_z, G_E, G_Y,
	G_W, G_c, G_LINE, G_NUL, G_NO_SPLICE, G_d, G_n, G_8, G_k, G_u, G_g,
	G_m, G_JSON, G_F, G_STATS, G_FORCE, G_D, G_e, G_P, G_STALL,
	G_WRITE_AT, G_READ_AT, G_READ_LIMIT, G_BUFFER_FILE, G_U, G_o, G_X,
	G_O, G_K, G_x, G_A, G_LOG, G_N, G_p, G_w, G_WAIT_FOR, G_ONCE,
	G_READING, G_WRITING, G_HASH, G_OUTPUT_BLOCK, G_PAD, G_M, G_NO_FLUSH,
	G_PIPELINE,
	/* states: taken by every mode, named only by the rules below */
	G_BUFFER, G_LENGTH, G_S_LINES, G_SEES_A, G_SEES_L, G_D_PID, G_FAN,
	G_COUNT
};

/*
 * A set of them, as many words as they take: the table grows with the
 * options, the set with it.
 */
#define GSET_WORDS	((G_COUNT + 63) / 64)
struct gset {
	uint64_t	 w[GSET_WORDS];
};

/* A rule's list: up to GIVENS_MAX of them, the rest G_NONE. */
#define GIVENS_MAX	8
#define L(...)		{ __VA_ARGS__ }
#define NONE		{ G_NONE }

static void
gset_add(struct gset *s, int g)
{
	s->w[g / 64] |= (uint64_t)1 << (g % 64);
}

static bool
gset_has(const struct gset *s, int g)
{
	return (s->w[g / 64] >> (g % 64) & 1) != 0;
}

static struct gset
gset_of(const enum given list[GIVENS_MAX])
{
	struct gset s = { { 0 } };

	for (int i = 0; i < GIVENS_MAX && list[i] != G_NONE; i++)
		gset_add(&s, list[i]);
	return s;
}

/* a and b in common, in *both: whether there is any */
static bool
gset_meet(const struct gset *a, const struct gset *b, struct gset *both)
{
	bool any = false;

	for (int i = 0; i < GSET_WORDS; i++)
		any |= (both->w[i] = a->w[i] & b->w[i]) != 0;
	return any;
}

static bool
gset_empty(const struct gset *s)
{
	for (int i = 0; i < GSET_WORDS; i++)
		if (s->w[i] != 0)
			return false;
	return true;
}

/* The modes that take an option: -d (watching), -R (a change), -Q. */
#define BY_D	0x1
#define BY_R	0x2
#define BY_Q	0x4
#define BY_ALL	(BY_D | BY_R | BY_Q)

static const struct {
	const char	*name;
	unsigned char	 by;
} givens[G_COUNT] = {
	[G_R] = { "-R", BY_D | BY_R }, [G_Q] = { "-Q", BY_ALL },
	[G_CMD] = { "a command", 0 },
	/* -Q: the copy draws at its own interval */
	[G_i] = { "-i", BY_D | BY_R }, [G_f] = { "-f", 0 },
	/* -d: -l @DIR, the tree a watched process copies */
	[G_q] = { "-q", BY_Q }, [G_L] = { "-L", BY_R }, [G_l] = { "-l", BY_D },
	[G_S] = { "-S", 0 }, [G_b] = { "-b", 0 }, [G_z] = { "-z", 0 },
	[G_E] = { "-E", 0 }, [G_Y] = { "-Y", 0 }, [G_W] = { "-W", 0 },
	[G_c] = { "-c", BY_D }, [G_LINE] = { "--line-mode", 0 },
	[G_NUL] = { "-0", 0 }, [G_NO_SPLICE] = { "--no-splice", 0 },
	[G_d] = { "-d", BY_D }, [G_n] = { "-n", BY_D | BY_Q },
	/* -R: for -L's value */
	[G_8] = { "-8", BY_D | BY_Q }, [G_k] = { "-k", BY_ALL },
	[G_u] = { "-u", BY_D | BY_Q }, [G_g] = { "-g", BY_D },
	[G_m] = { "-m", BY_D }, [G_JSON] = { "--format json", BY_D | BY_Q },
	[G_F] = { "-F", BY_ALL }, [G_STATS] = { "--stats", BY_D },
	[G_FORCE] = { "--force", BY_D | BY_Q }, [G_D] = { "-D", BY_D },
	[G_e] = { "-e", BY_D }, [G_P] = { "-P", BY_D },
	[G_STALL] = { "--stall-timeout", 0 }, [G_WRITE_AT] = { "--write-at", 0 },
	[G_READ_AT] = { "--read-at", 0 },
	[G_READ_LIMIT] = { "--read-limit", BY_R },
	[G_BUFFER_FILE] = { "--buffer-file", 0 }, [G_U] = { "-U", 0 },
	[G_o] = { "-o", 0 }, [G_X] = { "-X", 0 }, [G_O] = { "-O", 0 },
	[G_K] = { "-K", 0 }, [G_x] = { "-x", 0 }, [G_A] = { "-A", 0 },
	[G_LOG] = { "--log", 0 }, [G_N] = { "-N", BY_ALL },
	[G_p] = { "-p", BY_ALL }, [G_w] = { "-w", BY_ALL },
	[G_WAIT_FOR] = { "--wait-for", BY_ALL }, [G_ONCE] = { "--once", BY_ALL },
	[G_READING] = { "--reading", BY_ALL },
	[G_PIPELINE] = { "--pipeline", BY_ALL },
	[G_WRITING] = { "--writing", BY_ALL },
	[G_BUFFER] = { "-b", BY_ALL }, [G_LENGTH] = { "-l", BY_ALL },
	[G_S_LINES] = { "-S in line mode", BY_ALL },
	[G_SEES_A] = { "%A", BY_ALL }, [G_SEES_L] = { "%L", BY_ALL },
	[G_D_PID] = { "-d PID", BY_ALL },
	[G_HASH] = { "--hash", 0 }, [G_OUTPUT_BLOCK] = { "--output-block", 0 },
	[G_PAD] = { "--pad", 0 }, [G_M] = { "-M", 0 },
	[G_NO_FLUSH] = { "--no-flush", 0 },
	[G_FAN] = { "several -o, --hash or --output-block", BY_ALL },
};

/*
 * The rules of the options as a whole, in the order they are checked: a
 * rule is broken when one of when is given and none of unless, and (if
 * with or mode says any) one of with, or one option that mode does not
 * take.  Its text's %s names the first of those others, or, where there
 * are none, the first of when.
 */
static const struct rule {
	enum given	 when[GIVENS_MAX], unless[GIVENS_MAX], with[GIVENS_MAX];
	unsigned char	 mode;
	const char	*text;
} rules[] = {
	{ L(G_R), NONE, NONE, BY_R, "-R changes a running copy: %s does not apply" },
	{ L(G_Q), NONE, NONE, BY_Q, "-Q shows a running copy: %s does not apply" },
	{ L(G_R), L(G_L, G_READ_LIMIT, G_N, G_p, G_i, G_w, G_F), NONE, 0,
	    "-R needs a change to send: -L, --read-limit, -N, -p, -i, -w or "
	    "-F" },
	{ L(G_S), L(G_LENGTH), NONE, 0, "-S needs the length to stop at: -l" },
	{ L(G_8), NONE, L(G_LINE, G_NUL), 0,
	    "-8 shows bytes as bits: not with %s" },
	/* a buffer reads ahead: it cannot read a bad block again, nor stop
	   at a line it has not yet written */
	{ L(G_BUFFER), NONE, L(G_E, G_S_LINES), 0,
	    "-b of 4 MiB or more is a buffer, which reads ahead: not with %s" },
	{ L(G_WRITE_AT, G_READ_AT, G_READ_LIMIT, G_BUFFER_FILE),
	    L(G_BUFFER, G_d, G_R), NONE, 0,
	    "%s needs a buffer: -b of 4 MiB or more" },
	{ L(G_X), NONE, L(G_CMD), 0, "-X: the command takes the output" },
	{ L(G_PAD), L(G_OUTPUT_BLOCK), NONE, 0,
	    "--pad fills the last block: it needs --output-block" },
	{ L(G_M), L(G_CMD), NONE, 0,
	    "-M meters a command's sides: it needs a command" },
	/* -Y's last flush is its own */
	{ L(G_NO_FLUSH), NONE, L(G_Y), 0,
	    "--no-flush leaves the last flush out: -Y asks for it" },
	{ L(G_NO_FLUSH), NONE, L(G_CMD, G_X), 0, "--no-flush is for a disk "
	    "tach writes: not with %s" },
	/* the outputs are written by the fanout's threads, through a pipe */
	{ L(G_FAN), NONE, L(G_O, G_K, G_Y, G_W), 0, "%s acts on the "
	    "one output tach writes: not with several -o, --hash or "
	    "--output-block" },
	{ L(G_O), NONE, L(G_X), 0, "-O makes holes in a file: -X writes nothing" },
	{ L(G_O), NONE, L(G_CMD), 0, "-O makes holes in a file: the command "
	    "takes the output, through a pipe" },
	{ L(G_X), NONE, L(G_o), 0, "-X writes nothing: not with -o" },
	{ L(G_U), NONE, L(G_E), 0,
	    "-U stores the input before sending it: not with -E" },
	/* the bytes are seen only where line mode counts them; -d and -Q
	   draw another process's numbers, and a copy sent a new -F with -R
	   judges it itself */
	{ L(G_A), L(G_LINE, G_NUL, G_d), NONE, 0, "-A needs line mode "
	    "(--line-mode, -0), where tach sees the bytes it moves" },
	{ L(G_SEES_A), NONE, L(G_d), 0, "%%A shows the bytes written: -d sees "
	    "only how far another process has come" },
	{ L(G_SEES_L), NONE, L(G_d), 0, "%%L shows the bytes written: -d sees "
	    "only how far another process has come" },
	{ L(G_SEES_A), NONE, L(G_Q), 0, "%%A shows the bytes written: -Q is "
	    "sent a copy's numbers, not its bytes" },
	{ L(G_SEES_L), NONE, L(G_Q), 0, "%%L shows the bytes written: -Q is "
	    "sent a copy's numbers, not its bytes" },
	{ L(G_n), NONE, L(G_JSON), 0,
	    "-n and --format json both write to stderr: choose one" },
	{ L(G_WAIT_FOR, G_ONCE, G_READING, G_WRITING, G_PIPELINE), L(G_d),
	    NONE, 0, "%s goes with -d" },
	{ L(G_PIPELINE), L(G_D_PID), NONE, 0,
	    "--pipeline follows the pipes of one process: -d PID" },
	{ L(G_PIPELINE), NONE, L(G_WAIT_FOR, G_READING, G_WRITING, G_STATS,
	    G_n, G_D), 0, "--pipeline shows a line a stage: not with %s" },
	/* one look: nothing to wait for, nothing over time */
	{ L(G_ONCE), NONE, L(G_WAIT_FOR), 0,
	    "--once looks once: not with --wait-for" },
	{ L(G_ONCE), NONE, L(G_D), 0, "--once looks once: not with -D" },
	{ L(G_ONCE), NONE, L(G_STATS), 0, "--once looks once: not with --stats" },
	{ L(G_WAIT_FOR), NONE, L(G_D_PID), 0, "--wait-for waits for processes "
	    "by name: -d NAME, or -d alone" },
	{ L(G_d), NONE, NONE, BY_D, "-d watches another process: %s does not "
	    "apply" },
};

/* The options and states a rule can name that opts has. */
static struct gset
given(const struct options *o)
{
	unsigned sees = render_format_sees(o->format);
	const bool is[G_COUNT] = {
		[G_R] = o->remote_pid != 0, [G_Q] = o->query_pid != 0,
		[G_CMD] = o->cmd != NULL, [G_i] = o->interval_given,
		[G_f] = o->nfiles > 0, [G_q] = o->quiet,
		[G_L] = o->rate_limit != 0, [G_l] = o->size >= 0,
		[G_S] = o->stop_at_size,
		[G_b] = o->transfer != 0 || o->buffer != 0 ||
		    o->buffer_percent != 0,
		[G_z] = o->decompress, [G_E] = o->skip_errors,
		[G_Y] = o->sync, [G_W] = o->wait, [G_c] = o->cursor,
		[G_LINE] = o->separator == '\n', [G_NUL] = o->separator == '\0',
		[G_NO_SPLICE] = o->no_splice, [G_d] = o->watching,
		[G_n] = o->numeric, [G_8] = o->bits, [G_k] = o->si,
		[G_u] = o->bar_style != RENDER_BLOCK, [G_g] = o->gauge,
		[G_m] = o->average_window != 0, [G_JSON] = o->json,
		[G_F] = o->format != NULL, [G_STATS] = o->stats,
		[G_FORCE] = o->force, [G_D] = o->delay != 0,
		[G_e] = o->stderr_bar, [G_P] = o->pidfile != NULL,
		[G_STALL] = o->stall_timeout != 0,
		[G_WRITE_AT] = o->write_at != 0, [G_READ_AT] = o->read_at != 100,
		[G_READ_LIMIT] = o->read_limit != 0,
		[G_BUFFER_FILE] = o->buffer_file != NULL,
		[G_U] = o->store != NULL, [G_o] = o->noutputs > 0,
		[G_X] = o->discard, [G_O] = o->sparse, [G_K] = o->direct,
		[G_x] = o->extra != 0, [G_A] = o->last_written != 0,
		[G_LOG] = o->log != NULL, [G_N] = o->name != NULL,
		[G_p] = o->prefix != NULL, [G_w] = o->width != 0,
		[G_WAIT_FOR] = o->wait_for, [G_ONCE] = o->once,
		[G_PIPELINE] = o->pipeline,
		[G_READING] = o->watch_open == 'r',
		[G_WRITING] = o->watch_open == 'w',
		[G_HASH] = o->hash != NULL,
		[G_OUTPUT_BLOCK] = o->output_block != 0, [G_PAD] = o->pad,
		[G_M] = o->monitor != 0, [G_NO_FLUSH] = o->no_flush,
		[G_FAN] = options_fan(o),
		[G_BUFFER] = o->buffer != 0 || o->buffer_percent != 0,
		[G_LENGTH] = o->size > 0,
		[G_S_LINES] = o->stop_at_size && o->separator != -1,
		[G_SEES_A] = (sees & RENDER_SEES_LAST) != 0,
		[G_SEES_L] = (sees & RENDER_SEES_LINE) != 0,
		[G_D_PID] = o->nwatch_pids > 0,
	};
	struct gset g = { { 0 } };

	for (int i = G_NONE + 1; i < G_COUNT; i++)
		if (is[i])
			gset_add(&g, i);
	return g;
}

/* A rule's with, and the options its mode does not take. */
static struct gset
others_of(const struct rule *r)
{
	struct gset g = gset_of(r->with);

	for (int i = G_NONE + 1; i < G_COUNT; i++)
		if (r->mode != 0 && (givens[i].by & r->mode) == 0)
			gset_add(&g, i);
	return g;
}

/* The name of the first option or state in set. */
static const char *
first_given(const struct gset *set)
{
	int i = G_NONE + 1;

	while (i < G_COUNT - 1 && !gset_has(set, i))
		i++;
	return givens[i].name;
}

/* The options as a whole: what no single option can check. */
static enum options_result
options_check(struct options *opts, int argc, char *argv[], char *msg,
    size_t msglen)
{
	struct gset g, when, unless, others, named;
	unsigned seen;
	struct stat sb;

	if (argc > 0)
		opts->cmd = argv;
	g = given(opts);
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *r = &rules[i];

		when = gset_of(r->when);
		unless = gset_of(r->unless);
		others = others_of(r);
		/* named: the others given, or where there are none, when's */
		if (gset_meet(&unless, &g, &named) ||
		    !gset_meet(&when, &g, &named) ||
		    (!gset_empty(&others) && !gset_meet(&others, &g, &named)))
			continue;
		snprintf(msg, msglen, r->text, first_given(&named));
		return OPTIONS_BAD;
	}
	if (opts->watching && opts->size >= 0 && (opts->size_file == NULL ||
	    stat(opts->size_file, &sb) == -1 || !S_ISDIR(sb.st_mode))) {
		snprintf(msg, msglen, "-d: -l takes @DIR, the tree the process "
		    "copies");
		return OPTIONS_BAD;
	}
	/* cmd's output is stdout: every -o is a file beside cmd's input */
	for (size_t i = 0; i < opts->noutputs && opts->cmd != NULL; i++)
		if (strcmp(opts->outputs[i], "-") == 0) {
			snprintf(msg, msglen, "-o -: stdout is the command's "
			    "output");
			return OPTIONS_BAD;
		}
	if (opts->cmd != NULL)
		opts->output = NULL;
	seen = options_sees(opts);
	if (!opts->watching && opts->remote_pid == 0 &&
	    (!render_format_seen(opts->format, seen, msg, msglen) ||
	    !render_format_seen(opts->extra_format, seen, msg, msglen)))
		return OPTIONS_BAD;
	if (argc == 0 && opts->as_progress)
		return OPTIONS_USAGE;
	return OPTIONS_RUN;
}

/* The defaults, and the name tach was called by. */
static void
options_init(struct options *opts, char *argv[])
{
	const char *base = strrchr(argv[0], '/');

	memset(opts, 0, sizeof(*opts));
	opts->size = -1;
	opts->separator = -1;
	opts->interval = 0.2;
	opts->read_at = 100;
	base = base != NULL ? base + 1 : argv[0];
	opts->as_progress = strcmp(base, "progress") == 0;
	/* on Linux, libbsd's setproctitle_init has set a copy of its own */
	if (strcmp(getprogname(), base) != 0)
		setprogname(base);
	argv[0] = (char *)base;		/* getopt's messages name it */
}

enum options_result
options_parse(struct options *opts, int argc, char *argv[], char *msg,
    size_t msglen)
{
	const char *hint;
	int ch, index;

	options_init(opts, argv);
	msg[0] = '\0';
	if (!opts->as_progress)
		bare_watch(argc, argv);
	/* as progress, a script gets progress(1)'s usage for any other */
	while ((ch = getopt_long(argc, argv,
	    opts->as_progress ? "+b:ef:l:p:z" : short_options(),
	    opts->as_progress ? progress_long_options : long_options,
	    &index)) != -1) {
		if (flag_option(opts, ch))
			continue;
		if (ch == OPT_HELP)
			return OPTIONS_HELP;
		if (ch == OPT_VERSION)
			return OPTIONS_VERSION;
		if (ch == OPT_PV_WORD &&
		    (hint = pv_long_equivalent(argv[optind - 1])) != NULL) {
			snprintf(msg, msglen, "pv's --%s is %s here",
			    long_options[index].name, hint);
			return OPTIONS_USAGE;
		}
		if (ch == '?' || ch == ':') {
			if (!opts->as_progress && ch == '?' && optopt != 0 &&
			    (hint = pv_equivalent(optopt)) != NULL)
				snprintf(msg, msglen, "pv's -%c is %s here",
				    optopt, hint);
			else if (!opts->as_progress && ch == '?' &&
			    (hint = pv_long_equivalent(argv[optind - 1])) !=
			    NULL)
				snprintf(msg, msglen, "pv's %.*s is %s here",
				    (int)strcspn(argv[optind - 1], "="),
				    argv[optind - 1], hint);	/* a known name */
			return OPTIONS_USAGE;
		}
		if (ch == 'p' && !opts->as_progress &&
		    pv_run_together(argv[optind - 1], optarg)) {
			snprintf(msg, msglen, "%s: pv's display switches run "
			    "together are the default bar here; for the prefix "
			    "\"%s\" write -p %s", text_safe(argv[optind - 1]),
			    text_safe(optarg), text_safe(optarg));
			return OPTIONS_BAD;
		}
		if (!value_option(opts, argc, ch, optarg, msg, msglen))
			return OPTIONS_BAD;
	}
	return options_check(opts, argc - optind, argv + optind, msg, msglen);
}

void
options_free(struct options *opts)
{
	free(opts->files);
	opts->files = NULL;
	opts->nfiles = 0;
	free(opts->watch_pids);
	free(opts->watch_names);
	opts->watch_pids = NULL;
	opts->watch_names = NULL;
	opts->nwatch_pids = opts->nwatch_names = 0;
	free(opts->outputs);
	opts->outputs = NULL;
	opts->noutputs = 0;
}

bool
options_fan(const struct options *opts)
{
	return opts->noutputs > 1 || opts->hash != NULL ||
	    opts->output_block != 0 || (opts->noutputs > 0 && opts->cmd != NULL);
}

void
options_get(struct options *opts, int argc, char *argv[])
{
	char msg[256];

	enum options_result result = options_parse(opts, argc, argv, msg,
	    sizeof(msg));

	/* under --format json, from its own complaints on, stderr is JSON */
	report_messages_json(opts->json);
	switch (result) {
	case OPTIONS_RUN:
		return;
	case OPTIONS_HELP:
		help_show(opts->as_progress);
	case OPTIONS_VERSION:
		help_version();
	case OPTIONS_USAGE:
		if (msg[0] != '\0')
			report_warnx("%s", msg);
		help_usage(opts->as_progress);
	case OPTIONS_BAD:
		report_errx(1, "%s", msg);
	}
}

unsigned
options_sees(const struct options *opts)
{
	unsigned sees = opts->monitor & MONITOR_OUT && opts->cmd != NULL ?
	    RENDER_SEES_RATIO : 0;

	if (opts->separator == -1)
		return sees;
	return sees | RENDER_SEES_LINE | (opts->last_written != 0 ?
	    RENDER_SEES_LAST : 0);
}

struct report_look
options_look(const struct options *opts)
{
	return (struct report_look){ .name = opts->name,
	    .prefix = opts->prefix, .format = opts->format,
	    .bar_style = opts->bar_style, .unit = opts->byte_unit,
	    .width = opts->width, .numeric = opts->numeric,
	    .json = opts->json, .force = opts->force, .gauge = opts->gauge,
	    .cursor = opts->cursor, .stats = opts->stats,
	    .interval = opts->interval,
	    .average_window = opts->average_window };
}

struct watch_config
options_watch(const struct options *opts)
{
	return (struct watch_config){ .look = options_look(opts),
	    .pids = opts->watch_pids, .npids = opts->nwatch_pids,
	    .names = opts->watch_names, .nnames = opts->nwatch_names,
	    .wait_for = opts->wait_for, .once = opts->once,
	    .pipeline = opts->pipeline, .open = opts->watch_open,
	    .size_file = opts->size_file, .delay = opts->delay };
}

struct query_config
options_query(const struct options *opts)
{
	return (struct query_config){ .look = options_look(opts),
	    .pid = opts->query_pid, .quiet = opts->quiet };
}

struct control_request
options_request(const struct options *opts)
{
	return (struct control_request){ .pid = opts->remote_pid,
	    .rate_limit = opts->rate_limit,
	    .rate_in_bytes = opts->rate_in_bytes,
	    .read_limit = opts->read_limit, .name = opts->name,
	    .prefix = opts->prefix, .interval = opts->interval,
	    .interval_given = opts->interval_given, .width = opts->width,
	    .format = opts->format };
}
