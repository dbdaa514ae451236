/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The reporter's message path: nothing else in tach writes a warning or
 * an error.  Apart from report.c so that the pure parts (options.c,
 * stats.c) and their tests link without the terminal.
 */
#ifndef TACH_MESSAGE_H
#define TACH_MESSAGE_H

#include <stdbool.h>

/*
 * The one way a message reaches stderr, as err(3) and warn(3) word it:
 * the bar's line is ended first (the reporter's report_break), then
 * "tach: " and the text, or under --format json an object,
 * {"message":"..."}.  The plain
 * forms add strerror(errno), the c forms strerror(code), the x forms
 * nothing; the err forms then exit with eval.
 */
void	report_warn(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
void	report_warnx(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
/* A line that informs (SIGUSR1, --stats): never a failed run's reason. */
void	report_info(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
void	report_warnc(int code, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
_Noreturn void	report_err(int eval, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
_Noreturn void	report_errx(int eval, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
_Noreturn void	report_errc(int eval, int code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/*
 * A result as a line of its own, no "tach: " before it (--hash's digests,
 * as sha256sum prints them); the bar's line is ended first.
 */
void	report_result(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
/* --format json: every message from now on is a JSON object. */
void	report_messages_json(bool json);
/* The latest message's text (no "tach: "), or NULL if there was none. */
const char	*report_latest_message(void);
/* fn runs before each message (the reporter's report_break), or none. */
void	report_before_message(void (*fn)(void));

#endif
