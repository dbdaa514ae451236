/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * procfd on NetBSD: the KERN_FILE2 sysctl, by process, gives each
 * descriptor's type, ki_foffset and ki_vsize; KERN_PROC2 tells a zombie
 * and lists the processes for -d NAME.
 * It names no paths: a file is named by its descriptor, or by the link
 * procfs offers where /proc is mounted.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/file.h>
#include <sys/sysctl.h>
#include <sys/vnode.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/procfd.h"

static int
process_state(pid_t pid, uint64_t *started)
{
	int mib[6] = { CTL_KERN, KERN_PROC2, KERN_PROC_PID, pid,
	    (int)sizeof(struct kinfo_proc2), 1 };
	struct kinfo_proc2 kp;
	size_t len = sizeof(kp);

	if (sysctl(mib, 6, &kp, &len, NULL, 0) == -1)
		return errno;
	if (len == 0)
		return ESRCH;
	if (started != NULL)
		*started = (uint64_t)kp.p_ustart_sec * 1000000 +
		    (uint64_t)kp.p_ustart_usec;
	return kp.p_stat == LSZOMB ? ESRCH : 0;
}

int
procfd_started(pid_t pid, uint64_t *started)
{
	return process_state(pid, started);
}

static char *
name_of(pid_t pid, int fd)
{
	char link[64], target[PATH_MAX];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, fd);
	if ((len = readlink(link, target, sizeof(target) - 1)) > 0) {
		target[len] = '\0';
		return strdup(target);
	}
	return strdup("");
}

/*
 * A table of entries of size each, from the six-level sysctl mib whose
 * last level is the count to give.  It may grow between asking its size
 * and reading it, so it is read with room to spare.  NULL, with errno.
 */
static void *
read_table(int *mib, size_t size, size_t *count)
{
	size_t len = 0;
	void *table;
	int error;

	if (sysctl(mib, 6, NULL, &len, NULL, 0) == -1)
		return NULL;
	len += len / 4 + 16 * size;
	if ((table = malloc(len)) == NULL)
		return NULL;
	mib[5] = (int)(len / size);
	if (sysctl(mib, 6, table, &len, NULL, 0) == -1) {
		error = errno;
		free(table);
		errno = error;
		return NULL;
	}
	*count = len / size;
	return table;
}

int
procfd_list(pid_t pid, int fd, struct procfd_file **files, size_t *n)
{
	int mib[6] = { CTL_KERN, KERN_FILE2, KERN_FILE_BYPID, pid,
	    (int)sizeof(struct kinfo_file), 0 };
	struct kinfo_file *kf, *k;
	struct procfd_file *f;
	size_t room = 0, count;
	int error;
	bool found = false;

	*files = NULL;
	*n = 0;
	if ((error = process_state(pid, NULL)) != 0)
		return error;
	if ((kf = read_table(mib, sizeof(*kf), &count)) == NULL)
		return errno;
	for (size_t i = 0; i < count && error == 0; i++) {
		k = &kf[i];
		if (fd >= 0 && k->ki_fd != fd)
			continue;
		found = true;
		if (k->ki_ftype != DTYPE_VNODE || (k->ki_vtype != VREG &&
		    k->ki_vtype != VBLK && k->ki_vtype != VCHR)) {
			if (fd >= 0)
				error = PROCFD_NOT_FILE;
			continue;
		}
		if ((f = procfd_grow(files, n, &room)) == NULL ||
		    (f->path = name_of(pid, k->ki_fd)) == NULL) {
			if (f != NULL)
				(*n)--;
			error = ENOMEM;
			break;
		}
		f->fd = k->ki_fd;
		f->dev = 0;
		f->ino = k->ki_fdata;	/* the vnode: one per open file */
		f->offset = k->ki_foffset;
		f->size = k->ki_vtype == VREG ? k->ki_vsize : 0;
		f->writing = (k->ki_flag & (FREAD | FWRITE)) == FWRITE;
		f->writable = (k->ki_flag & FWRITE) != 0;
	}
	free(kf);
	/* the descriptor asked for is not in the table: not open */
	return procfd_end(files, n, error == 0 && fd >= 0 && !found ? EBADF :
	    error);
}

int
procfd_find(const char *const *names, size_t nnames,
    struct procfd_named **found, size_t *n)
{
	int mib[6] = { CTL_KERN, KERN_PROC2, KERN_PROC_ALL, 0,
	    (int)sizeof(struct kinfo_proc2), 0 };
	struct kinfo_proc2 *kp;
	size_t room = 0, count;
	int error = 0;

	*found = NULL;
	*n = 0;
	if ((kp = read_table(mib, sizeof(*kp), &count)) == NULL)
		return errno;
	for (size_t i = 0; i < count && error == 0; i++)
		if (kp[i].p_stat != LSZOMB)
			error = procfd_match(found, n, &room, kp[i].p_pid,
			    kp[i].p_comm, MAXCOMLEN, names, nnames);
	free(kp);
	return error;
}
