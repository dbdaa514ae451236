/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The bare relay contrib/benchmark.sh measures tach against: splice(2)
 * from stdin to stdout through pipes grown to 1 MiB, and nothing else:
 * no count, no pause, no meter.  What tach spends beyond it is its own.
 *
 *   cc -O2 -o splice-relay contrib/splice-relay.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int
main(void)
{
	ssize_t n;

	(void)fcntl(STDIN_FILENO, F_SETPIPE_SZ, 1 << 20);
	(void)fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
	while ((n = splice(STDIN_FILENO, NULL, STDOUT_FILENO, NULL, 1 << 20,
	    SPLICE_F_MOVE)) > 0)
		;
	if (n == -1) {
		perror("splice-relay");
		return 1;
	}
	return 0;
}
