/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * procpipe on Linux: /proc/PID/fd names a pipe "pipe:[INODE]" and
 * fdinfo's flags tell its end; /proc/PID/task/TID/stat and wchan tell
 * each thread's state and where it sleeps; /proc/PID/io the bytes.
 */
#include <sys/stat.h>

#include <dirent.h>
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

/* pid's ends of the pipes asked about, added to them. */
static int
pipes_of(pid_t pid, void *arg)
{
	struct pipes *p = arg;
	char path[96], link[64], info[512];
	struct procpipe_end *more;
	struct dirent *e;
	unsigned long long ino;
	uint64_t pos;
	ssize_t len;
	DIR *dir;
	int flags, fd;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	if ((dir = opendir(path)) == NULL)
		return p->npipes > 0 ? 0 : errno == ENOENT ? ESRCH : errno;
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		fd = atoi(e->d_name);
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
		if ((len = readlink(path, link, sizeof(link) - 1)) <= 0)
			continue;
		link[len] = '\0';
		if (sscanf(link, "pipe:[%llu]", &ino) != 1)
			continue;
		if (p->npipes > 0 && bsearch(&(uint64_t){ ino }, p->pipes,
		    p->npipes, sizeof(*p->pipes), by_pipe) == NULL)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)pid,
		    fd);
		if (procfd_text(path, info, sizeof(info)) != 0 ||
		    !procparse_fdinfo(info, &pos, &flags))
			continue;
		if ((more = procfd_room(p->ends, p->n, &p->room,
		    sizeof(*more))) == NULL) {
			closedir(dir);
			return ENOMEM;
		}
		p->ends = more;
		p->ends[p->n++] = (struct procpipe_end){ pid, fd, ino,
		    (flags & O_ACCMODE) == O_WRONLY };
	}
	closedir(dir);
	return 0;
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

/* One thread's state and wait, counted into look. */
static void
thread_look(pid_t pid, const char *tid, struct procpipe_look *look)
{
	char path[320], text[1024], wchan[64];
	uint64_t ticks;
	char state;

	snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, tid);
	if (procfd_text(path, text, sizeof(text)) != 0 ||
	    !procparse_cpu(text, &state, &ticks))
		return;
	look->threads++;
	if (state == 'R')
		look->running++;
	else if (state == 'D')
		look->disk++;
	else if (state == 'S') {
		snprintf(path, sizeof(path), "/proc/%d/task/%s/wchan",
		    (int)pid, tid);
		if (procfd_text(path, wchan, sizeof(wchan)) != 0)
			return;
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
}

int
procpipe_look(pid_t pid, struct procpipe_look *look)
{
	char path[64], text[1024];
	const char *open, *close;
	struct dirent *e;
	DIR *dir;
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
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((dir = opendir(path)) == NULL)
		return errno == ENOENT ? ESRCH : errno;
	while ((e = readdir(dir)) != NULL)
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			thread_look(pid, e->d_name, look);
	closedir(dir);
	return look->threads > 0 ? 0 : ESRCH;
}

long
procpipe_ticks(void)
{
	long t = sysconf(_SC_CLK_TCK);

	return t > 0 ? t : 100;
}
