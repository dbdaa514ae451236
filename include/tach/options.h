/* The command line, in progress(1)'s syntax plus tach's long options. */
#ifndef TACH_OPTIONS_H
#define TACH_OPTIONS_H

#include <stdbool.h>

struct options {
	long long	  bufsize;	/* -b; 0 means derive it */
	long long	  size;		/* -l; -1 means find it out */
	const char	 *file;		/* -f; NULL means stdin */
	const char	 *prefix;	/* -p */
	double		  interval;	/* -i, seconds between redraws */
	long long	  rate_limit;	/* -L, bytes per second; 0: none */
	const char	 *name;		/* -N */
	int		  width;	/* -w; 0 means ask the terminal */
	bool		  stderr_bar;	/* -e */
	bool		  decompress;	/* -z */
	bool		  quiet;	/* -q */
	bool		  force;	/* --force */
	bool		  no_splice;	/* --no-splice */
	bool		  numeric;	/* -n: a percentage a line */
	bool		  json;		/* --format json */
	bool		  stats;	/* --stats */
	bool		  cursor;	/* -c: one line per instance */
	bool		  as_progress;	/* invoked as progress(1) */
	char		**cmd;		/* NULL in filter mode */
};

/* Fills opts from argv or exits: 0 after --help/--version, 1 on misuse. */
void	options_parse(struct options *opts, int argc, char *argv[]);

#endif
