/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * A coarse clock, preloaded (LD_PRELOAD): CLOCK_MONOTONIC moves in steps
 * of 500 ms, so that whatever a program does within one step happens at
 * one instant, as it can on a fast machine within a millisecond.
 */
#undef _TIME_BITS
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

#define STEP_NS	500000000L

/* A clock's reading, from CLOCK_MONOTONIC, moved back to its step. */
static int
coarse(clockid_t id, int r, long *nsec)
{
	if (r == 0 && id == CLOCK_MONOTONIC)
		*nsec -= *nsec % STEP_NS;
	return r;
}

int
clock_gettime(clockid_t id, struct timespec *ts)
{
	int (*real)(clockid_t, struct timespec *) =
	    (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT,
	    "clock_gettime");

	return coarse(id, real(id, ts), &ts->tv_nsec);
}

#if defined(__GLIBC__) && defined(__i386__)
/* A 32-bit program built with _TIME_BITS=64 calls this one instead. */
struct timespec64 {
	long long	 tv_sec;
	long		 tv_nsec;
	long		 pad;
};

int
__clock_gettime64(clockid_t id, struct timespec64 *ts)
{
	int (*real)(clockid_t, struct timespec64 *) =
	    (int (*)(clockid_t, struct timespec64 *))dlsym(RTLD_NEXT,
	    "__clock_gettime64");

	return coarse(id, real(id, ts), &ts->tv_nsec);
}
#endif
