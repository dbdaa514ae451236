/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * A tree's files and sizes (tree.h), by nftw(3).  nftw's callback takes
 * no argument of the caller's: the walk's state is this file's, one walk
 * at a time.
 */
#include <sys/stat.h>

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tach/compat.h"
#include "tach/tree.h"

static struct walk {
	struct tree	*tree;
	size_t		*parents;	/* by depth: each one's directory */
	size_t		 depth;
	struct stat	*linked;	/* files with several names */
	size_t		 nlinked;
	int		 error;
	const char	*where;		/* where it stopped, in nftw's path */
	char		*stopped;
	size_t		 stoppedlen;
} walk;

/* A file with several names counts once, as du counts it. */
static int
seen_before(const struct stat *sb, bool *seen)
{
	struct stat *more;

	*seen = false;
	for (size_t i = 0; i < walk.nlinked && !*seen; i++)
		*seen = walk.linked[i].st_dev == sb->st_dev &&
		    walk.linked[i].st_ino == sb->st_ino;
	if (*seen)
		return 0;
	if ((more = reallocarray(walk.linked, walk.nlinked + 1,
	    sizeof(*more))) == NULL)
		return ENOMEM;
	walk.linked = more;
	walk.linked[walk.nlinked++] = *sb;
	return 0;
}

static int
add_dir(const char *path, int level)
{
	struct tree *t = walk.tree;
	struct tree_dir *d;
	size_t *p;

	if (t->ndirs == t->room) {
		t->room = t->room ? t->room * 2 : 16;
		if ((d = reallocarray(t->dirs, t->room, sizeof(*d))) == NULL)
			return ENOMEM;
		t->dirs = d;
	}
	if ((size_t)level >= walk.depth) {
		if ((p = reallocarray(walk.parents, (size_t)level + 16,
		    sizeof(*p))) == NULL)
			return ENOMEM;
		walk.parents = p;
		walk.depth = (size_t)level + 16;
	}
	d = &t->dirs[t->ndirs];
	memset(d, 0, sizeof(*d));
	if ((d->path = strdup(path)) == NULL)
		return ENOMEM;
	walk.parents[level] = t->ndirs++;
	return 0;
}

static int
keep_file(const char *path, const struct stat *sb, int level, int base)
{
	struct tree_dir *d = &walk.tree->dirs[walk.parents[level - 1]];
	struct tree_file *f;
	bool seen = false;
	int error;

	if (sb->st_nlink > 1 && (error = seen_before(sb, &seen)) != 0)
		return error;
	if (d->n == d->room) {
		d->room = d->room ? d->room * 2 : 16;
		if ((f = reallocarray(d->files, d->room, sizeof(*f))) == NULL)
			return ENOMEM;
		d->files = f;
	}
	f = &d->files[d->n];
	if ((f->name = strdup(path + base)) == NULL)
		return ENOMEM;
	f->size = seen || sb->st_size < 0 ? 0 : (uint64_t)sb->st_size;
	f->done = false;
	d->n++;
	walk.tree->size += f->size;
	walk.tree->files += !seen;
	return 0;
}

static int
visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	if (type == FTW_DNR || type == FTW_NS) {
		walk.error = type == FTW_NS ? errno : EACCES;
		walk.where = path;
	} else if (type == FTW_D)
		walk.error = add_dir(path, ftw->level);
	else if (S_ISREG(sb->st_mode) && ftw->level > 0)
		walk.error = keep_file(path, sb, ftw->level, ftw->base);
	if (walk.error == 0)
		return 0;
	/* where the walk stopped: the entry that failed, or this one */
	snprintf(walk.stopped, walk.stoppedlen, "%s",
	    walk.where != NULL ? walk.where : path);
	return 1;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct tree_file *)a)->name,
	    ((const struct tree_file *)b)->name);
}

int
tree_read(struct tree *t, const char *const *roots, size_t n, char *where,
    size_t wherelen)
{
	int ret = 0;

	memset(t, 0, sizeof(*t));
	memset(&walk, 0, sizeof(walk));
	walk.tree = t;
	walk.stopped = where;
	walk.stoppedlen = wherelen;
	for (size_t i = 0; i < n && ret == 0; i++)
		if ((ret = nftw(roots[i], visit, 16, FTW_PHYS)) == -1) {
			walk.error = errno;
			strlcpy(where, roots[i], wherelen);
		}
	free(walk.linked);
	free(walk.parents);
	/* a directory with no file has no array to sort */
	for (size_t i = 0; i < t->ndirs; i++)
		if (t->dirs[i].n > 1)
			qsort(t->dirs[i].files, t->dirs[i].n,
			    sizeof(struct tree_file), by_name);
	return walk.error;
}

struct tree_file *
tree_find(const struct tree *t, size_t dir, const char *name)
{
	struct tree_file key = { .name = (char *)name };

	if (dir >= t->ndirs || t->dirs[dir].n == 0)
		return NULL;
	return bsearch(&key, t->dirs[dir].files, t->dirs[dir].n,
	    sizeof(key), by_name);
}

void
tree_free(struct tree *t)
{
	for (size_t i = 0; i < t->ndirs; i++) {
		for (size_t j = 0; j < t->dirs[i].n; j++)
			free(t->dirs[i].files[j].name);
		free(t->dirs[i].files);
		free(t->dirs[i].path);
	}
	free(t->dirs);
	memset(t, 0, sizeof(*t));
}
