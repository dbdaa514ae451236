/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * procfd on Linux: /proc/PID/fd names each descriptor's file (stat(2)
 * through the link needs no open) and /proc/PID/fdinfo/FD its position and
 * open flags; a disk's size comes from /sys/dev/block; /proc/PID/io,
 * cmdline and cwd tell a whole copy.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/procfd.h"
#include "tach/procparse.h"

int
procfd_text(const char *path, char *buf, size_t len)
{
	ssize_t got;
	int fd, error;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return errno == ENOENT ? ESRCH : errno;
	got = read(fd, buf, len - 1);
	error = errno;
	close(fd);
	if (got == -1)
		return error == ENOENT ? ESRCH : error;
	buf[got] = '\0';
	return 0;
}

/* /proc/PID/NAME's text: 0, ESRCH when the process is gone, or an errno. */
static int
slurp_proc(pid_t pid, const char *name, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	return procfd_text(path, buf, len);
}

/*
 * ESRCH for a process that is gone or a zombie, whose files are closed;
 * its start time in *started unless it is NULL.
 */
int
procfd_started(pid_t pid, uint64_t *started)
{
	char buf[1024];
	int error = slurp_proc(pid, "stat", buf, sizeof(buf));

	return error != 0 ? error : procparse_stat(buf, started);
}

/* fdinfo's "pos:" and "flags:" lines; false if the fd was closed. */
static bool
fdinfo(pid_t pid, int fd, uint64_t *pos, int *flags)
{
	char path[64], buf[4096];

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)pid, fd);
	return procfd_text(path, buf, sizeof(buf)) == 0 &&
	    procparse_fdinfo(buf, pos, flags);
}

/* A block device's size in bytes, from sysfs; 0 if it cannot be told. */
static uint64_t
disk_size(dev_t rdev)
{
	char path[96];
	unsigned long long sectors;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/size",
	    major(rdev), minor(rdev));
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	n = fscanf(f, "%llu", &sectors);
	fclose(f);
	return n == 1 ? (uint64_t)sectors * 512 : 0;	/* always 512 here */
}

/* The last listing's entry for fd (the list is in fd order), or NULL. */
static const struct procfd_file *
known_entry(const struct procfd_known *known, int fd, bool *look)
{
	size_t lo = 0, hi = known != NULL ? known->n : 0, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (known->files[mid].fd == fd) {
			*look = known->look != NULL && known->look[mid];
			return &known->files[mid];
		}
		if (known->files[mid].fd < fd)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* An entry as the last listing had it, its path not copied (NULL). */
static int
keep(const struct procfd_file *k, struct procfd_file **files, size_t *n,
    size_t *room)
{
	struct procfd_file *f;

	if ((f = procfd_grow(files, n, room)) == NULL)
		return ENOMEM;
	*f = *k;
	f->path = NULL;
	f->fresh = false;
	return 0;
}

/*
 * Adds pid's fd to the list if it is a file or a disk: 0, or an errno.
 * A file it read only and that stood still is taken as it was unless the
 * caller asks for a look; otherwise one stat(2) tells a descriptor still
 * open to the file it had, only a new one is named (readlink), and only a
 * new one, one asked for, or one whose size changed has its position
 * read again.
 */
static int
add(pid_t pid, int fd, const struct procfd_known *known,
    struct procfd_file **files, size_t *n, size_t *room)
{
	char link[64], target[PATH_MAX], *path;
	const struct procfd_file *k;
	struct procfd_file *f;
	struct stat sb;
	ssize_t len;
	uint64_t pos, size;
	bool look = true;
	int flags;

	if ((k = known_entry(known, fd, &look)) != NULL && !look &&
	    !k->writable)
		return keep(k, files, n, room);
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, fd);
	if (stat(link, &sb) == -1)
		return errno == ENOENT ? EBADF : errno;
	if (!S_ISREG(sb.st_mode) && !S_ISBLK(sb.st_mode))
		return PROCFD_NOT_FILE;
	if (k != NULL &&
	    (k->dev != (uint64_t)sb.st_dev || k->ino != (uint64_t)sb.st_ino))
		k = NULL;
	/* a disk's size does not change while it is open */
	size = S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size :
	    k != NULL ? k->size : disk_size(sb.st_rdev);
	if (k != NULL && !look && size == k->size)
		return keep(k, files, n, room);
	if (k == NULL) {
		if ((len = readlink(link, target, sizeof(target) - 1)) == -1)
			return errno == ENOENT ? EBADF : errno;
		target[len] = '\0';
	}
	if (!fdinfo(pid, fd, &pos, &flags))
		return EBADF;
	if ((path = strdup(k != NULL ? k->path : target)) == NULL ||
	    (f = procfd_grow(files, n, room)) == NULL) {
		free(path);
		return ENOMEM;
	}
	f->path = path;
	f->fd = fd;
	f->dev = (uint64_t)sb.st_dev;
	f->ino = (uint64_t)sb.st_ino;
	f->offset = pos;
	f->size = size;
	f->disk = S_ISREG(sb.st_mode) ? (uint64_t)sb.st_dev :
	    (uint64_t)sb.st_rdev;
	f->writing = (flags & O_ACCMODE) == O_WRONLY;
	f->writable = (flags & O_ACCMODE) != O_RDONLY;
	f->fresh = true;
	return 0;
}

/* A directory entry named by a number (a PID, a descriptor), or -1. */
static long
entry_number(const struct dirent *e)
{
	char *end;
	long num = strtol(e->d_name, &end, 10);

	return *end != '\0' || end == e->d_name || num < 0 || num > INT_MAX ?
	    -1 : num;
}

/*
 * visit(pid, number, arg) for each entry of path named by a number, until
 * one returns other than 0: that, or 0; -1 if path cannot be opened.
 */
static int
numbered(const char *path, pid_t pid, int (*visit)(pid_t, long, void *),
    void *arg)
{
	struct dirent *e;
	DIR *dir;
	long num;
	int error = 0;

	if ((dir = opendir(path)) == NULL)
		return -1;
	while (error == 0 && (e = readdir(dir)) != NULL)
		if ((num = entry_number(e)) != -1)
			error = visit(pid, num, arg);
	closedir(dir);
	return error;
}

int
procfd_entries(pid_t pid, const char *what,
    int (*visit)(pid_t, long, void *), void *arg)
{
	char path[64];
	int error;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, what);
	if ((error = numbered(path, pid, visit, arg)) == -1)
		return errno == ENOENT ? ESRCH : errno;
	return error;
}

/* A listing's files so far, as procfd_list gives them. */
struct listing {
	const struct procfd_known *known;
	struct procfd_file	**files;
	size_t			 *n, room;
};

/* pid's fd added to the listing, unless it is to be passed over. */
static int
listed(pid_t pid, long fd, void *arg)
{
	struct listing *l = arg;
	int error = add(pid, (int)fd, l->known, l->files, l->n, &l->room);

	return procfd_skip(error) ? 0 : error;
}

int
procfd_list(pid_t pid, int fd, const struct procfd_known *known,
    struct procfd_file **files, size_t *n)
{
	struct listing l = { known, files, n, 0 };
	int error;

	*files = NULL;
	*n = 0;
	if ((error = procfd_started(pid, NULL)) != 0)
		return error;
	if (fd >= 0) {
		/* one descriptor: looked at in full, for its closing */
		error = add(pid, fd, NULL, files, n, &l.room);
		/* a process that exits takes its descriptors along */
		if (error == EBADF && procfd_started(pid, NULL) != 0)
			error = ESRCH;
		return procfd_end(files, n, error);
	}
	if (known != NULL && !known->relist) {
		for (size_t i = 0; i < known->n && error == 0; i++)
			error = listed(pid, known->files[i].fd, &l);
	} else
		error = procfd_entries(pid, "fd", listed, &l);
	/* files missing because the process is exiting were not closed */
	if (error == 0)
		error = procfd_started(pid, NULL);
	return procfd_end(files, n, error);
}

/*
 * The command name in /proc/PID/stat's text, between the first "(" and
 * the last ")"; false if the process is a zombie (its files closed) or the
 * text is not one.
 */
static bool
stat_comm(const char *text, char *comm, size_t len)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');

	if (open == NULL || close == NULL || close < open ||
	    procparse_stat(text, NULL) != 0)
		return false;
	snprintf(comm, len, "%.*s", (int)(close - open - 1), open + 1);
	return true;
}

/* The names asked for, and the processes found so far. */
struct named {
	const char *const	*names;
	size_t			 nnames;
	struct procfd_named	*found;
	size_t			 n, room;
};

/* pid, if its command name is one asked for. */
static int
named_one(pid_t pid, void *arg)
{
	struct named *w = arg;
	char comm[64], stat[1024];

	/* one read a process: stat has the name and the state */
	if (slurp_proc(pid, "stat", stat, sizeof(stat)) != 0 ||
	    !stat_comm(stat, comm, sizeof(comm)))
		return 0;
	return procfd_match(&w->found, &w->n, &w->room, pid, comm, 15,
	    w->names, w->nnames);	/* TASK_COMM_LEN - 1 */
}

int
procfd_find(const char *const *names, size_t nnames,
    struct procfd_named **found, size_t *n)
{
	struct named w = { names, nnames, NULL, 0, 0 };
	int error = procfd_each(false, named_one, &w);

	*found = w.found;
	*n = w.n;
	return error;
}

int
procfd_io(pid_t pid, uint64_t *read, uint64_t *written)
{
	char buf[512];
	int error = slurp_proc(pid, "io", buf, sizeof(buf));

	return error != 0 ? error :
	    procparse_io(buf, read, written) ? 0 : EINVAL;
}

/* The descriptors procfd_writing asks about, and what its threads tell. */
struct writer {
	int			 in, out;
	bool			 writing;
	int			 seen;
};

/* Whether thread tid may be writing to out: 0, or an errno. */
static int
thread_writing(pid_t pid, long tid, void *arg)
{
	struct writer *w = arg;
	char path[96], text[256];
	enum procparse_call call;
	uint64_t fd[3];
	int error;

	if (w->writing)
		return 0;	/* one thread is enough */
	snprintf(path, sizeof(path), "/proc/%d/task/%ld/syscall", (int)pid,
	    tid);
	/* a thread that ended meanwhile does nothing */
	if ((error = procfd_text(path, text, sizeof(text))) != 0)
		return error == ESRCH ? 0 : error;
	if (!procparse_syscall(text, &call, fd))
		return EINVAL;
	w->seen++;
	/* write(out, …), sendfile(out, in, …); copy_file_range(in, _, out) */
	w->writing = call == PROCPARSE_RUNNING || (call == PROCPARSE_IN_CALL &&
	    (fd[0] == (uint64_t)w->out ||
	    (fd[0] == (uint64_t)w->in && fd[2] == (uint64_t)w->out)));
	return 0;
}

int
procfd_writing(pid_t pid, int in, int out, bool *writing)
{
	struct writer w = { in, out, false, 0 };
	int error = procfd_entries(pid, "task", thread_writing, &w);

	*writing = w.writing;
	return error != 0 ? error : w.seen > 0 ? 0 : ESRCH;
}

/* All of f, however long, with room for one more byte: its length. */
static ssize_t
read_all(FILE *f, char **text, size_t *room)
{
	size_t len = 0, got;
	char *more;

	do {
		if (*room - len < 4096) {
			if ((more = realloc(*text, *room + 65536)) == NULL)
				return -1;
			*text = more;
			*room += 65536;
		}
		got = fread(*text + len, 1, *room - len - 1, f);
		len += got;
	} while (got > 0);
	return (ssize_t)len;
}

/* /proc/PID/cmdline's arguments, each NUL-ended, into argv's one block. */
static int
split_command(const char *text, size_t len, char ***argv, int *argc)
{
	char **v, *copy;
	int n = 0;

	for (size_t i = 0; i < len; i++)
		n += text[i] == '\0';
	if ((v = malloc((size_t)(n + 1) * sizeof(*v) + len)) == NULL)
		return ENOMEM;
	copy = (char *)(v + n + 1);
	memcpy(copy, text, len);
	for (int i = 0; i < n; i++) {
		v[i] = copy;
		copy += strlen(copy) + 1;
	}
	v[n] = NULL;
	*argv = v;
	*argc = n;
	return 0;
}

int
procfd_command(pid_t pid, char ***argv, int *argc, char **cwd)
{
	char path[64], dir[PATH_MAX], *text = NULL;
	size_t room = 0;
	ssize_t len;
	FILE *f;
	int error;

	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)pid);
	if ((len = readlink(path, dir, sizeof(dir) - 1)) == -1)
		return errno == ENOENT ? ESRCH : errno;
	dir[len] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return errno == ENOENT ? ESRCH : errno;
	len = read_all(f, &text, &room);
	fclose(f);
	if (len <= 0) {
		free(text);
		return len == 0 ? ESRCH : ENOMEM;
	}
	/* a last argument without its NUL (a process that rewrote it) */
	if (text[len - 1] != '\0')
		text[len++] = '\0';
	error = split_command(text, (size_t)len, argv, argc);
	free(text);
	if (error == 0 && (*cwd = strdup(dir)) == NULL) {
		free(*argv);
		error = ENOMEM;
	}
	return error;
}

int
procfd_start_dir(pid_t pid, char **dir)
{
	char path[64], *text = NULL;
	const char *pwd;
	size_t room = 0;
	ssize_t len;
	FILE *f;
	int error = 0;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return errno == ENOENT ? ESRCH : errno;
	len = read_all(f, &text, &room);
	fclose(f);
	if (len < 0) {
		free(text);
		return ENOMEM;
	}
	if (len > 0)
		text[len] = '\0';	/* a last string cut short */
	if (len == 0 || (pwd = procparse_env(text, (size_t)len, "PWD")) ==
	    NULL || pwd[0] != '/')
		error = ENOENT;
	else if ((*dir = strdup(pwd)) == NULL)
		error = ENOMEM;
	free(text);
	return error;
}

int
procfd_parent(pid_t pid, pid_t *parent)
{
	char buf[1024];
	int error = slurp_proc(pid, "stat", buf, sizeof(buf));

	return error != 0 ? error : procparse_parent(buf, parent) ? 0 : ESRCH;
}

/* What procfd_each asks: whose processes, and what to do with each. */
struct each {
	bool			 own;
	int			(*visit)(pid_t, void *);
	void			*arg;
};

static int
each_one(pid_t self, long pid, void *arg)
{
	struct each *e = arg;
	char path[64];
	struct stat sb;

	if (pid == 0 || pid == (long)self)
		return 0;
	/* own: another user's processes are never followed */
	snprintf(path, sizeof(path), "/proc/%ld", pid);
	if (e->own && (stat(path, &sb) != 0 || sb.st_uid != getuid()))
		return 0;
	return e->visit((pid_t)pid, e->arg);
}

int
procfd_each(bool own, int (*visit)(pid_t, void *), void *arg)
{
	struct each e = { own, visit, arg };
	int error = numbered("/proc", getpid(), each_one, &e);

	return error == -1 ? errno : error;
}

/* The file asked about, and its holders so far. */
struct holders {
	uint64_t		 dev, ino;
	struct procfd_held	*found;
	size_t			 n, room;
};

/* pid's fd, if it is open to the file, added to the holders. */
static int
held_fd(pid_t pid, long fd, void *arg)
{
	struct holders *h = arg;
	char path[64];
	struct procfd_held *more;
	struct stat sb;

	snprintf(path, sizeof(path), "/proc/%d/fd/%ld", (int)pid, fd);
	/* through the link: the file's own, nothing opened */
	if (stat(path, &sb) != 0 || (uint64_t)sb.st_dev != h->dev ||
	    (uint64_t)sb.st_ino != h->ino)
		return 0;
	if ((more = procfd_room(h->found, h->n, &h->room,
	    sizeof(*more))) == NULL)
		return ENOMEM;
	h->found = more;
	h->found[h->n++] = (struct procfd_held){ pid, (int)fd };
	return 0;
}

/* pid's descriptors open to the file; one gone, or closed to us, has none. */
static int
held_by(pid_t pid, void *arg)
{
	return procfd_entries(pid, "fd", held_fd, arg) == ENOMEM ? ENOMEM : 0;
}

int
procfd_holders(uint64_t dev, uint64_t ino, struct procfd_held **found,
    size_t *n)
{
	struct holders h = { dev, ino, NULL, 0, 0 };
	int error = procfd_each(true, held_by, &h);

	if (error != 0) {
		free(h.found);
		h.found = NULL;
		h.n = 0;
	}
	*found = h.found;
	*n = h.n;
	return error;
}
