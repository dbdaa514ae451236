/*
 * The display: decides whether and where to draw, keeps the meter fed on
 * the transfer clock, writes the machine-readable forms (-n, --format
 * json, --stats), and acts on the signals the main loop services.
 */
#ifndef TACH_DISPLAY_H
#define TACH_DISPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "tach/input.h"
#include "tach/meter.h"
#include "tach/options.h"
#include "tach/relay.h"
#include "tach/render.h"
#include "tach/stats.h"
#include "tach/term.h"

/* How a run ended, for the closing line and the final JSON object. */
enum display_outcome {
	DISPLAY_COMPLETE,	/* all of the input moved, every child well */
	DISPLAY_FAILED,		/* an error, or a child that failed */
	DISPLAY_INTERRUPTED	/* a signal stopped it */
};

struct display {
	bool			 active;	/* drawing the bar */
	bool			 tty;		/* the display is a terminal */
	bool			 drawn;		/* a line is on the screen */
	bool			 forced;
	bool			 numeric;	/* -n */
	bool			 json;		/* --format json */
	bool			 stats;		/* --stats */
	bool			 lines;		/* --line-mode: count records */
	bool			 flushing;	/* -Y: the last flush is on */
	bool			 cursor;	/* -c */
	int			 row;		/* -c: the line's row, from 1 */
	const struct input	*input;
	struct relay		*relay;		/* read; told of stops */
	char			*prefix;	/* as drawn: the label */
	const char		*label;		/* -p, or NULL */
	const char		*name;		/* -N, or NULL */
	const char		*format;	/* -F, or NULL */
	uint64_t		 size;
	bool			 size_known;	/* size 0: empty, not unknown */
	int			 width;		/* -w, or 0 */
	double			 interval;
	bool			 wait;		/* -W: silent until a byte moved */
	double			 delay;		/* -D: silent for this long */
	double			 origin;	/* monotonic time of the start */
	double			 stopped;	/* seconds spent stopped */
	unsigned		 phase;
	struct meter		 meter;		/* bytes moved */
	struct meter		 position;	/* -z: compressed bytes read */
	struct stats_intervals	 rates;		/* --stats */
	struct terminal		 term;
	struct render_caps	 caps;
	char			 line[RENDER_BUFSIZE(RENDER_WIDTH_MAX)];
};

void	display_start(struct display *d, const struct options *opts,
	    const struct input *in, struct relay *r);
/* Several -f: the line names file, the one being read now. */
void	display_reading(struct display *d, const char *file);
/* -Y: the line says the output is being flushed, before it is. */
void	display_flushing(struct display *d);
/* Ends a line drawn on stderr, so a message can go below it. */
void	display_aside(struct display *d);
/* The relay's service hook: false when a signal says stop. */
bool	display_service(void *ctx);
/*
 * The closing line and a newline, the cursor back as it was; the final
 * -n, JSON and --stats output.
 */
void	display_finish(struct display *d, enum display_outcome outcome);

/* Shared with the watch mode (watch.c). */
/* The terminal's capabilities and the renderer's, for a display on fd. */
void	display_terminal(struct terminal *t, struct render_caps *caps,
	    int fd);
/* True unless a background job: a non-terminal only if forced. */
bool	display_foreground(int fd, bool forced);
/* The line's width: the terminal's, narrowed (never widened) by -w. */
int	display_width(const struct terminal *t, int width, bool tty);
/* The line's label: "NAME: " (-N), a file's name, then -p's text. */
char	*display_label(const char *name, const char *file,
	    const char *prefix);
/* A JSON string on stderr: quotes, backslashes, control bytes escaped. */
void	display_json_string(const char *text);
/* --stats: the per-interval rates' summary line on stderr. */
void	display_rates(struct stats_intervals *rates, double interval,
	    bool lines);

#endif
