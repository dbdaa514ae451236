/* Opening the input, finding its length, and starting a decompressor. */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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
#include "tach/relay.h"
#include "tach/signals.h"

#define MAGIC_MAX 6

static const struct format {
	const char		*tool;
	const unsigned char	 magic[MAGIC_MAX];
	size_t			 len;
} formats[] = {
	{ "gzip",  { 0x1f, 0x8b }, 2 },
	{ "bzip2", { 'B', 'Z', 'h' }, 3 },
	{ "xz",    { 0xfd, '7', 'z', 'X', 'Z', 0x00 }, 6 },
	{ "zstd",  { 0x28, 0xb5, 0x2f, 0xfd }, 4 },
	{ "lz4",   { 0x04, 0x22, 0x4d, 0x18 }, 4 },
};

/* Unknown data goes to gzip, as progress(1) sends everything: it says why. */
static const char *
detect(const unsigned char *head, size_t len)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (len >= formats[i].len &&
		    memcmp(head, formats[i].magic, formats[i].len) == 0)
			return formats[i].tool;
	return "gzip";
}

/* Bytes left in a regular file or block device from here on, else 0. */
static uint64_t
length_of(int fd)
{
	struct stat sb;
	off_t here;
	uint64_t total = 0;

	if (fstat(fd, &sb) == -1)
		return 0;
	if (S_ISREG(sb.st_mode))
		total = (uint64_t)sb.st_size;
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
	if (total == 0 || (here = lseek(fd, 0, SEEK_CUR)) == -1)
		return total;
	return (uint64_t)here < total ? total - (uint64_t)here : 0;
}

static ssize_t
read_fully(int fd, unsigned char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, buf + got, len - got);
		if (n == 0)
			break;
		if (n == -1) {
			if (errno == EINTR)
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
    const char *name)
{
	int to = feed[1];
	struct relay r;
	enum relay_end end;
	pid_t pid;

	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid != 0)
		return pid;
	signals_reset_child();
	close(feed[0]);		/* or a dead decompressor would go unnoticed */
	relay_init(&r, from, to, relay_default_bufsize(from, to, true), true);
	if ((end = relay_write(&r, head, len)) == RELAY_EOF)
		end = relay_run(&r);
	if (end == RELAY_READ_ERROR)
		errc(1, r.error, "reading %s", name);
	_exit(end == RELAY_EOF ? 0 : 1);
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

	if (seekable)
		len = pread(in->fd, head, sizeof(head), here);
	else
		len = read_fully(in->fd, head, sizeof(head));
	if (len == -1)
		err(1, "reading %s", in->name);
	in->decompressor_name = argv[0] = (char *)detect(head, (size_t)len);

	if (!seekable) {
		command_pipe(feed);
		in->feeder = start_feeder(in->fd, head, (size_t)len, feed,
		    in->name);
		close(feed[1]);
		from = feed[0];
	} else if (opts->size < 0) {
		in->size = length_of(in->fd);
		in->source = in->fd;
		in->source_start = here;
	}
	command_pipe(out);
	in->decompressor = command_spawn(argv, from, out[1]);
	close(out[1]);
	if (from != in->fd)
		close(from);
	in->fd = out[0];
	if (in->decompressor == -1) {
		int error = errno;

		input_close(in, true);
		errc(1, error, "%s (needed for -z)", argv[0]);
	}
}

void
input_open(struct input *in, const struct options *opts)
{
	memset(in, 0, sizeof(*in));
	in->fd = STDIN_FILENO;
	in->name = "stdin";
	in->source = -1;
	in->decompressor = in->feeder = -1;
	if (opts->file != NULL) {
		in->name = opts->file;
		if ((in->fd = open(opts->file, O_RDONLY | O_CLOEXEC)) == -1)
			err(1, "%s", opts->file);
	}
	if (opts->size >= 0)
		in->size = (uint64_t)opts->size;
	if (opts->decompress)
		start_decompressor(in, opts);
	else if (opts->size < 0)
		in->size = length_of(in->fd);
}

int
input_close(struct input *in, bool stop)
{
	int status = 0;

	close(in->fd);
	if (stop && in->feeder != -1)
		kill(in->feeder, SIGTERM);
	if (stop && in->decompressor != -1)
		kill(in->decompressor, SIGTERM);
	if (in->feeder != -1)
		(void)command_wait(in->feeder);
	if (in->decompressor != -1)
		status = command_wait(in->decompressor);
	in->feeder = in->decompressor = -1;
	return status;
}

uint64_t
input_source_done(const struct input *in)
{
	off_t here = lseek(in->source, 0, SEEK_CUR);

	return here > in->source_start ? (uint64_t)(here - in->source_start) :
	    0;
}
