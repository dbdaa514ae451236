/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Linux's /proc text, parsed for -d (procfd_linux.c), and a watched copy
 * tool's command line (watch/whole.c).  Pure, so that the fuzz harness
 * reaches it: the text comes from another process's files.
 */
#ifndef TACH_PROCPARSE_H
#define TACH_PROCPARSE_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

/*
 * /proc/PID/stat: ESRCH for a zombie, a dead process, one in exit(2)
 * (whose files close at any moment) or a line that cannot be read, else
 * 0, with the start time (field 22, in clock ticks since boot) in
 * *started unless it is NULL.
 */
int	procparse_stat(const char *text, uint64_t *started);
/* /proc/PID/stat's parent (field 4), of any process; false if none. */
bool	procparse_parent(const char *text, pid_t *parent);
/*
 * NAME's value in /proc/PID/environ's text: len bytes of NUL-ended
 * "NAME=VALUE" strings, the last one's NUL included; NULL if none.
 */
const char *procparse_env(const char *text, size_t len, const char *name);
/*
 * /proc/PID/fdinfo/FD: the "pos:" and "flags:" (octal) lines; false if
 * there is no "pos:" line.
 */
bool	procparse_fdinfo(const char *text, uint64_t *pos, int *flags);
/*
 * /proc/PID/io: "rchar:" and "wchar:", the bytes read and written by any
 * call, each unless its pointer is NULL; false if one asked is not there.
 */
bool	procparse_io(const char *text, uint64_t *rchar, uint64_t *wchar);

/*
 * /proc/PID/stat or /proc/PID/task/TID/stat: the state letter (field 3)
 * in *state and the CPU time (utime and stime, fields 14 and 15, in clock
 * ticks) in *ticks; false if the text is not one.
 */
bool	procparse_cpu(const char *text, char *state, uint64_t *ticks);
/* Where a thread asleep in the kernel function wchan waits. */
enum procparse_wait {
	PROCPARSE_ELSEWHERE,	/* not on a pipe, or not known */
	PROCPARSE_PIPE_IN,	/* for input on an empty pipe */
	PROCPARSE_PIPE_OUT	/* for room in a full pipe */
};
enum procparse_wait procparse_wchan(const char *wchan);

/* What a thread does, as /proc/PID/task/TID/syscall tells. */
enum procparse_call {
	PROCPARSE_RUNNING,	/* on a CPU or ready for one: not shown */
	PROCPARSE_IN_CALL,	/* asleep in a system call */
	PROCPARSE_NO_CALL	/* stopped or asleep outside any call */
};
/*
 * /proc/PID/task/TID/syscall: what the thread does, in *call, and in a
 * call its first three arguments in arg[]; false if the text is not one.
 */
bool	procparse_syscall(const char *text, enum procparse_call *call,
	    uint64_t arg[3]);

/*
 * What each argument of a copy tool's command line is, for -d's whole
 * copy: its sources are the directories among the operands.
 */
enum procparse_arg {
	PROCPARSE_OPTION,	/* an option, or the command itself */
	PROCPARSE_OPERAND,	/* a source, if it is a directory */
	PROCPARSE_TARGET,	/* cp's or rsync's last, -t's: not a source */
	PROCPARSE_BASE		/* tar -C's: later operands are under it */
};
/*
 * Sorts argv[0..argc) into kind[]: options (a lone "--" ends them),
 * operands, -t DIR and --target-directory's target, and, where the
 * command (argv[0]'s last part) is cp, mv, rsync, scp or install and no
 * -t was given, its last operand; tar's -C DIR and --directory.
 */
void	procparse_sources(const char *const *argv, int argc,
	    enum procparse_arg *kind);

#endif
