/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * libFuzzer harness for watch mode's matching of files between samples:
 * any two lists (duplicates too).  A file now continues an old one only
 * if descriptor, device and inode agree; an old one continues once at
 * most; and one now is new only if no unmatched old one has its key.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tach/watchmatch.h"

#define MAX 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool
same(const struct watchmatch_key *a, const struct watchmatch_key *b)
{
	return a->fd == b->fd && a->dev == b->dev && a->ino == b->ino;
}

/* Keys from few bits, so that the lists share some. */
static size_t
keys(const uint8_t **data, size_t *size, struct watchmatch_key *k)
{
	size_t n = 0;

	if (*size == 0)
		return 0;
	n = **data % MAX;
	(*data)++, (*size)--;
	for (size_t i = 0; i < n; i++) {
		uint8_t b = *size > 0 ? **data : 0;

		if (*size > 0)
			(*data)++, (*size)--;
		k[i] = (struct watchmatch_key){ b & 7, (b >> 3) & 3, b >> 5 };
	}
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct watchmatch_key old[MAX], now[MAX];
	long which[MAX];
	bool kept[MAX], used[MAX] = { false };
	size_t nold = keys(&data, &size, old), nnow = keys(&data, &size, now);

	if (!watchmatch(old, nold, now, nnow, which, kept))
		return 0;
	for (size_t i = 0; i < nnow; i++) {
		if (which[i] < -1 || which[i] >= (long)nold)
			abort();
		if (which[i] == -1)
			continue;
		if (used[which[i]] || !same(&old[which[i]], &now[i]))
			abort();
		used[which[i]] = true;
	}
	for (size_t j = 0; j < nold; j++)
		if (kept[j] != used[j])
			abort();
	/* a new file had no old one with its key left to continue */
	for (size_t i = 0; i < nnow; i++)
		for (size_t j = 0; which[i] == -1 && j < nold; j++)
			if (!kept[j] && same(&old[j], &now[i]))
				abort();
	return 0;
}
