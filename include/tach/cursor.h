/*
 * -c: several tach instances on one terminal, each on a line of its own.
 * Each claims a row while holding a lock on the terminal itself, so
 * nothing is left behind on any exit: no files, no shared memory.
 */
#ifndef TACH_CURSOR_H
#define TACH_CURSOR_H

#include <stdbool.h>
#include <stddef.h>

#include "tach/term.h"

/*
 * Claims a row of the terminal fd is on for this instance's line, for as
 * long as it runs; false if the terminal cannot say where its cursor is.
 * The rows other instances hold never move, even on a full screen.
 */
bool	cursor_claim(int fd, int *row);
/* Draws line on row, leaving the cursor where it was. */
void	cursor_draw(const struct terminal *t, int row, const char *line,
	    size_t len);

#endif
