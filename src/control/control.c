/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -R: the copy's control socket, and the sender's side.  A request is a
 * list of "K value" records, each ended by a NUL, sent whole before the
 * sender's end of writing; K is L, N, p, i, w or F, as the options (B is
 * -L in a byte unit, bytes even in line mode).  The
 * answer is "ok", or why the request was refused, on one line.
 *
 * -Q's request is "Q 1": the copy keeps the connection and writes its
 * state down it, a line each time it draws, until the closing one
 * (STATE_FORMAT, the name last, in hex).
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/clock.h"
#include "tach/compat.h"
#include "tach/control.h"
#include "tach/render.h"
#include "tach/signals.h"
#include "tach/size.h"
#include "tach/text.h"
#include "tach/report.h"

#define REQUEST_MAX	8192
#define ANSWER_MAX	256
#define QUERIERS_MAX	16
#define PENDING_MAX	16	/* connections whose request is still coming */
#define PENDING_SECONDS	10	/* how long one may take to come whole */
/* elapsed bytes count done lines size known rate average rate_in
   buffered waiting eta final sparse holes result name */
#define STATE_FORMAT	"S %.10g %llu %llu %llu %d %llu %d %.10g %.10g " \
			"%.10g %d %d %.10g %d %d %llu %.15s "
#define STATE_MAX	(256 + 2 * NAME_MAX_HEX)
#define NAME_MAX_HEX	256		/* bytes of a name sent, at most */

static int listener = -1;
/*
 * A connection whose request has not come whole yet.  None is waited
 * for: each is read as far as it has come whenever a SIGIO wakes the
 * copy, so a peer that says nothing costs the copy nothing.
 */
struct pending {
	int	 fd;
	double	 since;
	size_t	 have;
	char	 req[REQUEST_MAX + 1];
};
static struct pending pending[PENDING_MAX];
static size_t npending;
static int queriers[QUERIERS_MAX];
static size_t nqueriers;
static bool buffered;		/* --read-limit is taken */
static unsigned bytes_seen;	/* what of the bytes -F can show */
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

/*
 * The socket of the copy pid, in *sun, *len long.  On Linux a name in the
 * abstract namespace, "\0tach-UID-PID": no file is made, none is left
 * behind, and each side checks the other's user id.  Elsewhere a socket
 * in a directory only this user may enter.  False, msg saying why, if
 * there can be none.
 */
static bool
socket_name(pid_t pid, struct sockaddr_un *sun, socklen_t *len, bool make,
    char *msg, size_t msglen)
{
	char dir[sizeof(sun->sun_path)];
	int n;

	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (compat_abstract_sockets) {
		n = snprintf(sun->sun_path + 1, sizeof(sun->sun_path) - 1,
		    "tach-%ld-%ld", (long)geteuid(), (long)pid);
		*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
		    (size_t)n);
		return true;
	}
	if (!private_dir(dir, sizeof(dir), make, msg, msglen))
		return false;
	n = snprintf(sun->sun_path, sizeof(sun->sun_path), "%s/%ld", dir,
	    (long)pid);
	if ((size_t)n >= sizeof(sun->sun_path)) {
		snprintf(msg, msglen, "%s: the name is too long for a socket",
		    text_safe(dir));
		return false;
	}
	*len = (socklen_t)sizeof(*sun);
	return true;
}

/* The other end runs as this user: 0, or -1 with errno set. */
static int
same_user(int fd)
{
	uid_t uid;
	gid_t gid;

	if (getpeereid(fd, &uid, &gid) == -1)
		return -1;
	if (uid != geteuid()) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

void
control_listen(bool buffer, unsigned seen)
{
	struct sockaddr_un sun;
	socklen_t len;
	char msg[256];
	int fd;

	buffered = buffer;
	bytes_seen = seen;
	if (!socket_name(getpid(), &sun, &len, true, msg, sizeof(msg)) ||
	    (fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return;
	/* a file in the private directory: only a process that had this PID */
	if (sun.sun_path[0] != '\0')
		(void)unlink(sun.sun_path);
	/* an abstract name someone else holds: nothing listens */
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) == -1 ||
	    bind(fd, (struct sockaddr *)&sun, len) == -1) {
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
	while (npending > 0)
		close(pending[--npending].fd);
	close(listener);
	listener = -1;
	if (bound[0] != '\0')
		(void)unlink(bound);
}

void
control_free(struct control_change *c)
{
	free(c->name);
	free(c->prefix);
	free(c->format);
	memset(c, 0, sizeof(*c));
}

/*
 * The sender's side: reads fd to its end, at most len - 1 bytes and for
 * at most seconds.  Returns the length, or -1.
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

/* -w, -L (B: in bytes) or --read-limit's whole number; false if bad. */
static bool
take_count(struct control_change *c, char what, const char *v)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(v, &end, 10);
	if (end == v || *end != '\0' || errno != 0 || n < 1 ||
	    (what == 'w' && n > RENDER_WIDTH_MAX))
		return false;
	if (what == 'w')
		c->width = (int)n;
	else if (what == 'r')
		c->read_limit = n;
	else {
		c->rate_limit = n;
		c->rate_in_bytes = what == 'B';
	}
	return true;
}

/* One record's value, checked as the option's own; else msg says why. */
static bool
take_record(struct control_change *c, const char *rec, char *msg,
    size_t msglen)
{
	const char *v = rec + 2;
	char **text;
	double x;

	if (rec[0] == '\0' || rec[1] != ' ') {
		snprintf(msg, msglen, "not a request");
		return false;
	}
	switch (rec[0]) {
	case 'F':
		/* a line's layout; JSON is another kind of output */
		if (!render_format_check(v, msg, msglen) ||
		    !render_format_seen(v, bytes_seen, msg, msglen))
			return false;
		/* FALLTHROUGH */
	case 'N':
	case 'p':
		text = rec[0] == 'N' ? &c->name : rec[0] == 'p' ? &c->prefix :
		    &c->format;
		free(*text);
		if ((*text = strdup(v)) == NULL)
			report_err(1, "-R");
		return true;
	case 'Q':
		c->query = true;
		return true;
	case 'i':
		if (seconds_parse(v, SECONDS_INTERVAL_MIN, &x)) {
			c->interval = x;
			return true;
		}
		break;
	case 'r':
		if (!buffered) {
			snprintf(msg, msglen, "--read-limit: this copy has no "
			    "buffer, -L limits it");
			return false;
		}
		/* FALLTHROUGH */
	case 'B':
	case 'L':
	case 'w':
		if (take_count(c, rec[0], v))
			return true;
		break;
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

static void
pending_drop(size_t i, const char *why)
{
	if (why != NULL)
		answer(pending[i].fd, why);
	close(pending[i].fd);
	pending[i] = pending[--npending];
}

/* Each connection waiting at the listener, this user's, made pending. */
static void
accept_all(void)
{
	struct pending *p;
	int fd;

	while (listener != -1 && (fd = accept(listener, NULL, NULL)) != -1) {
		/* another user's: shut out without a word */
		if (fcntl(fd, F_SETFD, FD_CLOEXEC) == -1 ||
		    same_user(fd) == -1 ||
		    fcntl(fd, F_SETOWN, getpid()) == -1 ||
		    fcntl(fd, F_SETFL, O_NONBLOCK | O_ASYNC) == -1) {
			close(fd);
			continue;
		}
		/* full: the one waiting longest makes room */
		if (npending == PENDING_MAX)
			pending_drop(0, "not a request: nothing came whole");
		p = &pending[npending++];
		p->fd = fd;
		p->since = clock_now();
		p->have = 0;
	}
}

/*
 * What has come of p's request: 1 when it is whole (its sender's end of
 * writing), 0 while more may come, -1 for a connection to drop.
 */
static int
read_pending(struct pending *p)
{
	ssize_t n;

	for (;;) {
		if (p->have == sizeof(p->req) - 1)
			return -1;
		n = read(p->fd, p->req + p->have, sizeof(p->req) - 1 - p->have);
		if (n == 0)
			return 1;
		if (n == -1)
			return errno == EINTR ? 0 : errno == EAGAIN ||
			    errno == EWOULDBLOCK ? 0 : -1;
		p->have += (size_t)n;
	}
}

/* The sender left before its answer (it gave up waiting): none is due. */
static bool
sender_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR));
}

/* A whole request: its change into *c and answered; false if refused. */
static bool
take_whole(struct control_change *c, size_t i)
{
	char msg[ANSWER_MAX - 2];
	struct pending *p = &pending[i];
	int fd = p->fd;

	if (!parse_request(c, p->req, p->have, msg, sizeof(msg))) {
		control_free(c);
		pending_drop(i, msg);
		return false;
	}
	/* a change nobody is told of is not made: -R said it was not */
	if (!c->query && sender_gone(fd)) {
		control_free(c);
		pending_drop(i, NULL);
		return false;
	}
	pending[i] = pending[--npending];
	if (!c->query)
		answer(fd, "ok");
	else if (nqueriers < QUERIERS_MAX &&
	    fcntl(fd, F_SETFL, O_NONBLOCK) != -1) {
		queriers[nqueriers++] = fd;
		return true;
	} else
		answer(fd, "too many watch this copy already");
	close(fd);
	return true;
}

bool
control_take(struct control_change *c)
{
	double now = clock_now();
	size_t i = 0;
	int got;

	memset(c, 0, sizeof(*c));
	accept_all();
	while (i < npending) {
		if ((got = read_pending(&pending[i])) == 1) {
			if (take_whole(c, i))
				return true;
		} else if (got == -1)
			pending_drop(i, "not a request");
		else if (now - pending[i].since > PENDING_SECONDS)
			pending_drop(i, "not a request: nothing came whole "
			    "in time");
		else
			i++;
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

/*
 * -R or -Q (letter): the connection to the copy pid, this user's, with
 * the request req (len bytes) sent whole; tach exits saying why if it
 * cannot be had.
 */
static int
send_request(int letter, long pid, const char *req, size_t len)
{
	struct sockaddr_un sun;
	socklen_t sunlen;
	char msg[ANSWER_MAX];
	long peer;
	int fd;

	if (!socket_name((pid_t)pid, &sun, &sunlen, false, msg, sizeof(msg)))
		report_errx(1, "-%c %ld: %s", letter, pid, msg);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		report_err(1, "-%c %ld", letter, pid);
	if (connect(fd, (struct sockaddr *)&sun, sunlen) == -1) {
		if (errno == ENOENT || errno == ECONNREFUSED)
			report_errx(1,
			    "-%c %ld: no copy of this user's with that PID "
			    "is listening (it has ended, or watches with -d)",
			    letter, pid);
		report_err(1, "-%c %ld", letter, pid);
	}
	/* an abstract name can be taken by anyone: it must be this user's */
	if (same_user(fd) == -1)
		report_errx(1, "-%c %ld: the socket is not this user's copy's: "
		    "nothing sent", letter, pid);
	/* and the name is the network namespace's, the PID the PID one's */
	if ((peer = compat_peer_pid(fd)) != -1 && peer != pid)
		report_errx(1, "-%c %ld: the copy listening under that PID "
		    "is not process %ld here (another PID namespace's): "
		    "nothing sent", letter, pid, pid);
	if (write(fd, req, len) != (ssize_t)len ||
	    shutdown(fd, SHUT_WR) == -1)
		report_err(1, "-%c %ld", letter, pid);
	return fd;
}

int
control_send(const struct control_request *c)
{
	char req[REQUEST_MAX], msg[ANSWER_MAX], num[32];
	long pid = c->pid;
	size_t len = 0;
	bool fits = true;
	int fd;

	if (c->rate_limit > 0) {
		snprintf(num, sizeof(num), "%lld", c->rate_limit);
		fits &= add_record(req, &len, sizeof(req),
		    c->rate_in_bytes ? 'B' : 'L', num);
	}
	if (c->read_limit > 0) {
		snprintf(num, sizeof(num), "%lld", c->read_limit);
		fits &= add_record(req, &len, sizeof(req), 'r', num);
	}
	if (c->name != NULL)
		fits &= add_record(req, &len, sizeof(req), 'N', c->name);
	if (c->prefix != NULL)
		fits &= add_record(req, &len, sizeof(req), 'p', c->prefix);
	if (c->interval_given) {
		snprintf(num, sizeof(num), "%.17g", c->interval);
		fits &= add_record(req, &len, sizeof(req), 'i', num);
	}
	if (c->width > 0) {
		snprintf(num, sizeof(num), "%d", c->width);
		fits &= add_record(req, &len, sizeof(req), 'w', num);
	}
	if (c->format != NULL)
		fits &= add_record(req, &len, sizeof(req), 'F', c->format);
	if (!fits)
		report_errx(1,
		    "-R %ld: the name, prefix and format are too long", pid);
	fd = send_request('R', pid, req, len);
	/*
	 * A copy stopped by ^Z answers when it is continued; one that finds
	 * its sender gone by then makes no change (control_take).
	 */
	if (read_whole(fd, msg, sizeof(msg), 10) <= 0)
		report_errx(1, "-R %ld: no answer in 10 s: the copy is stopped "
		    "or has ended; nothing changed", pid);
	close(fd);
	msg[strcspn(msg, "\n")] = '\0';
	if (strcmp(msg, "ok") != 0)
		report_errx(1, "-R %ld: refused: %s", pid, text_safe(msg));
	return 0;
}

void
control_publish(const struct report_line *l)
{
	const struct render_state *s = &l->state;
	char line[STATE_MAX], *p;
	size_t len, i, kept = 0;
	ssize_t n;

	if (nqueriers == 0)
		return;
	len = (size_t)snprintf(line, sizeof(line), STATE_FORMAT, s->elapsed,
	    (unsigned long long)l->bytes, (unsigned long long)s->count,
	    (unsigned long long)s->done, s->unit == RENDER_LINES,
	    (unsigned long long)s->size, l->size_known, s->rate, s->average,
	    s->rate_in, s->buffered, s->waiting, s->eta, s->final, s->sparse,
	    (unsigned long long)s->holes, s->final && l->result != NULL ?
	    l->result : "-");
	/* %.10g and %llu keep the numbers short: the name always fits */
	if (len + 2 * NAME_MAX_HEX + 2 > sizeof(line))
		return;
	/* the name in hex: whatever it holds, one word on one line */
	p = line + len;
	for (i = 0; s->name != NULL && s->name[i] != '\0' &&
	    i < NAME_MAX_HEX; i++, p += 2)
		snprintf(p, 3, "%02x", (unsigned char)s->name[i]);
	if (i == 0)
		*p++ = '-';
	*p++ = '\n';
	len = (size_t)(p - line);
	for (i = 0; i < nqueriers; i++) {
		/* one that cannot take a line whole is too slow to keep */
		n = write(queriers[i], line, len);
		if (n == (ssize_t)len || (n == -1 && (errno == EAGAIN ||
		    errno == EWOULDBLOCK) && !s->final))
			queriers[kept++] = queriers[i];
		else
			close(queriers[i]);
	}
	nqueriers = kept;
	if (!s->final)
		return;
	for (i = 0; i < nqueriers; i++)
		close(queriers[i]);
	nqueriers = 0;
}

int
control_query(long pid)
{
	static const char req[] = "Q 1";

	return send_request('Q', pid, req, sizeof(req));
}

/* Two hex digits a byte into name, namelen long; false if not hex. */
static bool
unhex(const char *hex, char *name, size_t namelen)
{
	size_t i;
	unsigned byte;

	for (i = 0; hex[2 * i] != '\0' && i + 1 < namelen; i++) {
		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			return false;
		name[i] = (char)byte;
	}
	name[i] = '\0';
	return hex[2 * i] == '\0';
}

int
control_state(int fd, struct report_line *l, char *name, size_t namelen)
{
	static char buf[STATE_MAX];
	static size_t have;
	static char result[16];
	struct render_state *s = &l->state;
	unsigned long long bytes, count, done, size, holes;
	int lines, known, ring, final, sparse, used = 0;
	char *nl, hex[2 * NAME_MAX_HEX + 2];
	ssize_t n;

	while ((nl = memchr(buf, '\n', have)) == NULL) {
		if (have == sizeof(buf)) {
			errno = EBADMSG;
			return -1;
		}
		/* a copy killed with bytes unread here resets: it is gone */
		if ((n = read(fd, buf + have, sizeof(buf) - have)) == -1 &&
		    errno != ECONNRESET)
			return -1;
		if (n <= 0) {
			if (have == 0)
				return 0;
			errno = EBADMSG;	/* a line cut short */
			return -1;
		}
		have += (size_t)n;
	}
	*nl = '\0';
	memset(l, 0, sizeof(*l));
	if (sscanf(buf, "S %lf %llu %llu %llu %d %llu %d %lf %lf %lf %d %d "
	    "%lf %d %d %llu %15s %513s%n", &s->elapsed, &bytes, &count, &done,
	    &lines, &size, &known, &s->rate, &s->average, &s->rate_in,
	    &ring, &s->waiting, &s->eta, &final, &sparse, &holes, result,
	    hex, &used) != 18 || buf + used != nl ||
	    (strcmp(hex, "-") != 0 && !unhex(hex, name, namelen))) {
		snprintf(name, namelen, "%s", buf);
		errno = EBADMSG;
		return -1;
	}
	l->bytes = bytes;
	s->count = count;
	s->done = done;
	s->unit = lines ? RENDER_LINES : RENDER_BYTES;
	s->size = size;
	l->size_known = known;
	l->buffered = s->buffered = ring;
	s->final = final;
	s->sparse = sparse;
	s->holes = holes;
	s->name = strcmp(hex, "-") != 0 ? name : NULL;
	l->result = strcmp(result, "-") != 0 ? result : NULL;
	have -= (size_t)(nl + 1 - buf);
	memmove(buf, nl + 1, have);
	return 1;
}
