/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -d's whole copy (whole.h).  How far it has got is the larger of two
 * counts, never less than before: the bytes the process has read by any
 * call (Linux's /proc/PID/io; a copy reads each file once), and the
 * sizes of the tree's files seen closed after reading (inotify, which
 * misses none opened and closed between two samples, and sees a clone,
 * FICLONE, that reads nothing).  Capped at the tree's size: what else the
 * process reads is not the copy's.
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tach/compat.h"
#include "tach/message.h"
#include "tach/procfd.h"
#include "tach/procparse.h"
#include "tach/text.h"
#include "tach/whole.h"

/* Each directory of the tree watched for its files' closes. */
static void
watch_closes(struct whole *w)
{
	size_t *more;
	int id;

	if ((w->closes = compat_closes_open()) == NULL)
		return;
	for (size_t d = 0; d < w->tree.ndirs; d++) {
		if ((id = compat_closes_add(w->closes, w->tree.dirs[d].path))
		    == -1)
			goto none;	/* inotify's limit: the count is not */
		if ((size_t)id >= w->nids) {
			if ((more = reallocarray(w->dir_of, (size_t)id + 64,
			    sizeof(*more))) == NULL)
				goto none;
			for (size_t i = w->nids; i < (size_t)id + 64; i++)
				more[i] = SIZE_MAX;
			w->dir_of = more;
			w->nids = (size_t)id + 64;
		}
		w->dir_of[id] = d;
	}
	return;
none:
	compat_closes_free(w->closes);
	w->closes = NULL;
}

/* The tree under roots, or NULL (said) when it cannot be read. */
static struct whole *
whole_of(const char *const *roots, size_t n, char *owned)
{
	struct whole *w;
	char where[PATH_MAX];
	int error;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		report_err(1, "-d: the whole copy");
	w->root = roots[0];
	w->nroots = n;
	w->owned = owned;
	if ((error = tree_read(&w->tree, roots, n, where, sizeof(where))) != 0)
		report_warnc(error, "-d: the whole copy of %s: %s: its size "
		    "is not known", text_safe(roots[0]), text_safe(where));
	if (error != 0 || w->tree.files == 0) {
		whole_free(w);
		return NULL;
	}
	watch_closes(w);
	return w;
}

/* arg, under base (tar -C's) and cwd unless it is a full path. */
static char *
resolve(const char *cwd, const char *base, const char *arg)
{
	const char *dir = base == NULL ? cwd : base;
	size_t len = strlen(cwd) + (base ? strlen(base) : 0) + strlen(arg) + 3;
	char *path;

	if ((path = malloc(len)) == NULL)
		return NULL;
	if (arg[0] == '/')
		snprintf(path, len, "%s", arg);
	else if (dir[0] == '/')
		snprintf(path, len, "%s/%s", dir, arg);
	else
		snprintf(path, len, "%s/%s/%s", cwd, dir, arg);
	return path;
}

/*
 * Path, made canonical, holds dir (or is it), and is not the directory
 * the process started in: an operand it has moved into.
 */
static bool
moved_into(const char *path, const char *dir, const char *start)
{
	char *real = realpath(path, NULL), *from = realpath(start, NULL);
	size_t len = real != NULL ? strlen(real) : 0;
	bool yes = real != NULL && from != NULL && strcmp(real, from) != 0 &&
	    strncmp(dir, real, len) == 0 &&
	    (dir[len] == '\0' || dir[len] == '/');

	free(real);
	free(from);
	return yes;
}

/*
 * Where pid's relative operands are from: the directory it started in,
 * where that is known and it has since moved into one of its operands
 * (rsync's sender into its source, its receiver into its target, tar
 * into -C's); else its working directory, which a process started with
 * a PWD not its own (by a program's chdir) never left.
 */
static const char *
operands_dir(pid_t pid, const char *cwd, char *const *argv, int argc,
    const enum procparse_arg *kind, char **start)
{
	const char *base = NULL;
	char *path;
	bool moved = false;

	if (procfd_start_dir(pid, start) != 0) {
		*start = NULL;
		return cwd;
	}
	for (int i = 0; i < argc && !moved; i++) {
		if (kind[i] == PROCPARSE_OPTION)
			continue;
		if ((path = resolve(*start, kind[i] == PROCPARSE_BASE ? NULL :
		    base, argv[i])) == NULL)
			report_err(1, "-d: the whole copy");
		moved = moved_into(path, cwd, *start);
		free(path);
		if (kind[i] == PROCPARSE_BASE)
			base = argv[i];
	}
	return moved ? *start : cwd;
}

/*
 * The directories among pid's operands: the sources of its copy; *tried
 * once there are some, read or not.
 */
static struct whole *
whole_of_command(pid_t pid, bool *tried)
{
	enum procparse_arg *kind;
	const char **roots;
	char **argv, *cwd, *path, *start;
	const char *base = NULL, *from, *lost = NULL;
	struct whole *w = NULL;
	struct stat sb;
	size_t n = 0;
	int argc;

	if (procfd_command(pid, &argv, &argc, &cwd) != 0)
		return NULL;
	kind = calloc((size_t)argc + 1, sizeof(*kind));
	roots = calloc((size_t)argc + 1, sizeof(*roots));
	if (kind == NULL || roots == NULL)
		report_err(1, "-d: the whole copy");
	procparse_sources((const char *const *)argv, argc, kind);
	from = operands_dir(pid, cwd, argv, argc, kind, &start);
	for (int i = 0; i < argc; i++) {
		if (kind[i] == PROCPARSE_BASE)
			base = argv[i];
		if (kind[i] != PROCPARSE_OPERAND)
			continue;
		if ((path = resolve(from, base, argv[i])) == NULL)
			report_err(1, "-d: the whole copy");
		if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
			roots[n++] = path;
		else {
			if (lost == NULL && errno == ENOENT &&
			    argv[i][0] != '/' && strchr(argv[i], ':') == NULL)
				lost = argv[i];
			free(path);
		}
	}
	/* the first root's name is the whole's, the others freed here */
	*tried = n > 0;
	if (n == 0 && lost != NULL && start == NULL) {
		report_warnx("-d: process %d: no line for its whole copy: %s is "
		    "not in its working directory, and where it started is "
		    "not known", (int)pid, text_safe(lost));
		*tried = true;
	}
	if (n > 0 && (w = whole_of(roots, n, (char *)roots[0])) == NULL)
		free((char *)roots[0]);
	for (size_t i = 1; i < n; i++)
		free((char *)roots[i]);
	free(roots);
	free(kind);
	free(argv);
	free(cwd);
	free(start);
	return w;
}

struct whole *
whole_open(pid_t pid, const char *dir, bool *tried)
{
	struct stat sb;

	*tried = dir != NULL;
	if (dir != NULL)
		return stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) ?
		    whole_of(&dir, 1, NULL) : NULL;
	return whole_of_command(pid, tried);
}

void
whole_sample(struct whole *w, int read_error, uint64_t read)
{
	struct tree_file *f;
	const char *name;
	uint64_t now;
	int id;

	while (w->closes != NULL && compat_closes_next(w->closes, &id, &name)) {
		if (id < 0 || (size_t)id >= w->nids ||
		    (f = tree_find(&w->tree, w->dir_of[id], name)) == NULL ||
		    f->done)
			continue;
		f->done = true;
		w->closed += f->size;
		w->files++;
	}
	/*
	 * Watched from its start, what it read before the first sample (the
	 * loader's, a locale's) is not the copy's: the tree of a few small
	 * files would be done before it began
	 */
	if (!w->sampled) {
		w->sampled = true;
		w->files_known = w->closes != NULL &&
		    (read_error != 0 || read < WHOLE_LATE);
		w->read_before = read_error == 0 && read < WHOLE_LATE ? read : 0;
	}
	read = read > w->read_before ? read - w->read_before : 0;
	now = read_error == 0 && read > w->closed ? read : w->closed;
	if (now > w->tree.size)
		now = w->tree.size;
	if (now > w->done)
		w->done = now;
}

void
whole_free(struct whole *w)
{
	if (w == NULL)
		return;
	compat_closes_free(w->closes);
	tree_free(&w->tree);
	free(w->dir_of);
	free(w->owned);
	free(w);
}
