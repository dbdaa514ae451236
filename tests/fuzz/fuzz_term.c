/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * libFuzzer harness for terminfo capability expansion (term_param, which
 * expands cup, csr and setaf): any capability string and numbers, as a
 * hostile or broken terminfo entry would give them.  One that reads a
 * parameter as a string (%s, %l) must be refused: expanded, it would read
 * tach's numbers as pointers, which AddressSanitizer catches.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tach/term.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char cap[TERM_CAP_MAX];
	int p[2] = { 0, 0 };
	size_t len;
	const char *out;

	memcpy(p, data, size < sizeof(p) ? size : sizeof(p));
	data += size < sizeof(p) ? size : sizeof(p);
	size -= size < sizeof(p) ? size : sizeof(p);
	len = size < sizeof(cap) - 1 ? size : sizeof(cap) - 1;
	memcpy(cap, data, len);
	cap[len] = '\0';
	out = term_param(cap, p[0], p[1]);
	if (out != NULL && strlen(out) > 1 << 20)
		abort();
	return 0;
}
