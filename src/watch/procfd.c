/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * What every system's procfd shares: the lists procfd_list and
 * procfd_find build, and the hold on a process where the system offers one.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/compat.h"
#include "tach/procfd.h"

struct procfd_file *
procfd_grow(struct procfd_file **files, size_t *n, size_t *room)
{
	struct procfd_file *more;

	if ((more = procfd_room(*files, *n, room, sizeof(**files))) == NULL)
		return NULL;
	*files = more;
	return &(*files)[(*n)++];
}

void *
procfd_room(void *array, size_t n, size_t *room, size_t size)
{
	size_t want = *room ? *room * 2 : 16;
	void *more;

	if (n < *room)
		return array;
	if ((more = reallocarray(array, want, size)) == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	*room = want;
	return more;
}

int
procfd_take(struct procfd_file **files, size_t *n, size_t *room,
    const struct procfd_entry *e, int fd, bool *found)
{
	struct procfd_file *f;

	if (e->fd < 0 || (fd >= 0 && e->fd != fd))
		return 0;
	if (fd >= 0)
		*found = true;
	if (e->kind == PROCFD_OTHER)
		return fd >= 0 ? PROCFD_NOT_FILE : 0;
	if ((f = procfd_grow(files, n, room)) == NULL)
		return ENOMEM;
	if ((f->path = strdup(e->path != NULL ? e->path : "")) == NULL) {
		(*n)--;
		return ENOMEM;
	}
	f->fd = e->fd;
	f->dev = e->dev;
	f->ino = e->ino;
	f->offset = e->offset > 0 ? (uint64_t)e->offset : 0;
	f->size = e->kind == PROCFD_REGULAR ? e->size : 0;
	f->disk = 0;	/* the disks' counters are read on Linux only */
	f->writing = e->writable && !e->readable;
	f->writable = e->writable;
	f->fresh = true;
	return 0;
}

int
procfd_end(struct procfd_file **files, size_t *n, int error)
{
	if (error != 0) {
		procfd_free(*files, *n);
		*files = NULL;
		*n = 0;
	}
	return error;
}

int
procfd_end_table(struct procfd_file **files, size_t *n, int error,
    void *table, int fd, bool found)
{
	free(table);
	return procfd_end(files, n, error == 0 && fd >= 0 && !found ? EBADF :
	    error);
}

bool
procfd_skip(int error)
{
	return error != EACCES && error != EPERM && error != ENOMEM;
}

void
procfd_free(struct procfd_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i].path);
	free(files);
}

int
procfd_hold(pid_t pid)
{
	return compat_process_hold(pid);
}

bool
procfd_gone(int hold)
{
	/* a pidfd polls readable once its process has exited */
	struct pollfd p = { .fd = hold, .events = POLLIN };

	return hold >= 0 && poll(&p, 1, 0) == 1;
}

int
procfd_match(struct procfd_named **found, size_t *n, size_t *room,
    pid_t pid, const char *comm, size_t cut, const char *const *names,
    size_t nnames)
{
	struct procfd_named *more;
	size_t len = strlen(comm);

	if (pid <= 0 || pid == getpid())
		return 0;
	for (size_t i = 0; i < nnames; i++) {
		/* a longer name, cut where the kernel cuts it */
		if (strcmp(comm, names[i]) != 0 && (len != cut ||
		    strlen(names[i]) <= cut || strncmp(comm, names[i], cut) != 0))
			continue;
		if ((more = procfd_room(*found, *n, room,
		    sizeof(**found))) == NULL) {
			free(*found);
			*found = NULL;
			*n = *room = 0;
			return ENOMEM;
		}
		*found = more;
		(*found)[*n].pid = pid;
		snprintf((*found)[*n].name, sizeof((*found)[*n].name), "%s",
		    names[i]);
		(*n)++;
		break;
	}
	return 0;
}
