/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Signal handlers only record what arrived; the main loop acts on it
 * through signals_take().
 */
#ifndef TACH_SIGNALS_H
#define TACH_SIGNALS_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* Set by every handler below; cleared by signals_take(). */
extern volatile sig_atomic_t signal_pending;

enum {
	SIGNAL_TICK = 1 << 0,	/* the redraw timer fired */
	SIGNAL_WINCH = 1 << 1,	/* the terminal was resized */
	SIGNAL_INFO = 1 << 2,	/* SIGUSR1, or SIGINFO where it exists */
	SIGNAL_TSTP = 1 << 3,	/* ^Z: tidy the terminal, then stop */
	SIGNAL_CONT = 1 << 4,	/* continued after a stop */
	SIGNAL_TERMINATE = 1 << 5,	/* INT, TERM or HUP: see signals_fatal() */
	SIGNAL_CONTROL = 1 << 6,	/* SIGIO: a -R request is waiting */
	SIGNAL_CHILD = 1 << 7		/* a child exited */
};

/*
 * SIGPIPE, SIGINT, SIGTERM, SIGHUP, the info signals and SIGCHLD; of the
 * first four, those the parent ignored stay ignored.
 */
void	signals_install(void);
/* SIGIO, for -R's control socket. */
void	signals_install_control(void);
/* SIGALRM, SIGWINCH, SIGTSTP and SIGCONT, for a live display. */
void	signals_install_display(void);
/* Starts (interval > 0) or stops the redraw timer. */
void	signals_timer(double interval);
/* Returns and clears the SIGNAL_* bits that arrived. */
int	signals_take(void);
/* As signals_take, for the bits in want only: the others stay for later. */
int	signals_take_only(int want);
/* Sleeps until a signal arrives; then as signals_take(). */
int	signals_wait(void);
/*
 * As signals_wait, or until one of the n fds is ready (Linux; elsewhere
 * a signal only): -d's pidfds, so that a process's exit is sampled at
 * once.  fds' revents say which.
 */
int	signals_wait_fds(struct pollfd *fds, size_t n);
/* The terminating signal that arrived, or 0. */
int	signals_fatal(void);
/* True if the parent had sig ignored (see signals_install). */
bool	signals_ignored(int sig);
/* Dies of sig as if never caught, so the parent sees 128+sig. */
_Noreturn void	signals_die(int sig);
/*
 * last runs in signals_die before the signal is raised, as atexit's do,
 * and in the handler of a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT):
 * it must be async-signal-safe.
 */
void	signals_at_death(void (*last)(void));
/* Stops the process as ^Z would, returning once continued. */
void	signals_stop_self(void);
/*
 * In a child before exec: the dispositions tach was given (default, or
 * ignored where the parent ignored them), nothing blocked.
 */
void	signals_reset_child(void);

#endif
