/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * A tree of files as a copy of it sees it: its directories, the regular
 * files in each with their sizes, and the total, as du -sb
 * --apparent-size counts it less the directories (a file with several
 * names once).  For -l @DIR, and -d's whole copy.
 */
#ifndef TACH_TREE_H
#define TACH_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tree_file {
	char		*name;		/* its last part */
	uint64_t	 size;		/* 0 for a second name of a file */
	bool		 done;		/* -d: the copy has read it */
};

struct tree_dir {
	char		*path;
	struct tree_file *files;	/* by name, for tree_find */
	size_t		 n, room;
};

struct tree {
	struct tree_dir	*dirs;
	size_t		 ndirs, room;
	uint64_t	 size;		/* its regular files' */
	uint64_t	 files;		/* how many, each once */
};

/*
 * Walks each of roots, directories, links not followed, into t: 0, or
 * the errno that stopped it (a part left out makes the size wrong), the
 * path it stopped at in where.
 */
int		 tree_read(struct tree *t, const char *const *roots, size_t n,
		    char *where, size_t wherelen);
/* The file named name in t's directory dir, or NULL. */
struct tree_file *tree_find(const struct tree *t, size_t dir,
		    const char *name);
void		 tree_free(struct tree *t);

#endif
