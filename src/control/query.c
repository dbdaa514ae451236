/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -Q: another copy's progress, drawn here (query.h).  The copy measures;
 * this tach only draws what it is sent, as the copy would.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/control.h"
#include "tach/query.h"
#include "tach/report.h"
#include "tach/signals.h"
#include "tach/text.h"

/*
 * One state the copy sent, drawn as this tach draws: -N here names it,
 * the amounts in this tach's unit; *label holds the line's label.
 */
static void
draw_state(struct reporter *out, struct report_line *l,
    const struct options *opts, char **label)
{
	if (opts->name != NULL)
		l->state.name = opts->name;
	if (l->state.unit != RENDER_LINES)
		l->state.unit = opts->byte_unit;
	free(*label);
	*label = report_label(l->state.name, NULL, opts->prefix);
	l->state.prefix = *label;
	if (opts->numeric)
		report_numeric(out, l);
	if (opts->json)
		report_json(l);
	report_draw(out, &l->state, 1);
}

int
query_run(const struct options *opts)
{
	struct reporter out;
	struct report_line l;
	char name[256 + 1] = "";
	char *label = NULL;
	bool machine = opts->numeric || opts->json, ended = false, seen = false;
	int fd = control_query(opts->query_pid), got = 0, error;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	report_open(&out, STDERR_FILENO, !opts->quiet && !machine,
	    opts->force, opts->width, opts->format, opts->bar_style);
	for (;;) {
		/*
		 * ^C, or a hang-up: this tach ends, the copy not.  Looked at
		 * each second as well, for one that came just before a wait.
		 */
		if (signals_fatal() != 0) {
			report_end(&out);
			signals_die(signals_fatal());
		}
		(void)signals_take();
		if (poll(&pfd, 1, 1000) <= 0)
			continue;
		if ((got = control_state(fd, &l, name, sizeof(name))) == 0)
			break;
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1)
			break;
		seen = true;
		if ((ended = l.state.final))
			report_closing(&out);
		draw_state(&out, &l, opts, &label);
		if (ended)
			break;
	}
	error = got == -1 ? errno : 0;
	report_end(&out);
	free(label);
	close(fd);
	/* a line cut short once states came: the copy died writing it */
	if (error == EBADMSG && !seen)
		report_errx(1, "-Q %ld: refused: %s", opts->query_pid,
		    text_safe(name));
	if (error != 0 && error != EBADMSG)
		report_errc(1, error, "-Q %ld", opts->query_pid);
	if (!ended)
		report_errx(1, "-Q %ld: the copy ended without its closing "
		    "state (killed?)", opts->query_pid);
	if (l.result != NULL && strcmp(l.result, "complete") != 0) {
		report_warnx("-Q %ld: the copy ended: %s", opts->query_pid,
		    l.result);
		return 1;
	}
	return 0;
}
