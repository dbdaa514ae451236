/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * A libcrypto whose every digest update fails, found by its name ahead of
 * the system's (LD_LIBRARY_PATH): --hash must say so, never print a
 * digest that is not the stream's.  Only the calls tach loads.
 */
#include <stdlib.h>
#include <string.h>

static const char md[] = "any";

const void *
EVP_get_digestbyname(const char *name)
{
	(void)name;
	return md;
}

int
EVP_MD_get_size(const void *m)
{
	(void)m;
	return 32;
}

int
EVP_MD_size(const void *m)
{
	return EVP_MD_get_size(m);
}

void *
EVP_MD_CTX_new(void)
{
	return malloc(1);
}

void
EVP_MD_CTX_free(void *ctx)
{
	free(ctx);
}

int
EVP_DigestInit_ex(void *ctx, const void *m, void *engine)
{
	(void)ctx;
	(void)m;
	(void)engine;
	return 1;
}

int
EVP_DigestUpdate(void *ctx, const void *data, size_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
	return 0;
}

int
EVP_MD_CTX_copy_ex(void *to, const void *from)
{
	(void)to;
	(void)from;
	return 1;
}

int
EVP_DigestFinal_ex(void *ctx, unsigned char *out, unsigned int *len)
{
	(void)ctx;
	memset(out, 0, 32);
	*len = 32;
	return 1;
}
