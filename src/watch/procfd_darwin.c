/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * procfd on macOS: libproc lists the descriptors (PROC_PIDLISTFDS) and
 * gives each vnode's path, offset and size (PROC_PIDFDVNODEPATHINFO);
 * PROC_PIDTBSDINFO tells a zombie and, for -d NAME, the command name of
 * each process proc_listallpids lists.  A disk's size is not asked for.
 */
#include <sys/types.h>
#include <sys/param.h>
#include <sys/proc.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <libproc.h>
#include <stdio.h>
#include <stdlib.h>

#include "tach/procfd.h"

int
procfd_started(pid_t pid, uint64_t *started)
{
	struct proc_bsdinfo bi;

	if (proc_pidinfo(pid, PROC_PIDTBSDINFO, 0, &bi, sizeof(bi)) !=
	    (int)sizeof(bi))
		return errno == EPERM || errno == EACCES ? errno : ESRCH;
	if (started != NULL)
		*started = (uint64_t)bi.pbi_start_tvsec * 1000000 +
		    (uint64_t)bi.pbi_start_tvusec;
	return bi.pbi_status == SZOMB ? ESRCH : 0;
}

/* Adds fd if it is a file or disk: 0, or an errno. */
static int
add(pid_t pid, int fd, struct procfd_file **files, size_t *n, size_t *room)
{
	struct vnode_fdinfowithpath vi;
	struct procfd_entry e;
	mode_t mode;
	bool found;

	if (proc_pidfdinfo(pid, fd, PROC_PIDFDVNODEPATHINFO, &vi,
	    sizeof(vi)) != (int)sizeof(vi))
		return errno == EPERM || errno == EACCES ? errno : EBADF;
	mode = (mode_t)vi.pvip.vip_vi.vi_stat.vst_mode;
	e = (struct procfd_entry){
		.fd = fd,
		.kind = S_ISREG(mode) ? PROCFD_REGULAR :
		    S_ISBLK(mode) || S_ISCHR(mode) ? PROCFD_DISK : PROCFD_OTHER,
		.path = vi.pvip.vip_path,
		.dev = (uint64_t)vi.pvip.vip_vi.vi_stat.vst_dev,
		.ino = (uint64_t)vi.pvip.vip_vi.vi_stat.vst_ino,
		.offset = vi.pfi.fi_offset,
		.size = (uint64_t)vi.pvip.vip_vi.vi_stat.vst_size,
		.readable = (vi.pfi.fi_openflags & FREAD) != 0,
		.writable = (vi.pfi.fi_openflags & FWRITE) != 0,
	};
	return procfd_take(files, n, room, &e, fd, &found);
}

int
procfd_list(pid_t pid, int fd, const struct procfd_known *known,
    struct procfd_file **files, size_t *n)
{
	struct proc_fdinfo *fds;
	size_t room = 0, count;
	int bytes, error;

	(void)known;	/* the table comes whole in one call */
	*files = NULL;
	*n = 0;
	if ((error = procfd_started(pid, NULL)) != 0)
		return error;
	if (fd >= 0)
		return procfd_end(files, n, add(pid, fd, files, n, &room));
	if ((bytes = proc_pidinfo(pid, PROC_PIDLISTFDS, 0, NULL, 0)) <= 0)
		return errno != 0 ? errno : ESRCH;
	/* descriptors opened between the two calls: room to spare */
	bytes += bytes / 4 + 16 * (int)sizeof(*fds);
	if ((fds = malloc((size_t)bytes)) == NULL)
		return errno;
	if ((bytes = proc_pidinfo(pid, PROC_PIDLISTFDS, 0, fds, bytes)) <= 0) {
		free(fds);
		return errno != 0 ? errno : ESRCH;
	}
	count = (size_t)bytes / sizeof(*fds);
	for (size_t i = 0; i < count && error == 0; i++) {
		if (fds[i].proc_fdtype != PROX_FDTYPE_VNODE)
			continue;
		error = add(pid, fds[i].proc_fd, files, n, &room);
		if (procfd_skip(error))
			error = 0;
	}
	free(fds);
	return procfd_end(files, n, error);
}

int
procfd_find(const char *const *names, size_t nnames,
    struct procfd_named **found, size_t *n)
{
	struct proc_bsdinfo bi;
	char comm[2 * MAXCOMLEN + 1];
	pid_t *pids;
	size_t room = 0;
	int count, error = 0;

	*found = NULL;
	*n = 0;
	if ((count = proc_listallpids(NULL, 0)) <= 0)
		return errno != 0 ? errno : ESRCH;
	/* processes started between the two calls: room to spare */
	count += count / 4 + 16;
	if ((pids = calloc((size_t)count, sizeof(*pids))) == NULL)
		return errno;
	if ((count = proc_listallpids(pids, count * (int)sizeof(*pids))) <= 0) {
		error = errno != 0 ? errno : ESRCH;
		free(pids);
		return error;
	}
	for (int i = 0; i < count && error == 0; i++) {
		/* one that has exited, or may not be asked about, is passed over */
		if (proc_pidinfo(pids[i], PROC_PIDTBSDINFO, 0, &bi,
		    sizeof(bi)) != (int)sizeof(bi) || bi.pbi_status == SZOMB)
			continue;
		/* pbi_name, the longer, is what exec named; it may be empty */
		if (bi.pbi_name[0] != '\0')
			snprintf(comm, sizeof(comm), "%.*s",
			    (int)sizeof(bi.pbi_name), bi.pbi_name);
		else
			snprintf(comm, sizeof(comm), "%.*s",
			    (int)sizeof(bi.pbi_comm), bi.pbi_comm);
		error = procfd_match(found, n, &room, pids[i], comm,
		    (bi.pbi_name[0] != '\0' ? sizeof(bi.pbi_name) :
		    sizeof(bi.pbi_comm)) - 1, names, nnames);
	}
	free(pids);
	return error;
}
