/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Pinned lines for -c.  The instances' lines sit on the bottom rows, one
 * row a slot, ranked by slot (an instance with several lines, -d's files
 * or a pipeline's stages, holds a run of slots); the terminal's scrolling
 * region (csr) covers
 * the rows above, so whatever anyone else writes scrolls there, and into
 * the scrollback, without touching them.  No cursor position is ever
 * asked for: nothing is read from the terminal.
 *
 * Every layout and every frame is one write(2) under a lock on /dev/tty,
 * and the rows are counted from the slot locks each time, so an instance
 * that comes, goes or dies (its locks go with it) is seen at the next
 * frame.  Only one descriptor on /dev/tty is ever opened: closing any
 * other would drop this process's locks.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tach/compat.h"
#include "tach/cursor.h"
#include "tach/pinrows.h"
#include "tach/signals.h"

/* Each terminal (by device number) has a range of lock bytes. */
#define TERMINALS	4096
#define CLAIM_BYTE	0		/* held while laying out or drawing */
#define PLAIN_BYTE	1		/* the one plain line's owner */
#define SLOT_BYTE	2		/* and CURSOR_SLOTS more, one a row */
#define RANGE		(SLOT_BYTE + CURSOR_SLOTS)

/* Locks (or unlocks) len bytes from byte: all of them, or none. */
static bool
lock_run(const struct pin *p, short type, int cmd, int byte, int len)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET,
	    .l_start = (off_t)p->term * RANGE + byte, .l_len = len };
	int r;

	while ((r = fcntl(p->tty, cmd, &fl)) == -1 && errno == EINTR)
		;
	return r == 0;
}

static bool
lock(const struct pin *p, short type, int cmd, int byte)
{
	return lock_run(p, type, cmd, byte, 1);
}

/*
 * The claim lock, held for a few calls at a time.  A frame waits for
 * nobody: the data must not wait on the terminal.  Claiming and leaving
 * wait a second at most, for an instance stopped while holding it.
 */
static bool
take(const struct pin *p, int tries)
{
	const struct timespec pause = { 0, 10 * 1000 * 1000 };

	while (!lock(p, F_WRLCK, F_SETLK, CLAIM_BYTE)) {
		if (--tries <= 0)
			return false;
		nanosleep(&pause, NULL);
	}
	return true;
}

/* Whether another process holds byte. */
static bool
pin_held(const struct pin *p, int byte)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
	    .l_start = (off_t)p->term * RANGE + byte, .l_len = 1 };

	return fcntl(p->tty, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
}

/* Whether slot s is one of this instance's. */
static bool
own_slot(const struct pin *p, int s)
{
	return p->slot >= 0 && s >= p->slot && s < p->slot + p->count;
}

/* The live rows (this one's if it holds its slots) and its first one's rank. */
static int
census(const struct pin *p, bool mine, int *rank)
{
	int live = 0;

	*rank = 0;
	for (int s = 0; s < CURSOR_SLOTS; s++) {
		if ((own_slot(p, s) && mine) ||
		    (!own_slot(p, s) && pin_held(p, SLOT_BYTE + s))) {
			live++;
			*rank += s < p->slot;
		}
	}
	return live;
}

/* A frame built in memory, to be written at once. */
struct frame {
	char	buf[2 * TERM_FRAME_MAX];
	size_t	len;
};

static void
frame_put(struct frame *f, const char *s, size_t len)
{
	if (s == NULL || len > sizeof(f->buf) - f->len)
		return;		/* cannot happen with TERM_CAP_MAX caps */
	memcpy(f->buf + f->len, s, len);
	f->len += len;
}

static void
puts_(struct frame *f, const char *s)
{
	if (s != NULL)
		frame_put(f, s, strlen(s));
}

/*
 * The janitor.  It hears how many rows are pinned after each layout, and
 * JANITOR_DONE when the row is given back.  At an end of file without it,
 * tach died holding the row: if no other instance is left, the rows are
 * cleared and the scrolling region is the whole window again.
 */
#define JANITOR_DONE	255

static void
tell_janitor(const struct pin *p, unsigned char what)
{
	ssize_t n;

	if (p->janitor != -1)	/* non-blocking: never waits on it */
		n = write(p->janitor, &what, 1), (void)n;
}

/* The scrolling region from row top to row bottom (from 1). */
static void
region(struct frame *f, const struct terminal *t, int top, int bottom)
{
	/* setting it moves the cursor home: keep it where it is */
	puts_(f, t->sc);
	puts_(f, term_param(t->csr, top - 1, bottom - 1));
	puts_(f, t->rc);
}

/*
 * IND: down a row, scrolling at the bottom, in the same column (a newline
 * would go through the tty's ONLCR and back to the first).  Every terminal
 * with a scrolling region has it.
 */
#define INDEX	"\033D"

/*
 * Keeps the bottom pinned rows for the lines.  Moves down and back up
 * push the text above the cursor up where it would be under them; what
 * is right of and below the cursor (old lines, pieces a resize reflowed)
 * goes.
 */
static void
lay_out(struct frame *f, struct pin *p, const struct terminal *t, int height,
    int pinned)
{
	region(f, t, 1, height);
	for (int i = 0; i < pinned; i++)
		puts_(f, INDEX);
	for (int i = 0; i < pinned; i++)
		puts_(f, t->cuu1);
	puts_(f, t->ed);
	if (pinned > 0)
		region(f, t, 1, height - pinned);
	p->pinned = pinned;
	p->height = height;
	tell_janitor(p, (unsigned char)(pinned < JANITOR_DONE ? pinned :
	    JANITOR_DONE - 1));
}

static void
clean_up(const struct pin *p, const struct terminal *t, int pinned)
{
	struct frame f = { .len = 0 };
	int rank, height = term_height(t);

	if (!take(p, 100) || census(p, false, &rank) > 0)
		return;		/* those left lay the rows out again */
	region(&f, t, 1, height);
	if (pinned > 0 && pinned < height) {
		puts_(&f, t->sc);
		puts_(&f, term_param(t->cup, height - pinned, 0));
		puts_(&f, t->ed);
		puts_(&f, t->rc);
	}
	term_write(t, f.buf, f.len);
}

static _Noreturn void
janitor(int from, struct pin *p, struct terminal *t)
{
	unsigned char what;
	int pinned = 0, null;
	ssize_t n;

	/* ^C, ^Z and kill %1 are for tach; the terminal is written anyway */
	(void)setpgid(0, 0);
	signals_reset_child();
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);
	/*
	 * Only the pipe (on 3) and the terminal (on 4) stay open: a data
	 * descriptor kept here would keep its reader waiting for EOF.  Both
	 * go above 4 first, as either may be on 3 or 4 now.
	 */
	if ((from = fcntl(from, F_DUPFD, 5)) == -1 ||
	    (p->tty = fcntl(p->tty, F_DUPFD, 5)) == -1 ||
	    dup2(from, 3) == -1 || dup2(p->tty, 4) == -1)
		_exit(1);
	if ((null = open("/dev/null", O_RDWR)) != -1)
		for (int fd = 0; fd <= 2; fd++)
			(void)dup2(null, fd);
	compat_closefrom(5);
	p->tty = t->fd = 4;
	/* not "tach -c ..." to ps and pgrep -f, but what it is */
	compat_title("janitor for -c of pid %ld", (long)getppid());
	while ((n = read(3, &what, 1)) != 0) {
		if (n == 1 && what == JANITOR_DONE)
			_exit(0);
		if (n == 1)
			pinned = what;
		else if (errno != EINTR)
			break;
	}
	p->slot = -1;	/* tach is gone, and its slots with it */
	clean_up(p, t, pinned);
	_exit(0);
}

/* Forks the janitor; its pipe's end in p->janitor, or -1. */
static void
hire_janitor(struct pin *p, const struct terminal *t)
{
	struct terminal copy = *t;
	int fds[2];
	pid_t pid;

	p->janitor = -1;
	if (pipe(fds) == -1)
		return;
	if ((pid = fork()) == 0) {
		close(fds[1]);
		janitor(fds[0], p, &copy);
	}
	close(fds[0]);
	if (pid == -1 || fcntl(fds[1], F_SETFD, FD_CLOEXEC) == -1 ||
	    fcntl(fds[1], F_SETFL, O_NONBLOCK) == -1) {
		close(fds[1]);
		return;
	}
	p->janitor = fds[1];
}

static bool
pinnable(const struct terminal *t)
{
	return t->cup[0] != '\0' && t->csr[0] != '\0' && t->sc[0] != '\0' &&
	    t->rc[0] != '\0' && t->cuu1[0] != '\0' && t->ed[0] != '\0' &&
	    term_param(t->cup, 0, 0) != NULL &&
	    term_param(t->csr, 0, 1) != NULL && term_height(t) >= 2;
}

/*
 * A run of n slots no other instance holds, taken: the one from want
 * first, so that the lines keep their order; its first slot, or -1.
 */
static int
free_run(const struct pin *p, int want, int n)
{
	if (want >= 0 && want + n <= CURSOR_SLOTS &&
	    lock_run(p, F_WRLCK, F_SETLK, SLOT_BYTE + want, n))
		return want;
	for (int s = 0; s + n <= CURSOR_SLOTS; s++)
		if (lock_run(p, F_WRLCK, F_SETLK, SLOT_BYTE + s, n))
			return s;
	return -1;
}

enum cursor_claim
cursor_claim(struct pin *p, const struct terminal *t, int rows)
{
	struct stat sb;
	bool can = pinnable(t);
	int before = p->slot;

	memset(p, 0, sizeof(*p));
	p->slot = p->janitor = -1;
	rows = rows < 1 ? 1 : rows > CURSOR_SLOTS ? CURSOR_SLOTS : rows;
	if (fstat(t->fd, &sb) == -1 ||
	    (p->tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1) {
		p->tty = -1;
		return CURSOR_PLAIN;
	}
	p->term = (int)(sb.st_rdev % TERMINALS);
	(void)take(p, 100);
	/* the slots it had before ^Z first, so the lines keep their order */
	if (can && (p->slot = free_run(p, before, rows)) == -1 && rows > 1) {
		rows = 1;	/* the first line at least */
		p->slot = free_run(p, before, rows);
	}
	p->count = p->slot != -1 ? rows : 0;
	if (p->slot == -1 && lock(p, F_WRLCK, F_SETLK, PLAIN_BYTE)) {
		(void)lock(p, F_UNLCK, F_SETLK, CLAIM_BYTE);
		return CURSOR_PLAIN;	/* its descriptor holds the line */
	}
	(void)lock(p, F_UNLCK, F_SETLK, CLAIM_BYTE);
	if (p->slot != -1) {
		hire_janitor(p, t);
		return CURSOR_PINNED;
	}
	close(p->tty);
	p->tty = -1;
	return CURSOR_NONE;
}

int
cursor_hold(struct pin *p, int rows)
{
	int at;

	rows = rows < 1 ? 1 : rows > CURSOR_SLOTS ? CURSOR_SLOTS : rows;
	if (p->slot == -1 || rows == p->count || !take(p, 1))
		return p->count;
	if (rows < p->count) {
		(void)lock_run(p, F_UNLCK, F_SETLK, SLOT_BYTE + p->slot + rows,
		    p->count - rows);
		p->count = rows;
	} else if ((at = free_run(p, p->slot, rows)) != -1) {
		/* its own slots count as free: give back those left behind */
		for (int s = p->slot; s < p->slot + p->count; s++)
			if (s < at || s >= at + rows)
				(void)lock(p, F_UNLCK, F_SETLK, SLOT_BYTE + s);
		p->slot = at;
		p->count = rows;
	}
	(void)lock(p, F_UNLCK, F_SETLK, CLAIM_BYTE);
	return p->count;
}

void
cursor_draw(struct pin *p, const struct terminal *t, const char *text,
    size_t len)
{
	struct frame f = { .len = 0 };
	int height = term_height(t), live, rank, row;
	const char *end = text != NULL ? text + len : NULL, *nl;

	if (!take(p, 1))
		return;		/* the next frame draws it */
	live = census(p, true, &rank);
	if (pinrows_kept(height, live) != p->pinned || height != p->height)
		lay_out(&f, p, t, height, pinrows_kept(height, live));
	/* a write a row: a row's line and sequences fill a frame */
	for (int i = 0; i < p->count && text != NULL; i++) {
		if ((nl = memchr(text, '\n', (size_t)(end - text))) == NULL)
			nl = end;
		if ((row = pinrows_row(height, live, rank + i)) > 0) {
			puts_(&f, t->sc);
			puts_(&f, term_param(t->cup, row - 1, 0));
			frame_put(&f, text, (size_t)(nl - text));
			puts_(&f, t->el);
			puts_(&f, t->rc);
		}
		term_write(t, f.buf, f.len);
		f.len = 0;
		text = nl < end ? nl + 1 : NULL;
	}
	if (f.len > 0)
		term_write(t, f.buf, f.len);
	(void)lock(p, F_UNLCK, F_SETLK, CLAIM_BYTE);
}

void
cursor_release(struct pin *p, const struct terminal *t, const char *text,
    size_t len)
{
	struct frame f = { .len = 0 };
	const char *end = text != NULL ? text + len : NULL, *nl;
	int rank, live;

	if (p->tty == -1)
		return;
	if (p->slot != -1) {
		(void)take(p, 100);
		(void)lock_run(p, F_UNLCK, F_SETLK, SLOT_BYTE + p->slot,
		    p->count);
		live = census(p, false, &rank);
		/*
		 * From the row's start: the terminal may have echoed ^C where
		 * the cursor was, and the line would wrap past it.
		 */
		while (len > 0 && text != NULL) {
			if ((nl = memchr(text, '\n', (size_t)(end - text))) ==
			    NULL)
				nl = end;
			puts_(&f, t->cr);
			frame_put(&f, text, (size_t)(nl - text));
			puts_(&f, t->el);
			frame_put(&f, "\n", 1);
			term_write(t, f.buf, f.len);
			f.len = 0;
			text = nl < end ? nl + 1 : NULL;
		}
		lay_out(&f, p, t, term_height(t),
		    pinrows_kept(term_height(t), live));
		term_write(t, f.buf, f.len);
		tell_janitor(p, JANITOR_DONE);
		if (p->janitor != -1)
			close(p->janitor);
		p->janitor = -1;
	}
	close(p->tty);		/* and every lock with it */
	p->tty = -1;
}
