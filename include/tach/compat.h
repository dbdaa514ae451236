/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The compat layer: what differs between systems, behind plain calls,
 * as tmux's compat/ does; the build picks the files.  Linux's own is
 * compat_linux.c, macOS's compat_darwin.c; what all but Linux share is
 * compat_unix.c, what all but macOS share (setproctitle, closefrom)
 * compat_bsdlike.c, so FreeBSD, NetBSD and the rest need no file of
 * their own.  -d's ways of reading another process's files are the same
 * kind of thing, larger: procfd_*.c.
 */
#ifndef TACH_COMPAT_H
#define TACH_COMPAT_H

#include <sys/types.h>

#include <poll.h>
#include <signal.h>

#include <stdbool.h>
#include <stdint.h>

#include "config.h"

#ifndef HAVE_REALLOCARRAY
/* realloc of nmemb * size bytes, or NULL with ENOMEM if that overflows */
void	*reallocarray(void *p, size_t nmemb, size_t size);
#endif

/*
 * -R's sockets can be named in an abstract namespace (Linux): no file is
 * made, none is left behind.  Elsewhere they are files in a directory
 * only this user may enter.
 */
extern const bool	compat_abstract_sockets;

/*
 * Readies main's arguments for compat_title, before anything keeps a
 * pointer into them (libbsd moves them).
 */
void	compat_title_init(int argc, char *argv[]);
/* setproctitle(3) where the system has it, else nothing. */
void	compat_title(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
/*
 * Grows the pipe fd toward want bytes, within the system's limit (Linux:
 * F_SETPIPE_SZ, up to fs/pipe-max-size unless privileged); a refusal, or
 * a system where pipes have one size, keeps the size it has.  Returns the
 * size it has, or 0 where the system does not say.
 */
size_t	compat_grow_pipe(int fd, size_t want);
/*
 * How many bytes -b's buffer may hold in pipes of its own and leave the
 * user's other pipes their size (Linux: a quarter of the user's allowance,
 * fs/pipe-user-pages-soft, which binds only the unprivileged); 0 where
 * compat_splice cannot move bytes.
 */
size_t	compat_pipe_budget(void);
/*
 * What the pipe fd takes now without waiting (its size less what it
 * holds), so that a write to it returns whole and its count is known
 * when tach must end with a reader stopped; 0 when it is full.  Where
 * the system does not tell a pipe's size, no more than the smallest a
 * pipe has (16 KiB) less what it holds.
 */
size_t	compat_pipe_room(int fd);
/*
 * Moves up to len bytes from from to to, one of them a pipe, without
 * copying them through tach (Linux: splice(2)); nonblock makes neither
 * side wait.  Returns as splice does; elsewhere -1 with ENOSYS.
 */
ssize_t	compat_splice(int from, int to, size_t len, bool nonblock);
/*
 * Copies up to len bytes from the pipe from into the pipe to without
 * taking them from from (Linux: tee(2)), waiting for both sides.
 * Returns as tee does; elsewhere -1 with ENOSYS.
 */
ssize_t	compat_tee(int from, int to, size_t len);
/*
 * The blocks for a file of size bytes, taken now (posix_fallocate, or
 * macOS's F_PREALLOCATE), so that a full disk cannot fail a write into
 * its mapping later: 0, or an errno.
 */
int	compat_reserve(int fd, size_t size);
/*
 * The calling thread's timers wake on time to a microsecond (Linux's
 * timer slack is 50), for pauses of tens of them; elsewhere nothing.
 */
void	compat_fine_timer(void);
/*
 * -K: reads and writes of fd past the page cache (O_DIRECT; macOS's
 * F_NOCACHE), or through it again: 0, or -1 with errno (ENOTSUP where
 * the system has no such mode).  Only for files and disks: on a Linux
 * pipe O_DIRECT means packets.
 */
int	compat_direct(int fd, bool on);
/*
 * A new open file description of what fd is, opened with flags (each
 * its own offset and O_DIRECT, where fd's may be shared with the shell):
 * the descriptor, close-on-exec, or -1 with errno (ENOTSUP where the
 * system cannot open a file by its descriptor).
 */
int	compat_reopen(int fd, int flags);
/*
 * The PID, in this process's PID namespace, of the process at the other
 * end of the Unix socket fd (0 if it is not in this namespace), or -1
 * with errno (ENOTSUP where the system does not say; there the socket's
 * name is a file, which no other namespace can reach).
 */
long	compat_peer_pid(int fd);
/*
 * The bytes of memory this process may have: the physical memory, or
 * less where a memory cgroup limits it (Linux); *why names which.
 */
unsigned long long	compat_memory_limit(const char **why);
/*
 * Where fd's next data (or with hole, its next hole) is from at on:
 * lseek's SEEK_DATA, SEEK_HOLE; -1 with errno ENXIO past its last data,
 * or another where the system cannot say.  fd's offset moves there.
 */
off_t	compat_seek_next(int fd, off_t at, bool hole);
/*
 * len bytes for a buffer that is read into and read back whole, a
 * megabyte at a time (the fanout's stages): where the system can, on huge
 * pages (Linux: aligned, MADV_HUGEPAGE), whose one TLB entry makes
 * copying a megabyte out of a pipe a quarter of the cost it has on 4 KiB
 * pages; else malloc's.  Freed with free(3); NULL with errno.
 */
void	*compat_buffer(size_t len);
/*
 * The bytes the disk dev (a disk's st_rdev, or a file's st_dev) has
 * written since it was started, by its own counters (Linux: sysfs's
 * block statistics): 0, or an errno (ENOENT: not a disk; ENOSYS where
 * the system keeps none tach reads).
 */
int	compat_disk_written(uint64_t dev, uint64_t *bytes);
/*
 * -d's whole copy: the files closed after reading in directories watched
 * (Linux: inotify's IN_CLOSE_NOWRITE), by any process, as they happen,
 * so that none read between two samples is missed.  compat_closes_open
 * returns NULL (errno ENOSYS where the system has no way); _add watches
 * one directory, returning its id or -1 with errno; _next gives the next
 * file closed (never a directory), false when none waits.
 */
/*
 * Waits for a signal, with mask the signal mask meanwhile (as
 * sigsuspend), or for one of the n fds to be ready (Linux: ppoll, where
 * a process's pidfd tells its exit at once); elsewhere for a signal only,
 * as no descriptor there tells a process's end.
 */
void	compat_wait(struct pollfd *fds, size_t n, const sigset_t *mask);
struct compat_closes;
struct compat_closes	*compat_closes_open(void);
int	compat_closes_add(struct compat_closes *c, const char *dir);
bool	compat_closes_next(struct compat_closes *c, int *id,
	    const char **name);
void	compat_closes_free(struct compat_closes *c);
/* fd is a file in memory (tmpfs, ramfs): its pages are RAM or swap. */
bool	compat_in_memory(int fd);
/* Closes every descriptor from lowfd up: closefrom(2), or a loop. */
void	compat_closefrom(int lowfd);
/*
 * A descriptor that holds the process pid names now (Linux's pidfd, which
 * polls readable once it has exited), close-on-exec; -1 where the system
 * has none, or refuses.
 */
int	compat_process_hold(pid_t pid);

#endif
