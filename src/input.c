/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Opening the input, finding its length, and starting a decompressor.
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#ifdef HAVE_LINUX_FS_H
#include <linux/fs.h>
#endif
#ifdef HAVE_SYS_DISK_H
#include <sys/disk.h>
#endif
#ifdef HAVE_SYS_DKIO_H
#include <sys/dkio.h>		/* NetBSD's DIOCGMEDIASIZE */
#endif

#include "tach/command.h"
#include "tach/input.h"
#include "tach/magic.h"
#include "tach/message.h"
#include "tach/relay.h"
#include "tach/signals.h"
#include "tach/tempfile.h"
#include "tach/text.h"

/*
 * Bytes left in a regular file or block device from here on, else 0;
 * *known tells an empty file from an input whose length cannot be told.
 */
static uint64_t
length_of(int fd, bool *known)
{
	struct stat sb;
	off_t here;
	uint64_t total = 0;

	*known = false;
	if (fstat(fd, &sb) == -1)
		return 0;
	if (S_ISREG(sb.st_mode)) {
		total = (uint64_t)sb.st_size;
		*known = true;
	}
#if defined(BLKGETSIZE64)
	else if (S_ISBLK(sb.st_mode) && ioctl(fd, BLKGETSIZE64, &total) == -1)
		total = 0;
#elif defined(DIOCGMEDIASIZE)
	else if ((S_ISBLK(sb.st_mode) || S_ISCHR(sb.st_mode))) {
		off_t media;

		if (ioctl(fd, DIOCGMEDIASIZE, &media) == 0 && media > 0)
			total = (uint64_t)media;
	}
#endif
	if (total > 0)
		*known = true;
	if (total == 0 || (here = lseek(fd, 0, SEEK_CUR)) == -1)
		return total;
	return (uint64_t)here < total ? total - (uint64_t)here : 0;
}

/*
 * Reads len bytes, or up to the end, at offset at (-1: where the file
 * is): one short read must not make an xz file look like gzip.
 */
static ssize_t
read_head(int fd, unsigned char *buf, size_t len, off_t at)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = at == -1 ? read(fd, buf + got, len - got) :
		    pread(fd, buf + got, len - got, at + (off_t)got);
		if (n == 0)
			break;
		if (n == -1) {
			if (errno == EINTR && signals_fatal() == 0)
				continue;
			return -1;
		}
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/*
 * A pipe cannot be rewound after its magic bytes are read, so a child
 * writes them and the rest of the input into the decompressor.
 */
static pid_t
start_feeder(int from, const unsigned char *head, size_t len, int feed[2],
    const struct input *in, bool zerocopy)
{
	int to = feed[1];
	struct relay r;
	enum relay_end end;
	pid_t pid;

	if ((pid = fork()) == -1)
		report_err(1, "fork");
	if (pid != 0)
		return pid;
	signals_reset_child();
	/* pkill -USR1 tach reaches this copy of tach too: the parent reports */
	signal(SIGUSR1, SIG_IGN);
#ifdef HAVE_SIGINFO
	signal(SIGINFO, SIG_IGN);
#endif
	close(feed[0]);		/* or a dead decompressor would go unnoticed */
	relay_init(&r, from, to, &(struct relay_config){
	    .bufsize = relay_default_bufsize(from, to, zerocopy),
	    .zerocopy = zerocopy });
	if (relay_write(&r, head, len, &end))
		end = relay_run(&r);
	switch (end) {
	case RELAY_EOF:
	case RELAY_AT_SIZE:
		_exit(0);
	case RELAY_READ_ERROR:
		report_errc(1, r.error, "reading %s", text_safe(in->name));
	case RELAY_BROKEN_PIPE:		/* SIGPIPE was ignored */
		report_errx(1, "%s stopped reading %s before its end",
		    in->decompressor_name, text_safe(in->name));
	default:
		report_errc(1, r.error,
		    "copying %s into %s", text_safe(in->name),
		    in->decompressor_name);
	}
}

static void
start_decompressor(struct input *in, const struct options *opts)
{
	unsigned char head[MAGIC_MAX];
	char *argv[3] = { NULL, "-dc", NULL };
	int out[2], feed[2], from = in->fd;
	off_t here = lseek(in->fd, 0, SEEK_CUR);
	struct stat sb;
	ssize_t len;
	bool seekable = fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    here != -1;

	len = read_head(in->fd, head, sizeof(head), seekable ? here : -1);
	if (len == -1) {
		if (signals_fatal() != 0)
			signals_die(signals_fatal());
		report_err(1, "reading %s", text_safe(in->name));
	}
	in->decompressor_name = argv[0] = (char *)magic_tool(head,
	    (size_t)len);

	if (!seekable) {
		command_pipe(feed);
		in->feeder = start_feeder(in->fd, head, (size_t)len, feed, in,
		    !opts->no_splice);
		close(feed[1]);
		/* the feeder has it now: one descriptor a file, not all */
		if (in->fd != STDIN_FILENO)
			close(in->fd);
		from = feed[0];
	} else if (opts->size < 0) {
		in->size = length_of(in->fd, &in->size_known);
		in->source = in->fd;
		in->source_start = here;
	}
	command_pipe(out);
	in->decompressor = command_spawn(argv, from, out[1]);
	close(out[1]);
	/* the decompressor has it; the display keeps source for its offset */
	if (from != in->source && from != STDIN_FILENO)
		close(from);
	in->fd = out[0];
	if (in->decompressor == -1) {
		int error = errno;

		input_close(in, true);
		report_errc(1, error, "%s (needed for -z)", argv[0]);
	}
}

/*
 * cat's rule, made safe: copying a regular file onto itself would read
 * back what it writes (appending, or writing ahead of the reading) and
 * grow until the disk is full.  True for such an input; an empty copy
 * is let through.
 */
static bool
own_output(int fd)
{
	struct stat in, out;
	off_t in_pos, out_pos;
	int flags;

	if (fstat(fd, &in) == -1 || fstat(STDOUT_FILENO, &out) == -1 ||
	    !S_ISREG(in.st_mode) || in.st_dev != out.st_dev ||
	    in.st_ino != out.st_ino)
		return false;
	flags = fcntl(STDOUT_FILENO, F_GETFL);
	in_pos = lseek(fd, 0, SEEK_CUR);
	out_pos = lseek(STDOUT_FILENO, 0, SEEK_CUR);
	return flags == -1 || (flags & O_APPEND) || in_pos < in.st_size ||
	    out_pos < in.st_size;
}

bool
input_open(struct input *in, const struct options *opts, const char *file)
{
	int error;

	memset(in, 0, sizeof(*in));
	in->fd = STDIN_FILENO;
	in->name = "stdin";
	in->source = -1;
	in->decompressor = in->feeder = -1;
	in->source_end = -1;
	if (file != NULL) {
		in->name = file;
		/* a FIFO waits for its writer; the display's timer goes on */
		while ((in->fd = open(file, O_RDONLY | O_CLOEXEC)) == -1 &&
		    errno == EINTR && signals_fatal() == 0)
			;
		if (in->fd == -1) {
			error = errno;
			if (error != EINTR)	/* else a signal ends tach */
				report_warn("%s", text_safe(file));
			/* pv -f (force) followed by another option */
			if (error == ENOENT && file[0] == '-' &&
			    file[1] != '\0' && !opts->as_progress)
				report_warnx("pv's -f is --force here");
			return false;
		}
	}
	if (opts->cmd == NULL && own_output(in->fd)) {
		report_warnx("%s: input file is output file",
		    text_safe(in->name));
		if (file != NULL)
			close(in->fd);
		in->fd = -1;
		return false;
	}
	if (opts->size >= 0) {
		in->size = (uint64_t)opts->size;
		in->size_known = opts->size > 0;	/* -l 0: unknown */
	}
	if (opts->decompress)
		start_decompressor(in, opts);
	else if (opts->size < 0)
		in->size = length_of(in->fd, &in->size_known);
	return true;
}

int
input_store(const char *path, char **made)
{
	const char *dir = getenv("TMPDIR");
	struct stat sb;
	int fd;

	*made = NULL;
	if (strcmp(path, "-") == 0) {
		if (dir == NULL || *dir == '\0')
			dir = "/tmp";
		if ((fd = tempfile_open(dir)) == -1)
			report_err(1, "-U: a file in %s", text_safe(dir));
		return fd;
	}
	/* tach's own file: nothing that is there already is written over */
	if (lstat(path, &sb) == 0)
		report_errc(1, EEXIST, "-U %s", text_safe(path));
	if ((fd = tempfile_beside(path, made)) == -1)
		report_err(1, "-U %s", text_safe(path));
	return fd;
}

void
input_store_kept(const char *made, const char *path)
{
	if (tempfile_place(made, path, false) == -1)
		report_err(1, "-U %s: not put in place, kept whole as %s",
		    text_safe(path), text_safe(made));
}

void
input_stored(struct input *in, int fd, const char *name, uint64_t size)
{
	memset(in, 0, sizeof(*in));
	if (lseek(fd, 0, SEEK_SET) == -1)
		report_err(1, "-U %s", text_safe(name));
	in->fd = fd;
	in->name = name;
	in->size = size;
	in->size_known = true;
	in->source = -1;
	in->decompressor = in->feeder = -1;
	in->source_end = -1;
}

uint64_t
input_total(const struct options *opts, bool *known)
{
	uint64_t total = 0, size = 0;
	struct stat sb;
	bool one;
	int fd;

	*known = true;
	for (size_t i = 0; i < opts->nfiles; i++, total += size) {
		size = 0;
		/*
		 * Only files and disks are opened to be measured: opening a
		 * FIFO would let its writer go on, and closing it then would
		 * break the writer's pipe.
		 */
		if (stat(opts->files[i], &sb) == -1)
			continue;	/* said when its turn comes */
		one = S_ISREG(sb.st_mode) || (S_ISBLK(sb.st_mode) &&
		    !opts->decompress);
		if (one && (fd = open(opts->files[i], O_RDONLY |
		    O_CLOEXEC)) != -1) {
			size = length_of(fd, &one);
			close(fd);
		} else
			one = false;
		*known = *known && one;
	}
	return *known ? total : 0;
}

int
input_close(struct input *in, bool stop)
{
	int status = 0, fed = 0;

	close(in->fd);
	/* -z: the compressed file, its last position kept for the display */
	if (in->source != -1 && in->source_end == -1) {
		in->source_end = (int64_t)input_source_done(in);
		if (in->source != STDIN_FILENO)
			close(in->source);
	}
	if (stop && in->feeder != -1)
		kill(in->feeder, SIGTERM);
	if (stop && in->decompressor != -1)
		kill(in->decompressor, SIGTERM);
	if (in->feeder != -1)
		fed = command_wait(in->feeder);
	if (in->decompressor != -1)
		status = command_wait(in->decompressor);
	in->feeder = in->decompressor = -1;
	if (stop)
		return 0;
	/*
	 * A decompressor that ends cleanly at a member or frame boundary
	 * proves nothing: the feeder must have copied all of the input.  A
	 * child that exited non-zero has said why; a signal says nothing.
	 */
	if (status == 0 && fed != 0) {
		if (WIFSIGNALED(fed))
			report_warnx("copying %s into %s: %s",
			    text_safe(in->name), in->decompressor_name,
			    strsignal(WTERMSIG(fed)));
		return fed;
	}
	if (WIFSIGNALED(status))
		report_warnx("%s: %s", in->decompressor_name,
		    strsignal(WTERMSIG(status)));
	/* some fail without a word (lz4 on trailing bytes): name it */
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
		report_warnx("%s -dc (reading %s) exited with status %d",
		    in->decompressor_name, text_safe(in->name),
		    WEXITSTATUS(status));
	}
	return status;
}

uint64_t
input_source_done(const struct input *in)
{
	off_t here;

	if (in->source_end != -1)
		return (uint64_t)in->source_end;
	here = lseek(in->source, 0, SEEK_CUR);

	return in->source_before + (here > in->source_start ?
	    (uint64_t)(here - in->source_start) : 0);
}
