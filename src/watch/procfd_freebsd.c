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

#include "tach/procfd.h"

int
procfd_started(pid_t pid, uint64_t *started)
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
procfd_list(pid_t pid, int fd, const struct procfd_known *known,
    struct procfd_file **files, size_t *n)
{
	struct kinfo_file *kf, *k;
	struct procfd_entry e;
	size_t room = 0;
	int count, error, type;
	bool found = false;

	(void)known;	/* the table comes whole in one call */
	*files = NULL;
	*n = 0;
	if ((error = procfd_started(pid, NULL)) != 0)
		return error;
	if ((kf = kinfo_getfile(pid, &count)) == NULL)
		return errno != 0 ? errno : ESRCH;
	/* the cwd, root and text have kf_fd < 0: not descriptors */
	for (int i = 0; i < count && error == 0; i++) {
		k = &kf[i];
		type = k->kf_un.kf_file.kf_file_type;
		e = (struct procfd_entry){
			.fd = k->kf_fd,
			.kind = k->kf_type != KF_TYPE_VNODE ? PROCFD_OTHER :
			    type == KF_VTYPE_VREG ? PROCFD_REGULAR :
			    type == KF_VTYPE_VCHR ? PROCFD_DISK : PROCFD_OTHER,
			.path = k->kf_path,
			.dev = k->kf_un.kf_file.kf_file_fsid,
			.ino = k->kf_un.kf_file.kf_file_fileid,
			.offset = k->kf_offset,
			.size = k->kf_un.kf_file.kf_file_size,
			.readable = (k->kf_flags & KF_FLAG_READ) != 0,
			.writable = (k->kf_flags & KF_FLAG_WRITE) != 0,
		};
		error = procfd_take(files, n, &room, &e, fd, &found);
	}
	return procfd_end_table(files, n, error, kf, fd, found);
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
