/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * How long a line takes to come out of a filter: the tail -f case.
 *
 *   latency N MS CMD [ARGS...]
 *
 * Starts CMD between two pipes.  Rounds of: 64 MiB as fast as the pipes
 * take it (so a meter sees a fast stream), then at once one line, then
 * N lines MS milliseconds apart, each timed from write(2) to read(2).
 * Prints the median and the largest delay in microseconds, for the line
 * right after a burst and for the spaced lines.
 */
#define _GNU_SOURCE
#include <sys/wait.h>

#include <err.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS	20
#define BURST	(64 << 20)

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Writes len bytes into to while reading whatever comes out of from. */
static void
burst(int to, int from, size_t len)
{
	static char buf[1 << 16];
	size_t out = 0, in = 0;
	ssize_t n;

	while (in < len) {
		struct pollfd p[2] = { { to, out < len ? POLLOUT : 0, 0 },
		    { from, POLLIN, 0 } };

		if (poll(p, 2, -1) == -1)
			err(1, "poll");
		if ((p[0].revents & POLLOUT) &&
		    (n = write(to, buf, len - out < sizeof(buf) ?
		    len - out : sizeof(buf))) > 0)
			out += (size_t)n;
		if ((p[1].revents & POLLIN) &&
		    (n = read(from, buf, sizeof(buf))) > 0)
			in += (size_t)n;
	}
}

/* One line through: microseconds from its write to its read. */
static double
one_line(int to, int from)
{
	char c[2];
	double t0 = now_us();

	if (write(to, "x\n", 2) != 2)
		err(1, "write");
	for (ssize_t got = 0; got < 2;) {
		ssize_t n = read(from, c, 2 - (size_t)got);

		if (n <= 0)
			err(1, "read");
		got += n;
	}
	return now_us() - t0;
}

static void
report(const char *what, double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), by_value);
	printf("%s: median %.0f us, max %.0f us (%d lines)\n", what,
	    v[n / 2], v[n - 1], n);
}

int
main(int argc, char *argv[])
{
	int in[2], out[2], n, ms;
	double *after, *spaced;
	struct timespec gap;
	pid_t pid;

	if (argc < 4)
		errx(1, "usage: latency N MS CMD [ARGS...]");
	n = atoi(argv[1]);
	ms = atoi(argv[2]);
	if (n < 1 || ms < 0 || pipe(in) == -1 || pipe(out) == -1)
		errx(1, "bad arguments or no pipes");
	if ((pid = fork()) == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]); close(in[1]); close(out[0]); close(out[1]);
		execvp(argv[3], argv + 3);
		err(127, "%s", argv[3]);
	}
	close(in[0]);
	close(out[1]);
	after = calloc(ROUNDS, sizeof(*after));
	spaced = calloc((size_t)ROUNDS * (size_t)n, sizeof(*spaced));
	if (after == NULL || spaced == NULL)
		err(1, "calloc");
	gap.tv_sec = ms / 1000;
	gap.tv_nsec = (long)(ms % 1000) * 1000000;
	for (int r = 0; r < ROUNDS; r++) {
		burst(in[1], out[0], BURST);
		after[r] = one_line(in[1], out[0]);
		for (int i = 0; i < n; i++) {
			nanosleep(&gap, NULL);
			spaced[r * n + i] = one_line(in[1], out[0]);
		}
	}
	close(in[1]);
	waitpid(pid, NULL, 0);
	report("right after a 64 MiB burst", after, ROUNDS);
	report("lines spaced out", spaced, ROUNDS * n);
	return 0;
}
