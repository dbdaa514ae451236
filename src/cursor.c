/*
 * Row claiming for -c.  The instances of a pipeline start together; the
 * lock on /dev/tty serialises them, and each asks the terminal for the
 * cursor's row (DSR, ESC [ 6 n), takes it, and prints a newline so the
 * next one gets the row below.  The lock goes with the descriptor.
 */
#include <sys/types.h>

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

/* Asks the terminal where the cursor is; the answer is ESC [ row ; col R. */
static bool
query_row(int tty, int *row)
{
	char buf[32];	/* ESC [ 65535 ; 65535 R fits */
	size_t got = 0;
	ssize_t n;
	int col;

	if (write(tty, "\033[6n", 4) != 4)
		return false;
	while (got < sizeof(buf)) {
		n = read(tty, buf + got, 1);
		if (n <= 0)
			return false;	/* no answer within VTIME */
		if (buf[got++] == 'R')
			break;
	}
	return dsr_parse(buf, got, row, &col);
}

bool
cursor_claim(int *row)
{
	struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct termios saved, raw;
	int tty, before, after;
	bool ok = false;

	if ((tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1)
		return false;
	while (fcntl(tty, F_SETLKW, &lock) == -1 && errno == EINTR)
		;
	if (tcgetattr(tty, &saved) == 0) {
		raw = saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 10;	/* a second for the answer */
		if (tcsetattr(tty, TCSANOW, &raw) == 0 &&
		    query_row(tty, &before) && write(tty, "\n", 1) == 1 &&
		    query_row(tty, &after)) {
			/* at the bottom the newline scrolled the screen */
			*row = after > before ? before : after - 1;
			ok = *row >= 1;
		}
		tcsetattr(tty, TCSANOW, &saved);
	}
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
		move = tiparm(t->cup, row - 1, 0);
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
