/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * Watch mode: which of the files seen before each file now continues.
 */
#include <stdlib.h>

#include "tach/watchmatch.h"

/* A key and where it stands in its list. */
struct placed {
	struct watchmatch_key	key;
	size_t			at;
};

static int
by_key(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->key.fd != y->key.fd)
		return (x->key.fd > y->key.fd) - (x->key.fd < y->key.fd);
	if (x->key.dev != y->key.dev)
		return (x->key.dev > y->key.dev) - (x->key.dev < y->key.dev);
	if (x->key.ino != y->key.ino)
		return (x->key.ino > y->key.ino) - (x->key.ino < y->key.ino);
	/* equal keys in list order: the first old one continues first */
	return (x->at > y->at) - (x->at < y->at);
}

/* keys[0..n) with their places, sorted; NULL when out of memory. */
static struct placed *
sorted(const struct watchmatch_key *keys, size_t n)
{
	struct placed *p = calloc(n + 1, sizeof(*p));

	if (p == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++)
		p[i] = (struct placed){ keys[i], i };
	qsort(p, n, sizeof(*p), by_key);
	return p;
}

/* Each descriptor once, in ascending order: as listings come. */
static bool
in_fd_order(const struct watchmatch_key *keys, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (keys[i - 1].fd >= keys[i].fd)
			return false;
	return true;
}

bool
watchmatch(const struct watchmatch_key *old, size_t nold,
    const struct watchmatch_key *now, size_t nnow, long *which, bool *kept)
{
	struct placed *o, *c;
	size_t i = 0, j = 0;
	int order;

	for (size_t k = 0; k < nold; k++)
		kept[k] = false;
	for (size_t k = 0; k < nnow; k++)
		which[k] = -1;
	/* the usual case, without sorting: one pass down both */
	if (in_fd_order(old, nold) && in_fd_order(now, nnow)) {
		while (i < nold && j < nnow) {
			if (old[i].fd < now[j].fd)
				i++;
			else if (old[i].fd > now[j].fd)
				j++;
			else {
				if (old[i].dev == now[j].dev &&
				    old[i].ino == now[j].ino) {
					which[j] = (long)i;
					kept[i] = true;
				}
				i++;
				j++;
			}
		}
		return true;
	}
	o = sorted(old, nold);
	c = sorted(now, nnow);
	if (o == NULL || c == NULL) {
		free(o);
		free(c);
		return false;
	}
	/* both in key order: equal keys pair off, one old to one new */
	while (i < nold && j < nnow) {
		struct placed a = o[i], b = c[j];

		a.at = b.at = 0;
		if ((order = by_key(&a, &b)) < 0)
			i++;
		else if (order > 0)
			j++;
		else {
			which[c[j++].at] = (long)o[i].at;
			kept[o[i++].at] = true;
		}
	}
	free(o);
	free(c);
	return true;
}
