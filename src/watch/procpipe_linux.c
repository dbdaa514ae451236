/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * procpipe on Linux: /proc/PID/fd names a pipe "pipe:[INODE]" and
 * fdinfo's flags tell its end; /proc/PID/task/TID/stat and wchan tell
 * each thread's state and where it sleeps; /proc/PID/io the bytes.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/procfd.h"
#include "tach/procparse.h"
#include "tach/procpipe.h"

static int
by_pipe(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The pipes asked about (none: all of them), and their ends so far. */
struct pipes {
	const uint64_t		*pipes;
	size_t			 npipes;
	struct procpipe_end	*ends;
	size_t			 n, room;
};

/* pid's fd, if it is an end of a pipe asked about, added to them. */
static int
pipe_end(pid_t pid, long fd, void *arg)
{
	struct pipes *p = arg;
	char path[96], link[64], info[512];
	struct procpipe_end *more;
	unsigned long long ino;
	uint64_t pos;
	ssize_t len;
	int flags;

	snprintf(path, sizeof(path), "/proc/%d/fd/%ld", (int)pid, fd);
	if ((len = readlink(path, link, sizeof(link) - 1)) <= 0)
		return 0;
	link[len] = '\0';
	if (sscanf(link, "pipe:[%llu]", &ino) != 1)
		return 0;
	if (p->npipes > 0 && bsearch(&(uint64_t){ ino }, p->pipes,
	    p->npipes, sizeof(*p->pipes), by_pipe) == NULL)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%ld", (int)pid, fd);
	if (procfd_text(path, info, sizeof(info)) != 0 ||
	    !procparse_fdinfo(info, &pos, &flags))
		return 0;
	if ((more = procfd_room(p->ends, p->n, &p->room,
	    sizeof(*more))) == NULL)
		return ENOMEM;
	p->ends = more;
	p->ends[p->n++] = (struct procpipe_end){ pid, (int)fd, ino,
	    (flags & O_ACCMODE) == O_WRONLY };
	return 0;
}

/*
 * pid's ends of the pipes asked about, added to them; when every process
 * is asked, one gone or closed to us has none.
 */
static int
pipes_of(pid_t pid, void *arg)
{
	struct pipes *p = arg;
	int error = procfd_entries(pid, "fd", pipe_end, p);

	return p->npipes > 0 && error != ENOMEM ? 0 : error;
}

int
procpipe_ends(pid_t pid, const uint64_t *pipes, size_t npipes,
    struct procpipe_end **ends, size_t *n)
{
	struct pipes p = { pipes, npipes, NULL, 0, 0 };
	int error = npipes == 0 ? pipes_of(pid, &p) :
	    procfd_each(true, pipes_of, &p);

	if (error != 0) {
		free(p.ends);
		p.ends = NULL;
		p.n = 0;
	}
	*ends = p.ends;
	*n = p.n;
	return error;
}

/* One thread's state and wait, counted into look; one gone counts not. */
static int
thread_look(pid_t pid, long tid, void *arg)
{
	struct procpipe_look *look = arg;
	char path[96], text[1024], wchan[64];
	uint64_t ticks;
	char state;

	snprintf(path, sizeof(path), "/proc/%d/task/%ld/stat", (int)pid, tid);
	if (procfd_text(path, text, sizeof(text)) != 0 ||
	    !procparse_cpu(text, &state, &ticks))
		return 0;
	look->threads++;
	if (state == 'R')
		look->running++;
	else if (state == 'D')
		look->disk++;
	else if (state == 'S') {
		snprintf(path, sizeof(path), "/proc/%d/task/%ld/wchan",
		    (int)pid, tid);
		if (procfd_text(path, wchan, sizeof(wchan)) != 0)
			return 0;
		switch (procparse_wchan(wchan)) {
		case PROCPARSE_PIPE_IN:
			look->pipe_in++;
			break;
		case PROCPARSE_PIPE_OUT:
			look->pipe_out++;
			break;
		case PROCPARSE_ELSEWHERE:
			break;
		}
	}
	return 0;
}

int
procpipe_look(pid_t pid, struct procpipe_look *look)
{
	char path[64], text[1024];
	const char *open, *close;
	char state;
	int error;

	memset(look, 0, sizeof(*look));
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((error = procfd_text(path, text, sizeof(text))) != 0)
		return error;
	if (!procparse_cpu(text, &state, &look->cpu) || state == 'Z' ||
	    state == 'X')
		return ESRCH;
	open = strchr(text, '(');
	close = strrchr(text, ')');
	if (open != NULL && close > open)
		snprintf(look->command, sizeof(look->command), "%.*s",
		    (int)(close - open - 1), open + 1);
	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	if ((error = procfd_text(path, text, sizeof(text))) != 0)
		return error;
	if (!procparse_io(text, &look->read, &look->written))
		return EINVAL;
	if ((error = procfd_entries(pid, "task", thread_look, look)) != 0)
		return error;
	return look->threads > 0 ? 0 : ESRCH;
}

long
procpipe_ticks(void)
{
	long t = sysconf(_SC_CLK_TCK);

	return t > 0 ? t : 100;
}
