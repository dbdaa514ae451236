/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Test helper for the shell tests: sets up descriptors that a shell
 * cannot, then runs a command on them.
 *
 *   nonblock CMD...          O_NONBLOCK on fds 0 and 1, then exec CMD
 *   socket-in FILE CMD...    CMD's stdin is a socket fed with FILE
 *   socket-out FILE CMD...   CMD's stdout is a socket drained into FILE
 *   reset-in FILE CMD...     CMD's stdin is a loopback TCP connection
 *                            whose peer sends FILE, then resets it (an
 *                            RST, as from a crashed or killed sender)
 *   group CMD...             CMD in its own process group, as a shell
 *                            job would be (for foreground tests)
 *   trickle COUNT BYTES      COUNT writes of BYTES on stdout, one a
 *                            millisecond (a producer of small writes)
 *   reader                   a reader that the test steps (for -d): a
 *                            command a line on stdin ("open PATH",
 *                            "read FD BYTES", "create PATH", "write FD
 *                            BYTES", "close FD", "pid", and on Linux
 *                            "copy IN OUT BYTES" and "sendfile OUT IN
 *                            BYTES": OUT made BYTES long (ftruncate,
 *                            which no count shows), then BYTES of IN's
 *                            start copied into it by copy_file_range
 *                            or sendfile, IN's offset left), each
 *                            answered with a line on stdout once done;
 *                            EOF exits
 */
#define _GNU_SOURCE	/* copy_file_range */
#include <sys/socket.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/sendfile.h>
#endif

#include <netinet/in.h>
#include <arpa/inet.h>

#include <err.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void
pump(int from, int to)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(from, buf, sizeof(buf))) > 0)
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(to, buf + off, (size_t)(n - off));

			if (w <= 0)
				err(1, "pump write");
			off += w;
		}
	if (n < 0)
		err(1, "pump read");
}

/* COUNT writes of BYTES bytes ('t'), each due a millisecond after the last. */
static int
trickle(const char *count, const char *bytes)
{
	char buf[4096];
	struct timespec due;
	long n = strtol(count, NULL, 10), len = strtol(bytes, NULL, 10);

	if (n < 0 || len <= 0 || len > (long)sizeof(buf))
		errx(2, "trickle: COUNT >= 0, 0 < BYTES <= %zu", sizeof(buf));
	memset(buf, 't', (size_t)len);
	clock_gettime(CLOCK_MONOTONIC, &due);
	while (n-- > 0) {
		if (write(1, buf, (size_t)len) != len)
			err(1, "trickle write");
		due.tv_nsec += 1000000;
		if (due.tv_nsec >= 1000000000) {
			due.tv_sec++;
			due.tv_nsec -= 1000000000;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due,
		    NULL) != 0)
			;
	}
	return 0;
}

/*
 * The reader's copy and sendfile: false if line is neither.  The output
 * is grown first, so that a test holding the call at its entry sees it
 * grown by a process that has written nothing yet, as a copy in one call
 * is seen: the call counts its bytes only when it returns.
 */
static bool
one_call(const char *line)
{
#ifdef __linux__
	long long bytes;
	off_t from = 0;
	int in, out;
	bool copy;

	if (sscanf(line, "copy %d %d %lld", &in, &out, &bytes) == 3)
		copy = true;
	else if (sscanf(line, "sendfile %d %d %lld", &out, &in, &bytes) == 3)
		copy = false;
	else
		return false;
	if (ftruncate(out, (off_t)bytes) == -1)
		err(1, "ftruncate");
	if ((copy ? copy_file_range(in, &from, out, NULL, (size_t)bytes, 0) :
	    sendfile(out, in, &from, (size_t)bytes)) == -1)
		err(1, copy ? "copy_file_range" : "sendfile");
	return true;
#else
	(void)line;
	return false;
#endif
}

/* The stepped reader: nothing moves but what the test asks for. */
static int
reader(void)
{
	char line[4096], path[4096], buf[65536];
	long long left;
	ssize_t n;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (sscanf(line, "open %4095[^\n]", path) == 1) {
			if ((fd = open(path, O_RDONLY)) == -1)
				err(1, "%s", path);
			printf("%d\n", fd);
		} else if (sscanf(line, "read %d %lld", &fd, &left) == 2) {
			for (n = 1; left > 0 && n > 0; left -= n)
				if ((n = read(fd, buf, left < (long long)sizeof(buf) ?
				    (size_t)left : sizeof(buf))) == -1)
					err(1, "read");
			printf("read\n");
		} else if (sscanf(line, "create %4095[^\n]", path) == 1) {
			if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC,
			    0644)) == -1)
				err(1, "%s", path);
			printf("%d\n", fd);
		} else if (sscanf(line, "write %d %lld", &fd, &left) == 2) {
			memset(buf, 'w', sizeof(buf));
			for (n = 1; left > 0 && n > 0; left -= n)
				if ((n = write(fd, buf, left < (long long)sizeof(buf) ?
				    (size_t)left : sizeof(buf))) == -1)
					err(1, "write");
			printf("written\n");
		} else if (sscanf(line, "close %d", &fd) == 1) {
			close(fd);
			printf("closed\n");
		} else if (one_call(line))
			printf("done\n");
		else if (strcmp(line, "pid\n") == 0)
			printf("%ld\n", (long)getpid());
		else
			errx(2, "reader: %s", line);
	}
	return 0;
}

/*
 * A loopback connection: *peer is the accepted end, the connecting end
 * is returned.
 */
static int
tcp_pair(int *peer)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int lfd, fd;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((lfd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(lfd, 1) == -1 ||
	    getsockname(lfd, (struct sockaddr *)&sin, &len) == -1 ||
	    (fd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    (*peer = accept(lfd, NULL, NULL)) == -1)
		err(2, "loopback connection");
	close(lfd);
	return fd;
}

static int
run(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execvp(argv[0], argv);
		err(127, "%s", argv[0]);
	}
	if (waitpid(pid, &status, 0) == -1)
		err(1, "waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status);
}

/*
 * argv run with its stdin a socket fed with file: a Unix socket's end, or
 * a loopback TCP connection reset once file is sent.
 */
static int
socket_in(const char *file, char **argv, bool reset)
{
	struct linger now = { .l_onoff = 1, .l_linger = 0 };
	int sv[2], fd, status;
	pid_t pid;

	if (reset)
		sv[0] = tcp_pair(&sv[1]);
	else if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		err(2, "socketpair");
	if ((pid = fork()) == 0) {
		close(sv[0]);
		if ((fd = open(file, O_RDONLY)) == -1)
			err(1, "%s", file);
		pump(fd, sv[1]);
		/* closed with a zero linger: a reset, not an end */
		if (reset && setsockopt(sv[1], SOL_SOCKET, SO_LINGER, &now,
		    sizeof(now)) == -1)
			err(1, "SO_LINGER");
		_exit(0);
	}
	close(sv[1]);
	dup2(sv[0], 0);
	close(sv[0]);
	status = run(argv);
	waitpid(pid, NULL, 0);
	return status;
}

int
main(int argc, char *argv[])
{
	int sv[2], fd, status;
	pid_t pid;

	if (argc == 2 && strcmp(argv[1], "reader") == 0)
		return reader();
	if (argc == 4 && strcmp(argv[1], "trickle") == 0)
		return trickle(argv[2], argv[3]);
	if (argc < 3)
		errx(2, "usage: helper nonblock|socket-in|socket-out|reset-in|group|reader|trickle ...");
	if (strcmp(argv[1], "nonblock") == 0) {
		for (fd = 0; fd <= 1; fd++)
			if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) |
			    O_NONBLOCK) == -1)
				err(1, "fcntl");
		execvp(argv[2], argv + 2);
		err(127, "%s", argv[2]);
	}
	if (strcmp(argv[1], "group") == 0) {
		setpgid(0, 0);
		execvp(argv[2], argv + 2);
		err(127, "%s", argv[2]);
	}
	if (argc >= 4 && strcmp(argv[1], "reset-in") == 0)
		return socket_in(argv[2], argv + 3, true);
	if (argc >= 4 && strcmp(argv[1], "socket-in") == 0)
		return socket_in(argv[2], argv + 3, false);
	if (argc < 4 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		err(2, "socketpair");
	if (strcmp(argv[1], "socket-out") == 0) {
		if ((pid = fork()) == 0) {
			close(sv[1]);
			if ((fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC,
			    0644)) == -1)
				err(1, "%s", argv[2]);
			pump(sv[0], fd);
			_exit(0);
		}
		close(sv[0]);
		dup2(sv[1], 1);
		close(sv[1]);
		status = run(argv + 3);
		close(1);
		waitpid(pid, NULL, 0);
		return status;
	}
	errx(2, "unknown mode %s", argv[1]);
}
