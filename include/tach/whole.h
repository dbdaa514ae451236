/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -d's whole copy: the tree a watched process copies (the directories its
 * command line names as sources, or -l @DIR), its size and files from a
 * walk, and how far the copy has got over all of them.
 */
#ifndef TACH_WHOLE_H
#define TACH_WHOLE_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

#include "tach/compat.h"
#include "tach/tree.h"

/*
 * Bytes a process reads before its copy begins (the loader, locales): a
 * first sample past it came late, and the files done before it are not
 * known.
 */
#define WHOLE_LATE	(64 * 1024)

struct whole {
	struct tree	 tree;
	const char	*root;		/* the first source, as named */
	size_t		 nroots;	/* how many sources */
	char		*owned;		/* that name, where it is whole's */
	struct compat_closes *closes;	/* the files closed, or NULL */
	size_t		*dir_of;	/* a watch's id: its directory */
	size_t		 nids;
	uint64_t	 closed;	/* the bytes of the files done */
	uint64_t	 files;		/* files done */
	bool		 files_known;	/* watched from the copy's start */
	bool		 sampled;
	uint64_t	 read_before;	/* read before the copy began */
	uint64_t	 done;		/* never less than at a sample before */
};

/*
 * pid's whole copy: the tree under dir (-l @DIR) if not NULL, else the
 * directories its command line names as sources; NULL when there are
 * none, or the tree cannot be read (said as a warning).  *tried: there
 * was a tree to read, so that looking again would find the same.
 */
struct whole	*whole_open(pid_t pid, const char *dir, bool *tried);
/*
 * A sample: the files closed since the last, and the bytes the process
 * has read (where it could be read: read_error 0).
 */
void		 whole_sample(struct whole *w, int read_error, uint64_t read);
void		 whole_free(struct whole *w);

#endif
