/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The pipes between other processes, and where their threads wait, for
 * -d --pipeline: one implementation per system (procpipe_linux.c reads
 * /proc; procpipe_none.c says the system does not tell).  Nothing is
 * opened in another process: a pipe's end opened through /proc would be
 * a new reader or writer, and change how the pipeline ends.
 */
#ifndef TACH_PROCPIPE_H
#define TACH_PROCPIPE_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

/* One end of a pipe a process holds. */
struct procpipe_end {
	pid_t		 pid;
	int		 fd;
	uint64_t	 pipe;		/* the pipe's identity (its inode) */
	bool		 writes;	/* the write end */
};

/*
 * The processes of this user, this one aside, holding any of the pipes
 * pipes[0..npipes) (in ascending order), each end in *ends (free it) and
 * *n; with npipes 0, the pipes pid alone holds.  0, or an errno: ESRCH
 * for a pid gone, EACCES or EPERM for one that may not be inspected,
 * ENOSYS where the system does not tell.
 */
int	procpipe_ends(pid_t pid, const uint64_t *pipes, size_t npipes,
	    struct procpipe_end **ends, size_t *n);

/* A process at one look: its totals, and what its threads do now. */
struct procpipe_look {
	char		 command[32];
	uint64_t	 cpu;		/* CPU time, every thread's, in ticks */
	uint64_t	 read, written;	/* bytes, by any call */
	unsigned	 threads;
	unsigned	 running;	/* on a CPU or ready for one */
	unsigned	 pipe_in;	/* asleep for input on a pipe */
	unsigned	 pipe_out;	/* asleep for room in a pipe */
	unsigned	 disk;		/* in uninterruptible I/O */
};
/* A look at pid: 0, or an errno as procpipe_ends's (ESRCH for a zombie). */
int	procpipe_look(pid_t pid, struct procpipe_look *look);
/* The ticks of procpipe_look's cpu in a second. */
long	procpipe_ticks(void);

#endif
