/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -c's layout: the live lines on the bottom rows, in rank order.
 */
#include "tach/pinrows.h"

/*
 * Two rows at least stay for everything else: a scrolling region of one
 * row is no region at all (DECSTBM wants top < bottom), and everything
 * would scroll, the pinned rows too.
 */
int
pinrows_kept(int height, int live)
{
	if (height < 3 || live < 1)
		return 0;
	return live < height - 2 ? live : height - 2;
}

int
pinrows_row(int height, int live, int rank)
{
	int kept = pinrows_kept(height, live);

	if (rank < 0 || rank >= kept)
		return 0;
	return height - kept + 1 + rank;
}
