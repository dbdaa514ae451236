/* -P: the PID file, written whole and removed at every end. */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/pidfile.h"
#include "tach/text.h"

static char *written;		/* the path, once written */
static pid_t writer;		/* who wrote it */

void
pidfile_publish(const char *path)
{
	size_t room = strlen(path) + sizeof(".XXXXXX");
	char *tmp = malloc(room), text[32];
	int fd, len;
	mode_t mask;

	if (tmp == NULL)
		err(1, "-P");
	snprintf(tmp, room, "%s.XXXXXX", path);
	/* readable as a plain file would be, not mkstemp's 0600 */
	mask = umask(0);
	umask(mask);
	len = snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	if ((fd = mkstemp(tmp)) == -1)
		err(1, "-P %s", text_safe(path));
	if (fchmod(fd, 0666 & ~mask) == -1 ||
	    write(fd, text, (size_t)len) != len || close(fd) == -1 ||
	    rename(tmp, path) == -1) {
		int error = errno;

		(void)unlink(tmp);
		errc(1, error, "-P %s", text_safe(path));
	}
	free(tmp);
	if ((written = strdup(path)) == NULL)
		err(1, "-P");
	writer = getpid();
	atexit(pidfile_withdraw);
}

void
pidfile_withdraw(void)
{
	char text[32], *end;
	ssize_t n;
	int fd;

	if (written == NULL || getpid() != writer)
		return;
	if ((fd = open(written, O_RDONLY | O_CLOEXEC)) != -1) {
		n = read(fd, text, sizeof(text) - 1);
		close(fd);
		text[n > 0 ? n : 0] = '\0';
		if (strtol(text, &end, 10) == (long)writer && *end == '\n')
			(void)unlink(written);
	}
	free(written);
	written = NULL;
}
