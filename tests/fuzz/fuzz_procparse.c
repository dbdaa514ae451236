/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * libFuzzer harness for /proc's text parsers (-d on Linux):
 * another process's text, so anything may come.  A stat line accepted
 * has a ')' followed by a live state; an fdinfo accepted has a "pos:"
 * line whose number is the one returned.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tach/procparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	const char *paren, *p;
	uint64_t started = 0, pos, arg[3];
	enum procparse_call call;
	int flags;
	pid_t parent;
	char state;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (procparse_stat(text, &started) == 0) {
		paren = strrchr(text, ')');
		if (paren == NULL || paren[1] != ' ' || paren[2] == 'Z' ||
		    paren[2] == 'X' || paren[2] == '\0')
			abort();
	}
	/* without a place for the start time, only the state counts */
	if (procparse_stat(text, NULL) != 0 &&
	    procparse_stat(text, &started) == 0)
		abort();
	if (procparse_fdinfo(text, &pos, &flags)) {
		p = strstr(text, "pos:");
		if (p == NULL || flags < 0)
			abort();
	}
	if (procparse_parent(text, &parent) && parent < 0)
		abort();
	if (procparse_cpu(text, &state, &started) && strrchr(text, ')') == NULL)
		abort();
	(void)procparse_wchan(text);
	/* a call's text starts with its number, or says "running" */
	if (procparse_syscall(text, &call, arg) && call != PROCPARSE_RUNNING &&
	    (text[0] != '-' && (text[0] < '0' || text[0] > '9')))
		abort();
	/* environ's text: NUL-ended strings; the value lies within it */
	if ((p = procparse_env(text, size + 1, "PWD")) != NULL &&
	    (p < text + 4 || p > text + size || memcmp(p - 4, "PWD=", 4) != 0))
		abort();
	free(text);
	return 0;
}
