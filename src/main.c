/*
 * tach: copy standard input (or each -f file in turn) to standard output,
 * or into a command, while drawing a progress and rate bar on the terminal.
 *
 * Data flow: options -> input (a file, stdin, or a decompressor's output)
 * -> relay (the transfer engine) -> stdout or cmd's stdin, input after
 * input, through one relay and one display.  -d moves nothing: watch
 * samples another process's files instead.  The relay
 * calls display_service() whenever a signal arrived; the display feeds
 * the meter and redraws through the renderer and the terminal layer.
 */
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#include "tach/command.h"
#include "tach/display.h"
#include "tach/input.h"
#include "tach/options.h"
#include "tach/relay.h"
#include "tach/signals.h"
#include "tach/watch.h"

/* Starts cmd reading a pipe; returns the pipe's end that tach writes. */
static int
start_command(const struct options *opts, struct input *in, pid_t *pid)
{
	int fds[2], error;

	command_pipe(fds);
	*pid = command_spawn(opts->cmd, fds[0], -1);
	error = errno;
	close(fds[0]);
	if (*pid == -1) {
		close(fds[1]);
		input_close(in, true);
		command_failed(opts->cmd[0], error);
	}
	return fds[1];
}

static size_t
buffer_size(const struct options *opts, int in, int out)
{
	if (opts->bufsize == 0)
		return relay_default_bufsize(in, out, !opts->no_splice);
	if (opts->bufsize > RELAY_BUFSIZE_MAX)
		return RELAY_BUFSIZE_MAX;
	return (size_t)opts->bufsize;
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

/* The reader went away: die of SIGPIPE, as cat, unless it was ignored. */
static _Noreturn void
broken_pipe(const char *out)
{
	if (!signals_ignored(SIGPIPE))
		signals_die(SIGPIPE);
	errc(1, EPIPE, "writing %s", out);
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
		relay->in = in->fd;
		relay->part = *next - 1;
		*in_name = opts->decompress ? in->decompressor_name : in->name;
		end = relay_run(relay);
		if (relay_reached(relay) ||
		    (end != RELAY_EOF && end != RELAY_READ_ERROR) ||
		    *next >= opts->nfiles)
			return end;
		if (end == RELAY_READ_ERROR) {
			display_aside(display);
			warnc(relay->error, "reading %s", *in_name);
			*failed = true;
		}
		before = in->source != -1 ? input_source_done(in) : 0;
		if (input_close(in, end != RELAY_EOF) != 0)
			*failed = true;
		if (!open_next(in, opts, next, failed))
			/* in is closed; closing it again is harmless */
			return signals_fatal() != 0 ? RELAY_STOPPED : RELAY_EOF;
		in->source_before = before;
		display_reading(display, in->name);
	}
}

/* -E: every range sent as zeros, by offset in its input; false if none. */
static bool
report_skipped(struct relay *r, const struct options *opts)
{
	bool any = r->nskipped > 0;

	for (size_t i = 0; i < r->nskipped; i++)
		warnx("%s: unreadable, sent as zeros: bytes %llu-%llu (%llu)",
		    opts->nfiles > 0 ? opts->files[r->skipped[i].part] :
		    "stdin", (unsigned long long)r->skipped[i].offset,
		    (unsigned long long)(r->skipped[i].offset +
		    r->skipped[i].length - 1),
		    (unsigned long long)r->skipped[i].length);
	relay_free_skipped(r);
	return any;
}

int
main(int argc, char *argv[])
{
	struct options opts;
	struct input in;
	struct display display;
	struct relay relay;
	enum relay_end end;
	pid_t cmd = -1;
	int out = STDOUT_FILENO, cmd_status = 0, source_status;
	const char *in_name, *out_name;
	size_t next = 0;
	bool skipped, failed = false, at_size;

	standard_fds_open();
	setlocale(LC_ALL, "");
	options_get(&opts, argc, argv);
	signals_install();
	if (opts.watch_pid != 0)
		return watch_run(&opts);
	if (!open_next(&in, &opts, &next, &failed)) {
		if (signals_fatal() != 0)
			signals_die(signals_fatal());
		return 1;
	}
	if (opts.nfiles > 1 && opts.size < 0)
		in.size = input_total(&opts, &in.size_known);
	/* a file's length is in bytes; only -l (or -z's position) is lines */
	if (opts.records != -1 && opts.size < 0 && in.source == -1) {
		in.size = 0;
		in.size_known = false;
	}
	if (opts.cmd != NULL)
		out = start_command(&opts, &in, &cmd);
	out_name = cmd != -1 ? opts.cmd[0] : "stdout";
	relay_init(&relay, in.fd, out, buffer_size(&opts, in.fd, out),
	    !opts.no_splice);
	relay.limit = (double)opts.rate_limit;
	if (opts.stop_at_size)
		relay.stop_at = (uint64_t)opts.size;
	relay.skip_errors = opts.skip_errors;
	relay.separator = opts.records;
	if (opts.sync)
		writeback_init(&relay.writeback, out);
	relay.timed = opts.stats;
	relay.service = display_service;
	relay.ctx = &display;
	display_start(&display, &opts, &in, &relay);

	end = copy_inputs(&relay, &in, &opts, &display, &next, &failed,
	    &in_name);
	at_size = relay_reached(&relay);
	relay_free(&relay);

	/* -Y: the run ends when the device has it all */
	if (end == RELAY_EOF && relay.writeback.fd != -1) {
		display_flushing(&display);
		if (writeback_finish(&relay.writeback) == -1) {
			end = RELAY_WRITE_ERROR;
			relay.error = errno;
		}
	}
	/* cmd sees the end of its input; a late write error shows here */
	if (close(out) == -1 && end == RELAY_EOF && errno != EINTR) {
		end = errno == EPIPE ? RELAY_BROKEN_PIPE : RELAY_WRITE_ERROR;
		relay.error = errno;
	}
	/* stopped at -S: what feeds tach is stopped too, not waited for */
	source_status = input_close(&in, end != RELAY_EOF || at_size);
	if (cmd != -1) {
		if (end == RELAY_STOPPED)
			kill(cmd, signals_fatal());
		cmd_status = command_wait(cmd);
	}
	/* complete: tach will exit 0, all moved or cmd content to stop */
	display_finish(&display, end == RELAY_STOPPED ? DISPLAY_INTERRUPTED :
	    (end == RELAY_EOF || (end == RELAY_BROKEN_PIPE && cmd != -1)) &&
	    cmd_status == 0 && source_status == 0 && relay.nskipped == 0 &&
	    !failed ? DISPLAY_COMPLETE : DISPLAY_FAILED);
	skipped = report_skipped(&relay, &opts);
	options_free(&opts);

	switch (end) {
	case RELAY_EOF:
		break;
	case RELAY_STOPPED:
		signals_die(signals_fatal());
	case RELAY_BROKEN_PIPE:
		/* cmd that stopped reading early speaks for itself */
		if (cmd != -1)
			return exit_status(cmd_status);
		broken_pipe(out_name);
	case RELAY_READ_ERROR:
		errc(1, relay.error, "reading %s", in_name);
	case RELAY_WRITE_ERROR:
		errc(1, relay.error, "writing %s", out_name);
	case RELAY_MOVE_ERROR:
		errc(1, relay.error, "splicing %s to %s", in_name, out_name);
	}
	if (signals_fatal() != 0)
		signals_die(signals_fatal());
	if (cmd_status != 0)
		return exit_status(cmd_status);
	if (source_status != 0)
		return exit_status(source_status);
	/* -E: rescued, not whole; several -f: one could not be read */
	return skipped || failed ? 1 : 0;
}
