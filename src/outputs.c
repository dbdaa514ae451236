/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The run's outputs (outputs.h): opened before a byte moves, fanned out
 * by the engine's fanout, judged at the end.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "tach/message.h"
#include "tach/outputs.h"
#include "tach/signals.h"
#include "tach/text.h"
#include "tach/writeback.h"

const char *
outputs_an_input(const struct options *opts, const struct stat *st)
{
	struct stat in;
	const char *name;

	for (size_t i = 0; i < (opts->nfiles > 0 ? opts->nfiles : 1); i++) {
		name = opts->nfiles > 0 ? opts->files[i] : "stdin";
		if ((opts->nfiles > 0 ? stat(name, &in) :
		    fstat(STDIN_FILENO, &in)) == 0 && in.st_dev == st->st_dev &&
		    in.st_ino == st->st_ino)
			return name;
	}
	return NULL;
}

int
outputs_open_waiting(const char *path, const char *option)
{
	int fd;

	while ((fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666)) ==
	    -1 && errno == EINTR && signals_fatal() == 0)
		if (signals_take_only(SIGNAL_INFO) != 0)
			report_info("%s %s: waiting for a reader; 0 bytes "
			    "so far", option, text_safe(path));
	if (fd == -1 && signals_fatal() != 0)
		signals_die(signals_fatal());
	return fd;
}

/*
 * An -o opened as the shell's > opens it, except that a file is emptied
 * only once no input is that file itself.
 */
static int
open_output(const struct options *opts, const char *path)
{
	const char *name;
	struct stat out;
	int fd;

	fd = outputs_open_waiting(path, "-o");
	if (fd == -1 || fstat(fd, &out) == -1)
		report_err(1, "-o %s", text_safe(path));
	if (S_ISREG(out.st_mode) &&
	    (name = outputs_an_input(opts, &out)) != NULL)
		report_errx(1, "%s: input file is output file",
		    text_safe(name));
	if (S_ISREG(out.st_mode) && ftruncate(fd, 0) == -1)
		report_err(1, "-o %s", text_safe(path));
	return fd;
}

void
outputs_open(struct outputs *o, const struct options *opts)
{
	const char *path = opts->discard ? "/dev/null" : opts->output;
	char msg[256];
	int fd;

	memset(o, 0, sizeof(*o));
	o->kept_stdout = -1;
	if (opts->hash != NULL &&
	    (o->digest = digest_new(opts->hash, msg, sizeof(msg))) == NULL)
		report_errx(1, "%s", msg);
	/* the shell's stdout, for a later -o -, before a file takes it */
	for (size_t i = 1; i < opts->noutputs && opts->output != NULL; i++)
		if (strcmp(opts->outputs[i], "-") == 0 &&
		    (o->kept_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC,
		    3)) == -1)
			report_err(1, "stdout");
	if (path != NULL) {
		fd = open_output(opts, path);
		if (dup2(fd, STDOUT_FILENO) == -1)
			report_err(1, "-o %s", text_safe(path));
		close(fd);
	}
	/* list[0] is stdout or cmd's pipe, outputs_start's; then the rest */
	o->n = 1;
	for (size_t i = opts->cmd != NULL ? 0 : 1; i < opts->noutputs; i++) {
		struct fanout_output *out = &o->list[o->n++];

		out->name = opts->outputs[i];
		if (strcmp(out->name, "-") == 0) {
			out->name = "stdout";
			out->fd = o->kept_stdout;
		} else
			out->fd = open_output(opts, out->name);
		out->keep_open = writeback_to_reader(out->fd);
	}
}

int
outputs_start(struct outputs *o, const struct options *opts, int out,
    const char *name, size_t bufsize)
{
	int in;

	if (!options_fan(opts))
		return out;
	o->list[0] = (struct fanout_output){ .name = name, .fd = out,
	    .keep_open = opts->cmd == NULL && writeback_to_reader(out) };
	o->fan = fanout_start(&(struct fanout_config){ .outputs = o->list,
	    .n = o->n, .digest = o->digest, .block = opts->output_block,
	    .pad = opts->pad, .zerocopy = !opts->no_splice,
	    .bufsize = bufsize, .lag = opts->buffer,
	    .flush = !opts->no_flush }, &in);
	return in;
}

/*
 * --hash: each digest was made (the library can refuse an update), and
 * each given with ALG:HEX is the stream's; else said so.
 */
static void
check_hashes(struct outputs *o, char *reason, size_t len)
{
	char hex[DIGEST_HEX_MAX];
	const char *alg, *want;

	for (size_t i = 0; i < digest_count(o->digest); i++) {
		alg = digest_hex(o->digest, i, hex);
		want = digest_expected(o->digest, i);
		if (hex[0] == '\0')
			snprintf(reason, len, "--hash %s: the crypto library "
			    "failed to make the digest", alg);
		else if (want != NULL && strcasecmp(want, hex) != 0)
			snprintf(reason, len, "--hash %s: the stream's digest "
			    "is %s, not %s", alg, hex, text_safe(want));
		else
			continue;
		report_warnx("%s", reason);
	}
}

void
outputs_end(struct outputs *o, bool cmd, bool whole, char *reason,
    size_t len)
{
	size_t first = SIZE_MAX;
	const struct fanout_output *out;

	reason[0] = '\0';
	if (o->fan == NULL)
		return;
	(void)fanout_end(o->fan);
	o->ended = true;
	fanout_outputs(o->fan, o->list);
	o->broken = true;
	for (size_t i = 0; i < o->n; i++) {
		out = &o->list[i];
		/* cmd that stopped reading early speaks for itself */
		if (out->error == 0 || (cmd && i == 0 && out->error == EPIPE))
			continue;
		o->failed++;
		o->broken = o->broken && out->error == EPIPE;
		if (first == SIZE_MAX)
			first = i;
		/* one output's failure is the run's, said as it always is */
		if (o->n > 1)
			report_warnx("writing %s: %s (%llu bytes written)",
			    text_safe(out->name), strerror(out->error),
			    (unsigned long long)out->bytes);
	}
	o->broken = o->broken && o->failed == o->n;
	if (first != SIZE_MAX)
		snprintf(reason, len, "writing %s: %s (%llu bytes written)",
		    text_safe(o->list[first].name),
		    strerror(o->list[first].error),
		    (unsigned long long)o->list[first].bytes);
	if (o->digest != NULL && whole && o->failed < o->n)
		check_hashes(o, reason, len);
}

void
outputs_free(struct outputs *o)
{
	if (o->fan != NULL && !o->ended)
		return;		/* its threads may still use it: tach exits */
	fanout_free(o->fan);
	digest_free(o->digest);
	o->fan = NULL;
	o->digest = NULL;
}

void
outputs_print_hashes(struct outputs *o, const char *name)
{
	char hex[DIGEST_HEX_MAX];

	for (size_t i = 0; o->digest != NULL && i < digest_count(o->digest);
	    i++) {
		(void)digest_hex(o->digest, i, hex);
		if (hex[0] != '\0')	/* none made: check_hashes said so */
			report_result("%s  %s", hex, text_safe(name));
	}
}
