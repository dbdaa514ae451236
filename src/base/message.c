/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * The reporter's message path (message.h): every warning and error tach
 * writes, worded as err(3) words them, plain or as JSON objects.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tach/message.h"
#include "tach/text.h"

/* --format json: messages are objects too. */
static bool json_messages;
/* The latest message, for a failed run's JSON "reason". */
static char latest[512];
/* Called before each message: the reporter ends the bar's line. */
static void (*before)(void);

void
report_before_message(void (*fn)(void))
{
	before = fn;
}

/* No errno to add: a code no call returns. */
#define NO_CODE	(-1)

static void
vmessage(int code, bool note, const char *fmt, va_list ap)
{
	char *text = NULL;
	size_t size;
	va_list again;
	FILE *m;

	if (before != NULL)
		before();
	va_copy(again, ap);
	if ((m = open_memstream(&text, &size)) != NULL) {
		vfprintf(m, fmt, again);
		if (code != NO_CODE)
			fprintf(m, ": %s", strerror(code));
	}
	va_end(again);
	if (m == NULL || fclose(m) == EOF) {
		/* out of memory: the text as it comes, never lost */
		fprintf(stderr, "%s: ", getprogname());
		vfprintf(stderr, fmt, ap);
		if (code != NO_CODE)
			fprintf(stderr, ": %s", strerror(code));
		putc('\n', stderr);
		free(text);
		return;
	}
	if (!note)
		strlcpy(latest, text, sizeof(latest));
	if (json_messages) {
		fputs("{\"message\":", stderr);
		text_json(stderr, text);
		fputs("}\n", stderr);
	} else	/* an operand left raw by its caller is escaped here */
		fprintf(stderr, "%s: %s\n", getprogname(), text_safe(text));
	free(text);
}

void
report_result(const char *fmt, ...)
{
	va_list ap;

	if (before != NULL)
		before();
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	putc('\n', stderr);
}

const char *
report_latest_message(void)
{
	return latest[0] != '\0' ? latest : NULL;
}

void
report_messages_json(bool json)
{
	json_messages = json;
}

/* Each of the family hands fmt and what follows it to vmessage. */
#define REPORT_VA(fmt, code, note) do {			\
	va_list ap;						\
								\
	va_start(ap, fmt);					\
	vmessage((code), (note), fmt, ap);			\
	va_end(ap);						\
} while (0)

void
report_warn(const char *fmt, ...)
{
	REPORT_VA(fmt, errno, false);
}

void
report_warnx(const char *fmt, ...)
{
	REPORT_VA(fmt, NO_CODE, false);
}

void
report_info(const char *fmt, ...)
{
	REPORT_VA(fmt, NO_CODE, true);
}

void
report_warnc(int code, const char *fmt, ...)
{
	REPORT_VA(fmt, code, false);
}

void
report_err(int eval, const char *fmt, ...)
{
	REPORT_VA(fmt, errno, false);
	exit(eval);
}

void
report_errx(int eval, const char *fmt, ...)
{
	REPORT_VA(fmt, NO_CODE, false);
	exit(eval);
}

void
report_errc(int eval, int code, const char *fmt, ...)
{
	REPORT_VA(fmt, code, false);
	exit(eval);
}

