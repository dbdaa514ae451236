/*
 * procfd on Linux: /proc/PID/fd names each descriptor's file (stat(2)
 * through the link needs no open) and /proc/PID/fdinfo/FD its position and
 * open flags; a disk's size comes from /sys/dev/block.
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

/* ESRCH for a process that is gone or a zombie, whose files are closed. */
static int
process_state(pid_t pid)
{
	char path[64], buf[512], *paren;
	FILE *f;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return errno == ENOENT ? ESRCH : errno;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	/* the state follows the command name, which may hold ") " itself */
	if ((paren = strrchr(buf, ')')) == NULL || paren[1] == '\0')
		return ESRCH;
	return paren[2] == 'Z' || paren[2] == 'X' ? ESRCH : 0;
}

/* fdinfo's "pos:" and "flags:" lines; false if the fd was closed. */
static bool
fdinfo(pid_t pid, int fd, uint64_t *pos, int *flags)
{
	char path[64], line[256];
	unsigned long long p = 0;
	unsigned int fl = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)pid, fd);
	if ((f = fopen(path, "re")) == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "pos: %llu", &p) == 1)
			continue;
		(void)sscanf(line, "flags: %o", &fl);
	}
	fclose(f);
	*pos = p;
	*flags = (int)fl;
	return true;
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

/* Adds pid's fd to the list if it is a file or a disk: 0, or an errno. */
static int
add(pid_t pid, int fd, struct procfd_file **files, size_t *n, size_t *room)
{
	char link[64], target[PATH_MAX], *path;
	struct procfd_file *f;
	struct stat sb;
	ssize_t len;
	uint64_t pos;
	int flags;

	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, fd);
	if (stat(link, &sb) == -1 ||
	    (len = readlink(link, target, sizeof(target) - 1)) == -1)
		return errno == ENOENT ? EBADF : errno;
	target[len] = '\0';
	if (!S_ISREG(sb.st_mode) && !S_ISBLK(sb.st_mode))
		return PROCFD_NOT_FILE;
	if (!fdinfo(pid, fd, &pos, &flags))
		return EBADF;
	if ((path = strdup(target)) == NULL ||
	    (f = procfd_grow(files, n, room)) == NULL) {
		free(path);
		return ENOMEM;
	}
	f->path = path;
	f->fd = fd;
	f->dev = (uint64_t)sb.st_dev;
	f->ino = (uint64_t)sb.st_ino;
	f->offset = pos;
	f->size = S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size :
	    disk_size(sb.st_rdev);
	f->writing = (flags & O_ACCMODE) == O_WRONLY;
	return 0;
}

int
procfd_list(pid_t pid, int fd, struct procfd_file **files, size_t *n)
{
	char path[64];
	struct dirent *e;
	size_t room = 0;
	DIR *dir;
	char *end;
	long num;
	int error;

	*files = NULL;
	*n = 0;
	if ((error = process_state(pid)) != 0)
		return error;
	if (fd >= 0) {
		error = add(pid, fd, files, n, &room);
		/* a process that exits takes its descriptors along */
		if (error == EBADF && process_state(pid) != 0)
			error = ESRCH;
		return procfd_end(files, n, error);
	}
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	if ((dir = opendir(path)) == NULL)
		return errno == ENOENT ? ESRCH : errno;
	while (error == 0 && (e = readdir(dir)) != NULL) {
		num = strtol(e->d_name, &end, 10);
		if (*end != '\0' || end == e->d_name || num < 0 || num > INT_MAX)
			continue;
		error = add(pid, (int)num, files, n, &room);
		if (procfd_skip(error))
			error = 0;
	}
	closedir(dir);
	return procfd_end(files, n, error);
}
