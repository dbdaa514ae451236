/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Signal dispositions: handlers set flags, nothing more.
 */
#include <sys/resource.h>
#include <sys/time.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "tach/compat.h"
#include "tach/message.h"
#include "tach/signals.h"

#define NITEMS(a)	(sizeof(a) / sizeof((a)[0]))

volatile sig_atomic_t signal_pending;
static volatile sig_atomic_t arrived;
static volatile sig_atomic_t fatal;
/* Every signal tach handles, and so resets in its children. */
static const int handled[] = { SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGUSR1,
    SIGALRM, SIGWINCH, SIGTSTP, SIGCONT, SIGTTOU, SIGIO, SIGCHLD,
#ifdef HAVE_SIGINFO
    SIGINFO,
#endif
};
/*
 * Signals whose default would end tach without a word and leave -P's file
 * behind: caught like SIGTERM, so tach tidies up and then dies of them.
 * The faults (below) are not: their handler could not return to go on.
 */
static const int terminating[] = { SIGQUIT, SIGUSR2, SIGXCPU, SIGXFSZ,
    SIGVTALRM, SIGPROF, SIGSYS, SIGTRAP,
#ifdef SIGPWR
    SIGPWR,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
#ifdef SIGLOST
    SIGLOST,
#endif
#ifdef SIGEMT
    SIGEMT,
#endif
};
/*
 * A fault (or abort(3), or one of these sent by kill): the one handler
 * that does more than set a flag, since tach cannot go on to its loop.
 * It runs the tidy-up (async-signal-safe: unlinks and closes) and dies
 * of the signal, its core dumped as the default would.
 */
static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
/* Those the parent ignored. */
static sigset_t inherited_ignored;
static void (*at_death)(void);

static void
on_signal(int sig)
{
	int bit = 0;

	switch (sig) {
	case SIGALRM:
		bit = SIGNAL_TICK;
		break;
	case SIGWINCH:
		bit = SIGNAL_WINCH;
		break;
	case SIGUSR1:
#ifdef HAVE_SIGINFO
	case SIGINFO:
#endif
		bit = SIGNAL_INFO;
		break;
	case SIGTSTP:
		bit = SIGNAL_TSTP;
		break;
	case SIGCONT:
		bit = SIGNAL_CONT;
		break;
	case SIGIO:
		bit = SIGNAL_CONTROL;
		break;
	case SIGCHLD:
		bit = SIGNAL_CHILD;
		break;
	case SIGPIPE:
		return;		/* the write's EPIPE carries the news */
	default:	/* SIGINT, SIGTERM, SIGHUP and the terminating[] */
		bit = SIGNAL_TERMINATE;
		fatal = sig;
		break;
	}
	arrived |= bit;
	signal_pending = 1;
}

static void
on_fault(int sig)
{
	void (*last)(void) = at_death;

	at_death = NULL;
	if (last != NULL)
		last();
	signal(sig, SIG_DFL);
	/* blocked until the handler returns; a real fault comes again */
	raise(sig);
}

/*
 * Without SA_RESTART: a blocked read, write or splice returns EINTR, so the
 * loop can redraw during a stall.  Every other signal waits while the
 * handler runs, so none is lost in its read-modify-write of the bits.
 */
static int
set_handler(int sig, void (*handler)(int), int flags, struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = flags;
	sigfillset(&sa.sa_mask);
	return sigaction(sig, &sa, old);
}

static void
catch(int sig, int flags)
{
	if (set_handler(sig, on_signal, flags, NULL) == -1)
		report_err(1, "sigaction");
}

bool
signals_ignored(int sig)
{
	return sigismember(&inherited_ignored, sig) == 1;
}

/*
 * Caught, and the parent's choice learnt in the same call; a signal the
 * parent ignored (nohup, trap '' PIPE) is ignored again at once unless
 * tach must see it.  All signals are blocked meanwhile (signals_install),
 * and setting SIG_IGN discards one that came in between.
 */
static void
take_over(int sig, void (*handler)(int), int flags, bool even_ignored)
{
	struct sigaction old;

	if (set_handler(sig, handler, flags, &old) == -1) {
		/* one the system keeps (valgrind: a real-time one) */
		if (errno == EINVAL)
			return;
		report_err(1, "sigaction");
	}
	if (old.sa_handler != SIG_IGN)
		return;
	sigaddset(&inherited_ignored, sig);
	if (!even_ignored && sigaction(sig, &old, NULL) == -1)
		report_err(1, "sigaction");
}

/* Catches sig unless the parent chose to ignore it; then as before. */
static void
catch_unless_ignored(int sig)
{
	if (!signals_ignored(sig))
		catch(sig, 0);
}

/*
 * One call a signal (a start as light as pv's): each is caught as its
 * parent's choice is read.  Those caught later (the display's, -R's) are
 * only read, so that a child gets the parent's choice back.
 */
void
signals_install(void)
{
	static const int later[] = { SIGWINCH, SIGTSTP, SIGCONT, SIGTTOU,
	    SIGIO };
	struct sigaction old;
	sigset_t all, mask;

	sigemptyset(&inherited_ignored);
	sigfillset(&all);
	/* a SIGUSR1 sent now waits for its handler, as dd's report does */
	sigprocmask(SIG_BLOCK, &all, &mask);
	take_over(SIGUSR1, on_signal, 0, true);
#ifdef HAVE_SIGINFO
	take_over(SIGINFO, on_signal, 0, true);
#endif
	take_over(SIGPIPE, on_signal, 0, false);
	take_over(SIGINT, on_signal, 0, false);
	take_over(SIGTERM, on_signal, 0, false);
	take_over(SIGHUP, on_signal, 0, false);
	for (size_t i = 0; i < NITEMS(terminating); i++)
		take_over(terminating[i], on_signal, 0, false);
#ifdef SIGRTMIN
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		take_over(sig, on_signal, 0, false);
#endif
	/* someone else's SIGALRM must not kill a copy (progress(1) goes on) */
	take_over(SIGALRM, on_signal, 0, false);
	/*
	 * Even if the parent ignored it: then the children would be reaped
	 * unseen and waitpid fail, losing cmd's status.  cmd gets the
	 * parent's choice back (signals_reset_child).
	 */
	take_over(SIGCHLD, on_signal, SA_RESTART | SA_NOCLDSTOP, true);
	for (size_t i = 0; i < NITEMS(faults); i++)
		take_over(faults[i], on_fault, 0, false);
	for (size_t i = 0; i < NITEMS(later); i++)
		if (sigaction(later[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			sigaddset(&inherited_ignored, later[i]);
	sigprocmask(SIG_SETMASK, &mask, NULL);
}

void
signals_install_control(void)
{
	catch(SIGIO, 0);
}

void
signals_install_display(void)
{
	catch(SIGALRM, 0);
	catch(SIGWINCH, SA_RESTART);
	catch_unless_ignored(SIGTSTP);
	catch(SIGCONT, SA_RESTART);
	/*
	 * A frame written just as the job went to the background must not
	 * stop the whole pipeline on a TOSTOP terminal; may_draw() keeps
	 * the background quiet otherwise.
	 */
	signal(SIGTTOU, SIG_IGN);
}

void
signals_timer(double interval)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	if (interval > 0) {
		it.it_interval.tv_sec = (time_t)interval;
		it.it_interval.tv_usec = (suseconds_t)((interval -
		    (double)(time_t)interval) * 1e6);
		if (it.it_interval.tv_sec == 0 && it.it_interval.tv_usec == 0)
			it.it_interval.tv_usec = 1000;
		it.it_value = it.it_interval;
	}
	if (setitimer(ITIMER_REAL, &it, NULL) == -1)
		report_err(1, "setitimer");
}

int
signals_take(void)
{
	return signals_take_only(~0);
}

int
signals_take_only(int want)
{
	sigset_t all, old;
	int bits;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	bits = arrived & want;
	arrived &= ~want;
	signal_pending = arrived != 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return bits;
}

int
signals_wait(void)
{
	return signals_wait_fds(NULL, 0);
}

int
signals_wait_fds(struct pollfd *fds, size_t n)
{
	sigset_t all, old;

	/* blocked from the test to the wait, so none slips in between */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (!signal_pending)
		compat_wait(fds, n, &old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return signals_take();
}

int
signals_fatal(void)
{
	return fatal;
}

static void
unblock(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

void
signals_at_death(void (*last)(void))
{
	at_death = last;
}

void
signals_die(int sig)
{
	/* a child's SIGSEGV becomes tach's death, not a core of tach's */
	const struct rlimit no_core = { 0, 0 };

	if (at_death != NULL)
		at_death();
	(void)setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	unblock(sig);
	raise(sig);
	_exit(128 + sig);	/* not reached unless sig cannot kill */
}

void
signals_stop_self(void)
{
	signal(SIGTSTP, SIG_DFL);
	unblock(SIGTSTP);
	raise(SIGTSTP);
	catch(SIGTSTP, 0);
}

void
signals_reset_child(void)
{
	sigset_t none;

	for (size_t i = 0; i < NITEMS(handled); i++)
		signal(handled[i], signals_ignored(handled[i]) ? SIG_IGN :
		    SIG_DFL);
	for (size_t i = 0; i < NITEMS(terminating); i++)
		signal(terminating[i], signals_ignored(terminating[i]) ?
		    SIG_IGN : SIG_DFL);
	for (size_t i = 0; i < NITEMS(faults); i++)
		signal(faults[i], signals_ignored(faults[i]) ? SIG_IGN :
		    SIG_DFL);
#ifdef SIGRTMIN
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		signal(sig, signals_ignored(sig) ? SIG_IGN : SIG_DFL);
#endif
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}
