/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The command runner.  Children stay in tach's process group, so ^C
 * reaches them too, and start with default signal dispositions.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "tach/command.h"
#include "tach/message.h"
#include "tach/signals.h"
#include "tach/text.h"

void
command_pipe(int fds[2])
{
	if (pipe(fds) == -1)
		report_err(1, "pipe");
	if (fcntl(fds[0], F_SETFD, FD_CLOEXEC) == -1 ||
	    fcntl(fds[1], F_SETFD, FD_CLOEXEC) == -1)
		report_err(1, "pipe");
}

/* Exit status of a failed spawn: 127 not found, 126 not executable. */
static int
command_spawn_status(int error)
{
	return error == ENOENT || error == ENOTDIR ? 127 : 126;
}

/*
 * In the child: tells the parent why the command could not be run (the
 * report pipe closes on a successful exec), then exits as a shell would.
 */
static _Noreturn void
child_failed(int report, int error)
{
	ssize_t n = write(report, &error, sizeof(error));

	/* Should the report be lost, the exit status still tells. */
	(void)n;
	_exit(command_spawn_status(error));
}

/*
 * Moves fd onto target for the exec.  dup2 clears close-on-exec; a
 * descriptor already in place must have it cleared by hand.
 */
static void
place(int fd, int target, int report)
{
	if (fd == -1)
		return;
	if (fd == target ? fcntl(fd, F_SETFD, 0) == -1 :
	    dup2(fd, target) == -1)
		child_failed(report, errno);
}

pid_t
command_spawn(char *const argv[], int in, int out)
{
	int report[2], error;
	ssize_t n;
	pid_t pid;

	/* The child writes errno here if exec fails; exec closes it. */
	command_pipe(report);
	if ((pid = fork()) == -1)
		report_err(1, "fork");
	if (pid == 0) {
		signals_reset_child();
		close(report[0]);
		place(in, STDIN_FILENO, report[1]);
		place(out, STDOUT_FILENO, report[1]);
		execvp(argv[0], argv);
		child_failed(report[1], errno);
	}
	close(report[1]);
	do
		n = read(report[0], &error, sizeof(error));
	while (n == -1 && errno == EINTR);
	close(report[0]);
	if (n == (ssize_t)sizeof(error)) {
		(void)command_wait(pid);
		errno = error;
		return -1;
	}
	return pid;
}

int
command_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) == -1) {
		if (errno != EINTR)
			report_err(1, "waitpid");
	}
	return status;
}


void
command_failed(const char *name, int error)
{
	struct stat sb;

	/*
	 * "tach FILE", as pv is used: FILE was taken as a command.  Not
	 * found as one (the file itself is there), or not executable.
	 */
	if (error == ENOENT && stat(name, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    access(name, X_OK) == -1)
		report_errx(command_spawn_status(error),
		    "%s: taken as a command, and "
		    "no command of that name was found; to read the file use "
		    "-f %s", text_safe(name), text_safe(name));
	if (error == EACCES && stat(name, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    access(name, X_OK) == -1)
		report_errx(command_spawn_status(error),
		    "%s: taken as a command, and "
		    "it is not executable; to read the file use -f %s",
		    text_safe(name), text_safe(name));
	report_errc(command_spawn_status(error), error, "%s", text_safe(name));
}
