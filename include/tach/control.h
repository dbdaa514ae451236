/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * -R: remote control.  A running copy listens on a Unix socket named by
 * its user and PID (on Linux in the abstract namespace, elsewhere in a
 * directory only its user may enter), and each side checks that the other
 * runs as the same user; "tach -R PID -L 1g" connects and sends the new
 * values.  The kernel's SIGIO on a connection only wakes the copy: the
 * values travel through the socket, so no signal can race with them.
 */
#ifndef TACH_CONTROL_H
#define TACH_CONTROL_H

#include <stdbool.h>

#include "tach/report.h"

/* What a request changes; a field left as its zero is unchanged. */
struct control_change {
	long long	 rate_limit;	/* -L */
	bool		 rate_in_bytes;	/* -L in a byte unit */
	long long	 read_limit;	/* --read-limit */
	char		*name;		/* -N */
	char		*prefix;	/* -p */
	double		 interval;	/* -i */
	int		 width;		/* -w */
	char		*format;	/* -F, a line's layout */
	bool		 query;		/* -Q: one more watches each tick */
};

/*
 * Starts listening; silently not where that cannot be done safely (the
 * sender says why).  Without -b's buffer, --read-limit is refused; a -F
 * showing bytes this copy does not see (seen: options_sees) is too.
 * Needs signals_install() first.
 */
void	control_listen(bool buffer, unsigned seen);
/*
 * After a SIGNAL_CONTROL: takes one waiting request into *c (free with
 * control_free) and answers it.  False if none came whole and valid.
 */
bool	control_take(struct control_change *c);
void	control_free(struct control_change *c);
/*
 * -Q: the state l, to every copy of tach that queries this one, as it is
 * drawn; one whose socket is full misses it, one gone is let go.  The
 * closing state (l->state.final) is their last.
 */
void	control_publish(const struct report_line *l);
/*
 * Stops listening and removes the socket, leaving -Q's queriers to the
 * closing state; not in a child.  Idempotent.
 */
void	control_close(void);
/* tach -R's changes, as given; a field left as its zero is unchanged. */
struct control_request {
	long		 pid;		/* the copy to change */
	long long	 rate_limit;	/* -L */
	bool		 rate_in_bytes;	/* -L in a byte unit */
	long long	 read_limit;	/* --read-limit */
	const char	*name;		/* -N */
	const char	*prefix;	/* -p */
	double		 interval;	/* -i, where interval_given */
	bool		 interval_given;
	int		 width;		/* -w */
	const char	*format;	/* -F */
};

/* tach -R: sends c's changes to the copy c->pid; the exit status. */
int	control_send(const struct control_request *c);
/*
 * tach -Q: asks the copy pid for its state each time it draws: the
 * connected socket, or -1 after saying why on stderr.
 */
int	control_query(long pid);
/*
 * tach -Q: the next state from fd into *l (its name in name, namelen
 * long, which l points at): 1, or 0 when the copy closed the socket
 * (without a closing state, it died), -1 for what is not a state.
 */
int	control_state(int fd, struct report_line *l, char *name,
	    size_t namelen);

#endif
