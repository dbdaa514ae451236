/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * tach: copy standard input (or each -f file in turn) to standard output,
 * or into a command, while drawing a progress and rate bar on the terminal.
 *
 * Data flow: options -> input (a file, stdin, or a decompressor's output)
 * -> relay (the transfer engine) -> stdout or cmd's stdin, input after
 * input, through one relay and one display.  -d moves nothing: watch
 * samples another process's files instead.  The relay calls
 * display_service() whenever a signal arrived; the display feeds the
 * meter and hands each state to the reporter, which draws through the
 * renderer and the terminal layer and writes -n, JSON and --stats; it
 * also takes -R's requests from the control socket.  tach -R only sends.
 * doc/ARCHITECTURE.md has the whole picture.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "tach/clock.h"
#include "tach/command.h"
#include "tach/compat.h"
#include "tach/control.h"
#include "tach/cursor.h"
#include "tach/display.h"
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
 * -K on an inherited stdin (0) or stdout (1): tach reads or writes its
 * own description of the file, opened anew, and keeps the shell's here,
 * untouched (O_DIRECT on a shared description would fail every write of
 * whoever else holds it, stderr among them), to put it back at the end.
 */
static int direct_saved[2] = { -1, -1 };

/* Async-signal-safe: withdraw runs it in a fault's handler too. */
static void
direct_return(void)
{
	off_t at;

	for (int fd = STDIN_FILENO; fd <= STDOUT_FILENO; fd++) {
		if (direct_saved[fd] == -1)
			continue;
		at = lseek(fd, 0, SEEK_CUR);
		(void)dup2(direct_saved[fd], fd);
		/* the next read or write goes on from where tach stopped */
		if (at != -1)
			(void)lseek(fd, at, SEEK_SET);
		close(direct_saved[fd]);
		direct_saved[fd] = -1;
	}
}

/* fd, inherited, becomes a description of tach's own; false if not. */
static bool
direct_own(int fd, const struct stat *sb, const char *name)
{
	struct stat err;
	int flags, own, saved;
	off_t at;

	/*
	 * >f 2>&1: stderr's writes would land at its own offset, over the
	 * data; and a warning would be in the data too: the cache, quietly
	 */
	if (fd == STDOUT_FILENO && fstat(STDERR_FILENO, &err) == 0 &&
	    err.st_dev == sb->st_dev && err.st_ino == sb->st_ino)
		return false;
	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    (own = compat_reopen(fd, flags & (O_ACCMODE | O_APPEND))) == -1) {
		report_warnx("-K: %s: no description of its own to read or "
		    "write past the cache (%s): through the page cache",
		    text_safe(name), strerror(errno));
		return false;
	}
	if ((at = lseek(fd, 0, SEEK_CUR)) == -1 ||
	    lseek(own, at, SEEK_SET) == -1 ||
	    (saved = fcntl(fd, F_DUPFD_CLOEXEC, 3)) == -1 ||
	    dup2(own, fd) == -1)
		report_err(1, "-K: %s", text_safe(name));
	close(own);
	if (direct_saved[0] == -1 && direct_saved[1] == -1)
		atexit(direct_return);
	direct_saved[fd] = saved;
	return true;
}

/*
 * -K: fd past the page cache, if it is a file or a disk (a pipe or a
 * terminal has no cache to pass); where the system refuses, the copy
 * goes through the cache, saying so.  A standard input or output tach
 * was given (inherited) is shared with the shell: see direct_own.
 */
static bool
direct_io(int fd, const char *name, bool inherited)
{
	struct stat sb;

	if (fstat(fd, &sb) == -1 ||
	    !(S_ISREG(sb.st_mode) || S_ISBLK(sb.st_mode)))
		return false;
	if (inherited && !direct_own(fd, &sb, name))
		return false;
	if (compat_direct(fd, true) == -1) {
		report_warnx("-K: %s: no direct I/O here (%s): through the "
		    "page cache", text_safe(name), strerror(errno));
		return false;
	}
	return true;
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

/* A child's death by signal N becomes tach's, so the shell sees 128+N. */
static int
exit_status(int status)
{
	if (WIFSIGNALED(status))
		signals_die(WTERMSIG(status));
	return WEXITSTATUS(status);
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
 * The reader went away: die of SIGPIPE, as cat does, unless it was
 * ignored; reason says so, with a buffer's bytes that were read and not
 * delivered, which are said either way.
 */
static _Noreturn void
broken_pipe(const char *reason, bool lost)
{
	if (!signals_ignored(SIGPIPE)) {
		if (lost)
			report_warnx("%s", reason);
		signals_die(SIGPIPE);
	}
	report_errx(1, "%s", reason);
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
    struct display *display, size_t *next, bool *failed, const char **in_name)
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
		display_reading(display, in->name);
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

/* -E: every range sent as zeros, by offset in its input; false if none. */
static bool
report_skipped(struct relay *r, const struct options *opts)
{
	bool any = r->nskipped > 0;

	for (size_t i = 0; i < r->nskipped; i++) {
		const struct relay_skip *s = &r->skipped[i];

		report_warnx("%s: unreadable, sent as zeros: bytes "
		    "%llu-%llu (%llu)", text_safe(opts->nfiles > 0 ?
		    opts->files[s->part] : "stdin"),
		    (unsigned long long)s->offset,
		    (unsigned long long)(s->offset + s->length - 1),
		    (unsigned long long)s->length);
	}
	if (any)
		report_warnx("rescued %llu of %llu bytes; %llu unreadable, "
		    "sent as zeros", (unsigned long long)(r->bytes - r->lost),
		    (unsigned long long)r->bytes, (unsigned long long)r->lost);
	relay_free_skipped(r);
	return any;
}

/* What the run did, for its outcome and tach's exit. */
struct run {
	enum relay_end	 end;
	pid_t		 cmd;		/* or -1 */
	int		 out;		/* stdout, or the pipe to cmd */
	const char	*in_name;
	const char	*out_name;
	int		 error;		/* the errno of a failed end */
	int		 cmd_status;
	int		 source_status;	/* -z's decompressor, or 0 */
	bool		 failed;	/* several -f: one could not be read */
	bool		 log_failed;	/* -U's store found the log failed */
	bool		 at_size;	/* -S: stopped at the size */
	struct outputs	 outputs;	/* several -o, --hash */
	struct fanout	*side;		/* -M out, both: cmd's output, or NULL */
	/*
	 * What the output that ended the run took, and what was read and not
	 * delivered to it: the relay's counts, or the fanout's output's
	 */
	uint64_t	 delivered;
	uint64_t	 held;
	bool		 disk;		/* out is a disk, flushed at the end */
	/* an output of several failed, or a digest did not match: why */
	char		 outputs_failed[2 * PATH_MAX + 128];
};

/* The relay from the options: buffer, -L, -S, -E, line mode, -Y, --stats. */
static void
relay_setup(struct relay *r, const struct options *opts, int in, int out,
    struct display *display)
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
	    .service = display_service,
	    .ctx = display });
}

/* The relay is done: what it says of its end, for the run's. */
static void
relay_ended(struct run *run, const struct relay *r)
{
	run->at_size = relay_reached(r);
	run->error = r->error;
	run->delivered = r->bytes;
	run->held = r->undelivered;
}

/* All that was asked for was written: the input's end, or -S's size. */
static bool
complete_run(const struct run *run)
{
	return run->end == RELAY_EOF || run->end == RELAY_AT_SIZE;
}

/* The fanout's output that ends the run took bytes: the counts said. */
static void
taken_by(struct run *run, uint64_t bytes)
{
	run->held += run->delivered - bytes;
	run->delivered = bytes;
}

/*
 * The relay saw only the fanout's pipe: a stall is the output still
 * taking that has taken the least, named with its count; of several,
 * each other one's count is said too, as tach ends now.
 */
static void
stalled_output(struct run *run, struct outputs *o)
{
	const struct fanout_output *least = NULL;

	fanout_outputs(o->fan, o->list);
	for (size_t i = 0; i < o->n; i++)
		if (o->list[i].error == 0 && (least == NULL ||
		    o->list[i].bytes < least->bytes))
			least = &o->list[i];
	if (least == NULL)
		least = &o->list[0];
	for (size_t i = 0; i < o->n && o->n > 1; i++)
		if (&o->list[i] != least)
			report_warnx("%s: %llu bytes written",
			    text_safe(o->list[i].name),
			    (unsigned long long)o->list[i].bytes);
	run->out_name = least->name;
	taken_by(run, least->bytes);
}

/*
 * The relay is done, the fanout's outputs may not be (a buffer's queues,
 * a slow disk, a disk's last flush): drawn as the copy is, a signal
 * stops it, and with --stall-timeout an output that takes nothing is the
 * copy's stall, though not a disk in its flush, which takes nothing new.
 * True once every output has taken what is left.
 */
static bool
drain_outputs(struct run *run, struct relay *r, struct display *display)
{
	struct fanout *f = run->outputs.fan;
	uint64_t seen = 0, taken;
	double since = clock_now();
	bool flushing;

	while (!fanout_drained(f, 0.1)) {
		if (!display_service(display)) {
			run->end = RELAY_STOPPED;
			return false;
		}
		if ((flushing = fanout_flushing(f)) && !display->flushing)
			display_flushing(display);
		if ((taken = fanout_taken(f)) != seen || flushing) {
			seen = taken;
			since = clock_now();
		} else if (r->stall_timeout > 0 &&
		    clock_now() - since >= r->stall_timeout) {
			r->stalled_side = RELAY_OUTPUT;
			run->end = RELAY_STALLED;
			return false;
		}
	}
	return true;
}

/*
 * The fanout's outputs, once the relay's pipe to them is closed.  One
 * output fails as the relay's own would; of several, a failure is named
 * and the others go on, and all failing ends the run as a write error.
 */
static void
end_outputs(struct run *run, struct relay *r, struct display *display)
{
	struct outputs *o = &run->outputs;
	const struct fanout_output *first = NULL;

	if (o->fan == NULL)
		return;
	/* a signal or a stall ends tach now: no output is waited for */
	if (run->end != RELAY_STOPPED && run->end != RELAY_STALLED)
		(void)drain_outputs(run, r, display);
	if (run->end == RELAY_STALLED && r->stalled_side == RELAY_OUTPUT)
		stalled_output(run, o);
	if (run->end == RELAY_STOPPED || run->end == RELAY_STALLED)
		return;
	outputs_end(o, run->cmd != -1, complete_run(run),
	    run->outputs_failed, sizeof(run->outputs_failed));
	/*
	 * The relay's own write into the fanout's pipe failed (not EPIPE:
	 * the outputs all gone): that is the run's error, named as the pipe
	 */
	if (run->end == RELAY_WRITE_ERROR) {
		if (o->n == 1 && run->outputs_failed[0] != '\0')
			report_warnx("%s", run->outputs_failed);
		run->outputs_failed[0] = '\0';
		run->out_name = "the outputs' pipe";
		return;
	}
	for (size_t i = 0; i < o->n && first == NULL; i++)
		if (o->list[i].error != 0)
			first = &o->list[i];
	if (first == NULL)
		return;
	if (o->n == 1) {
		run->end = o->broken ? RELAY_BROKEN_PIPE : RELAY_WRITE_ERROR;
		run->error = first->error;
		run->out_name = first->name;
		taken_by(run, first->bytes);
		run->outputs_failed[0] = '\0';
		return;
	}
	/* none left to take the stream: each has been named already */
	if (o->failed == o->n || run->end == RELAY_BROKEN_PIPE) {
		if (complete_run(run) || run->end == RELAY_BROKEN_PIPE)
			run->end = RELAY_WRITE_ERROR;
		run->error = first->error;
		snprintf(run->outputs_failed, sizeof(run->outputs_failed),
		    "every output failed");
	}
}

/*
 * The last flush, -Y's or a disk's: drawn as it goes, a signal stops the
 * wait (the flush goes on in the kernel), a failure is a write error.
 */
static void
last_flush(struct run *run, struct display *display)
{
	struct writeback_flush *f = writeback_flush(run->out);
	int error;

	display_flushing(display);
	while (!writeback_flushed(f, 0.1, &error))
		if (!display_service(display)) {
			run->end = RELAY_STOPPED;
			return;
		}
	if (error != 0) {
		run->end = RELAY_WRITE_ERROR;
		run->error = error;
	}
}

/*
 * The output's end: the last flush, -Y's or a disk's unless --no-flush
 * (the run ends when the device has it all: a stick can be pulled), then
 * the close that shows cmd its end of input and may show a late write
 * error.
 */
static void
end_output(struct run *run, struct relay *r, struct display *display)
{
	if (complete_run(run) && relay_sparse_end(r) == -1) {
		run->end = RELAY_WRITE_ERROR;
		run->error = errno;
	}
	if (complete_run(run) && (r->writeback.fd != -1 || run->disk))
		last_flush(run, display);
	/* cmd's output at its end of input starts on a clean line */
	if (run->cmd != -1)
		display_clear(display);
	display_output_ends(display);
	/*
	 * A reader downstream (wc, dd) sees its end of input when tach
	 * exits, after the last frame: what it prints then is never drawn
	 * over.  Only a file's close can show a late write error.  (cmd,
	 * or the fanout, needs its end of input now.)
	 */
	if ((run->cmd != -1 || run->outputs.fan != NULL ||
	    !writeback_to_reader(run->out)) &&
	    close(run->out) == -1 && complete_run(run) && errno != EINTR) {
		run->end = errno == EPIPE ? RELAY_BROKEN_PIPE : RELAY_WRITE_ERROR;
		run->error = errno;
	}
	end_outputs(run, r, display);
}

/*
 * -M out, -M both: cmd's output, until cmd closes it (xz writes its last
 * blocks long after its input ended), drawn as the copy is; a signal
 * ends the wait, and cmd.  A stdout that failed is tach's write error,
 * unless its reader left: that cut cmd off, as in a pipeline, and cmd's
 * status tells it.  True once the side's threads are done.
 */
static bool
end_side(struct run *run, struct display *display)
{
	struct fanout_output out;

	if (run->side == NULL || run->end == RELAY_STOPPED)
		return false;
	while (!fanout_drained(run->side, 0.1))
		if (!display_service(display)) {
			run->end = RELAY_STOPPED;
			kill(run->cmd, signals_fatal());
			return false;
		}
	(void)fanout_end(run->side);
	fanout_outputs(run->side, &out);
	/* cmd cut off by it, tach's write to cmd may have broken too */
	if (out.error != 0 && out.error != EPIPE &&
	    (complete_run(run) || run->end == RELAY_BROKEN_PIPE)) {
		run->end = RELAY_WRITE_ERROR;
		run->error = out.error;
		run->out_name = out.name;
	}
	return true;
}

/*
 * A copy cut short is told to cmd before its input is closed, so that cmd
 * does not take its end of input for a finish.  A terminating signal under
 * the name tach is passed on, so that kill(1) on tach ends the job as ^C
 * ends the whole process group; under the name progress, cmd sees only
 * its end of input and finishes, as with progress(1).  A stalled cmd
 * would never finish: it is ended, as timeout(1) does.
 */
static void
end_command(const struct run *run, bool as_progress)
{
	if (run->cmd != -1 && run->end == RELAY_STOPPED && !as_progress)
		kill(run->cmd, signals_fatal());
	if (run->cmd != -1 && run->end == RELAY_STALLED)
		kill(run->cmd, SIGTERM);
}

/*
 * cmd's end after a terminating signal: it is waited for, and a second
 * signal is passed on, for a cmd that would not finish.
 */
static int
wait_stopped_command(pid_t cmd)
{
	pid_t ended;
	int status;

	(void)signals_take();
	/* a signal between the test and the sleep wakes it: none is missed */
	while ((ended = waitpid(cmd, &status, WNOHANG)) != cmd) {
		if (ended == -1 && errno != EINTR)
			report_err(1, "waitpid");
		if (ended == 0 && signals_wait() & SIGNAL_TERMINATE)
			kill(cmd, signals_fatal());
	}
	return status;
}

/* The children's ends: stopped at -S, what feeds tach is stopped too. */
static void
end_children(struct run *run, struct input *in)
{
	run->source_status = input_close(in, run->end != RELAY_EOF ||
	    run->at_size);
	if (run->cmd != -1)
		run->cmd_status = run->end == RELAY_STOPPED ?
		    wait_stopped_command(run->cmd) :
		    command_wait(run->cmd);
}

/* Complete: tach will exit 0, all moved or cmd content to stop early. */
static enum display_outcome
outcome_of(const struct run *run, const struct relay *r)
{
	bool moved = complete_run(run) ||
	    (run->end == RELAY_BROKEN_PIPE && run->cmd != -1);

	if (run->end == RELAY_STOPPED)
		return DISPLAY_INTERRUPTED;
	if (moved && run->cmd_status == 0 && run->source_status == 0 &&
	    r->nskipped == 0 && !run->failed && run->outputs_failed[0] == '\0')
		return DISPLAY_COMPLETE;
	return DISPLAY_FAILED;
}

/*
 * A failed output's message: what it took, and what was read and not
 * delivered to it (held in -b's buffer or the fanout's pipe).
 */
static const char *
undelivered(char *buf, size_t len, const struct run *run)
{
	size_t used = strlen(buf);

	if (run->held > 0 && used < len)
		snprintf(buf + used, len - used, " (%llu bytes delivered; "
		    "%llu read and not delivered)",
		    (unsigned long long)run->delivered,
		    (unsigned long long)run->held);
	return buf;
}

/*
 * Why a run that did not complete failed, as its message words it, for
 * JSON's closing object: the relay's error, -E's loss, cmd's status, or
 * else the latest message (an input that could not be read, -z's
 * decompressor); NULL if none is known.
 */
static const char *
reason_of(const struct run *run, const struct relay *r, char *buf,
    size_t len)
{
	if (run->outputs_failed[0] != '\0' && run->end != RELAY_READ_ERROR)
		return run->outputs_failed;
	switch (run->end) {
	case RELAY_READ_ERROR:
		snprintf(buf, len, "reading %s: %s", text_safe(run->in_name),
		    strerror(run->error));
		return buf;
	case RELAY_WRITE_ERROR:
		snprintf(buf, len, "writing %s: %s", text_safe(run->out_name),
		    strerror(run->error));
		return undelivered(buf, len, run);
	case RELAY_MOVE_ERROR:
		snprintf(buf, len, "splicing %s to %s: %s",
		    text_safe(run->in_name), text_safe(run->out_name),
		    strerror(run->error));
		return buf;
	case RELAY_STALLED:
		if (r->stalled_side == RELAY_OUTPUT)
			snprintf(buf, len, "writing %s: stalled, nothing taken "
			    "for %g s", text_safe(run->out_name),
			    r->stall_timeout);
		else
			snprintf(buf, len, "reading %s: stalled, nothing came "
			    "for %g s", text_safe(run->in_name),
			    r->stall_timeout);
		return undelivered(buf, len, run);
	case RELAY_BROKEN_PIPE:
		if (run->cmd != -1)
			break;
		snprintf(buf, len, "writing %s: %s", text_safe(run->out_name),
		    strerror(EPIPE));
		return undelivered(buf, len, run);
	default:
		break;
	}
	if (r->nskipped > 0) {
		snprintf(buf, len, "%llu bytes unreadable, sent as zeros",
		    (unsigned long long)r->lost);
		return buf;
	}
	if (run->cmd != -1 && WIFSIGNALED(run->cmd_status)) {
		snprintf(buf, len, "%s: %s", text_safe(run->out_name),
		    strsignal(WTERMSIG(run->cmd_status)));
		return buf;
	}
	if (run->cmd != -1 && WEXITSTATUS(run->cmd_status) != 0) {
		snprintf(buf, len, "%s exited with status %d",
		    text_safe(run->out_name), WEXITSTATUS(run->cmd_status));
		return buf;
	}
	return report_latest_message();
}

/*
 * tach's exit: the relay's error named (reason, as reason_of words it),
 * or a child's status, or 0 or 1.
 */
static int
exit_of(const struct run *run, bool skipped, const char *reason)
{
	switch (run->end) {
	case RELAY_EOF:
	case RELAY_AT_SIZE:
		break;
	case RELAY_STOPPED:
		signals_die(signals_fatal());
	case RELAY_BROKEN_PIPE:
		/* cmd that stopped reading early speaks for itself */
		if (run->cmd != -1)
			return exit_status(run->cmd_status);
		broken_pipe(reason, run->held > 0);
	case RELAY_READ_ERROR:
	case RELAY_WRITE_ERROR:
	case RELAY_MOVE_ERROR:
	case RELAY_STALLED:
		report_errx(1, "%s", reason);
	}
	if (signals_fatal() != 0)
		signals_die(signals_fatal());
	if (run->cmd_status != 0)
		return exit_status(run->cmd_status);
	if (run->source_status != 0)
		return exit_status(run->source_status);
	/*
	 * -E: rescued, not whole; several -f: one could not be read; of
	 * several outputs, one failed; --hash: not the digest given
	 */
	return skipped || run->failed || run->outputs_failed[0] != '\0' ?
	    1 : 0;
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
	struct display display;
	struct relay relay;
	struct run stored = { .cmd = -1 };
	enum display_outcome outcome;
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
	relay_setup(&relay, &o, in->fd, stored.out, &display);
	display_start(&display, &o, in, &relay, NULL);
	display.storing = true;
	display_log(&display, log, o.log, false);
	stored.end = copy_inputs(&relay, in, &o, &display, next, &run->failed,
	    &stored.in_name);
	direct_return();
	relay_ended(&stored, &relay);
	/* an input's last hole is the store's length too */
	if (complete_run(&stored) && relay_sparse_end(&relay) == -1) {
		stored.end = RELAY_WRITE_ERROR;
		stored.error = errno;
	}
	size = o.separator != -1 ? relay.records : relay.bytes;
	relay_free(&relay);
	stored.source_status = input_close(in, stored.end != RELAY_EOF ||
	    stored.at_size);
	/* an -f that could not be read has said so; the rest goes on */
	outcome = outcome_of(&stored, &relay);
	if (outcome == DISPLAY_FAILED)
		reason = reason_of(&stored, &relay, why, sizeof(why));
	display_finish(&display, outcome, reason);
	run->log_failed = display.log_failed;
	if (outcome != DISPLAY_COMPLETE) {
		store_withdraw();
		status = exit_of(&stored, false, reason);
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

/* After the copy: each end in its order, the closing line, the status. */
static int
end_run(struct run *run, struct relay *relay, struct display *display,
    const struct options *opts, struct input *in, FILE *log)
{
	enum display_outcome outcome;
	char why[4 * PATH_MAX + 256];
	const char *reason;
	bool skipped, whole, side_ended;
	int status;

	end_command(run, opts->as_progress);
	end_output(run, relay, display);
	side_ended = end_side(run, display);
	end_children(run, in);
	outcome = outcome_of(run, relay);
	reason = outcome == DISPLAY_FAILED ? reason_of(run, relay, why,
	    sizeof(why)) : NULL;
	/* the digest of a stream cut short would name no file's */
	whole = complete_run(run) && run->outputs.failed < run->outputs.n;
	if (!whole)
		display->digest = NULL;
	display_finish(display, outcome, reason);
	if (whole && !opts->json)
		outputs_print_hashes(&run->outputs, opts->nfiles == 1 ?
		    opts->files[0] : "-");
	outputs_free(&run->outputs);
	if (side_ended)
		fanout_free(run->side);
	skipped = report_skipped(relay, opts);
	status = exit_of(run, skipped, reason);
	/* the log is output asked for: one that failed fails the run */
	if (log != NULL && fclose(log) == EOF && !display->log_failed) {
		report_warn("--log %s", text_safe(opts->log));
		display->log_failed = true;
	}
	return status == 0 && display->log_failed ? 1 : status;
}

/* The copy: the output and inputs opened, the bytes moved, the ends. */
static int
copy_run(struct options *opts)
{
	struct input in;
	struct display display;
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
	relay_setup(&relay, opts, in.fd, run.out, &display);
	relay_direct(&relay, false, opts->direct && direct_io(run.out,
	    run.out_name, run.out == STDOUT_FILENO && opts->output == NULL));
	display_start(&display, opts, &in, &relay, run.side);
	display_outputs(&display, run.outputs.fan, run.outputs.digest);
	display_log(&display, log, opts->log, run.log_failed);
	run.end = copy_inputs(&relay, &in, opts, &display, &next, &run.failed,
	    &run.in_name);
	direct_return();	/* before stdin and stdout are closed */
	relay_ended(&run, &relay);
	/* nothing is left to change: a late -R says so at once */
	control_close();
	relay_free(&relay);
	return end_run(&run, &relay, &display, opts, &in, log);
}

int
main(int argc, char *argv[])
{
	struct options opts;
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
	if (opts.remote_pid != 0)
		return control_send(&opts);
	if (opts.query_pid != 0)
		return query_run(&opts);
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
	status = opts.watching ? watch_run(&opts) : copy_run(&opts);
	options_free(&opts);
	return status;
}
