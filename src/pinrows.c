/* -c's layout: the live lines on the bottom rows, in rank order. */
#include "tach/pinrows.h"

int
pinrows_kept(int height, int live)
{
	if (height < 2 || live < 1)
		return 0;
	return live < height - 1 ? live : height - 1;
}

int
pinrows_row(int height, int live, int rank)
{
	int kept = pinrows_kept(height, live);

	if (rank < 0 || rank >= kept)
		return 0;
	return height - kept + 1 + rank;
}
