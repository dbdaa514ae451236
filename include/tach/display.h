/*
 * The display: decides whether and where to draw, keeps the meter fed on
 * the transfer clock, and acts on the signals the main loop services.
 */
#ifndef TACH_DISPLAY_H
#define TACH_DISPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "tach/input.h"
#include "tach/meter.h"
#include "tach/options.h"
#include "tach/render.h"
#include "tach/term.h"

#define DISPLAY_WIDTH_MAX 1000

struct display {
	bool			 active;	/* drawing at all */
	bool			 drawn;		/* a line is on the screen */
	bool			 forced;
	const struct input	*input;
	const char		*prefix;
	uint64_t		 size;
	int			 width;		/* -w, or 0 */
	double			 interval;
	double			 origin;	/* monotonic time of the start */
	double			 stopped;	/* seconds spent stopped */
	unsigned		 phase;
	struct meter		 meter;		/* bytes moved */
	struct meter		 position;	/* -z: compressed bytes read */
	struct terminal		 term;
	struct render_caps	 caps;
	char			 line[RENDER_BUFSIZE(DISPLAY_WIDTH_MAX)];
};

void	display_start(struct display *d, const struct options *opts,
	    const struct input *in);
/* The relay's service hook: false when a signal says stop. */
bool	display_service(void *ctx, uint64_t bytes);
/* The closing line and a newline; the cursor back as it was. */
void	display_finish(struct display *d, uint64_t bytes);

#endif
