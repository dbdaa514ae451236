/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * --hash in a build without a crypto library (TACH_HASH=OFF, or none
 * found): refused with the reason, so no digest is ever made; the rest
 * of the interface is never reached.
 */
#include <stdio.h>

#include "tach/digest.h"

struct digest *
digest_new(const char *spec, char *msg, size_t msglen)
{
	(void)spec;
	snprintf(msg, msglen, "--hash: this tach was built without a crypto "
	    "library (libcrypto)");
	return NULL;
}

void
digest_update(struct digest *d, const void *data, size_t len)
{
	(void)d;
	(void)data;
	(void)len;
}

size_t
digest_count(const struct digest *d)
{
	(void)d;
	return 0;
}

const char *
digest_hex(struct digest *d, size_t i, char *hex)
{
	(void)d;
	(void)i;
	hex[0] = '\0';
	return "";
}

void
digest_end(struct digest *d)
{
	(void)d;
}

const char *
digest_expected(const struct digest *d, size_t i)
{
	(void)d;
	(void)i;
	return NULL;
}

void
digest_free(struct digest *d)
{
	(void)d;
}
