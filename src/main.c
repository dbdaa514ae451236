/*
 * tach: copy standard input (or -f file) to standard output, or into a
 * command, while drawing a progress and rate bar on the terminal.
 *
 * Data flow: options -> input (a file, stdin, or a decompressor's output)
 * -> relay (the transfer engine) -> stdout or cmd's stdin.  The relay
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

/* -E: every range sent as zeros, by offset in the input; false if none. */
static bool
report_skipped(struct relay *r, const char *name)
{
	bool any = r->nskipped > 0;

	for (size_t i = 0; i < r->nskipped; i++)
		warnx("%s: unreadable, sent as zeros: bytes %llu-%llu (%llu)",
		    name, (unsigned long long)r->skipped[i].offset,
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
	bool skipped;

	standard_fds_open();
	setlocale(LC_ALL, "");
	options_get(&opts, argc, argv);
	signals_install();
	input_open(&in, &opts);
	if (opts.cmd != NULL)
		out = start_command(&opts, &in, &cmd);
	/* what the relay reads and writes, as messages name them */
	in_name = opts.decompress ? in.decompressor_name : in.name;
	out_name = cmd != -1 ? opts.cmd[0] : "stdout";
	relay_init(&relay, in.fd, out, buffer_size(&opts, in.fd, out),
	    !opts.no_splice);
	relay.limit = (double)opts.rate_limit;
	if (opts.stop_at_size)
		relay.stop_at = (uint64_t)opts.size;
	relay.skip_errors = opts.skip_errors;
	relay.timed = opts.stats;
	relay.service = display_service;
	relay.ctx = &display;
	display_start(&display, &opts, &in, &relay);

	end = relay_run(&relay);
	relay_free(&relay);

	/* cmd sees the end of its input; a late write error shows here */
	if (close(out) == -1 && end == RELAY_EOF && errno != EINTR) {
		end = errno == EPIPE ? RELAY_BROKEN_PIPE : RELAY_WRITE_ERROR;
		relay.error = errno;
	}
	/* stopped at -S: what feeds tach is stopped too, not waited for */
	source_status = input_close(&in, end != RELAY_EOF ||
	    (relay.stop_at > 0 && relay.bytes >= relay.stop_at));
	if (cmd != -1) {
		if (end == RELAY_STOPPED)
			kill(cmd, signals_fatal());
		cmd_status = command_wait(cmd);
	}
	/* complete: tach will exit 0, all moved or cmd content to stop */
	display_finish(&display, end == RELAY_STOPPED ? DISPLAY_INTERRUPTED :
	    (end == RELAY_EOF || (end == RELAY_BROKEN_PIPE && cmd != -1)) &&
	    cmd_status == 0 && source_status == 0 && relay.nskipped == 0 ?
	    DISPLAY_COMPLETE : DISPLAY_FAILED);
	skipped = report_skipped(&relay, in.name);

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
	return skipped ? 1 : 0;		/* -E: rescued, not whole */
}
