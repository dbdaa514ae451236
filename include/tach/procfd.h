/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Another process's open files and its position in each, for -d: one
 * implementation per system (procfd_linux.c reads /proc, procfd_freebsd.c
 * kinfo_getfile(3), procfd_netbsd.c the KERN_FILE2 sysctl,
 * procfd_darwin.c libproc; procfd_none.c says it cannot).  They only read:
 * nothing is opened, written or signalled in the watched process.
 */
#ifndef TACH_PROCFD_H
#define TACH_PROCFD_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

struct procfd_file {
	int		 fd;
	char		*path;		/* as the system names it; "" if not;
					   NULL: as known (procfd_known) */
	uint64_t	 dev, ino;	/* a new file on the same fd is new */
	uint64_t	 offset;
	uint64_t	 size;		/* a file's length, a disk's; 0 unknown */
	uint64_t	 disk;		/* the disk it is (st_rdev) or is on
					   (st_dev), for its own counters;
					   0 unknown */
	bool		 writing;	/* open for writing only */
	bool		 writable;	/* open for writing, maybe reading too */
	bool		 fresh;		/* offset and flags read at this
					   listing, not kept from the last */
};

/*
 * What the caller knows of pid's descriptors from its last listing, in
 * ascending fd order, to spare looks where they cost (Linux: a few
 * system calls a descriptor): a descriptor still open to the same file
 * keeps its path (given as NULL), and, unless look[i] asks or its size
 * changed, its offset and flags (fresh false).  Unless relist is set, only the
 * descriptors known are looked at (those closed meanwhile left out, new
 * ones not seen): a listing of thousands costs more than the looks.
 * Systems whose table comes whole in one call read everything again.
 */
struct procfd_known {
	const struct procfd_file *files;
	const bool	*look;
	size_t		 n;
	bool		 relist;
};

/* A process found by its command name. */
struct procfd_named {
	pid_t		 pid;
	char		 name[32];	/* the name it matched */
};

/* The fd passed to procfd_list is open, but not to a file or disk. */
#define PROCFD_NOT_FILE	(-1)

/*
 * The regular files and disks pid has open (fd >= 0: that descriptor
 * only; known may be NULL), in *files (free with procfd_free) and *n.  Returns 0, or an errno:
 * ESRCH when pid does not exist or has exited (a zombie too), EACCES or
 * EPERM when it may not be inspected, EBADF when fd is not open,
 * PROCFD_NOT_FILE when it is open to something else, ENOSYS where the
 * system offers no way.
 */
int	procfd_list(pid_t pid, int fd, const struct procfd_known *known,
	    struct procfd_file **files, size_t *n);
void	procfd_free(struct procfd_file *files, size_t n);
/*
 * When pid started, in the system's own unit: a PID reused by another
 * process gives another value.  0, or an errno as procfd_list's (ESRCH
 * for a zombie); started may be NULL, to ask only that.
 */
int	procfd_started(pid_t pid, uint64_t *started);
/*
 * The running processes, this one aside, whose command name is one of
 * names (the system's own, which Linux cuts at 15 bytes, NetBSD at 16,
 * FreeBSD at 19, macOS at 31 or 15), in *found (free it) and *n.  0, or
 * an errno; ENOSYS where tach knows no way.
 */
int	procfd_find(const char *const *names, size_t nnames,
	    struct procfd_named **found, size_t *n);
/*
 * A hold on the process pid names now: a descriptor (Linux's pidfd) that
 * tells it from a later process given its PID, even one started in the
 * same clock tick, where start times (in ticks on Linux) cannot; -1 where
 * the system has none, or refuses.  procfd_gone is true once the held
 * process has exited: whatever has its PID now is another.
 */
int	procfd_hold(pid_t pid);
bool	procfd_gone(int hold);
/*
 * The bytes pid has read and written by any call since it started
 * (Linux: "rchar" and "wchar" of /proc/PID/io), in *read and *written:
 * 0, or an errno as procfd_list's; ENOSYS where the system keeps no such
 * count tach reads.
 */
int	procfd_io(pid_t pid, uint64_t *read, uint64_t *written);
/*
 * Whether pid may be writing to its descriptor out now, in *writing: true
 * if a thread is in a call on out (write, sendfile, fallocate) or copying
 * from in to out in one call (copy_file_range, splice), or running (its
 * call is not shown then); false if every thread is seen waiting
 * elsewhere.  0, or an errno: ESRCH, EACCES or EPERM (Linux may show
 * calls to a tracer only), ENOSYS where the system does not tell.
 */
int	procfd_writing(pid_t pid, int in, int out, bool *writing);
/*
 * pid's command line, NULL-ended, in *argv (one allocation: free it) and
 * *argc, and its working directory in *cwd (free it): 0, or an errno;
 * ENOSYS where tach knows no way.
 */
int	procfd_command(pid_t pid, char ***argv, int *argc, char **cwd);
/*
 * The directory pid started in, where the system keeps it (Linux: the PWD
 * its environment began with, which a shell sets), in *dir (free it): 0,
 * or an errno; ENOENT where it has none, ENOSYS where tach knows no way.
 * Its working directory may have moved since (rsync's sender, tar -C).
 */
int	procfd_start_dir(pid_t pid, char **dir);
/* A descriptor of a process, open to a file asked about. */
struct procfd_held {
	pid_t		 pid;
	int		 fd;
};
/*
 * The processes of this user, this one aside, with the file dev/ino open,
 * each descriptor in *found (free it) and *n: 0, or an errno; ENOSYS
 * where tach knows no way.
 */
int	procfd_holders(uint64_t dev, uint64_t ino, struct procfd_held **found,
	    size_t *n);
/* pid's parent, in *parent: 0, or an errno as procfd_command's. */
int	procfd_parent(pid_t pid, pid_t *parent);


/*
 * For the implementations (procfd.c).  One descriptor as a system's table
 * gives it (kinfo_getfile's kinfo_file, KERN_FILE2's, proc_pidfdinfo's),
 * its fields made plain, for procfd_take.
 */
enum procfd_kind { PROCFD_REGULAR, PROCFD_DISK, PROCFD_OTHER };
struct procfd_entry {
	int		 fd;		/* < 0: not a descriptor (cwd, text) */
	enum procfd_kind kind;		/* a disk: a block or char device */
	const char	*path;		/* copied; NULL: "" */
	uint64_t	 dev, ino;
	int64_t		 offset;	/* below 0 (unknown): 0 */
	uint64_t	 size;		/* a regular file's, else not used */
	bool		 readable, writable;
};
/*
 * The rule every system's table is read by: e joins the list if it is a
 * descriptor (fd < 0: any; else that one, and *found is set) open to a
 * regular file or a disk.  0; PROCFD_NOT_FILE when it is the fd asked
 * for and is not one; ENOMEM.
 */
int			 procfd_take(struct procfd_file **files, size_t *n,
			    size_t *room, const struct procfd_entry *e, int fd,
			    bool *found);
/*
 * array (of *room items of size bytes, n used) with room for one more:
 * itself, or grown (the old one freed), or NULL with the old one kept.
 */
void			*procfd_room(void *array, size_t n, size_t *room,
			    size_t size);
/*
 * Linux: visit(pid, arg) for each process (own: of this user only), this
 * one aside, until it returns other than 0: that, or 0, or opendir's
 * errno.
 */
int			 procfd_each(bool own, int (*visit)(pid_t, void *),
			    void *arg);
/*
 * Linux: visit(pid, number, arg) for each entry of /proc/PID/what named
 * by a number (what "fd": a descriptor; "task": a thread), until one
 * returns other than 0: that, or 0, or ESRCH if pid is gone, or
 * opendir's errno.
 */
int			 procfd_entries(pid_t pid, const char *what,
			    int (*visit)(pid_t, long, void *), void *arg);
/*
 * Linux: a small /proc file's text, NUL-ended, in one read (the kernel
 * gives such a file whole; stdio would add a stat and a second read): 0,
 * ESRCH when it is gone, or an errno.
 */
int			 procfd_text(const char *path, char *buf, size_t len);
/* A new entry at the list's end. */
struct procfd_file	*procfd_grow(struct procfd_file **files, size_t *n,
			    size_t *room);
/*
 * Listing every file: one descriptor's error (closed meanwhile, not a
 * file, a stale file system) passes it over; those that mean the process
 * cannot be inspected, or tach is out of memory, do not.
 */
bool			 procfd_skip(int error);
/* Returns error, after freeing the list and leaving it empty if any. */
int			 procfd_end(struct procfd_file **files, size_t *n,
			    int error);
/*
 * As procfd_end, for a system that gives the whole table in one call
 * (the BSDs), freed here: fd (-1: all) not found in it is not open.
 */
int			 procfd_end_table(struct procfd_file **files,
			    size_t *n, int error, void *table, int fd,
			    bool found);
/*
 * For procfd_find: adds pid (not this process) to *found if comm, a
 * command name the system cuts at cut bytes, is one of names.  0, or
 * ENOMEM after freeing the list.
 */
int			 procfd_match(struct procfd_named **found, size_t *n,
			    size_t *room, pid_t pid, const char *comm, size_t cut,
			    const char *const *names, size_t nnames);

#endif
