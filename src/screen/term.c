/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * terminfo capabilities, read once, written with one write(2) a frame.
 * Where the build names the library (Linux), it is loaded when a terminal
 * is first set up, not at every start: a run that draws no bar (-q, a
 * script's loop) need not wait for the loader to map it.
 */
#include <sys/ioctl.h>

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>
#include <term.h>

#include "config.h"
#include "tach/clock.h"
#include "tach/signals.h"
#include "tach/term.h"

#ifdef TACH_TERMINFO_LIBRARY
/* terminfo's calls, once loaded */
static struct {
	bool	  tried, loaded;
	int	(*setupterm)(const char *, int, int *);
	int	(*tigetflag)(const char *);
	int	(*tigetnum)(const char *);
	char	*(*tigetstr)(const char *);
	char	*(*tiparm)(const char *, ...);
	TERMINAL *(*set_curterm)(TERMINAL *);
	int	(*del_curterm)(TERMINAL *);
} ti;

#define TI(f)		(ti.f)
#define LOAD(f)		((ti.f = (__typeof__(ti.f))dlsym(lib, #f)) != NULL)

/*
 * TACH_TERMINFO_LIBRARY, as the build found it; false if it cannot be
 * loaded, and the terminal is then drawn on as one without terminfo.
 */
static bool
terminfo_load(void)
{
	void *lib;

	if (ti.tried)
		return ti.loaded;
	ti.tried = true;
	if ((lib = dlopen(TACH_TERMINFO_LIBRARY, RTLD_NOW | RTLD_LOCAL)) ==
	    NULL)
		return false;
	ti.loaded = LOAD(setupterm) && LOAD(tigetflag) && LOAD(tigetnum) &&
	    LOAD(tigetstr) && LOAD(tiparm) && LOAD(set_curterm) &&
	    LOAD(del_curterm);
	if (!ti.loaded)
		dlclose(lib);
	return ti.loaded;
}
#else
/* Linked (the BSDs, macOS, a static curses): its calls as they are. */
#define TI(f)		f
#define terminfo_load()	true
#endif

/*
 * Copies cap without its padding, "$<5>", "$<1000/>", "$<2.5*>": tputs()
 * would sleep for it (a terminal that really needed delays would also
 * need them mid-frame), and a delay must never hold the copy.
 */
static void
unpadded(char *dst, size_t room, const char *cap)
{
	size_t n = 0, skip;

	while (*cap != '\0' && n + 1 < room) {
		if (cap[0] == '$' && cap[1] == '<') {
			skip = 2 + strspn(cap + 2, "0123456789.*/");
			if (cap[skip] == '>' && skip > 2) {
				cap += skip + 1;
				continue;
			}
		}
		dst[n++] = *cap++;
	}
	dst[n] = '\0';
}

/* A capability without padding, or "" if it is absent. */
static void
expand(char *dst, const char *cap)
{
	dst[0] = '\0';
	if (cap == NULL || cap == (char *)-1)
		return;
	unpadded(dst, TERM_CAP_MAX, cap);
}

/* Keeps a parametrised capability as it is, to expand with term_param(). */
static void
verbatim(char *dst, const char *cap)
{
	dst[0] = '\0';
	if (cap != NULL && cap != (char *)-1 && strlen(cap) < TERM_CAP_MAX)
		strcpy(dst, cap);
}

/*
 * Whether every % sequence of cap, read as terminfo reads it, takes or
 * prints numbers only.  %s and %l read a parameter as a string, and our
 * numbers would be read as pointers; a sequence not known is refused too.
 */
static bool
numeric_only(const char *cap)
{
	const char *s = cap;

	while ((s = strchr(s, '%')) != NULL) {
		s++;
		if (*s == '\0')
			return true;
		if (strchr("%i+-*/m&|^=><AO!~?te;", *s) != NULL) {
			s++;
		} else if (*s == 'p') {		/* %p1 to %p9 */
			if (s[1] < '1' || s[1] > '9')
				return false;
			s += 2;
		} else if (*s == 'P' || *s == 'g') {	/* a variable, a-z A-Z */
			if (!isalpha((unsigned char)s[1]))
				return false;
			s += 2;
		} else if (*s == '{') {		/* %{digits} exactly */
			s += 1 + strspn(s + 1, "0123456789");
			if (*s++ != '}')
				return false;
		} else if (*s == '\'') {	/* %'c' */
			if (s[1] == '\0' || s[2] != '\'')
				return false;
			s += 3;
		} else {	/* printf's [:][flags][width][.precision]conv */
			s += *s == ':';
			s += strspn(s, "-+# 0123456789.");
			if (*s == '\0' || strchr("doxXc", *s) == NULL)
				return false;
			s++;
		}
	}
	return true;
}

const char *
term_param(const char *cap, int p1, int p2)
{
	static char out[TERM_CAP_MAX];
	const char *s;

	if (!numeric_only(cap) || !terminfo_load())
		return NULL;
#ifdef HAVE_TIPARM
	s = TI(tiparm)(cap, p1, p2);
#else	/* macOS's ncurses 5.7: tparm takes nine, and a char * */
	s = tparm((char *)cap, p1, p2, 0, 0, 0, 0, 0, 0, 0);
#endif
	if (s == NULL)
		return NULL;
	unpadded(out, sizeof(out), s);
	return out;
}

/* xterm's window operations: the title saved on its stack, restored. */
#define TITLE_PUSH	"\033[22;2t"
#define TITLE_POP	"\033[23;2t"

/*
 * -x: how to reach the window's title.  A status line, where terminfo
 * says there is one, or else the title sequence of xterm and the
 * terminals that copied it, which most terminfo entries leave out.
 */
static void
title_caps(struct terminal *t)
{
	static const char *const xterms[] = { "xterm", "rxvt", "screen",
	    "tmux", "alacritty", "foot", "kitty", "wezterm", "vte", "gnome",
	    "konsole", "st-", "iterm" };
	const char *term = getenv("TERM"), *tsl = TI(tigetstr)("tsl");

	if (TI(tigetflag)("hs") > 0 && tsl != NULL && tsl != (char *)-1) {
		expand(t->tsl, term_param(tsl, 0, 0));
		expand(t->fsl, TI(tigetstr)("fsl"));
		if (t->fsl[0] == '\0')
			t->tsl[0] = '\0';
		/* xterm's sequence by terminfo (tmux-256color): its stack too */
		t->title_stack = strncmp(t->tsl, "\033]", 2) == 0;
		return;
	}
	for (size_t i = 0; term != NULL && i < sizeof(xterms) /
	    sizeof(xterms[0]); i++)
		if (strncmp(term, xterms[i], strlen(xterms[i])) == 0) {
			strcpy(t->tsl, "\033]2;");
			strcpy(t->fsl, "\007");
			t->title_stack = true;
			return;
		}
}

void
term_open(struct terminal *t, int fd, bool colour)
{
	int error;

	memset(t, 0, sizeof(*t));
	t->fd = fd;
	strcpy(t->cr, "\r");
	if (getenv("TERM") == NULL || !terminfo_load() ||
	    TI(setupterm)(NULL, fd, &error) != OK)
		return;
	t->cols = TI(tigetnum)("cols") > 0 ? TI(tigetnum)("cols") : 0;
	t->rows = TI(tigetnum)("lines") > 0 ? TI(tigetnum)("lines") : 0;
	expand(t->cr, TI(tigetstr)("cr"));
	if (t->cr[0] == '\0')
		strcpy(t->cr, "\r");
	expand(t->el, TI(tigetstr)("el"));
	expand(t->ed, TI(tigetstr)("ed"));
	expand(t->sc, TI(tigetstr)("sc"));
	expand(t->rc, TI(tigetstr)("rc"));
	expand(t->cuu1, TI(tigetstr)("cuu1"));
	verbatim(t->cup, TI(tigetstr)("cup"));
	verbatim(t->csr, TI(tigetstr)("csr"));
	title_caps(t);
	if (colour && TI(tigetnum)("colors") >= 8) {
		char *setaf = TI(tigetstr)("setaf");

		if (setaf != NULL && setaf != (char *)-1) {
			expand(t->colour_on, term_param(setaf, COLOR_GREEN, 0));
			expand(t->colour_off, TI(tigetstr)("sgr0"));
		}
		if (t->colour_off[0] == '\0')
			t->colour_on[0] = '\0';
	}
	TI(del_curterm)(TI(set_curterm)(NULL));
}

int
term_width(const struct terminal *t)
{
	struct winsize ws;

	if (ioctl(t->fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return t->cols > 0 ? t->cols : 80;
}

int
term_height(const struct terminal *t)
{
	struct winsize ws;

	if (ioctl(t->fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0)
		return ws.ws_row;
	return t->rows;
}

bool
term_ready(const struct terminal *t)
{
	struct pollfd pfd = { .fd = t->fd, .events = POLLOUT };
	double left = t->deadline - clock_now();

	return poll(&pfd, 1, t->deadline > 0 && left > 0 ?
	    (int)(left * 1000) + 1 : 0) == 1 && (pfd.revents & POLLOUT);
}

void
term_write(const struct terminal *t, const char *s, size_t len)
{
	ssize_t n;

	while (len > 0) {
		/* A timer's EINTR drops the frame: the next one redraws. */
		if ((n = write(t->fd, s, len)) <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

/*
 * frame[0, at), then text between open and close, written in one call so
 * that nothing else lands inside; a text too long for the frame loses its
 * end.
 */
static void
framed(const struct terminal *t, char *frame, size_t at, const char *open,
    const char *text, size_t len, const char *close)
{
	size_t o = strlen(open), c = strlen(close);

	if (at + o + len + c > TERM_FRAME_MAX)
		len = TERM_FRAME_MAX - at - o - c;
	memcpy(frame + at, open, o);
	memcpy(frame + at + o, text, len);
	memcpy(frame + at + o + len, close, c);
	term_write(t, frame, at + o + len + c);
}

void
term_draw_at(const struct terminal *t, int up, bool down, const char *line,
    size_t len)
{
	char frame[TERM_FRAME_MAX];
	size_t at = 0, cuu1 = strlen(t->cuu1);

	/* the moves first: a line too long for the frame loses its end */
	for (; up > 0 && at + cuu1 + 1 <= sizeof(frame) / 2; up--, at += cuu1)
		memcpy(frame + at, t->cuu1, cuu1);
	if (down)
		frame[at++] = '\n';
	framed(t, frame, at, t->cr, line, len, t->el);
}

bool
term_title(struct terminal *t, const char *text)
{
	char frame[TERM_FRAME_MAX];
	size_t at = 0;

	if (t->tsl[0] == '\0')
		return false;
	if (!term_ready(t))
		return true;
	/* xterm's stack: the user's title comes back at the end */
	if (t->title_stack && !t->title_pushed) {
		at = strlen(TITLE_PUSH);
		memcpy(frame, TITLE_PUSH, at);
		t->title_pushed = true;
	}
	framed(t, frame, at, t->tsl, text, strlen(text), t->fsl);
	return true;
}

bool
term_title_end(struct terminal *t)
{
	const char *tty;
	ssize_t n = -1;
	int fd;

	if (!t->title_pushed)
		return true;
	if (term_ready(t)) {
		t->title_pushed = false;
		term_write(t, TITLE_POP, strlen(TITLE_POP));
		return true;
	}
	/*
	 * A terminal that stopped reading may still have room for a few
	 * bytes: written without waiting, through a description of tach's
	 * own, so that the shell's stays blocking.
	 */
	if ((tty = ttyname(t->fd)) != NULL && (fd = open(tty, O_WRONLY |
	    O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) != -1) {
		n = write(fd, TITLE_POP, strlen(TITLE_POP));
		close(fd);
	}
	t->title_pushed = n == -1;
	return n != -1;
}

void
term_title_end_waiting(struct terminal *t)
{
	if (!t->title_pushed)
		return;
	t->title_pushed = false;
	/* a terminal gone (EIO) ends the wait too, and so does ^C */
	while (write(t->fd, TITLE_POP, strlen(TITLE_POP)) == -1 &&
	    errno == EINTR && signals_fatal() == 0)
		;
}
