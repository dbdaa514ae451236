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
#include <unistd.h>

#include "tach/procfd.h"

int
procfd_started(pid_t pid, uint64_t *started)
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

/* The path /proc gives for pid's fd, in target; "" if it gives none. */
static const char *
name_of(pid_t pid, int fd, char *target, size_t size)
{
	char link[64];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, fd);
	len = readlink(link, target, size - 1);
	target[len > 0 ? len : 0] = '\0';
	return target;
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
procfd_list(pid_t pid, int fd, const struct procfd_known *known,
    struct procfd_file **files, size_t *n)
{
	int mib[6] = { CTL_KERN, KERN_FILE2, KERN_FILE_BYPID, pid,
	    (int)sizeof(struct kinfo_file), 0 };
	struct kinfo_file *kf, *k;
	struct procfd_entry e;
	char target[PATH_MAX];
	size_t room = 0, count;
	int error;
	bool found = false;

	(void)known;	/* the table comes whole in one call */
	*files = NULL;
	*n = 0;
	if ((error = procfd_started(pid, NULL)) != 0)
		return error;
	if ((kf = read_table(mib, sizeof(*kf), &count)) == NULL)
		return errno;
	for (size_t i = 0; i < count && error == 0; i++) {
		k = &kf[i];
		e = (struct procfd_entry){
			.fd = k->ki_fd,
			.kind = k->ki_ftype != DTYPE_VNODE ? PROCFD_OTHER :
			    k->ki_vtype == VREG ? PROCFD_REGULAR :
			    k->ki_vtype == VBLK || k->ki_vtype == VCHR ?
			    PROCFD_DISK : PROCFD_OTHER,
			.ino = k->ki_fdata,	/* the vnode: one per open file */
			.offset = (int64_t)k->ki_foffset,
			.size = k->ki_vsize,
			.readable = (k->ki_flag & FREAD) != 0,
			.writable = (k->ki_flag & FWRITE) != 0,
		};
		/* /proc is asked only for what will be listed */
		if (e.kind != PROCFD_OTHER && (fd < 0 || e.fd == fd))
			e.path = name_of(pid, e.fd, target, sizeof(target));
		error = procfd_take(files, n, &room, &e, fd, &found);
	}
	return procfd_end_table(files, n, error, kf, fd, found);
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
