/*
 * -R: the copy's control socket, and the sender's side.  A request is a
 * list of "K value" records, each ended by a NUL, sent whole before the
 * sender's end of writing; K is L, N, p, i or w, as the options.  The
 * answer is "ok", or why the request was refused, on one line.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/clock.h"
#include "tach/control.h"
#include "tach/render.h"
#include "tach/signals.h"
#include "tach/text.h"

#define REQUEST_MAX	8192
#define ANSWER_MAX	256

static int listener = -1;
static pid_t owner;
static char bound[sizeof(((struct sockaddr_un *)NULL)->sun_path)];

/*
 * The sockets' directory, $TMPDIR/tach-UID or /tmp/tach-UID, made if
 * missing when make is set.  Refused, msg saying why, unless it is a
 * directory of this user's that nobody else may enter.
 */
static bool
private_dir(char *dir, size_t len, bool make, char *msg, size_t msglen)
{
	const char *tmp = getenv("TMPDIR");
	struct stat sb;

	if (tmp == NULL || tmp[0] != '/')
		tmp = "/tmp";
	if ((size_t)snprintf(dir, len, "%s/tach-%ld", tmp, (long)geteuid()) >=
	    len) {
		snprintf(msg, msglen, "%s/tach-%ld: the name is too long for "
		    "a socket", text_safe(tmp), (long)geteuid());
		return false;
	}
	if ((make && mkdir(dir, 0700) == -1 && errno != EEXIST) ||
	    lstat(dir, &sb) == -1) {
		snprintf(msg, msglen, "%s: %s", text_safe(dir),
		    strerror(errno));
		return false;
	}
	if (!S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & 077) != 0) {
		snprintf(msg, msglen, "%s: not a directory of this user's "
		    "that only it may enter", text_safe(dir));
		return false;
	}
	return true;
}

/* The socket of the copy pid; false, msg saying why, if it has none. */
static bool
socket_name(pid_t pid, struct sockaddr_un *sun, bool make, char *msg,
    size_t msglen)
{
	char dir[sizeof(sun->sun_path)];

	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (!private_dir(dir, sizeof(dir), make, msg, msglen))
		return false;
	if ((size_t)snprintf(sun->sun_path, sizeof(sun->sun_path), "%s/%ld",
	    dir, (long)pid) >= sizeof(sun->sun_path)) {
		snprintf(msg, msglen, "%s: the name is too long for a socket",
		    text_safe(dir));
		return false;
	}
	return true;
}

void
control_listen(void)
{
	struct sockaddr_un sun;
	char msg[256];
	int fd;

	if (!socket_name(getpid(), &sun, true, msg, sizeof(msg)) ||
	    (fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return;
	/* in the private directory, only a process that had this PID */
	(void)unlink(sun.sun_path);
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) == -1 ||
	    bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		close(fd);
		return;
	}
	listener = fd;
	owner = getpid();
	memcpy(bound, sun.sun_path, sizeof(bound));
	atexit(control_close);
	signals_install_control();
	/* a connection raises SIGIO, which only wakes the copy */
	if (listen(fd, 8) == -1 || fcntl(fd, F_SETOWN, getpid()) == -1 ||
	    fcntl(fd, F_SETFL, O_NONBLOCK | O_ASYNC) == -1)
		control_close();
}

void
control_close(void)
{
	if (listener == -1 || getpid() != owner)
		return;
	close(listener);
	listener = -1;
	(void)unlink(bound);
}

void
control_free(struct control_change *c)
{
	free(c->name);
	free(c->prefix);
	memset(c, 0, sizeof(*c));
}

/*
 * Reads fd to its end, at most len - 1 bytes and for at most a second: the
 * copy waits meanwhile.  Returns the length, or -1.
 */
static ssize_t
read_whole(int fd, char *buf, size_t len, double seconds)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	double until = clock_now() + seconds, left;
	size_t got = 0;
	ssize_t n;
	int ready;

	while (got < len - 1) {
		if ((left = until - clock_now()) <= 0)
			return -1;
		if ((ready = poll(&p, 1, (int)(left * 1000) + 1)) == -1 &&
		    errno != EINTR)
			return -1;
		if (ready <= 0)
			continue;
		if ((n = read(fd, buf + got, len - 1 - got)) == 0)
			break;
		if (n == -1 && errno != EINTR && errno != EAGAIN)
			return -1;
		got += n > 0 ? (size_t)n : 0;
	}
	buf[got] = '\0';
	return (ssize_t)got;
}

/* One record's value, checked as the option's own; else msg says why. */
static bool
take_record(struct control_change *c, const char *rec, char *msg,
    size_t msglen)
{
	const char *v = rec + 2;
	char *end;
	double x;
	long long n;

	if (rec[0] == '\0' || rec[1] != ' ') {
		snprintf(msg, msglen, "not a request");
		return false;
	}
	errno = 0;
	switch (rec[0]) {
	case 'N':
	case 'p':
		free(rec[0] == 'N' ? c->name : c->prefix);
		if ((end = strdup(v)) == NULL)
			err(1, "-R");
		*(rec[0] == 'N' ? &c->name : &c->prefix) = end;
		return true;
	case 'i':
		x = strtod(v, &end);
		if (end != v && *end == '\0' && x >= 0.01 && x <= 86400) {
			c->interval = x;
			return true;
		}
		break;
	case 'L':
	case 'w':
		n = strtoll(v, &end, 10);
		if (end == v || *end != '\0' || errno != 0 || n < 1 ||
		    (rec[0] == 'w' && n > RENDER_WIDTH_MAX))
			break;
		if (rec[0] == 'L')
			c->rate_limit = n;
		else
			c->width = (int)n;
		return true;
	}
	snprintf(msg, msglen, "-%c `%s': not a value it takes", rec[0],
	    text_safe(v));
	return false;
}

/* A request's records into *c; false, msg saying why, if any is bad. */
static bool
parse_request(struct control_change *c, char *req, size_t len, char *msg,
    size_t msglen)
{
	size_t at = 0;

	if (len == 0 || req[len - 1] != '\0') {
		snprintf(msg, msglen, "not a request");
		return false;
	}
	while (at < len) {
		if (!take_record(c, req + at, msg, msglen))
			return false;
		at += strlen(req + at) + 1;
	}
	return true;
}

/* The answer, on one line; a sender that left is no matter. */
static void
answer(int fd, const char *text)
{
	char line[ANSWER_MAX];
	int n = snprintf(line, sizeof(line), "%s\n", text);

	/* SIGPIPE is caught: a write to a sender gone fails, no more */
	if (write(fd, line, (size_t)n) == -1)
		return;
}

bool
control_take(struct control_change *c)
{
	char req[REQUEST_MAX + 1], msg[ANSWER_MAX - 2];
	uid_t uid;
	gid_t gid;
	ssize_t len;
	int fd;

	memset(c, 0, sizeof(*c));
	while (listener != -1 && (fd = accept(listener, NULL, NULL)) != -1) {
		(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
		/* the directory keeps others out; the peer's id, again */
		if (getpeereid(fd, &uid, &gid) == -1 || uid != geteuid()) {
			close(fd);
			continue;
		}
		len = read_whole(fd, req, sizeof(req), 1);
		if (len <= 0)
			snprintf(msg, sizeof(msg), "not a request");
		else if (parse_request(c, req, (size_t)len, msg, sizeof(msg))) {
			answer(fd, "ok");
			close(fd);
			return true;
		}
		control_free(c);
		answer(fd, msg);
		close(fd);
	}
	return false;
}

/* Appends the record "K value" to req; false if it has no room. */
static bool
add_record(char *req, size_t *len, size_t room, char key, const char *value)
{
	int n = snprintf(req + *len, room - *len, "%c %s", key, value);

	if (n < 0 || (size_t)n + 1 >= room - *len)
		return false;
	*len += (size_t)n + 1;	/* the NUL ends the record */
	return true;
}

int
control_send(const struct options *opts)
{
	struct sockaddr_un sun;
	char req[REQUEST_MAX], msg[ANSWER_MAX], num[32];
	long pid = opts->remote_pid;
	size_t len = 0;
	bool fits = true;
	ssize_t n;
	int fd;

	if (opts->rate_limit > 0) {
		snprintf(num, sizeof(num), "%lld", opts->rate_limit);
		fits &= add_record(req, &len, sizeof(req), 'L', num);
	}
	if (opts->name != NULL)
		fits &= add_record(req, &len, sizeof(req), 'N', opts->name);
	if (opts->prefix != NULL)
		fits &= add_record(req, &len, sizeof(req), 'p', opts->prefix);
	if (opts->interval_given) {
		snprintf(num, sizeof(num), "%.17g", opts->interval);
		fits &= add_record(req, &len, sizeof(req), 'i', num);
	}
	if (opts->width > 0) {
		snprintf(num, sizeof(num), "%d", opts->width);
		fits &= add_record(req, &len, sizeof(req), 'w', num);
	}
	if (!fits)
		errx(1, "-R %ld: the name and prefix are too long", pid);
	if (!socket_name((pid_t)pid, &sun, false, msg, sizeof(msg)))
		errx(1, "-R %ld: %s", pid, msg);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		err(1, "-R %ld", pid);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		if (errno == ENOENT || errno == ECONNREFUSED)
			errx(1, "-R %ld: no copy of this user's with that PID "
			    "is listening (it has ended, or watches with -d)",
			    pid);
		err(1, "-R %ld: %s", pid, text_safe(sun.sun_path));
	}
	if (write(fd, req, len) != (ssize_t)len ||
	    shutdown(fd, SHUT_WR) == -1)
		err(1, "-R %ld", pid);
	/* a copy stopped by ^Z answers when it is continued */
	if ((n = read_whole(fd, msg, sizeof(msg), 10)) <= 0)
		errx(1, "-R %ld: no answer: the copy ended or is stopped", pid);
	close(fd);
	msg[strcspn(msg, "\n")] = '\0';
	if (strcmp(msg, "ok") != 0)
		errx(1, "-R %ld: refused: %s", pid, text_safe(msg));
	return 0;
}
