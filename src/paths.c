/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The run's files checked against each other by identity (paths.h).  A
 * name is only a way to a file: two names (or a name and a descriptor)
 * are one file when stat(2) says the same device and inode, whatever the
 * aliases between.  A name not made yet is told by its directory's
 * identity and its last part.
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/fanout.h"
#include "tach/message.h"
#include "tach/paths.h"
#include "tach/text.h"

/*
 * What a run does with a file, in the order of the harm it can do: a
 * pair's later use is the one refused.
 */
enum use {
	USE_READ,	/* an input, -l @ */
	USE_SHARE,	/* stderr, or stdout where cmd or -X has it */
	USE_WRITE,	/* the output */
	USE_LOG,	/* --log, written beside the output */
	USE_MAKE,	/* -U, --buffer-file: made new, refused if there */
	USE_REPLACE,	/* -P: renamed over, removed at the end */
};

struct place {
	enum use	 use;
	const char	*option;	/* "-P", or NULL for an input, stdout */
	const char	*name;		/* the path, or "stdin" for fd 0 */
	bool		 exists;
	struct stat	 st;		/* exists: the file's own */
	dev_t		 dir_dev;	/* else: its directory's, and */
	ino_t		 dir_ino;
	const char	*base;		/* the last part of its name */
	bool		 dir_known;
};

/* stdin, stdout, stderr, -l @, each -o, --log, -U, --buffer-file, -P */
#define PLACES_MAX	(8 + FANOUT_MAX)

/* One -o is "-": stdout itself is an output. */
static bool
writes_stdout(const struct options *opts)
{
	for (size_t i = 0; i < opts->noutputs; i++)
		if (strcmp(opts->outputs[i], "-") == 0)
			return true;
	return false;
}

/* Where path's name leads when it is not there yet; false if nowhere. */
static bool
new_place(struct place *p, const char *path, char *buf, size_t len)
{
	const char *slash;
	struct stat lst;
	char link[PATH_MAX];
	ssize_t n;

	/* a dangling link makes its target: follow it, as open(2) would */
	snprintf(buf, len, "%s", path);
	for (int hops = 0; hops < 16 && lstat(buf, &lst) == 0 &&
	    S_ISLNK(lst.st_mode); hops++) {
		if ((n = readlink(buf, link, sizeof(link) - 1)) == -1)
			return false;
		link[n] = '\0';
		slash = strrchr(buf, '/');
		if (link[0] == '/' || slash == NULL)
			snprintf(buf, len, "%s", link);
		else if ((size_t)(slash - buf) + 1 + (size_t)n < len)
			memcpy(buf + (slash - buf) + 1, link, (size_t)n + 1);
		else
			return false;
	}
	slash = strrchr(buf, '/');
	p->base = slash == NULL ? buf : slash + 1;
	if (slash == NULL)
		p->dir_known = stat(".", &lst) == 0;
	else if (slash == buf)
		p->dir_known = stat("/", &lst) == 0;
	else {
		buf[slash - buf] = '\0';
		p->dir_known = stat(buf, &lst) == 0;
		buf[slash - buf] = '/';
	}
	p->dir_dev = lst.st_dev;
	p->dir_ino = lst.st_ino;
	return p->dir_known;
}

static void
add_place(struct place *places, size_t *n, enum use use, const char *option,
    const char *name, int fd, char *buf, size_t len)
{
	struct place *p = &places[*n];

	memset(p, 0, sizeof(*p));
	p->use = use;
	p->option = option;
	p->name = name;
	p->exists = fd != -1 ? fstat(fd, &p->st) == 0 : stat(name, &p->st) == 0;
	if (p->exists || (fd == -1 && errno == ENOENT &&
	    new_place(p, name, buf, len)))
		(*n)++;
}

/* Two existing places that are one file, where that can do harm. */
static bool
same_file(const struct place *a, const struct place *b)
{
	mode_t m = a->st.st_mode;

	if (a->st.st_dev != b->st.st_dev || a->st.st_ino != b->st.st_ino)
		return false;
	/* a terminal or /dev/null is shared; -U's, -l's directory is read */
	if (S_ISCHR(m) || S_ISDIR(m))
		return false;
	if (b->use == USE_REPLACE)
		return true;
	if (a->use == USE_READ && b->use == USE_READ)
		return false;
	if (a->use == USE_SHARE || b->use == USE_SHARE)
		return false;
	/* cat's rule for stdout's file: input.c's, at each input's turn */
	return !(b->use == USE_WRITE && b->option == NULL && S_ISREG(m));
}

/*
 * How a refusal names a place: the one refused by its option and path;
 * the other as the user knows it: an input or the output by its path,
 * stdin, stdout, stderr by that name, the rest by option and path.
 */
static const char *
label(const struct place *p, bool refused, char *buf, size_t len)
{
	if (p->option == NULL)
		snprintf(buf, len, "%s", text_safe(p->name));
	else if (p->use == USE_READ)
		snprintf(buf, len, "%s @%s", p->option, text_safe(p->name));
	else if (p->use == USE_WRITE && !refused)
		snprintf(buf, len, "%s", text_safe(p->name));
	else
		snprintf(buf, len, "%s %s", p->option, text_safe(p->name));
	return buf;
}

static _Noreturn void
refuse_pair(const struct place *first, const struct place *later)
{
	char a[PATH_MAX + 32], b[PATH_MAX + 32];

	label(first, false, a, sizeof(a));
	label(later, true, b, sizeof(b));
	if (later->use == USE_WRITE && first->use == USE_READ &&
	    first->option == NULL)
		report_errx(1, "%s: input file is output file", a);
	if (later->use == USE_REPLACE)
		report_errx(1, "%s: is %s, which it would replace", b, a);
	if (later->use == USE_LOG)
		report_errx(1, "%s: is %s, which it would corrupt", b, a);
	report_errx(1, "%s: is %s too: give each a file of its own", b, a);
}

/* Each -f against every place that is not read only. */
static void
check_inputs(const struct options *opts, const struct place *places,
    size_t n)
{
	for (size_t i = 0; i < opts->nfiles; i++) {
		struct place in;

		memset(&in, 0, sizeof(in));
		if (stat(opts->files[i], &in.st) == -1)
			continue;	/* said when its turn comes */
		in.exists = true;
		in.use = USE_READ;
		in.name = opts->files[i];
		for (size_t j = 0; j < n; j++)
			if (places[j].exists && places[j].use > USE_READ &&
			    same_file(&in, &places[j]))
				refuse_pair(&in, &places[j]);
	}
}

void
paths_check(const struct options *opts)
{
	static char bufs[PLACES_MAX][PATH_MAX];
	struct place places[PLACES_MAX], *a, *b;
	bool out_is_stdout = !opts->discard && opts->cmd == NULL &&
	    !opts->watching && (opts->noutputs == 0 || writes_stdout(opts));
	size_t n = 0, k = 0;
	enum use use;

	if (!opts->watching && opts->nfiles == 0)
		add_place(places, &n, USE_READ, NULL, "stdin", STDIN_FILENO,
		    bufs[k++], PATH_MAX);
	use = out_is_stdout ? USE_WRITE : USE_SHARE;
	add_place(places, &n, use, NULL, "stdout", STDOUT_FILENO, bufs[k++],
	    PATH_MAX);
	add_place(places, &n, USE_SHARE, NULL, "stderr", STDERR_FILENO,
	    bufs[k++], PATH_MAX);
	if (opts->size_file != NULL)
		add_place(places, &n, USE_READ, "-l", opts->size_file, -1,
		    bufs[k++], PATH_MAX);
	for (size_t i = 0; i < opts->noutputs && !opts->discard; i++)
		if (strcmp(opts->outputs[i], "-") != 0)
			add_place(places, &n, USE_WRITE, "-o", opts->outputs[i],
			    -1, bufs[k++], PATH_MAX);
	if (opts->log != NULL)
		add_place(places, &n, USE_LOG, "--log", opts->log, -1,
		    bufs[k++], PATH_MAX);
	if (opts->store != NULL && strcmp(opts->store, "-") != 0)
		add_place(places, &n, USE_MAKE, "-U", opts->store, -1,
		    bufs[k++], PATH_MAX);
	if (opts->buffer_file != NULL)
		add_place(places, &n, USE_MAKE, "--buffer-file",
		    opts->buffer_file, -1, bufs[k++], PATH_MAX);
	if (opts->pidfile != NULL)
		add_place(places, &n, USE_REPLACE, "-P", opts->pidfile, -1,
		    bufs[k++], PATH_MAX);
	/* the inputs last: only they can be many, and none refuses another */
	check_inputs(opts, places, n);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			a = &places[i];
			b = &places[j];
			if (a->use > b->use) {
				a = &places[j];
				b = &places[i];
			}
			if (a->exists && b->exists ? same_file(a, b) :
			    !a->exists && !b->exists && a->dir_known &&
			    b->dir_known && a->dir_dev == b->dir_dev &&
			    a->dir_ino == b->dir_ino &&
			    strcmp(a->base, b->base) == 0)
				refuse_pair(a, b);
		}
}
