/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Every process started in the same clock tick, preloaded (LD_PRELOAD):
 * /proc/PID/stat read through fopen shows 1 as its start time (field 22),
 * so that watch mode must tell a reused PID from the process it watched
 * by other means than the start time, as it must when both started within
 * one tick of Linux's clock.
 */
/* fopen and fopen64 are both defined here */
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

static char text[1024];

/* Field 22 of the text in buf (fields counted after the ")"), set to 1. */
static void
same_start(char *buf, size_t len)
{
	char *p = strrchr(buf, ')'), *end;

	if (p == NULL)
		return;
	for (int field = 2; field < 22 && p != NULL; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL || (end = strchr(p + 1, ' ')) == NULL)
		return;
	memmove(p + 2, end, strlen(end) + 1);
	p[1] = '1';
	(void)len;
}

FILE *
fopen(const char *path, const char *mode)
{
	FILE *(*real)(const char *, const char *) =
	    (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
	FILE *f = real(path, mode);
	size_t got;

	if (f == NULL || fnmatch("/proc/[0-9]*/stat", path, FNM_PATHNAME) != 0)
		return f;
	got = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[got] = '\0';
	same_start(text, sizeof(text));
	return fmemopen(text, strlen(text), "r");
}

FILE *
fopen64(const char *path, const char *mode)
{
	return fopen(path, mode);
}
