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
    const struct report_look *look, char **label)
{
	if (look->name != NULL)
		l->state.name = look->name;
	if (l->state.unit != RENDER_LINES)
		l->state.unit = look->unit;
	free(*label);
	*label = report_label(l->state.name, NULL, look->prefix);
	l->state.prefix = *label;
	if (look->numeric)
		report_numeric(out, l);
	if (look->json)
		report_json(l);
	report_draw(out, &l->state, 1);
}

int
query_run(const struct query_config *c)
{
	struct reporter out;
	struct report_line l;
	char name[256 + 1] = "";
	char *label = NULL;
	bool machine = c->look.numeric || c->look.json, ended = false;
	bool seen = false;
	int fd = control_query(c->pid), got = 0, error;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	report_open(&out, STDERR_FILENO, !c->quiet && !machine,
	    c->look.force, c->look.width, c->look.format, c->look.bar_style);
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
		draw_state(&out, &l, &c->look, &label);
		if (ended)
			break;
	}
	error = got == -1 ? errno : 0;
	report_end(&out);
	free(label);
	close(fd);
	/* a line cut short once states came: the copy died writing it */
	if (error == EBADMSG && !seen)
		report_errx(1, "-Q %ld: refused: %s", c->pid,
		    text_safe(name));
	if (error != 0 && error != EBADMSG)
		report_errc(1, error, "-Q %ld", c->pid);
	if (!ended)
		report_errx(1, "-Q %ld: the copy ended without its closing "
		    "state (killed?)", c->pid);
	if (l.result != NULL && strcmp(l.result, "complete") != 0) {
		report_warnx("-Q %ld: the copy ended: %s", c->pid,
		    l.result);
		return 1;
	}
	return 0;
}
