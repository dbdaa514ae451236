/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -c's layout: which bottom rows the pinned lines take on a window.
 * Pure, so that every height and count can be checked.
 */
#ifndef TACH_PINROWS_H
#define TACH_PINROWS_H

/*
 * The rows kept at the bottom for live lines on a window of height rows:
 * two rows at least stay for everything else.
 */
int	pinrows_kept(int height, int live);
/*
 * The row, from 1, of the line ranked rank from the top (0 for the first)
 * among live; 0 if it does not fit.
 */
int	pinrows_row(int height, int live, int rank);

#endif
