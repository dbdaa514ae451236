/*
 * Row claiming for -c.  The instances of a pipeline start together; a
 * lock on /dev/tty serialises them, and each asks the terminal for the
 * cursor's row (DSR, ESC [ 6 n), takes it, and prints a newline so the
 * next one gets the row below.  Every lock goes with its descriptor, so
 * nothing is left behind.
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <curses.h>
#include <term.h>

#include "tach/cursor.h"
#include "tach/dsr.h"

/*
 * Locks on /dev/tty, which every process can open.  Byte 0 serialises the
 * claims; above ROW_LOCKS, one byte per row of each terminal (told apart
 * by its device number) is held by the instance drawing on that row.
 */
#define CLAIM_LOCK	0
#define ROW_LOCKS	((off_t)1 << 20)
#define TERMINALS	4096	/* below 2^31 in all, for a 32-bit off_t */

static off_t
row_byte(dev_t term, int row)
{
	return ROW_LOCKS + (off_t)(term % TERMINALS) * (DSR_MAX + 1) + row;
}

static bool
lock(int tty, short type, int cmd, off_t at)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET,
	    .l_start = at, .l_len = 1 };
	int r;

	while ((r = fcntl(tty, cmd, &fl)) == -1 && errno == EINTR)
		;
	return r == 0;
}

/* The topmost row another live instance holds on term, or 0. */
static int
topmost_held(int tty, dev_t term, int rows)
{
	struct flock fl;

	for (int row = 1; row <= rows; row++) {
		fl = (struct flock){ .l_type = F_WRLCK, .l_whence = SEEK_SET,
		    .l_start = row_byte(term, row), .l_len = 1 };
		if (fcntl(tty, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
			return row;
	}
	return 0;
}

/* Asks the terminal where the cursor is; the answer is ESC [ row ; col R. */
static bool
query(int tty, int *row, int *col)
{
	char buf[32];	/* ESC [ 65535 ; 65535 R fits */
	size_t got = 0;
	ssize_t n;

	if (write(tty, "\033[6n", 4) != 4)
		return false;
	while (got < sizeof(buf)) {
		n = read(tty, buf + got, 1);
		if (n == -1 && errno == EINTR)
			continue;	/* SIGUSR1 and the like */
		if (n <= 0)
			return false;	/* no answer within VTIME */
		if (buf[got++] == 'R')
			break;
	}
	return dsr_parse(buf, got, row, col);
}

/*
 * Frees row by scrolling rows 1 to row up by one (a scrolling region),
 * leaving every row below, where other instances draw, where it is.  The
 * cursor goes back to at_row, at_col.  The ANSI sequences: a terminal
 * that answers the cursor query knows them.
 */
static bool
scroll_above(int tty, int row, int at_row, int at_col)
{
	char seq[96];
	int n;

	if (row == 1)
		return true;	/* the top row: nothing above it to keep */
	n = snprintf(seq, sizeof(seq), "\033[1;%dr\033[%d;1H\n\033[r"
	    "\033[%d;%dH", row, row, at_row, at_col);
	return n > 0 && (size_t)n < sizeof(seq) &&
	    write(tty, seq, (size_t)n) == n;
}

/*
 * Under the claim lock: the cursor's row is this instance's, and a
 * newline moves the cursor below it for the next one.  On the bottom row
 * a newline would scroll the rows that other live instances hold, so the
 * row above the topmost of them is freed instead, by scrolling only what
 * is above it.
 */
static bool
claim_row(int tty, dev_t term, int *row)
{
	struct winsize ws;
	int at, col, top;

	if (ioctl(tty, TIOCGWINSZ, &ws) == -1 || ws.ws_row == 0 ||
	    !query(tty, &at, &col))
		return false;
	if (at < ws.ws_row) {
		*row = at;
		return write(tty, "\n", 1) == 1;
	}
	if ((top = topmost_held(tty, term, ws.ws_row)) == 0) {
		*row = at - 1;		/* the newline scrolls it up */
		return at > 1 && write(tty, "\n", 1) == 1;
	}
	*row = top - 1;
	return top > 1 && scroll_above(tty, top - 1, at, col);
}

bool
cursor_claim(int fd, int *row)
{
	struct termios saved, raw;
	struct stat sb;
	int tty;
	bool ok = false;

	if (fstat(fd, &sb) == -1 ||
	    (tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1)
		return false;
	(void)lock(tty, F_WRLCK, F_SETLKW, CLAIM_LOCK);
	if (tcgetattr(tty, &saved) == 0) {
		raw = saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 10;	/* a second for the answer */
		ok = tcsetattr(tty, TCSANOW, &raw) == 0 &&
		    claim_row(tty, sb.st_rdev, row) &&
		    lock(tty, F_RDLCK, F_SETLK, row_byte(sb.st_rdev, *row));
		tcsetattr(tty, TCSANOW, &saved);
	}
	(void)lock(tty, F_UNLCK, F_SETLK, CLAIM_LOCK);
	/* the row's lock lasts while the descriptor is open: to the end */
	if (!ok)
		close(tty);
	return ok;
}

void
cursor_draw(const struct terminal *t, int row, const char *line, size_t len)
{
	char frame[TERM_FRAME_MAX];
	const char *move = NULL;
	int n;

	if (t->cup[0] != '\0' && t->sc[0] != '\0' && t->rc[0] != '\0')
		move = term_param(t->cup, row - 1, 0);
	if (move != NULL)
		n = snprintf(frame, sizeof(frame), "%s%s%.*s%s%s", t->sc, move,
		    (int)len, line, t->el, t->rc);
	else	/* no terminfo: the ANSI sequences every -c terminal knows */
		n = snprintf(frame, sizeof(frame),
		    "\0337\033[%d;1H%.*s\033[K\0338", row, (int)len, line);
	if (n > 0)
		term_write(t, frame, (size_t)n < sizeof(frame) ? (size_t)n :
		    sizeof(frame) - 1);
}
