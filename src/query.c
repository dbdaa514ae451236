/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -Q: another copy's progress, drawn here (query.h).  The copy measures;
 * this tach only draws what it is sent, as the copy would.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tach/control.h"
#include "tach/query.h"
#include "tach/report.h"
#include "tach/signals.h"
#include "tach/text.h"

int
query_run(const struct options *opts)
{
	struct reporter out;
	struct report_line l;
	char name[256 + 1] = "";
	char *label = NULL;
	bool machine = opts->numeric || opts->json, ended = false;
	int fd = control_query(opts->query_pid), got;

	report_open(&out, STDERR_FILENO, !opts->quiet && !machine,
	    opts->force, opts->width, opts->format, opts->bar_style);
	while ((got = control_state(fd, &l, name, sizeof(name))) != 0) {
		if (got == -1) {
			if (errno != EINTR)
				break;
			/* ^C, or a hang-up: this tach ends, the copy not */
			if (signals_fatal() != 0) {
				report_end(&out);
				signals_die(signals_fatal());
			}
			(void)signals_take();
			continue;
		}
		/* -N here names it; the amounts as this tach shows them */
		if (opts->name != NULL)
			l.state.name = opts->name;
		if (l.state.unit != RENDER_LINES)
			l.state.unit = options_byte_unit(opts);
		free(label);
		label = report_label(l.state.name, NULL, opts->prefix);
		l.state.prefix = label;
		if ((ended = l.state.final))
			report_closing(&out);
		if (opts->numeric)
			report_numeric(&out, &l);
		if (opts->json)
			report_json(&l);
		report_draw(&out, &l.state, 1);
		if (ended)
			break;
	}
	report_end(&out);
	free(label);
	close(fd);
	if (got == -1 && errno == EBADMSG)
		report_errx(1, "-Q %ld: refused: %s", opts->query_pid,
		    text_safe(name));
	if (got == -1)
		report_err(1, "-Q %ld", opts->query_pid);
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
