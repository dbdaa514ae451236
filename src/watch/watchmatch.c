/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Watch mode: which of the files seen before each file now continues.
 */
#include "tach/watchmatch.h"

void
watchmatch(const struct watchmatch_key *old, size_t nold,
    const struct watchmatch_key *now, size_t nnow, long *which, bool *kept)
{
	for (size_t j = 0; j < nold; j++)
		kept[j] = false;
	for (size_t i = 0; i < nnow; i++) {
		which[i] = -1;
		for (size_t j = 0; j < nold; j++)
			if (!kept[j] && old[j].fd == now[i].fd &&
			    old[j].dev == now[i].dev &&
			    old[j].ino == now[i].ino) {
				which[i] = (long)j;
				kept[j] = true;
				break;
			}
	}
}
