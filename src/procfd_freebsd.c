/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * procfd on FreeBSD: kinfo_getfile(3) gives every descriptor with its
 * path, kf_offset and the file's size; kinfo_getproc(3) tells a zombie,
 * kinfo_getallproc(3) lists the processes for -d NAME.
 * A disk is a character device here; its size is not asked for, since
 * that would mean opening it (a tape rewinds on close).
 */
#include <sys/types.h>
#include <sys/sysctl.h>
#include <sys/user.h>

#include <errno.h>
#include <fcntl.h>
#include <libutil.h>
#include <stdlib.h>
#include <string.h>

#include "tach/procfd.h"

static int
process_state(pid_t pid, uint64_t *started)
{
	struct kinfo_proc *kp;
	int error = 0;

	if ((kp = kinfo_getproc(pid)) == NULL)
		return errno != 0 ? errno : ESRCH;
	if (kp->ki_stat == SZOMB)
		error = ESRCH;
	if (started != NULL)
		*started = (uint64_t)kp->ki_start.tv_sec * 1000000 +
		    (uint64_t)kp->ki_start.tv_usec;
	free(kp);
	return error;
}

int
procfd_started(pid_t pid, uint64_t *started)
{
	return process_state(pid, started);
}

int
procfd_list(pid_t pid, int fd, struct procfd_file **files, size_t *n)
{
	struct kinfo_file *kf, *k;
	struct procfd_file *f;
	size_t room = 0;
	int count, error, type;
	bool found = false;

	*files = NULL;
	*n = 0;
	if ((error = process_state(pid, NULL)) != 0)
		return error;
	if ((kf = kinfo_getfile(pid, &count)) == NULL)
		return errno != 0 ? errno : ESRCH;
	for (int i = 0; i < count && error == 0; i++) {
		k = &kf[i];
		if (k->kf_fd < 0 || (fd >= 0 && k->kf_fd != fd))
			continue;	/* the cwd, root, text: not descriptors */
		found = true;
		type = k->kf_un.kf_file.kf_file_type;
		if (k->kf_type != KF_TYPE_VNODE ||
		    (type != KF_VTYPE_VREG && type != KF_VTYPE_VCHR)) {
			if (fd >= 0)
				error = PROCFD_NOT_FILE;
			continue;
		}
		if ((f = procfd_grow(files, n, &room)) == NULL ||
		    (f->path = strdup(k->kf_path)) == NULL) {
			if (f != NULL)
				(*n)--;
			error = ENOMEM;
			break;
		}
		f->fd = k->kf_fd;
		f->dev = k->kf_un.kf_file.kf_file_fsid;
		f->ino = k->kf_un.kf_file.kf_file_fileid;
		f->offset = k->kf_offset > 0 ? (uint64_t)k->kf_offset : 0;
		f->size = type == KF_VTYPE_VREG ?
		    k->kf_un.kf_file.kf_file_size : 0;
		f->writing = (k->kf_flags & (KF_FLAG_READ | KF_FLAG_WRITE)) ==
		    KF_FLAG_WRITE;
		f->writable = (k->kf_flags & KF_FLAG_WRITE) != 0;
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
	struct kinfo_proc *kp;
	size_t room = 0;
	int count, error = 0;

	*found = NULL;
	*n = 0;
	if ((kp = kinfo_getallproc(&count)) == NULL)
		return errno != 0 ? errno : ENOMEM;
	for (int i = 0; i < count && error == 0; i++)
		if (kp[i].ki_stat != SZOMB)
			error = procfd_match(found, n, &room, kp[i].ki_pid,
			    kp[i].ki_comm, COMMLEN, names, nnames);
	free(kp);
	return error;
}
