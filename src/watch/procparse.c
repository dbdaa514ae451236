/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * /proc's text, and a watched copy tool's command line, for -d.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tach/procparse.h"

/* The kernel's PF_EXITING in field 9: set before exit(2) closes the files. */
#define PF_EXITING	0x4

int
procparse_stat(const char *text, uint64_t *started)
{
	const char *paren = strrchr(text, ')'), *p;
	char *end;
	unsigned long long v;

	/* the state follows the command name, which may hold ") " itself */
	if (paren == NULL || paren[1] != ' ' || paren[2] == '\0')
		return ESRCH;
	if (paren[2] == 'Z' || paren[2] == 'X')
		return ESRCH;
	/* fields 3 (the state) to 21 are skipped but 9; 22 is the start time */
	p = paren + 2;
	for (int field = 3; field < 22; field++) {
		if (field == 9 && (strtoull(p, NULL, 10) & PF_EXITING) != 0)
			return ESRCH;
		if (field > 9 && started == NULL)
			return 0;
		p += strcspn(p, " ");
		if (*p++ != ' ')
			return started == NULL ? 0 : ESRCH;
	}
	if (*p < '0' || *p > '9')
		return ESRCH;
	errno = 0;
	v = strtoull(p, &end, 10);
	if (errno != 0 || (*end != ' ' && *end != '\n' && *end != '\0'))
		return ESRCH;
	*started = v;
	return 0;
}

bool
procparse_parent(const char *text, pid_t *parent)
{
	const char *paren = strrchr(text, ')');
	char *end;
	long v;

	/* ") S 1234 ": the state, then the parent */
	if (paren == NULL || paren[1] != ' ' || paren[2] == '\0' ||
	    paren[3] != ' ' || paren[4] < '0' || paren[4] > '9')
		return false;
	errno = 0;
	v = strtol(paren + 4, &end, 10);
	if (errno != 0 || *end != ' ' || v > INT_MAX)
		return false;
	*parent = (pid_t)v;
	return true;
}

const char *
procparse_env(const char *text, size_t len, const char *name)
{
	size_t n = strlen(name);

	for (const char *v = text; v < text + len; v += strlen(v) + 1)
		if ((size_t)(text + len - v) > n && strncmp(v, name, n) == 0 &&
		    v[n] == '=')
			return v + n + 1;
	return NULL;
}

/* The number after "name:" at a line's start, in base; false if none. */
static bool
field(const char *text, const char *name, int base, unsigned long long *v)
{
	size_t len = strlen(name);
	char *end;

	for (const char *line = text; line != NULL && *line != '\0';
	    line = (line = strchr(line, '\n')) != NULL ? line + 1 : NULL) {
		if (strncmp(line, name, len) != 0)
			continue;
		line += len;
		line += strspn(line, " \t");
		if (*line < '0' || *line > '9')
			return false;
		errno = 0;
		*v = strtoull(line, &end, base);
		return errno == 0 && (*end == '\n' || *end == '\0' ||
		    *end == ' ');
	}
	return false;
}

bool
procparse_fdinfo(const char *text, uint64_t *pos, int *flags)
{
	unsigned long long p, fl = 0;

	if (!field(text, "pos:", 10, &p))
		return false;
	if (!field(text, "flags:", 8, &fl) || fl > 0x7fffffff)
		fl = 0;
	*pos = p;
	*flags = (int)fl;
	return true;
}

bool
procparse_io(const char *text, uint64_t *rchar, uint64_t *wchar)
{
	unsigned long long r = 0, w = 0;

	if ((rchar != NULL && !field(text, "rchar:", 10, &r)) ||
	    (wchar != NULL && !field(text, "wchar:", 10, &w)))
		return false;
	if (rchar != NULL)
		*rchar = r;
	if (wchar != NULL)
		*wchar = w;
	return true;
}

bool
procparse_cpu(const char *text, char *state, uint64_t *ticks)
{
	const char *paren = strrchr(text, ')'), *p;
	unsigned long long v[2];
	char *end;

	if (paren == NULL || paren[1] != ' ' || paren[2] == '\0' ||
	    paren[3] != ' ')
		return false;
	*state = paren[2];
	/* fields 4 to 13 skipped; 14 and 15 read */
	p = paren + 3;
	for (int field = 4; field <= 15; field++) {
		if (*p++ != ' ')
			return false;
		if (field >= 14) {
			if (*p < '0' || *p > '9')
				return false;
			errno = 0;
			v[field - 14] = strtoull(p, &end, 10);
			if (errno != 0)
				return false;
			p = end;
		} else
			p += strcspn(p, " ");
	}
	if (*p != ' ' && *p != '\n' && *p != '\0')
		return false;
	*ticks = v[0] + v[1];
	return true;
}

enum procparse_wait
procparse_wchan(const char *wchan)
{
	/* Linux 6's anon_pipe_read and pipe_read before; pipe_wait_readable */
	if (strstr(wchan, "pipe_read") != NULL ||
	    strstr(wchan, "pipe_wait_readable") != NULL)
		return PROCPARSE_PIPE_IN;
	if (strstr(wchan, "pipe_write") != NULL ||
	    strstr(wchan, "pipe_wait_writable") != NULL)
		return PROCPARSE_PIPE_OUT;
	return PROCPARSE_ELSEWHERE;
}

bool
procparse_syscall(const char *text, enum procparse_call *call,
    uint64_t arg[3])
{
	const char *p = text;
	char *end;
	unsigned long long v;
	long nr;
	int words;

	if (strcmp(text, "running\n") == 0 || strcmp(text, "running") == 0) {
		*call = PROCPARSE_RUNNING;
		return true;
	}
	/* "NR ARG1 … ARG6 SP PC", or "-1 SP PC" outside a call */
	if (*p != '-' && (*p < '0' || *p > '9'))
		return false;
	errno = 0;
	nr = strtol(p, &end, 10);
	if (end == p || errno != 0 || nr < -1)
		return false;
	words = nr < 0 ? 2 : 8;
	for (int i = 0; i < words; i++) {
		if (*end != ' ' || end[1] != '0' || end[2] != 'x')
			return false;
		p = end + 3;
		if (!isxdigit((unsigned char)*p))
			return false;
		errno = 0;
		v = strtoull(p, &end, 16);
		if (end == p || errno != 0)
			return false;
		if (nr >= 0 && i < 3)
			arg[i] = v;
	}
	if (*end != '\n' && *end != '\0')
		return false;
	*call = nr < 0 ? PROCPARSE_NO_CALL : PROCPARSE_IN_CALL;
	return true;
}

/* The command's name, its path's last part. */
static const char *
command_name(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	return slash != NULL ? slash + 1 : argv0;
}

/* name, its "=VALUE" or the next argument: what one option takes. */
static bool
option_is(const char *arg, const char *name, bool *joined)
{
	size_t len = strlen(name);

	if (strncmp(arg, name, len) != 0 ||
	    (arg[len] != '\0' && arg[len] != '='))
		return false;
	*joined = arg[len] == '=';
	return true;
}

void
procparse_sources(const char *const *argv, int argc, enum procparse_arg *kind)
{
	static const char *const last_is_target[] = { "cp", "mv", "rsync",
	    "scp", "install" };
	const char *name = argc > 0 ? command_name(argv[0]) : "";
	bool options = true, target = false, tar, joined = false;
	int last = -1;

	tar = strcmp(name, "tar") == 0 || strcmp(name, "bsdtar") == 0;
	for (int i = 0; i < argc; i++) {
		kind[i] = PROCPARSE_OPTION;
		if (i == 0)
			continue;
		if (options && strcmp(argv[i], "--") == 0) {
			options = false;
			continue;
		}
		if (!options || argv[i][0] != '-' || argv[i][1] == '\0') {
			kind[i] = PROCPARSE_OPERAND;
			last = i;
			continue;
		}
		if (strcmp(argv[i], "-t") == 0 ||
		    option_is(argv[i], "--target-directory", &joined)) {
			target = true;
			if ((strcmp(argv[i], "-t") == 0 || !joined) &&
			    i + 1 < argc)
				kind[++i] = PROCPARSE_TARGET;
		} else if (tar && (strcmp(argv[i], "-C") == 0 ||
		    (option_is(argv[i], "--directory", &joined) && !joined)) &&
		    i + 1 < argc)
			kind[++i] = PROCPARSE_BASE;
	}
	for (size_t k = 0; !target && last > 0 &&
	    k < sizeof(last_is_target) / sizeof(last_is_target[0]); k++)
		if (strcmp(name, last_is_target[k]) == 0)
			kind[last] = PROCPARSE_TARGET;
}
