/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * tach: copy standard input (or each -f file in turn) to standard output,
 * or into a command, while drawing a progress and rate bar on the terminal.
 *
 * Data flow: options -> input (a file, stdin, or a decompressor's output)
 * -> relay (the transfer engine) -> stdout or cmd's stdin, input after
 * input, through one relay and one session (session.c).  -d moves
 * nothing: watch samples another process's files instead.  The relay
 * calls session_service() whenever a signal arrived; the session feeds
 * the meter and hands each state to the reporter, which draws through the
 * renderer and the terminal layer and writes -n, JSON and --stats; it
 * also takes -R's requests from the control socket.  Once the relay is
 * done, ending.c ends the run.  tach -R only sends.  doc/ARCHITECTURE.md
 * has the whole picture.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "tach/command.h"
#include "tach/compat.h"
#include "tach/control.h"
#include "tach/direct.h"
#include "tach/session.h"
#include "tach/ending.h"
#include "tach/input.h"
#include "tach/options.h"
#include "tach/outputs.h"
#include "tach/paths.h"
#include "tach/pidfile.h"
#include "tach/query.h"
#include "tach/relay.h"
#include "tach/render.h"
#include "tach/report.h"
#include "tach/signals.h"
#include "tach/text.h"
#include "tach/watch.h"
#include "tach/writeback.h"

/* -b below RELAY_BUFFER_MIN, or derived: each read's and write's size. */
static size_t
transfer_size(const struct options *opts, int in, int out)
{
	if (opts->transfer == 0)
		return relay_default_bufsize(in, out, !opts->no_splice);
	return opts->transfer;
}

/*
 * -M out, -M both: cmd's output passes through a fanout of tach's own to
 * stdout, counted on the way.  Returns the pipe's end cmd writes, or -1
 * (stdout itself) without -M out.
 */
static int
start_side(const struct options *opts, struct fanout **side)
{
	struct fanout_output out = { .name = "stdout", .fd = STDOUT_FILENO,
	    .keep_open = writeback_to_reader(STDOUT_FILENO) };
	int in;

	*side = NULL;
	if (!(opts->monitor & MONITOR_OUT))
		return -1;
	*side = fanout_start(&(struct fanout_config){ .outputs = &out,
	    .n = 1, .zerocopy = !opts->no_splice, .flush = !opts->no_flush,
	    .bufsize = transfer_size(opts, STDOUT_FILENO, STDOUT_FILENO) },
	    &in);
	return in;
}

/* Starts cmd reading a pipe; returns the pipe's end that tach writes. */
static int
start_command(const struct options *opts, struct input *in, pid_t *pid,
    struct fanout **side)
{
	int fds[2], error, out = start_side(opts, side);

	command_pipe(fds);
	*pid = command_spawn(opts->cmd, fds[0], out);
	error = errno;
	close(fds[0]);
	if (out != -1)
		close(out);
	if (*pid == -1) {
		close(fds[1]);
		input_close(in, true);
		command_failed(opts->cmd[0], error);
	}
	return fds[1];
}

/*
 * -b N%: that share of the memory this process may have (mbuffer's -m
 * 10%), in whole pages; refused where it is no buffer or cannot be held.
 */
static void
buffer_share(struct options *opts)
{
	unsigned long long limit, size;
	long page = sysconf(_SC_PAGESIZE);
	const char *why;
	char have[32];

	if (opts->buffer_percent == 0)
		return;
	limit = compat_memory_limit(&why);
	size = limit / 100 * (unsigned long long)opts->buffer_percent;
	size -= size % (unsigned long long)(page > 0 ? page : 4096);
	render_amount((double)limit, RENDER_BYTES, have, sizeof(have));
	if (size < RELAY_BUFFER_MIN || size > SIZE_MAX)
		report_errx(1, "-b %d%%: %llu bytes of the %s of %s: %s",
		    opts->buffer_percent, size, have, why,
		    size < RELAY_BUFFER_MIN ? "less than a buffer's 4 MiB" :
		    "more than this system can address");
	opts->buffer = (size_t)size;
}

/*
 * -b's buffer in memory (not --buffer-file's) against the memory this
 * process may have: more is refused before a byte moves, rather than
 * the kernel's OOM killer ending the copy halfway; more than half is
 * taken, and said, as mbuffer says it.
 */
static void
buffer_fits(const struct options *opts)
{
	unsigned long long size = opts->buffer, limit;
	/* several outputs: their queues may hold as much again */
	bool twice = opts->noutputs > 1 || (opts->noutputs > 0 &&
	    opts->cmd != NULL);
	const char *why, *what = twice ? " and the outputs' queues" : "";
	char have[32];

	if (opts->buffer == 0)
		return;
	if (opts->buffer_file != NULL)
		size = 0;	/* only the queues are memory */
	if (twice)
		size += opts->buffer;
	limit = compat_memory_limit(&why);
	render_amount((double)limit, RENDER_BYTES, have, sizeof(have));
	if (size > limit)
		report_errx(1, "-b: a buffer%s of %llu bytes: more than the %s "
		    "of %s: a smaller -b, or --buffer-file", what, size, have,
		    why);
	if (size > limit / 2)
		report_warnx("-b: a buffer%s of %llu bytes: more than half the "
		    "%s of %s", what, size, have, why);
}

/*
 * -O: holes are made by moving a regular file's offset past zeros; a
 * file opened to append (>>) writes at its end wherever the offset is.
 */
static void
sparse_output(const char *name)
{
	struct stat sb;
	int flags;

	if (fstat(STDOUT_FILENO, &sb) == -1 ||
	    (flags = fcntl(STDOUT_FILENO, F_GETFL)) == -1)
		report_err(1, "%s", text_safe(name));
	if (!S_ISREG(sb.st_mode))
		report_errx(1, "-O: %s is not a file: no holes can be made "
		    "in it", text_safe(name));
	if (flags & O_APPEND)
		report_errx(1, "-O: %s is open to append (>>): holes need "
		    "an offset to move", text_safe(name));
}

/*
 * --log: FILE as > makes it, its header written, before a byte moves; a
 * file, FIFO or socket that is an input or the output is refused before
 * it is emptied (its rows would be mixed into the data), a terminal or
 * /dev/null shared with them is not.
 */
static FILE *
open_log(const struct options *opts)
{
	struct stat st, out;
	const char *name = NULL;
	FILE *f;
	int fd;

	if (opts->log == NULL)
		return NULL;
	fd = outputs_open_waiting(opts->log, "--log");
	if (fd == -1 || fstat(fd, &st) == -1)
		report_err(1, "--log %s", text_safe(opts->log));
	if (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) ||
	    S_ISSOCK(st.st_mode)) {
		if (fstat(STDOUT_FILENO, &out) == 0 &&
		    out.st_dev == st.st_dev && out.st_ino == st.st_ino)
			name = opts->output != NULL ? opts->output : "stdout";
		else
			name = outputs_an_input(opts, &st);
	}
	if (name != NULL)
		report_errx(1, "--log %s: is %s, which it would corrupt",
		    text_safe(opts->log), text_safe(name));
	if ((S_ISREG(st.st_mode) && ftruncate(fd, 0) == -1) ||
	    (f = fdopen(fd, "w")) == NULL || !report_csv_header(f))
		report_err(1, "--log %s", text_safe(opts->log));
	return f;
}

/*
 * -U's store under its own name while it is made: not left behind.  Only
 * unlinked here, never freed: this runs in a fault's handler too.
 */
static char *store_unfinished;
static volatile sig_atomic_t store_removed;

static void
store_withdraw(void)
{
	if (store_unfinished != NULL && !store_removed)
		(void)unlink(store_unfinished);
	store_removed = 1;
}

/* What tach leaves in the file system goes with it, however it ends. */
static void
withdraw(void)
{
	pidfile_withdraw();
	control_close();
	store_withdraw();
	direct_return();
}

/*
 * Descriptors 0, 1 and 2 open before anything else is, so no file lands on
 * one by chance.  A closed one becomes /dev/null opened the wrong way
 * round, so that using it fails (EBADF) and the message names that side.
 */
static void
standard_fds_open(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF &&
		    open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY) != fd)
			_exit(1);	/* no stderr to say it on */
}

/*
 * Opens the next input that can be read, from opts->files[*next] on (or
 * stdin); false when none is left.  One that cannot is reported and
 * leaves *failed set: cat's rule.
 */
static bool
open_next(struct input *in, const struct options *opts, size_t *next,
    bool *failed)
{
	size_t inputs = opts->nfiles > 0 ? opts->nfiles : 1;

	while (*next < inputs && signals_fatal() == 0) {
		if (input_open(in, opts, opts->nfiles > 0 ?
		    opts->files[*next] : NULL)) {
			(*next)++;
			return true;
		}
		(*next)++;
		*failed = true;
	}
	return false;
}

/*
 * Runs the relay over each input in turn and returns how the last run
 * ended, *in_name naming what it read.  An input that cannot be read is
 * reported, *failed set, and the next one read: cat's rule.
 */
static enum relay_end
copy_inputs(struct relay *relay, struct input *in, const struct options *opts,
    struct session *session, size_t *next, bool *failed, const char **in_name)
{
	enum relay_end end;
	uint64_t before;

	for (;;) {
		relay_next_input(relay, in->fd, *next - 1);
		relay_direct(relay, true, opts->direct && direct_io(in->fd,
		    in->name, in->fd == STDIN_FILENO));
		*in_name = opts->decompress ? in->decompressor_name : in->name;
		end = relay_run(relay);
		if (relay_reached(relay) ||
		    (end != RELAY_EOF && end != RELAY_READ_ERROR) ||
		    *next >= opts->nfiles)
			return end;
		if (end == RELAY_READ_ERROR) {
			report_warnc(relay->error,
			    "reading %s", text_safe(*in_name));
			*failed = true;
		}
		before = in->source != -1 ? input_source_done(in) : 0;
		if (input_close(in, end != RELAY_EOF) != 0)
			*failed = true;
		/*
		 * None left to open: every input was read, or said why it
		 * could not be (*failed).  in is closed; closing it again is
		 * harmless.
		 */
		if (!open_next(in, opts, next, failed))
			return signals_fatal() != 0 ? RELAY_STOPPED : RELAY_EOF;
		in->source_before = before;
		session_reading(session, in->name);
	}
}

/* The length to show: several -f sum theirs; line mode counts only -l. */
static void
input_sizes(struct input *in, const struct options *opts)
{
	if (opts->nfiles > 1 && opts->size < 0)
		in->size = input_total(opts, &in->size_known);
	/* a file's length is in bytes; only -l (or -z's position) is lines */
	if (opts->separator != -1 && opts->size < 0 && in->source == -1) {
		in->size = 0;
		in->size_known = false;
	}
}

/* The relay from the options: buffer, -L, -S, -E, line mode, -Y, --stats. */
static void
relay_setup(struct relay *r, const struct options *opts, int in, int out,
    struct session *session)
{
	relay_init(r, in, out, &(struct relay_config){
	    .bufsize = transfer_size(opts, in, out),
	    .buffer = opts->buffer,
	    .buffer_file = opts->buffer_file,
	    .write_at = opts->write_at,
	    .read_at = opts->read_at,
	    .read_limit = (double)opts->read_limit,
	    .zerocopy = !opts->no_splice,
	    .stop_at = opts->stop_at_size ? (uint64_t)opts->size : 0,
	    .lines = opts->separator != -1,
	    .separator = (unsigned char)opts->separator,
	    .skip_errors = opts->skip_errors,
	    .sync = opts->sync,
	    .timed = opts->stats,
	    .limit = (double)opts->rate_limit,
	    .limit_in_bytes = opts->rate_in_bytes,
	    .stall_timeout = opts->stall_timeout,
	    .sparse = opts->sparse,
	    .direct = opts->direct,
	    .last_written = opts->last_written,
	    .previous_line = opts->separator != -1,
	    .service = session_service,
	    .ctx = session });
}

/* -U's storing takes the input as it comes: -L, -Y and -b are the sending's. */
static struct options
store_options(const struct options *opts)
{
	struct options o = *opts;

	o.rate_limit = o.read_limit = 0;
	o.sync = o.sparse = false;	/* tach's own file, read whole */
	o.buffer_file = NULL;
	o.write_at = 0;
	o.read_at = 100;
	o.buffer = 0;
	if (o.name == NULL)
		o.name = "storing";
	return o;
}

/*
 * -U: every input into the store first, drawn as a run of its own (named
 * "storing" unless -N names it) that takes the input as it comes: -L, -Y
 * and a buffer are the sending's.  Then the store is the one input, its
 * size known, and what it holds is sent as it is (-z has decompressed
 * it).  A store that fails ends tach, saying why, and is removed.
 */
static void
store_inputs(struct options *opts, struct input *in, size_t *next,
    struct run *run, FILE *log)
{
	struct options o = store_options(opts);
	struct session session;
	struct relay relay;
	struct run stored = { .cmd = -1 };
	enum session_outcome outcome;
	char why[4 * PATH_MAX + 256];
	const char *reason = NULL;
	uint64_t size;
	int status;

	stored.out = input_store(opts->store, &store_unfinished);
	stored.out_name = "-U's file";
	if (store_unfinished != NULL) {
		stored.out_name = opts->store;
		atexit(store_withdraw);
	}
	relay_setup(&relay, &o, in->fd, stored.out, &session);
	session_start(&session, &o, in, &relay, NULL);
	session.storing = true;
	session_log(&session, log, o.log, false);
	stored.end = copy_inputs(&relay, in, &o, &session, next, &run->failed,
	    &stored.in_name);
	direct_return();
	ending_relay(&stored, &relay);
	/* an input's last hole is the store's length too */
	if (ending_complete(&stored) && relay_sparse_end(&relay) == -1) {
		stored.end = RELAY_WRITE_ERROR;
		stored.error = errno;
	}
	size = o.separator != -1 ? relay.records : relay.bytes;
	relay_free(&relay);
	stored.source_status = input_close(in, stored.end != RELAY_EOF ||
	    stored.at_size);
	/* an -f that could not be read has said so; the rest goes on */
	outcome = ending_outcome(&stored, &relay);
	if (outcome == SESSION_FAILED)
		reason = ending_reason(&stored, &relay, why, sizeof(why));
	session_finish(&session, outcome, reason);
	run->log_failed = session.log_failed;
	if (outcome != SESSION_COMPLETE) {
		store_withdraw();
		status = ending_exit(&stored, false, reason);
		exit(status != 0 ? status : 1);
	}
	if (store_unfinished != NULL) {
		char *made = store_unfinished;

		/* whole: from here on the user's, at the name asked for */
		store_unfinished = NULL;
		input_store_kept(made, opts->store);
		free(made);
	}
	input_stored(in, stored.out, stored.out_name, size);
	opts->decompress = false;
}

/* The copy: the output and inputs opened, the bytes moved, the ends. */
static int
copy_run(struct options *opts)
{
	struct input in;
	struct session session;
	struct relay relay;
	struct run run = { .cmd = -1, .out = STDOUT_FILENO };
	size_t next = 0;
	FILE *log;

	outputs_open(&run.outputs, opts);
	if (opts->sparse)
		sparse_output(opts->output != NULL ? opts->output : "stdout");
	log = open_log(opts);
	if (!open_next(&in, opts, &next, &run.failed)) {
		if (signals_fatal() != 0)
			signals_die(signals_fatal());
		return 1;
	}
	input_sizes(&in, opts);
	if (opts->store != NULL)
		store_inputs(opts, &in, &next, &run, log);
	run.out_name = opts->output != NULL ? opts->output : "stdout";
	if (opts->cmd != NULL) {
		run.out = start_command(opts, &in, &run.cmd, &run.side);
		run.out_name = opts->cmd[0];
	}
	run.out = outputs_start(&run.outputs, opts, run.out, run.out_name,
	    transfer_size(opts, in.fd, run.out));
	run.disk = !opts->no_flush && writeback_is_disk(run.out);
	relay_setup(&relay, opts, in.fd, run.out, &session);
	relay_direct(&relay, false, opts->direct && direct_io(run.out,
	    run.out_name, run.out == STDOUT_FILENO && opts->output == NULL));
	session_start(&session, opts, &in, &relay, run.side);
	session_outputs(&session, run.outputs.fan, run.outputs.digest);
	session_log(&session, log, opts->log, run.log_failed);
	run.end = copy_inputs(&relay, &in, opts, &session, &next, &run.failed,
	    &run.in_name);
	direct_return();	/* before stdin and stdout are closed */
	ending_relay(&run, &relay);
	/* nothing is left to change: a late -R says so at once */
	control_close();
	relay_free(&relay);
	return ending_run(&run, &relay, &session, opts, &in, log);
}

int
main(int argc, char *argv[])
{
	struct options opts;
	struct control_request request;
	struct query_config query;
	struct watch_config watch;
	int status;

	/*
	 * The handlers first: a SIGUSR1 sent as tach starts (tach(1) calls
	 * it safe) must not find the default action, which kills
	 */
	signals_install();
	standard_fds_open();
	compat_title_init(argc, argv);
	setlocale(LC_ALL, "");
	/* numbers (-i 0.5, JSON, --stats) in one form, whatever the locale */
	setlocale(LC_NUMERIC, "C");
	options_get(&opts, argc, argv);
	if (opts.remote_pid != 0) {
		request = options_request(&opts);
		return control_send(&request);
	}
	if (opts.query_pid != 0) {
		query = options_query(&opts);
		return query_run(&query);
	}
	signals_at_death(withdraw);
	/* nothing is made, replaced or removed before this */
	paths_check(&opts);
	buffer_share(&opts);
	buffer_fits(&opts);
	/* progress(1) leaves nothing in /tmp; tach's -R finds tach */
	if (!opts.as_progress && !opts.watching)
		control_listen(opts.buffer > 0, options_sees(&opts));
	/* once the file is there, -R with its PID is heard */
	if (opts.pidfile != NULL)
		pidfile_publish(opts.pidfile);
	if (opts.watching) {
		watch = options_watch(&opts);
		status = watch_run(&watch);
	} else
		status = copy_run(&opts);
	options_free(&opts);
	return status;
}
