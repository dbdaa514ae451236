/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * How a run ends (ending.h): once the relay has moved its last byte, each
 * end in its order (a stopped or stalled cmd told, the output's last
 * flush and close, the fanout's outputs drained and ended, -M out's side,
 * the children waited for), then the outcome, the closing line and the
 * digests, the count of what was read and not delivered, and the exit
 * status, a child's death by a signal becoming tach's.
 */
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tach/command.h"
#include "tach/ending.h"
#include "tach/report.h"
#include "tach/signals.h"
#include "tach/text.h"
#include "tach/writeback.h"

/* A child's death by signal N becomes tach's, so the shell sees 128+N. */
static int
exit_status(int status)
{
	if (WIFSIGNALED(status))
		signals_die(WTERMSIG(status));
	return WEXITSTATUS(status);
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

/* The relay is done: what it says of its end, for the run's. */
void
ending_relay(struct run *run, const struct relay *r)
{
	run->at_size = relay_reached(r);
	run->error = r->error;
	run->delivered = r->bytes;
	run->held = r->undelivered;
}

/* All that was asked for was written: the input's end, or -S's size. */
bool
ending_complete(const struct run *run)
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
drain_outputs(struct run *run, struct relay *r, struct session *session)
{
	struct fanout *f = run->outputs.fan;
	bool flushing;

	while (!fanout_drained(f, 0.1)) {
		if (!session_service(session)) {
			run->end = RELAY_STOPPED;
			return false;
		}
		if ((flushing = fanout_flushing(f)) && !session->flushing)
			session_flushing(session);
		if (relay_outputs_stalled(r, fanout_taken(f), flushing)) {
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
end_outputs(struct run *run, struct relay *r, struct session *session)
{
	struct outputs *o = &run->outputs;
	const struct fanout_output *first = NULL;

	if (o->fan == NULL)
		return;
	/* a signal or a stall ends tach now: no output is waited for */
	if (run->end != RELAY_STOPPED && run->end != RELAY_STALLED)
		(void)drain_outputs(run, r, session);
	if (run->end == RELAY_STALLED && r->stalled_side == RELAY_OUTPUT)
		stalled_output(run, o);
	if (run->end == RELAY_STOPPED || run->end == RELAY_STALLED)
		return;
	outputs_end(o, run->cmd != -1, ending_complete(run),
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
		if (ending_complete(run) || run->end == RELAY_BROKEN_PIPE)
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
last_flush(struct run *run, struct session *session)
{
	struct writeback_flush *f = writeback_flush(run->out);
	int error;

	session_flushing(session);
	while (!writeback_flushed(f, 0.1, &error))
		if (!session_service(session)) {
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
end_output(struct run *run, struct relay *r, struct session *session)
{
	if (ending_complete(run) && relay_sparse_end(r) == -1) {
		run->end = RELAY_WRITE_ERROR;
		run->error = errno;
	}
	if (ending_complete(run) && (r->writeback.fd != -1 || run->disk))
		last_flush(run, session);
	/* cmd's output at its end of input starts on a clean line */
	if (run->cmd != -1)
		session_clear(session);
	session_output_ends(session);
	/*
	 * A reader downstream (wc, dd) sees its end of input when tach
	 * exits, after the last frame: what it prints then is never drawn
	 * over.  Only a file's close can show a late write error.  (cmd,
	 * or the fanout, needs its end of input now.)
	 */
	if ((run->cmd != -1 || run->outputs.fan != NULL ||
	    !writeback_to_reader(run->out)) &&
	    close(run->out) == -1 && ending_complete(run) && errno != EINTR) {
		run->end = errno == EPIPE ? RELAY_BROKEN_PIPE :
		    RELAY_WRITE_ERROR;
		run->error = errno;
	}
	end_outputs(run, r, session);
}

/*
 * -M out, -M both: cmd's output, until cmd closes it (xz writes its last
 * blocks long after its input ended), drawn as the copy is; a signal
 * ends the wait, and cmd.  A stdout that failed is tach's write error,
 * unless its reader left: that cut cmd off, as in a pipeline, and cmd's
 * status tells it.  True once the side's threads are done.
 */
static bool
end_side(struct run *run, struct session *session)
{
	struct fanout_output out;

	if (run->side == NULL || run->end == RELAY_STOPPED)
		return false;
	while (!fanout_drained(run->side, 0.1))
		if (!session_service(session)) {
			run->end = RELAY_STOPPED;
			kill(run->cmd, signals_fatal());
			return false;
		}
	(void)fanout_end(run->side);
	fanout_outputs(run->side, &out);
	/* cmd cut off by it, tach's write to cmd may have broken too */
	if (out.error != 0 && out.error != EPIPE &&
	    (ending_complete(run) || run->end == RELAY_BROKEN_PIPE)) {
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
enum session_outcome
ending_outcome(const struct run *run, const struct relay *r)
{
	bool moved = ending_complete(run) ||
	    (run->end == RELAY_BROKEN_PIPE && run->cmd != -1);

	if (run->end == RELAY_STOPPED)
		return SESSION_INTERRUPTED;
	if (moved && run->cmd_status == 0 && run->source_status == 0 &&
	    r->nskipped == 0 && !run->failed && run->outputs_failed[0] == '\0')
		return SESSION_COMPLETE;
	return SESSION_FAILED;
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
const char *
ending_reason(const struct run *run, const struct relay *r, char *buf,
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
int
ending_exit(const struct run *run, bool skipped, const char *reason)
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

/* After the copy: each end in its order, the closing line, the status. */
int
ending_run(struct run *run, struct relay *relay, struct session *session,
    const struct options *opts, struct input *in, FILE *log)
{
	enum session_outcome outcome;
	char why[4 * PATH_MAX + 256];
	const char *reason;
	bool skipped, whole, side_ended;
	int status;

	end_command(run, opts->as_progress);
	end_output(run, relay, session);
	side_ended = end_side(run, session);
	end_children(run, in);
	outcome = ending_outcome(run, relay);
	reason = outcome == SESSION_FAILED ? ending_reason(run, relay, why,
	    sizeof(why)) : NULL;
	/* the digest of a stream cut short would name no file's */
	whole = ending_complete(run) && run->outputs.failed < run->outputs.n;
	if (!whole)
		session->digest = NULL;
	session_finish(session, outcome, reason);
	if (whole && !opts->json)
		outputs_print_hashes(&run->outputs, opts->nfiles == 1 ?
		    opts->files[0] : "-");
	outputs_free(&run->outputs);
	if (side_ended)
		fanout_free(run->side);
	skipped = report_skipped(relay, opts);
	status = ending_exit(run, skipped, reason);
	/* the log is output asked for: one that failed fails the run */
	if (log != NULL && fclose(log) == EOF && !session->log_failed) {
		report_warn("--log %s", text_safe(opts->log));
		session->log_failed = true;
	}
	return status == 0 && session->log_failed ? 1 : status;
}
