/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The write side of a read/write relay, two ways, for doc/PERFORMANCE.md:
 *
 *   vmsplice-gift write|gift BUFSIZE <input | reader
 *
 * write: read(2) into one reused buffer, write(2) it to the pipe (what
 * tach's read/write tier does).  gift: read(2) into freshly mapped pages
 * every time and vmsplice(2) them to the pipe with SPLICE_F_GIFT, then
 * unmap them: the pages are never touched again, so no byte in flight
 * can change.  Both copy the input once into user space; gift saves the
 * copy into the pipe and pays for mapping and faulting fresh pages.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/uio.h>

#include <err.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads up to len (at least one byte, or 0 at the end). */
static size_t
fill(unsigned char *p, size_t len)
{
	ssize_t n = read(0, p, len);

	if (n < 0)
		err(1, "read");
	return (size_t)n;
}

int
main(int argc, char *argv[])
{
	size_t size, n, off;
	unsigned char *buf;
	bool gift;

	if (argc != 3 || (strcmp(argv[1], "write") != 0 &&
	    strcmp(argv[1], "gift") != 0) || (size = strtoul(argv[2], NULL,
	    0)) == 0 || size % 4096 != 0)
		errx(1, "usage: vmsplice-gift write|gift BUFSIZE (pages)");
	gift = strcmp(argv[1], "gift") == 0;
	(void)fcntl(1, F_SETPIPE_SZ, (int)size);
	if (!gift && (buf = aligned_alloc(4096, size)) == NULL)
		err(1, "buffer");
	for (;;) {
		if (gift && (buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
			err(1, "mmap");
		if ((n = fill(buf, size)) == 0)
			break;
		for (off = 0; off < n;) {
			struct iovec iov = { buf + off, n - off };
			ssize_t w = gift ? vmsplice(1, &iov, 1, SPLICE_F_GIFT) :
			    write(1, buf + off, n - off);

			if (w <= 0)
				err(1, gift ? "vmsplice" : "write");
			off += (size_t)w;
		}
		if (gift)
			munmap(buf, size);
	}
	return 0;
}
